//! Did only rank 0 write the checkpoint, and is it the unwrapped model's?

use std::collections::BTreeSet;

use grading_protocol::{Check, CheckId, Said};

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
        return fail(ID, Said::NoCheckpoint {}, Said::HintSaveCheckpoint {});
    }
    let ranks: BTreeSet<u32> = saves.iter().map(|s| s.rank).collect();
    let paths: BTreeSet<&str> = saves.iter().map(|s| s.path).collect();
    let paths = paths.into_iter().collect::<Vec<_>>().join(", ");
    if ranks.len() == 1 && ranks.contains(&0) {
        return pass(ID, Said::CheckpointByRank0 { paths });
    }
    let ranks = ranks.into_iter().collect();
    fail(ID, Said::CheckpointByMany { ranks, paths }, Said::HintGuardSave {})
}

pub fn unwrapped(run: &RunEvidence) -> Check {
    const ID: CheckId = CheckId::CheckpointUnwrapped;
    let Some(save) = chosen(&run.records) else {
        return skip(ID, Said::NoCheckpointSaved {});
    };
    let prefixed: Vec<&String> = save.keys.iter().filter(|k| k.starts_with("module.")).collect();
    let equals_final = run.checkpoint_equals_final;
    let (path, keys) = (save.path.to_string(), save.keys.len() as u64);
    if prefixed.is_empty() {
        let first = save.keys.first().cloned().unwrap_or_default();
        return pass(ID, Said::Unprefixed { path, keys, first, equals_final });
    }
    let (prefixed, first) = (prefixed.len() as u64, prefixed[0].clone());
    fail(ID, Said::Prefixed { path, prefixed, keys, first, equals_final }, Said::HintSaveModule {})
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
