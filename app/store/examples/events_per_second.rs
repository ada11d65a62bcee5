//! How many XP events a second the store records: `concurrency` tasks, each recording distinct
//! actions for its own learner (every one a real insert), then the same actions again (every
//! one refused by the unique index, which is what a replayed form costs).
//!
//!   cargo run --release -p lockstep-store --example events_per_second -- URL [EVENTS] [TASKS]
//!
//! URL is `sqlite://PATH?mode=rwc` or `postgres://…` (an empty database: it is written to).

use std::time::Instant;

use lockstep_store::Store;
use lockstep_xp::Action;

#[tokio::main]
async fn main() {
    let mut args = std::env::args().skip(1);
    let Some(url) = args.next() else {
        eprintln!("usage: events_per_second URL [EVENTS] [TASKS]");
        std::process::exit(2);
    };
    let events: u32 = args.next().map_or(20_000, |a| a.parse().expect("EVENTS is a number"));
    let tasks: u32 = args.next().map_or(16, |a| a.parse().expect("TASKS is a number"));
    let store = Store::connect(&url).await.expect("connect");
    let run = |repeat: bool| {
        let store = store.clone();
        async move {
            let start = Instant::now();
            let handles: Vec<_> = (0..tasks)
                .map(|t| {
                    let store = store.clone();
                    tokio::spawn(async move {
                        let learner = format!("bench{t:04}");
                        store.issue_learner(&learner, 0).await.expect("learner");
                        let mut new = 0u32;
                        for i in 0..events / tasks {
                            let action = Action::SimulationExplored {
                                lesson: format!("l{}", i / 1000),
                                sim: i % 1000,
                            };
                            new += u32::from(
                                store.record(&learner, &action, 1).await.expect("record"),
                            );
                        }
                        new
                    })
                })
                .collect();
            let mut new = 0;
            for h in handles {
                new += h.await.unwrap();
            }
            let secs = start.elapsed().as_secs_f64();
            let done = events / tasks * tasks;
            println!(
                "{:<8} {:>6} events, {:>6} new, {tasks} tasks: {:>8.0} events/s ({:.2} s)",
                if repeat { "repeats" } else { "first" },
                done,
                new,
                f64::from(done) / secs,
                secs
            );
        }
    };
    println!("{:?}", store.backend());
    run(false).await;
    run(true).await;
}
