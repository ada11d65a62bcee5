//! The supervisor's decisions, as pure functions of what `squeue` and the server said: which
//! pilots to submit or cancel, and where each pending pilot stands in its partition.

use grading_protocol::live::{Demand, NodeWait, Pilot, PilotState};

use crate::config::worker_suffix;

/// One line of `squeue`, in [`SQUEUE_FORMAT`].
#[derive(Debug, Clone, PartialEq)]
pub struct SlurmJob {
    pub id: String,
    /// `PENDING`, `RUNNING`, `COMPLETING`, …
    pub state: String,
    /// Why it is pending (`Resources`, `Priority`, …); `None` when it is not.
    pub reason: String,
    pub node: String,
    pub partition: String,
    pub priority: u64,
}

/// Job id, state, reason, node list, partition, priority.
pub const SQUEUE_FORMAT: &str = "%i|%T|%r|%N|%P|%Q";

impl SlurmJob {
    /// Started and not ending: its worker claims or grades.
    pub fn is_running(&self) -> bool {
        self.state == "RUNNING"
    }

    /// Not started, and not ending either: pending, or `CONFIGURING` (its nodes are still
    /// booting, which a learner would call waiting), or suspended.
    pub fn is_waiting(&self) -> bool {
        matches!(self.state.as_str(), "PENDING" | "CONFIGURING" | "SUSPENDED")
    }

    fn is_alive(&self) -> bool {
        self.is_running() || self.is_waiting()
    }

    /// The job id's number, for ordering (array tasks `123_4` by their job).
    fn number(&self) -> u64 {
        let digits: String = self.id.chars().take_while(|c| c.is_ascii_digit()).collect();
        digits.parse().unwrap_or(u64::MAX)
    }
}

pub fn parse_squeue(text: &str) -> Result<Vec<SlurmJob>, String> {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let f: Vec<&str> = line.trim().split('|').collect();
            let [id, state, reason, node, partition, priority] = f.as_slice() else {
                return Err(format!("squeue printed `{line}`, not {SQUEUE_FORMAT}"));
            };
            Ok(SlurmJob {
                id: id.to_string(),
                state: state.to_string(),
                reason: reason.to_string(),
                node: node.to_string(),
                partition: partition.to_string(),
                priority: priority
                    .parse()
                    .map_err(|_| format!("squeue printed priority `{priority}` in `{line}`"))?,
            })
        })
        .collect()
}

/// Pending jobs Slurm's scheduler looks at before `job` in its partition: higher priority, or
/// the same priority and submitted earlier (a smaller id). `pending` is every user's pending
/// jobs in the partition. Backfill may start a small job sooner; this is the plain order.
pub fn ahead(job: &SlurmJob, pending: &[SlurmJob]) -> u64 {
    pending
        .iter()
        .filter(|other| other.id != job.id && other.partition == job.partition)
        .filter(|other| {
            other.priority > job.priority
                || (other.priority == job.priority && other.number() < job.number())
        })
        .count() as u64
}

/// What the server is told of the pilots: pending with their place, running with their node.
pub fn report(pilots: &[SlurmJob], pending_in_partition: &[SlurmJob], gpus: u32) -> Vec<Pilot> {
    pilots
        .iter()
        .filter_map(|job| {
            let state = if job.is_running() {
                PilotState::Running { node: job.node.clone() }
            } else if job.is_waiting() {
                PilotState::Pending(NodeWait {
                    partition: job.partition.clone(),
                    ahead: ahead(job, pending_in_partition),
                    reason: if job.state == "CONFIGURING" {
                        "the node is starting".into()
                    } else {
                        job.reason.clone()
                    },
                    gpus,
                })
            } else {
                return None;
            };
            Some(Pilot { job: job.id.clone(), state })
        })
        .collect()
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Plan {
    /// Pilots to submit.
    pub submit: u32,
    /// Pilot jobs to cancel, and why.
    pub cancel: Vec<(String, &'static str)>,
}

/// Keeps one pilot, pending or running, per job that is running or due, up to `max`:
/// - pilots whose worker lost a lease are cancelled (a hung worker holds a node for nothing);
/// - missing pilots are submitted;
/// - surplus pending pilots are cancelled, the last in line first (a learner cancelled, or
///   another worker took the job). Running pilots are never cancelled for being surplus: they
///   exit by themselves after `idle_exit_seconds` without work, which keeps a node warm for a
///   burst.
pub fn plan(demand: &Demand, pilots: &[SlurmJob], max: u32) -> Plan {
    let mut plan = Plan::default();
    let lost = |job: &SlurmJob| {
        let suffix = worker_suffix(&job.id);
        demand.lost.iter().any(|name| name.ends_with(&suffix))
    };
    let mut alive: Vec<&SlurmJob> = Vec::new();
    for job in pilots.iter().filter(|j| j.is_alive()) {
        if lost(job) {
            plan.cancel.push((job.id.clone(), "its worker lost a job's lease"));
        } else {
            alive.push(job);
        }
    }
    let wanted = demand.due.saturating_add(demand.running).min(u64::from(max));
    let have = alive.len() as u64;
    if have < wanted {
        plan.submit = (wanted - have) as u32;
    } else {
        let mut pending: Vec<&SlurmJob> = alive.into_iter().filter(|j| j.is_waiting()).collect();
        pending.sort_by_key(|j| std::cmp::Reverse(j.number()));
        let surplus = (have - wanted) as usize;
        plan.cancel.extend(
            pending.into_iter().take(surplus).map(|j| (j.id.clone(), "no job is waiting for it")),
        );
    }
    plan
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(id: &str, state: &str, priority: u64) -> SlurmJob {
        SlurmJob {
            id: id.into(),
            state: state.into(),
            reason: if state == "PENDING" { "Resources".into() } else { "None".into() },
            node: if state == "RUNNING" { "gpu-07".into() } else { String::new() },
            partition: "gpu".into(),
            priority,
        }
    }

    fn demand(due: u64, running: u64, lost: &[&str]) -> Demand {
        Demand { due, running, lost: lost.iter().map(|s| s.to_string()).collect() }
    }

    #[test]
    fn squeue_lines_parse() {
        let text =
            "2|PENDING|Resources||grading|4294901758\n1|RUNNING|None|vm|grading|4294901759\n";
        let jobs = parse_squeue(text).unwrap();
        assert_eq!(jobs.len(), 2);
        assert_eq!(jobs[0].reason, "Resources");
        assert_eq!(jobs[1].node, "vm");
        assert!(jobs[1].is_running() && jobs[0].is_waiting());
        assert!(parse_squeue("1|RUNNING").unwrap_err().contains("not %i|%T"));
        assert!(parse_squeue("1|R|N|n|p|high").unwrap_err().contains("priority"));
        assert!(parse_squeue("").unwrap().is_empty());
    }

    #[test]
    fn jobs_ahead_follow_priority_then_age() {
        let mine = job("20", "PENDING", 100);
        let others = [
            job("5", "PENDING", 50),   // lower priority: behind
            job("10", "PENDING", 100), // same priority, older: ahead
            job("30", "PENDING", 100), // same priority, newer: behind
            job("40", "PENDING", 200), // higher priority: ahead
            job("20", "PENDING", 100), // itself
            SlurmJob { partition: "cpu".into(), ..job("1", "PENDING", 900) }, // elsewhere
        ];
        assert_eq!(ahead(&mine, &others), 2);
    }

    #[test]
    fn the_report_places_pending_pilots_and_names_running_nodes() {
        let pilots = [job("7", "RUNNING", 0), job("8", "PENDING", 10), job("9", "COMPLETING", 0)];
        let pending = [job("3", "PENDING", 20), job("8", "PENDING", 10)];
        let report = report(&pilots, &pending, 4);
        assert_eq!(report.len(), 2, "a completing pilot is gone");
        assert_eq!(report[0].state, PilotState::Running { node: "gpu-07".into() });
        let PilotState::Pending(wait) = &report[1].state else { panic!("{report:?}") };
        assert_eq!((wait.ahead, wait.reason.as_str(), wait.gpus), (1, "Resources", 4));
    }

    #[test]
    fn pilots_follow_the_demand_up_to_the_limit() {
        assert_eq!(plan(&demand(3, 0, &[]), &[], 4).submit, 3);
        assert_eq!(plan(&demand(9, 0, &[]), &[], 4).submit, 4, "at most max");
        let running = [job("1", "RUNNING", 0)];
        assert_eq!(plan(&demand(1, 1, &[]), &running, 4).submit, 1);
        assert_eq!(plan(&demand(1, 0, &[]), &running, 4), Plan::default(), "idle pilot takes it");
        let ending = [job("1", "COMPLETING", 0)];
        assert_eq!(plan(&demand(1, 0, &[]), &ending, 4).submit, 1, "an ending pilot takes nothing");
    }

    #[test]
    fn surplus_pending_pilots_are_cancelled_newest_first_running_ones_never() {
        let pilots = [job("1", "RUNNING", 0), job("2", "PENDING", 0), job("3", "PENDING", 0)];
        let p = plan(&demand(0, 1, &[]), &pilots, 4);
        assert_eq!(p.submit, 0);
        let cancelled: Vec<&str> = p.cancel.iter().map(|(id, _)| id.as_str()).collect();
        assert_eq!(cancelled, ["3", "2"]);
        let p = plan(&demand(0, 0, &[]), &pilots, 4);
        assert_eq!(p.cancel.len(), 2, "the idle running pilot exits by itself");
    }

    #[test]
    fn a_pilot_whose_worker_lost_a_lease_is_cancelled_and_replaced() {
        let pilots = [job("41", "RUNNING", 0), job("141", "RUNNING", 0)];
        let p = plan(&demand(1, 1, &["test-workers/gpu-07/slurm-41"]), &pilots, 4);
        assert_eq!(p.cancel, [("41".to_string(), "its worker lost a job's lease")]);
        assert_eq!(p.submit, 1, "two wanted, one left");
    }
}
