//! The lessons' runnable scripts, run for real: each is cut out of its lesson exactly as a
//! learner copies it and started the way the lesson says, under `torchrun` with 2 processes
//! (gloo on CPU) or plain Python, with the pinned torch of the set-up's environment. What it
//! prints must show what the lesson says it shows.
//!
//! Needs the set-up's Python environment (`LOCKSTEP_VENV`, else `~/.cache/lockstep/venv`), as
//! `cargo xtask test` provides.

mod common;

use std::path::Path;

/// A script of a lesson, by the file name its code block's title gives it.
struct Snippet {
    lesson: &'static str,
    file: &'static str,
    /// Processes under `torchrun --standalone`; `None` runs it with plain Python.
    nproc: Option<u32>,
    /// Further `torchrun` options, before the script.
    torchrun: &'static [&'static str],
    env: &'static [(&'static str, &'static str)],
    exit: i32,
    /// Lines of standard output (or error) the lesson promises, each a substring. Two ranks'
    /// lines can interleave mid-line on the shared output, so a rank's line is matched up to
    /// its verdict and the verdicts with `never`.
    prints: &'static [&'static str],
    /// What must not appear anywhere: a `False` where the lesson promises `True`.
    never: &'static [&'static str],
}

const SNIPPETS: &[Snippet] = &[
    Snippet {
        lesson: "03-ddp-allreduce.md",
        file: "ddp_check.py",
        nproc: Some(2),
        torchrun: &[],
        env: &[],
        exit: 0,
        prints: &[
            "rank 0: DDP grad == mean of local grads:",
            "rank 1: DDP grad == mean of local grads:",
            "replicas identical after step: True",
        ],
        never: &["False"],
    },
    Snippet {
        lesson: "05-torchrun.md",
        file: "train.py",
        nproc: Some(2),
        torchrun: &[],
        env: &[],
        exit: 0,
        prints: &["global rank 1 of 2, local rank 1, device cpu", "sum of ranks = 1"],
        never: &[],
    },
    Snippet {
        lesson: "06-checkpoints-and-pitfalls.md",
        file: "ddp_classifier.py",
        nproc: Some(2),
        torchrun: &[],
        env: &[],
        exit: 0,
        prints: &["epoch 0: loss ", "epoch 2: loss "],
        never: &[],
    },
    Snippet {
        lesson: "07-accumulation-and-mixed-precision.md",
        file: "accumulate.py",
        nproc: Some(2),
        torchrun: &[],
        env: &[],
        exit: 0,
        prints: &[
            "accumulated grad == big-batch grad: True",
            "all-reduce calls per optimizer step with no_sync: 1; without: 4",
            "grads equal across ranks inside no_sync (micro-batch 1): False",
        ],
        never: &[],
    },
    Snippet {
        lesson: "07-accumulation-and-mixed-precision.md",
        file: "amp_accumulate.py",
        nproc: Some(2),
        torchrun: &[],
        env: &[],
        exit: 0,
        prints: &[
            "stepped on each rank [False, False]",
            "scale on each rank [32768, 32768]",
            "replicas identical: True",
        ],
        never: &[],
    },
    Snippet {
        lesson: "10-when-ddp-is-not-enough.md",
        file: "memory_shards.py",
        nproc: Some(2),
        torchrun: &[],
        env: &[],
        exit: 0,
        prints: &[
            "replica Adam state 2,103,296 bytes = 8*psi: True (+ 16 bytes of step counters)",
            "local params 131,456 of 262,912 = psi/2: True; bytes params 525,824, grads 525,824, Adam 1,051,648",
            "sharded step == unsharded step: True",
        ],
        never: &[],
    },
    Snippet {
        lesson: "08-debugging-hangs.md",
        file: "crash.py",
        nproc: Some(2),
        torchrun: &[],
        env: &[],
        exit: 1,
        prints: &[
            "Root Cause (first observed failure):",
            "rank      : 1 (local_rank: 1)",
            "ValueError: rank 1: corrupt batch at step 1",
        ],
        never: &[],
    },
    Snippet {
        lesson: "08-debugging-hangs.md",
        file: "unused_params.py",
        nproc: Some(2),
        torchrun: &[],
        env: &[("TORCH_DISTRIBUTED_DEBUG", "INFO")],
        exit: 1,
        prints: &[
            "rank 0: step 0 done",
            "Expected to have finished reduction in the prior iteration",
            "Parameters which did not receive grad for rank 0: head_b.bias, head_b.weight",
        ],
        never: &[],
    },
    Snippet {
        lesson: "08-debugging-hangs.md",
        file: "unused_params.py",
        nproc: Some(2),
        torchrun: &[],
        env: &[("FIX", "find_unused")],
        exit: 0,
        prints: &["FIX=find_unused: replicas identical: True", "rank 0: step 2 done"],
        never: &[],
    },
    Snippet {
        lesson: "08-debugging-hangs.md",
        file: "unused_params.py",
        nproc: Some(2),
        torchrun: &[],
        env: &[("FIX", "static")],
        exit: 0,
        prints: &["FIX=static: replicas identical: True"],
        never: &[],
    },
    Snippet {
        lesson: "08-debugging-hangs.md",
        file: "find_missing_rank.py",
        nproc: Some(2),
        torchrun: &[],
        env: &[],
        exit: 1,
        prints: &["Rank 1 failed to pass monitoredBarrier"],
        never: &[],
    },
];

/// The body of the ```` ```python title="FILE…" ```` block of `lesson`.
fn cut(lesson: &str, file: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../lessons/ddp").join(lesson);
    let text = std::fs::read_to_string(&path).unwrap();
    let mut lines = text.lines();
    let opening = [format!("```python title=\"{file}:"), format!("```python title=\"{file}\"")];
    lines
        .by_ref()
        .find(|l| opening.iter().any(|o| l.starts_with(o.as_str())))
        .unwrap_or_else(|| panic!("{lesson} has no code block titled {file}"));
    let body: Vec<&str> = lines.take_while(|l| !l.starts_with("```")).collect();
    body.join("\n") + "\n"
}

fn run(s: &Snippet) -> (i32, String) {
    run_in(tempfile::tempdir().unwrap().path(), s)
}

fn run_in(dir: &Path, s: &Snippet) -> (i32, String) {
    std::fs::write(dir.join(s.file), cut(s.lesson, s.file)).unwrap();
    let mut cmd = common::launcher(s.nproc, s.torchrun, s.file);
    cmd.envs(s.env.iter().copied());
    let (code, text) = common::run(cmd, dir);
    (code.unwrap_or(-1), text)
}

#[test]
fn every_runnable_script_does_what_its_lesson_says() {
    let mut failures = Vec::new();
    for s in SNIPPETS {
        let judge = |(code, output): &(i32, String)| {
            let missing: Vec<&str> =
                s.prints.iter().copied().filter(|p| !output.contains(p)).collect();
            let unwanted: Vec<&str> =
                s.never.iter().copied().filter(|p| output.contains(p)).collect();
            (*code == s.exit && missing.is_empty() && unwanted.is_empty(), missing, unwanted)
        };
        let result = common::attempts(s.file, || run(s), |r| judge(r).0);
        let (passed, missing, unwanted) = judge(&result);
        if !passed {
            let (code, output) = result;
            failures.push(format!(
                "{} {}: exit {code} (want {}), missing {missing:?}, unwanted {unwanted:?}\n{output}",
                s.lesson, s.file, s.exit
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Lesson 9's demonstration: rank 1 dies in epoch 2 of the first attempt, torchrun restarts
/// both ranks, they resume from the snapshot, and the final weights are those of a run that
/// never crashed, to the bit (the checksum of every parameter's bytes).
#[test]
fn the_resume_demo_ends_where_an_uninterrupted_run_ends() {
    let crashing = Snippet {
        lesson: "09-fault-tolerance.md",
        file: "resume_demo.py",
        nproc: Some(2),
        torchrun: &["--max-restarts=1"],
        env: &[("TORCH_DISABLE_SHARE_RDZV_TCP_STORE", "1")],
        exit: 0,
        prints: &["rank 1: crashing in epoch 2, step 3", "resumed at epoch 2 (restart 1)"],
        never: &[],
    };
    let uninterrupted = Snippet { torchrun: &[], env: &[("CRASH", "0")], prints: &[], ..crashing };
    let checksum = |s: &Snippet| {
        let dir = tempfile::tempdir().unwrap();
        let (code, out) = run_in(dir.path(), s);
        assert_eq!(code, 0, "{out}");
        for p in s.prints {
            assert!(out.contains(p), "missing {p:?} in\n{out}");
        }
        let line =
            out.lines().find(|l| l.contains("final checksum ")).unwrap_or_else(|| panic!("{out}"));
        line.rsplit(' ').next().unwrap().to_string()
    };
    let (a, b) = (checksum(&crashing), checksum(&uninterrupted));
    assert_eq!(a.len(), 16, "{a}");
    assert_eq!(a, b, "the resumed run's weights differ from the uninterrupted run's");
}

/// The cutter finds what a learner would copy, and says when a block is missing.
#[test]
fn cuts_the_titled_block() {
    let body = cut("03-ddp-allreduce.md", "ddp_check.py");
    assert!(body.starts_with("import os\n") && body.contains("def main():"), "{body}");
    assert!(std::panic::catch_unwind(|| cut("03-ddp-allreduce.md", "nope.py")).is_err());
}
