//! The checks of a verdict, as pure judgement: the ten of the conversion exercise over
//! [`evidence::Evidence`], the five of `survive-a-crash` over [`resume::CrashEvidence`]. What
//! the runs' records, logs and tensors showed is held against what a correct script does. Each
//! check states its evidence with numbers, and on failure a hint and the lesson section that
//! teaches the fix.
//!
//! Nothing here reads a file or links libtorch: `gpu-runner` gathers the evidence (it reads the
//! harness's records and compares tensors with tch) and this crate judges it. That split is
//! what lets every check be unit-tested in milliseconds on evidence made up for a corner case,
//! while the real-torch tests in `gpu-runner/tests/grade.rs` prove the gathering.
//!
//! # What is where
//!
//! The checks as pure functions: the conversion's ten of `Evidence` (the harness's records, the
//! ranks' output, timings, and tensor comparisons already made), the crash exercise's five of
//! `resume::CrashEvidence` (both runs, the planned crash, the final parameters compared); the
//! record format (a rank's attempts after torchrun restarts), the verdict's status and summary, and
//! the **exercise registry** (`exercises/`: one file per exercise with its id, the version of its
//! checks, the roles of the runs its grade makes, and its checks in report order, each with the
//! lesson slug and heading id that teach it). The runner has one grader per registered exercise,
//! workers claim by it, `lessons check` holds lessons against it and the web app lists checks from
//! it; tests fail when any of them disagrees. No IO, no tch.

pub mod checkpoint;
pub mod evidence;
pub mod exercises;
pub mod measure;
pub mod outcome;
pub mod process_group;
pub mod rank0_logging;
pub mod record;
pub mod replicas;
pub mod resume;
pub mod sampler;
pub mod speedup;

use grading_protocol::{Check, CheckId, CheckStatus, CheckWords, Said};
use lockstep_routes::Lang;

pub use evidence::{Evidence, RunEvidence};
pub use lockstep_units::{count, plural};
pub use outcome::{nothing_to_grade, summarize};

/// Every check for a graded job, in report order.
pub fn all(evidence: &Evidence) -> Vec<Check> {
    let run = &evidence.ddp[0];
    let sharding = sampler::sharding(run);
    let sharded = sharding.status != CheckStatus::Fail;
    let not_measured = |why: Said| Said::NotMeasured { why: Box::new(why) };
    let speedup = if let Some(why) = &evidence.not_timed {
        skip(CheckId::Speedup, not_measured(why.clone()))
    } else if evidence.single.is_empty() {
        skip(CheckId::Speedup, not_measured(Said::EpochsIncomplete { n: run.nproc }))
    } else {
        speedup::speedup(evidence, sharded)
    };
    let launched = process_group::launched(run);
    let grouped = launched.status == CheckStatus::Pass;
    // Without one process group there is no rank 0, no shard and no all-reduce to judge: the
    // checks that compare ranks within the group would only repeat `launched` in other words,
    // so their failures wait for it (their evidence kept) and the learner sees the cause first.
    let within_group =
        |c: Check| if grouped || c.status == CheckStatus::Pass { c } else { waits_for_launched(c) };
    vec![
        launched,
        process_group::ddp_wrapped(run),
        within_group(sharding),
        sampler::set_epoch(run),
        within_group(rank0_logging::rank0_logging(run)),
        within_group(replicas::in_sync(run)),
        within_group(checkpoint::rank0_only(run)),
        checkpoint::unwrapped(run),
        process_group::no_deadlock(run),
        within_group(speedup),
    ]
}

/// The checks a graded run settles before it ends, to report as they are decided: `launched`
/// once every rank has joined one process group, `ddp_wrapped` once every rank has wrapped its
/// model. Only passes: records only grow, so a pass stands, while a failure is known only when
/// the run is over. `records`: what the ranks have written so far.
pub fn settled_early(nproc: u32, records: &[record::RankRecord]) -> Vec<Check> {
    let run = RunEvidence { nproc, records: records.to_vec(), ..RunEvidence::default() };
    [process_group::launched(&run), process_group::ddp_wrapped(&run)]
        .into_iter()
        .filter(|c| c.status == CheckStatus::Pass)
        .collect()
}

/// How the message of a skipped check that waits for `launched` begins, in English.
pub const WAITS_FOR_LAUNCHED: &str = "not judged until `launched` passes";

fn waits_for_launched(c: Check) -> Check {
    let seen = c.words.map_or(Said::Text { text: c.message }, |w| w.message);
    skip(c.id, Said::WaitsForLaunched { seen: Box::new(seen) })
}

/// A check that said `message` (and `hint`, unless it passed): the sentences are kept for the
/// reader's language, their English as the text every reader of a verdict understands.
fn check(id: CheckId, status: CheckStatus, message: Said, hint: Option<Said>) -> Check {
    let hint = if status == CheckStatus::Pass { None } else { hint };
    // JSON has no NaN or infinity (serde_json writes null, which does not read back as a
    // number): a sentence carrying one would make a verdict nobody can read. The checks give
    // such values sentences of their own; this holds every test to it.
    debug_assert!(
        [Some(&message), hint.as_ref()]
            .into_iter()
            .flatten()
            .all(|s| { serde_json::from_str::<Said>(&serde_json::to_string(s).unwrap()).is_ok() }),
        "{id:?}: a sentence that does not survive JSON: {message:?}"
    );
    Check {
        id,
        status,
        required: true,
        message: message.say(Lang::En),
        hint: hint.as_ref().map(|h| h.say(Lang::En)),
        section: exercises::section(id),
        words: Some(Box::new(CheckWords { message, hint })),
    }
}

fn pass(id: CheckId, message: Said) -> Check {
    check(id, CheckStatus::Pass, message, None)
}

fn fail(id: CheckId, message: Said, hint: Said) -> Check {
    check(id, CheckStatus::Fail, message, Some(hint))
}

fn skip(id: CheckId, message: Said) -> Check {
    check(id, CheckStatus::Skip, message, None)
}

/// Rank 0's records; empty when the run has none (a run always has one per process started,
/// but evidence is data and may be made up).
fn rank0(run: &RunEvidence) -> &record::RankRecord {
    static NONE: record::RankRecord = record::RankRecord { rank: 0, events: Vec::new() };
    run.records.first().unwrap_or(&NONE)
}

#[cfg(test)]
pub(crate) mod test_support;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_have_thousands_separators() {
        assert_eq!(count(0u64), "0");
        assert_eq!(count(999u64), "999");
        assert_eq!(count(1000u64), "1,000");
        assert_eq!(count(32_768u64), "32,768");
        assert_eq!(count(1_234_567u64), "1,234,567");
    }

    #[test]
    fn a_correct_run_passes_every_check_in_order() {
        let checks = all(&test_support::correct(2.0));
        let declared: Vec<CheckId> = exercises::DDP_CONVERSION.check_ids().collect();
        assert_eq!(checks.iter().map(|c| c.id).collect::<Vec<_>>(), declared);
        for c in &checks {
            assert_eq!((c.status, c.hint.as_deref()), (CheckStatus::Pass, None), "{c:?}");
            assert_eq!(c.section, exercises::section(c.id));
        }
    }

    #[test]
    fn without_one_group_the_within_group_failures_wait_for_launched() {
        let mut e = test_support::correct(2.0);
        let run = &mut e.ddp[0];
        run.records[1].events.retain(|ev| !matches!(ev, record::Event::Init { .. }));
        run.stdout[1] = "loss 1\nloss 2\nloss 3\n".into();
        let checks = all(&e);
        assert_eq!(checks[0].status, CheckStatus::Fail);
        let logging = &checks[4];
        assert_eq!(logging.status, CheckStatus::Skip);
        assert!(logging.message.starts_with("not judged until `launched` passes: the processes did not form one process group (seen: loss lines: rank 0 printed 3, rank 1 printed 3"), "{}", logging.message);
        assert_eq!(checks[4].hint, None);
        // What passes on its own account still passes.
        assert_eq!(checks[2].status, CheckStatus::Pass);
    }

    #[test]
    fn a_run_settles_launched_then_ddp_wrapped_as_it_goes() {
        let done = test_support::correct(2.0).ddp[0].clone();
        let upto = |n: usize| -> Vec<record::RankRecord> {
            done.records
                .iter()
                .map(|r| record::RankRecord {
                    rank: r.rank,
                    events: r.events[..n.min(r.events.len())].to_vec(),
                })
                .collect()
        };
        let at = |kind: fn(&record::Event) -> bool| {
            done.records[0].events.iter().position(kind).unwrap() + 1
        };
        let init = at(|e| matches!(e, record::Event::Init { .. }));
        let ddp = at(|e| matches!(e, record::Event::Ddp { .. }));
        assert!(settled_early(2, &upto(init - 1)).is_empty());
        let ids = |n| settled_early(2, &upto(n)).iter().map(|c| c.id).collect::<Vec<_>>();
        assert_eq!(ids(init), [CheckId::Launched]);
        assert_eq!(ids(ddp), [CheckId::Launched, CheckId::DdpWrapped]);
        // Early passes are the passes the whole run gives.
        let whole = all(&test_support::correct(2.0));
        for c in settled_early(2, &upto(ddp)) {
            assert_eq!(Some(&c), whole.iter().find(|w| w.id == c.id));
        }
        // One rank alone settles nothing.
        let mut one = upto(ddp);
        one[1].events.clear();
        assert!(settled_early(2, &one).is_empty());
    }

    #[test]
    fn without_single_runs_the_speedup_is_not_measured() {
        let mut e = test_support::correct(2.0);
        e.single.clear();
        let c = &all(&e)[9];
        assert_eq!(
            (c.status, c.message.as_str()),
            (CheckStatus::Skip, "not measured: the 2-process run did not complete its epochs")
        );
    }
}
