//! The queue under its workers, at the store: `WORKERS` tasks play grading workers.
//!   idle:  the queue is empty and every worker asks for a job as fast as it can: the load
//!          idle workers put on the database (real workers ask once a second each);
//!   busy:  `JOBS` submissions queued, then the workers claim, report one event and finish
//!          each as fast as they can: jobs through the queue per second. Afterwards every job
//!          must have been claimed exactly once, with one verdict.
//!
//!   cargo run --release -p lockstep-store --example claims_per_second -- URL [JOBS] [WORKERS] [SECONDS]
//!
//! URL is `sqlite://PATH?mode=rwc` or `postgres://…` (an empty database: it is written to).

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use grading_protocol::live::Event;
use grading_protocol::{RunRole, Status};
use lockstep_store::{NewSubmission, Store};

fn now_ms() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis() as i64
}

#[tokio::main]
async fn main() {
    let mut args = std::env::args().skip(1);
    let Some(url) = args.next() else {
        eprintln!("usage: claims_per_second URL [JOBS] [WORKERS] [SECONDS]");
        std::process::exit(2);
    };
    let number = |a: Option<String>, default: u64, what: &str| {
        a.map_or(default, |a| a.parse().unwrap_or_else(|_| panic!("{what} is a number")))
    };
    let jobs = number(args.next(), 2_000, "JOBS");
    let workers = number(args.next(), 8, "WORKERS");
    let seconds = number(args.next(), 5, "SECONDS");
    let store = Store::connect(&url).await.expect("connect");

    // Idle: nothing to claim.
    let until = Instant::now() + Duration::from_secs(seconds);
    let idle: Vec<_> = (0..workers)
        .map(|w| {
            let store = store.clone();
            tokio::spawn(async move {
                let mut asked = 0u64;
                while Instant::now() < until {
                    let got = store
                        .claim(&format!("w{w}"), None, &["bench"], "idle", 60_000, now_ms())
                        .await;
                    assert!(got.expect("claim").is_none(), "the queue is empty");
                    asked += 1;
                }
                asked
            })
        })
        .collect();
    let mut asked = 0;
    for h in idle {
        asked += h.await.unwrap();
    }
    println!(
        "idle:  {workers} workers asked {asked} times in {seconds} s: {:.0} empty claims/s",
        asked as f64 / seconds as f64
    );

    // Busy: claim, report, finish.
    for i in 0..jobs {
        let learner = format!("l{}", i % 100);
        let new = NewSubmission {
            learner: &learner,
            exercise: "bench",
            file_name: "train.py",
            script: "print(1)\n",
        };
        store.issue_learner(&learner, 0).await.expect("learner");
        let limit = lockstep_store::Limit::new(format!("submit:{learner}"), u64::MAX, 3600);
        store.submit(&new, now_ms(), &limit).await.expect("submit").expect("no limit");
    }
    let start = Instant::now();
    let busy: Vec<_> = (0..workers)
        .map(|w| {
            let store = store.clone();
            tokio::spawn(async move {
                let mut done = Vec::new();
                let mut n = 0;
                loop {
                    let lease = format!("w{w}-{n}");
                    n += 1;
                    let Some(job) = store
                        .claim(&format!("w{w}"), None, &["bench"], &lease, 60_000, now_ms())
                        .await
                        .expect("claim")
                    else {
                        return done;
                    };
                    let event = Event::RunStarted { index: 1, role: RunRole::Ddp, nproc: 2 };
                    store.report(job.job, &lease, &event, now_ms()).await.expect("report");
                    let stored = store
                        .finish(job.job, &lease, Status::Fail, "bench", "{}", now_ms())
                        .await
                        .expect("finish");
                    assert!(stored.is_some(), "the holder's verdict is stored");
                    done.push(job.submission.id);
                }
            })
        })
        .collect();
    let mut all = Vec::new();
    for h in busy {
        all.extend(h.await.unwrap());
    }
    let took = start.elapsed().as_secs_f64();
    let unique: BTreeSet<i64> = all.iter().copied().collect();
    assert_eq!((all.len(), unique.len()), (jobs as usize, jobs as usize), "each job once");
    println!(
        "busy:  {workers} workers took {jobs} jobs through claim, one event and the verdict in {took:.2} s: {:.0} jobs/s; each claimed once",
        jobs as f64 / took
    );
}
