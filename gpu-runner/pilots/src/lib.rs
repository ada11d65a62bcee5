//! Grading capacity from Slurm: pilot jobs. The supervisor (`lockstep-pilots`, on a login node)
//! keeps one `gpu-runner worker` job, pending or running, per submission that is running or
//! waiting, up to a limit; each worker claims jobs from the server over HTTP like any other and
//! exits when idle. Slurm decides where and when they run; the server decides what they grade.
//!
//! # What is where
//!
//! Grading capacity from Slurm: `lockstep-pilots`, the pilot supervisor an operator runs on a login
//! node with a worker token. `config.rs`, the one place the Slurm side is configured
//! (`pilots.toml`: partition, GPUs and CPUs per job, time limit, account, extra `sbatch` options,
//! set-up lines) and the batch script made from it; `plan.rs`, the decisions as pure functions of
//! `squeue`'s lines and the server's `Demand` (which pilots to submit or cancel, and how many jobs
//! are ahead of a pending one); `slurm.rs`, `sbatch`, `squeue` and `scancel` behind the `Batch`
//! trait; `supervisor.rs`, one round: look, report, act. No tch, no database.
//!
//! # Grading through Slurm
//!
//! Capacity on GPU nodes comes from *pilot jobs*: `lockstep-pilots` keeps one Slurm job running
//! `gpu-runner worker` per submission that is due or being graded, up to `max_pilots`, and each
//! pilot claims from the queue over HTTP like any worker and exits when idle. We chose pilots over
//! one `sbatch` per submission because: - there is one grading path: the same queue, leases,
//! retries and verdict-once rules whether a worker runs on a lab machine or a GPU node, and the app
//! never learns Slurm; - nothing but a worker token reaches the cluster: no database credentials,
//! and no learner script copied onto a shared file system before it is in the sandbox; - a burst of
//! submissions pays Slurm's scheduling wait once per pilot, not once per submission, and an idle
//! pilot takes the next submission within its poll; the site holds few Slurm jobs, which schedulers
//! and their administrators prefer.
//!
//! The cost is GPU time held idle, at most `idle_exit_seconds` per pilot after its last job. Each
//! round the supervisor reads its pilots (`squeue --me --name=…`) and, when one is pending, the
//! partition's pending jobs; it posts them to `/api/worker/pilots`. The server answers with the
//! `Demand` (jobs due, jobs running, and the workers whose lease it took back lately) and, in the
//! same request, writes a `waiting_for_node` event to each due submission whose wait changed: idle
//! running pilots take the first due jobs, and the rest are matched in order to the pending pilots,
//! nearest the front of Slurm's queue first (`grading::pilots::waits`, pure). The supervisor then
//! submits missing pilots, cancels surplus pending ones (last in line first), and cancels the pilot
//! of any worker that lost a lease and has not been heard from since (one that came back and
//! claimed again is working). A pilot names itself `NODE/slurm-JOBID` and reports its node, so
//! `started` says "Running on node NODE". Slurm ends a job with SIGTERM; the worker then kills its
//! grade and hands the job back with `stopped`, which queues it again at once; a grade that had
//! already ended when the signal came is handed in as usual.

pub mod config;
pub mod plan;
pub mod slurm;
pub mod supervisor;
