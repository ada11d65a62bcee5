//! Did only rank 0 write the checkpoint, and is it the unwrapped model's?

use std::collections::BTreeSet;

use grading_protocol::{Check, CheckId};

use crate::evidence::RunEvidence;
use crate::record::{Event, RankRecord};
use crate::{fail, pass, skip};

/// A `torch.save` that carried a state dict.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Save<'a> {
    pub rank: u32,
    pub path: &'a str,
    pub keys: &'a [String],
    /// The harness's safetensors copy of its tensors, when it could make one.
    pub tensors: Option<&'a str>,
}

/// Every save that carried a state dict, rank by rank.
pub fn saves(records: &[RankRecord]) -> Vec<Save<'_>> {
    records
        .iter()
        .flat_map(|r| {
            r.saves().filter_map(move |e| match e {
                Event::Save { path, keys: Some(keys), tensors, .. } => {
                    Some(Save { rank: r.rank, path, keys, tensors: tensors.as_deref() })
                }
                _ => None,
            })
        })
        .collect()
}

/// The checkpoint `checkpoint_unwrapped` judges: rank 0's first, else the first anyone wrote.
/// The runner compares this one's tensors with the final parameters.
pub fn chosen(records: &[RankRecord]) -> Option<Save<'_>> {
    let saves = saves(records);
    saves.iter().find(|s| s.rank == 0).or(saves.first()).copied()
}

pub fn rank0_only(run: &RunEvidence) -> Check {
    const ID: CheckId = CheckId::CheckpointRank0Only;
    let saves = saves(&run.records);
    if saves.is_empty() {
        return fail(
            ID,
            "no rank saved a checkpoint with torch.save",
            "save the trained model's state_dict on rank 0 at the end, as the exercise asks",
        );
    }
    let ranks: BTreeSet<u32> = saves.iter().map(|s| s.rank).collect();
    let paths: BTreeSet<&str> = saves.iter().map(|s| s.path).collect();
    let paths = paths.into_iter().collect::<Vec<_>>().join(", ");
    if ranks.len() == 1 && ranks.contains(&0) {
        return pass(ID, format!("only rank 0 wrote the checkpoint ({paths})"));
    }
    fail(
        ID,
        format!("ranks {ranks:?} wrote checkpoints ({paths})"),
        "guard torch.save with if dist.get_rank() == 0: every rank holds the same weights, and N ranks writing one file race",
    )
}

pub fn unwrapped(run: &RunEvidence) -> Check {
    const ID: CheckId = CheckId::CheckpointUnwrapped;
    let Some(save) = chosen(&run.records) else {
        return skip(ID, "no checkpoint was saved");
    };
    let prefixed: Vec<&String> = save.keys.iter().filter(|k| k.starts_with("module.")).collect();
    let matches = match run.checkpoint_equals_final {
        Some(true) => "; it equals the final parameters",
        Some(false) => "; note: it differs from the final parameters",
        None => "",
    };
    let path = save.path;
    if prefixed.is_empty() {
        return pass(
            ID,
            format!(
                "{path}: {} keys without a module. prefix (first: {}){matches}",
                save.keys.len(),
                save.keys.first().map_or("", |k| k.as_str())
            ),
        );
    }
    fail(
        ID,
        format!("{path}: {} of {} keys start with module. (first: {}){matches}", prefixed.len(), save.keys.len(), prefixed[0]),
        "save model.module.state_dict(), the unwrapped model, so the checkpoint loads into a plain model without DDP",
    )
}

#[cfg(test)]
mod tests {
    use grading_protocol::CheckStatus;

    use super::*;
    use crate::test_support::*;

    #[test]
    fn rank_0_saving_the_unwrapped_model_passes_both() {
        let run = correct_run(2, 8, 1, 1.0);
        assert_eq!(rank0_only(&run).message, "only rank 0 wrote the checkpoint (model.pt)");
        let c = unwrapped(&run);
        assert_eq!(c.status, CheckStatus::Pass);
        assert_eq!(c.message, "model.pt: 2 keys without a module. prefix (first: 0.weight); it equals the final parameters");
    }

    #[test]
    fn every_rank_saving_fails() {
        let mut run = correct_run(2, 8, 1, 1.0);
        run.records[1].events.push(save("model.pt", &["0.weight"]));
        let c = rank0_only(&run);
        assert_eq!(
            (c.status, c.message.as_str()),
            (CheckStatus::Fail, "ranks {0, 1} wrote checkpoints (model.pt)")
        );
    }

    #[test]
    fn a_wrapped_state_dict_fails_and_rank_0_s_save_is_the_one_judged() {
        let mut run = correct_run(2, 8, 1, 1.0);
        run.records[1].events.insert(0, save("early.pt", &["0.weight"]));
        run.records[0].events.push(save("late.pt", &["module.0.weight", "module.0.bias"]));
        run.checkpoint_equals_final = Some(false);
        assert_eq!(chosen(&run.records).unwrap().path, "model.pt", "rank 0's first save");
        run.records[0]
            .events
            .retain(|e| !matches!(e, Event::Save { path, .. } if path == "model.pt"));
        let c = unwrapped(&run);
        assert_eq!(c.status, CheckStatus::Fail);
        assert_eq!(c.message, "late.pt: 2 of 2 keys start with module. (first: module.0.weight); note: it differs from the final parameters");
    }

    #[test]
    fn no_checkpoint_fails_one_check_and_skips_the_other() {
        let mut run = correct_run(2, 8, 1, 1.0);
        run.records[0].events.retain(|e| !matches!(e, Event::Save { .. }));
        assert_eq!(rank0_only(&run).status, CheckStatus::Fail);
        assert_eq!(unwrapped(&run).status, CheckStatus::Skip);
    }
}
