//! The learner's real run beside the cost model's prediction for the same model, batch and
//! world size: per-rank epoch times, loss per epoch, and a step's all-reduce against the
//! step, drawn as SVG, with the gap between run and model said in words.
//!
//! The run is what the harness measured (`grading_protocol::Measured`); the prediction is
//! `sim_engine::ddp` on the `cpu-gloo` preset for a run on CPUs, `h100-pcie` for one on GPUs
//! (the preset is named on the page: the grader does not know which GPU it ran on). The cost
//! model times an MLP, so a model that is not a chain of `nn.Linear` layers gets the run
//! alone, and the page says why.

use grading_protocol::{Measured, RunRole, Verdict};
use leptos::prelude::*;
use lockstep_i18n::sims::RunWords;
use sim_engine::ddp::{self, DdpConfig, Iteration};
use sim_engine::hardware::{Hardware, CPU_GLOO, H100_PCIE};
use sim_engine::model::Mlp;
use sim_engine::timeline::Activity;

use crate::sims::duration;

/// Everything the section draws, computed once from the verdict.
#[derive(Debug, Clone, PartialEq)]
pub struct Comparison {
    pub world: u32,
    /// Per rank, each epoch's seconds.
    pub epoch_s: Vec<Vec<f64>>,
    /// Per rank, each epoch's mean loss.
    pub loss: Vec<Vec<Option<f64>>>,
    /// Steps in an epoch (rank 0's first).
    pub steps: u64,
    /// The run's typical step: the median epoch after the first (warm-up), over its steps.
    pub measured_step_s: Option<f64>,
    /// One all-reduce of every gradient, timed when DDP was constructed.
    pub measured_allreduce_s: Option<f64>,
    pub prediction: Result<Prediction, NoPrediction>,
}

/// Why the cost model has no prediction for the run.
#[derive(Debug, Clone, PartialEq)]
pub enum NoPrediction {
    NoDdpModel,
    NotMlp,
    NoBatchSize,
    /// The widths `Mlp::new` refused, with its error.
    BadWidths(String),
    /// The cost model's own error.
    Engine(String),
}

impl NoPrediction {
    /// Why, in words.
    pub fn words(&self, w: &RunWords) -> String {
        match self {
            NoPrediction::NoDdpModel => w.no_ddp_model.into(),
            NoPrediction::NotMlp => w.not_mlp.into(),
            NoPrediction::NoBatchSize => w.no_batch_size.into(),
            NoPrediction::BadWidths(e) => (w.bad_widths)(e),
            NoPrediction::Engine(e) => e.clone(),
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Prediction {
    /// The hardware preset's name.
    pub preset: String,
    pub widths: Vec<u64>,
    /// The global batch: per-process batch × world size.
    pub batch: u64,
    pub step_s: f64,
    /// The time the step's bucket all-reduces take, together (they overlap backward).
    pub allreduce_s: f64,
}

impl Comparison {
    /// The model's epoch: its step times the run's steps.
    pub fn predicted_epoch_s(&self) -> Option<f64> {
        self.prediction.as_ref().ok().map(|p| p.step_s * self.steps as f64)
    }

    /// The gap between the run and the model, in words.
    pub fn gap(&self, w: &RunWords) -> String {
        let (Some(measured), Ok(p)) = (self.measured_step_s, &self.prediction) else {
            return match &self.prediction {
                Err(why) => (w.no_prediction)(&why.words(w)),
                Ok(_) => w.too_few_epochs.into(),
            };
        };
        let ratio = measured / p.step_s;
        let size = if ratio >= 1.0 {
            (w.slower)(ratio, &duration(p.step_s))
        } else {
            (w.faster)(ratio * 100.0, &duration(p.step_s))
        };
        let why = if ratio > 1.5 {
            w.why_slower
        } else if ratio < 0.67 {
            w.why_faster
        } else {
            w.why_close
        };
        (w.gap)(&duration(measured), &size, why)
    }
}

/// The comparison for the verdict's graded DDP run, when it measured any training.
pub fn compare(verdict: &Verdict) -> Option<Comparison> {
    let run = verdict.runs.iter().find(|r| r.role == RunRole::Ddp)?;
    let m = run.measured.as_ref()?;
    let epoch_s: Vec<Vec<f64>> =
        m.ranks.iter().map(|r| r.epochs.iter().map(|e| e.seconds).collect()).collect();
    if epoch_s.iter().all(Vec::is_empty) {
        return None;
    }
    let loss = m.ranks.iter().map(|r| r.epochs.iter().map(|e| e.loss).collect()).collect();
    let steps = m.ranks.first().and_then(|r| r.epochs.first()).map_or(0, |e| e.batches);
    let measured_step_s = median_steady_epoch(&epoch_s).map(|s| s / steps.max(1) as f64);
    let world = run.nproc.max(1);
    Some(Comparison {
        world,
        epoch_s,
        loss,
        steps,
        measured_step_s: measured_step_s.filter(|_| steps > 0),
        measured_allreduce_s: m.model.as_ref().and_then(|s| s.allreduce_ms).map(|ms| ms / 1e3),
        prediction: predict(m, world),
    })
}

/// The median over ranks of the epochs after the first (all of them when there is one).
fn median_steady_epoch(epoch_s: &[Vec<f64>]) -> Option<f64> {
    let mut steady: Vec<f64> =
        epoch_s.iter().flat_map(|r| r.iter().skip(usize::from(r.len() > 1)).copied()).collect();
    steady.sort_by(f64::total_cmp);
    steady.get(steady.len() / 2).copied()
}

fn predict(m: &Measured, world: u32) -> Result<Prediction, NoPrediction> {
    let shape = m.model.as_ref().ok_or(NoPrediction::NoDdpModel)?;
    let widths = shape.mlp_widths().ok_or(NoPrediction::NotMlp)?;
    let batch_size = m.batch_size.ok_or(NoPrediction::NoBatchSize)?;
    let gpu = shape.device.as_deref().is_some_and(|d| d.starts_with("cuda"));
    let hardware: Hardware = if gpu { H100_PCIE } else { CPU_GLOO };
    let model = Mlp::new(widths.iter().map(|&w| w as usize).collect())
        .map_err(|e| NoPrediction::BadWidths(e.to_string()))?;
    let batch = batch_size * u64::from(world);
    let cfg = DdpConfig {
        model,
        hardware,
        world_size: world as usize,
        batch: batch as usize,
        bucket_cap: Default::default(),
        iteration: Iteration::Rebuilt,
    };
    let run = ddp::simulate(&cfg).map_err(|e| NoPrediction::Engine(e.to_string()))?;
    let allreduce_s = run
        .timeline
        .events
        .iter()
        .filter(|e| e.device == 0 && e.activity == Activity::AllReduce)
        .map(|e| e.end_s - e.start_s)
        .sum();
    Ok(Prediction {
        preset: hardware.name.to_string(),
        widths,
        batch,
        step_s: run.timeline.summary.iteration_s,
        allreduce_s,
    })
}

const W: f64 = 480.0;
const H: f64 = 200.0;
const LEFT: f64 = 64.0;
const BOTTOM: f64 = 28.0;
const TOP: f64 = 12.0;
const RIGHT: f64 = 20.0;

/// One line (or dashed reference) of a chart: its name and (x, y) points.
struct Series {
    name: String,
    class: &'static str,
    points: Vec<(f64, f64)>,
}

/// A line chart over epochs 1..=n with a y axis from 0 to the largest value.
fn line_chart(label: &str, y_unit: fn(f64) -> String, series: Vec<Series>) -> AnyView {
    let n = series.iter().flat_map(|s| s.points.iter().map(|p| p.0)).fold(1.0, f64::max);
    let top = series.iter().flat_map(|s| s.points.iter().map(|p| p.1)).fold(0.0, f64::max);
    let top = if top > 0.0 { top * 1.1 } else { 1.0 };
    let x = move |v: f64| LEFT + (v - 1.0) / (n - 1.0).max(1.0) * (W - LEFT - RIGHT);
    let y = move |v: f64| TOP + (1.0 - v / top) * (H - TOP - BOTTOM);
    let ticks = (0..=2).map(|i| top * f64::from(i) / 2.0).collect::<Vec<_>>();
    let legend = series
        .iter()
        .map(|s| view! { <li class=format!("legend {}", s.class)>{s.name.clone()}</li> })
        .collect_view();
    let lines = series
        .into_iter()
        .map(|s| {
            let points = s
                .points
                .iter()
                .map(|&(px, py)| format!("{:.1},{:.1}", x(px), y(py)))
                .collect::<Vec<_>>()
                .join(" ");
            // Rank 1 and the model draw squares, so that lines lying on top of each other
            // (ranks kept equal by DDP) still show both.
            let square = s.class != "rank0";
            let dots = s
                .points
                .iter()
                .map(|&(px, py)| {
                    if square {
                        view! { <rect x=format!("{:.1}", x(px) - 3.5) y=format!("{:.1}", y(py) - 3.5) width="7" height="7"/> }.into_any()
                    } else {
                        view! { <circle cx=format!("{:.1}", x(px)) cy=format!("{:.1}", y(py)) r="3.5"/> }.into_any()
                    }
                })
                .collect_view();
            view! { <g class=format!("series {}", s.class)><polyline points=points fill="none"/>{dots}</g> }
        })
        .collect_view();
    view! {
        <svg class="chart" viewBox=format!("0 0 {W} {H}") role="img" aria-label=label.to_string()>
            <line class="axis" x1=LEFT y1=H - BOTTOM x2=W - RIGHT y2=H - BOTTOM/>
            <line class="axis" x1=LEFT y1=TOP x2=LEFT y2=H - BOTTOM/>
            {ticks.into_iter().map(|t| view! {
                <text class="tick" x=LEFT - 6.0 y=y(t) + 4.0 text-anchor="end">{y_unit(t)}</text>
            }).collect_view()}
            {(1..=n as u32).map(|e| view! {
                <text class="tick" x=x(f64::from(e)) y=H - 8.0 text-anchor="middle">{e}</text>
            }).collect_view()}
            {lines}
        </svg>
        <ul class="chart-legend">{legend}</ul>
    }
    .into_any()
}

/// Horizontal bars, one per (name, seconds, class).
fn bar_chart(label: &str, bars: Vec<(String, f64, &'static str)>) -> AnyView {
    let top = bars.iter().map(|b| b.1).fold(0.0, f64::max).max(1e-9) * 1.1;
    let row = 28.0;
    let height = row * bars.len() as f64 + 8.0;
    let left = 190.0;
    let rows = bars
        .into_iter()
        .enumerate()
        .map(|(i, (name, s, class))| {
            let y = 4.0 + row * i as f64;
            let width = s / top * (W - left - 80.0);
            view! {
                <g class=format!("bar {class}")>
                    <text class="tick" x=left - 8.0 y=y + 17.0 text-anchor="end">{name}</text>
                    <rect x=left y=y + 4.0 width=format!("{width:.1}") height="18"/>
                    <text class="tick" x=left + width + 6.0 y=y + 17.0>{duration(s)}</text>
                </g>
            }
        })
        .collect_view();
    view! {
        <svg class="chart" viewBox=format!("0 0 {W} {height}") role="img" aria-label=label.to_string()>
            {rows}
        </svg>
    }
    .into_any()
}

/// An axis label: short enough for the margin.
fn seconds(s: f64) -> String {
    if s == 0.0 {
        "0".into()
    } else if s >= 1.0 {
        format!("{s:.2} s")
    } else if s >= 1e-3 {
        format!("{:.0} ms", s * 1e3)
    } else {
        format!("{:.0} µs", s * 1e6)
    }
}

fn loss_tick(v: f64) -> String {
    if v == 0.0 {
        "0".into()
    } else if v >= 100.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.2}")
    }
}

#[component]
pub fn RunBesideModel(c: Comparison) -> impl IntoView {
    let w = crate::page::use_t().sims;
    let t = &w.run;
    // One line per rank over its epochs (1, 2, …); an epoch without a value is left out.
    let per_rank = |values: Vec<Vec<Option<f64>>>| {
        values
            .into_iter()
            .enumerate()
            .map(|(rank, v)| Series {
                name: (w.rank)(rank),
                class: match rank {
                    0 => "rank0",
                    1 => "rank1",
                    _ => "rankn",
                },
                points: (1..).zip(v).filter_map(|(e, s)| Some((f64::from(e), s?))).collect(),
            })
            .collect::<Vec<_>>()
    };
    let seconds_per_epoch = c.epoch_s.iter().map(|r| r.iter().copied().map(Some).collect());
    let mut epochs = per_rank(seconds_per_epoch.collect());
    let epochs_n = c.epoch_s.iter().map(Vec::len).max().unwrap_or(0);
    if let Some(p) = c.predicted_epoch_s() {
        epochs.push(Series {
            name: (t.model_series)(&machine(c.prediction.as_ref().map_or("", |p| &p.preset))),
            class: "model",
            points: (1..=epochs_n).map(|e| (e as f64, p)).collect(),
        });
    }
    let loss_series = per_rank(c.loss.clone());
    let has_loss = loss_series.iter().any(|s| !s.points.is_empty());
    let mut bars = Vec::new();
    if let Some(s) = c.measured_step_s {
        bars.push((t.your_step.to_string(), s, "measured"));
    }
    if let Some(s) = c.measured_allreduce_s {
        bars.push((t.your_allreduce.to_string(), s, "measured"));
    }
    if let Ok(p) = &c.prediction {
        bars.push((t.model_step.to_string(), p.step_s, "model"));
        bars.push((t.model_allreduces.to_string(), p.allreduce_s, "model"));
    }
    let setup = match &c.prediction {
        Ok(p) => {
            (t.setup)(&machine(&p.preset), &format!("{:?}", p.widths), p.batch, c.world, c.steps)
        }
        Err(why) => (t.no_prediction)(&why.words(t)),
    };
    let table_rows = c
        .epoch_s
        .iter()
        .enumerate()
        .flat_map(|(rank, v)| {
            let loss = c.loss.get(rank).cloned().unwrap_or_default();
            v.iter()
                .enumerate()
                .map(move |(e, &s)| {
                    let l = loss.get(e).copied().flatten().map_or("—".to_string(), |l| format!("{l:.4}"));
                    view! { <tr><td>{rank}</td><td>{e + 1}</td><td>{duration(s)}</td><td>{l}</td></tr> }
                })
                .collect::<Vec<_>>()
        })
        .collect_view();
    view! {
        <section class="run-vs-model" id="run-vs-model" data-role="run-vs-model">
            <h2>{t.title}</h2>
            <p class="gap" data-role="gap">{c.gap(t)}</p>
            <p class="model-setup">{setup}</p>
            <figure>
                <figcaption>{t.epochs_caption}</figcaption>
                {line_chart(t.epochs_chart, seconds, epochs)}
            </figure>
            {has_loss.then(|| view! {
                <figure>
                    <figcaption>{t.loss_caption}</figcaption>
                    {line_chart(t.loss_chart, loss_tick, loss_series)}
                </figure>
            })}
            {(!bars.is_empty()).then(|| view! {
                <figure>
                    <figcaption>{t.bars_caption}</figcaption>
                    {bar_chart(t.bars_chart, bars)}
                </figure>
            })}
            <details>
                <summary>{t.numbers}</summary>
                <table class="numbers">
                    <thead><tr><th>{t.col_rank}</th><th>{t.col_epoch}</th><th>{t.col_time}</th><th>{t.col_loss}</th></tr></thead>
                    <tbody>{table_rows}</tbody>
                </table>
            </details>
        </section>
    }
    .into_any()
}

/// The machine a model's preset stands for, as a learner reads it ("H100 SXM5 80GB · NVLink 4"),
/// not its id (`h100-nvlink`).
fn machine(preset: &str) -> String {
    sim_engine::hardware::preset(preset)
        .map_or_else(|| preset.to_string(), |h| format!("{} · {}", h.device.name, h.link.name))
}

#[cfg(test)]
mod tests {
    use grading_protocol::{EpochMeasure, ModelShape, RankEpochs};

    use super::*;

    fn measured(linears: Vec<(u64, u64)>, numel: u64) -> Measured {
        let epoch = |seconds, loss| EpochMeasure { seconds, batches: 32, samples: 16_384, loss };
        let rank = |rank| RankEpochs {
            rank,
            epochs: vec![epoch(1.2, Some(78.5)), epoch(0.9, Some(1.8)), epoch(1.0, None)],
        };
        Measured {
            ranks: vec![rank(0), rank(1)],
            model: Some(ModelShape {
                numel,
                linears,
                allreduce_ms: Some(1.5),
                device: Some("cpu".into()),
            }),
            batch_size: Some(512),
            dataset_len: Some(32_768),
            sampler: Some("DistributedSampler".into()),
            epoch_changed: Some(true),
        }
    }

    const SOLUTION: [(u64, u64); 3] = [(64, 512), (512, 512), (512, 1)];
    const SOLUTION_NUMEL: u64 = 64 * 512 + 512 + 512 * 512 + 512 + 512 + 1;

    #[test]
    fn the_run_is_set_beside_the_cost_model_for_the_same_model_batch_and_world() {
        let m = measured(SOLUTION.to_vec(), SOLUTION_NUMEL);
        let p = predict(&m, 2).unwrap();
        assert_eq!(
            (p.preset.as_str(), p.widths.clone(), p.batch),
            ("cpu-gloo", vec![64, 512, 512, 1], 1024)
        );
        let expected = ddp::simulate(&DdpConfig {
            model: Mlp::new(vec![64, 512, 512, 1]).unwrap(),
            hardware: CPU_GLOO,
            world_size: 2,
            batch: 1024,
            bucket_cap: Default::default(),
            iteration: Iteration::Rebuilt,
        })
        .unwrap();
        assert_eq!(p.step_s, expected.timeline.summary.iteration_s);
        assert!(p.allreduce_s > 0.0 && p.allreduce_s < p.step_s);
    }

    #[test]
    fn the_typical_step_leaves_out_the_warm_up_epoch() {
        let epochs = vec![vec![1.2, 0.9, 1.0], vec![1.3, 0.95, 1.05]];
        assert_eq!(median_steady_epoch(&epochs), Some(1.0));
        assert_eq!(median_steady_epoch(&[vec![2.0]]), Some(2.0), "one epoch is all there is");
        assert_eq!(median_steady_epoch(&[]), None);
    }

    #[test]
    fn the_gap_is_stated_and_a_model_the_cost_model_cannot_time_says_why() {
        let mut c = Comparison {
            world: 2,
            epoch_s: vec![vec![1.0]],
            loss: vec![vec![None]],
            steps: 32,
            measured_step_s: Some(0.03),
            measured_allreduce_s: Some(0.0015),
            prediction: predict(&measured(SOLUTION.to_vec(), SOLUTION_NUMEL), 2),
        };
        let w = &lockstep_i18n::sims::EN.run;
        let gap = c.gap(w);
        assert!(gap.starts_with("A step of your run took 30.00 ms"), "{gap}");
        assert!(gap.contains("× the model's"), "{gap}");
        let conv = measured(vec![(64, 512)], 1_000_000);
        c.prediction = predict(&conv, 2);
        assert!(c.gap(w).contains("not one"), "{}", c.gap(w));
        let ko = c.gap(&lockstep_i18n::sims::KO.run);
        assert!(ko.starts_with("예측 없음: cost model은 MLP"), "{ko}");
        assert_eq!(c.predicted_epoch_s(), None);
    }
}
