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

use leptos::prelude::*;
use lockstep_embed::Simulation;

pub use format::{bandwidth, bytes, count, duration, number, plural, si_bytes};
pub use number_field::NumberField;
pub use player::{OnExplored, Player};

/// One simulation. `explored`, when given, is called once the learner has stepped or played it
/// to its end.
#[component]
pub fn SimulationView(
    sim: Simulation,
    #[prop(optional)] explored: Option<Callback<()>>,
) -> impl IntoView {
    if let Some(explored) = explored {
        provide_context(OnExplored(explored));
    }
    let name = sim.name();
    let body = match sim {
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
    };
    view! {
        <section class="sim" data-sim=name>
            {body}
        </section>
    }
}
