//! One training iteration of `torch.nn.DataParallel`: one process, one Python thread per GPU.
//!
//! What follows PyTorch exactly: the batch is split with `torch.chunk` along dimension 0
//! (`torch/csrc/cuda/comm.cpp`, `scatter`), so a batch can come back in *fewer* chunks than
//! there are GPUs, and `DataParallel.forward` then replicates the module onto only
//! `device_ids[:len(inputs)]`. The order of the work is `DataParallel.forward`'s (scatter,
//! replicate, `parallel_apply`, gather), then the loss on GPU 0, then backward: the output
//! gradients go back to each replica, and `Broadcast.backward` (`ReduceAddCoalesced`) sums
//! every replica's parameter gradients onto GPU 0, where the optimizer steps alone.
//!
//! What is a model (stated so it is not mistaken for measurement): the input batch starts on
//! GPU 0; copies to and from GPU 0 share GPU 0's link one at a time; replicate and the gradient
//! reduction are pipelined chain broadcasts and reduces ([`cost::broadcast_s`]); the Python of
//! every replica's forward and of `replicate` holds the GIL for [`Hardware::host_layer_s`] per
//! layer; backward runs in autograd's C++ device threads without the GIL.

use crate::cost;
use crate::hardware::Hardware;
use crate::model::{tensor_bytes, Mlp};
use crate::timeline::{self, Activity, Label, Lane, Schedule, Timeline};

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum DpError {
    #[error("DataParallel needs at least one GPU")]
    NoGpus,
    #[error("the batch must hold at least one sample")]
    EmptyBatch,
    #[error("DataParallel only runs on CUDA devices; {0} is not one (use DDP with gloo on CPUs)")]
    NotCuda(&'static str),
}

/// `[c.shape[0] for c in torch.arange(len).chunk(chunks)]`: chunks of `ceil(len / chunks)`, the
/// last one shorter, and only as many as needed, so `torch.arange(6).chunk(4)` gives 2, 2, 2.
/// An empty tensor gives `chunks` empty chunks.
pub fn torch_chunk_sizes(len: usize, chunks: usize) -> Vec<usize> {
    assert!(chunks > 0, "torch.chunk expects `chunks` to be greater than 0");
    let split = len.div_ceil(chunks);
    if split == 0 {
        return vec![0; chunks];
    }
    (0..len.div_ceil(split)).map(|i| split.min(len - i * split)).collect()
}

#[derive(Debug, Clone, PartialEq)]
pub struct DpConfig {
    pub model: Mlp,
    pub hardware: Hardware,
    pub gpus: usize,
    /// The batch given to `model(inputs)`: DP splits it across the GPUs.
    pub batch: usize,
}

pub fn simulate(cfg: &DpConfig) -> Result<Timeline, DpError> {
    let (m, hw) = (&cfg.model, &cfg.hardware);
    if cfg.gpus == 0 {
        return Err(DpError::NoGpus);
    }
    if cfg.batch == 0 {
        return Err(DpError::EmptyBatch);
    }
    if !hw.device.cuda {
        return Err(DpError::NotCuda(hw.device.name));
    }
    let sizes = torch_chunk_sizes(cfg.batch, cfg.gpus);
    let n = sizes.len();
    let params = m.parameter_bytes();
    let mut s = Schedule::new(n, 1);

    // Scatter: DataParallel's Python, then one copy per other GPU through GPU 0's link.
    let scattered =
        s.run(0, Lane::Host, Activity::Scatter, None, 0.0, hw.host_layer_s, 0, Label::ScatterBatch);
    let mut input_ready = vec![0.0; n];
    for (d, &samples) in sizes.iter().enumerate().skip(1) {
        let bytes = tensor_bytes(samples, m.input_width());
        input_ready[d] = s.transfer(
            &[0, d],
            Activity::Scatter,
            None,
            scattered,
            hw.link.send_s(bytes as f64),
            bytes,
            Label::InputChunk { samples, to: d },
        );
    }

    // With one GPU, DataParallel.forward calls the module directly: no replicate, no gather.
    // The scatter's Python has already moved the host lane on to `scattered`.
    if cfg.gpus == 1 {
        timeline::train_step(&mut s, hw, m, 0, cfg.batch, |_, _, end| end);
        let memory =
            3 * params + m.activation_bytes(cfg.batch) + tensor_bytes(cfg.batch, m.input_width());
        let single = timeline::single_device_s(m, hw, cfg.batch);
        return Ok(Timeline::new(cfg.batch, single, Vec::new(), s.events, vec![memory], sizes));
    }

    // Replicate: broadcast every parameter from GPU 0, then copy the modules in Python.
    let all: Vec<usize> = (0..n).collect();
    let replicated = s.transfer(
        &all,
        Activity::Replicate,
        None,
        scattered,
        cost::broadcast_s(params as f64, n, hw.link),
        params,
        Label::Replicate { bytes: params },
    );
    let copied = s.run(
        0,
        Lane::Host,
        Activity::Replicate,
        None,
        0.0,
        hw.host_layer_s * (m.layers() * (n - 1)) as f64,
        0,
        Label::CopyModule { copies: n - 1 },
    );

    // parallel_apply: one thread per replica; their Python takes turns on the GIL.
    let mut host = vec![copied; n];
    let mut kernel_end: Vec<f64> =
        (0..n).map(|d| if d == 0 { 0.0 } else { input_ready[d].max(replicated) }).collect();
    for l in 0..m.layers() {
        for d in 0..n {
            (host[d], kernel_end[d]) =
                s.forward_layer(hw, m, d, l, sizes[d], host[d], kernel_end[d]);
        }
    }

    // Gather the outputs on GPU 0, compute the loss there.
    let mut gathered = kernel_end[0];
    for (d, &samples) in sizes.iter().enumerate().skip(1) {
        let bytes = tensor_bytes(samples, m.output_width());
        let end = s.transfer(
            &[0, d],
            Activity::Gather,
            None,
            kernel_end[d],
            hw.link.send_s(bytes as f64),
            bytes,
            Label::Outputs { samples, from: d },
        );
        gathered = gathered.max(end);
    }
    let host_free = host.iter().copied().fold(0.0, f64::max);
    let loss_launched = s.run(
        0,
        Lane::Host,
        Activity::Loss,
        None,
        host_free.max(gathered),
        hw.host_layer_s,
        0,
        Label::BackwardPython,
    );
    let loss_end = s.run(
        0,
        Lane::Compute,
        Activity::Loss,
        None,
        loss_launched.max(gathered),
        timeline::loss_s(hw, m, cfg.batch),
        0,
        Label::LossOverAll { outputs: cfg.batch },
    );

    // Backward: output gradients back to the replicas, backward on each, then sum onto GPU 0.
    let mut backward_end = vec![0.0; n];
    for d in 0..n {
        let mut t = loss_end;
        if d > 0 {
            let bytes = tensor_bytes(sizes[d], m.output_width());
            t = s.transfer(
                &[0, d],
                Activity::ScatterGradOutput,
                None,
                loss_end,
                hw.link.send_s(bytes as f64),
                bytes,
                Label::GradientOfOutputs { outputs: sizes[d], to: d },
            );
        }
        for l in (0..m.layers()).rev() {
            t = s.run(
                d,
                Lane::Compute,
                Activity::Backward,
                Some(l),
                t,
                hw.compute_s(m.backward_flops(l, sizes[d])),
                0,
                Label::Backward { layer: l, samples: sizes[d] },
            );
        }
        backward_end[d] = t;
    }
    let all_backward = backward_end.iter().copied().fold(0.0, f64::max);
    let reduced = s.transfer(
        &all,
        Activity::ReduceGradients,
        None,
        all_backward,
        cost::broadcast_s(params as f64, n, hw.link),
        params,
        Label::SumReplicas { replicas: n },
    );
    s.run(
        0,
        Lane::Compute,
        Activity::OptimizerStep,
        None,
        reduced + hw.host_layer_s,
        hw.optimizer_step_s(m.parameter_count()),
        0,
        Label::OptimizerStepOnMaster,
    );

    let memory: Vec<u64> = (0..n)
        .map(|d| {
            let replica = 2 * params + m.activation_bytes(sizes[d]);
            if d == 0 {
                // + momentum, the whole input batch, and the gathered outputs with their gradient.
                let batch_io = tensor_bytes(cfg.batch, m.input_width() + 2 * m.output_width());
                replica + params + batch_io
            } else {
                replica + tensor_bytes(sizes[d], m.input_width())
            }
        })
        .collect();
    let single = timeline::single_device_s(m, hw, cfg.batch);
    Ok(Timeline::new(cfg.batch, single, Vec::new(), s.events, memory, sizes))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hardware::{CPU_GLOO, H100_NVLINK};
    use crate::timeline::Activity;

    fn run(gpus: usize, batch: usize) -> Timeline {
        let model = Mlp::new(vec![784, 4096, 4096, 4096, 10]).unwrap();
        simulate(&DpConfig { model, hardware: H100_NVLINK, gpus, batch }).unwrap()
    }

    #[test]
    fn a_small_batch_uses_fewer_gpus() {
        let t = run(4, 6);
        assert_eq!(t.devices, 3, "torch.chunk(6 rows, 4) gives 3 chunks of 2");
        assert_eq!(t.summary.devices.iter().map(|d| d.samples).collect::<Vec<_>>(), vec![2, 2, 2]);
        assert!(t.events.iter().all(|e| e.device < 3));
    }

    #[test]
    fn the_master_bottleneck_grows_with_the_gpus() {
        let extra = |gpus| {
            let s = run(gpus, 4096).summary;
            let others = s.devices[1..].iter().map(|d| d.busy_s).sum::<f64>() / (gpus - 1) as f64;
            (s.devices[0].busy_s - others, s.devices[0].memory_bytes - s.devices[1].memory_bytes)
        };
        let (e2, m2) = extra(2);
        let (e4, m4) = extra(4);
        let (e8, m8) = extra(8);
        // With two GPUs GPU 0's copies hide behind its own compute; from four on it is the
        // busiest device, and more so with every GPU added.
        assert!(e2 < e4 && 0.0 < e4 && e4 < e8, "master's extra busy time: {e2} {e4} {e8}");
        assert!(m2 > 0 && m4 > 0 && m8 > 0, "the master holds more memory than any other GPU");
    }

    #[test]
    fn only_the_master_steps_and_every_iteration_replicates() {
        let t = run(4, 1024);
        let steps: Vec<usize> = t
            .events
            .iter()
            .filter(|e| e.activity == Activity::OptimizerStep)
            .map(|e| e.device)
            .collect();
        assert_eq!(steps, vec![0]);
        assert!(t.events.iter().any(|e| e.activity == Activity::Replicate && e.device == 3));
        assert!(t.setup.is_empty());
    }

    #[test]
    fn refuses_what_dataparallel_cannot_do() {
        let model = Mlp::new(vec![4, 4]).unwrap();
        let cfg = |hardware, gpus, batch| DpConfig { model: model.clone(), hardware, gpus, batch };
        assert_eq!(simulate(&cfg(CPU_GLOO, 2, 8)), Err(DpError::NotCuda("CPU core")));
        assert_eq!(simulate(&cfg(H100_NVLINK, 0, 8)), Err(DpError::NoGpus));
        assert_eq!(simulate(&cfg(H100_NVLINK, 2, 0)), Err(DpError::EmptyBatch));
    }
}
