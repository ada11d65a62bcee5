//! `accumulation`: one optimizer step of gradient accumulation, micro-batch by micro-batch,
//! with the all-reduces DDP runs with and without `no_sync`, their bytes and their α–β time.

use leptos::prelude::*;
use lockstep_embed::{Accumulation, LinkPreset};
use lockstep_i18n::sims::AccumulationWords;
use sim_engine::accumulation::{self, AccumulationConfig};
use sim_engine::buckets::BucketCap;
use sim_engine::model::Mlp;

use super::{bytes, count, duration, longest, Explain, NumberField, Player};

/// The view model: the engine's figures for the directive's parameters.
pub fn model(p: &Accumulation) -> Result<accumulation::Accumulation, String> {
    let cfg = AccumulationConfig {
        model: Mlp::new(p.layers.clone()).map_err(|e| e.to_string())?,
        steps: p.steps,
        ranks: p.gpus,
        micro_batch: p.micro_batch,
        bucket_cap: BucketCap { bucket_cap_mb: p.bucket_mb },
        link: p.link.link(),
    };
    accumulation::simulate(&cfg).map_err(|e| e.to_string())
}

/// What micro-batch `done` of `k` (1-based; 0 before the first) has done, in words.
pub fn explain(a: &accumulation::Accumulation, done: usize, w: &AccumulationWords) -> String {
    let k = a.micro_batches.len();
    let buckets = a.buckets.len();
    match done {
        0 => (w.explain_start)(k),
        d if d < k => (w.explain_inside)(d, k, buckets),
        _ => (w.explain_last)(k, buckets),
    }
}

#[component]
pub fn AccumulationView(params: Accumulation) -> impl IntoView {
    let w = crate::page::use_t().sims;
    let t = &w.accumulation;
    let state = RwSignal::new(params);
    let step = RwSignal::new(0usize);
    let figures = Memo::new(move |_| state.with(model));
    let last = Signal::derive(move || state.with(|p| p.steps));
    let number = move |label: &'static str,
                       get: fn(&Accumulation) -> i64,
                       set: fn(&mut Accumulation, i64),
                       min: i64,
                       max: i64| {
        let set = Callback::new(move |v: i64| {
            state.update(|p| set(p, v));
            step.set(0);
        });
        view! { <NumberField label value=Signal::derive(move || state.with(get)) set min max/> }
    };
    view! {
        <header class="sim-head">
            <h3>{t.title}</h3>
            <div class="sim-params needs-js">
                {number(t.micro_batches, |p| p.steps as i64, |p, v| p.steps = v as usize, 1, sim_engine::accumulation::MAX_STEPS as i64)}
                {number(w.gpus, |p| p.gpus as i64, |p, v| p.gpus = v as usize, 1, lockstep_embed::MAX_RANKS as i64)}
                <label>
                    {w.link}
                    <select on:change=move |ev| {
                        if let Some(l) = LinkPreset::from_id(&event_target_value(&ev)) {
                            state.update(|p| p.link = l);
                        }
                    }>
                        {LinkPreset::ALL
                            .into_iter()
                            .map(|l| view! { <option value=l.id() selected=move || state.with(|p| p.link == l)>{l.link().name}</option> })
                            .collect_view()}
                    </select>
                </label>
            </div>
        </header>
        <Player step last unit=&w.units.micro_batch label=t.label start_label=w.start/>
        // Rebuilt when the parameters change; a step only moves what follows `done`.
        {move || figures.with(|f| match f {
            Ok(f) => view! { <AccumulationBody figures=f.clone() done=step.into() params=state.get() w=t/> }.into_any(),
            Err(e) => view! { <p class="error">{e.clone()}</p> }.into_any(),
        })}
    }
}

#[component]
fn AccumulationBody(
    figures: accumulation::Accumulation,
    done: Signal<usize>,
    params: Accumulation,
    w: &'static AccumulationWords,
) -> impl IntoView {
    let k = figures.micro_batches.len();
    let buckets = figures.buckets.len();
    let row = |no_sync: bool| {
        let cells = figures
            .micro_batches
            .iter()
            .enumerate()
            .map(|(i, m)| {
                let syncs = !no_sync || m.syncs_with_no_sync;
                let class = move || {
                    format!(
                        "micro{}{}",
                        if i < done.get() { " ran" } else { "" },
                        if syncs { " syncs" } else { " local" }
                    )
                };
                let label = if syncs { (w.syncs)(buckets) } else { w.no_sync.into() };
                view! { <li class=class><span class="index">{i + 1}</span><small>{label}</small></li> }
            })
            .collect_view();
        let title = if no_sync { w.with_no_sync } else { w.without_no_sync };
        view! {
            <div class="micro-row" data-role=if no_sync { "with-no-sync" } else { "without-no-sync" }>
                <span class="rank-label">{title}</span>
                <ol class="micro-batches">{cells}</ol>
            </div>
        }
    };
    let (without, with) = figures.allreduces;
    // Which micro-batches all-reduce with `no_sync`, for what a step has done so far.
    let syncs_with_no_sync: Vec<bool> =
        figures.micro_batches.iter().map(|m| m.syncs_with_no_sync).collect();
    let done_calls = move |done: usize| {
        let with = syncs_with_no_sync.iter().take(done).filter(|&&s| s).count();
        (done.min(k) * buckets, with * buckets)
    };
    let parameters: u64 = Mlp::new(params.layers.clone()).map_or(0, |m| m.parameter_count());
    let explained = {
        let figures = figures.clone();
        move || explain(&figures, done.get(), w)
    };
    let most = longest((0..=k).map(|d| explain(&figures, d, w)));
    view! {
        <Explain role="micro-batch" text=Signal::derive(explained) longest=most/>
        {row(false)}
        {row(true)}
        <p class="muted" data-role="so-far">
            {move || {
                let (without, with) = done_calls(done.get());
                (w.so_far)(without, with)
            }}
        </p>
        <table class="cost-table" data-role="accumulation-cost">
            <thead>
                <tr><th></th><th>{w.without_no_sync}</th><th>{w.with_no_sync}</th></tr>
            </thead>
            <tbody>
                <tr>
                    <th>{w.per_step}</th>
                    <td>{without}</td>
                    <td>{with}</td>
                </tr>
                <tr>
                    <th>{w.bytes_sent}</th>
                    <td>{bytes(figures.bytes_sent_per_rank.0)}</td>
                    <td>{bytes(figures.bytes_sent_per_rank.1)}</td>
                </tr>
                <tr>
                    <th>{(w.comm_time)(params.link.link().name)}</th>
                    <td>{duration(figures.comm_s.0)}</td>
                    <td>{duration(figures.comm_s.1)}</td>
                </tr>
            </tbody>
        </table>
        <p class="muted" data-role="summary">
            {(w.summary)(
                &count(parameters),
                buckets,
                params.micro_batch,
                k,
                params.gpus,
                figures.global_batch,
                figures.saved(),
                without,
            )}
        </p>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lessons_default() {
        let lockstep_embed::Simulation::Accumulation(p) = lockstep_embed::Simulation::parse(
            "accumulation layers=784,1024,1024,10 steps=4 gpus=8",
        )
        .unwrap() else {
            panic!()
        };
        let f = model(&p).unwrap();
        assert_eq!(f.allreduces, (8, 2));
        let w = &lockstep_i18n::sims::EN.accumulation;
        assert!(explain(&f, 0, w).starts_with("One optimizer step of 4 micro-batches"));
        assert!(explain(&f, 2, w).contains("inside no_sync it all-reduces nothing"));
        assert!(explain(&f, 4, w).contains("all-reduces the 2 buckets once"));
    }
}
