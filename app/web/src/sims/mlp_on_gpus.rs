//! What the two timeline simulations (`dp-vs-ddp`, `scatter-gather`) share: an MLP on N GPUs
//! of a CUDA preset, its DataParallel timeline from `sim-engine`, the controls that change it,
//! and the sentence that describes it.

use leptos::prelude::*;
use lockstep_embed::CudaPreset;
use lockstep_i18n::sims::SimWords;
use sim_engine::dp::{self, DpConfig};
use sim_engine::model::Mlp;
use sim_engine::timeline::Timeline;

use super::NumberField;

/// The GPU counts the speedup chart covers.
pub const GPU_RANGE: std::ops::RangeInclusive<usize> = 1..=lockstep_embed::MAX_GPUS;

/// The lesson's MLP. Cannot fail: `lockstep-embed` accepts only widths `Mlp::new` accepts (at
/// least two, each from 1 to 65,536), and the page's controls never change them.
pub(super) fn mlp(layers: &[usize]) -> Mlp {
    Mlp::new(layers.to_vec()).expect("the directive checked the widths")
}

/// DataParallel alone, for the views that show nothing of DDP. Cannot fail: the preset is a
/// CUDA one by its type, and the directive and the controls keep GPUs and batch at least 1.
pub fn dataparallel(layers: &[usize], batch: usize, gpus: usize, hardware: CudaPreset) -> Timeline {
    dp::simulate(&DpConfig { model: mlp(layers), hardware: hardware.hardware(), gpus, batch })
        .expect("a CUDA preset, a GPU and a batch")
}

#[component]
pub(super) fn TimelineParams(
    gpus: RwSignal<usize>,
    batch: RwSignal<usize>,
    hardware: RwSignal<CudaPreset>,
) -> impl IntoView {
    let w = crate::page::use_t().sims;
    view! {
        <div class="sim-params needs-js">
            <label>
                {w.gpus}
                <input
                    type="range"
                    min=*GPU_RANGE.start()
                    max=*GPU_RANGE.end()
                    prop:value=move || gpus.get().to_string()
                    on:input=move |ev| {
                        if let Ok(v) = event_target_value(&ev).parse::<usize>() {
                            gpus.set(v.clamp(*GPU_RANGE.start(), *GPU_RANGE.end()));
                        }
                    }
                />
                <output>{move || gpus.get().to_string()}</output>
            </label>
            <NumberField
                label=w.timeline.batch
                value=Signal::derive(move || batch.get() as i64)
                set=Callback::new(move |v: i64| batch.set(v as usize))
                min=1
                max=1 << 20
            />
            <label>
                {w.timeline.hardware}
                <select on:change=move |ev| {
                    if let Some(h) = CudaPreset::from_name(&event_target_value(&ev)) {
                        hardware.set(h);
                    }
                }>
                    {CudaPreset::ALL
                        .into_iter()
                        .map(|h| {
                            // Named as the description names it, not by its id.
                            let shown = format!("{} · {}", h.hardware().device.name, h.hardware().link.name);
                            view! { <option value=h.name() selected=move || hardware.get() == h>{shown}</option> }
                        })
                        .collect_view()}
                </select>
            </label>
        </div>
    }
}

pub(super) fn describe(
    layers: &[usize],
    batch: usize,
    hardware: CudaPreset,
    w: &SimWords,
) -> String {
    let h = hardware.hardware();
    let m = mlp(layers);
    (w.timeline.describe)(
        &layers.iter().map(usize::to_string).collect::<Vec<_>>().join("→"),
        m.parameter_count() as f64 / 1e6,
        batch,
        h.device.name,
        h.link.name,
    )
}
