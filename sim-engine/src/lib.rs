//! Simulations of PyTorch data-parallel training, computed exactly where PyTorch is
//! deterministic.
//!
//! Pure computation: no IO, no clock, no threads, so the same code runs natively (tests, the
//! `sim` command line) and in the browser as WebAssembly.
//!
//! - [`rng`]: PyTorch's CPU Mersenne Twister and `randperm`, bit for bit.
//! - [`sampler`]: `DistributedSampler`, index for index.
//! - [`ring`]: ring all-reduce on real data, step by step, and its schedule.
//! - [`cost`]: the α–β cost model of ring, naive and tree all-reduce, with link presets.
//!
//! The DataParallel and DDP timelines come next.

pub mod cost;
pub mod ring;
pub mod rng;
pub mod sampler;
