//! Numbers, durations and sizes the way the simulations' tables and captions show them: the
//! site's one set of formatters (`lockstep-units`).

pub use lockstep_units::{bandwidth, bytes, count, duration, number, plural, si_bytes};
