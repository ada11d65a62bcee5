//! Drawing only the part of a large grid that is in view: the ring's values table at 64 ranks of
//! 256 values has 16,384 cells, and the sampler's ranks and dataset 2,048 chips at 1,024 indices.
//! Drawn whole, a step that changed a few hundred of them cost 50–100 ms: in a trace of a ring
//! step, Chromium laid the page out from its root with thousands of objects dirty, and CSS
//! containment on the cells did not keep that in. What a step costs grows with the cells drawn,
//! so only those in view (and one more on each side) are drawn.
//!
//! A windowed grid sits on a "plane" sized by CSS as the whole grid would be, and the drawn part
//! is placed where the whole grid has it (`--r0`, `--c0`), so the scroll bars and positions are
//! those of the whole grid. Every row and column has a size fixed in CSS.

use leptos::prelude::*;

/// The rows and columns drawn, as `[start, end)` ranges.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Window {
    pub rows: (usize, usize),
    pub cols: (usize, usize),
}

/// Rows and columns drawn beyond each edge of the view. One is enough: a scroll moves the window
/// in its own event, before the frame that shows it is painted; every cell drawn out of view is
/// work for every step.
pub const SPARE: usize = 1;

/// Where the grid's cells start in its scroll box, and each row's and column's size, in pixels.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sizes {
    /// Above the first row (a head row).
    pub head: f64,
    /// Left of the first column (row labels).
    pub lead: f64,
    pub row: f64,
    pub col: f64,
}

impl Window {
    /// What is drawn before the browser has said what is in view (the server's first frame and
    /// the page as hydrated): up to `most` rows and columns from the top left.
    pub fn first((rows, cols): (usize, usize), most: (usize, usize)) -> Window {
        Window { rows: (0, rows.min(most.0)), cols: (0, cols.min(most.1)) }
    }

    /// The window for a view `view` pixels wide and high, scrolled to `scroll`, of a grid of
    /// `rows` × `cols` cells. A size not measured yet (0) draws everything along its axis.
    #[cfg_attr(not(feature = "hydrate"), allow(dead_code))]
    pub fn in_view(
        (rows, cols): (usize, usize),
        scroll: (f64, f64),
        view: (f64, f64),
        sizes: Sizes,
    ) -> Window {
        let span = |from: f64, len: f64, size: f64, count: usize| {
            if size <= 0.0 {
                return (0, count);
            }
            let first = (from / size).floor().max(0.0) as usize;
            let last = ((from + len) / size).ceil().max(0.0) as usize;
            (first.saturating_sub(SPARE).min(count), (last + SPARE).min(count))
        };
        Window {
            rows: span(scroll.1 - sizes.head, view.1, sizes.row, rows),
            cols: span(scroll.0 - sizes.lead, view.0, sizes.col, cols),
        }
    }

    /// The rows drawn.
    pub fn drawn_rows(self) -> std::ops::Range<usize> {
        self.rows.0..self.rows.1
    }

    /// The columns drawn.
    pub fn drawn_cols(self) -> std::ops::Range<usize> {
        self.cols.0..self.cols.1
    }

    /// `--r0` and `--c0`, which place the drawn part on the plane.
    pub fn place(self) -> String {
        format!("--r0: {}; --c0: {}; --cn: {}", self.rows.0, self.cols.0, self.cols.1 - self.cols.0)
    }
}

/// Decimal digits of the largest of `count` indices (0-based): a cell sized for them fits all.
pub fn digits(count: usize) -> usize {
    count.saturating_sub(1).to_string().len()
}

/// What gives a windowed grid's sizes: CSS selectors inside its scroll box, measured with
/// `pitch` (`None`: nothing there, 0).
#[derive(Debug, Clone, Copy)]
#[cfg_attr(not(feature = "hydrate"), allow(dead_code))]
pub struct Measure {
    pub head: Option<&'static str>,
    pub lead: Option<&'static str>,
    pub row: Option<&'static str>,
    pub col: &'static str,
}

/// A windowed grid of `count` rows × columns: the window drawn, first `Window::first(count,
/// first)`, the node of its scroll box, and what to call when the box scrolls, which measures
/// the box and moves the window to what is in view.
#[cfg_attr(not(feature = "hydrate"), allow(unused_variables))]
pub fn windowed(
    count: (usize, usize),
    first: (usize, usize),
    measure: Measure,
) -> (RwSignal<Window>, NodeRef<leptos::html::Div>, impl Fn() + Copy + 'static) {
    let window = RwSignal::new(Window::first(count, first));
    let scroller = NodeRef::<leptos::html::Div>::new();
    let update = move || {
        #[cfg(feature = "hydrate")]
        if let Some(el) = scroller.get_untracked() {
            let size = |css: Option<&str>, wide: bool| css.map_or(0.0, |css| pitch(&el, css, wide));
            let sizes = Sizes {
                head: size(measure.head, false),
                lead: size(measure.lead, true),
                row: size(measure.row, false),
                col: size(Some(measure.col), true),
            };
            let now = Window::in_view(
                count,
                (el.scroll_left() as f64, el.scroll_top() as f64),
                (el.client_width() as f64, el.client_height() as f64),
                sizes,
            );
            if now != window.get_untracked() {
                window.set(now);
            }
        }
    };
    // The view may be larger than the first window once the page has its real size.
    Effect::new(move |_| {
        if scroller.get().is_some() {
            update();
        }
    });
    (window, scroller, update)
}

/// The nodes of a windowed grid's drawn items, by place: an item puts its node in as it is
/// drawn and takes it out as it goes, so that a step writes to the items it changed without
/// looking for them in the page (a walk through a row's elements is two calls out of the wasm
/// per element, more than the write).
#[cfg(feature = "hydrate")]
pub struct Drawn<N: 'static>(StoredValue<std::collections::HashMap<usize, N>, LocalStorage>);

#[cfg(feature = "hydrate")]
impl<N: 'static> Clone for Drawn<N> {
    fn clone(&self) -> Self {
        *self
    }
}

#[cfg(feature = "hydrate")]
impl<N: 'static> Copy for Drawn<N> {}

#[cfg(feature = "hydrate")]
impl<N: 'static> Drawn<N> {
    pub fn new() -> Self {
        Drawn(StoredValue::new_local(Default::default()))
    }

    /// Keeps what `find` gives of the element `item` at place `k` while it is drawn. Called
    /// where the item is made, under its owner.
    pub fn keep<E>(
        self,
        k: usize,
        item: NodeRef<E>,
        find: impl FnOnce(E::Output) -> Option<N> + 'static,
    ) where
        E: leptos::tachys::html::element::ElementType + 'static,
        E::Output: wasm_bindgen::JsCast + Clone + 'static,
    {
        item.on_load(move |el| {
            if let Some(node) = find(el) {
                self.0.update_value(|drawn| {
                    drawn.insert(k, node);
                });
            }
        });
        on_cleanup(move || {
            self.0.try_update_value(|drawn| drawn.remove(&k));
        });
    }

    /// Calls `f` with the node of the item at place `k`, if it is drawn.
    pub fn with(self, k: usize, f: impl FnOnce(&N)) {
        self.0.with_value(|drawn| drawn.get(&k).map(f));
    }

    /// Calls `f` with each drawn item's place and node.
    pub fn each(self, mut f: impl FnMut(usize, &N)) {
        self.0.with_value(|drawn| drawn.iter().for_each(|(&k, node)| f(k, node)));
    }
}

/// The distance from the first element matching `css` inside `el` to the second, across
/// (`wide`) or down: a cell's size with the gap after it. With one element, its size.
#[cfg(feature = "hydrate")]
fn pitch(el: &web_sys::Element, css: &str, wide: bool) -> f64 {
    use wasm_bindgen::JsCast;
    let Ok(found) = el.query_selector_all(css) else { return 0.0 };
    let at = |i: u32| found.item(i).and_then(|n| n.dyn_into::<web_sys::HtmlElement>().ok());
    let Some(a) = at(0) else { return 0.0 };
    let (from, size) = if wide {
        (a.offset_left(), a.offset_width())
    } else {
        (a.offset_top(), a.offset_height())
    };
    match at(1).map(|b| if wide { b.offset_left() } else { b.offset_top() }) {
        Some(to) if to > from => (to - from) as f64,
        _ => size as f64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_window_covers_the_view_and_a_few_more() {
        let sizes = Sizes { head: 28.0, lead: 88.0, row: 28.0, col: 60.0 };
        // At the top left, 400 × 300 pixels show rows 0..10 and columns 0..6.
        let w = Window::in_view((64, 256), (0.0, 0.0), (400.0, 300.0), sizes);
        assert_eq!(w, Window { rows: (0, 10 + SPARE), cols: (0, 6 + SPARE) });
        // Scrolled to the far corner, never past the last row or column.
        let w = Window::in_view((64, 256), (15_000.0, 1_500.0), (400.0, 300.0), sizes);
        assert_eq!((w.rows.1, w.cols.1), (64, 256));
        assert!(w.rows.0 <= 52 - SPARE && w.cols.0 <= 248 - SPARE, "{w:?}");
        // Before anything is measured, everything; and a small grid is drawn whole.
        let none = Sizes { head: 0.0, lead: 0.0, row: 0.0, col: 0.0 };
        let w = Window::in_view((3, 3), (0.0, 0.0), (400.0, 300.0), none);
        assert_eq!(w, Window { rows: (0, 3), cols: (0, 3) });
        assert_eq!(Window::first((3, 3), (24, 32)), Window { rows: (0, 3), cols: (0, 3) });
        assert_eq!(Window::first((64, 256), (24, 32)), Window { rows: (0, 24), cols: (0, 32) });
        assert_eq!(Window::first((64, 256), (24, 32)).place(), "--r0: 0; --c0: 0; --cn: 32");
        assert_eq!((digits(10), digits(11), digits(1024), digits(1)), (1, 2, 4, 1));
        let w = Window { rows: (2, 5), cols: (0, 3) };
        assert_eq!((w.drawn_rows(), w.drawn_cols()), (2..5, 0..3));
    }
}
