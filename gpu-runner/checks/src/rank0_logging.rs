//! Did only rank 0 print the loss, once per epoch?

use grading_protocol::{Check, CheckId};

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
    let others: Vec<String> = counts
        .iter()
        .enumerate()
        .skip(1)
        .filter(|(_, &c)| c > 0)
        .map(|(r, c)| format!("rank {r} printed {c}"))
        .collect();
    let on_rank0 = counts.first().copied().unwrap_or(0);
    if !others.is_empty() {
        let example =
            run.stdout.iter().skip(1).flat_map(|o| loss_lines(o)).next().unwrap_or("").trim();
        return fail(
            ID,
            format!(
                "loss lines: rank 0 printed {on_rank0}, {} (for example \"{}\")",
                others.join(", "),
                example.chars().take(80).collect::<String>()
            ),
            "print from rank 0 only (if dist.get_rank() == 0), after averaging the loss across ranks with all_reduce",
        );
    }
    if on_rank0 == 0 {
        return fail(
            ID,
            format!("no rank printed a loss line ({epochs} epochs ran)"),
            "print the epoch's loss on rank 0 once per epoch, as the single-GPU script did",
        );
    }
    if epochs > 0 && on_rank0 < epochs {
        return fail(
            ID,
            format!("rank 0 printed {on_rank0} loss lines for {epochs} epochs"),
            "print the loss once per epoch, on rank 0",
        );
    }
    pass(ID, format!("only rank 0 printed loss lines: {on_rank0} for {epochs} epochs"))
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
