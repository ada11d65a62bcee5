//! `memory`: what one GPU holds under DDP and under each ZeRO stage (ZeRO-3 being FSDP's full
//! sharding), as bars of parameters, gradients, optimizer state and activations against the
//! GPU's memory.

use leptos::prelude::*;
use lockstep_embed::{Memory, Optimizer, Precision};
use lockstep_i18n::sims::{MemoryWords, SimWords};
use sim_engine::memory::{self, MemoryConfig, PerGpu, Stage};

use super::{longest, si_bytes, Explain, NumberField, Player};

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
pub fn explain(stage: Stage, gpus: usize, w: &MemoryWords) -> String {
    match stage {
        Stage::Ddp => w.explain_ddp.into(),
        Stage::Zero1 => (w.explain_zero1)(gpus),
        Stage::Zero2 => (w.explain_zero2)(gpus),
        Stage::Zero3 => w.explain_zero3.into(),
    }
}

#[component]
pub fn MemoryView(params: Memory) -> impl IntoView {
    let w = crate::page::use_t().sims;
    let t = &w.memory;
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
            <h3>{t.title}</h3>
            <div class="sim-params needs-js">
                {decimal(t.parameters_b, |p| p.params_b, |p, v| p.params_b = v, 0.001)}
                <NumberField label=w.gpus value=Signal::derive(move || gpus() as i64) set=set_gpus min=1 max=lockstep_embed::MAX_MEMORY_GPUS as i64/>
                {decimal(t.activations_gb, |p| p.activations_gb, |p, v| p.activations_gb = v, 0.0)}
                {decimal(t.gpu_gb, |p| p.gpu_gb, |p, v| p.gpu_gb = v, 1.0)}
                <label>
                    {t.optimizer}
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
                    {t.precision}
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
        <Player step last=Signal::derive(|| Stage::ALL.len() - 1) unit=&w.units.stage label=t.label start_label="DDP"/>
        <Explain
            role="stage"
            text=Signal::derive(move || explain(Stage::ALL[step.get()], gpus(), t))
            longest=Signal::derive(move || longest(Stage::ALL.map(|s| explain(s, gpus(), t))))
        />
        // Rebuilt when the parameters change; a step only moves the active row.
        {move || {
            let p = state.get();
            figures.with(|f| bars(f, &p, step.into(), w))
        }}
    }
}

fn bars(all: &[PerGpu], p: &Memory, shown: Signal<usize>, w: &SimWords) -> impl IntoView {
    let t = &w.memory;
    let cfg = config(p);
    // The scale: the largest bar or the GPU, whichever is taller, so the GPU's line always shows.
    let top = all.iter().map(PerGpu::total).fold(cfg.gpu_bytes, f64::max);
    let pct = |b: f64| format!("width: {:.3}%", 100.0 * b / top);
    let rows = all
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let fits = memory::fits(&cfg, m);
            let class = move || {
                format!(
                    "memory-row{}{}",
                    if i == shown.get() { " active" } else { "" },
                    if fits { " fits" } else { " too-big" }
                )
            };
            let parts = [
                ("parameters", t.part_parameters, m.parameters),
                ("gradients", t.part_gradients, m.gradients),
                ("optimizer", t.part_optimizer, m.optimizer),
                ("activations", t.part_activations, m.activations),
            ]
            .into_iter()
            .filter(|(_, _, b)| *b > 0.0)
            .map(|(class, what, b)| {
                view! { <span class=format!("part {class}") style=pct(b) title=format!("{what}: {}", si_bytes(b))></span> }
            })
            .collect_view();
            let total = (t.total)(&si_bytes(m.total()), fits);
            // Each text over its bold copy, which keeps the room it takes on the active row.
            let name = m.stage.name();
            view! {
                <li class=class data-stage=name data-total-gb=format!("{:.3}", m.total() / GB)>
                    <span class="stage stacked"><span>{name}</span><span class="sizer" aria-hidden="true">{name}</span></span>
                    <span class="bar">
                        {parts}
                        <span class="gpu-line" style=format!("left: {:.3}%", 100.0 * cfg.gpu_bytes / top)></span>
                    </span>
                    <span class="total stacked"><span>{total.clone()}</span><span class="sizer" aria-hidden="true">{total}</span></span>
                </li>
            }
        })
        .collect_view();
    let (pb, gb, k) = memory::bytes_per_parameter(p.optimizer, p.precision);
    view! {
        <ol class="memory-bars" data-role="memory">{rows}</ol>
        // Each swatch and its name one item, which wraps as one.
        <ul class="muted legend">
            <li><span class="part parameters"></span>{t.legend_parameters}</li>
            <li><span class="part gradients"></span>{t.legend_gradients}</li>
            <li><span class="part optimizer"></span>{t.legend_optimizer}</li>
            <li><span class="part activations"></span>{t.legend_activations}</li>
            <li><span class="gpu-line-swatch"></span>{(t.legend_gpu)(&p.gpu_gb.to_string())}</li>
        </ul>
        <p class="muted" data-role="summary">
            {(t.summary)(
                p.params_b,
                p.gpus,
                p.optimizer.id(),
                p.precision.id(),
                pb,
                gb,
                k,
                p.activations_gb,
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
        let w = &lockstep_i18n::sims::EN.memory;
        assert!(explain(Stage::Zero2, 64, w).contains("1/64 share"));
    }
}
