//! Simulation directives: what an instructor writes in a lesson to embed a simulation,
//!
//! ````markdown
//! ```sim ring-allreduce ranks=4 elements=8
//! ```
//! ````
//!
//! parsed into a typed [`Simulation`] with every parameter checked. The course loader reports a
//! [`DirectiveError`] at the fence's line; the web app renders a valid one as an interactive
//! simulation. Both sides use this crate, so a directive that passes `lessons check` always
//! renders.
//!
//! # What is where
//!
//! What a lesson can embed: the `sim` fence directives (`ring-allreduce`, `sampler`, `dp-vs-ddp`,
//! `scatter-gather`, `accumulation`, `memory`), parsed into typed, serde-able parameters with every
//! value checked: the algorithm, link and hardware are sim-engine's enums (`Algorithm`,
//! `LinkPreset`, `CudaPreset`), not names to look up again (and `Optimizer`, `Precision` of the
//! memory simulation; sim-engine's optional `serde` feature, which only this crate turns on,
//! serializes them as the directive's own words). The course checks directives with it and the web
//! app renders them from the same types, so a directive that passes `lessons check` always renders.

use std::collections::BTreeMap;
use std::fmt::Display;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
pub use sim_engine::allreduce::Algorithm;
pub use sim_engine::cost::LinkPreset;
pub use sim_engine::hardware::CudaPreset;
pub use sim_engine::memory::{Optimizer, Precision};

/// The language of a code fence that embeds a simulation.
pub const FENCE_LANGUAGE: &str = "sim";

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Simulation {
    RingAllReduce(RingAllReduce),
    Sampler(Sampler),
    DpVsDdp(DpVsDdp),
    ScatterGather(ScatterGather),
    Accumulation(Accumulation),
    Memory(Memory),
}

/// `ring-allreduce`: ranks on a ring, chunks moving step by step with their values.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RingAllReduce {
    pub ranks: usize,
    /// Values per rank; rank `r` starts with `r·elements + 1 …`, as in lesson 3's table.
    pub elements: usize,
    /// `ring`, `naive` or `tree`.
    pub algorithm: Algorithm,
    /// The link of the α–β panel (`nvlink4`, `pcie4`, …).
    pub link: LinkPreset,
    /// Tensor size for the α–β panel, in MB.
    pub size_mb: f64,
}

/// `sampler`: a dataset's indices coloured by the rank that gets them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Sampler {
    pub len: usize,
    pub replicas: usize,
    pub seed: i64,
    pub epoch: u64,
    pub shuffle: bool,
    pub drop_last: bool,
    /// Whether the training loop calls `sampler.set_epoch(epoch)`.
    pub set_epoch: bool,
}

/// `dp-vs-ddp`: the two timelines side by side for one model and machine.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DpVsDdp {
    pub layers: Vec<usize>,
    pub batch: usize,
    pub gpus: usize,
    /// A hardware preset with CUDA devices: DataParallel runs on nothing else.
    pub hardware: CudaPreset,
}

/// `scatter-gather`: one DataParallel iteration phase by phase, and GPU 0's load against the
/// number of GPUs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScatterGather {
    pub layers: Vec<usize>,
    pub batch: usize,
    pub gpus: usize,
    pub hardware: CudaPreset,
}

/// `accumulation`: one optimizer step of `steps` micro-batches, the all-reduces with and
/// without `no_sync`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Accumulation {
    pub layers: Vec<usize>,
    /// Micro-batches per optimizer step.
    pub steps: usize,
    pub gpus: usize,
    /// Samples per micro-batch on each rank.
    pub micro_batch: usize,
    /// DDP's `bucket_cap_mb`; `None` is its default (25, with a 1 MiB first bucket).
    pub bucket_mb: Option<f64>,
    pub link: LinkPreset,
}

/// `memory`: bytes per GPU under DDP and the ZeRO stages.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Memory {
    /// Parameters, in billions.
    pub params_b: f64,
    pub gpus: usize,
    pub optimizer: Optimizer,
    pub precision: Precision,
    /// Activations per GPU, in GB (10⁹ bytes).
    pub activations_gb: f64,
    /// One GPU's memory, in GB.
    pub gpu_gb: f64,
}

/// Limits that keep every simulation readable on a page (and fast in the browser).
pub const MAX_RANKS: usize = 64;
pub const MAX_ELEMENTS: usize = 256;
pub const MAX_SAMPLER_LEN: usize = 1024;
pub const MAX_REPLICAS: usize = 16;
pub const MAX_GPUS: usize = 16;
/// Data-parallel GPUs of the memory simulation: a large cluster's worth.
pub const MAX_MEMORY_GPUS: usize = 4096;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DirectiveError {
    #[error("a `sim` block needs a simulation name: one of {}", names())]
    MissingName,
    #[error("unknown simulation `{name}`: use one of {}", names())]
    UnknownName { name: String },
    #[error("`{0}` is not a `key=value` parameter")]
    NotKeyValue(String),
    #[error("`{key}` is given twice")]
    Duplicate { key: String },
    #[error("`{sim}` has no parameter `{key}`: it takes {}", .known.join(", "))]
    UnknownParameter { sim: &'static str, key: String, known: Vec<&'static str> },
    #[error("`{key}={value}`: {expected}")]
    BadValue { key: &'static str, value: String, expected: String },
    #[error("a `sim` block takes its parameters on the fence line; its body must be empty")]
    NonEmptyBody,
}

/// Declares the simulations: each once, with the name lessons and pages call it by and the part
/// of the browser bundle that draws it. [`Kind`] and everything that matches on it (the
/// directive's parser, [`Simulation::kind`], [`Simulation::split`], the web app's drawing)
/// then fail to compile until a new simulation is wired through all of them.
macro_rules! simulations {
    ($($kind:ident = $name:literal in $part:ident),* $(,)?) => {
        /// A kind of simulation.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Kind {
            $($kind),*
        }

        impl Kind {
            /// Every simulation, in the order error messages list them.
            pub const ALL: &'static [Kind] = &[$(Kind::$kind),*];

            /// The name a lesson's directive and a page's `data-sim` use.
            pub fn name(self) -> &'static str {
                match self {
                    $(Kind::$kind => $name),*
                }
            }

            /// The part of the browser bundle that draws it.
            pub fn part(self) -> Part {
                match self {
                    $(Kind::$kind => Part::$part),*
                }
            }
        }
    };
}

simulations! {
    RingAllReduce = "ring-allreduce" in Collectives,
    Sampler = "sampler" in Collectives,
    DpVsDdp = "dp-vs-ddp" in Timelines,
    ScatterGather = "scatter-gather" in Collectives,
    Accumulation = "accumulation" in Timelines,
    Memory = "memory" in Timelines,
}

/// The two parts of the browser bundle that draw simulations: those that show data moving
/// between ranks (their views are the larger), and those of time and memory. A page loads a
/// part when a simulation of it comes near the view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    Collectives,
    Timelines,
}

impl Kind {
    /// The simulation called `name`.
    pub fn named(name: &str) -> Option<Kind> {
        Kind::ALL.iter().copied().find(|k| k.name() == name)
    }
}

/// The names of every simulation, for messages.
fn names() -> String {
    Kind::ALL.iter().map(|k| k.name()).collect::<Vec<_>>().join(", ")
}

/// A simulation of the collectives' part ([`Part::Collectives`]).
#[derive(Debug, Clone, PartialEq)]
pub enum Collective {
    RingAllReduce(RingAllReduce),
    Sampler(Sampler),
    ScatterGather(ScatterGather),
}

/// A simulation of the timelines' part ([`Part::Timelines`]).
#[derive(Debug, Clone, PartialEq)]
pub enum Timeline {
    DpVsDdp(DpVsDdp),
    Accumulation(Accumulation),
    Memory(Memory),
}

/// A simulation by the part that draws it.
#[derive(Debug, Clone, PartialEq)]
pub enum Split {
    Collectives(Collective),
    Timelines(Timeline),
}

impl Simulation {
    pub fn kind(&self) -> Kind {
        match self {
            Simulation::RingAllReduce(_) => Kind::RingAllReduce,
            Simulation::Sampler(_) => Kind::Sampler,
            Simulation::DpVsDdp(_) => Kind::DpVsDdp,
            Simulation::ScatterGather(_) => Kind::ScatterGather,
            Simulation::Accumulation(_) => Kind::Accumulation,
            Simulation::Memory(_) => Kind::Memory,
        }
    }

    pub fn name(&self) -> &'static str {
        self.kind().name()
    }

    /// The simulation as the part of the bundle that draws it has it (a test holds this to
    /// [`Kind::part`]).
    pub fn split(self) -> Split {
        match self {
            Simulation::RingAllReduce(p) => Split::Collectives(Collective::RingAllReduce(p)),
            Simulation::Sampler(p) => Split::Collectives(Collective::Sampler(p)),
            Simulation::ScatterGather(p) => Split::Collectives(Collective::ScatterGather(p)),
            Simulation::DpVsDdp(p) => Split::Timelines(Timeline::DpVsDdp(p)),
            Simulation::Accumulation(p) => Split::Timelines(Timeline::Accumulation(p)),
            Simulation::Memory(p) => Split::Timelines(Timeline::Memory(p)),
        }
    }

    /// Parses what follows the fence's `sim`: a name, then `key=value` parameters separated by
    /// spaces. Missing parameters take their defaults.
    pub fn parse(directive: &str) -> Result<Simulation, DirectiveError> {
        let mut words = directive.split_whitespace();
        let name = words.next().ok_or(DirectiveError::MissingName)?;
        let mut params = BTreeMap::new();
        for word in words {
            let (k, v) = word
                .split_once('=')
                .ok_or_else(|| DirectiveError::NotKeyValue(word.to_string()))?;
            if params.insert(k.to_string(), v.to_string()).is_some() {
                return Err(DirectiveError::Duplicate { key: k.to_string() });
            }
        }
        let p = Params { values: params };
        let kind = Kind::named(name)
            .ok_or_else(|| DirectiveError::UnknownName { name: name.to_string() })?;
        let sim = match kind {
            Kind::RingAllReduce => {
                p.expect(kind.name(), &["ranks", "elements", "algorithm", "link", "size-mb"])?;
                let ranks = p.ranged("ranks", 4, 2, MAX_RANKS)?;
                Simulation::RingAllReduce(RingAllReduce {
                    ranks,
                    elements: p.ranged("elements", ranks, 1, MAX_ELEMENTS)?,
                    algorithm: p.named(
                        "algorithm",
                        Algorithm::Ring,
                        &Algorithm::ALL,
                        Algorithm::name,
                    )?,
                    link: p.named(
                        "link",
                        LinkPreset::Nvlink4H100,
                        &LinkPreset::ALL,
                        LinkPreset::id,
                    )?,
                    size_mb: p.positive("size-mb", 100.0)?,
                })
            }
            Kind::Sampler => {
                p.expect(
                    kind.name(),
                    &["len", "replicas", "seed", "epoch", "shuffle", "drop-last", "set-epoch"],
                )?;
                Simulation::Sampler(Sampler {
                    len: p.ranged("len", 10, 1, MAX_SAMPLER_LEN)?,
                    replicas: p.ranged("replicas", 4, 1, MAX_REPLICAS)?,
                    seed: p.value("seed", 0, "an integer")?,
                    epoch: p.ranged("epoch", 0, 0, 1_000_000)?,
                    shuffle: p.value("shuffle", true, "true or false")?,
                    drop_last: p.value("drop-last", false, "true or false")?,
                    set_epoch: p.value("set-epoch", true, "true or false")?,
                })
            }
            Kind::DpVsDdp | Kind::ScatterGather => {
                p.expect(kind.name(), &["layers", "batch", "gpus", "hardware"])?;
                let layers = p.layers()?;
                let batch = p.ranged("batch", 256, 1, 1 << 20)?;
                let gpus = p.ranged("gpus", 4, 1, MAX_GPUS)?;
                let hardware = p.named(
                    "hardware",
                    CudaPreset::H100Nvlink,
                    &CudaPreset::ALL,
                    CudaPreset::name,
                )?;
                if kind == Kind::DpVsDdp {
                    Simulation::DpVsDdp(DpVsDdp { layers, batch, gpus, hardware })
                } else {
                    Simulation::ScatterGather(ScatterGather { layers, batch, gpus, hardware })
                }
            }
            Kind::Accumulation => {
                p.expect(
                    kind.name(),
                    &["layers", "steps", "gpus", "micro-batch", "bucket-mb", "link"],
                )?;
                Simulation::Accumulation(Accumulation {
                    layers: p.layers()?,
                    steps: p.ranged("steps", 4, 1, sim_engine::accumulation::MAX_STEPS)?,
                    gpus: p.ranged("gpus", 8, 1, MAX_RANKS)?,
                    micro_batch: p.ranged("micro-batch", 32, 1, 1 << 20)?,
                    bucket_mb: p
                        .values
                        .contains_key("bucket-mb")
                        .then(|| p.positive("bucket-mb", 25.0))
                        .transpose()?,
                    link: p.named(
                        "link",
                        LinkPreset::Nvlink4H100,
                        &LinkPreset::ALL,
                        LinkPreset::id,
                    )?,
                })
            }
            Kind::Memory => {
                p.expect(
                    kind.name(),
                    &["params-b", "gpus", "optimizer", "precision", "activations-gb", "gpu-gb"],
                )?;
                Simulation::Memory(Memory {
                    params_b: p.positive("params-b", 7.5)?,
                    gpus: p.ranged("gpus", 64, 1, MAX_MEMORY_GPUS)?,
                    optimizer: p.named(
                        "optimizer",
                        Optimizer::Adam,
                        &Optimizer::ALL,
                        Optimizer::id,
                    )?,
                    precision: p.named(
                        "precision",
                        Precision::Mixed,
                        &Precision::ALL,
                        Precision::id,
                    )?,
                    activations_gb: p.non_negative("activations-gb", 0.0)?,
                    gpu_gb: p.positive("gpu-gb", 80.0)?,
                })
            }
        };
        Ok(sim)
    }
}

/// The default model of the timeline simulations: an MNIST-sized input, three wide layers.
pub const DEFAULT_LAYERS: [usize; 5] = [784, 4096, 4096, 4096, 10];

struct Params {
    values: BTreeMap<String, String>,
}

impl Params {
    fn expect(&self, sim: &'static str, known: &[&'static str]) -> Result<(), DirectiveError> {
        match self.values.keys().find(|k| !known.contains(&k.as_str())) {
            Some(key) => Err(DirectiveError::UnknownParameter {
                sim,
                key: key.clone(),
                known: known.to_vec(),
            }),
            None => Ok(()),
        }
    }

    fn value<T: FromStr>(
        &self,
        key: &'static str,
        default: T,
        expected: &str,
    ) -> Result<T, DirectiveError> {
        match self.values.get(key) {
            None => Ok(default),
            Some(v) => v.parse().map_err(|_| bad(key, v, expected)),
        }
    }

    fn ranged<T: FromStr + PartialOrd + Display + Copy>(
        &self,
        key: &'static str,
        default: T,
        min: T,
        max: T,
    ) -> Result<T, DirectiveError> {
        let expected = format!("a whole number from {min} to {max}");
        let v = self.value(key, default, &expected)?;
        if v < min || v > max {
            return Err(bad(key, &v.to_string(), &expected));
        }
        Ok(v)
    }

    fn positive(&self, key: &'static str, default: f64) -> Result<f64, DirectiveError> {
        let v: f64 = self.value(key, default, "a positive number")?;
        if !(v.is_finite() && v > 0.0) {
            return Err(bad(key, &self.values[key], "a positive number"));
        }
        Ok(v)
    }

    fn non_negative(&self, key: &'static str, default: f64) -> Result<f64, DirectiveError> {
        let expected = "a number, 0 or more";
        let v: f64 = self.value(key, default, expected)?;
        if !(v.is_finite() && v >= 0.0) {
            return Err(bad(key, &self.values[key], expected));
        }
        Ok(v)
    }

    /// One of `options`, by the name `name` gives it.
    fn named<T: Copy>(
        &self,
        key: &'static str,
        default: T,
        options: &[T],
        name: fn(T) -> &'static str,
    ) -> Result<T, DirectiveError> {
        let Some(v) = self.values.get(key) else { return Ok(default) };
        options.iter().copied().find(|o| name(*o) == v).ok_or_else(|| {
            let names: Vec<&str> = options.iter().map(|o| name(*o)).collect();
            bad(key, v, &format!("one of {}", names.join(", ")))
        })
    }

    fn layers(&self) -> Result<Vec<usize>, DirectiveError> {
        let Some(v) = self.values.get("layers") else { return Ok(DEFAULT_LAYERS.to_vec()) };
        let expected = "layer widths separated by commas, at least two, each from 1 to 65536 (e.g. 784,1024,10)";
        let widths: Vec<usize> = v
            .split(',')
            .map(str::parse)
            .collect::<Result<_, _>>()
            .map_err(|_| bad("layers", v, expected))?;
        if widths.len() < 2 || widths.iter().any(|&w| w == 0 || w > 65536) {
            return Err(bad("layers", v, expected));
        }
        Ok(widths)
    }
}

fn bad(key: &'static str, value: &str, expected: &str) -> DirectiveError {
    DirectiveError::BadValue { key, value: value.to_string(), expected: expected.to_string() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_is_parsed_named_and_drawn_by_its_part() {
        for &kind in Kind::ALL {
            let sim = Simulation::parse(kind.name()).unwrap();
            assert_eq!(sim.kind(), kind);
            assert_eq!(Kind::named(kind.name()), Some(kind));
            let part = match sim.split() {
                Split::Collectives(_) => Part::Collectives,
                Split::Timelines(_) => Part::Timelines,
            };
            assert_eq!(part, kind.part(), "{kind:?}");
        }
        let mut names: Vec<_> = Kind::ALL.iter().map(|k| k.name()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), Kind::ALL.len());
    }

    #[test]
    fn defaults_and_parameters() {
        let Simulation::RingAllReduce(r) = Simulation::parse("ring-allreduce ranks=3").unwrap()
        else {
            panic!()
        };
        assert_eq!(
            (r.ranks, r.elements, r.algorithm, r.link),
            (3, 3, Algorithm::Ring, LinkPreset::Nvlink4H100)
        );
        let Simulation::Sampler(s) =
            Simulation::parse("sampler len=10 replicas=4 set-epoch=false seed=-7").unwrap()
        else {
            panic!()
        };
        assert_eq!((s.len, s.replicas, s.seed, s.set_epoch, s.shuffle), (10, 4, -7, false, true));
        let Simulation::DpVsDdp(d) =
            Simulation::parse("dp-vs-ddp layers=784,1024,10 gpus=8").unwrap()
        else {
            panic!()
        };
        assert_eq!((d.layers, d.gpus, d.batch), (vec![784, 1024, 10], 8, 256));
        assert_eq!(Simulation::parse("scatter-gather").unwrap().name(), "scatter-gather");
        let Simulation::RingAllReduce(r) =
            Simulation::parse("ring-allreduce algorithm=tree link=gloo-cpu").unwrap()
        else {
            panic!()
        };
        assert_eq!((r.algorithm, r.link), (Algorithm::Tree, LinkPreset::CpuLoopbackGloo));
    }

    /// The page carries a simulation's parameters from the server to the browser as JSON: the
    /// names are the directive's own.
    #[test]
    fn parameters_serialize_with_the_directives_names() {
        let sim = Simulation::parse("ring-allreduce link=ib-ndr algorithm=naive").unwrap();
        let json = serde_json::to_value(&sim).unwrap();
        assert_eq!(
            (json["RingAllReduce"]["link"].as_str(), json["RingAllReduce"]["algorithm"].as_str()),
            (Some("ib-ndr"), Some("naive"))
        );
        assert_eq!(serde_json::from_value::<Simulation>(json).unwrap(), sim);
        let sim = Simulation::parse("dp-vs-ddp hardware=a100-pcie").unwrap();
        assert_eq!(serde_json::to_value(&sim).unwrap()["DpVsDdp"]["hardware"], "a100-pcie");
    }

    #[test]
    fn errors_say_what_is_wrong() {
        let e = |s: &str| Simulation::parse(s).unwrap_err().to_string();
        assert_eq!(e(""), "a `sim` block needs a simulation name: one of ring-allreduce, sampler, dp-vs-ddp, scatter-gather, accumulation, memory");
        assert_eq!(e("ring"), "unknown simulation `ring`: use one of ring-allreduce, sampler, dp-vs-ddp, scatter-gather, accumulation, memory");
        assert_eq!(e("ring-allreduce ranks=1"), "`ranks=1`: a whole number from 2 to 64");
        assert_eq!(e("ring-allreduce ranks=four"), "`ranks=four`: a whole number from 2 to 64");
        assert_eq!(
            e("ring-allreduce link=ethernet"),
            "`link=ethernet`: one of pcie4, pcie5, nvlink4, ib-ndr, gloo-cpu"
        );
        assert_eq!(e("sampler epochs=2"), "`sampler` has no parameter `epochs`: it takes len, replicas, seed, epoch, shuffle, drop-last, set-epoch");
        assert_eq!(e("sampler shuffle=yes"), "`shuffle=yes`: true or false");
        assert_eq!(e("sampler len=4 len=5"), "`len` is given twice");
        assert_eq!(e("sampler ranks"), "`ranks` is not a `key=value` parameter");
        assert_eq!(
            e("dp-vs-ddp hardware=cpu-gloo"),
            "`hardware=cpu-gloo`: one of h100-nvlink, h100-pcie, a100-pcie"
        );
        assert!(e("dp-vs-ddp layers=784").starts_with("`layers=784`: layer widths"));
        assert_eq!(e("ring-allreduce size-mb=0"), "`size-mb=0`: a positive number");
        assert_eq!(e("accumulation steps=0"), "`steps=0`: a whole number from 1 to 64");
        assert_eq!(e("accumulation bucket-mb=-1"), "`bucket-mb=-1`: a positive number");
        assert_eq!(e("memory optimizer=lion"), "`optimizer=lion`: one of adam, sgd-momentum, sgd");
        assert_eq!(e("memory precision=fp8"), "`precision=fp8`: one of fp32, mixed");
        assert_eq!(e("memory activations-gb=-2"), "`activations-gb=-2`: a number, 0 or more");
    }

    #[test]
    fn the_new_editions_simulations() {
        let Simulation::Accumulation(a) =
            Simulation::parse("accumulation steps=8 gpus=4 link=ib-ndr").unwrap()
        else {
            panic!()
        };
        assert_eq!((a.steps, a.gpus, a.micro_batch, a.bucket_mb), (8, 4, 32, None));
        assert_eq!(a.link, LinkPreset::InfinibandNdr);
        let Simulation::Accumulation(a) = Simulation::parse("accumulation bucket-mb=4").unwrap()
        else {
            panic!()
        };
        assert_eq!(a.bucket_mb, Some(4.0));
        let Simulation::Memory(m) = Simulation::parse("memory").unwrap() else { panic!() };
        assert_eq!(
            (m.params_b, m.gpus, m.optimizer, m.precision),
            (7.5, 64, Optimizer::Adam, Precision::Mixed)
        );
        let sim = Simulation::parse("memory optimizer=sgd-momentum precision=fp32").unwrap();
        let json = serde_json::to_value(&sim).unwrap();
        assert_eq!(json["Memory"]["optimizer"], "sgd-momentum");
        assert_eq!(serde_json::from_value::<Simulation>(json).unwrap(), sim);
    }
}
