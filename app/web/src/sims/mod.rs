//! The simulations lessons embed, computed by `sim-engine` wherever the page runs: on the server
//! for the first, static state, and in the browser (WebAssembly) once the page is hydrated.
//!
//! Each simulation is a view model (plain data, unit-tested natively) and a component that draws
//! it. The controls need JavaScript, so they stay hidden until the page is hydrated; the state
//! they start from is complete without them.
//!
//! # Simulation directive → simulation
//!
//! A ```` ```sim name key=value ```` fence is parsed by `lockstep-embed` while the lesson renders;
//! the renderer leaves a marker in the HTML that lesson text cannot produce, and cuts the body into
//! blocks there once the whole body is written (one HTML writer, so footnote numbers run across the
//! body). The lesson page renders HTML blocks with `inner_html` and simulation blocks as Leptos
//! components, which compute their first state with sim-engine on the server and again,
//! identically, in the browser once the simulation comes near the view (below, "Build chain": until
//! then it is the server's drawing). A simulation's view is built once per set of parameters; a
//! step changes only classes, attributes and texts that follow the step's signal (a list that grows
//! and shrinks has as many items as its longest step, hidden when empty; a box whose content is
//! many items a step replaces, as a scatter/gather card's work in a phase, is one text with a line
//! per item, which the browser lays out as one text where a list would be a box per item). What a
//! step rewrites keeps one height through the steps (a step's explanation is as tall as its
//! longest, the ring's sends keep their empty lines, a scatter/gather card holds every text it can
//! show unseen under the one it shows, a memory row's text keeps the lines its bold takes): a box
//! that grew would move, lay out and repaint all that follows it. Only the ring's last step grows
//! the simulation, with its result. Rebuilding a view per step would replace its nodes, and with
//! components erased (below, "Build chain") rewrite every attribute and text in it; `sim_steps`
//! counts what each step changes. In the two grids with hundreds of drawn cells (the ring's values,
//! the sampler's chips), a cell is drawn with what it shows when it comes into view and keeps its
//! nodes in `window::Drawn`; one effect per step compares the model before and after and writes
//! only the cells that changed, where a signal and effects per cell ran hundreds of effects a step.

mod accumulation;
mod dp_vs_ddp;
mod format;
mod memory;
mod mlp_on_gpus;
mod number_field;
mod player;
mod ring;
mod sampler;
mod scatter_gather;
mod window;

use leptos::prelude::*;
#[cfg(feature = "hydrate")]
use lockstep_embed::Kind;
#[cfg(any(feature = "hydrate", test))]
use lockstep_embed::Part;
#[cfg(any(feature = "ssr", feature = "hydrate"))]
use lockstep_embed::Split;
use lockstep_embed::{Collective, Simulation, Timeline};
use sim_engine::timeline::Label;

pub use format::{bandwidth, bytes, count, duration, number, plural, si_bytes};
pub use number_field::NumberField;
pub use player::{longest, Explain, OnExplored, Player};

pub use crate::model::Embedded;

/// One simulation. `explored`, when given, is called once the learner has stepped or played it
/// to its end.
///
/// The server draws its first state into the page. The simulations' code is a part of the
/// browser bundle of its own (`#[lazy]`), and a page does not wait for it: hydration leaves the
/// server's drawing as it is (an `inner_html` is not set again on hydration), and the part is
/// loaded once the simulation comes near the view, which then draws it live in place of the
/// server's (the same first state; its controls show from then on, `data-live`). So a lesson
/// is interactive without the simulations' code, and a reader who never scrolls to one never
/// downloads it. A page reached by a link draws its simulations as soon as the part is there.
#[component]
pub fn SimulationView(
    #[prop(into)] sim: Embedded,
    #[prop(optional)] explored: Option<Callback<()>>,
) -> impl IntoView {
    if let Some(explored) = explored {
        provide_context(OnExplored(explored));
    }
    // Drawn through Leptos's escaping like any view; only the server has it. The server made
    // `sim` from a `Simulation`, so it reads back.
    #[cfg(feature = "ssr")]
    let first = sim.simulation().map(|s| draw(s).to_html()).unwrap_or_default();
    #[cfg(not(feature = "ssr"))]
    let first = String::new();
    let section = NodeRef::<leptos::html::Section>::new();
    let (name, params) = (sim.name.clone(), sim.params.clone());
    #[cfg(feature = "hydrate")]
    live::draw_when_near(section, sim);
    #[cfg(not(feature = "hydrate"))]
    let _ = sim;
    // The parameters again, for the lesson's islands (`pages::lesson_islands`).
    view! { <section class="sim" data-sim=name data-params=params node_ref=section inner_html=first></section> }
}

/// The simulation's view, drawn from its first state, on the server.
#[cfg(feature = "ssr")]
fn draw(sim: Simulation) -> AnyView {
    match sim.split() {
        Split::Collectives(c) => draw_collective(c),
        Split::Timelines(t) => draw_timeline(t),
    }
}

/// A simulation of the collectives' part. Each part's code lands in its own chunk of the
/// bundle: the two functions are the only places a view is chosen, and each matches every kind
/// of its part, so a simulation added to `lockstep_embed` is drawn by exactly one part or does
/// not compile.
#[cfg(any(feature = "ssr", feature = "hydrate"))]
fn draw_collective(sim: Collective) -> AnyView {
    match sim {
        Collective::RingAllReduce(p) => view! { <ring::RingAllReduceView params=p/> }.into_any(),
        Collective::Sampler(p) => view! { <sampler::SamplerView params=p/> }.into_any(),
        Collective::ScatterGather(p) => {
            view! { <scatter_gather::ScatterGatherView params=p/> }.into_any()
        }
    }
}

/// A simulation of the timelines' part (see [`draw_collective`]).
#[cfg(any(feature = "ssr", feature = "hydrate"))]
fn draw_timeline(sim: Timeline) -> AnyView {
    match sim {
        Timeline::DpVsDdp(p) => view! { <dp_vs_ddp::DpVsDdpView params=p/> }.into_any(),
        Timeline::Accumulation(p) => {
            view! { <accumulation::AccumulationView params=p/> }.into_any()
        }
        Timeline::Memory(p) => view! { <memory::MemoryView params=p/> }.into_any(),
    }
}

/// The browser's way to draw a simulation: through the part of the bundle that has the
/// simulation, which reads the parameters ([`Embedded`]'s) too. `None` where they do not read
/// (the server wrote them, so never): the server's drawing then stays. Lazy in the two split
/// bundles (the `split` feature), the application's and the lessons'.
///
/// In the lessons' bundle, two parts; in the application's, one for all six. Not one per kind: split per kind, what the kinds share became 68 chunks, and DP vs DDP
/// alone loaded 37 files (79 kB Brotli, and a response's headers each); the exercise pages'
/// part went from 4 files to 37. In one part, all six were 130 kB, which a lesson whose first
/// view has a simulation loaded with the page. Split in two in the application's too, they made
/// its parts' shared code ten chunks, which the exercise pages' part loads.
#[cfg(feature = "hydrate")]
#[cfg_attr(feature = "app", lazy)]
async fn simulation(sim: Embedded) -> Option<AnyView> {
    // By name: the parameters are read by the part, whose code reads them.
    match Kind::named(&sim.name)?.part() {
        Part::Collectives => collectives(sim).await,
        Part::Timelines => timelines(sim).await,
    }
}

/// The simulations' parameters, read back.
#[cfg(feature = "hydrate")]
fn read(sim: &Embedded) -> Option<Simulation> {
    sim.simulation()
        .map_err(|e| leptos::logging::error!("a simulation's parameters do not read: {e}"))
        .ok()
}

/// The part with the simulations that move data ([`Part::Collectives`]).
#[cfg(feature = "hydrate")]
#[cfg_attr(all(feature = "split", not(feature = "app")), lazy)]
async fn collectives(sim: Embedded) -> Option<AnyView> {
    match read(&sim)?.split() {
        Split::Collectives(c) => Some(draw_collective(c)),
        // A name and parameters that disagree: the server wrote both, so never.
        Split::Timelines(_) => None,
    }
}

/// The part with the simulations of time and memory ([`Part::Timelines`]).
#[cfg(feature = "hydrate")]
#[cfg_attr(all(feature = "split", not(feature = "app")), lazy)]
async fn timelines(sim: Embedded) -> Option<AnyView> {
    match read(&sim)?.split() {
        Split::Timelines(t) => Some(draw_timeline(t)),
        Split::Collectives(_) => None,
    }
}

#[cfg(feature = "hydrate")]
mod live {
    use super::*;
    use leptos::tachys::view::{Mountable, Render};
    use wasm_bindgen::{closure::Closure, JsCast};
    use web_sys::js_sys::Array;
    use web_sys::{IntersectionObserver, IntersectionObserverEntry, IntersectionObserverInit};

    /// How far below (or above) the view a simulation starts loading: half a screen, so that
    /// a reader scrolling down meets it drawn live.
    const AHEAD: &str = "50% 0px";

    type Watch = (IntersectionObserver, Closure<dyn FnMut(Array, IntersectionObserver)>);

    pub fn draw_when_near(section: NodeRef<leptos::html::Section>, sim: Embedded) {
        let Some(owner) = Owner::current() else { return };
        let hydrating = Owner::current_shared_context().is_some_and(|c| c.during_hydration());
        let watch = StoredValue::new_local(None::<Watch>);
        // The observer goes with the page: its callback must not outlive it.
        on_cleanup(move || {
            watch.try_update_value(|w| w.take().map(|(observer, _)| observer.disconnect()));
        });
        section.on_load(move |el: web_sys::HtmlElement| {
            let target = el.clone();
            let go = move || {
                let task = draw_live(el, sim);
                owner.with(|| leptos::task::spawn_local_scoped_with_cancellation(task));
            };
            // Reached by a link, nothing of it is on the page yet; and a browser without
            // observers draws it at once.
            let observes = web_sys::js_sys::Reflect::has(&window(), &"IntersectionObserver".into())
                .unwrap_or(false);
            if !hydrating || !observes {
                go();
                return;
            }
            let mut go = Some(go);
            let near = Closure::<dyn FnMut(Array, IntersectionObserver)>::new(
                move |entries: Array, observer: IntersectionObserver| {
                    let seen = entries
                        .iter()
                        .any(|e| e.unchecked_into::<IntersectionObserverEntry>().is_intersecting());
                    if seen {
                        observer.disconnect();
                        if let Some(go) = go.take() {
                            go();
                        }
                    }
                },
            );
            let init = IntersectionObserverInit::new();
            init.set_root_margin(AHEAD);
            let Ok(observer) =
                IntersectionObserver::new_with_options(near.as_ref().unchecked_ref(), &init)
            else {
                return;
            };
            observer.observe(&target);
            watch.set_value(Some((observer, near)));
        });
    }

    /// Loads the simulations' part (the first time), draws the simulation, and puts it in place
    /// of the server's drawing in one go. Run under the component's owner (its context: the
    /// page's language, what exploring it earns; dropped, and the task with it, when the reader
    /// leaves the page).
    async fn draw_live(el: web_sys::HtmlElement, sim: Embedded) {
        let Some(view) = simulation(sim).await else { return };
        if !el.is_connected() {
            return;
        }
        let mut state = view.build();
        el.replace_children_with_node_0();
        state.mount(&el, None);
        let _ = el.set_attribute("data-live", "");
        // Kept while the page is: what updates the simulation lives in it.
        StoredValue::new_local(state);
    }
}

/// What a timeline's event is, in the reader's language.
pub(crate) fn label(label: Label, lang: lockstep_i18n::Lang) -> String {
    use lockstep_i18n::Lang;
    lockstep_lang::say(lang, &[(Lang::En, &|| label.english()), (Lang::Ko, &|| label.korean())])
}

#[cfg(test)]
mod tests {
    use super::*;
    use lockstep_i18n::Lang;

    fn render(directive: &str, lang: Lang) -> String {
        let sim = Simulation::parse(directive).unwrap();
        let owner = Owner::new();
        owner.with(|| {
            provide_context(lang);
            view! { <SimulationView sim/> }.to_html()
        })
    }

    /// Each kind has one of the two parts, as `simulation` sends it there.
    #[test]
    fn three_kinds_move_data() {
        let moving: Vec<_> = lockstep_embed::Kind::ALL
            .iter()
            .filter(|k| k.part() == Part::Collectives)
            .map(|k| k.name())
            .collect();
        assert_eq!(moving, ["ring-allreduce", "sampler", "scatter-gather"]);
    }

    /// The page's language picks the simulations' words; without one they are English.
    #[test]
    fn words_follow_the_page_language() {
        let en = render("ring-allreduce ranks=3 elements=3", Lang::En);
        assert!(en.contains("▶ Play") && en.contains("Next step"), "{en}");
        let ko = render("ring-allreduce ranks=3 elements=3", Lang::Ko);
        assert!(ko.contains("▶ 재생") && ko.contains("다음 step"), "{ko}");
        assert!(ko.contains("시작: rank 3개가 각자 자기 gradient를 갖고 있습니다."), "{ko}");
        let sampler = render("sampler len=10 replicas=4", Lang::Ko);
        assert!(sampler.contains("epoch 0 / 9"), "{sampler}");
        let owner = Owner::new();
        let default = owner.with(|| {
            let sim = Simulation::parse("memory").unwrap();
            view! { <SimulationView sim/> }.to_html()
        });
        assert!(default.contains("Simulation: memory per GPU"), "{default}");
    }
}
