//! `ring-allreduce`: the ranks' values step by step, for the ring and, to compare, the naive
//! and tree algorithms; beside it the α–β time of each for a tensor size and link.

use leptos::prelude::*;
use lockstep_embed::RingAllReduce;
use lockstep_i18n::sims::{RingWords, SimWords};
use sim_engine::allreduce::{allreduce, Algorithm, AllReduce, Phase, Transfer};
use sim_engine::cost::{self, Estimate, Link};

use super::window::{windowed, Measure};
use super::{bandwidth, duration, longest, number, Explain, NumberField, Player};

/// What happened to a value in a step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// A received value was added to it.
    Added,
    /// It was overwritten by a received value.
    Copied,
}

/// The run the view shows: every step of one all-reduce on the lesson's starting values.
#[derive(Debug, Clone, PartialEq)]
pub struct RingModel {
    pub algorithm: Algorithm,
    pub inputs: Vec<Vec<f32>>,
    pub run: AllReduce,
}

impl RingModel {
    /// Rank `r` starts with `r·elements + 1, r·elements + 2, …`: lesson 3's table for 3 ranks
    /// of 3 values, and distinct small integers (whose sums are exact) for any size.
    pub fn new(ranks: usize, elements: usize, algorithm: Algorithm) -> RingModel {
        let inputs: Vec<Vec<f32>> = (0..ranks)
            .map(|r| (0..elements).map(|i| (r * elements + i + 1) as f32).collect())
            .collect();
        let run = allreduce(algorithm, &inputs).expect("equal shapes and at least one rank");
        RingModel { algorithm, inputs, run }
    }

    pub fn ranks(&self) -> usize {
        self.inputs.len()
    }

    pub fn steps(&self) -> usize {
        self.run.steps.len()
    }

    /// Every rank's values after `step` steps (0: the inputs).
    pub fn values(&self, step: usize) -> &[Vec<f32>] {
        match step {
            0 => &self.inputs,
            s => &self.run.steps[s - 1].after,
        }
    }

    pub fn phase(&self, step: usize) -> Option<Phase> {
        step.checked_sub(1).map(|s| self.run.steps[s].phase)
    }

    pub fn sends(&self, step: usize) -> &[Transfer] {
        step.checked_sub(1).map_or(&[], |s| &self.run.steps[s].transfers)
    }

    /// For each rank and element, what the step did to it.
    pub fn changes(&self, step: usize) -> Vec<Vec<Option<Change>>> {
        let mut out = vec![vec![None; self.inputs[0].len()]; self.ranks()];
        if let Some(phase) = self.phase(step) {
            let change = if phase.adds() { Change::Added } else { Change::Copied };
            for t in self.sends(step) {
                for i in self.run.chunks[t.chunk].clone() {
                    out[t.to][i] = Some(change);
                }
            }
        }
        out
    }

    /// The chunk an element belongs to.
    pub fn chunk_of(&self, element: usize) -> usize {
        self.run.chunks.iter().position(|c| c.contains(&element)).unwrap_or(0)
    }

    /// The element-wise sum computed directly, to check the result against.
    pub fn expected_sum(&self) -> Vec<f32> {
        (0..self.inputs[0].len()).map(|i| self.inputs.iter().map(|v| v[i]).sum()).collect()
    }

    pub fn explain(&self, step: usize, w: &RingWords) -> String {
        let n = self.ranks();
        match self.phase(step) {
            None => (w.explain_start)(n),
            Some(Phase::ReduceScatter) => w.explain_reduce_scatter.into(),
            Some(Phase::AllGather) => w.explain_all_gather.into(),
            Some(Phase::Reduce) => w.explain_reduce.into(),
            Some(Phase::Broadcast) => w.explain_broadcast.into(),
        }
    }
}

/// The α–β estimate of each algorithm for `bytes` over `ranks` on `link`.
pub fn cost_rows(ranks: usize, bytes: f64, link: Link) -> Vec<(Algorithm, usize, Estimate)> {
    Algorithm::ALL
        .into_iter()
        .map(|a| (a, a.steps(ranks), cost::allreduce(a, bytes, ranks, link)))
        .collect()
}

/// Tensor sizes the slider offers, in MB.
pub const SIZES_MB: [f64; 10] = [0.001, 0.01, 0.1, 1.0, 10.0, 25.0, 100.0, 400.0, 1000.0, 10000.0];

fn size_label(mb: f64) -> String {
    super::si_bytes(mb * 1e6)
}

#[component]
pub fn RingAllReduceView(params: RingAllReduce) -> impl IntoView {
    let w = crate::page::use_t().sims;
    let r = &w.ring;
    let ranks = RwSignal::new(params.ranks);
    let elements = RwSignal::new(params.elements);
    let algorithm = RwSignal::new(params.algorithm);
    let link = RwSignal::new(params.link.link());
    let size_at = RwSignal::new(
        SIZES_MB.iter().position(|&s| s >= params.size_mb).unwrap_or(SIZES_MB.len() - 1),
    );
    let step = RwSignal::new(0usize);
    let model = Memo::new(move |_| RingModel::new(ranks.get(), elements.get(), algorithm.get()));
    let last = Signal::derive(move || model.with(|m| m.steps()));

    let count_field = move |label: &'static str,
                            signal: RwSignal<usize>,
                            min: usize,
                            max: usize| {
        let set = Callback::new(move |v: i64| {
            signal.set(v as usize);
            step.set(0);
        });
        view! { <NumberField label value=Signal::derive(move || signal.get() as i64) set min=min as i64 max=max as i64/> }
    };

    view! {
        <header class="sim-head">
            <h3>{r.title}</h3>
            <div class="sim-params needs-js">
                {count_field(w.ranks, ranks, 2, lockstep_embed::MAX_RANKS)}
                {count_field(r.values_per_rank, elements, 1, lockstep_embed::MAX_ELEMENTS)}
                <label>
                    {r.algorithm}
                    <select on:change=move |ev| {
                        if let Some(a) = Algorithm::from_name(&event_target_value(&ev)) {
                            algorithm.set(a);
                            step.set(0);
                        }
                    }>
                        {Algorithm::ALL
                            .into_iter()
                            .map(|a| view! { <option value=a.name() selected=move || algorithm.get() == a>{a.name()}</option> })
                            .collect_view()}
                    </select>
                </label>
            </div>
        </header>
        <Player step last unit=&w.units.step label=r.label start_label=w.start/>
        <Explain
            role="phase"
            text=Signal::derive(move || model.with(|m| m.explain(step.get(), r)))
            longest=Signal::derive(move || model.with(|m| longest((0..=m.steps()).map(|s| m.explain(s, r)))))
        />
        <div class="ring-layout">
            // Rebuilt when the model changes; a step only rewrites the arrows.
            {move || model.with(|m| ring_diagram(m, model, step, r))}
            {move || {
                model.track();
                values_table(model, step, w)
            }}
        </div>
        <div class="ring-sends" data-role="sends">
            {move || {
                model.track();
                sends_list(model, step, w)
            }}
        </div>
        // Built with the model and shown at the last step: at 64 ranks of 256 values the
        // result is some 800 numbers, whose making was most of that step's update.
        {move || model.with(|m| {
            let last = m.steps();
            result(m, Signal::derive(move || step.get() == last), r)
        })}
        <div class="ring-cost">
            <h4>{r.cost_title}</h4>
            <div class="sim-params needs-js">
                <label>
                    {w.link}
                    <select on:change=move |ev| {
                        if let Some(l) = cost::preset(&event_target_value(&ev)) {
                            link.set(l);
                        }
                    }>
                        {cost::PRESETS
                            .into_iter()
                            .map(|l| view! { <option value=l.id selected=move || link.get().id == l.id>{l.name}</option> })
                            .collect_view()}
                    </select>
                </label>
                <label>
                    {r.tensor_size}
                    <input
                        type="range"
                        min=0
                        max=SIZES_MB.len() - 1
                        prop:value=move || size_at.get().to_string()
                        aria-valuetext=move || size_label(SIZES_MB[size_at.get()])
                        on:input=move |ev| {
                            if let Ok(v) = event_target_value(&ev).parse::<usize>() {
                                size_at.set(v.min(SIZES_MB.len() - 1));
                            }
                        }
                    />
                    <output>{move || size_label(SIZES_MB[size_at.get()])}</output>
                </label>
            </div>
            {move || cost_table(ranks.get(), SIZES_MB[size_at.get()] * 1e6, link.get(), r)}
        </div>
    }
}

fn ring_diagram(
    m: &RingModel,
    model: Memo<RingModel>,
    step: RwSignal<usize>,
    w: &'static RingWords,
) -> impl IntoView {
    let n = m.ranks();
    let pos = move |r: usize| {
        let a = std::f64::consts::TAU * r as f64 / n as f64 - std::f64::consts::FRAC_PI_2;
        (100.0 * a.cos(), 100.0 * a.sin())
    };
    let radius = if n <= 8 {
        14.0
    } else if n <= 24 {
        8.0
    } else {
        4.0
    };
    // All arrows are two paths, the lines and their heads: a step rewrites two attributes
    // instead of replacing an element per send (64 at 64 ranks).
    // Who sends to whom: every step of the ring has the same sends, so the paths (some 1,300
    // numbers formatted at 64 ranks) are made again only when these change.
    let pairs = Memo::new(move |_| {
        let step = step.get();
        model.with(|m| m.sends(step).iter().map(|t| (t.from, t.to)).collect::<Vec<_>>())
    });
    let arrows = Memo::new(move |_| pairs.with(|p| arrow_paths(p, pos, radius)));
    let nodes = (0..n)
        .map(|r| {
            let (x, y) = pos(r);
            let label = (n <= 24)
                .then(|| view! { <text x=x y=y + 4.0 text-anchor="middle">{r.to_string()}</text> });
            view! {
                <g class="rank">
                    <circle cx=x cy=y r=radius/>
                    {label}
                </g>
            }
        })
        .collect_view();
    view! {
        <svg
            class="ring-diagram"
            viewBox="-125 -125 250 250"
            role="img"
            aria-label=move || arrows.with(|a| (w.diagram)(n, a.2))
        >
            <path class="send" d=move || arrows.with(|a| a.0.clone())/>
            <path class="send-head" d=move || arrows.with(|a| a.1.clone())/>
            {nodes}
        </svg>
    }
}

/// The arrows of `sends` (from, to) between ranks placed by `pos`, drawn as circles of
/// `radius`: the paths of their lines and of their heads, and how many there are.
fn arrow_paths(
    sends: &[(usize, usize)],
    pos: impl Fn(usize) -> (f64, f64),
    radius: f64,
) -> (String, String, usize) {
    let (mut lines, mut heads) = (String::new(), String::new());
    for &(from, to) in sends {
        let ((x1, y1), (x2, y2)) = (pos(from), pos(to));
        let (dx, dy) = (x2 - x1, y2 - y1);
        let len = (dx * dx + dy * dy).sqrt().max(1e-9);
        let (ux, uy) = (dx / len, dy / len);
        // Stop short of the circles so the heads show.
        let gap = radius + 2.0;
        let (sx, sy, ex, ey) = (x1 + ux * gap, y1 + uy * gap, x2 - ux * gap, y2 - uy * gap);
        // The head: 12 long and 12 wide, its tip just past the line's end.
        let (tx, ty) = (ex + ux * 1.2, ey + uy * 1.2);
        let (bx, by) = (ex - ux * 10.8, ey - uy * 10.8);
        let (nx, ny) = (-uy * 6.0, ux * 6.0);
        lines.push_str(&format!("M{sx:.2} {sy:.2}L{:.2} {:.2}", ex - ux * 6.0, ey - uy * 6.0));
        heads.push_str(&format!(
            "M{tx:.2} {ty:.2}L{:.2} {:.2}L{:.2} {:.2}Z",
            bx + nx,
            by + ny,
            bx - nx,
            by - ny
        ));
    }
    (lines, heads, sends.len())
}

/// One cell of the values table: what it shows after the current step.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Cell {
    value: f32,
    change: Option<Change>,
}

impl Cell {
    /// How a cell shows its change: CSS class, the mark beside the value, and its tooltip.
    fn look(change: Option<Change>, w: &RingWords) -> (&'static str, &'static str, &'static str) {
        match change {
            Some(Change::Added) => ("added", "+", w.added),
            Some(Change::Copied) => ("copied", "=", w.copied),
            None => ("", "", ""),
        }
    }
}

/// The nodes a step writes to in a drawn cell: the cell (its value as data), the box whose
/// class and title say the change, the mark's text and the value's.
#[cfg(feature = "hydrate")]
struct CellNodes {
    cell: web_sys::Element,
    marked: web_sys::Element,
    mark: web_sys::Node,
    value: web_sys::Node,
}

#[cfg(feature = "hydrate")]
impl CellNodes {
    /// A cell's nodes, as `values_table` draws it.
    fn find(td: web_sys::HtmlTableCellElement) -> Option<CellNodes> {
        let marked = td.first_element_child()?.first_element_child()?;
        let span = marked.first_element_child()?;
        let (mark, value) = (span.first_child()?, span.next_sibling()?);
        Some(CellNodes { cell: td.into(), marked, mark, value })
    }

    /// Makes the cell show `new` where it showed `old`.
    fn write(&self, old: &Cell, new: &Cell, w: &RingWords) {
        if old.value != new.value {
            let _ = self.cell.set_attribute("data-value", &new.value.to_string());
            self.value.set_node_value(Some(&number(new.value)));
        }
        if old.change != new.change {
            let (class, mark, title) = Cell::look(new.change, w);
            self.marked.set_class_name(class);
            let _ = self.marked.set_attribute("title", title);
            self.mark.set_node_value(Some(mark));
        }
    }
}

/// The cells after `step`, row by row.
fn cells(m: &RingModel, step: usize) -> Vec<Vec<Cell>> {
    m.values(step)
        .iter()
        .zip(m.changes(step))
        .map(|(row, ch)| {
            row.iter().zip(ch).map(|(&value, change)| Cell { value, change }).collect()
        })
        .collect()
}

/// What the table draws before the browser has said what is in view: enough to fill its box.
const FIRST: (usize, usize) = (24, 32);

/// Built once per model; a step then updates only the cells it changed.
///
/// The table draws only the rows and columns in view (`super::window`): at 64 ranks of 256
/// values a step took some 100 ms with all 16,384 cells drawn. Every cell's state is still kept,
/// so scrolling shows the current step.
fn values_table(
    model: Memo<RingModel>,
    step: RwSignal<usize>,
    w: &'static SimWords,
) -> impl IntoView {
    let r = &w.ring;
    let (ranks, cols, start, chunks, chars) = model.with_untracked(|m| {
        // The widest value is a sum, plus its mark.
        let chars = m.expected_sum().iter().map(|&v| number(v).len()).max().unwrap_or(1) + 2;
        let chunks: Vec<usize> = (0..m.inputs[0].len()).map(|i| m.chunk_of(i)).collect();
        (m.ranks(), m.inputs[0].len(), cells(m, step.get_untracked()), chunks, chars)
    });
    // What the cells show and after which step, to compare against.
    let shown = StoredValue::new((step.get_untracked(), start));
    // A step writes the drawn cells it changed itself, to the nodes each keeps as it is drawn.
    // With a signal per cell, a step at 64 ranks of 256 values set some 500 signals (every
    // cell it sent to, drawn or not) and ran five effects per drawn cell that changed.
    #[cfg(feature = "hydrate")]
    let drawn = super::window::Drawn::<CellNodes>::new();
    // Effects run only in the browser; the server renders `start`.
    Effect::new(move |_| {
        let now = step.get();
        model.with_untracked(|m| {
            shown.update_value(|(was, shown)| {
                let values = m.values(now);
                let changes = m.changes(now);
                let mut show = |rank: usize, col: usize| {
                    let cell = Cell { value: values[rank][col], change: changes[rank][col] };
                    let old = &mut shown[rank][col];
                    if *old != cell {
                        #[cfg(feature = "hydrate")]
                        drawn.with(rank * cols + col, |nodes| nodes.write(old, &cell, r));
                        *old = cell;
                    }
                };
                // A step forward or back can only change the cells that the two steps sent
                // to: 512 of 16,384 at 64 ranks of 256 values. Any other jump compares all.
                if now.abs_diff(*was) == 1 {
                    for t in m.sends(*was).iter().chain(m.sends(now)) {
                        for col in m.run.chunks[t.chunk].clone() {
                            show(t.to, col);
                        }
                    }
                } else {
                    for (rank, row) in values.iter().enumerate() {
                        (0..row.len()).for_each(|col| show(rank, col));
                    }
                }
                *was = now;
            })
        });
    });

    let (window, scroller, measure) = windowed(
        (ranks, cols),
        FIRST,
        Measure {
            head: Some("thead tr"),
            lead: Some("tbody th"),
            row: Some("tbody tr"),
            col: "tbody tr:first-child td",
        },
    );

    let head = move || {
        window
            .get()
            .drawn_cols()
            .map(|i| {
                let chunk = chunks[i];
                view! { <th scope="col" class=format!("chunk-{}", chunk % 8) aria-colindex=i + 2>{format!("c{chunk}")}</th> }
            })
            .collect_view()
    };
    let cell = move |rank: usize, col: usize| {
        let c = shown.with_value(|(_, shown)| shown[rank][col]);
        let (class, mark, title) = Cell::look(c.change, r);
        let item = NodeRef::<leptos::html::Td>::new();
        #[cfg(feature = "hydrate")]
        drawn.keep(rank * cols + col, item, CellNodes::find);
        view! {
            <td data-value=c.value.to_string() aria-colindex=col + 2 node_ref=item>
                <div class="cell">
                    <div class=class title=title>
                        <span class="mark" aria-hidden="true">{mark}</span>
                        {number(c.value)}
                    </div>
                </div>
            </td>
        }
    };
    let row = move |rank: usize| {
        view! {
            <tr data-rank=rank aria-rowindex=rank + 2>
                <th scope="row">{(w.rank)(rank)}</th>
                <For
                    each=move || window.get().drawn_cols()
                    key=|&col| col
                    children=move |col| cell(rank, col)
                />
            </tr>
        }
    };
    let place = move || window.get().place();
    let size = format!("--rows: {ranks}; --cols: {cols}; --chars: {chars}");
    view! {
        <div class="ring-values">
            <div class="table-scroll values-scroll" style=size node_ref=scroller on:scroll=move |_| measure()>
                <div class="values-plane">
                    <table class="ring-table" data-role="values" aria-rowcount=ranks + 1 aria-colcount=cols + 1 style=place>
                        <thead><tr aria-rowindex=1><th scope="col">{r.chunk_column}</th>{head}</tr></thead>
                        <tbody>
                            <For
                                each=move || window.get().drawn_rows()
                                key=|&rank| rank
                                children=row
                            />
                        </tbody>
                    </table>
                </div>
            </div>
            <p class="ring-caption">{r.caption_before} <b>"+"</b> {r.caption_added} <b>"="</b> {r.caption_copied}</p>
        </div>
    }
}

/// The step's first sends in words, and how many more: list items made once per model, as many
/// as its busiest step shows, whose texts a step rewrites. An item the step does not fill, and
/// the line of how many more, stay in their place unseen: the list keeps one height from the
/// start to the end (its growing from nothing at the first step moved, and repainted, all that
/// follows it).
fn sends_list(
    model: Memo<RingModel>,
    step: RwSignal<usize>,
    w: &'static SimWords,
) -> impl IntoView {
    const SHOWN: usize = 8;
    let said = Memo::new(move |_| {
        model.with(|m| {
            let sends = m.sends(step.get());
            let chunks = m.run.chunks.len();
            let items: Vec<String> = sends
                .iter()
                .take(SHOWN)
                .map(|t| {
                    let what = if chunks > 1 {
                        (w.ring.chunk)(t.chunk)
                    } else {
                        w.ring.whole_tensor.to_string()
                    };
                    let values: Vec<String> = t.values.iter().take(6).map(|&v| number(v)).collect();
                    let more = if t.values.len() > 6 { " …" } else { "" };
                    (w.ring.send)(t.from, t.to, &what, &format!("{}{more}", values.join(", ")))
                })
                .collect();
            (items, sends.len().saturating_sub(SHOWN))
        })
    });
    let item = move |i: usize| {
        view! {
            <li class:vacant=move || said.with(|s| i >= s.0.len())>
                {move || said.with(|s| s.0.get(i).cloned().unwrap_or_default())}
            </li>
        }
    };
    let (slots, more) = model.with_untracked(|m| {
        let most = m.run.steps.iter().map(|s| s.transfers.len()).max().unwrap_or(0);
        (most.min(SHOWN), most > SHOWN)
    });
    view! {
        <ul>{(0..slots).map(item).collect_view()}</ul>
        {more.then(|| view! {
            <p class="muted" class:vacant=move || said.with(|s| s.1 == 0)>
                {move || said.with(|s| if s.1 > 0 { (w.ring.more_sends)(s.1) } else { String::new() })}
            </p>
        })}
    }
}

/// The sum every rank holds at the end and the mean DDP uses, hidden until `shown`.
fn result(m: &RingModel, shown: Signal<bool>, w: &RingWords) -> impl IntoView {
    let n = m.ranks();
    let sum = &m.run.sum[0];
    let expected = m.expected_sum();
    let agrees = m.run.sum.iter().all(|v| v == &expected);
    let fmt = |v: &[f32]| v.iter().map(|&x| number(x)).collect::<Vec<_>>().join(" ");
    view! {
        <div class="ring-result" data-role="result" hidden=move || !shown.get()>
            <p>
                {w.holds_sum} <output data-role="final-sum">{fmt(sum)}</output>
            </p>
            <p>
                {(w.ddp_gradient)(n)}
                <output data-role="final-mean">{fmt(&m.run.mean[0])}</output>
            </p>
            <p class=if agrees { "check ok" } else { "check" }>
                {if agrees { w.agree } else { w.disagree }}
            </p>
        </div>
    }
}

fn cost_table(ranks: usize, bytes: f64, link: Link, w: &RingWords) -> impl IntoView {
    let rows = cost_rows(ranks, bytes, link)
        .into_iter()
        .map(|(a, steps, e)| {
            view! {
                <tr data-algorithm=a.name()>
                    <th scope="row">{a.name()}</th>
                    <td>{steps}</td>
                    <td>{duration(e.time_s)}</td>
                    <td>{bandwidth(e.algbw)}</td>
                    <td>{bandwidth(e.busbw)}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <table class="cost-table" data-role="cost">
            <caption>
                {(w.cost_caption)(
                    &size_label(bytes / 1e6),
                    ranks,
                    link.name,
                    &duration(link.alpha_s),
                    &bandwidth(link.beta_bytes_per_s),
                )}
            </caption>
            <thead>
                <tr>
                    <th scope="col">{w.col_algorithm}</th>
                    <th scope="col">{w.col_steps}</th>
                    <th scope="col">{w.col_time}</th>
                    <th scope="col">{w.col_algbw}</th>
                    <th scope="col">{w.col_busbw}</th>
                </tr>
            </thead>
            <tbody>{rows}</tbody>
        </table>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lesson_three_start_and_end() {
        let m = RingModel::new(3, 3, Algorithm::Ring);
        assert_eq!(m.values(0), &[vec![1.0, 2.0, 3.0], vec![4.0, 5.0, 6.0], vec![7.0, 8.0, 9.0]]);
        assert_eq!(m.steps(), 4);
        assert_eq!(m.values(4)[2], vec![12.0, 15.0, 18.0]);
        assert_eq!(m.expected_sum(), vec![12.0, 15.0, 18.0]);
    }

    #[test]
    fn changes_mark_what_each_step_touched() {
        let m = RingModel::new(3, 3, Algorithm::Ring);
        // Step 1: rank 0 sends c0 to rank 1, rank 1 c1 to rank 2, rank 2 c2 to rank 0.
        let c = m.changes(1);
        assert_eq!(c[1][0], Some(Change::Added));
        assert_eq!(c[2][1], Some(Change::Added));
        assert_eq!(c[0][2], Some(Change::Added));
        assert_eq!(c.iter().flatten().filter(|x| x.is_some()).count(), 3);
        assert!(m.changes(4).iter().flatten().flatten().all(|&x| x == Change::Copied));
        assert!(m.changes(0).iter().flatten().all(Option::is_none));
        let w = &lockstep_i18n::sims::EN.ring;
        assert!(m.explain(1, w).starts_with("Reduce-scatter"));
        assert!(m.explain(3, w).starts_with("All-gather"));
        assert_eq!(m.explain(0, w), "Start: each of the 3 ranks holds its own gradient.");
    }

    #[test]
    fn naive_moves_whole_tensors() {
        let m = RingModel::new(4, 2, Algorithm::Naive);
        assert_eq!(m.steps(), 6);
        assert_eq!(m.chunk_of(1), 0);
        assert_eq!(m.changes(1)[0], vec![Some(Change::Added), Some(Change::Added)]);
    }

    #[test]
    fn cost_rows_cover_every_algorithm() {
        let rows = cost_rows(8, 1e8, cost::NVLINK4_H100);
        assert_eq!(rows.iter().map(|r| r.1).collect::<Vec<_>>(), vec![14, 14, 6]);
        assert!(rows[0].2.time_s < rows[1].2.time_s, "the ring beats the naive master for 100 MB");
    }
}
