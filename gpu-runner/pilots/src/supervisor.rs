//! One round of the supervisor: look at Slurm, tell the server, act on its answer.

use std::time::Duration;

use grading_protocol::live::{Demand, PilotReport};

use crate::config::Config;
use crate::plan;
use crate::slurm::{Batch, SlurmError};

#[derive(Debug, thiserror::Error)]
pub enum RoundError {
    #[error(transparent)]
    Slurm(#[from] SlurmError),
    #[error("the server: {0}")]
    Server(String),
    /// 401/403: no point in trying again.
    #[error("the server refused the worker token: {0}")]
    Refused(String),
}

/// The server's pilot API (`POST /api/worker/pilots`), with a worker token.
pub struct Server(lockstep_client::Server);

impl Server {
    pub fn new(base: &str, token: &str) -> Server {
        let timeout = lockstep_client::Timeout::Whole(Duration::from_secs(30));
        Server(lockstep_client::Server::new(base, token, timeout))
    }

    fn report(&self, report: &PilotReport) -> Result<Demand, RoundError> {
        let path = lockstep_client::routes::WORKER_PILOTS_API;
        let response = self.0.post(path, report).map_err(|e| RoundError::Server(e.to_string()))?;
        lockstep_client::json(response).map_err(|e| match e {
            lockstep_client::ClientError::Refused { body, .. } => RoundError::Refused(body),
            e => RoundError::Server(e.to_string()),
        })
    }
}

/// Looks at Slurm and the server once, and submits or cancels pilots. A failed `sbatch` or
/// `scancel` ends the round with an error; the next round starts from what Slurm then says.
pub fn round(config: &Config, batch: &dyn Batch, server: &Server) -> Result<(), RoundError> {
    let pilots = batch.jobs_named(&config.slurm.job_name)?;
    let pending = if pilots.iter().any(|p| p.is_waiting()) {
        batch.pending_in(&config.slurm.partition)?
    } else {
        Vec::new()
    };
    let report = PilotReport { pilots: plan::report(&pilots, &pending, config.slurm.gpus_per_job) };
    let demand = server.report(&report)?;
    let plan = plan::plan(&demand, &pilots, config.max_pilots);
    for (job, why) in &plan.cancel {
        eprintln!("lockstep-pilots: cancelling Slurm job {job}: {why}");
        batch.cancel(job)?;
    }
    let mut submitted = Vec::new();
    if plan.submit > 0 {
        let script = config.batch_script();
        for _ in 0..plan.submit {
            submitted.push(batch.submit(&script)?);
        }
        eprintln!(
            "lockstep-pilots: {} due, {} running: submitted Slurm job(s) {}",
            demand.due,
            demand.running,
            submitted.join(", ")
        );
    }
    Ok(())
}
