//! Keeps the database's record of when each lesson was first published in step with the lessons
//! served: the achievements about a whole course are judged against the lessons published at
//! each event, so a lesson published later never takes one back (`lockstep_xp::achievements`).
//! Every app server records what it serves; the first record of a lesson stands, so all of
//! them judge alike.

use std::sync::{Arc, Weak};
use std::time::{Duration, UNIX_EPOCH};

use lockstep_course::live::{LiveCourse, Loaded};
use lockstep_store::Store;

/// How often the lessons served are compared with what was recorded: a lesson published
/// between two looks counts as published at the second look, which favours the learner.
const EVERY: Duration = Duration::from_secs(1);

/// Records the lessons served now, and gives the course what the database says.
pub async fn sync(
    store: &Store,
    course: &LiveCourse,
) -> Result<Arc<Loaded>, lockstep_store::StoreError> {
    let loaded = course.loaded();
    let ready: Vec<String> = loaded
        .course
        .lessons
        .iter()
        .filter(|l| l.ready().is_some())
        .map(|l| l.slug().to_string())
        .collect();
    let now = lockstep_clock::now_s();
    let recorded = store.record_publications(&ready, now).await?;
    let publications = recorded
        .into_iter()
        .map(|(lesson, at)| (lesson, UNIX_EPOCH + Duration::from_secs(at.max(0) as u64)))
        .collect();
    course.set_publications(publications);
    Ok(course.loaded())
}

/// [`sync`] whenever the lessons served change, for as long as the course is served.
pub fn follow(store: Store, course: Weak<LiveCourse>, mut seen: Arc<Loaded>) {
    tokio::spawn(async move {
        loop {
            tokio::time::sleep(EVERY).await;
            let Some(course) = course.upgrade() else { return };
            if Arc::ptr_eq(&course.loaded(), &seen) {
                continue;
            }
            match sync(&store, &course).await {
                Ok(now) => seen = now,
                Err(e) => tracing::error!("recording the lessons published: {e}"),
            }
        }
    });
}
