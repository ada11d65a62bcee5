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
pub struct Server {
    agent: ureq::Agent,
    url: String,
    token: String,
}

impl Server {
    pub fn new(base: &str, token: &str) -> Server {
        let config = ureq::Agent::config_builder()
            .timeout_global(Some(Duration::from_secs(30)))
            .http_status_as_error(false)
            .build();
        Server {
            agent: config.into(),
            url: format!("{}/api/worker/pilots", base.trim_end_matches('/')),
            token: token.into(),
        }
    }

    fn report(&self, report: &PilotReport) -> Result<Demand, RoundError> {
        let mut response = self
            .agent
            .post(&self.url)
            .header("Authorization", &format!("Bearer {}", self.token))
            .send_json(report)
            .map_err(|e| RoundError::Server(e.to_string()))?;
        let status = response.status().as_u16();
        if status == 200 {
            return response
                .body_mut()
                .read_json::<Demand>()
                .map_err(|e| RoundError::Server(format!("its answer: {e}")));
        }
        let text = response.body_mut().read_to_string().unwrap_or_default();
        match status {
            401 | 403 => Err(RoundError::Refused(text)),
            _ => Err(RoundError::Server(format!("{status}: {text}"))),
        }
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
