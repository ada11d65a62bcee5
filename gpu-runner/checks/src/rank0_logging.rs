//! Did only rank 0 print the loss, once per epoch?

use grading_protocol::{Check, CheckId, Said};

use crate::evidence::RunEvidence;
use crate::{fail, pass, rank0};

/// Lines that report a loss: the exercise prints `epoch N: loss …`.
fn loss_lines(out: &str) -> Vec<&str> {
    out.lines().filter(|l| l.to_lowercase().contains("loss")).collect()
}

pub fn rank0_logging(run: &RunEvidence) -> Check {
    const ID: CheckId = CheckId::Rank0Logging;
    let epochs = rank0(run).training_passes().len();
    let counts: Vec<usize> = run.stdout.iter().map(|o| loss_lines(o).len()).collect();
    let others: Vec<(u32, u64)> = counts
        .iter()
        .enumerate()
        .skip(1)
        .filter(|(_, &c)| c > 0)
        .map(|(r, &c)| (r as u32, c as u64))
        .collect();
    let on_rank0 = counts.first().copied().unwrap_or(0) as u64;
    let epochs = epochs as u64;
    if !others.is_empty() {
        let example =
            run.stdout.iter().skip(1).flat_map(|o| loss_lines(o)).next().unwrap_or("").trim();
        let example = example.chars().take(80).collect();
        return fail(ID, Said::LoggedOnOthers { on_rank0, others, example }, Said::HintLogRank0 {});
    }
    if on_rank0 == 0 {
        return fail(ID, Said::NoLoss { epochs }, Said::HintLogEpoch {});
    }
    if epochs > 0 && on_rank0 < epochs {
        return fail(ID, Said::FewLosses { on_rank0, epochs }, Said::HintLogOnce {});
    }
    pass(ID, Said::LoggedOnRank0 { lines: on_rank0, epochs })
}

#[cfg(test)]
mod tests {
    use grading_protocol::CheckStatus;

    use super::*;
    use crate::test_support::*;

    #[test]
    fn rank_0_once_per_epoch_passes() {
        let c = rank0_logging(&correct_run(2, 8, 3, 1.0));
        assert_eq!(
            (c.status, c.message.as_str()),
            (CheckStatus::Pass, "only rank 0 printed loss lines: 3 for 3 epochs")
        );
    }

    #[test]
    fn every_rank_logging_fails_with_an_example() {
        let mut run = correct_run(2, 8, 2, 1.0);
        run.stdout[1] = "warming up\nEpoch 0 Loss: 0.5\n".into();
        let c = rank0_logging(&run);
        assert_eq!(c.status, CheckStatus::Fail);
        assert_eq!(
            c.message,
            "loss lines: rank 0 printed 2, rank 1 printed 1 (for example \"Epoch 0 Loss: 0.5\")"
        );
    }

    #[test]
    fn silence_and_too_few_lines_fail() {
        let mut run = correct_run(2, 8, 3, 1.0);
        run.stdout[0] = String::new();
        assert_eq!(rank0_logging(&run).message, "no rank printed a loss line (3 epochs ran)");
        run.stdout[0] = "loss 1\n".into();
        assert_eq!(rank0_logging(&run).message, "rank 0 printed 1 loss lines for 3 epochs");
    }
}
