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
    pub label: String,
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
        label: String,
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
        label: String,
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
                label: label.clone(),
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
            format!("forward of layer {layer} in Python"),
        );
        let end = self.run(
            device,
            Lane::Compute,
            Activity::Forward,
            Some(layer),
            launched.max(data_ready),
            hw.compute_s(model.forward_flops(layer, samples)),
            0,
            format!(
                "forward layer {layer} ({})",
                units::plural(samples as u64, "sample", "samples")
            ),
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
        "loss.backward() from Python".into(),
    );
    let mut t = s.run(
        device,
        Lane::Compute,
        Activity::Loss,
        None,
        launched.max(end),
        loss_s(hw, m, samples),
        0,
        format!("loss over {}", units::plural(samples as u64, "output", "outputs")),
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
            format!("backward layer {l} ({})", units::plural(samples as u64, "sample", "samples")),
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
        "optimizer.step()".into(),
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
            label: String::new(),
        }
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
