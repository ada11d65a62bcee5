//! Grading capacity from Slurm: pilot jobs. The supervisor (`lockstep-pilots`, on a login node)
//! keeps one `gpu-runner worker` job, pending or running, per submission that is running or
//! waiting, up to a limit; each worker claims jobs from the server over HTTP like any other and
//! exits when idle. Slurm decides where and when they run; the server decides what they grade.

pub mod config;
pub mod plan;
pub mod slurm;
pub mod supervisor;
