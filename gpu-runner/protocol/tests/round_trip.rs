//! The protocol reads and writes exactly the JSON `gpu-runner grade --json` printed before the
//! verdict moved into this crate: the verdicts in `tests/verdicts/` were graded by real torch
//! with that older runner (a pass, a failure with checks waiting for `launched`, an `error`,
//! and a failure with a hint). Each must come back byte for byte as the same JSON value.

use grading_protocol::{CheckId, CheckStatus, RunRole, Status, Verdict};

fn verdict(name: &str) -> (serde_json::Value, Verdict) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/verdicts").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    let verdict: Verdict = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
    (value, verdict)
}

#[test]
fn every_recorded_verdict_round_trips() {
    for name in ["solution.json", "own_world.json", "syntax_error.json", "module_forward.json"] {
        let (value, verdict) = verdict(name);
        assert_eq!(serde_json::to_value(&verdict).unwrap(), value, "{name}");
        let again: Verdict =
            serde_json::from_value(serde_json::to_value(&verdict).unwrap()).unwrap();
        assert_eq!(again, verdict, "{name}");
    }
}

#[test]
fn the_enums_read_what_the_runner_wrote() {
    let (_, pass) = verdict("solution.json");
    assert_eq!(pass.status, Status::Pass);
    assert_eq!(pass.checks.iter().map(|c| c.id).collect::<Vec<_>>(), CheckId::CONVERSION);
    assert_eq!(
        pass.runs.iter().map(|r| r.role).collect::<Vec<_>>(),
        [RunRole::Ddp, RunRole::Single]
    );

    let (_, own_world) = verdict("own_world.json");
    assert_eq!(own_world.status, Status::Fail);
    let skipped: Vec<CheckId> =
        own_world.checks.iter().filter(|c| c.status == CheckStatus::Skip).map(|c| c.id).collect();
    assert!(skipped.contains(&CheckId::Rank0Logging), "{skipped:?}");

    let (_, error) = verdict("syntax_error.json");
    assert_eq!(error.status, Status::Error);
    assert!(error.checks.is_empty());
    assert_eq!(error.error.as_ref().and_then(|e| e.line), Some(32));
}

#[test]
fn the_report_names_every_check() {
    let (_, v) = verdict("module_forward.json");
    let report = v.report();
    assert!(report.starts_with("FAIL: 1 of 10 checks failed: replicas_in_sync\n"), "{report}");
    for id in CheckId::CONVERSION {
        assert!(report.contains(id.as_str()), "{id} missing from\n{report}");
    }
    assert!(report.contains("run: 2 × ddp (gloo)"), "{report}");
}
