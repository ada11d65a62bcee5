//! Simulations of PyTorch data-parallel training, computed exactly where PyTorch is
//! deterministic.
//!
//! Pure computation: no IO, no clock, no threads, so the same code runs natively (tests, the
//! `sim` command line) and in the browser as WebAssembly. Today it holds the unshuffled
//! `DistributedSampler`; the shuffled sampler, ring all-reduce, the α–β cost model and the
//! DataParallel/DDP timelines follow.

pub mod ring;
pub mod rng;
pub mod sampler;
