//! `dp-vs-ddp`: one training iteration of DataParallel and of DDP as per-device timelines
//! side by side, from `sim-engine`'s models, and the speedup of each against the GPU count.

use leptos::prelude::*;
use lockstep_embed::{CudaPreset, DpVsDdp};
use lockstep_i18n::sims::{DpVsDdpWords, SimWords};
use sim_engine::buckets::BucketCap;
use sim_engine::ddp::{self, DdpConfig, Iteration};
use sim_engine::timeline::{Lane, Timeline};

use super::mlp_on_gpus::{dataparallel, describe, mlp, TimelineParams, GPU_RANGE};
use super::{bytes, duration, Player};

/// Frames the player moves the time cursor through.
const FRAMES: usize = 10;

#[derive(Debug, Clone, PartialEq)]
pub struct Comparison {
    pub dp: Timeline,
    pub ddp: Timeline,
}

pub fn compare(layers: &[usize], batch: usize, gpus: usize, hardware: CudaPreset) -> Comparison {
    let dp = dataparallel(layers, batch, gpus, hardware);
    let (model, hardware) = (mlp(layers), hardware.hardware());
    let cfg = DdpConfig {
        model,
        hardware,
        world_size: gpus,
        batch,
        bucket_cap: BucketCap::default(),
        iteration: Iteration::Rebuilt,
    };
    let ddp = ddp::simulate(&cfg).expect("at least one process").timeline;
    Comparison { dp, ddp }
}

impl Comparison {
    /// The longer iteration of the two: both timelines and the cursor share this time axis.
    pub fn span(&self) -> f64 {
        self.dp.summary.iteration_s.max(self.ddp.summary.iteration_s)
    }
}

/// Speedup over one device for every GPU count in [`GPU_RANGE`]: (gpus, DP, DDP).
pub fn speedup_curve(
    layers: &[usize],
    batch: usize,
    hardware: CudaPreset,
) -> Vec<(usize, f64, f64)> {
    GPU_RANGE
        .map(|g| {
            let c = compare(layers, batch, g, hardware);
            (g, c.dp.summary.speedup, c.ddp.summary.speedup)
        })
        .collect()
}

#[component]
pub fn DpVsDdpView(params: DpVsDdp) -> impl IntoView {
    let lang = crate::page::use_lang();
    let w = crate::page::use_t().sims;
    let t = &w.dp_vs_ddp;
    let DpVsDdp { layers, batch, gpus, hardware } = params;
    let gpus = RwSignal::new(gpus);
    let batch = RwSignal::new(batch);
    let hardware = RwSignal::new(hardware);
    let layers = StoredValue::new(layers);
    let step = RwSignal::new(FRAMES);
    let model =
        Memo::new(move |_| compare(&layers.get_value(), batch.get(), gpus.get(), hardware.get()));
    let curve = Memo::new(move |_| speedup_curve(&layers.get_value(), batch.get(), hardware.get()));
    let cursor =
        Signal::derive(move || model.with(Comparison::span) * step.get() as f64 / FRAMES as f64);
    view! {
        <header class="sim-head">
            <h3>{t.title}</h3>
            <TimelineParams gpus batch hardware/>
        </header>
        <p class="muted">{move || describe(&layers.get_value(), batch.get(), hardware.get(), w)}</p>
        <Player step last=Signal::derive(|| FRAMES) unit=&w.units.frame label=t.label start_label=t.start/>
        <div class="speedups" data-role="speedups">
            <p>
                {t.dp} <output data-role="speedup-dp">{move || format!("{:.2}×", model.with(|m| m.dp.summary.speedup))}</output>
                {move || (t.speedup)(&model.with(|m| duration(m.dp.summary.iteration_s)))}
            </p>
            <p>
                {t.ddp} <output data-role="speedup-ddp">{move || format!("{:.2}×", model.with(|m| m.ddp.summary.speedup))}</output>
                {move || (t.speedup)(&model.with(|m| duration(m.ddp.summary.iteration_s)))}
            </p>
        </div>
        <h4>{t.dp_title}</h4>
        {move || model.with(|m| gantt(&m.dp, cursor, m.span(), true, t, lang))}
        {move || model.with(|m| device_table(&m.dp, true, w))}
        <h4>{t.ddp_title}</h4>
        {move || model.with(|m| gantt(&m.ddp, cursor, m.span(), false, t, lang))}
        {move || model.with(|m| device_table(&m.ddp, false, w))}
        <Legend/>
        <h4>{t.curve_title}</h4>
        {move || curve.with(|c| speedup_chart(c, gpus.get(), t))}
    }
}

#[component]
fn Legend() -> impl IntoView {
    let t = &crate::page::use_t().sims.dp_vs_ddp;
    let items = [("compute", t.legend_compute), ("comm", t.legend_comm), ("host", t.legend_host)];
    view! {
        <ul class="legend">
            {items.into_iter().map(|(class, text)| view! { <li><span class=format!("swatch {class}")></span>{text}</li> }).collect_view()}
        </ul>
    }
}

/// One row per device (and, for DP, one for the process's Python), events shown up to `cursor`.
///
/// Drawn once per timeline: every bar is in place and the bars are clipped at the cursor, so a
/// frame changes one attribute (the clip's width) instead of replacing the chart's bars (207
/// nodes a frame at 16 GPUs, as `sim_steps` counted them).
fn gantt(
    t: &Timeline,
    cursor: Signal<f64>,
    span: f64,
    host_row: bool,
    w: &DpVsDdpWords,
    lang: lockstep_i18n::Lang,
) -> impl IntoView {
    const W: f64 = 1000.0;
    const ROW: f64 = 22.0;
    let rows = t.devices + usize::from(host_row);
    let x = move |s: f64| 90.0 + (W - 90.0) * s / span.max(1e-12);
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
        .filter_map(|e| {
            let (row, dy, h) = row_of(e.device, e.lane)?;
            let class = match e.lane {
                Lane::Compute => "compute",
                Lane::Comm => "comm",
                Lane::Host => "host",
            };
            Some(view! {
                <rect class=format!("{class} act-{}", e.activity.name()) x=x(e.start_s) y=row as f64 * ROW + dy width=(x(e.end_s) - x(e.start_s)).max(0.5) height=h>
                    <title>{format!("{} · {} → {}", super::label(e.label, lang), duration(e.start_s), duration(e.end_s))}</title>
                </rect>
            })
        })
        .collect_view();
    let labels = (0..rows)
        .map(|r| {
            let name = if r == t.devices {
                w.python.to_string()
            } else if host_row && r == 0 {
                "GPU 0 ★".to_string()
            } else {
                format!("GPU {r}")
            };
            view! { <text x=0 y=r as f64 * ROW + 15.0>{name}</text> }
        })
        .collect_view();
    let end = x(t.summary.iteration_s);
    let height = rows as f64 * ROW + 4.0;
    // A nested viewport clips what it holds to its width: the bars up to the cursor, and half a
    // unit more, the least width a bar that has just started is drawn with.
    let shown = move || x(cursor.get()) + 0.5;
    view! {
        <svg class="gantt" viewBox=format!("0 0 {W} {height}") role="img" aria-label=(w.timeline)(t.devices, &duration(t.summary.iteration_s))>
            {labels}
            <svg class="gantt-shown" width=shown height=height>{bars}</svg>
            <line class="iteration-end" x1=end x2=end y1=0 y2=rows as f64 * ROW/>
        </svg>
    }
}

fn device_table(t: &Timeline, master: bool, w: &SimWords) -> impl IntoView {
    let s = &t.summary;
    let rows = s
        .devices
        .iter()
        .enumerate()
        .map(|(d, dev)| {
            let name = if master && d == 0 { w.master_gpu.to_string() } else { format!("GPU {d}") };
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
                        <th scope="col">{w.dp_vs_ddp.col_device}</th>
                        <th scope="col">{w.dp_vs_ddp.col_samples}</th>
                        <th scope="col">{w.dp_vs_ddp.col_busy}</th>
                        <th scope="col">{w.dp_vs_ddp.col_load}</th>
                        <th scope="col">{w.dp_vs_ddp.col_memory}</th>
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
    }
}

fn speedup_chart(curve: &[(usize, f64, f64)], current: usize, w: &DpVsDdpWords) -> impl IntoView {
    const W: f64 = 600.0;
    const H: f64 = 220.0;
    let max_g = curve.len() as f64;
    let max_s = curve.iter().map(|c| c.1.max(c.2)).fold(1.0, f64::max).ceil();
    let x = |g: f64| 40.0 + (W - 60.0) * (g - 1.0) / (max_g - 1.0).max(1.0);
    let y = |s: f64| H - 30.0 - (H - 50.0) * s / max_s;
    let line = |pick: fn(&(usize, f64, f64)) -> f64| {
        curve
            .iter()
            .map(|c| format!("{:.1},{:.1}", x(c.0 as f64), y(pick(c))))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let at = curve.iter().find(|c| c.0 == current).copied();
    view! {
        <svg class="speedup-chart" viewBox=format!("0 0 {W} {H}") role="img" aria-label=w.chart>
            <line class="axis" x1=40 y1=y(0.0) x2=W - 20.0 y2=y(0.0)/>
            <line class="axis" x1=40 y1=y(0.0) x2=40 y2=10/>
            <polyline class="ideal" points=format!("{},{} {},{}", x(1.0), y(1.0), x(max_g.min(max_s)), y(max_g.min(max_s)))/>
            <polyline class="dp" points=line(|c| c.1)/>
            <polyline class="ddp" points=line(|c| c.2)/>
            <text x=W - 20.0 y=y(0.0) + 20.0 text-anchor="end">{w.axis_gpus}</text>
            <text x=44 y=20>{(w.axis_speedup)(max_s)}</text>
            {at.map(|(g, d, dd)| view! {
                <line class="cursor" x1=x(g as f64) x2=x(g as f64) y1=y(0.0) y2=10/>
                <text class="dp-label" x=x(g as f64) + 4.0 y=y(d) + 14.0>{format!("DP {d:.2}×")}</text>
                <text class="ddp-label" x=x(g as f64) + 4.0 y=y(dd) - 6.0>{format!("DDP {dd:.2}×")}</text>
            })}
        </svg>
        <p class="muted">{w.chart_key}</p>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LAYERS: [usize; 5] = [784, 4096, 4096, 4096, 10];

    #[test]
    fn speedups_move_with_the_gpus() {
        let curve = speedup_curve(&LAYERS, 4096, CudaPreset::H100Nvlink);
        assert_eq!(curve.len(), 16);
        assert!((curve[0].2 - 1.0).abs() < 1e-9, "one DDP process is the plain loop");
        assert!(curve[3].2 > curve[1].2 && curve[1].2 > 1.0, "DDP gains from 2 to 4 GPUs");
        assert!(curve[1..].iter().all(|c| c.2 > c.1), "DDP beats DP from 2 GPUs on");
    }
}
