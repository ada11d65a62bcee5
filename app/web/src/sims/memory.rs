//! `memory`: what one GPU holds under DDP and under each ZeRO stage (ZeRO-3 being FSDP's full
//! sharding), as bars of parameters, gradients, optimizer state and activations against the
//! GPU's memory.

use leptos::prelude::*;
use lockstep_embed::{Memory, Optimizer, Precision};
use sim_engine::memory::{self, MemoryConfig, PerGpu, Stage};

use super::{si_bytes, NumberField, Player};

const GB: f64 = 1e9;

pub fn config(p: &Memory) -> MemoryConfig {
    MemoryConfig {
        parameters: p.params_b * 1e9,
        gpus: p.gpus,
        optimizer: p.optimizer,
        precision: p.precision,
        activation_bytes: p.activations_gb * GB,
        gpu_bytes: p.gpu_gb * GB,
    }
}

/// What stage `i` (in [`Stage::ALL`]'s order) shards, in words.
pub fn explain(stage: Stage, gpus: usize) -> String {
    match stage {
        Stage::Ddp => "DDP: every GPU holds the whole model, all of its gradients and all of the optimizer's state.".into(),
        Stage::Zero1 => format!("ZeRO-1: the optimizer state is split into {gpus} shards; each GPU updates only its share of the parameters, then they are all-gathered."),
        Stage::Zero2 => format!("ZeRO-2: the gradients are split too: a reduce-scatter leaves each GPU only the averaged gradients of its 1/{gpus} share."),
        Stage::Zero3 => "ZeRO-3, FSDP's full sharding: the parameters are split too; each layer's are all-gathered just before it runs and freed after. Only activations are left whole.".into(),
    }
}

#[component]
pub fn MemoryView(params: Memory) -> impl IntoView {
    let state = RwSignal::new(params);
    let step = RwSignal::new(0usize);
    let figures = Memo::new(move |_| state.with(|p| memory::per_gpu(&config(p))));
    let gpus = move || state.with(|p| p.gpus);
    let set_gpus = Callback::new(move |v: i64| state.update(|p| p.gpus = v as usize));
    // Fractions matter here (7.5 billion parameters), so these take any positive number.
    let decimal =
        move |label: &'static str, get: fn(&Memory) -> f64, set: fn(&mut Memory, f64), min: f64| {
            view! {
                <label>
                    {label}
                    <input
                        type="number"
                        step="any"
                        min=min
                        prop:value=move || state.with(get).to_string()
                        on:change=move |ev| {
                            if let Ok(v) = event_target_value(&ev).parse::<f64>() {
                                if v.is_finite() && v >= min {
                                    state.update(|p| set(p, v));
                                }
                            }
                        }
                    />
                </label>
            }
        };
    view! {
        <header class="sim-head">
            <h3>"Simulation: memory per GPU"</h3>
            <div class="sim-params needs-js">
                {decimal("Parameters (billions) ", |p| p.params_b, |p, v| p.params_b = v, 0.001)}
                <NumberField label="GPUs " value=Signal::derive(move || gpus() as i64) set=set_gpus min=1 max=lockstep_embed::MAX_MEMORY_GPUS as i64/>
                {decimal("Activations per GPU (GB) ", |p| p.activations_gb, |p, v| p.activations_gb = v, 0.0)}
                {decimal("GPU memory (GB) ", |p| p.gpu_gb, |p, v| p.gpu_gb = v, 1.0)}
                <label>
                    "Optimizer "
                    <select on:change=move |ev| {
                        if let Some(o) = Optimizer::from_id(&event_target_value(&ev)) {
                            state.update(|p| p.optimizer = o);
                        }
                    }>
                        {Optimizer::ALL
                            .into_iter()
                            .map(|o| view! { <option value=o.id() selected=move || state.with(|p| p.optimizer == o)>{o.id()}</option> })
                            .collect_view()}
                    </select>
                </label>
                <label>
                    "Precision "
                    <select on:change=move |ev| {
                        if let Some(v) = Precision::from_id(&event_target_value(&ev)) {
                            state.update(|p| p.precision = v);
                        }
                    }>
                        {Precision::ALL
                            .into_iter()
                            .map(|v| view! { <option value=v.id() selected=move || state.with(|p| p.precision == v)>{v.id()}</option> })
                            .collect_view()}
                    </select>
                </label>
            </div>
        </header>
        <Player step last=Signal::derive(|| Stage::ALL.len() - 1) unit="stage" label="Memory" start_label="DDP"/>
        <p class="sim-explain" data-role="stage">{move || explain(Stage::ALL[step.get()], gpus())}</p>
        {move || {
            let p = state.get();
            figures.with(|f| bars(f, &p, step.get()))
        }}
    }
}

fn bars(all: &[PerGpu], p: &Memory, shown: usize) -> impl IntoView {
    let cfg = config(p);
    // The scale: the largest bar or the GPU, whichever is taller, so the GPU's line always shows.
    let top = all.iter().map(PerGpu::total).fold(cfg.gpu_bytes, f64::max);
    let pct = |b: f64| format!("width: {:.3}%", 100.0 * b / top);
    let rows = all
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let fits = memory::fits(&cfg, m);
            let class = format!(
                "memory-row{}{}",
                if i == shown { " active" } else { "" },
                if fits { " fits" } else { " too-big" }
            );
            let parts = [
                ("parameters", m.parameters),
                ("gradients", m.gradients),
                ("optimizer", m.optimizer),
                ("activations", m.activations),
            ]
            .into_iter()
            .filter(|(_, b)| *b > 0.0)
            .map(|(what, b)| {
                view! { <span class=format!("part {what}") style=pct(b) title=format!("{what}: {}", si_bytes(b))></span> }
            })
            .collect_view();
            view! {
                <li class=class data-stage=m.stage.name() data-total-gb=format!("{:.3}", m.total() / GB)>
                    <span class="stage">{m.stage.name()}</span>
                    <span class="bar">
                        {parts}
                        <span class="gpu-line" style=format!("left: {:.3}%", 100.0 * cfg.gpu_bytes / top)></span>
                    </span>
                    <span class="total">
                        {format!("{} {}", si_bytes(m.total()), if fits { "fits" } else { "does not fit" })}
                    </span>
                </li>
            }
        })
        .collect_view();
    let (pb, gb, k) = memory::bytes_per_parameter(p.optimizer, p.precision);
    view! {
        <ol class="memory-bars" data-role="memory">{rows}</ol>
        <p class="muted legend">
            <span class="part parameters"></span>" parameters "
            <span class="part gradients"></span>" gradients "
            <span class="part optimizer"></span>" optimizer state "
            <span class="part activations"></span>" activations; the line is one GPU's "
            {format!("{} GB", p.gpu_gb)}
        </p>
        <p class="muted" data-role="summary">
            {format!(
                "{} billion parameters on {} GPUs, {} with {} precision: {pb} + {gb} + {k} bytes per parameter (parameters, gradients, optimizer state K = {k}), plus {} GB of activations per GPU, which no stage shards.",
                p.params_b, p.gpus, p.optimizer.id(), p.precision.id(), p.activations_gb
            )}
        </p>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_papers_case_by_default() {
        let lockstep_embed::Simulation::Memory(p) =
            lockstep_embed::Simulation::parse("memory").unwrap()
        else {
            panic!()
        };
        let totals: Vec<String> =
            memory::per_gpu(&config(&p)).iter().map(|m| si_bytes(m.total())).collect();
        assert_eq!(totals, ["120.00 GB", "31.41 GB", "16.64 GB", "1.88 GB"]);
        assert!(explain(Stage::Zero2, 64).contains("1/64 share"));
    }
}
