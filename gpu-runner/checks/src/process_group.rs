//! Did the processes form one group, train through DDP, and leave every collective they
//! entered?

use std::collections::BTreeSet;

use grading_protocol::{Check, CheckId, Said};

use crate::evidence::RunEvidence;
use crate::record::Event;
use crate::{fail, pass, rank0};

pub fn launched(run: &RunEvidence) -> Check {
    const ID: CheckId = CheckId::Launched;
    let n = run.nproc;
    let inits: Vec<(u32, &str, u32, u32)> = run
        .records
        .iter()
        .filter_map(|r| r.init().map(|(b, rank, world)| (r.rank, b, rank, world)))
        .collect();
    if inits.is_empty() {
        return fail(ID, Said::NoInit { started: n }, Said::HintInit {});
    }
    let worlds: BTreeSet<u32> = inits.iter().map(|i| i.3).collect();
    if inits.len() as u32 == n && worlds.len() == 1 && worlds.contains(&n) {
        let backend = inits[0].1;
        return pass(ID, Said::OneGroup { n, backend: backend.into() });
    }
    let joined = inits.iter().map(|i| (i.2, i.3)).collect();
    fail(ID, Said::PartlyJoined { n, joined }, Said::HintEnvInit {})
}

pub fn ddp_wrapped(run: &RunEvidence) -> Check {
    const ID: CheckId = CheckId::DdpWrapped;
    let with: Vec<u32> =
        run.records.iter().filter(|r| !r.ddp().is_empty()).map(|r| r.rank).collect();
    let first = rank0(run);
    if with.len() as u32 == run.nproc {
        let numel = first.ddp().first().map(|d| d.2).unwrap_or(0);
        let site = first.events.iter().find_map(|e| match e {
            Event::Ddp { site, .. } => site.clone(),
            _ => None,
        });
        return pass(ID, Said::Wrapped { values: numel, site });
    }
    let by_hand = first.collectives().iter().filter(|(op, _)| *op == "all_reduce").count();
    let msg = if with.is_empty() && by_hand > first.training_passes().len() {
        Said::NoDdpByHand { calls: by_hand as u64 }
    } else if with.is_empty() {
        Said::NoDdp {}
    } else {
        Said::SomeDdp { ranks: with.clone(), n: run.nproc }
    };
    let hint =
        if by_hand > 0 && with.is_empty() { Said::HintDdpNotByHand {} } else { Said::HintDdp {} };
    fail(ID, msg, hint)
}

pub fn no_deadlock(run: &RunEvidence) -> Check {
    const ID: CheckId = CheckId::NoDeadlock;
    let stuck: Vec<(u32, &str, Option<&str>)> = run
        .records
        .iter()
        .filter_map(|r| {
            r.failed_collective()
                .map(|(op, site, _)| (r.rank, op, site))
                .or_else(|| r.stuck_in().map(|(op, site)| (r.rank, op, site)))
        })
        .collect();
    let Some(&(rank, op, site)) = stuck.first() else {
        let per_rank = run.records.iter().map(|r| r.collectives().len() as u64).collect();
        return pass(ID, Said::LeftEveryCollective { per_rank });
    };
    let others = run
        .records
        .iter()
        .filter(|r| r.rank != rank)
        .map(|r| {
            let calls = r.collectives().iter().filter(|(o, s)| *o == op && *s == site).count();
            (r.rank, calls as u64, r.in_destroy_or_done())
        })
        .collect();
    let (op, site) = (op.to_string(), site.map(str::to_string));
    fail(ID, Said::Deadlock { rank, op, site, others }, Said::HintDeadlock {})
}

#[cfg(test)]
mod tests {
    use grading_protocol::CheckStatus;

    use super::*;
    use crate::test_support::*;

    #[test]
    fn every_rank_in_one_group_passes() {
        let c = launched(&correct_run(2, 8, 1, 1.0));
        assert_eq!(
            (c.status, c.message.as_str()),
            (CheckStatus::Pass, "all 2 ranks joined one process group (gloo, world size 2)")
        );
        assert_eq!(
            launched(&correct_run(1, 8, 1, 1.0)).message,
            "all 1 ranks joined one process group (gloo, world size 1)"
        );
    }

    #[test]
    fn ranks_that_each_form_their_own_world_fail() {
        let mut run = correct_run(2, 8, 1, 1.0);
        // Each process calls init_process_group(rank=0, world_size=1) for itself.
        for rank in 0..2 {
            edit(&mut run, rank, |e| match e {
                Event::Init { backend, site, time, .. } => Some(Event::Init {
                    backend: backend.clone(),
                    rank: 0,
                    world: 1,
                    site: site.clone(),
                    time: *time,
                }),
                _ => None,
            });
        }
        let c = launched(&run);
        assert_eq!(c.status, CheckStatus::Fail);
        assert_eq!(
            c.message,
            "2 of 2 processes joined a process group: rank 0 (world size 1), rank 0 (world size 1)"
        );
    }

    #[test]
    fn no_init_at_all_fails() {
        let mut run = correct_run(2, 8, 1, 1.0);
        for r in &mut run.records {
            r.events.retain(|e| !matches!(e, Event::Init { .. }));
        }
        assert_eq!(launched(&run).message, "no rank called init_process_group (of 2 started)");
    }

    #[test]
    fn ddp_on_every_rank_passes_and_names_the_line() {
        let c = ddp_wrapped(&correct_run(2, 8, 1, 1.0));
        assert_eq!(c.status, CheckStatus::Pass);
        assert_eq!(c.message, "every rank wrapped its model in DistributedDataParallel (12,345 trainable values, at train.py:30)");
    }

    #[test]
    fn averaging_by_hand_is_recognised() {
        let mut run = correct_run(2, 8, 2, 1.0);
        for r in &mut run.records {
            r.events.retain(|e| !matches!(e, Event::Ddp { .. }));
            for seq in 10..20 {
                r.events.extend(coll("all_reduce", seq, "train.py:44"));
            }
        }
        let c = ddp_wrapped(&run);
        assert_eq!(c.status, CheckStatus::Fail);
        assert!(
            c.message.ends_with(
                "rank 0 called all_reduce 10 times itself, averaging the gradients by hand"
            ),
            "{}",
            c.message
        );
        assert!(c.hint.unwrap().contains("drop the hand-written all_reduce"));
    }

    #[test]
    fn ddp_on_some_ranks_only_names_them() {
        let mut run = correct_run(2, 8, 1, 1.0);
        run.records[1].events.retain(|e| !matches!(e, Event::Ddp { .. }));
        assert_eq!(
            ddp_wrapped(&run).message,
            "only ranks [0] of 2 constructed DistributedDataParallel"
        );
    }

    #[test]
    fn a_barrier_only_rank_0_reaches_is_a_deadlock_at_its_line() {
        let mut run = correct_run(2, 8, 1, 1.0);
        run.records[0].events.push(Event::CollEnter {
            op: "barrier".into(),
            seq: 2,
            site: Some("train.py:63".into()),
            time: 0.0,
        });
        let c = no_deadlock(&run);
        assert_eq!(c.status, CheckStatus::Fail);
        assert_eq!(
            c.message,
            "rank 0 waited in barrier() at train.py:63 that the other ranks never reached (rank 1 made 0 such call(s) there and finished)"
        );
        assert_eq!(
            no_deadlock(&correct_run(2, 8, 1, 1.0)).message,
            "every rank left every collective it entered ([1, 1] collectives per rank)"
        );
    }

    #[test]
    fn a_collective_that_failed_counts_as_stuck() {
        let mut run = correct_run(2, 8, 1, 1.0);
        run.records[1].events.push(Event::CollEnter {
            op: "all_reduce".into(),
            seq: 7,
            site: Some("train.py:70".into()),
            time: 0.0,
        });
        run.records[1].events.push(Event::CollExit {
            op: "all_reduce".into(),
            seq: 7,
            ok: false,
            error: Some("timed out".into()),
            time: 0.0,
        });
        let c = no_deadlock(&run);
        assert!(
            c.message.starts_with("rank 1 waited in all_reduce() at train.py:70"),
            "{}",
            c.message
        );
    }
}
