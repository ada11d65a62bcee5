//! The five checks of `survive-a-crash`: the script is run twice under `torchrun
//! --max-restarts=1`, once left alone and once with one rank killed mid-epoch at a moment the
//! runner chose, and the two are compared. The interrupted run's records hold both attempts
//! (torchrun starts every rank again after the failure), split by
//! [`RankRecord::attempts`].
//!
//! Epochs are counted as complete passes over the training DataLoader, not read from the
//! sampler: a resume that forgets `set_epoch` must still be seen to start at the right epoch,
//! and fail the order check instead.

use grading_protocol::{Check, CheckId, Killed, Resumption, Said};

use crate::evidence::{Difference, RunEvidence};
use crate::record::{Event, Pass, RankRecord};
use crate::{fail, pass, skip};

/// Where the runner kills a rank: as `rank` is about to read batch `batch` (1-based) of pass
/// `pass` (0-based: the epoch, in a run that starts at epoch 0) of its training loader
/// `loader`, in the first attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CrashPlan {
    pub rank: u32,
    pub loader: u32,
    pub pass: u32,
    pub batch: u64,
}

impl CrashPlan {
    /// The harness's `LOCKSTEP_CRASH`.
    pub fn to_env(self) -> String {
        format!("{}:{}:{}:{}", self.rank, self.loader, self.pass, self.batch)
    }

    /// In a learner's words.
    pub fn killed(self) -> Killed {
        Killed { rank: self.rank, epoch: self.pass, batch: self.batch }
    }

    /// A moment to crash at in a run shaped like `uninterrupted`, from `random` (any u64):
    /// some rank, in an epoch after the first (so there is a snapshot to resume from), before
    /// a batch after the first (so the epoch is under way). `None` when the run trained fewer
    /// than two epochs.
    pub fn choose(uninterrupted: &RunEvidence, random: u64) -> Option<CrashPlan> {
        let rank0 = uninterrupted.records.first()?;
        let passes = rank0.training_passes();
        if passes.len() < 2 {
            return None;
        }
        let epochs = passes.len() as u64;
        let nproc = u64::from(uninterrupted.nproc.max(1));
        let chosen_pass = 1 + random % (epochs - 1);
        let batches = passes[chosen_pass as usize].batches;
        let batch = if batches < 2 { 1 } else { 2 + (random / epochs) % (batches - 1) };
        Some(CrashPlan {
            rank: ((random / (epochs * batches.max(1))) % nproc) as u32,
            loader: passes[0].loader,
            pass: chosen_pass as u32,
            batch,
        })
    }
}

/// Everything the five checks judge.
#[derive(Debug, Clone, PartialEq)]
pub struct CrashEvidence {
    pub uninterrupted: RunEvidence,
    pub interrupted: RunEvidence,
    pub plan: CrashPlan,
    /// Rank 0's final parameters after the interrupted run against the uninterrupted run's;
    /// `None` where either could not be read.
    pub final_params: Option<Difference>,
}

/// Largest absolute difference between the two runs' final parameters that still counts as
/// equal: a resumed run repeats the same float operations, so anything beyond rounding is a
/// lost state.
pub const PARAMS_TOLERANCE: f64 = 1e-5;

/// A rank's attempts, and its complete passes over `loader` in each.
fn epochs_per_attempt(rec: &RankRecord, loader: u32) -> Vec<Vec<Pass>> {
    rec.attempts()
        .iter()
        .map(|a| a.passes().filter(|p| p.loader == loader && p.complete).cloned().collect())
        .collect()
}

/// Epochs rank 0 trained in the run left alone.
fn uninterrupted_epochs(e: &CrashEvidence) -> usize {
    e.uninterrupted
        .records
        .first()
        .map_or(0, |r| epochs_per_attempt(r, e.plan.loader).concat().len())
}

/// Every check of the exercise, in report order. When the interrupted run did not restart
/// and finish, the checks that compare its end with the uninterrupted run's wait for that one:
/// a restart that failed has no resumed epochs or final parameters to judge, and the learner
/// sees the cause first.
pub fn all(e: &CrashEvidence) -> Vec<Check> {
    let restarted = restarted_and_finished(e);
    let finished = restarted.status == grading_protocol::CheckStatus::Pass;
    let after = |c: Check| {
        if finished {
            return c;
        }
        skip(c.id, Said::NotJudgedWithoutRestart {})
    };
    vec![
        restarted,
        after(resumed_from_snapshot(e)),
        after(sampler_order(e)),
        snapshot_rank0_only(e),
        after(final_params(e)),
    ]
}

pub fn restarted_and_finished(e: &CrashEvidence) -> Check {
    const ID: CheckId = CheckId::RestartedAndFinished;
    let run = &e.interrupted;
    let killed = e.plan.killed();
    let crashed =
        run.records.iter().any(|r| r.attempts().first().and_then(RankRecord::crash).is_some());
    if !crashed {
        return fail(ID, Said::NeverCrashed { killed }, Said::HintSameEpochs {});
    }
    let attempts: Vec<usize> = run.records.iter().map(|r| r.attempts().len()).collect();
    if attempts.iter().any(|&a| a < 2) {
        return fail(ID, Said::NotRestarted { killed }, Said::HintMaxRestarts {});
    }
    let last: Vec<RankRecord> =
        run.records.iter().map(|r| r.attempts().pop().unwrap_or_default()).collect();
    let failed: Vec<Said> = last
        .iter()
        .filter(|a| !a.ended_well())
        .map(|a| match a.exception() {
            Some((kind, message, site)) => Said::RankRaised {
                rank: a.rank,
                kind: kind.to_string(),
                message: message.lines().next().unwrap_or("").to_string(),
                site: site.map(str::to_string),
            },
            None => Said::RankUnfinished { rank: a.rank },
        })
        .collect();
    if !failed.is_empty() || run.timed_out {
        let why = if run.timed_out { vec![Said::RunTimedOut {}] } else { failed };
        return fail(ID, Said::RestartFailed { killed, why }, Said::HintRestartFromTop {});
    }
    pass(ID, Said::Restarted { killed, epochs: uninterrupted_epochs(e) as u64 })
}

pub fn resumed_from_snapshot(e: &CrashEvidence) -> Check {
    const ID: CheckId = CheckId::ResumedFromSnapshot;
    let Some(rank0) = e.interrupted.records.first() else {
        return skip(ID, Said::NoRank0Records {});
    };
    let attempts = epochs_per_attempt(rank0, e.plan.loader);
    let total = uninterrupted_epochs(e);
    let (Some(before), Some(after)) = (attempts.first(), attempts.get(1)) else {
        return skip(ID, Said::NoRestart {});
    };
    let (done, again) = (before.len(), after.len());
    let expected = total.saturating_sub(done);
    let epochs = |ps: &[Pass]| {
        ps.iter()
            .map(|p| p.sampler.epoch.map_or("?".into(), |e| e.to_string()))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let said = Resumption {
        done: done as u64,
        before: epochs(before),
        again: again as u64,
        total: total as u64,
    };
    if again == expected {
        return pass(ID, Said::ResumedWhereLeft { epochs: said });
    }
    if again >= total && done > 0 {
        return fail(ID, Said::ResumedFromZero { epochs: said }, Said::HintResume {});
    }
    if again > expected {
        let twice = (again - expected) as u64;
        return fail(
            ID,
            Said::ResumedFromOld { epochs: said, twice },
            Said::HintSnapshotEveryEpoch {},
        );
    }
    let missed = (expected - again) as u64;
    fail(ID, Said::ResumedTooLate { epochs: said, missed }, Said::HintResumeNotLater {})
}

pub fn sampler_order(e: &CrashEvidence) -> Check {
    const ID: CheckId = CheckId::SamplerOrderResumed;
    let mut compared = 0u64;
    for (rank, rec) in e.interrupted.records.iter().enumerate() {
        let attempts = epochs_per_attempt(rec, e.plan.loader);
        let Some(after) = attempts.get(1) else { continue };
        let Some(reference) = e.uninterrupted.records.get(rank) else { continue };
        let reference = epochs_per_attempt(reference, e.plan.loader).concat();
        // The epochs after the restart are the last ones of the uninterrupted run.
        let offset = reference.len().saturating_sub(after.len());
        for (j, p) in after.iter().enumerate() {
            let Some(r) = reference.get(offset + j) else { break };
            compared += 1;
            if p.indices != r.indices {
                let head =
                    |v: &[i64]| v.iter().take(6).map(i64::to_string).collect::<Vec<_>>().join(", ");
                let sampler_epoch =
                    |p: &Pass| p.sampler.epoch.map_or("?".into(), |x| x.to_string());
                let differs = Said::OrderDiffers {
                    rank: rank as u64,
                    epoch: (offset + j) as u64,
                    got: head(&p.indices),
                    got_epoch: sampler_epoch(p),
                    want: head(&r.indices),
                    want_epoch: sampler_epoch(r),
                };
                return fail(ID, differs, Said::HintSetEpochResumed {});
            }
        }
    }
    if compared == 0 {
        return skip(ID, Said::NoEpochAfterRestart {});
    }
    pass(ID, Said::OrderResumed { epochs: compared / u64::from(e.interrupted.nproc.max(1)) })
}

pub fn snapshot_rank0_only(e: &CrashEvidence) -> Check {
    const ID: CheckId = CheckId::SnapshotRank0Only;
    let mut writers: Vec<(u32, String)> = Vec::new();
    let mut saves = 0u64;
    for run in [&e.uninterrupted, &e.interrupted] {
        for rec in &run.records {
            for ev in rec.saves() {
                if let Event::Save { path, .. } = ev {
                    saves += 1;
                    if !writers.iter().any(|(r, p)| *r == rec.rank && p == path) {
                        writers.push((rec.rank, path.clone()));
                    }
                }
            }
        }
    }
    if saves == 0 {
        return fail(ID, Said::NoSnapshot {}, Said::HintSnapshotRank0 {});
    }
    let others: Vec<(u32, String)> = writers.iter().filter(|(r, _)| *r != 0).cloned().collect();
    if !others.is_empty() {
        return fail(ID, Said::SnapshotByOthers { writers: others }, Said::HintGuardSnapshot {});
    }
    let paths: Vec<&str> = writers.iter().map(|(_, p)| p.as_str()).collect();
    pass(ID, Said::SnapshotByRank0 { saves, paths: paths.join(", ") })
}

pub fn final_params(e: &CrashEvidence) -> Check {
    const ID: CheckId = CheckId::FinalParamsMatch;
    match &e.final_params {
        None => skip(ID, Said::FinalUnread {}),
        Some(Difference { identical: true, .. }) => pass(ID, Said::FinalIdentical {}),
        Some(Difference { worst: Some((name, by)), .. }) if *by <= PARAMS_TOLERANCE => {
            let (name, by) = (name.clone(), *by);
            pass(ID, Said::FinalWithin { tolerance: PARAMS_TOLERANCE, by, name })
        }
        Some(Difference { worst, .. }) => {
            let differs = match worst.clone() {
                Some((name, by)) if by.is_finite() => {
                    Said::FinalDiffers { tolerance: PARAMS_TOLERANCE, by, name }
                }
                Some((name, _)) => Said::FinalNotFinite { name },
                None => Said::FinalNotFinite { name: "?".into() },
            };
            fail(ID, differs, Said::HintSnapshotEverything {})
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{correct_run, epoch_pass, sampler, save, shard};

    const LEN: u64 = 64;
    const EPOCHS: u32 = 4;

    fn start(rank: u32, restart: u32) -> Event {
        Event::Start {
            rank,
            world: 2,
            torch: "2.13.0".into(),
            cuda_devices: 0,
            threads: 1,
            time: 0.0,
            restart,
        }
    }

    fn uninterrupted() -> RunEvidence {
        let mut run = correct_run(2, LEN, EPOCHS, 1.0);
        for rec in &mut run.records {
            rec.events.insert(0, start(rec.rank, 0));
        }
        run
    }

    /// Rank 1 killed in epoch `crash` before batch 3; after the restart each rank trains the
    /// epochs `resumed_at..EPOCHS`, with sampler epochs from `sampler_epoch(e)`; rank 0 saves
    /// after each finished epoch (and rank 1 too when `every_rank_saves`).
    fn interrupted(
        crash: u32,
        resumed_at: u32,
        sampler_epoch: fn(u32) -> u32,
        every_rank_saves: bool,
    ) -> RunEvidence {
        let mut run = uninterrupted();
        for rec in &mut run.records {
            let rank = rec.rank;
            let mut events = vec![start(rank, 0)];
            for e in 0..crash {
                events.push(epoch_pass(
                    e,
                    shard(LEN, 2, rank, e),
                    LEN,
                    sampler(e.into()),
                    0.0,
                    1.0,
                ));
                if rank == 0 || every_rank_saves {
                    events.push(save("snapshot.pt", &["model"]));
                }
            }
            if rank == 1 {
                events.push(Event::Crash { loader: 0, pass: crash, batch: 3 });
            }
            events.push(start(rank, 1));
            for (j, e) in (resumed_at..EPOCHS).enumerate() {
                let s = sampler_epoch(e);
                events.push(epoch_pass(
                    j as u32,
                    shard(LEN, 2, rank, s),
                    LEN,
                    sampler(s.into()),
                    0.0,
                    1.0,
                ));
            }
            events.push(Event::End { status: "ok".into(), code: 0 });
            rec.events = events;
        }
        run
    }

    fn evidence(interrupted: RunEvidence, final_params: Option<Difference>) -> CrashEvidence {
        CrashEvidence {
            uninterrupted: uninterrupted(),
            interrupted,
            plan: CrashPlan { rank: 1, loader: 0, pass: 2, batch: 3 },
            final_params,
        }
    }

    fn same() -> Option<Difference> {
        Some(Difference { identical: true, worst: None })
    }

    fn statuses(e: &CrashEvidence) -> Vec<&'static str> {
        all(e).iter().map(|c| c.status.as_str()).collect()
    }

    #[test]
    fn a_correct_resume_passes_every_check_in_order() {
        let e = evidence(interrupted(2, 2, |e| e, false), same());
        let checks = all(&e);
        let declared: Vec<CheckId> = crate::exercises::SURVIVE_A_CRASH.check_ids().collect();
        assert_eq!(checks.iter().map(|c| c.id).collect::<Vec<_>>(), declared);
        assert_eq!(statuses(&e), ["pass"; 5], "{checks:#?}");
        assert!(checks[1].message.starts_with("2 epoch(s) finished before the crash (0, 1)"));
        assert!(checks[0].message.starts_with("rank 1 was killed in epoch 2, before its batch 3"));
    }

    #[test]
    fn starting_over_trains_finished_epochs_twice() {
        let e = evidence(interrupted(2, 0, |e| e, false), same());
        assert_eq!(statuses(&e), ["pass", "fail", "pass", "pass", "pass"]);
        assert!(all(&e)[1]
            .message
            .contains("began again at epoch 0, training 2 finished epoch(s) twice"));
    }

    #[test]
    fn resuming_late_or_early_is_named() {
        let late = evidence(interrupted(2, 3, |e| e, false), same());
        assert!(all(&late)[1].message.ends_with("1 epoch(s) were never trained"));
        let mut early = interrupted(3, 2, |e| e, false);
        // Finished 3 epochs, resumed at 2: epoch 2 twice.
        early
            .records
            .iter_mut()
            .for_each(|r| r.events.retain(|e| !matches!(e, Event::Crash { .. })));
        early.records[1].events.insert(7, Event::Crash { loader: 0, pass: 3, batch: 3 });
        let c = resumed_from_snapshot(&evidence(early, same()));
        assert!(c.message.contains("1 finished epoch(s) were trained twice"), "{}", c.message);
    }

    #[test]
    fn a_resume_that_restarts_the_sampler_count_reads_the_wrong_order() {
        // Resumed at the right epoch, but set_epoch counts from 0 again.
        let e = evidence(interrupted(2, 2, |e| e - 2, false), same());
        assert_eq!(statuses(&e), ["pass", "pass", "fail", "pass", "pass"]);
        let m = &all(&e)[2].message;
        assert!(m.contains("epoch 2 began with") && m.contains("(sampler epoch 0)"), "{m}");
    }

    #[test]
    fn snapshots_from_every_rank_or_none() {
        let e = evidence(interrupted(2, 2, |e| e, true), same());
        assert_eq!(statuses(&e), ["pass", "pass", "pass", "fail", "pass"]);
        assert!(all(&e)[3].message.starts_with("rank 1 wrote snapshot.pt"));
        let mut none = interrupted(2, 0, |e| e, false);
        for rec in &mut none.records {
            rec.events.retain(|e| !matches!(e, Event::Save { .. }));
        }
        let mut e = evidence(none, same());
        for rec in &mut e.uninterrupted.records {
            rec.events.retain(|e| !matches!(e, Event::Save { .. }));
        }
        assert!(snapshot_rank0_only(&e).message.starts_with("no rank called torch.save"));
    }

    #[test]
    fn final_parameters_within_tolerance_or_not() {
        let near = Some(Difference { identical: false, worst: Some(("0.weight".into(), 3e-7)) });
        assert_eq!(
            final_params(&evidence(interrupted(2, 2, |e| e, false), near)).status.as_str(),
            "pass"
        );
        let far = Some(Difference { identical: false, worst: Some(("2.bias".into(), 0.02)) });
        let c = final_params(&evidence(interrupted(2, 2, |e| e, false), far));
        assert_eq!(c.status.as_str(), "fail");
        assert!(c.message.contains("2.000e-2 in 2.bias"), "{}", c.message);
    }

    #[test]
    fn a_crash_that_never_came_or_a_restart_that_failed() {
        let mut run = interrupted(2, 2, |e| e, false);
        run.records[1].events.retain(|e| !matches!(e, Event::Crash { .. }));
        let c = restarted_and_finished(&evidence(run, same()));
        assert!(c.message.contains("but the run never got there"), "{}", c.message);

        let mut run = interrupted(2, 2, |e| e, false);
        let last = run.records[0].events.len() - 1;
        run.records[0].events[last] = Event::Exception {
            kind: "KeyError".into(),
            message: "'optimizer'".into(),
            site: Some("train.py:44".into()),
        };
        let e = evidence(run, same());
        let c = restarted_and_finished(&e);
        assert_eq!(c.status.as_str(), "fail");
        assert!(c.message.contains("rank 0: KeyError: 'optimizer' (train.py:44)"), "{}", c.message);
        assert_eq!(statuses(&e), ["fail", "skip", "skip", "pass", "skip"]);
        assert!(all(&e)[1].message.contains("(see restarted_and_finished)"));
    }

    #[test]
    fn the_crash_lands_mid_epoch_after_the_first() {
        let run = uninterrupted();
        for random in [0u64, 1, 7, 12_345, u64::MAX] {
            let p = CrashPlan::choose(&run, random).unwrap();
            assert!((1..EPOCHS).contains(&p.pass) && p.rank < 2, "{p:?}");
            assert!(p.batch >= 2 && p.batch <= 8, "{p:?}: 32 indices per rank in batches of 4");
        }
        assert_eq!(CrashPlan { rank: 1, loader: 0, pass: 2, batch: 5 }.to_env(), "1:0:2:5");
        let one_epoch = correct_run(2, LEN, 1, 1.0);
        assert_eq!(CrashPlan::choose(&one_epoch, 3), None);
    }
}
