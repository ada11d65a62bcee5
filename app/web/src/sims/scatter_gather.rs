//! `scatter-gather`: one DataParallel iteration phase by phase (what each GPU does while the
//! batch is scattered, the replicas run and the outputs and gradients come back to GPU 0), and
//! GPU 0's load against the number of GPUs.

use leptos::prelude::*;
use lockstep_embed::{CudaPreset, ScatterGather};
use sim_engine::dp::torch_chunk_sizes;
use sim_engine::timeline::{Activity, Lane, Timeline};

use super::mlp_on_gpus::{dataparallel, describe, TimelineParams, GPU_RANGE};
use super::{bytes, duration, plural, Player};

/// GPU 0's busy time and memory under DataParallel for every GPU count, against the busiest of
/// the others: (gpus, master busy, others' busy, master memory, others' memory).
pub fn master_load_curve(
    layers: &[usize],
    batch: usize,
    hardware: CudaPreset,
) -> Vec<(usize, f64, f64, u64, u64)> {
    GPU_RANGE
        .map(|g| {
            let t = dataparallel(layers, batch, g, hardware);
            let d = &t.summary.devices;
            let other_busy = d[1..].iter().map(|x| x.busy_s).fold(0.0, f64::max);
            let other_mem = d[1..].iter().map(|x| x.memory_bytes).max().unwrap_or(0);
            (g, d[0].busy_s, other_busy, d[0].memory_bytes, other_mem)
        })
        .collect()
}

/// DataParallel's phases in the order one iteration runs them, with what each does.
pub const DP_PHASES: [(Activity, &str); 9] = [
    (Activity::Scatter, "Scatter: the batch is cut with torch.chunk and each chunk copied from GPU 0 to its GPU."),
    (Activity::Replicate, "Replicate: GPU 0's parameters are copied to every other GPU, as they are every iteration."),
    (Activity::Forward, "Forward: one Python thread per GPU runs its replica; the threads take turns holding the GIL."),
    (Activity::Gather, "Gather: every GPU's outputs are copied to GPU 0."),
    (Activity::Loss, "Loss: GPU 0 alone computes the loss over the whole batch."),
    (Activity::ScatterGradOutput, "Backward starts: the gradient of each output chunk goes back to the GPU that produced it."),
    (Activity::Backward, "Backward: each replica computes its parameters' gradients."),
    (Activity::ReduceGradients, "Reduce: every replica's gradients are summed onto GPU 0."),
    (Activity::OptimizerStep, "Optimizer step: GPU 0 alone updates the weights; the other GPUs hold nothing until the next replicate."),
];

#[component]
pub fn ScatterGatherView(params: ScatterGather) -> impl IntoView {
    let ScatterGather { layers, batch, gpus, hardware } = params;
    let gpus = RwSignal::new(gpus);
    let batch = RwSignal::new(batch);
    let hardware = RwSignal::new(hardware);
    let layers = StoredValue::new(layers);
    let step = RwSignal::new(0usize);
    let model = Memo::new(move |_| {
        dataparallel(&layers.get_value(), batch.get(), gpus.get(), hardware.get())
    });
    let curve =
        Memo::new(move |_| master_load_curve(&layers.get_value(), batch.get(), hardware.get()));
    view! {
        <header class="sim-head">
            <h3>"Simulation: scatter, gather and the master GPU"</h3>
            <TimelineParams gpus batch hardware/>
        </header>
        <p class="muted">{move || describe(&layers.get_value(), batch.get(), hardware.get())}</p>
        <p data-role="chunks">
            {move || {
                let sizes = torch_chunk_sizes(batch.get(), gpus.get());
                let used = sizes.len();
                let note = if used < gpus.get() { format!(" Only {used} of {} GPUs get a chunk.", gpus.get()) } else { String::new() };
                format!("torch.chunk splits the batch of {} into {}.{note}", batch.get(), sizes.iter().map(usize::to_string).collect::<Vec<_>>().join(" + "))
            }}
        </p>
        <Player step last=Signal::derive(|| DP_PHASES.len()) unit="phase" label="Scatter and gather" start_label="Before the iteration: the model lives on GPU 0"/>
        <p class="sim-explain" data-role="phase">
            {move || step.get().checked_sub(1).map_or("Press Next phase to walk through one DataParallel iteration.", |i| DP_PHASES[i].1)}
        </p>
        {move || model.with(|t| phase_devices(t, step.get()))}
        <h4>"GPU 0 against the other GPUs, by number of GPUs"</h4>
        {move || curve.with(|c| master_chart(c, gpus.get()))}
    }
}

/// What each device does in the current phase.
fn phase_devices(t: &Timeline, step: usize) -> impl IntoView {
    let phase = step.checked_sub(1).map(|i| DP_PHASES[i].0);
    let cards = (0..t.devices)
        .map(|d| {
            let work: Vec<String> = t
                .events
                .iter()
                .filter(|e| Some(e.activity) == phase && e.device == d && e.lane != Lane::Host)
                .map(|e| format!("{} ({})", e.label, duration(e.end_s - e.start_s)))
                .collect();
            let active = !work.is_empty();
            let dev = &t.summary.devices[d];
            view! {
                <li class=if active { "device active" } else { "device" } data-device=d>
                    <strong>{if d == 0 { "GPU 0 ★ master".to_string() } else { format!("GPU {d}") }}</strong>
                    <span class="muted">{format!("{} · {} memory", plural(dev.samples as u64, "sample", "samples"), bytes(dev.memory_bytes as f64))}</span>
                    {if active {
                        view! { <ul>{work.into_iter().map(|w| view! { <li>{w}</li> }).collect_view()}</ul> }.into_any()
                    } else {
                        view! { <p class="idle">{if phase.is_some() { "idle in this phase" } else { "" }}</p> }.into_any()
                    }}
                </li>
            }
        })
        .collect_view();
    view! { <ol class="devices" data-role="devices">{cards}</ol> }
}

fn master_chart(curve: &[(usize, f64, f64, u64, u64)], current: usize) -> impl IntoView {
    let rows = curve
        .iter()
        .map(|&(g, master, other, mm, om)| {
            let extra = if g > 1 {
                format!("{:+.0}%", 100.0 * (master / other.max(1e-12) - 1.0))
            } else {
                "—".into()
            };
            view! {
                <tr class=if g == current { "current" } else { "" }>
                    <th scope="row">{g}</th>
                    <td>{duration(master)}</td>
                    <td>{if g > 1 { duration(other) } else { "—".into() }}</td>
                    <td>{extra}</td>
                    <td>{bytes(mm as f64)}</td>
                    <td>{if g > 1 { bytes(om as f64) } else { "—".into() }}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <div class="table-scroll">
            <table class="master-table" data-role="master-load">
                <thead>
                    <tr>
                        <th scope="col">"GPUs"</th>
                        <th scope="col">"GPU 0 busy"</th>
                        <th scope="col">"busiest other"</th>
                        <th scope="col">"GPU 0 extra"</th>
                        <th scope="col">"GPU 0 memory"</th>
                        <th scope="col">"other memory"</th>
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LAYERS: [usize; 5] = [784, 4096, 4096, 4096, 10];

    #[test]
    fn the_master_carries_more() {
        let curve = master_load_curve(&LAYERS, 4096, CudaPreset::H100Nvlink);
        let (_, b4, o4, m4, om4) = curve[3];
        let (_, b8, o8, _, _) = curve[7];
        assert!(b4 > o4 && b8 > o8, "GPU 0 is the busiest with 4 and 8 GPUs");
        assert!(b8 - o8 > b4 - o4, "and its lead grows");
        assert!(m4 > om4);
    }

    #[test]
    fn phases_follow_dataparallel_forward() {
        let t = dataparallel(&LAYERS, 10, 4, CudaPreset::H100Nvlink);
        for (activity, _) in DP_PHASES {
            assert!(t.events.iter().any(|e| e.activity == activity), "{activity:?} happens");
        }
        assert_eq!(torch_chunk_sizes(10, 4), vec![3, 3, 3, 1]);
    }
}
