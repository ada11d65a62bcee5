//! Simulations of PyTorch data-parallel training, computed exactly where PyTorch is
//! deterministic.
//!
//! Pure computation: no IO, no clock, no threads, so the same code runs natively (tests, the
//! `sim` command line) and in the browser as WebAssembly.
//!
//! - [`rng`]: PyTorch's CPU Mersenne Twister and `randperm`, bit for bit.
//! - [`sampler`]: `DistributedSampler`, index for index.
//! - [`allreduce`]: ring, naive and tree all-reduce on real data, step by step; the ring's
//!   schedule without data.
//! - [`cost`]: the α–β cost model of those algorithms, with link presets.
//! - [`model`], [`hardware`]: the MLP the timelines train and the machines they run on.
//! - [`buckets`]: DDP's gradient buckets, as PyTorch assigns them.
//! - [`dp`], [`ddp`]: one training iteration of DataParallel and of DDP as a [`timeline`].
//! - [`accumulation`]: the all-reduces of one optimizer step of gradient accumulation, with
//!   and without `no_sync`.
//! - [`memory`]: bytes per GPU of parameters, gradients, optimizer state and activations under
//!   DDP and the ZeRO stages.

pub mod accumulation;
pub mod allreduce;
pub mod buckets;
pub mod cost;
pub mod ddp;
pub mod dp;
pub mod hardware;
pub mod memory;
pub mod model;
pub mod rng;
pub mod sampler;
pub mod timeline;
