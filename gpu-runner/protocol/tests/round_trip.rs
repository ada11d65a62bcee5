//! The protocol reads and writes exactly the JSON `gpu-runner grade --json` printed before the
//! verdict moved into this crate: the verdicts in `tests/verdicts/` were graded by real torch
//! with that older runner (a pass, a failure with checks waiting for `launched`, an `error`,
//! and a failure with a hint). Each must come back as the same JSON value, but for one change
//! made since: a check names the section that teaches it by ids (`section`), where those
//! verdicts carry its English URL (`lesson`).

use grading_protocol::{CheckId, CheckStatus, RunRole, Status, Verdict};
use serde_json::{json, Value};

fn verdict(name: &str) -> (serde_json::Value, Verdict) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/verdicts").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    let verdict: Verdict = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
    (value, verdict)
}

/// The verdict as written now: each check's `lesson` URL as a `section` of ids.
fn with_sections(mut value: Value) -> Value {
    for check in value["checks"].as_array_mut().unwrap() {
        let check = check.as_object_mut().unwrap();
        let url = check.remove("lesson").unwrap();
        let (lesson, heading) =
            url.as_str().unwrap().strip_prefix("/lessons/").unwrap().split_once('#').unwrap();
        check.insert("section".into(), json!({"lesson": lesson, "heading": heading}));
    }
    value
}

#[test]
fn every_recorded_verdict_round_trips() {
    for name in ["solution.json", "own_world.json", "syntax_error.json", "module_forward.json"] {
        let (value, verdict) = verdict(name);
        assert_eq!(serde_json::to_value(&verdict).unwrap(), with_sections(value), "{name}");
        let again: Verdict =
            serde_json::from_value(serde_json::to_value(&verdict).unwrap()).unwrap();
        assert_eq!(again, verdict, "{name}");
    }
}

#[test]
fn the_enums_read_what_the_runner_wrote() {
    let (_, pass) = verdict("solution.json");
    assert_eq!(pass.status, Status::Pass);
    assert_eq!(pass.checks.len(), 10);
    assert_eq!(pass.checks[0].id, CheckId::Launched);
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
    for c in &v.checks {
        assert!(report.contains(c.id.as_str()), "{} missing from\n{report}", c.id);
    }
    assert!(report.contains("see /lessons/ddp-allreduce#backward-bucketed"), "{report}");
    assert!(report.contains("run: 2 × ddp (gloo)"), "{report}");
}
