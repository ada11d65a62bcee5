//! The simulations lessons embed, computed by `sim-engine` wherever the page runs: on the server
//! for the first, static state, and in the browser (WebAssembly) once the page is hydrated.
//!
//! Each simulation is a view model (plain data, unit-tested natively) and a component that draws
//! it. The controls need JavaScript, so they stay hidden until the page is hydrated; the state
//! they start from is complete without them.

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
use lockstep_embed::Simulation;
use sim_engine::timeline::Label;

pub use format::{bandwidth, bytes, count, duration, number, plural, si_bytes};
pub use number_field::NumberField;
pub use player::{OnExplored, Player};

/// One simulation. `explored`, when given, is called once the learner has stepped or played it
/// to its end.
///
/// The simulations' code is a part of the browser bundle of its own, loaded on the first page
/// that has one (`#[lazy]`): pages without simulations never download it. On the server it is
/// awaited like any other, so the first state is in the page as before; a page that arrives with
/// simulations loads the part before it is hydrated (`preload_for_page`).
#[component]
pub fn SimulationView(
    sim: Simulation,
    #[prop(optional)] explored: Option<Callback<()>>,
) -> impl IntoView {
    if let Some(explored) = explored {
        provide_context(OnExplored(explored));
    }
    let name = sim.name();
    view! {
        <section class="sim" data-sim=name>
            {Suspend::new(async move { simulation(sim).await })}
        </section>
    }
}

#[lazy]
fn simulation(sim: Simulation) -> AnyView {
    match sim {
        Simulation::RingAllReduce(p) => view! { <ring::RingAllReduceView params=p/> }.into_any(),
        Simulation::Sampler(p) => view! { <sampler::SamplerView params=p/> }.into_any(),
        Simulation::DpVsDdp(p) => view! { <dp_vs_ddp::DpVsDdpView params=p/> }.into_any(),
        Simulation::ScatterGather(p) => {
            view! { <scatter_gather::ScatterGatherView params=p/> }.into_any()
        }
        Simulation::Accumulation(p) => {
            view! { <accumulation::AccumulationView params=p/> }.into_any()
        }
        Simulation::Memory(p) => view! { <memory::MemoryView params=p/> }.into_any(),
    }
}

/// Loads the simulations' part of the bundle if the page has a simulation, before the page is
/// hydrated: hydration must find the code that drew what the server sent.
#[cfg(feature = "hydrate")]
pub async fn preload_for_page() {
    let has_sim = document().query_selector("section.sim").ok().flatten().is_some();
    if has_sim {
        __preload_simulation().await;
    }
}

/// What a timeline's event is, in the reader's language.
pub(crate) fn label(label: Label, lang: crate::Lang) -> String {
    match lang {
        crate::Lang::En => label.english(),
        crate::Lang::Ko => label.korean(),
    }
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
