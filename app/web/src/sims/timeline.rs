//! `dp-vs-ddp` and `scatter-gather`: one training iteration of DataParallel and of DDP as
//! per-device timelines, from `sim-engine`'s models.

use leptos::prelude::*;
use lockstep_embed::{DpVsDdp, ScatterGather};
use sim_engine::buckets::BucketCap;
use sim_engine::ddp::{self, DdpConfig, Iteration};
use sim_engine::dp::{self, torch_chunk_sizes, DpConfig};
use sim_engine::hardware::{self, Hardware};
use sim_engine::model::Mlp;
use sim_engine::timeline::{Activity, Lane, Timeline};

use super::{bytes, duration, NumberField, Player};

/// The GPU counts the speedup chart covers.
pub const GPU_RANGE: std::ops::RangeInclusive<usize> = 1..=lockstep_embed::MAX_GPUS;

/// Frames the player moves the time cursor through.
const FRAMES: usize = 10;

#[derive(Debug, Clone, PartialEq)]
pub struct Comparison {
    pub dp: Timeline,
    pub ddp: Timeline,
}

fn hw(name: &str) -> Hardware {
    hardware::preset(name).unwrap_or(hardware::H100_NVLINK)
}

fn mlp(layers: &[usize]) -> Mlp {
    Mlp::new(layers.to_vec()).expect("the directive checked the widths")
}

/// DataParallel alone, for the views that show nothing of DDP.
pub fn dataparallel(layers: &[usize], batch: usize, gpus: usize, hardware: &str) -> Timeline {
    dp::simulate(&DpConfig { model: mlp(layers), hardware: hw(hardware), gpus, batch }).expect("a CUDA preset and a batch")
}

pub fn compare(layers: &[usize], batch: usize, gpus: usize, hardware: &str) -> Comparison {
    let dp = dataparallel(layers, batch, gpus, hardware);
    let (model, hardware) = (mlp(layers), hw(hardware));
    let cfg = DdpConfig { model, hardware, world_size: gpus, batch, bucket_cap: BucketCap::default(), iteration: Iteration::Rebuilt };
    let ddp = ddp::simulate(&cfg).expect("at least one process").timeline;
    Comparison { dp, ddp }
}

/// Speedup over one device for every GPU count in [`GPU_RANGE`]: (gpus, DP, DDP).
pub fn speedup_curve(layers: &[usize], batch: usize, hardware: &str) -> Vec<(usize, f64, f64)> {
    GPU_RANGE
        .map(|g| {
            let c = compare(layers, batch, g, hardware);
            (g, c.dp.summary.speedup, c.ddp.summary.speedup)
        })
        .collect()
}

/// GPU 0's busy time and memory under DataParallel for every GPU count, against the busiest of
/// the others: (gpus, master busy, others' busy, master memory, others' memory).
pub fn master_load_curve(layers: &[usize], batch: usize, hardware: &str) -> Vec<(usize, f64, f64, u64, u64)> {
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
pub fn DpVsDdpView(params: DpVsDdp) -> impl IntoView {
    let DpVsDdp { layers, batch, gpus, hardware } = params;
    let gpus = RwSignal::new(gpus);
    let batch = RwSignal::new(batch);
    let hardware = RwSignal::new(hardware);
    let layers = StoredValue::new(layers);
    let step = RwSignal::new(FRAMES);
    let model = Memo::new(move |_| compare(&layers.get_value(), batch.get(), gpus.get(), &hardware.get()));
    let curve = Memo::new(move |_| speedup_curve(&layers.get_value(), batch.get(), &hardware.get()));
    let cursor = move || {
        let end = model.with(|m| m.dp.summary.iteration_s.max(m.ddp.summary.iteration_s));
        end * step.get() as f64 / FRAMES as f64
    };
    view! {
        <header class="sim-head">
            <h3>"Simulation: DataParallel vs DistributedDataParallel"</h3>
            <TimelineParams gpus batch hardware/>
        </header>
        <p class="muted">{move || describe(&layers.get_value(), batch.get(), &hardware.get())}</p>
        <Player step last=Signal::derive(|| FRAMES) unit="frame" label="DP vs DDP" start_label="Time 0: press Play to run one iteration"/>
        <div class="speedups" data-role="speedups">
            <p>
                "DataParallel: " <output data-role="speedup-dp">{move || format!("{:.2}×", model.with(|m| m.dp.summary.speedup))}</output>
                {move || format!(" speedup, {} per iteration", model.with(|m| duration(m.dp.summary.iteration_s)))}
            </p>
            <p>
                "DDP: " <output data-role="speedup-ddp">{move || format!("{:.2}×", model.with(|m| m.ddp.summary.speedup))}</output>
                {move || format!(" speedup, {} per iteration", model.with(|m| duration(m.ddp.summary.iteration_s)))}
            </p>
        </div>
        <h4>"DataParallel: one process, one thread per GPU"</h4>
        {move || model.with(|m| gantt(&m.dp, cursor(), m.dp.summary.iteration_s.max(m.ddp.summary.iteration_s), true))}
        {move || model.with(|m| device_table(&m.dp, true))}
        <h4>"DDP: one process per GPU"</h4>
        {move || model.with(|m| gantt(&m.ddp, cursor(), m.dp.summary.iteration_s.max(m.ddp.summary.iteration_s), false))}
        {move || model.with(|m| device_table(&m.ddp, false))}
        <Legend/>
        <h4>"Speedup over one GPU, by number of GPUs"</h4>
        {move || curve.with(|c| speedup_chart(c, gpus.get()))}
    }
}

#[component]
fn TimelineParams(gpus: RwSignal<usize>, batch: RwSignal<usize>, hardware: RwSignal<String>) -> impl IntoView {
    view! {
        <div class="sim-params needs-js">
            <label>
                "GPUs "
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
                label="Batch "
                value=Signal::derive(move || batch.get() as i64)
                set=Callback::new(move |v: i64| batch.set(v as usize))
                min=1
                max=1 << 20
            />
            <label>
                "Hardware "
                <select on:change=move |ev| hardware.set(event_target_value(&ev))>
                    {hardware::PRESETS
                        .into_iter()
                        .filter(|h| h.device.cuda)
                        .map(|h| view! { <option value=h.name selected=move || hardware.get() == h.name>{h.name}</option> })
                        .collect_view()}
                </select>
            </label>
        </div>
    }
}

fn describe(layers: &[usize], batch: usize, hardware: &str) -> String {
    let h = hw(hardware);
    let m = mlp(layers);
    format!(
        "An MLP {} ({:.1} M parameters), batch {batch}, on {} joined by {}. Times come from a model (sim-engine's README lists its assumptions); chunk sizes and DDP's buckets are PyTorch's.",
        layers.iter().map(usize::to_string).collect::<Vec<_>>().join("→"),
        m.parameter_count() as f64 / 1e6,
        h.device.name,
        h.link.name
    )
}

#[component]
fn Legend() -> impl IntoView {
    let items = [
        ("compute", "compute (forward, loss, backward, optimizer step)"),
        ("comm", "copies and collectives"),
        ("host", "Python on the host (DP: holding the GIL)"),
    ];
    view! {
        <ul class="legend">
            {items.into_iter().map(|(class, text)| view! { <li><span class=format!("swatch {class}")></span>{text}</li> }).collect_view()}
        </ul>
    }
}

/// One row per device (and, for DP, one for the process's Python), events drawn up to `cursor`.
fn gantt(t: &Timeline, cursor: f64, span: f64, host_row: bool) -> impl IntoView {
    const W: f64 = 1000.0;
    const ROW: f64 = 22.0;
    let rows = t.devices + usize::from(host_row);
    let x = |s: f64| 90.0 + (W - 90.0) * s / span.max(1e-12);
    let row_of = |device: usize, lane: Lane| -> Option<(usize, f64, f64)> {
        match (lane, host_row) {
            (Lane::Host, true) => Some((t.devices, 3.0, ROW - 6.0)),
            (Lane::Host, false) => None,
            (Lane::Compute, _) => Some((device, 2.0, ROW / 2.0 - 2.0)),
            (Lane::Comm, _) => Some((device, ROW / 2.0, ROW / 2.0 - 2.0)),
        }
    };
    let bars = t
        .events
        .iter()
        .filter(|e| e.start_s <= cursor)
        .filter_map(|e| {
            let (row, dy, h) = row_of(e.device, e.lane)?;
            let class = match e.lane {
                Lane::Compute => "compute",
                Lane::Comm => "comm",
                Lane::Host => "host",
            };
            let end = e.end_s.min(cursor.max(e.start_s));
            Some(view! {
                <rect class=format!("{class} act-{}", e.activity.name()) x=x(e.start_s) y=row as f64 * ROW + dy width=(x(end) - x(e.start_s)).max(0.5) height=h>
                    <title>{format!("{} · {} → {}", e.label, duration(e.start_s), duration(e.end_s))}</title>
                </rect>
            })
        })
        .collect_view();
    let labels = (0..rows)
        .map(|r| {
            let name = if r == t.devices { "Python".to_string() } else if host_row && r == 0 { "GPU 0 ★".to_string() } else { format!("GPU {r}") };
            view! { <text x=0 y=r as f64 * ROW + 15.0>{name}</text> }
        })
        .collect_view();
    let end = x(t.summary.iteration_s);
    view! {
        <svg class="gantt" viewBox=format!("0 0 {W} {}", rows as f64 * ROW + 4.0) role="img" aria-label=format!("Timeline of {} devices; one iteration takes {}", t.devices, duration(t.summary.iteration_s))>
            {labels}
            {bars}
            <line class="iteration-end" x1=end x2=end y1=0 y2=rows as f64 * ROW/>
        </svg>
    }
}

fn device_table(t: &Timeline, master: bool) -> impl IntoView {
    let s = &t.summary;
    let rows = s
        .devices
        .iter()
        .enumerate()
        .map(|(d, dev)| {
            let name = if master && d == 0 { "GPU 0 ★ master".to_string() } else { format!("GPU {d}") };
            view! {
                <tr class=if master && d == 0 { "master" } else { "" }>
                    <th scope="row">{name}</th>
                    <td>{dev.samples}</td>
                    <td>{duration(dev.busy_s)}</td>
                    <td>{format!("{:.0}%", 100.0 * dev.busy_s / s.iteration_s)}</td>
                    <td>{bytes(dev.memory_bytes as f64)}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <div class="table-scroll">
            <table class="device-table">
                <thead>
                    <tr>
                        <th scope="col">"device"</th>
                        <th scope="col">"samples"</th>
                        <th scope="col">"busy"</th>
                        <th scope="col">"load"</th>
                        <th scope="col">"memory"</th>
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
    }
}

fn speedup_chart(curve: &[(usize, f64, f64)], current: usize) -> impl IntoView {
    const W: f64 = 600.0;
    const H: f64 = 220.0;
    let max_g = curve.len() as f64;
    let max_s = curve.iter().map(|c| c.1.max(c.2)).fold(1.0, f64::max).ceil();
    let x = |g: f64| 40.0 + (W - 60.0) * (g - 1.0) / (max_g - 1.0).max(1.0);
    let y = |s: f64| H - 30.0 - (H - 50.0) * s / max_s;
    let line = |pick: fn(&(usize, f64, f64)) -> f64| {
        curve.iter().map(|c| format!("{:.1},{:.1}", x(c.0 as f64), y(pick(c)))).collect::<Vec<_>>().join(" ")
    };
    let at = curve.iter().find(|c| c.0 == current).copied();
    view! {
        <svg class="speedup-chart" viewBox=format!("0 0 {W} {H}") role="img" aria-label="Speedup of DataParallel and DDP against the number of GPUs">
            <line class="axis" x1=40 y1=y(0.0) x2=W - 20.0 y2=y(0.0)/>
            <line class="axis" x1=40 y1=y(0.0) x2=40 y2=10/>
            <polyline class="ideal" points=format!("{},{} {},{}", x(1.0), y(1.0), x(max_g.min(max_s)), y(max_g.min(max_s)))/>
            <polyline class="dp" points=line(|c| c.1)/>
            <polyline class="ddp" points=line(|c| c.2)/>
            <text x=W - 20.0 y=y(0.0) + 20.0 text-anchor="end">"GPUs"</text>
            <text x=44 y=20>{format!("speedup (up to {max_s:.0}×)")}</text>
            {at.map(|(g, d, dd)| view! {
                <line class="cursor" x1=x(g as f64) x2=x(g as f64) y1=y(0.0) y2=10/>
                <text class="dp-label" x=x(g as f64) + 4.0 y=y(d) + 14.0>{format!("DP {d:.2}×")}</text>
                <text class="ddp-label" x=x(g as f64) + 4.0 y=y(dd) - 6.0>{format!("DDP {dd:.2}×")}</text>
            })}
        </svg>
        <p class="muted">"Dashed: DataParallel. Solid: DDP. Dotted: perfect scaling."</p>
    }
}

#[component]
pub fn ScatterGatherView(params: ScatterGather) -> impl IntoView {
    let ScatterGather { layers, batch, gpus, hardware } = params;
    let gpus = RwSignal::new(gpus);
    let batch = RwSignal::new(batch);
    let hardware = RwSignal::new(hardware);
    let layers = StoredValue::new(layers);
    let step = RwSignal::new(0usize);
    let model = Memo::new(move |_| dataparallel(&layers.get_value(), batch.get(), gpus.get(), &hardware.get()));
    let curve = Memo::new(move |_| master_load_curve(&layers.get_value(), batch.get(), &hardware.get()));
    view! {
        <header class="sim-head">
            <h3>"Simulation: scatter, gather and the master GPU"</h3>
            <TimelineParams gpus batch hardware/>
        </header>
        <p class="muted">{move || describe(&layers.get_value(), batch.get(), &hardware.get())}</p>
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
                    <span class="muted">{format!("{} samples · {} memory", dev.samples, bytes(dev.memory_bytes as f64))}</span>
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
            let extra = if g > 1 { format!("{:+.0}%", 100.0 * (master / other.max(1e-12) - 1.0)) } else { "—".into() };
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
    fn speedups_move_with_the_gpus() {
        let curve = speedup_curve(&LAYERS, 4096, "h100-nvlink");
        assert_eq!(curve.len(), 16);
        assert!((curve[0].2 - 1.0).abs() < 1e-9, "one DDP process is the plain loop");
        assert!(curve[3].2 > curve[1].2 && curve[1].2 > 1.0, "DDP gains from 2 to 4 GPUs");
        assert!(curve[1..].iter().all(|c| c.2 > c.1), "DDP beats DP from 2 GPUs on");
    }

    #[test]
    fn the_master_carries_more() {
        let curve = master_load_curve(&LAYERS, 4096, "h100-nvlink");
        let (_, b4, o4, m4, om4) = curve[3];
        let (_, b8, o8, _, _) = curve[7];
        assert!(b4 > o4 && b8 > o8, "GPU 0 is the busiest with 4 and 8 GPUs");
        assert!(b8 - o8 > b4 - o4, "and its lead grows");
        assert!(m4 > om4);
    }

    #[test]
    fn phases_follow_dataparallel_forward() {
        let t = dataparallel(&LAYERS, 10, 4, "h100-nvlink");
        for (activity, _) in DP_PHASES {
            assert!(t.events.iter().any(|e| e.activity == activity), "{activity:?} happens");
        }
        assert_eq!(torch_chunk_sizes(10, 4), vec![3, 3, 3, 1]);
    }
}
