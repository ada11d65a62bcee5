//! Comments on SQLite and the real PostgreSQL server: threads and replies in order, what an
//! author and an instructor may do, and the limits and the repeat rule under parallel posts.

mod common;

use common::{postgres, sqlite};
use lockstep_store::{
    About, Limit, Moderation, NewComment, NewReport, Rejected, ReportStatus, Store,
    REPEAT_WINDOW_MS,
};

const LESSON: &str = "lesson:distributed-sampler";

fn comment<'a>(account: i64, body: &'a str, parent: Option<i64>) -> NewComment<'a> {
    NewComment { place: LESSON, parent, account, body, section: None, hold_newcomers: false }
}

fn unlimited(account: i64) -> Vec<Limit> {
    vec![Limit::new(format!("comment:{account}"), u64::MAX, 3600)]
}

async fn post(store: &Store, new: &NewComment<'_>, at_ms: i64) -> Result<i64, Rejected> {
    store.post_comment(new, &unlimited(new.account), at_ms).await.unwrap()
}

async fn accounts(store: &Store) -> (i64, i64) {
    let ada = store.create_account("ada@example.org", "h", "acct-ada", 1).await.unwrap().unwrap();
    let bo = store.create_account("bo@example.org", "h", "acct-bo", 1).await.unwrap().unwrap();
    (ada.id, bo.id)
}

async fn threads_replies_and_their_order(store: &Store) {
    let (ada, bo) = accounts(store).await;
    store.set_display_name(ada, Some("에이다")).await.unwrap();
    let first =
        post(store, &comment(ada, "set_epoch가 왜 필요한가요?", None), 1_000).await.unwrap();
    let second = post(store, &comment(bo, "Why 0-based?", None), 2_000).await.unwrap();
    let reply =
        post(store, &comment(bo, "seed + epoch 때문이에요", Some(first)), 3_000).await.unwrap();
    let order: Vec<i64> = store.comments_at(LESSON).await.unwrap().iter().map(|c| c.id).collect();
    assert_eq!(order, [first, reply, second], "the thread with the newest reply first");
    let shown = store.comments_at(LESSON).await.unwrap();
    assert_eq!(shown[0].display_name.as_deref(), Some("에이다"));
    assert_eq!(shown[0].learner_id, "acct-ada");
    assert_eq!(shown[0].activity_ms, 3_000);
    assert!(store.comments_at("lesson:other").await.unwrap().is_empty());

    // One level of replies, and only to a thread at the same place.
    assert_eq!(
        post(store, &comment(ada, "x", Some(reply)), 4_000).await,
        Err(Rejected::NoSuchThread)
    );
    let elsewhere = NewComment { place: "lesson:other", ..comment(ada, "x", Some(first)) };
    assert_eq!(post(store, &elsewhere, 4_000).await, Err(Rejected::NoSuchThread));
    assert_eq!(
        post(store, &comment(ada, "x", Some(999_999)), 4_000).await,
        Err(Rejected::NoSuchThread)
    );

    // The same text again is refused within the window, allowed after it.
    let again = comment(bo, "Why 0-based?", None);
    assert_eq!(post(store, &again, 5_000).await, Err(Rejected::Repeated));
    assert!(post(store, &again, 2_000 + REPEAT_WINDOW_MS + 1).await.is_ok());

    // Edits: the author's own, within the window.
    assert_eq!(
        store.edit_comment(second, ada, "mine now", 900_000, 6_000).await.unwrap(),
        Err(Rejected::NotYours)
    );
    assert_eq!(
        store.edit_comment(second, bo, "Why zero-based?", 900_000, 6_000).await.unwrap(),
        Ok(())
    );
    assert_eq!(
        store.edit_comment(second, bo, "late", 900_000, 2_000 + 900_001).await.unwrap(),
        Err(Rejected::TooLate)
    );
    let edited =
        store.comments_at(LESSON).await.unwrap().into_iter().find(|c| c.id == second).unwrap();
    assert_eq!((edited.body.as_str(), edited.edited_ms), ("Why zero-based?", Some(6_000)));

    // Deleting: a thread with replies stays as "deleted"; a reply goes; another's is refused.
    assert_eq!(store.delete_comment(first, bo, 7_000).await.unwrap(), Err(Rejected::NotYours));
    assert_eq!(store.delete_comment(first, ada, 7_000).await.unwrap(), Ok(()));
    let kept =
        store.comments_at(LESSON).await.unwrap().into_iter().find(|c| c.id == first).unwrap();
    assert_eq!((kept.body.as_str(), kept.deleted_ms), ("", Some(7_000)));
    assert_eq!(
        store.delete_comment(first, ada, 7_500).await.unwrap(),
        Err(Rejected::NotYours),
        "once"
    );
    assert_eq!(
        post(store, &comment(bo, "more", Some(first)), 8_000).await,
        Err(Rejected::NoSuchThread)
    );
    assert_eq!(store.delete_comment(reply, bo, 8_000).await.unwrap(), Ok(()));
    assert!(store.comments_at(LESSON).await.unwrap().iter().all(|c| c.id != reply));

    // An instructor locks, hides, restores and deletes any comment.
    assert!(store.moderate(second, Moderation::Lock, 9_000).await.unwrap());
    assert_eq!(
        post(store, &comment(ada, "late reply", Some(second)), 9_100).await,
        Err(Rejected::Locked)
    );
    assert!(store.moderate(second, Moderation::Unlock, 9_200).await.unwrap());
    let answer = post(store, &comment(ada, "reply", Some(second)), 9_300).await.unwrap();
    assert!(
        !store.moderate(answer, Moderation::Lock, 9_400).await.unwrap(),
        "a reply is no thread"
    );
    assert!(store.moderate(second, Moderation::Hide, 9_500).await.unwrap());
    assert_eq!(
        post(store, &comment(ada, "to hidden", Some(second)), 9_600).await,
        Err(Rejected::NoSuchThread)
    );
    assert!(store.moderate(second, Moderation::Restore, 9_700).await.unwrap());
    let restored =
        store.comments_at(LESSON).await.unwrap().into_iter().find(|c| c.id == second).unwrap();
    assert_eq!(restored.hidden_ms, None);
    assert!(store.cached().followed_at(ada, LESSON).await.unwrap().contains(&second));
    assert!(store.moderate(second, Moderation::Delete, 9_800).await.unwrap());
    assert!(
        !store.cached().followed_at(ada, LESSON).await.unwrap().contains(&second),
        "a deleted thread is followed by nobody"
    );
    let left: Vec<i64> = store.comments_at(LESSON).await.unwrap().iter().map(|c| c.id).collect();
    assert!(!left.contains(&second) && !left.contains(&answer), "with its replies: {left:?}");
    assert!(!store.moderate(second, Moderation::Delete, 9_900).await.unwrap());
}

/// Twelve posts at once, by one author, under a limit of five: exactly five pass. And twelve
/// copies of one text at once: exactly one.
async fn parallel_posts_hold_the_limit_and_the_repeat_rule(store: &Store) {
    let (ada, _) = accounts(store).await;
    let limit = vec![Limit::new(format!("comment:{ada}"), 5, 3600)];
    let posts = (0..12).map(|i| {
        let (store, limit) = (store.clone(), limit.clone());
        tokio::spawn(async move {
            let body = format!("comment {i}");
            let new = comment(ada, &body, None);
            store.post_comment(&new, &limit, 10_000 + i).await.unwrap()
        })
    });
    let results: Vec<_> =
        futures::future::join_all(posts).await.into_iter().map(|r| r.unwrap()).collect();
    let passed = results.iter().filter(|r| r.is_ok()).count();
    assert_eq!(passed, 5, "{results:?}");
    assert!(results.iter().all(|r| r.is_ok() || matches!(r, Err(Rejected::Limit(_)))));

    let copies = (0..12).map(|_| {
        let store = store.clone();
        tokio::spawn(async move {
            let new = NewComment { place: "lesson:other", ..comment(ada, "same words", None) };
            store.post_comment(&new, &unlimited(ada), 20_000).await.unwrap()
        })
    });
    let results: Vec<_> =
        futures::future::join_all(copies).await.into_iter().map(|r| r.unwrap()).collect();
    assert_eq!(results.iter().filter(|r| r.is_ok()).count(), 1, "{results:?}");
    assert_eq!(store.comments_at("lesson:other").await.unwrap().len(), 1);
}

/// Replies reach the thread's followers (its author, those who replied, those who chose to
/// follow) but never their own author; what is hidden or held drops out; nobody marks
/// another's notifications read; every write raises the place's version.
async fn notifications_follows_and_holds(store: &Store) {
    let (ada, bo) = accounts(store).await;
    let cy = store.create_account("cy@example.org", "h", "acct-cy", 1).await.unwrap().unwrap().id;
    assert_eq!(store.comments_version(LESSON).await.unwrap(), 0);
    let thread = post(store, &comment(ada, "question", None), 1_000).await.unwrap();
    let v1 = store.comments_version(LESSON).await.unwrap();
    assert!(v1 > 0);
    assert!(store.follow(cy, thread, true).await.unwrap());
    assert!(!store.follow(cy, 999_999, true).await.unwrap(), "no such thread");
    let reply = post(store, &comment(bo, "answer", Some(thread)), 2_000).await.unwrap();
    assert!(store.comments_version(LESSON).await.unwrap() > v1);
    for who in [ada, cy] {
        let told = store.notifications(who, 10).await.unwrap();
        assert_eq!(told.len(), 1, "{told:?}");
        assert_eq!(told[0].place, LESSON);
        assert!(matches!(told[0].about, About::Reply { comment, thread: t, author, .. }
            if comment == reply && t == thread && author == bo));
        assert_eq!(store.unread_notifications(who).await.unwrap(), 1);
    }
    assert_eq!(store.unread_notifications(bo).await.unwrap(), 0, "not of one's own reply");
    assert_eq!(store.followed_at(bo, LESSON).await.unwrap(), [thread], "replying follows");
    assert_eq!(store.cached().followed_at(cy, LESSON).await.unwrap(), [thread]);
    assert!(store.cached().followed_at(cy, "lesson:elsewhere").await.unwrap().is_empty());

    // Cy stops following (kept reads see it at once); Ada's reply reaches Bo only.
    assert!(store.follow(cy, thread, false).await.unwrap());
    assert!(store.cached().followed_at(cy, LESSON).await.unwrap().is_empty());
    post(store, &comment(ada, "thanks", Some(thread)), 3_000).await.unwrap();
    assert_eq!(store.unread_notifications(bo).await.unwrap(), 1);
    assert_eq!(store.unread_notifications(cy).await.unwrap(), 1);
    assert_eq!(store.unread_notifications(ada).await.unwrap(), 1);

    // A hidden reply is no longer counted; restored, it is again.
    let v = store.comments_version(LESSON).await.unwrap();
    assert!(store.moderate(reply, Moderation::Hide, 4_000).await.unwrap());
    assert!(store.comments_version(LESSON).await.unwrap() > v, "moderation is a change");
    assert_eq!(store.unread_notifications(ada).await.unwrap(), 0);
    assert!(store.notifications(cy, 10).await.unwrap().is_empty());
    assert!(store.moderate(reply, Moderation::Restore, 4_100).await.unwrap());
    assert_eq!(store.unread_notifications(ada).await.unwrap(), 1);

    // Read: only one's own.
    let id = store.notifications(ada, 10).await.unwrap()[0].id;
    assert_eq!(store.mark_read(bo, Some(id), 5_000).await.unwrap(), 0, "another's");
    assert_eq!(store.unread_notifications(ada).await.unwrap(), 1);
    assert_eq!(store.mark_read(ada, Some(id), 5_000).await.unwrap(), 1);
    assert_eq!(store.unread_notifications(ada).await.unwrap(), 0);
    assert_eq!(store.notifications(ada, 10).await.unwrap()[0].read_ms, Some(5_000));
    assert_eq!(store.mark_read(cy, None, 5_000).await.unwrap(), 1);
    assert_eq!(store.unread_notifications(cy).await.unwrap(), 0);

    // Held: a newcomer's first comment waits; once one is released, the next is not held.
    let dee =
        store.create_account("dee@example.org", "h", "acct-dee", 1).await.unwrap().unwrap().id;
    let hold = |body| NewComment { hold_newcomers: true, ..comment(dee, body, None) };
    let first = post(store, &hold("first words"), 6_000).await.unwrap();
    let second = post(store, &hold("second words"), 6_100).await.unwrap();
    let held = |id| async move { store.comment(id).await.unwrap().unwrap().held_ms.is_some() };
    assert!(held(first).await && held(second).await);
    assert!(store.moderate(first, Moderation::Restore, 6_200).await.unwrap());
    assert!(!held(first).await && held(second).await);
    let third = post(store, &hold("third words"), 6_300).await.unwrap();
    assert!(!held(third).await);
    assert!(
        !held(
            post(
                store,
                &NewComment { hold_newcomers: true, ..comment(ada, "old hand", None) },
                6_400
            )
            .await
            .unwrap()
        )
        .await
    );
}

/// A report, signed in or not; the instructor's answer reaches the signed-in reporter only.
async fn reports_and_answers(store: &Store) {
    let (ada, _) = accounts(store).await;
    let report = |account, body| NewReport {
        place: LESSON,
        section: Some("set-epoch"),
        question: None,
        submission: None,
        account,
        body,
    };
    let limit = vec![Limit::new("report:address:127.0.0.1", 2, 3600)];
    let mine = store.file_report(&report(Some(ada), "typo"), &limit, 1_000).await.unwrap().unwrap();
    let theirs =
        store.file_report(&report(None, "wrong rank"), &limit, 2_000).await.unwrap().unwrap();
    assert!(store.file_report(&report(None, "third"), &limit, 3_000).await.unwrap().is_err());
    let listed = store.reports().await.unwrap();
    assert_eq!(listed.iter().map(|r| r.id).collect::<Vec<_>>(), [theirs, mine], "newest first");
    assert_eq!(listed[1].email.as_deref(), Some("ada@example.org"));
    assert_eq!(
        (listed[1].status.as_str(), listed[1].section.as_deref()),
        ("open", Some("set-epoch"))
    );

    assert!(store.answer_report(mine, ReportStatus::Fixed, Some("고쳤어요"), 4_000).await.unwrap());
    assert!(store.answer_report(theirs, ReportStatus::WontFix, None, 4_100).await.unwrap());
    assert!(!store.answer_report(999_999, ReportStatus::Fixed, None, 4_200).await.unwrap());
    let told = store.notifications(ada, 10).await.unwrap();
    assert_eq!(told.len(), 1);
    assert_eq!(
        told[0].about,
        About::Answer {
            report: mine,
            status: "fixed".into(),
            reply: Some("고쳤어요".into()),
            section: Some("set-epoch".into())
        }
    );
    assert_eq!(ReportStatus::parse("wontfix"), Some(ReportStatus::WontFix));
    assert_eq!(ReportStatus::parse("closed"), None);

    assert_eq!(store.setting("hold_first_comments").await.unwrap(), None);
    store.set_setting("hold_first_comments", "on").await.unwrap();
    store.set_setting("hold_first_comments", "off").await.unwrap();
    assert_eq!(store.setting("hold_first_comments").await.unwrap().as_deref(), Some("off"));
}

#[tokio::test]
async fn sqlite_notifications() {
    let (_dir, store) = sqlite().await;
    notifications_follows_and_holds(&store).await;
    reports_and_answers(&sqlite().await.1).await;
}

#[tokio::test]
async fn postgres_notifications() {
    notifications_follows_and_holds(&postgres("notifications").await).await;
    reports_and_answers(&postgres("reports").await).await;
}

#[tokio::test]
async fn sqlite_threads() {
    let (_dir, store) = sqlite().await;
    threads_replies_and_their_order(&store).await;
}

#[tokio::test]
async fn postgres_threads() {
    threads_replies_and_their_order(&postgres("comments").await).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn sqlite_parallel_posts() {
    let (_dir, store) = sqlite().await;
    parallel_posts_hold_the_limit_and_the_repeat_rule(&store).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn postgres_parallel_posts() {
    parallel_posts_hold_the_limit_and_the_repeat_rule(&postgres("comments_parallel").await).await;
}
