//! The α–β (latency–bandwidth) cost model of collective algorithms, and bus bandwidth as
//! nccl-tests reports it.
//!
//! Sending `m` bytes over one link costs `α + m/β`. For an all-reduce of `S` bytes over `N` ranks
//! (Thakur, Rabenseifner & Gropp, "Optimization of Collective Communication Operations in MPICH",
//! IJHPCA 2005; Patarasuk & Yuan, "Bandwidth optimal all-reduce algorithms for clusters of
//! workstations", JPDC 2009):
//!
//! | algorithm | time |
//! |---|---|
//! | ring | `2(N−1)·(α + S/(N·β))`: 2(N−1) steps, each moving one chunk of S/N |
//! | naive: all to a master, then broadcast | `2(N−1)·(α + S/β)`: the master's link carries N−1 full tensors in, then N−1 out |
//! | binomial tree: reduce up, broadcast down | `2·⌈log₂N⌉·(α + S/β)`: full tensors, one tree level per step |
//!
//! `algbw = S / time`; `busbw = algbw · 2(N−1)/N` for all-reduce, the factor nccl-tests
//! applies so that busbw is comparable with a link's hardware bandwidth
//! (nccl-tests, `doc/PERFORMANCE.md`).
//!
//! The step counts are those of [`crate::allreduce`], which runs the same algorithms on data.

pub use crate::allreduce::Algorithm;

/// One link's latency and bandwidth (per direction).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Link {
    /// Short name for URLs and lesson directives: `pcie4`, `nvlink4`, …
    pub id: &'static str,
    pub name: &'static str,
    /// Seconds per message.
    pub alpha_s: f64,
    /// Bytes per second, one direction.
    pub beta_bytes_per_s: f64,
}

impl Link {
    pub fn with_alpha(self, alpha_s: f64) -> Link {
        Link { alpha_s, ..self }
    }

    pub fn with_beta(self, beta_bytes_per_s: f64) -> Link {
        Link { beta_bytes_per_s, ..self }
    }

    /// Time to send `bytes` once over this link.
    pub fn send_s(&self, bytes: f64) -> f64 {
        self.alpha_s + bytes / self.beta_bytes_per_s
    }
}

const GB: f64 = 1e9;

/// PCIe 4.0 x16: 16 GT/s per lane, 128b/130b encoding, so 16 × 16 × 128/130 / 8 ≈ 31.5 GB/s
/// per direction (PCI-SIG, PCI Express Base Specification 4.0). Latency: a few microseconds
/// per message through the host bridge; 5 µs is a typical figure for GPU peer copies.
pub const PCIE_GEN4_X16: Link =
    Link { id: "pcie4", name: "PCIe Gen4 x16", alpha_s: 5e-6, beta_bytes_per_s: 31.5 * GB };

/// PCIe 5.0 x16: 32 GT/s per lane, so ≈ 63 GB/s per direction (PCI-SIG, PCI Express Base
/// Specification 5.0). Latency as for Gen4.
pub const PCIE_GEN5_X16: Link =
    Link { id: "pcie5", name: "PCIe Gen5 x16", alpha_s: 5e-6, beta_bytes_per_s: 63.0 * GB };

/// NVLink 4 on H100 SXM: 900 GB/s total per GPU over 18 links, both directions together, so
/// 450 GB/s per direction (NVIDIA H100 Tensor Core GPU datasheet). Latency about 1 µs.
pub const NVLINK4_H100: Link =
    Link { id: "nvlink4", name: "NVLink 4 (H100)", alpha_s: 1e-6, beta_bytes_per_s: 450.0 * GB };

/// InfiniBand NDR: 400 Gb/s per port = 50 GB/s per direction (InfiniBand Trade Association
/// roadmap; NVIDIA ConnectX-7). Latency about 2 µs end to end through one switch.
pub const INFINIBAND_NDR: Link =
    Link { id: "ib-ndr", name: "InfiniBand NDR", alpha_s: 2e-6, beta_bytes_per_s: 50.0 * GB };

/// gloo over TCP loopback on the 2-core CPU machines this project tests on, measured with
/// torch 2.13, 2 processes, `OMP_NUM_THREADS=1` (median of 15 `all_reduce` calls): an empty
/// tensor took 36 µs; from 1 MiB to 64 MiB the time grew by 0.77 ms per MiB, about 1.3 GB/s.
/// Other machines differ widely: override both.
pub const CPU_LOOPBACK_GLOO: Link = Link {
    id: "gloo-cpu",
    name: "CPU loopback (gloo)",
    alpha_s: 36e-6,
    beta_bytes_per_s: 1.3 * GB,
};

pub const PRESETS: [Link; 5] =
    [PCIE_GEN4_X16, PCIE_GEN5_X16, NVLINK4_H100, INFINIBAND_NDR, CPU_LOOPBACK_GLOO];

pub fn preset(id: &str) -> Option<Link> {
    PRESETS.into_iter().find(|l| l.id == id)
}

/// A link preset by name, for what names one (a lesson directive): the [`Link`] it stands for
/// cannot be missing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum LinkPreset {
    #[cfg_attr(feature = "serde", serde(rename = "pcie4"))]
    PcieGen4X16,
    #[cfg_attr(feature = "serde", serde(rename = "pcie5"))]
    PcieGen5X16,
    #[cfg_attr(feature = "serde", serde(rename = "nvlink4"))]
    Nvlink4H100,
    #[cfg_attr(feature = "serde", serde(rename = "ib-ndr"))]
    InfinibandNdr,
    #[cfg_attr(feature = "serde", serde(rename = "gloo-cpu"))]
    CpuLoopbackGloo,
}

impl LinkPreset {
    /// In the order of [`PRESETS`].
    pub const ALL: [LinkPreset; 5] = [
        LinkPreset::PcieGen4X16,
        LinkPreset::PcieGen5X16,
        LinkPreset::Nvlink4H100,
        LinkPreset::InfinibandNdr,
        LinkPreset::CpuLoopbackGloo,
    ];

    pub fn link(self) -> Link {
        match self {
            LinkPreset::PcieGen4X16 => PCIE_GEN4_X16,
            LinkPreset::PcieGen5X16 => PCIE_GEN5_X16,
            LinkPreset::Nvlink4H100 => NVLINK4_H100,
            LinkPreset::InfinibandNdr => INFINIBAND_NDR,
            LinkPreset::CpuLoopbackGloo => CPU_LOOPBACK_GLOO,
        }
    }

    pub fn id(self) -> &'static str {
        self.link().id
    }

    pub fn from_id(id: &str) -> Option<LinkPreset> {
        LinkPreset::ALL.into_iter().find(|l| l.id() == id)
    }
}

/// Predicted all-reduce time and bandwidths.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Estimate {
    pub time_s: f64,
    /// Bytes per second of the tensor: `S / time`.
    pub algbw: f64,
    /// `algbw · 2(N−1)/N`.
    pub busbw: f64,
}

/// All-reduce of `bytes` over `ranks` ranks connected by `link`.
pub fn allreduce(algorithm: Algorithm, bytes: f64, ranks: usize, link: Link) -> Estimate {
    let n = ranks as f64;
    let time_s = if ranks <= 1 {
        0.0
    } else {
        match algorithm {
            Algorithm::Ring => Algorithm::Ring.steps(ranks) as f64 * link.send_s(bytes / n),
            Algorithm::Naive => Algorithm::Naive.steps(ranks) as f64 * link.send_s(bytes),
            Algorithm::Tree => Algorithm::Tree.steps(ranks) as f64 * link.send_s(bytes),
        }
    };
    let algbw = if time_s > 0.0 { bytes / time_s } else { f64::INFINITY };
    Estimate { time_s, algbw, busbw: bus_bandwidth(algbw, ranks) }
}

/// A broadcast (or a reduce to one root) of `bytes` over `ranks`, pipelined along a chain as
/// NCCL runs it: each rank forwards pieces as they arrive, so the tensor crosses every link once
/// at link speed and the latency is paid once per hop: `(N−1)·α + S/β`. nccl-tests reports the
/// bus bandwidth of broadcast and reduce equal to their algbw for this reason.
pub fn broadcast_s(bytes: f64, ranks: usize, link: Link) -> f64 {
    if ranks <= 1 {
        return 0.0;
    }
    (ranks - 1) as f64 * link.alpha_s + bytes / link.beta_bytes_per_s
}

/// nccl-tests' bus bandwidth for all-reduce.
pub fn bus_bandwidth(algbw: f64, ranks: usize) -> f64 {
    let n = ranks as f64;
    algbw * 2.0 * (n - 1.0) / n
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-9 * a.abs().max(b.abs())
    }

    #[test]
    fn ring_busbw_approaches_link_bandwidth_for_large_tensors() {
        // With α negligible, ring time = 2(N−1)/N · S/β, so busbw = β exactly.
        let link = NVLINK4_H100.with_alpha(0.0);
        for n in [2, 4, 8, 64] {
            let e = allreduce(Algorithm::Ring, 1e9, n, link);
            assert!(close(e.busbw, link.beta_bytes_per_s), "n={n}: {}", e.busbw);
        }
    }

    #[test]
    fn formulas() {
        let link = Link { id: "t", name: "t", alpha_s: 1e-5, beta_bytes_per_s: 1e9 };
        let s = 8e6;
        assert!(close(allreduce(Algorithm::Ring, s, 4, link).time_s, 6.0 * (1e-5 + 2e6 / 1e9)));
        assert!(close(allreduce(Algorithm::Naive, s, 4, link).time_s, 6.0 * (1e-5 + 8e-3)));
        assert!(close(allreduce(Algorithm::Tree, s, 5, link).time_s, 2.0 * 3.0 * (1e-5 + 8e-3)));
        assert_eq!(allreduce(Algorithm::Ring, s, 1, link).time_s, 0.0);
    }

    #[test]
    fn ring_wins_for_large_tensors_tree_for_tiny_ones_at_scale() {
        let link = INFINIBAND_NDR;
        let big = |a| allreduce(a, 1e9, 64, link).time_s;
        assert!(big(Algorithm::Ring) < big(Algorithm::Tree));
        assert!(big(Algorithm::Tree) < big(Algorithm::Naive));
        let tiny = |a| allreduce(a, 8.0, 64, link).time_s;
        assert!(
            tiny(Algorithm::Tree) < tiny(Algorithm::Ring),
            "latency-bound: log N steps beat 2(N−1)"
        );
    }

    #[test]
    fn broadcast_pays_the_bandwidth_once() {
        let link = Link { id: "t", name: "t", alpha_s: 1e-5, beta_bytes_per_s: 1e9 };
        assert!(close(broadcast_s(1e9, 8, link), 7e-5 + 1.0));
        assert_eq!(broadcast_s(1e9, 1, link), 0.0);
    }

    #[test]
    fn overrides() {
        let l = PCIE_GEN4_X16.with_alpha(1e-6).with_beta(2e10);
        assert_eq!((l.alpha_s, l.beta_bytes_per_s), (1e-6, 2e10));
    }
}
