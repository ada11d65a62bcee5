//! Memory per GPU of data-parallel training: parameters, gradients, optimizer state and
//! activations, under DDP and under the three ZeRO stages (ZeRO-3 is what FSDP's full sharding
//! does).
//!
//! The model states follow Rajbhandari et al., "ZeRO: Memory Optimizations Toward Training
//! Trillion Parameter Models" (SC 2020, arXiv:1910.02054), section 3.1 and figure 1: with Ψ
//! parameters, mixed-precision training keeps 2Ψ bytes of fp16 parameters, 2Ψ of fp16 gradients
//! and KΨ of fp32 optimizer state (K = 12 for Adam: the fp32 master copy, momentum and
//! variance). On N data-parallel GPUs, stage 1 divides the optimizer state by N, stage 2 the
//! gradients as well, stage 3 the parameters as well. Plain fp32 training keeps 4Ψ of
//! parameters, 4Ψ of gradients and the optimizer's own state (Adam's `exp_avg` and
//! `exp_avg_sq`, 8Ψ; SGD's `momentum_buffer`, 4Ψ), which `tests/torch_fixtures.rs` measures on
//! real torch optimizers. Activations are the caller's figure: no stage shards them.
//!
//! Left out, as the paper's model-state figures leave them out: temporary buffers (DDP's
//! gradient buckets unless `gradient_as_bucket_view=True`, ZeRO-3's gathered layer), the
//! allocator's fragmentation, and the CUDA context. Measure those with
//! `torch.cuda.max_memory_allocated` on the real GPU.

/// The optimizer whose state each GPU keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum Optimizer {
    /// Adam and AdamW: two fp32 moments per parameter.
    Adam,
    /// SGD with momentum: one fp32 buffer per parameter.
    SgdMomentum,
    /// Plain SGD: no state.
    Sgd,
}

impl Optimizer {
    pub const ALL: [Optimizer; 3] = [Optimizer::Adam, Optimizer::SgdMomentum, Optimizer::Sgd];

    /// The directive's word.
    pub fn id(self) -> &'static str {
        match self {
            Optimizer::Adam => "adam",
            Optimizer::SgdMomentum => "sgd-momentum",
            Optimizer::Sgd => "sgd",
        }
    }

    pub fn from_id(id: &str) -> Option<Optimizer> {
        Optimizer::ALL.into_iter().find(|o| o.id() == id)
    }

    /// fp32 state bytes per parameter, beside the parameters themselves.
    fn state_bytes(self) -> f64 {
        match self {
            Optimizer::Adam => 8.0,
            Optimizer::SgdMomentum => 4.0,
            Optimizer::Sgd => 0.0,
        }
    }
}

/// How the model is trained.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum Precision {
    /// Everything in float32.
    Fp32,
    /// fp16 or bf16 parameters and gradients, with an fp32 master copy in the optimizer state,
    /// as the ZeRO paper counts it.
    Mixed,
}

impl Precision {
    pub const ALL: [Precision; 2] = [Precision::Fp32, Precision::Mixed];

    pub fn id(self) -> &'static str {
        match self {
            Precision::Fp32 => "fp32",
            Precision::Mixed => "mixed",
        }
    }

    pub fn from_id(id: &str) -> Option<Precision> {
        Precision::ALL.into_iter().find(|p| p.id() == id)
    }
}

/// Bytes per parameter: (parameters, gradients, optimizer state K).
pub fn bytes_per_parameter(optimizer: Optimizer, precision: Precision) -> (f64, f64, f64) {
    match precision {
        Precision::Fp32 => (4.0, 4.0, optimizer.state_bytes()),
        // The fp32 master copy joins the optimizer's state: K = 12 for Adam.
        Precision::Mixed => (2.0, 2.0, 4.0 + optimizer.state_bytes()),
    }
}

/// What is sharded across the data-parallel GPUs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// Nothing: every GPU holds everything.
    Ddp,
    /// ZeRO-1: the optimizer state.
    Zero1,
    /// ZeRO-2: and the gradients.
    Zero2,
    /// ZeRO-3, FSDP's `FULL_SHARD`: and the parameters.
    Zero3,
}

impl Stage {
    pub const ALL: [Stage; 4] = [Stage::Ddp, Stage::Zero1, Stage::Zero2, Stage::Zero3];

    pub fn name(self) -> &'static str {
        match self {
            Stage::Ddp => "DDP",
            Stage::Zero1 => "ZeRO-1",
            Stage::Zero2 => "ZeRO-2",
            Stage::Zero3 => "ZeRO-3 / FSDP",
        }
    }

    /// Sharded: (parameters, gradients, optimizer state).
    fn sharded(self) -> (bool, bool, bool) {
        match self {
            Stage::Ddp => (false, false, false),
            Stage::Zero1 => (false, false, true),
            Stage::Zero2 => (false, true, true),
            Stage::Zero3 => (true, true, true),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MemoryConfig {
    /// Ψ, the number of parameters.
    pub parameters: f64,
    /// N, the data-parallel GPUs.
    pub gpus: usize,
    pub optimizer: Optimizer,
    pub precision: Precision,
    /// Activations per GPU, in bytes: the caller's figure for its micro-batch.
    pub activation_bytes: f64,
    /// One GPU's memory, in bytes.
    pub gpu_bytes: f64,
}

/// One GPU's bytes under one stage.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PerGpu {
    pub stage: Stage,
    pub parameters: f64,
    pub gradients: f64,
    pub optimizer: f64,
    pub activations: f64,
}

impl PerGpu {
    pub fn total(&self) -> f64 {
        self.parameters + self.gradients + self.optimizer + self.activations
    }
}

/// Every stage, in [`Stage::ALL`]'s order.
pub fn per_gpu(cfg: &MemoryConfig) -> Vec<PerGpu> {
    let (p, g, k) = bytes_per_parameter(cfg.optimizer, cfg.precision);
    let n = cfg.gpus.max(1) as f64;
    let psi = cfg.parameters;
    let share = |bytes: f64, sharded: bool| if sharded { bytes * psi / n } else { bytes * psi };
    Stage::ALL
        .into_iter()
        .map(|stage| {
            let (sp, sg, so) = stage.sharded();
            PerGpu {
                stage,
                parameters: share(p, sp),
                gradients: share(g, sg),
                optimizer: share(k, so),
                activations: cfg.activation_bytes,
            }
        })
        .collect()
}

/// Whether a stage's total fits in one GPU's memory.
pub fn fits(cfg: &MemoryConfig, m: &PerGpu) -> bool {
    m.total() <= cfg.gpu_bytes
}

#[cfg(test)]
mod tests {
    use super::*;

    const GB: f64 = 1e9;

    /// The ZeRO paper's figure 1: 7.5B parameters, N = 64, K = 12: 120 GB, 31.4 GB, 16.6 GB
    /// and 1.9 GB per GPU.
    #[test]
    fn the_papers_figure() {
        let cfg = MemoryConfig {
            parameters: 7.5e9,
            gpus: 64,
            optimizer: Optimizer::Adam,
            precision: Precision::Mixed,
            activation_bytes: 0.0,
            gpu_bytes: 80.0 * GB,
        };
        let totals: Vec<f64> =
            per_gpu(&cfg).iter().map(|m| (m.total() / GB * 10.0).round() / 10.0).collect();
        assert_eq!(totals, [120.0, 31.4, 16.6, 1.9]);
        let fit: Vec<bool> = per_gpu(&cfg).iter().map(|m| fits(&cfg, m)).collect();
        assert_eq!(fit, [false, true, true, true]);
    }

    #[test]
    fn k_is_the_papers_for_mixed_precision() {
        assert_eq!(bytes_per_parameter(Optimizer::Adam, Precision::Mixed), (2.0, 2.0, 12.0));
        assert_eq!(bytes_per_parameter(Optimizer::Adam, Precision::Fp32), (4.0, 4.0, 8.0));
        assert_eq!(bytes_per_parameter(Optimizer::Sgd, Precision::Fp32), (4.0, 4.0, 0.0));
        assert_eq!(bytes_per_parameter(Optimizer::SgdMomentum, Precision::Mixed), (2.0, 2.0, 8.0));
    }

    #[test]
    fn activations_are_never_sharded_and_one_gpu_shards_nothing() {
        let cfg = MemoryConfig {
            parameters: 1e6,
            gpus: 1,
            optimizer: Optimizer::SgdMomentum,
            precision: Precision::Fp32,
            activation_bytes: 5e6,
            gpu_bytes: GB,
        };
        let all = per_gpu(&cfg);
        assert!(all.iter().all(|m| m.total() == 17e6 && m.activations == 5e6));
        for id in ["adam", "sgd-momentum", "sgd"] {
            assert_eq!(Optimizer::from_id(id).unwrap().id(), id);
        }
        assert_eq!(Precision::from_id("mixed"), Some(Precision::Mixed));
        assert_eq!(Precision::from_id("fp16"), None);
    }
}
