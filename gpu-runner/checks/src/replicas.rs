//! Did every rank end with the same parameters? DDP keeps replicas identical bit for bit: every
//! rank applies the same averaged gradients to the same starting weights.

use grading_protocol::{Check, CheckId, Said};

use crate::evidence::RunEvidence;
use crate::record::{Params, ParamsSource};
use crate::{fail, pass, skip};

pub fn in_sync(run: &RunEvidence) -> Check {
    const ID: CheckId = CheckId::ReplicasInSync;
    let files: Option<Vec<Params>> =
        run.records.iter().map(|r| r.params().first().copied()).collect();
    let Some(files) = files.filter(|f| !f.is_empty()) else {
        return skip(ID, Said::NoParams {});
    };
    let by_hand = files[0].source == ParamsSource::Optimizer;
    let Some(compared) = &run.final_params else {
        return skip(ID, Said::Rank0ParamsUnread {});
    };
    let Some(reference) = compared.reference else {
        return skip(ID, Said::Rank0ParamsUnread {});
    };
    let mut worst: Option<(u32, &str, f64)> = None;
    for (rank, difference) in &compared.others {
        let Some(d) = difference else {
            return skip(ID, Said::ParamsUnread { rank: *rank });
        };
        if !d.identical {
            let (name, by) = d.worst.as_ref().map_or(("", 0.0), |(n, by)| (n.as_str(), *by));
            if worst.is_none_or(|w| by > w.2) {
                worst = Some((*rank, name, by));
            }
        }
    }
    let Some((rank, name, by)) = worst else {
        let (ranks, tensors, values) =
            (files.len() as u64, reference.tensors as u64, reference.values);
        return pass(ID, Said::InSync { ranks, tensors, values, by_hand });
    };
    let bypassed = !by_hand && files.iter().any(|p| p.forwards == 0);
    let hint = if by_hand {
        Said::HintNothingAverages {}
    } else if bypassed {
        Said::HintBypassed {}
    } else {
        Said::HintSameGradients {}
    };
    let name = name.to_string();
    let said = if by.is_finite() {
        Said::Diverged { rank, name, by, by_hand }
    } else {
        Said::DivergedNotFinite { rank, name, by_hand }
    };
    fail(ID, said, hint)
}

#[cfg(test)]
mod tests {
    use grading_protocol::CheckStatus;

    use super::*;
    use crate::evidence::Difference;
    use crate::record::Event;
    use crate::test_support::*;

    fn differs(by: f64) -> Option<Difference> {
        Some(Difference { identical: false, worst: Some(("0.weight".into(), by)) })
    }

    #[test]
    fn identical_replicas_pass() {
        let c = in_sync(&correct_run(2, 8, 1, 1.0));
        assert_eq!(c.status, CheckStatus::Pass);
        assert_eq!(
            c.message,
            "all 2 ranks ended with identical parameters, bit for bit (2 tensors, 12,345 values)"
        );
    }

    #[test]
    fn the_worst_rank_is_named() {
        let mut run = correct_run(3, 9, 1, 1.0);
        run.final_params.as_mut().unwrap().others = vec![(1, differs(1e-3)), (2, differs(0.25))];
        let c = in_sync(&run);
        assert_eq!(c.status, CheckStatus::Fail);
        assert_eq!(c.message, "rank 2's 0.weight differs from rank 0's by up to 2.500e-1");
        assert!(c.hint.unwrap().starts_with("every rank must apply the same averaged gradients"));
    }

    /// A script whose training blew up on one rank only (NaN there, numbers on rank 0): the
    /// verdict says so without a number, and reads back from its JSON.
    #[test]
    fn a_difference_that_is_no_number_is_said_without_one() {
        let mut run = correct_run(2, 8, 1, 1.0);
        run.final_params.as_mut().unwrap().others = vec![(1, differs(f64::INFINITY))];
        let c = in_sync(&run);
        assert_eq!(c.status, CheckStatus::Fail);
        assert!(c.message.contains("NaN or infinite values on one side only"), "{}", c.message);
        let json = serde_json::to_string(&c).unwrap();
        assert_eq!(serde_json::from_str::<Check>(&json).unwrap(), c);
    }

    #[test]
    fn a_rank_that_bypassed_the_ddp_model_is_told_so() {
        let mut run = correct_run(2, 8, 1, 1.0);
        run.final_params.as_mut().unwrap().others = vec![(1, differs(0.1))];
        edit(&mut run, 1, |e| match e {
            Event::Params { index, file, when, source, .. } => Some(Event::Params {
                index: *index,
                file: file.clone(),
                when: when.clone(),
                forwards: 0,
                source: *source,
            }),
            _ => None,
        });
        assert!(in_sync(&run).hint.unwrap().contains("call model(x), not model.module(x)"));
    }

    #[test]
    fn without_ddp_the_optimizers_parameters_are_compared() {
        let mut run = correct_run(2, 8, 1, 1.0);
        for r in 0..2 {
            edit(&mut run, r, |e| match e {
                Event::Params { index, file, when, forwards, .. } => Some(Event::Params {
                    index: *index,
                    file: file.clone(),
                    when: when.clone(),
                    forwards: *forwards,
                    source: ParamsSource::Optimizer,
                }),
                _ => None,
            });
        }
        assert!(in_sync(&run)
            .message
            .ends_with("no DDP model, so these are the parameters the optimizer updates)"));
        run.final_params.as_mut().unwrap().others = vec![(1, differs(0.1))];
        assert!(in_sync(&run)
            .hint
            .unwrap()
            .starts_with("without DDP nothing averages the gradients"));
    }

    #[test]
    fn unreadable_or_missing_parameters_are_not_judged() {
        let mut run = correct_run(2, 8, 1, 1.0);
        run.final_params.as_mut().unwrap().others = vec![(1, None)];
        assert_eq!(in_sync(&run).message, "rank 1's final parameters could not be read");
        run.final_params.as_mut().unwrap().reference = None;
        assert_eq!(in_sync(&run).message, "rank 0's final parameters could not be read");
        run.records[1].events.retain(|e| !matches!(e, Event::Params { .. }));
        let c = in_sync(&run);
        assert_eq!(c.status, CheckStatus::Skip);
        assert!(c.message.starts_with("not every rank ended with a model"), "{}", c.message);
    }
}
