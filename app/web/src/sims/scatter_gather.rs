//! `scatter-gather`: one DataParallel iteration phase by phase (what each GPU does while the
//! batch is scattered, the replicas run and the outputs and gradients come back to GPU 0), and
//! GPU 0's load against the number of GPUs.

use leptos::prelude::*;
use lockstep_embed::{CudaPreset, ScatterGather};
use lockstep_i18n::sims::{DpPhases, SimWords};
use sim_engine::dp::torch_chunk_sizes;
use sim_engine::timeline::{Activity, Lane, Timeline};

use super::mlp_on_gpus::{dataparallel, describe, TimelineParams, GPU_RANGE};
use super::{bytes, duration, longest, Explain, Player};

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

/// What a phase does, in the catalogue's words.
type PhaseWords = fn(&DpPhases) -> &'static str;

/// DataParallel's phases in the order one iteration runs them, with what each does.
pub const DP_PHASES: [(Activity, PhaseWords); 9] = [
    (Activity::Scatter, |w| w.scatter),
    (Activity::Replicate, |w| w.replicate),
    (Activity::Forward, |w| w.forward),
    (Activity::Gather, |w| w.gather),
    (Activity::Loss, |w| w.loss),
    (Activity::ScatterGradOutput, |w| w.scatter_grad_output),
    (Activity::Backward, |w| w.backward),
    (Activity::ReduceGradients, |w| w.reduce_gradients),
    (Activity::OptimizerStep, |w| w.optimizer_step),
];

#[component]
pub fn ScatterGatherView(params: ScatterGather) -> impl IntoView {
    let lang = crate::page::use_lang();
    let w = crate::page::use_t().sims;
    let t = &w.scatter_gather;
    let ScatterGather { layers, batch, gpus, hardware } = params;
    let gpus = RwSignal::new(gpus);
    let batch = RwSignal::new(batch);
    let hardware = RwSignal::new(hardware);
    let layers = StoredValue::new(layers);
    let step = RwSignal::new(0usize);
    // What step `s` says: before the first phase, how to start; then the phase's words.
    let says = move |s: usize| s.checked_sub(1).map_or(t.press_next, |i| DP_PHASES[i].1(&t.phases));
    let model = Memo::new(move |_| {
        dataparallel(&layers.get_value(), batch.get(), gpus.get(), hardware.get())
    });
    let curve =
        Memo::new(move |_| master_load_curve(&layers.get_value(), batch.get(), hardware.get()));
    view! {
        <header class="sim-head">
            <h3>{t.title}</h3>
            <TimelineParams gpus batch hardware/>
        </header>
        <p class="muted">{move || describe(&layers.get_value(), batch.get(), hardware.get(), w)}</p>
        <p data-role="chunks">
            {move || {
                let sizes = torch_chunk_sizes(batch.get(), gpus.get());
                let used = sizes.len();
                let note = if used < gpus.get() { (t.only_some)(used, gpus.get()) } else { String::new() };
                let sizes = sizes.iter().map(usize::to_string).collect::<Vec<_>>().join(" + ");
                (t.chunks)(batch.get(), &sizes) + &note
            }}
        </p>
        <Player step last=Signal::derive(|| DP_PHASES.len()) unit=&w.units.phase label=t.label start_label=t.start/>
        <Explain
            role="phase"
            text=Signal::derive(move || says(step.get()).to_string())
            longest=longest((0..=DP_PHASES.len()).map(|s| says(s).to_string()))
        />
        // Rebuilt when the parameters change; a step only changes classes, attributes and texts.
        {move || model.with(|m| phase_devices(m, step.into(), w, lang))}
        <h4>{t.chart_title}</h4>
        {move || curve.with(|c| master_chart(c, gpus.get(), w))}
    }
}

/// What each device does in each phase, in `DP_PHASES`' order: a line per item ("• what
/// (how long)"), or `None` where it idles.
fn phase_texts(t: &Timeline, lang: lockstep_i18n::Lang) -> Vec<Vec<Option<String>>> {
    (0..t.devices)
        .map(|d| {
            DP_PHASES
                .iter()
                .map(|&(activity, _)| {
                    let items: Vec<String> = t
                        .events
                        .iter()
                        .filter(|e| e.activity == activity && e.device == d && e.lane != Lane::Host)
                        .map(|e| {
                            let took = duration(e.end_s - e.start_s);
                            format!("• {} ({took})", super::label(e.label, lang))
                        })
                        .collect();
                    (!items.is_empty()).then(|| items.join("\n"))
                })
                .collect()
        })
        .collect()
}

/// What each device does in the phase that is on. A card's work is one text, a line per item
/// (`white-space: pre-line`), which a step rewrites with the card's class: at most two writes a
/// card. Lists of items shown and hidden by phase made the browser build, drop and lay out some
/// 300 boxes at the forward and backward phases at 16 GPUs, about 4 ms of the step in headless
/// Chromium, where 16 texts are about 1.
///
/// A step changes no card's size: under its text, unseen in the same cell, a card holds every
/// text it can show, drawn once, and is as tall as the tallest of them wraps to. Room for the
/// most items of any phase was short where items wrapped (GPU 0's fifteen sends at 16 GPUs took
/// two lines each): the grid's first row grew and shrank by some 340 px from phase to phase, and
/// moved all that follows it.
fn phase_devices(
    t: &Timeline,
    step: Signal<usize>,
    w: &'static SimWords,
    lang: lockstep_i18n::Lang,
) -> impl IntoView {
    let texts = phase_texts(t, lang);
    let cards = texts
        .into_iter()
        .enumerate()
        .map(|(d, work)| {
            // Each text the card can show once, the idle one in its own style.
            let mut sizes: Vec<(&'static str, String)> = Vec::new();
            for text in &work {
                let text = match text {
                    Some(text) => ("sizer", text.clone()),
                    None => ("sizer idle", w.scatter_gather.idle.to_string()),
                };
                if !sizes.contains(&text) {
                    sizes.push(text);
                }
            }
            let sizes = sizes
                .into_iter()
                .map(|(class, text)| view! { <span class=class aria-hidden="true">{text}</span> })
                .collect_view();
            let work = std::sync::Arc::new(work);
            // Before the first phase a card holds no work and is neither busy nor idle.
            let busy = {
                let work = work.clone();
                move || step.get().checked_sub(1).map(|i| work[i].is_some())
            };
            let said = move || {
                step.get().checked_sub(1).map_or(String::new(), |i| {
                    work[i].clone().unwrap_or_else(|| w.scatter_gather.idle.to_string())
                })
            };
            let dev = &t.summary.devices[d];
            view! {
                <li
                    class=move || match busy() {
                        Some(true) => "device active",
                        Some(false) => "device idle",
                        None => "device",
                    }
                    data-device=d
                >
                    <strong>{if d == 0 { w.master_gpu.to_string() } else { format!("GPU {d}") }}</strong>
                    <span class="muted">{(w.scatter_gather.device)(dev.samples, &bytes(dev.memory_bytes as f64))}</span>
                    <div class="work stacked"><span class="said">{said}</span>{sizes}</div>
                </li>
            }
        })
        .collect_view();
    view! {
        <ol class="devices" data-role="devices">
            {cards}
        </ol>
    }
}

fn master_chart(
    curve: &[(usize, f64, f64, u64, u64)],
    current: usize,
    w: &SimWords,
) -> impl IntoView {
    let t = &w.scatter_gather;
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
                        <th scope="col">{t.col_gpus}</th>
                        <th scope="col">{t.col_master_busy}</th>
                        <th scope="col">{t.col_other_busy}</th>
                        <th scope="col">{t.col_extra}</th>
                        <th scope="col">{t.col_master_memory}</th>
                        <th scope="col">{t.col_other_memory}</th>
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
        let words = &lockstep_i18n::sims::EN.scatter_gather.phases;
        assert!(DP_PHASES[0].1(words).starts_with("Scatter"));
        assert!(DP_PHASES[8].1(words).starts_with("Optimizer step"));
        assert_eq!(torch_chunk_sizes(10, 4), vec![3, 3, 3, 1]);
    }

    /// Before the first phase every card says who it is and what it holds, and nothing else.
    #[test]
    fn the_first_frame_has_no_work() {
        let sim = lockstep_embed::Simulation::parse("scatter-gather batch=8 gpus=2").unwrap();
        let html = Owner::new().with(|| view! { <crate::sims::SimulationView sim/> }.to_html());
        let devices = html.split(r#"data-role="devices""#).nth(1).unwrap();
        let devices = devices.split("</ol>").next().unwrap();
        assert_eq!(devices.matches(r#"class="device""#).count(), 2, "{devices}");
        assert_eq!(devices.matches(r#"class="work stacked""#).count(), 2, "{devices}");
        let said: Vec<&str> = devices
            .split(r#"class="said">"#)
            .skip(1)
            .map(|s| s.split("</span>").next().unwrap())
            .collect();
        assert_eq!(said.len(), 2, "{devices}");
        assert!(said.iter().all(|s| s.replace("<!>", "").trim().is_empty()), "{devices}");
        assert!(!devices.contains("device idle"), "{devices}");
        // What each can show is there, unseen, to keep its room.
        assert!(devices.contains(r#"class="sizer">• "#), "{devices}");
    }

    /// A card's line per item of its phase, and no text where it idles.
    #[test]
    fn each_gpu_says_its_work_in_each_phase() {
        let t = dataparallel(&LAYERS, 8, 2, CudaPreset::H100Nvlink);
        let texts = phase_texts(&t, lockstep_i18n::Lang::En);
        assert_eq!(texts.len(), 2);
        // GPU 0 works in every phase; GPU 1 idles through the loss and the optimizer step.
        assert!(texts[0].iter().all(Option::is_some));
        let idle: Vec<usize> = (0..9).filter(|&i| texts[1][i].is_none()).map(|i| i + 1).collect();
        assert_eq!(idle, vec![5, 9]);
        // The forward phase: a line per linear layer, on each GPU.
        for gpu in &texts {
            let forward = gpu[2].as_deref().unwrap();
            assert_eq!(forward.lines().count(), LAYERS.len() - 1, "{forward}");
            assert!(forward.lines().all(|l| l.starts_with("• forward layer ")), "{forward}");
        }
    }
}
