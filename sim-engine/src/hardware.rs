//! The machines the timelines run on: a device's compute and memory, the link between devices,
//! and the host-side cost of launching one layer from Python.
//!
//! Peak figures come from vendor datasheets; a training step reaches only part of a peak, so
//! `flops` is an *achieved* rate, taken as half of the dense TF32 peak for the GPUs (an
//! assumption, stated here so nobody mistakes it for a measurement) and measured for the CPU
//! preset. Every field can be overridden.

use crate::cost::{self, Link};

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Device {
    pub name: &'static str,
    /// Achieved floating-point operations per second on the model's matrix products.
    pub flops: f64,
    /// Bytes per second between the device and its memory (element-wise work: the optimizer step).
    pub memory_bandwidth: f64,
    /// Memory capacity in bytes.
    pub memory_bytes: f64,
    /// Whether `torch.nn.DataParallel` can use it: DP only parallelises over CUDA devices.
    pub cuda: bool,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Hardware {
    pub name: &'static str,
    pub device: Device,
    /// The link between two devices.
    pub link: Link,
    /// Host time to run one layer's forward from Python (module call, dispatch, kernel launch).
    /// In DataParallel all replicas' threads share one interpreter, so this time is serialised
    /// by the GIL; in DDP every process pays it on its own.
    pub host_layer_s: f64,
}

const T: f64 = 1e12;
const GB: f64 = 1e9;
const GIB: f64 = 1024.0 * 1024.0 * 1024.0;

/// H100 SXM5 80 GB: TF32 Tensor Core 989 TFLOPS with sparsity, so 495 dense; HBM3 3.35 TB/s
/// (NVIDIA H100 Tensor Core GPU datasheet). GPUs joined by NVLink 4.
pub const H100_NVLINK: Hardware = Hardware {
    name: "h100-nvlink",
    device: Device {
        name: "H100 SXM5 80GB",
        flops: 495.0 * T / 2.0,
        memory_bandwidth: 3350.0 * GB,
        memory_bytes: 80.0 * GIB,
        cuda: true,
    },
    link: cost::NVLINK4_H100,
    host_layer_s: 20e-6,
};

/// H100 PCIe 80 GB: TF32 756 TFLOPS with sparsity, 378 dense; HBM2e 2.0 TB/s (same datasheet).
/// GPUs joined through PCIe Gen5 x16.
pub const H100_PCIE: Hardware = Hardware {
    name: "h100-pcie",
    device: Device {
        name: "H100 PCIe 80GB",
        flops: 378.0 * T / 2.0,
        memory_bandwidth: 2000.0 * GB,
        memory_bytes: 80.0 * GIB,
        cuda: true,
    },
    link: cost::PCIE_GEN5_X16,
    host_layer_s: 20e-6,
};

/// A100 PCIe 80 GB: TF32 312 TFLOPS with sparsity, 156 dense; HBM2e 1,935 GB/s (NVIDIA A100
/// Tensor Core GPU datasheet). GPUs joined through PCIe Gen4 x16.
pub const A100_PCIE: Hardware = Hardware {
    name: "a100-pcie",
    device: Device {
        name: "A100 PCIe 80GB",
        flops: 156.0 * T / 2.0,
        memory_bandwidth: 1935.0 * GB,
        memory_bytes: 80.0 * GIB,
        cuda: true,
    },
    link: cost::PCIE_GEN4_X16,
    host_layer_s: 20e-6,
};

/// One CPU core per process, gloo over loopback: the 2-core machines this project tests on,
/// measured with torch 2.13 and one thread: matrix products of 256×784 by 784×1024 and
/// 512×1024 by 1024×1024 ran at 97 and 112 GFLOP/s (median of 20), a 64 MiB copy at 10.9 GB/s
/// read plus write, and one `Linear` + `ReLU` step of an `nn.Sequential` took 17 µs of Python.
pub const CPU_GLOO: Hardware = Hardware {
    name: "cpu-gloo",
    device: Device {
        name: "CPU core",
        flops: 100.0 * GB,
        memory_bandwidth: 10.9 * GB,
        memory_bytes: 24.0 * GIB,
        cuda: false,
    },
    link: cost::CPU_LOOPBACK_GLOO,
    host_layer_s: 17e-6,
};

pub const PRESETS: [Hardware; 4] = [H100_NVLINK, H100_PCIE, A100_PCIE, CPU_GLOO];

pub fn preset(name: &str) -> Option<Hardware> {
    PRESETS.into_iter().find(|h| h.name == name)
}

/// A preset with CUDA devices, by name: what `torch.nn.DataParallel` can run on, so a
/// DataParallel timeline of one always exists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum CudaPreset {
    #[cfg_attr(feature = "serde", serde(rename = "h100-nvlink"))]
    H100Nvlink,
    #[cfg_attr(feature = "serde", serde(rename = "h100-pcie"))]
    H100Pcie,
    #[cfg_attr(feature = "serde", serde(rename = "a100-pcie"))]
    A100Pcie,
}

impl CudaPreset {
    /// In the order of [`PRESETS`].
    pub const ALL: [CudaPreset; 3] =
        [CudaPreset::H100Nvlink, CudaPreset::H100Pcie, CudaPreset::A100Pcie];

    pub fn hardware(self) -> Hardware {
        match self {
            CudaPreset::H100Nvlink => H100_NVLINK,
            CudaPreset::H100Pcie => H100_PCIE,
            CudaPreset::A100Pcie => A100_PCIE,
        }
    }

    pub fn name(self) -> &'static str {
        self.hardware().name
    }

    pub fn from_name(name: &str) -> Option<CudaPreset> {
        CudaPreset::ALL.into_iter().find(|h| h.name() == name)
    }
}

impl Hardware {
    pub fn compute_s(&self, flops: f64) -> f64 {
        flops / self.device.flops
    }

    /// SGD with momentum reads the parameter, its gradient and the momentum buffer and writes the
    /// parameter and the momentum: five float32 streams per parameter.
    pub fn optimizer_step_s(&self, parameters: u64) -> f64 {
        5.0 * 4.0 * parameters as f64 / self.device.memory_bandwidth
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cuda_presets_are_exactly_the_presets_with_cuda_devices() {
        let cuda: Vec<&str> = PRESETS.iter().filter(|h| h.device.cuda).map(|h| h.name).collect();
        assert_eq!(CudaPreset::ALL.map(CudaPreset::name).to_vec(), cuda);
        assert!(CudaPreset::ALL.iter().all(|h| h.hardware().device.cuda));
    }

    #[test]
    fn the_link_presets_name_every_link_in_order() {
        assert_eq!(cost::LinkPreset::ALL.map(|l| l.link()), cost::PRESETS);
        for l in cost::LinkPreset::ALL {
            assert_eq!(cost::LinkPreset::from_id(l.id()), Some(l));
        }
    }
}
