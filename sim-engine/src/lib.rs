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
//!
//! # What is where
//!
//! Simulations that are exact where PyTorch is deterministic: torch's CPU Mersenne Twister and
//! `randperm`, `DistributedSampler`, ring, naive and tree all-reduce on data (and the ring as a
//! schedule), DDP's gradient buckets, `torch.chunk`, the all-reduces of gradient accumulation with
//! and without `no_sync`; and models where it is not: the α–β cost model with link presets, one
//! training iteration of DataParallel and of DDP as per-device timelines with comparable summaries,
//! and memory per GPU under DDP and the ZeRO stages (the ZeRO paper's bytes per parameter).
//! Fixtures in `sim-engine/fixtures/` come from the pinned torch through a committed script. It
//! builds natively and for wasm32; `sim-engine/README.md` lists each module, what it is faithful
//! to, and what the timelines assume.

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
