//! Comments without JavaScript, through the router and plain form posts, on SQLite and on the
//! real PostgreSQL server: posting and replying, hostile text made inert, the edit window,
//! deleting with replies, following, what an instructor may do and a learner may not, forged
//! and foreign requests, refused text kept, limits under parallel posts, and both languages.

use crate::common;

use axum::http::{header, StatusCode};
use common::in_process::*;
use lockstep_store::{Role, Store};

const LESSON: &str = "/lessons/distributed-sampler";
const PLACE: &str = "lesson:distributed-sampler";

/// The comments part of a page: what the server wrote into its place.
fn part(page: &Page) -> &str {
    let start = page.body.find(r#"<section data-part="comments""#).expect("a comments part");
    let end = page.body[start..].find("</section>").unwrap() + start;
    &page.body[start..end]
}

/// What the new-thread form's text area holds.
fn new_thread_text(page: &Page) -> &str {
    let form = part(page).split(r#"id="comment-form""#).nth(1).expect("a new-thread form");
    let text = form.split_once("<textarea").unwrap().1.split_once('>').unwrap().1;
    text.split("</textarea>").next().unwrap()
}

/// The ids of the comments a page shows, in order.
fn shown(page: &Page) -> Vec<i64> {
    part(page)
        .split(r#"id="comment-"#)
        .skip(1)
        .filter_map(|s| s.split('"').next()?.parse().ok())
        .collect()
}

/// The comment id a post's redirect names.
fn posted(res: &Page) -> i64 {
    assert!(res.status.is_redirection(), "{}: {}", res.status, res.body);
    let to = res.headers[header::LOCATION].to_str().unwrap();
    to.rsplit_once("#comment-").expect("a comment's anchor").1.parse().unwrap()
}

async fn comment(jar: &mut Jar, app: &App, body: &str, parent: Option<i64>) -> Page {
    let parent = parent.map(|p| p.to_string()).unwrap_or_default();
    jar.post(app, "/comments", &[("place", PLACE), ("parent", &parent), ("body", body)]).await
}

async fn conversation(app: &App, store: &Store) {
    // Anyone reads; only the signed-in write.
    let mut visitor = Jar::default();
    let page = visitor.get(app, LESSON).await;
    assert!(part(&page).contains("Comments 0"), "{}", part(&page));
    assert!(part(&page).contains("No comments yet. Be the first to leave one."));
    assert!(part(&page).contains("/account#sign-in"));
    assert!(!part(&page).contains(r#"data-form="new""#), "no comment form for a visitor");
    let refused = comment(&mut visitor, app, "hello", None).await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN);

    let mut ada = signed_up(app, "ada@example.org").await;
    let mut bo = signed_up(app, "bo@example.org").await;
    let hostile = "<script>alert(1)</script> [x](javascript:alert(2)) <img src=x onerror=alert(3)>\n\n```python\nprint('<b>')\n```";
    let first = posted(&comment(&mut ada, app, hostile, None).await);
    let page = ada.get(app, LESSON).await;
    assert!(page.body.contains("Your comment is posted."), "the notice");
    // Her page has her edit form, whose text area holds the text: escaped there too.
    let html = part(&page);
    assert!(html.contains("Comments 1") && html.contains("/comments/1/edit"));
    assert!(
        !html.contains("<script>")
            && !html.contains("href=\"javascript:")
            && !html.contains("<img"),
        "{html}"
    );
    assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), "shown as text: {html}");
    assert!(html.contains(r#"class="hl-"#) || html.contains("hl-"), "the code highlighted: {html}");
    assert!(!html.contains("ada@example.org"), "the email is never shown");
    assert!(html.contains("Learner #"), "{html}");

    // A name chosen, a reply, and the thread order.
    let page = bo.submit(app, "/account/name", &[("display_name", "  Bo <b>\u{202E} ")]).await;
    assert!(page.body.contains("Your display name is saved."));
    assert!(page.body.contains(r#"value="Bo &lt;b&gt;""#), "the account page shows it");
    let long = "가".repeat(lockstep_comments::MAX_NAME_CHARS + 1);
    let page = bo.submit(app, "/account/name", &[("display_name", &long)]).await;
    assert!(page.body.contains("at most 40 characters"), "too long: refused");
    let second = posted(&comment(&mut bo, app, "a second thread", None).await);
    let reply = posted(&comment(&mut bo, app, "seed + epoch", Some(first)).await);
    let page = visitor.get(app, LESSON).await;
    assert_eq!(shown(&page), [first, reply, second]);
    assert!(part(&page).contains("Bo &lt;b&gt;"), "a name is escaped");
    assert!(part(&page).contains("Comments 3"));
    assert!(part(&page).contains("just now"));

    // Repeated words, a reply to a reply, an empty text: refused, the text kept in its form.
    let again = comment(&mut bo, app, "a second thread", None).await;
    assert!(again.status.is_redirection());
    let page = bo.get(app, LESSON).await;
    assert!(page.body.contains("You posted these same words here a moment ago."));
    assert_eq!(new_thread_text(&page), "a second thread", "kept");
    let page = bo.get(app, LESSON).await;
    assert_eq!(new_thread_text(&page), "", "once");
    let long = "x".repeat(lockstep_comments::MAX_CHARS + 1);
    comment(&mut bo, app, &long, Some(first)).await;
    let page = bo.get(app, LESSON).await;
    assert!(page.body.contains("the most is 5,000"), "the refusal says why");
    assert!(part(&page).contains(&format!(">{long}</textarea>")), "a refused reply keeps its text");
    comment(&mut bo, app, "deeper", Some(reply)).await;
    assert_eq!(shown(&bo.get(app, LESSON).await).len(), 3, "no reply to a reply");

    // The section a comment is about: a heading of the page, shown as a link; another is dropped.
    let about = ada
        .post(
            app,
            "/comments",
            &[("place", PLACE), ("body", "about it"), ("section", "set-epoch-do-not-skip-it")],
        )
        .await;
    let about = posted(&about);
    assert_eq!(
        store.comment(about).await.unwrap().unwrap().section.as_deref(),
        Some("set-epoch-do-not-skip-it")
    );
    let page = visitor.get(app, LESSON).await;
    assert!(
        part(&page).contains(&format!(
            r##"href="{LESSON}#set-epoch-do-not-skip-it">set_epoch: do not skip it</a>"##
        )),
        "{}",
        part(&page)
    );
    let forged = ada
        .post(
            app,
            "/comments",
            &[("place", PLACE), ("body", "forged section"), ("section", "javascript:alert(1)")],
        )
        .await;
    assert_eq!(store.comment(posted(&forged)).await.unwrap().unwrap().section, None);

    // Places the server did not issue.
    for place in ["lesson:no-such-lesson", "exercise:nope", "javascript:alert(1)", ""] {
        let res = ada.post(app, "/comments", &[("place", place), ("body", "x")]).await;
        assert_eq!(res.status, StatusCode::NOT_FOUND, "{place}");
    }

    // Another learner's comment: no edit, no delete; a learner is no instructor.
    for action in ["edit", "delete", "hide", "remove", "lock"] {
        let res =
            bo.post(app, &format!("/comments/{first}/{action}"), &[("body", "mine now")]).await;
        assert!(
            res.status.is_redirection() || res.status == StatusCode::FORBIDDEN,
            "{action}: {}",
            res.status
        );
    }
    let kept = store.comment(first).await.unwrap().unwrap();
    assert_eq!(kept.body, lockstep_comments::check(hostile).unwrap());
    assert!(kept.hidden_ms.is_none() && kept.locked_ms.is_none() && kept.deleted_ms.is_none());

    // The author edits (marked edited) and deletes: a thread with replies stays as "deleted".
    ada.post(app, &format!("/comments/{first}/edit"), &[("body", "Why **set_epoch**?")]).await;
    let page = visitor.get(app, LESSON).await;
    assert!(part(&page).contains("<strong>set_epoch</strong>") && part(&page).contains("edited"));
    ada.post(app, &format!("/comments/{first}/delete"), &[]).await;
    let page = visitor.get(app, LESSON).await;
    assert!(part(&page).contains("This comment was deleted."));
    assert!(shown(&page).contains(&reply));

    // Following: replying followed; unfollowing is the learner's own.
    assert_eq!(
        store
            .followed_at(store.account_by_email("bo@example.org").await.unwrap().unwrap().id, PLACE)
            .await
            .unwrap()
            .len(),
        2
    );
    bo.post(app, &format!("/comments/{second}/unfollow"), &[]).await;
    let bo_id = store.account_by_email("bo@example.org").await.unwrap().unwrap().id;
    assert_eq!(store.followed_at(bo_id, PLACE).await.unwrap(), [first]);

    // An instructor hides Bo's reply: it is gone for everyone else at once, and Bo sees why.
    store.set_role("ada@example.org", Role::Instructor).await.unwrap();
    // A role granted from outside reaches pages within the accounts' kept reads (2 s on SQLite).
    tokio::time::sleep(std::time::Duration::from_millis(2_100)).await;
    let mut teacher = Jar::default();
    teacher
        .submit(app, "/account/sign-in", &[("email", "ada@example.org"), ("password", PASSWORD)])
        .await;
    let page = teacher.get(app, LESSON).await;
    assert!(part(&page).contains("Written by bo@example.org"), "instructors see who wrote what");
    teacher.post(app, &format!("/comments/{reply}/hide"), &[]).await;
    assert!(!shown(&visitor.get(app, LESSON).await).contains(&reply));
    let page = bo.get(app, LESSON).await;
    assert!(part(&page).contains("Hidden by an instructor"));
    // A hidden comment's id, forged by another learner, changes nothing.
    let mut cy = signed_up(app, "cy@example.org").await;
    let res = cy.post(app, &format!("/comments/{reply}/follow"), &[]).await;
    assert_eq!(res.status, StatusCode::NOT_FOUND);
    let cy_id = store.account_by_email("cy@example.org").await.unwrap().unwrap().id;
    assert!(store.followed_at(cy_id, PLACE).await.unwrap().is_empty());
    teacher.post(app, &format!("/comments/{second}/lock"), &[]).await;
    let res = comment(&mut cy, app, "too late", Some(second)).await;
    assert!(res.status.is_redirection());
    assert!(cy.get(app, LESSON).await.body.contains("That thread takes no replies"));

    // A post from another site changes nothing.
    let before = store.comments_at(PLACE).await.unwrap().len();
    let forged = send(
        app,
        axum::http::Request::post("/comments")
            .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
            .header(header::ORIGIN, "https://evil.example")
            .header(
                header::COOKIE,
                format!("lockstep_session={}", cy.cookie("lockstep_session").unwrap()),
            )
            .body(axum::body::Body::from(format!("place={PLACE}&body=forged")))
            .unwrap(),
    )
    .await;
    assert_eq!(forged.status, StatusCode::FORBIDDEN);
    assert_eq!(store.comments_at(PLACE).await.unwrap().len(), before);

    // The Korean page: its words, and its forms post to the Korean twin and come back to it.
    let page = cy.get(app, &format!("/ko{LESSON}")).await;
    assert!(part(&page).contains("댓글 "), "{}", part(&page));
    assert!(part(&page).contains(r#"action="/ko/comments""#));
    let res = cy.post(app, "/ko/comments", &[("place", PLACE), ("body", "한국어 댓글")]).await;
    let to = res.headers[header::LOCATION].to_str().unwrap().to_string();
    assert!(to.starts_with(&format!("/ko{LESSON}#comment-")), "{to}");
    assert!(cy.get(app, &to).await.body.contains("댓글을 남겼어요."));

    // An exercise page has its comments too, filled in its full render.
    let page = cy.get(app, "/exercises/ddp-conversion").await;
    assert!(part(&page).contains(r#"data-place="exercise:ddp-conversion""#), "{}", part(&page));

    // The live side: the part alone, for the requester, and its version.
    let fragment = visitor.get(app, &format!("/api/comments?place={PLACE}&lang=ko")).await;
    assert_eq!(fragment.status, StatusCode::OK);
    assert!(fragment.body.contains("data-version=") && fragment.body.contains("댓글"));
    let nowhere = visitor.get(app, "/api/comments?place=lesson:nope").await;
    assert_eq!(nowhere.status, StatusCode::NOT_FOUND);
}

/// Replies reach the thread's followers' notifications; each learner reads only their own.
async fn notifications(app: &App, store: &Store) {
    let mut eve = signed_up(app, "eve@example.org").await;
    let mut fay = signed_up(app, "fay@example.org").await;
    let unread = |page: &Page| -> i64 {
        serde_json::from_str::<serde_json::Value>(&page.body).unwrap()["unread"].as_i64().unwrap()
    };
    assert_eq!(unread(&Jar::default().get(app, "/api/notifications").await), 0, "a visitor");
    let thread = posted(&comment(&mut eve, app, "Eve's question", None).await);
    let reply = posted(&comment(&mut fay, app, "Fay's answer", Some(thread)).await);
    assert_eq!(unread(&eve.get(app, "/api/notifications").await), 1);
    assert_eq!(unread(&fay.get(app, "/api/notifications").await), 0, "not of one's own reply");
    let page = eve.get(app, "/notifications").await;
    assert!(page.body.contains("replied in a thread under “DistributedSampler"), "{}", page.body);
    let page = eve.get(app, "/ko/notifications").await;
    assert!(page.body.contains("님이 “"), "in Korean too");
    let eve_id = store.account_by_email("eve@example.org").await.unwrap().unwrap().id;
    let id = store.notifications(eve_id, 10).await.unwrap()[0].id.to_string();
    // Fay cannot mark Eve's notification read, nor learn where it leads.
    let res = fay.post(app, "/notifications/read", &[("id", &id)]).await;
    assert_eq!(res.headers[header::LOCATION], "/notifications");
    assert_eq!(unread(&eve.get(app, "/api/notifications").await), 1);
    let res = eve.post(app, "/notifications/read", &[("id", &id)]).await;
    assert_eq!(
        res.headers[header::LOCATION].to_str().unwrap(),
        format!("{LESSON}#comment-{reply}")
    );
    assert_eq!(unread(&eve.get(app, "/api/notifications").await), 0);
    let res = Jar::default().post(app, "/notifications/read", &[]).await;
    assert_eq!(res.status, StatusCode::FORBIDDEN, "a visitor has none");
}

/// "Report a problem" from a visitor and a learner, kept only with what the server issued; the
/// instructor's answer reaches the learner; the comments setting holds a newcomer's comment.
async fn reports_and_settings(app: &App, store: &Store) {
    let report = |section: &'static str, question: &'static str, body: &'static str| {
        [
            ("place", PLACE),
            ("section", section),
            ("question", question),
            ("submission", "1"),
            ("body", body),
        ]
    };
    let mut visitor = Jar::default();
    for i in 0..4 {
        let fields = report("set-epoch-do-not-skip-it", "9.9", "a typo in the example");
        let page = visitor.submit(app, "/reports", &fields).await;
        let said = if i < 3 {
            "Thank you: the instructors will read your report."
        } else {
            "Too many reports from here"
        };
        assert!(page.body.contains(said), "report {i}");
    }
    // The refused one is given back in its form, open, where it was about; once.
    let page = visitor.get(app, "/lessons/distributed-sampler").await;
    assert!(!page.body.contains("a typo in the example</textarea>"), "shown once");
    let fields = report("set-epoch-do-not-skip-it", "9.9", "typed & lost?");
    let page = visitor.submit(app, "/reports", &fields).await;
    let form = &page.body[page.body.find(r#"id="report""#).expect("the report form")..];
    assert!(form.contains(">typed &amp; lost?</textarea>"), "{form}");
    assert!(form.contains(r#"<option value="set-epoch-do-not-skip-it" selected"#), "{form}");
    assert!(form.contains(r#"<details data-role="report" open"#), "{form}");
    let mut gil = signed_up(app, "gil@example.org").await;
    let fields = report("no-such-heading", "0.1", "Question 2's answer is wrong");
    let page = gil.submit(app, "/ko/reports", &fields).await;
    assert!(page.body.contains("알림으로 알려 드릴게요"), "thanked in Korean");
    let reports = store.reports().await.unwrap();
    assert_eq!(reports.len(), 4, "the visitor's fourth was refused");
    let mine = &reports[0];
    assert_eq!((mine.section.as_deref(), mine.question.as_deref()), (None, Some("0.1")));
    assert_eq!(mine.submission_id, None, "a submission that is not the reporter's is not kept");
    assert_eq!(mine.email.as_deref(), Some("gil@example.org"));
    let theirs = &reports[1];
    assert_eq!(
        (theirs.section.as_deref(), theirs.question.as_deref()),
        (Some("set-epoch-do-not-skip-it"), None)
    );
    assert_eq!(theirs.account_id, None);

    // Only instructors answer, see and export reports.
    let answer = format!("/instructor/reports/{}", mine.id);
    let res = gil.post(app, &answer, &[("status", "fixed"), ("reply", "Fixed, thanks!")]).await;
    assert_eq!(res.status, StatusCode::FORBIDDEN);
    assert_eq!(gil.get(app, "/instructor/reports.csv").await.status, StatusCode::FORBIDDEN);
    let mut hal = signed_up(app, "hal@example.org").await;
    store.set_role("hal@example.org", Role::Instructor).await.unwrap();
    tokio::time::sleep(std::time::Duration::from_millis(2_100)).await;
    let page = hal.get(app, "/instructor").await;
    assert!(page.body.contains("Question 2's answer is wrong</td>"), "listed");
    assert!(page.body.contains("Quiz 1, question 2"), "where it was reported from");
    assert!(page.body.contains(" › set_epoch: do not skip it</a>"), "the section, by its heading");
    // When, drawn in the site's default zone for the page's clock script to redraw in the
    // reader's; the export says it in UTC.
    let seoul = lockstep_clock::Zone::site_default().moment(mine.created_ms);
    let drawn =
        format!(r#"<time datetime="{}" data-zone="Asia/Seoul">{}</time>"#, seoul.utc, seoul.local);
    assert!(page.body.contains(&drawn), "{drawn}");
    assert!(seoul.local.ends_with(" UTC+9"), "{seoul:?}");
    let res = hal.post(app, &answer, &[("status", "closed"), ("reply", "x")]).await;
    assert_eq!(res.status, StatusCode::BAD_REQUEST, "only the statuses there are");
    let res = hal.post(app, &answer, &[("status", "fixed"), ("reply", "Fixed, thanks!")]).await;
    assert!(res.status.is_redirection());
    let csv = hal.get(app, "/instructor/reports.csv").await;
    assert!(csv.body.starts_with("id,when,where,from,report,status,answer\n"));
    assert!(csv.body.contains(&format!("{},{},", mine.id, seoul.utc)), "{}", csv.body);
    assert!(
        csv.body.contains("gil@example.org,Question 2's answer is wrong,fixed,\"Fixed, thanks!\""),
        "{}",
        csv.body
    );
    let page = gil.get(app, "/notifications").await;
    assert!(
        page.body.contains("An instructor answered your report on “DistributedSampler"),
        "{}",
        page.body
    );
    assert!(page.body.contains("Fixed, thanks!"));
    // Opening it leads to the page the report was about, in the reader's language.
    let gil_id = store.account_by_email("gil@example.org").await.unwrap().unwrap().id;
    let id = store.notifications(gil_id, 10).await.unwrap()[0].id.to_string();
    let res = gil.post(app, "/ko/notifications/read", &[("id", &id)]).await;
    assert_eq!(res.headers[header::LOCATION], "/ko/lessons/distributed-sampler");

    // Held comments: a newcomer's waits; others do not see it until an instructor approves.
    hal.post(app, "/instructor/settings", &[("hold_first_comments", "on")]).await;
    assert!(hal
        .get(app, "/instructor")
        .await
        .body
        .contains(r#"name="hold_first_comments" value="on" checked"#));
    let mut ivy = signed_up(app, "ivy@example.org").await;
    let held = posted(&comment(&mut ivy, app, "my first words", None).await);
    assert!(ivy.get(app, LESSON).await.body.contains("An instructor reviews a new account"));
    assert!(part(&ivy.get(app, LESSON).await).contains("Waiting for an instructor"));
    assert!(!shown(&Jar::default().get(app, LESSON).await).contains(&held));
    hal.post(app, &format!("/comments/{held}/restore"), &[]).await;
    assert!(shown(&Jar::default().get(app, LESSON).await).contains(&held));
    let next = posted(&comment(&mut ivy, app, "my second words", None).await);
    assert!(shown(&Jar::default().get(app, LESSON).await).contains(&next), "no longer new");
    hal.post(app, "/instructor/settings", &[]).await;
    assert_eq!(store.setting("hold_first_comments").await.unwrap().as_deref(), Some("off"));
}

/// Replying, following and unfollowing are allowed exactly when reading is. For every state
/// in which another learner cannot read a thread (held for review, hidden, deleted, on a page
/// they cannot see), they get the answer an id that does not exist gets, and nothing is
/// written: no reply, no follow, no notification.
async fn unreadable_threads(app: &App, store: &Store) {
    let mut ned = signed_up(app, "ned@example.org").await;
    store.set_role("ned@example.org", Role::Instructor).await.unwrap();
    tokio::time::sleep(std::time::Duration::from_millis(2_100)).await;
    let mut oli = signed_up(app, "oli@example.org").await;
    let mut bob = signed_up(app, "bob@example.org").await;
    let bob_id = store.account_by_email("bob@example.org").await.unwrap().unwrap().id;

    ned.post(app, "/instructor/settings", &[("hold_first_comments", "on")]).await;
    let mut nia = signed_up(app, "nia@example.org").await;
    let held = posted(&comment(&mut nia, app, "a newcomer's first words", None).await);
    ned.post(app, "/instructor/settings", &[]).await;
    let hidden = posted(&comment(&mut oli, app, "to be hidden", None).await);
    ned.post(app, &format!("/comments/{hidden}/hide"), &[]).await;
    let deleted = posted(&comment(&mut oli, app, "to be deleted", None).await);
    oli.post(app, &format!("/comments/{deleted}/delete"), &[]).await;
    // A lesson taken back into drafts keeps its comments, out of every learner's reach.
    let draft = "lesson:taken-back-into-drafts";
    let oli_id = store.account_by_email("oli@example.org").await.unwrap().unwrap().id;
    let new = lockstep_store::NewComment {
        place: draft,
        parent: None,
        account: oli_id,
        body: "on a draft",
        section: None,
        hold_newcomers: false,
    };
    let in_draft = store.post_comment(&new, &[], 1).await.unwrap().unwrap();
    let nia_id = store.account_by_email("nia@example.org").await.unwrap().unwrap().id;

    let answer = |jar: &mut Jar, place: &'static str, id: i64| {
        let mut jar = jar.clone();
        async move {
            let parent = id.to_string();
            let fields = [("place", place), ("parent", &parent), ("body", "can you see this?")];
            let reply = jar.post(app, "/comments", &fields).await;
            let said = match reply.headers.get(header::LOCATION) {
                Some(back) => notice(&jar.get(app, back.to_str().unwrap()).await),
                None => String::new(),
            };
            let follow = jar.post(app, &format!("/comments/{id}/follow"), &[]).await;
            let unfollow = jar.post(app, &format!("/comments/{id}/unfollow"), &[]).await;
            (reply.status, said, follow.status, unfollow.status)
        }
    };
    let none = answer(&mut bob, PLACE, 9_999_999).await;
    assert!(none.1.contains("takes no replies"), "{none:?}");
    assert_eq!(none.2, StatusCode::NOT_FOUND, "{none:?}");
    for (state, place, id) in [
        ("held", PLACE, held),
        ("hidden", PLACE, hidden),
        ("deleted", PLACE, deleted),
        ("in a draft", draft, in_draft),
    ] {
        let got = answer(&mut bob, place, id).await;
        let expected = if place == draft { StatusCode::NOT_FOUND } else { none.0 };
        assert_eq!(got.0, expected, "{state}: the reply");
        if place != draft {
            assert_eq!(got.1, none.1, "{state}: told as for no thread");
        }
        assert_eq!((got.2, got.3), (none.2, none.3), "{state}: follow, unfollow");
    }
    for place in [PLACE, draft] {
        let comments = store.comments_at(place).await.unwrap();
        assert!(comments.iter().all(|c| c.account_id != bob_id), "no reply of Bob's at {place}");
    }
    assert_eq!(store.notifications(nia_id, 10).await.unwrap().len(), 0, "Nia was told nothing");
    assert_eq!(store.notifications(oli_id, 10).await.unwrap().len(), 0, "nor Oli");
    // Reading is the rule, not the state: the held comment's author and an instructor may
    // follow it, and once approved anyone may reply.
    for jar in [&mut nia, &mut ned] {
        let res = jar.post(app, &format!("/comments/{held}/follow"), &[]).await;
        assert!(res.status.is_redirection(), "{}", res.status);
    }
    ned.post(app, &format!("/comments/{held}/restore"), &[]).await;
    posted(&comment(&mut bob, app, "welcome!", Some(held)).await);
    assert_eq!(store.notifications(nia_id, 10).await.unwrap().len(), 1, "now Nia is told");
    // An instructor's reply is told as an instructor's, never as a learner's.
    posted(&comment(&mut ned, app, "welcome from the instructors", Some(held)).await);
    let page = nia.get(app, "/notifications").await;
    assert!(page.body.contains("An instructor replied in a thread"), "{}", page.body);
    let page = nia.get(app, "/ko/notifications").await;
    assert!(page.body.contains("강사 님이"), "{}", page.body);
    let ned_id = store.account_by_email("ned@example.org").await.unwrap().unwrap().id;
    assert!(!page.body.contains(&format!("학습자 #{ned_id}")), "{}", page.body);
}

/// A comment about a section, posted from the Korean page, says which section on the English
/// page too: by the English heading in the same place.
async fn sections_across_languages(app: &App) {
    let mut uma = signed_up(app, "uma@example.org").await;
    let fields = [
        ("place", PLACE),
        ("parent", ""),
        ("body", "set_epoch를 빼먹으면 어떻게 되나요?"),
        ("section", "set-epoch-절대-빼먹지-마세요"),
    ];
    let id = posted(&uma.post(app, "/ko/comments", &fields).await);
    let english = part(&Jar::default().get(app, LESSON).await).to_string();
    let comment = english.split(&format!(r#"id="comment-{id}""#)).nth(1).unwrap();
    let comment = comment.split("</article>").next().unwrap();
    assert!(
        comment.contains(r#"<a href="/lessons/distributed-sampler#set-epoch-do-not-skip-it">set_epoch: do not skip it</a>"#),
        "{comment}"
    );
    let korean = part(&Jar::default().get(app, &format!("/ko{LESSON}")).await).to_string();
    assert!(korean.contains("set_epoch: 절대 빼먹지 마세요</a>"), "{korean}");
}

/// The notice a page shows after a form's redirect.
fn notice(page: &Page) -> String {
    let Some((_, rest)) = page.body.split_once(r#"class="toast">"#) else { return String::new() };
    rest.split('<').next().unwrap().to_string()
}

/// Twelve posts at once by one learner: the account's limit (ten in ten minutes) holds.
async fn parallel_posts(app: &App, store: &Store) {
    let jar = signed_up(app, "dee@example.org").await;
    let posts = (0..12).map(|i| {
        let mut jar = jar.clone();
        async move { comment(&mut jar, app, &format!("comment {i}"), None).await }
    });
    futures::future::join_all(posts).await;
    let dee = store.account_by_email("dee@example.org").await.unwrap().unwrap().id;
    let theirs =
        store.comments_at(PLACE).await.unwrap().into_iter().filter(|c| c.account_id == dee);
    assert_eq!(theirs.count(), 10);
}

async fn with(url: &str, dir: tempfile::TempDir) {
    let app = app_on(&lessons_root(), url, dir).await;
    let store = Store::connect(url).await.unwrap();
    conversation(&app, &store).await;
    notifications(&app, &store).await;
    reports_and_settings(&app, &store).await;
    unreadable_threads(&app, &store).await;
    sections_across_languages(&app).await;
    parallel_posts(&app, &store).await;
}

#[test]
fn comments_on_sqlite() {
    on_runtime(async {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}?mode=rwc", dir.path().join("db.sqlite3").display());
        with(&url, dir).await;
    });
}

#[test]
fn comments_on_postgres() {
    on_runtime(async {
        let url = postgres_database("comments_http").await;
        with(&url, tempfile::tempdir().unwrap()).await;
    });
}
