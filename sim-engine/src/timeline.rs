//! What the DataParallel and DDP simulations produce: timed events per device, and summary
//! figures that compare the two.

use crate::hardware::Hardware;
use crate::model::Mlp;
use lockstep_units as units;

/// Where an event happens on its device.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lane {
    /// Kernels on the device.
    Compute,
    /// Copies and collectives to or from the device.
    Comm,
    /// Python on the host. In DataParallel every device's host events hold the one GIL of the
    /// one process; in DDP each rank has its own interpreter.
    Host,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Activity {
    /// DP: a chunk of the input batch copied from the master.
    Scatter,
    /// DP: the parameters copied from the master, every iteration.
    Replicate,
    Forward,
    /// DP: outputs copied to the master.
    Gather,
    Loss,
    /// DP: the gradient of each output chunk sent back to its device.
    ScatterGradOutput,
    Backward,
    /// DP: every replica's gradients summed onto the master.
    ReduceGradients,
    /// DDP: one bucket's all-reduce.
    AllReduce,
    /// DDP: the parameters broadcast from rank 0, once, at construction.
    Broadcast,
    OptimizerStep,
}

impl Activity {
    pub fn name(self) -> &'static str {
        match self {
            Activity::Scatter => "scatter",
            Activity::Replicate => "replicate",
            Activity::Forward => "forward",
            Activity::Gather => "gather",
            Activity::Loss => "loss",
            Activity::ScatterGradOutput => "scatter-grad-output",
            Activity::Backward => "backward",
            Activity::ReduceGradients => "reduce-gradients",
            Activity::AllReduce => "all-reduce",
            Activity::Broadcast => "broadcast",
            Activity::OptimizerStep => "optimizer-step",
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    pub device: usize,
    pub lane: Lane,
    pub activity: Activity,
    /// The layer (forward, backward) or bucket (all-reduce) the event is about.
    pub index: Option<usize>,
    pub start_s: f64,
    pub end_s: f64,
    /// Bytes moved, for copies and collectives.
    pub bytes: u64,
    pub label: Label,
}

/// What an event is, as data: the page words it in its reader's language.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Label {
    /// DP: the batch split on the host.
    ScatterBatch,
    InputChunk {
        samples: usize,
        to: usize,
    },
    /// DP: the parameters copied from the master to every replica.
    Replicate {
        bytes: u64,
    },
    CopyModule {
        copies: usize,
    },
    ForwardPython {
        layer: usize,
    },
    Forward {
        layer: usize,
        samples: usize,
    },
    Outputs {
        samples: usize,
        from: usize,
    },
    BackwardPython,
    Loss {
        outputs: usize,
    },
    /// DP: the loss over the whole batch, on the master.
    LossOverAll {
        outputs: usize,
    },
    GradientOfOutputs {
        outputs: usize,
        to: usize,
    },
    Backward {
        layer: usize,
        samples: usize,
    },
    SumReplicas {
        replicas: usize,
    },
    OptimizerStep,
    /// DP: the step on the master only.
    OptimizerStepOnMaster,
    /// DDP: the parameters broadcast from rank 0 in the constructor.
    BroadcastOnce {
        bytes: u64,
    },
    AllReduce {
        bucket: usize,
        tensors: usize,
        bytes: u64,
    },
    /// No words (tests).
    None,
}

impl Label {
    /// In English; `korean` says the same in Korean.
    pub fn english(self) -> String {
        let n = |n: usize, one: &str, many: &str| units::plural(n as u64, one, many);
        let bytes = |b: u64| units::bytes(b as f64);
        match self {
            Label::ScatterBatch => "scatter the batch".into(),
            Label::InputChunk { samples, to } => {
                format!("input chunk of {}, GPU 0 → GPU {to}", n(samples, "sample", "samples"))
            }
            Label::Replicate { bytes: b } => {
                format!("broadcast {} of parameters from GPU 0", bytes(b))
            }
            Label::CopyModule { copies } => format!("copy the module {copies} times in Python"),
            Label::ForwardPython { layer } => format!("forward of layer {layer} in Python"),
            Label::Forward { layer, samples } => {
                format!("forward layer {layer} ({})", n(samples, "sample", "samples"))
            }
            Label::Outputs { samples, from } => {
                format!("outputs of {}, GPU {from} → GPU 0", n(samples, "sample", "samples"))
            }
            Label::BackwardPython => "loss.backward() from Python".into(),
            Label::Loss { outputs } => format!("loss over {}", n(outputs, "output", "outputs")),
            Label::LossOverAll { outputs } => format!("loss over all {outputs} outputs"),
            Label::GradientOfOutputs { outputs, to } => {
                format!("gradient of {outputs} outputs, GPU 0 → GPU {to}")
            }
            Label::Backward { layer, samples } => {
                format!("backward layer {layer} ({})", n(samples, "sample", "samples"))
            }
            Label::SumReplicas { replicas } => {
                format!("sum {replicas} replicas' gradients onto GPU 0")
            }
            Label::OptimizerStep => "optimizer.step()".into(),
            Label::OptimizerStepOnMaster => "optimizer.step() on GPU 0 only".into(),
            Label::BroadcastOnce { bytes: b } => format!(
                "broadcast {} of parameters from rank 0 (once, in the constructor)",
                bytes(b)
            ),
            Label::AllReduce { bucket, tensors, bytes: b } => format!(
                "all-reduce bucket {bucket} ({}, {})",
                n(tensors, "tensor", "tensors"),
                bytes(b)
            ),
            Label::None => String::new(),
        }
    }

    /// In Korean, as Korean ML engineers write it: the API names and DDP terms in English.
    pub fn korean(self) -> String {
        let bytes = |b: u64| units::bytes(b as f64);
        match self {
            Label::ScatterBatch => "batch 나누기 (scatter)".into(),
            Label::InputChunk { samples, to } => {
                format!("입력 조각 (샘플 {samples}개), GPU 0 → GPU {to}")
            }
            Label::Replicate { bytes: b } => format!("GPU 0에서 파라미터 {} broadcast", bytes(b)),
            Label::CopyModule { copies } => format!("Python에서 module {copies}번 복사"),
            Label::ForwardPython { layer } => format!("Python에서 layer {layer} forward 호출"),
            Label::Forward { layer, samples } => {
                format!("layer {layer} forward (샘플 {samples}개)")
            }
            Label::Outputs { samples, from } => {
                format!("출력 (샘플 {samples}개), GPU {from} → GPU 0")
            }
            Label::BackwardPython => "Python에서 loss.backward() 호출".into(),
            Label::Loss { outputs } => format!("출력 {outputs}개의 loss"),
            Label::LossOverAll { outputs } => format!("출력 {outputs}개 전체의 loss"),
            Label::GradientOfOutputs { outputs, to } => {
                format!("출력 {outputs}개의 gradient, GPU 0 → GPU {to}")
            }
            Label::Backward { layer, samples } => {
                format!("layer {layer} backward (샘플 {samples}개)")
            }
            Label::SumReplicas { replicas } => {
                format!("replica {replicas}개의 gradient를 GPU 0에 합산")
            }
            Label::OptimizerStep => "optimizer.step()".into(),
            Label::OptimizerStepOnMaster => "GPU 0에서만 optimizer.step()".into(),
            Label::BroadcastOnce { bytes: b } => {
                format!("rank 0에서 파라미터 {} broadcast (생성자에서 한 번)", bytes(b))
            }
            Label::AllReduce { bucket, tensors, bytes: b } => {
                format!("bucket {bucket} all-reduce (tensor {tensors}개, {})", bytes(b))
            }
            Label::None => String::new(),
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct DeviceSummary {
    /// Time the device computes or communicates (the union of its compute and comm events).
    pub busy_s: f64,
    /// Peak memory the iteration needs on the device.
    pub memory_bytes: u64,
    /// Samples of the batch the device processes.
    pub samples: usize,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    pub iteration_s: f64,
    /// The same batch, model and device without any parallelism.
    pub single_device_s: f64,
    pub speedup: f64,
    pub samples_per_s: f64,
    pub busiest_device: usize,
    /// The busiest device's busy time over the iteration time.
    pub busiest_load: f64,
    pub devices: Vec<DeviceSummary>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Timeline {
    /// Devices the run uses (DP may use fewer than it was given: see [`crate::dp`]).
    pub devices: usize,
    /// One-time work before the first iteration (DDP's broadcast from rank 0).
    pub setup: Vec<Event>,
    /// One training iteration, starting at 0.
    pub events: Vec<Event>,
    pub summary: Summary,
}

impl Timeline {
    pub(crate) fn new(
        batch: usize,
        single_device_s: f64,
        setup: Vec<Event>,
        events: Vec<Event>,
        memory: Vec<u64>,
        samples: Vec<usize>,
    ) -> Timeline {
        let iteration_s = events.iter().map(|e| e.end_s).fold(0.0, f64::max);
        let devices: Vec<DeviceSummary> = memory
            .iter()
            .zip(&samples)
            .enumerate()
            .map(|(d, (&memory_bytes, &samples))| DeviceSummary {
                busy_s: busy(&events, d),
                memory_bytes,
                samples,
            })
            .collect();
        let busiest_device = (0..devices.len())
            .max_by(|&a, &b| devices[a].busy_s.total_cmp(&devices[b].busy_s))
            .unwrap_or(0);
        let summary = Summary {
            iteration_s,
            single_device_s,
            speedup: single_device_s / iteration_s,
            samples_per_s: batch as f64 / iteration_s,
            busiest_device,
            busiest_load: devices.get(busiest_device).map_or(0.0, |d| d.busy_s / iteration_s),
            devices,
        };
        Timeline { devices: memory.len(), setup, events, summary }
    }
}

/// Length of the union of a device's compute and comm intervals.
fn busy(events: &[Event], device: usize) -> f64 {
    let mut spans: Vec<(f64, f64)> = events
        .iter()
        .filter(|e| e.device == device && e.lane != Lane::Host)
        .map(|e| (e.start_s, e.end_s))
        .collect();
    spans.sort_by(|a, b| a.0.total_cmp(&b.0));
    let (mut total, mut reach) = (0.0, f64::NEG_INFINITY);
    for (s, e) in spans {
        if e > reach {
            total += e - s.max(reach);
            reach = e;
        }
    }
    total
}

/// Appends events and tracks when each device's lanes are free.
pub(crate) struct Schedule {
    pub events: Vec<Event>,
    compute_free: Vec<f64>,
    comm_free: Vec<f64>,
    host_free: Vec<f64>,
}

impl Schedule {
    /// `hosts` is 1 for DP (one interpreter) and the number of ranks for DDP.
    pub fn new(devices: usize, hosts: usize) -> Schedule {
        Schedule {
            events: Vec::new(),
            compute_free: vec![0.0; devices],
            comm_free: vec![0.0; devices],
            host_free: vec![0.0; hosts],
        }
    }

    fn free_mut(&mut self, lane: Lane, device: usize) -> &mut f64 {
        match lane {
            Lane::Compute => &mut self.compute_free[device],
            Lane::Comm => &mut self.comm_free[device],
            Lane::Host => {
                let h = device.min(self.host_free.len() - 1);
                &mut self.host_free[h]
            }
        }
    }

    /// Runs work of `duration_s` on a lane as soon as both the lane and its inputs (`after`) are
    /// ready; returns its end.
    #[allow(clippy::too_many_arguments)]
    pub fn run(
        &mut self,
        device: usize,
        lane: Lane,
        activity: Activity,
        index: Option<usize>,
        after: f64,
        duration_s: f64,
        bytes: u64,
        label: Label,
    ) -> f64 {
        let free = self.free_mut(lane, device);
        let start_s = free.max(after);
        let end_s = start_s + duration_s;
        *free = end_s;
        self.events.push(Event { device, lane, activity, index, start_s, end_s, bytes, label });
        end_s
    }

    /// A transfer that occupies the comm lanes of several devices at once (a copy between two
    /// devices, or a collective over all of them); returns its end.
    #[allow(clippy::too_many_arguments)]
    pub fn transfer(
        &mut self,
        devices: &[usize],
        activity: Activity,
        index: Option<usize>,
        after: f64,
        duration_s: f64,
        bytes: u64,
        label: Label,
    ) -> f64 {
        let start_s = devices.iter().map(|&d| self.comm_free[d]).fold(after, f64::max);
        for &d in devices {
            self.comm_free[d] = start_s + duration_s;
            self.events.push(Event {
                device: d,
                lane: Lane::Comm,
                activity,
                index,
                start_s,
                end_s: start_s + duration_s,
                bytes,
                label,
            });
        }
        start_s + duration_s
    }

    /// One layer's forward on `device` for `samples` samples. Its Python starts when the host
    /// thread is at `host_ready`, its kernel when the data is at `data_ready`: on a GPU the
    /// launch returns at once and the kernel queues behind the previous one; on a CPU the Python
    /// thread runs the kernel itself. Returns (host free, kernel end).
    #[allow(clippy::too_many_arguments)]
    pub fn forward_layer(
        &mut self,
        hw: &Hardware,
        model: &Mlp,
        device: usize,
        layer: usize,
        samples: usize,
        host_ready: f64,
        data_ready: f64,
    ) -> (f64, f64) {
        let launched = self.run(
            device,
            Lane::Host,
            Activity::Forward,
            Some(layer),
            host_ready,
            hw.host_layer_s,
            0,
            Label::ForwardPython { layer },
        );
        let end = self.run(
            device,
            Lane::Compute,
            Activity::Forward,
            Some(layer),
            launched.max(data_ready),
            hw.compute_s(model.forward_flops(layer, samples)),
            0,
            Label::Forward { layer, samples },
        );
        if hw.device.cuda {
            (launched, end)
        } else {
            *self.free_mut(Lane::Host, device) = end;
            (end, end)
        }
    }
}

/// Time of the loss over `samples` outputs: a few passes over the logits, memory-bound.
pub(crate) fn loss_s(hw: &Hardware, model: &Mlp, samples: usize) -> f64 {
    3.0 * crate::model::tensor_bytes(samples, model.output_width()) as f64
        / hw.device.memory_bandwidth
}

/// One iteration of an ordinary training loop on `device` (its own process): forward, loss,
/// backward, then `gradients_ready(s, ready_at, backward_end)`, which returns when the gradients
/// may be used (DDP launches its all-reduces there), then the optimizer step. Returns its end.
pub(crate) fn train_step(
    s: &mut Schedule,
    hw: &Hardware,
    m: &Mlp,
    device: usize,
    samples: usize,
    gradients_ready: impl FnOnce(&mut Schedule, &[f64], f64) -> f64,
) -> f64 {
    let (mut host, mut end) = (0.0, 0.0);
    for l in 0..m.layers() {
        (host, end) = s.forward_layer(hw, m, device, l, samples, host, end);
    }
    let launched = s.run(
        device,
        Lane::Host,
        Activity::Loss,
        None,
        host,
        hw.host_layer_s,
        0,
        Label::BackwardPython,
    );
    let mut t = s.run(
        device,
        Lane::Compute,
        Activity::Loss,
        None,
        launched.max(end),
        loss_s(hw, m, samples),
        0,
        Label::Loss { outputs: samples },
    );
    // Backward layer by layer; the gradients of a layer's weight and bias are ready at its end.
    let mut ready_at = vec![0.0; 2 * m.layers()];
    for l in (0..m.layers()).rev() {
        t = s.run(
            device,
            Lane::Compute,
            Activity::Backward,
            Some(l),
            t,
            hw.compute_s(m.backward_flops(l, samples)),
            0,
            Label::Backward { layer: l, samples },
        );
        ready_at[2 * l] = t;
        ready_at[2 * l + 1] = t;
    }
    let usable = gradients_ready(s, &ready_at, t);
    s.run(
        device,
        Lane::Compute,
        Activity::OptimizerStep,
        None,
        usable + hw.host_layer_s,
        hw.optimizer_step_s(m.parameter_count()),
        0,
        Label::OptimizerStep,
    )
}

/// One iteration of the plain (non-distributed) training loop on one device.
pub fn single_device_s(m: &Mlp, hw: &Hardware, batch: usize) -> f64 {
    let mut s = Schedule::new(1, 1);
    train_step(&mut s, hw, m, 0, batch, |_, _, end| end)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(device: usize, lane: Lane, start_s: f64, end_s: f64) -> Event {
        Event {
            device,
            lane,
            activity: Activity::Forward,
            index: None,
            start_s,
            end_s,
            bytes: 0,
            label: Label::None,
        }
    }

    #[test]
    fn every_label_reads_in_korean_too() {
        let hangul = |s: &str| s.chars().any(|c| ('가'..='힣').contains(&c));
        let labels = [
            Label::ScatterBatch,
            Label::InputChunk { samples: 8, to: 1 },
            Label::Replicate { bytes: 4096 },
            Label::CopyModule { copies: 3 },
            Label::ForwardPython { layer: 0 },
            Label::Forward { layer: 0, samples: 8 },
            Label::Outputs { samples: 8, from: 1 },
            Label::BackwardPython,
            Label::Loss { outputs: 8 },
            Label::LossOverAll { outputs: 32 },
            Label::GradientOfOutputs { outputs: 8, to: 1 },
            Label::Backward { layer: 1, samples: 8 },
            Label::SumReplicas { replicas: 4 },
            Label::OptimizerStepOnMaster,
            Label::BroadcastOnce { bytes: 4096 },
            Label::AllReduce { bucket: 0, tensors: 2, bytes: 4096 },
        ];
        for label in labels {
            let (en, ko) = (label.english(), label.korean());
            assert!(hangul(&ko) && !hangul(&en), "{label:?}: {en} | {ko}");
        }
        assert_eq!(
            Label::AllReduce { bucket: 1, tensors: 2, bytes: 1024 }.english(),
            "all-reduce bucket 1 (2 tensors, 1.0 KiB)"
        );
    }

    #[test]
    fn busy_time_is_the_union_of_intervals() {
        let events = vec![
            ev(0, Lane::Compute, 0.0, 2.0),
            ev(0, Lane::Comm, 1.0, 3.0),
            ev(0, Lane::Compute, 5.0, 6.0),
            ev(0, Lane::Host, 3.0, 5.0),
            ev(1, Lane::Compute, 0.0, 10.0),
        ];
        assert_eq!(busy(&events, 0), 4.0);
        assert_eq!(busy(&events, 1), 10.0);
    }
}
