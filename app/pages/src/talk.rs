//! The comments under a lesson or an exercise: a request part, rendered by the server for each
//! request and each reader (their own comments' edit and delete, an instructor's moderation),
//! never kept. Plain forms post every action, so all of it works without JavaScript; with it,
//! the browser swaps in this same HTML when the place's comments change (`talk_live`).
//!
//! Every value reaches the HTML through `view!`, which escapes it; a comment's own text only
//! through `lockstep_comments::render` (pulldown-cmark, then ammonia's allow-list).

use std::collections::HashMap;
use std::sync::Arc;

use leptos::prelude::*;
use lockstep_i18n::talk::TalkWords;
use lockstep_routes::{self as routes, Lang, Place};
use lockstep_rules::flash::{self, CommentDraft};
use lockstep_rules::{Requester, Rules, RulesError};
use lockstep_store::Comment;

use crate::request_parts::{PartFuture, PartRequest, RequestPart};
use lockstep_web::components::{ReportForm, SectionChoice, TextArea};
use lockstep_web::model::RefusedReport;

/// The request part's name: `<section data-part="comments">`.
pub const PART: &str = lockstep_web::COMMENTS_PART;

/// The comments as a request part of lesson and exercise pages.
/// It keeps each place's rendering for every reader a minute at most, per version of the
/// place's comments: what most requests show is rendered once.
#[derive(Default)]
pub struct CommentsPart {
    kept: KeptPlaces,
}

impl RequestPart for CommentsPart {
    fn name(&self) -> &'static str {
        PART
    }

    fn html<'a>(&'a self, request: PartRequest<'a>) -> PartFuture<'a> {
        Box::pin(async move { self.comments_html(request).await.map_err(|e| e.to_string()) })
    }
}

/// What one reader may see and do.
#[derive(Clone, Copy)]
struct Reader {
    account: Option<i64>,
    /// Writes, replies and follows. Only the kept rendering for every signed-in learner is
    /// signed in without an account: its own comments' actions are holes (see [`Kept`]).
    signed_in: bool,
    instructor: bool,
}

impl Reader {
    fn of(requester: &Requester) -> Reader {
        let account = requester.account().map(|a| a.id);
        Reader { account, signed_in: account.is_some(), instructor: requester.is_instructor() }
    }

    /// Any signed-in learner, as far as what every reader sees goes.
    const ANY_LEARNER: Reader = Reader { account: None, signed_in: true, instructor: false };
    const VISITOR: Reader = Reader { account: None, signed_in: false, instructor: false };

    fn sees(&self, c: &Comment) -> bool {
        lockstep_rules::comments::sees(c, self.account, self.instructor)
    }
}

/// A thread as shown: its first comment and the replies this reader sees.
struct Thread {
    root: Comment,
    replies: Vec<Comment>,
}

/// The threads `reader` sees, in the store's order. A thread whose first comment they may not
/// see goes whole, replies included; a deleted first comment with nothing left under it goes.
fn threads_for(comments: Vec<Comment>, reader: &Reader) -> Vec<Thread> {
    let mut threads: Vec<Thread> = Vec::new();
    for c in comments {
        match c.parent_id {
            None => {
                if reader.sees(&c) {
                    threads.push(Thread { root: c, replies: Vec::new() });
                }
            }
            Some(parent) => {
                if let Some(t) = threads.last_mut().filter(|t| t.root.id == parent) {
                    if reader.sees(&c) {
                        t.replies.push(c);
                    }
                }
            }
        }
    }
    threads.retain(|t| t.root.deleted_ms.is_none() || !t.replies.is_empty());
    threads
}

/// Everything the part shows besides the comments.
struct Shown {
    place: Place,
    lang: Lang,
    reader: Reader,
    version: i64,
    now_ms: i64,
    followed: Vec<i64>,
    /// Authors' levels, by learner.
    levels: HashMap<String, u32>,
    /// The page's sections, (id, title), for the section choice and links.
    sections: Vec<(String, String)>,
    draft: Option<CommentDraft>,
    /// A refused report, for the report form to give back.
    report: Option<RefusedReport>,
    /// Rendering [`Kept::signed_in`]: each reader's own bits are holes.
    holes: bool,
}

impl CommentsPart {
    /// The part's HTML for `r`'s reader (what [`RequestPart::html`] writes into a page).
    pub async fn comments_html(&self, r: PartRequest<'_>) -> Result<String, RulesError> {
        let store = &r.rules.store;
        let key = r.place.key();
        let reader = Reader::of(r.requester);
        // Read for every request (from memory on SQLite, where only this process writes comments;
        // from the database on PostgreSQL), so a comment written on any app machine shows at once.
        let version = store.cached().comments_version(&key).await?;
        let now = lockstep_clock::now_ms();
        // The page's headings are part of what is kept: an edited lesson renames them without a new
        // version of its comments (and tests serve courses that differ in one process).
        let sections = sections(r.rules, r.place, r.lang);
        let headings = {
            use std::hash::{Hash, Hasher};
            let mut h = std::collections::hash_map::DefaultHasher::new();
            sections.hash(&mut h);
            h.finish()
        };
        let kept_as = (key.clone(), r.lang, version, now / KEPT_FOR_MS, headings);
        let kept = match self.kept.get(&kept_as) {
            Some(kept) => kept,
            None => {
                let mut comments = store.comments_at(&key).await?;
                let levels = levels(r.rules, &comments).await?;
                about_in(r.rules, r.place, r.lang, &sections, &mut comments);
                let kept = Arc::new(Kept::render(
                    comments, r.place, r.lang, version, now, levels, sections,
                ));
                self.kept.put(kept_as, kept.clone());
                kept
            }
        };
        // Visitors may report too, and a refused report comes back in its form.
        let report = flash::take_report_draft(r.session, &key).await?.map(|d| RefusedReport {
            body: d.body,
            section: d.section,
            question: d.question,
        });
        let (draft, followed) = match reader.account {
            None if report.is_none() => return Ok(kept.visitors.clone()),
            None => (None, Vec::new()),
            Some(account) => {
                let draft = flash::take_comment_draft(r.session, &key).await?;
                let followed = store.cached().followed_at(account, &key).await?;
                let hidden_or_held = kept
                    .comments
                    .iter()
                    .any(|c| c.account_id == account && !Reader::ANY_LEARNER.sees(c));
                if !(reader.instructor || draft.is_some() || report.is_some() || hidden_or_held) {
                    return Ok(kept.fill(account, &followed, r.lang, now));
                }
                (draft, followed)
            }
        };
        let shown = Shown {
            place: r.place.clone(),
            lang: r.lang,
            reader,
            version,
            now_ms: now,
            followed,
            levels: kept.levels.clone(),
            sections: kept.sections.clone(),
            draft,
            report,
            holes: false,
        };
        Ok(render(threads_for(kept.comments.clone(), &reader), shown))
    }
}

fn render(threads: Vec<Thread>, shown: Shown) -> String {
    // The part is rendered apart from its page: components inside it that ask for the page's
    // language (the report form) must get this one, not the default.
    Owner::new().with(|| {
        provide_context(shown.lang);
        view! { <Comments threads shown/> }.to_html()
    })
}

/// How long the comments at one version are kept: what changes without a new version (how
/// long ago each was written, an author's level or name) is at most this old. A minute is the
/// finest step "3 minutes ago" takes.
const KEPT_FOR_MS: i64 = 60_000;

/// (place, language, comments' version, minute, the page's headings' hash).
type KeptAs = (String, Lang, i64, i64, u64);

/// The comments at one place, in one language, at one version and minute, rendered once for
/// everyone who sees what every reader sees: rendering 50 comments costs far more than serving
/// the lesson they are under, which is kept per course version. Visitors get [`Kept::visitors`]
/// whole. A signed-in learner gets [`Kept::signed_in`] with their own bits filled in (which
/// threads they follow, edit and delete on their comments): the same bytes a rendering for
/// them gives (a test holds the two together). An instructor, a learner with a comment only
/// they see (hidden or held), and anyone with a refused comment or report to be given back get
/// a rendering of their own, from the comments kept here.
struct Kept {
    comments: Vec<Comment>,
    levels: HashMap<String, u32>,
    sections: Vec<(String, String)>,
    visitors: String,
    signed_in: Vec<Piece>,
}

enum Piece {
    Html(String),
    /// A thread's follow button, both ways round.
    Follow {
        root: i64,
        follow: String,
        unfollow: String,
    },
    /// Where a comment's author finds its edit and delete.
    Own(Box<Comment>),
}

/// Where a hole is in [`Kept::signed_in`]'s rendering. No comment can contain it: a comment's
/// text passes ammonia, which allows no `template` element, and every other value is escaped.
fn hole(kind: &str, id: i64) -> String {
    format!("{HOLE}{kind}-{id}{HOLE_END}")
}

const HOLE: &str = "<template data-hole=\"";
const HOLE_END: &str = "\"></template>";

impl Kept {
    fn render(
        comments: Vec<Comment>,
        place: &Place,
        lang: Lang,
        version: i64,
        now_ms: i64,
        levels: HashMap<String, u32>,
        sections: Vec<(String, String)>,
    ) -> Kept {
        let shown = |reader: Reader| Shown {
            place: place.clone(),
            lang,
            reader,
            version,
            now_ms,
            followed: Vec::new(),
            levels: levels.clone(),
            sections: sections.clone(),
            draft: None,
            report: None,
            holes: reader.signed_in,
        };
        let threads = |reader: &Reader| threads_for(comments.clone(), reader);
        let visitors = render(threads(&Reader::VISITOR), shown(Reader::VISITOR));
        let learner = threads(&Reader::ANY_LEARNER);
        let mut holes: HashMap<String, Piece> = HashMap::new();
        let w = lockstep_i18n::talk(lang);
        for t in &learner {
            let root = t.root.id;
            let html =
                |following| Owner::new().with(|| follow_form(root, following, lang, w).to_html());
            let (follow, unfollow) = (html(false), html(true));
            holes.insert(hole("follow", root), Piece::Follow { root, follow, unfollow });
            for c in std::iter::once(&t.root).chain(&t.replies) {
                holes.insert(hole("own", c.id), Piece::Own(Box::new(c.clone())));
            }
        }
        let html = render(learner, shown(Reader::ANY_LEARNER));
        let mut signed_in = Vec::new();
        let mut rest = html.as_str();
        while let Some(at) = rest.find(HOLE) {
            let len = rest[at..].find(HOLE_END).map_or(rest.len() - at, |end| end + HOLE_END.len());
            let Some(piece) = holes.remove(&rest[at..at + len]) else {
                // Not one of the holes listed (no comment's text can make one): left as it is.
                signed_in.push(Piece::Html(rest[..at + len].to_string()));
                rest = &rest[at + len..];
                continue;
            };
            signed_in.push(Piece::Html(rest[..at].to_string()));
            signed_in.push(piece);
            rest = &rest[at + len..];
        }
        signed_in.push(Piece::Html(rest.to_string()));
        Kept { comments, levels, sections, visitors, signed_in }
    }

    /// The signed-in rendering with `account`'s own bits.
    fn fill(&self, account: i64, followed: &[i64], lang: Lang, now_ms: i64) -> String {
        let w = lockstep_i18n::talk(lang);
        let mut html = String::with_capacity(self.visitors.len() * 2);
        for piece in &self.signed_in {
            match piece {
                Piece::Html(s) => html.push_str(s),
                Piece::Follow { root, follow, unfollow } => {
                    html.push_str(if followed.contains(root) { unfollow } else { follow })
                }
                Piece::Own(c) if c.account_id == account => {
                    let actions = own_actions(c, lang, now_ms, None, w);
                    html.push_str(&Owner::new().with(|| actions.to_html()));
                }
                // Where a rendering for this reader has `None`, Leptos writes a marker.
                Piece::Own(_) => html.push_str("<!>"),
            }
        }
        html
    }
}

/// The comments kept, a few versions and minutes of each place at most.
#[derive(Default)]
struct KeptPlaces(std::sync::Mutex<HashMap<KeptAs, Arc<Kept>>>);

impl KeptPlaces {
    fn get(&self, kept_as: &KeptAs) -> Option<Arc<Kept>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).get(kept_as).cloned()
    }

    fn put(&self, kept_as: KeptAs, kept: Arc<Kept>) {
        let mut places = self.0.lock().unwrap_or_else(|e| e.into_inner());
        // Older versions and minutes are never asked for again.
        places.retain(|(place, lang, ..), _| (place, lang) != (&kept_as.0, &kept_as.1));
        if places.len() >= 1_024 {
            places.clear();
        }
        places.insert(kept_as, kept);
    }
}

/// How many notifications are shown at most: the newest.
pub const NOTIFICATIONS_SHOWN: i64 = 100;

/// `account`'s notifications, worded in `lang`.
pub async fn notifications(
    rules: &Rules,
    account: i64,
    lang: Lang,
) -> Result<Vec<lockstep_web::model::NotificationItem>, RulesError> {
    let (w, t) = (lockstep_i18n::talk(lang), lockstep_i18n::t(lang));
    let now = lockstep_clock::now_ms();
    let found = rules.store.notifications(account, NOTIFICATIONS_SHOWN).await?;
    Ok(found
        .into_iter()
        .map(|n| {
            let title = title_of(rules, &n.place, lang);
            let (text, answer) = match &n.about {
                lockstep_store::About::Reply { author: id, author_name, by_instructor, .. } => {
                    let name = author(w, author_name.as_deref(), *id, *by_instructor);
                    ((w.replied)(&name, &title), None)
                }
                lockstep_store::About::Answer { status, reply, .. } => {
                    ((w.answered)(&title, (t.instructor.report_status)(status)), reply.clone())
                }
            };
            lockstep_web::model::NotificationItem {
                id: n.id,
                unread: n.read_ms.is_none(),
                text,
                ago: (w.ago)((now - n.created_ms).max(0) / 1000),
                answer,
            }
        })
        .collect())
}

/// How a notification names a reply's author: their chosen name, else "Learner #12"; an
/// instructor as one ("Instructor Kim", "An instructor"), never as a learner.
fn author(w: &TalkWords, name: Option<&str>, account: i64, instructor: bool) -> String {
    match (name, instructor) {
        (Some(name), false) => name.to_string(),
        (Some(name), true) => (w.instructor_named)(name),
        (None, false) => (w.learner)(account),
        (None, true) => w.an_instructor.to_string(),
    }
}

/// Where a notification or a report leads: the page of its place, at its comment if any.
pub fn href_of(place: &str, comment: Option<i64>, lang: Lang) -> Option<String> {
    let place = Place::parse(place)?;
    let page = lang.path(&place.page());
    Some(match comment {
        Some(id) => format!("{page}#{}", routes::comment_anchor(id)),
        None => page,
    })
}

/// The title of a place's page in `lang`: its lesson's or its exercise's, or its key.
pub fn title_of(rules: &Rules, place: &str, lang: Lang) -> String {
    let loaded = rules.course.loaded();
    let edition = loaded.edition(lang);
    match Place::parse(place) {
        Some(Place::Lesson(slug)) => match edition.course.find(&slug) {
            Some((_, lockstep_course::LessonEntry::Ready(lesson))) => lesson.front.title.clone(),
            _ => slug,
        },
        Some(Place::Exercise(id)) => match edition.course.exercise(&id) {
            Some((lesson, e)) => e.title.clone().unwrap_or_else(|| lesson.front.title.clone()),
            None => id,
        },
        None => place.to_string(),
    }
}

/// Each author's level, from their events (kept reads: a level shown a little late is fine).
async fn levels(rules: &Rules, comments: &[Comment]) -> Result<HashMap<String, u32>, RulesError> {
    let facts = lockstep_rules::progress::facts(&rules.course.current());
    // Collected first: a borrowing iterator held across the awaits would make the future
    // harder for the compiler to prove `Send`.
    let mut learners: Vec<String> = comments.iter().map(|c| c.learner_id.clone()).collect();
    learners.sort();
    learners.dedup();
    let mut levels = HashMap::new();
    for learner in learners {
        let reads = rules.store.cached().learner(&learner).await?;
        let level = lockstep_xp::progress(&facts, &reads.events).level.number;
        levels.insert(learner, level);
    }
    Ok(levels)
}

/// Each comment's section as the page names it: a comment posted from the Korean page is about
/// a Korean heading, which the English page has as its heading in the same place (a
/// translation keeps its source's headings, in order), and the other way round.
fn about_in(
    rules: &Rules,
    place: &Place,
    lang: Lang,
    here: &[(String, String)],
    comments: &mut [Comment],
) {
    let Place::Lesson(slug) = place else { return };
    let loaded = rules.course.loaded();
    for other in loaded.editions().filter(|e| e.lang != lang) {
        let there = other.course.sections(slug);
        for c in comments.iter_mut() {
            let Some(id) = &c.section else { continue };
            if here.iter().any(|(h, _)| h == id) {
                continue;
            }
            let same = there.iter().position(|(t, _)| t == id).and_then(|i| here.get(i));
            if let Some((h, _)) = same {
                c.section = Some(h.clone());
            }
        }
    }
}

/// The sections a comment may be about: the lesson's headings in the page's language.
fn sections(rules: &Rules, place: &Place, lang: Lang) -> Vec<(String, String)> {
    let Place::Lesson(slug) = place else { return Vec::new() };
    rules.course.edition(lang).course.sections(slug)
}

#[component]
fn Comments(threads: Vec<Thread>, shown: Shown) -> impl IntoView {
    let w = lockstep_i18n::talk(shown.lang);
    let count = threads.iter().map(|t| 1 + t.replies.len()).sum::<usize>()
        - threads.iter().filter(|t| t.root.deleted_ms.is_some()).count();
    let key = shown.place.key();
    let live = format!(
        "{}?place={}",
        routes::COMMENTS_EVENTS_API,
        routes::percent_encode(&key, |_| false)
    );
    let new_thread = new_thread_form(&shown, w);
    let list = if threads.is_empty() {
        view! { <p class="comments-empty">{w.empty}</p> }.into_any()
    } else {
        let items = threads.iter().map(|t| thread(t, &shown, w)).collect_view();
        view! { <ol class="threads">{items}</ol> }.into_any()
    };
    let refused = shown.report.clone();
    let report = view! { <ReportForm place=key.clone() sections=shown.sections.clone() refused/> };
    view! {
        <div class="comments" id="comments" data-role="comments" data-place=key
             data-version=shown.version.to_string() data-live=live lang=shown.lang.code()>
            {report}
            <h2 class="comments-heading">{(w.heading)(count)}</h2>
            {new_thread}
            {list}
        </div>
    }
}

fn new_thread_form(shown: &Shown, w: &'static TalkWords) -> AnyView {
    let lang = shown.lang;
    if !shown.reader.signed_in {
        return view! {
            <p class="comments-sign-in">
                {w.sign_in_to_write}
                <a href=lang.path(routes::ACCOUNT_SIGN_IN)>{w.sign_in}</a> "."
            </p>
        }
        .into_any();
    }
    let draft = shown
        .draft
        .as_ref()
        .filter(|d| d.parent.is_none() && d.edit.is_none())
        .map(|d| d.body.clone())
        .unwrap_or_default();
    let sections = (!shown.sections.is_empty()).then(|| {
        let sections = shown.sections.clone();
        view! {
            <SectionChoice sections label=w.section whole_page=w.whole_page role="comment-section"
                           class="comment-section"/>
        }
    });
    view! {
        <form class="comment-form" id="comment-form" data-form="new" method="post" action=lang.path(routes::COMMENTS)>
            <input type="hidden" name="place" value=shown.place.key()/>
            <TextArea text=draft name="body" rows=4 required=true maxlength=lockstep_comments::MAX_CHARS
                      placeholder=w.placeholder label=w.placeholder/>
            <p class="comment-help">{w.format_help}</p>
            {sections}
            <button type="submit" class="primary">{w.post}</button>
        </form>
    }
    .into_any()
}

fn thread(t: &Thread, shown: &Shown, w: &'static TalkWords) -> AnyView {
    let root = &t.root;
    let replies = (!t.replies.is_empty()).then(|| {
        let items =
            t.replies.iter().map(|c| view! { <li>{comment(c, shown, w)}</li> }).collect_view();
        view! { <ol class="replies">{items}</ol> }
    });
    let lang = shown.lang;
    let locked = root.locked_ms.is_some();
    let reply_form = match shown.reader.signed_in {
        _ if locked => view! { <p class="thread-locked">{w.locked}</p> }.into_any(),
        true if root.deleted_ms.is_none() && root.hidden_ms.is_none() => {
            let draft = shown.draft.as_ref().filter(|d| d.parent == Some(root.id));
            let body = draft.map(|d| d.body.clone()).unwrap_or_default();
            view! {
                <details class="reply" open=draft.is_some()>
                    <summary>{w.reply}</summary>
                    <form method="post" action=lang.path(routes::COMMENTS) data-form=format!("reply-{}", root.id)>
                        <input type="hidden" name="place" value=shown.place.key()/>
                        <input type="hidden" name="parent" value=root.id.to_string()/>
                        <TextArea text=body name="body" rows=3 required=true
                                  maxlength=lockstep_comments::MAX_CHARS label=w.reply/>
                        <button type="submit" class="secondary">{w.post_reply}</button>
                    </form>
                </details>
            }
            .into_any()
        }
        _ => ().into_any(),
    };
    let follow = match shown.reader.signed_in {
        false => view! {
            <a class="follow" href=lang.path(routes::ACCOUNT_SIGN_IN)>{w.follow_signed_out}</a>
        }
        .into_any(),
        true if shown.holes => hole_view("follow", root.id),
        true => follow_form(root.id, shown.followed.contains(&root.id), lang, w).into_any(),
    };
    view! {
        <li class="thread" class:locked=locked>
            {comment(root, shown, w)}
            {replies}
            <div class="thread-actions">{reply_form}{follow}</div>
        </li>
    }
    .into_any()
}

fn follow_form(root: i64, following: bool, lang: Lang, w: &'static TalkWords) -> impl IntoView {
    let (action, label) = if following { ("unfollow", w.unfollow) } else { ("follow", w.follow) };
    view! {
        <form class="follow" method="post" action=lang.path(&routes::comment_action(root, action))>
            <button type="submit" class="link-button">{label}</button>
        </form>
    }
}

/// A hole in [`Kept::signed_in`]: the same text as [`hole`].
fn hole_view(kind: &'static str, id: i64) -> AnyView {
    view! { <template data-hole=format!("{kind}-{id}")></template> }.into_any()
}

fn comment(c: &Comment, shown: &Shown, w: &'static TalkWords) -> AnyView {
    let lang = shown.lang;
    let anchor = routes::comment_anchor(c.id);
    if c.deleted_ms.is_some() {
        return view! {
            <article class="comment deleted" id=anchor><p>{w.deleted}</p></article>
        }
        .into_any();
    }
    // An instructor without a chosen name is named by the badge alone, not as a learner.
    let by_instructor = c.author_role == "instructor";
    let name = match (&c.display_name, by_instructor) {
        (Some(name), _) => Some(name.clone()),
        (None, false) => Some((w.learner)(c.account_id)),
        (None, true) => None,
    };
    let level = shown.levels.get(&c.learner_id).copied().unwrap_or(0);
    let level = (lockstep_i18n::t(lang).progress.level)(level);
    let instructor =
        by_instructor.then(|| view! { <span class="badge instructor">{w.instructor}</span> });
    let ago = (w.ago)((shown.now_ms - c.created_ms).max(0) / 1000);
    let edited = c.edited_ms.map(|_| view! { <span class="edited">" · " {w.edited}</span> });
    let about = c.section.as_ref().and_then(|id| {
        let (_, title) = shown.sections.iter().find(|(s, _)| s == id)?;
        let href = format!("{}#{id}", lang.path(&shown.place.page()));
        Some(view! { <p class="comment-about">{w.about} " " <a href=href>{title.clone()}</a></p> })
    });
    let note = if c.hidden_ms.is_some() {
        Some(w.hidden_note)
    } else if c.held_ms.is_some() {
        Some(w.held_note)
    } else {
        None
    };
    let note = note.map(|n| view! { <p class="comment-note">{n}</p> });
    let body = lockstep_comments::render_kept(&c.body).to_string();
    let own = if shown.holes {
        Some(hole_view("own", c.id))
    } else {
        let mine = shown.reader.account == Some(c.account_id);
        mine.then(|| own_actions(c, lang, shown.now_ms, shown.draft.as_ref(), w))
    };
    let moderation = shown.reader.instructor.then(|| moderation(c, shown, w));
    view! {
        <article class="comment" id=anchor class:hidden=c.hidden_ms.is_some() class:held=c.held_ms.is_some()>
            <header class="comment-meta">
                {name.map(|name| view! { <span class="author">{name}</span> })}
                {instructor}
                <span class="level">{level}</span>
                <a class="when" href=format!("#{}", routes::comment_anchor(c.id))>{ago}</a>
                {edited}
            </header>
            {about}
            {note}
            <div class="comment-body" inner_html=body></div>
            {own}
            {moderation}
        </article>
    }
    .into_any()
}

/// The author's edit (within the window) and delete.
fn own_actions(
    c: &Comment,
    lang: Lang,
    now_ms: i64,
    draft: Option<&CommentDraft>,
    w: &'static TalkWords,
) -> AnyView {
    let edit = lockstep_rules::comments::editable(c, now_ms).then(|| {
        let draft = draft.filter(|d| d.edit == Some(c.id));
        let body = draft.map_or_else(|| c.body.clone(), |d| d.body.clone());
        view! {
            <details class="edit" open=draft.is_some()>
                <summary>{w.edit}</summary>
                <form method="post" action=lang.path(&routes::comment_action(c.id, "edit")) data-form=format!("edit-{}", c.id)>
                    <TextArea text=body name="body" rows=4 required=true
                              maxlength=lockstep_comments::MAX_CHARS label=w.edit/>
                    <button type="submit" class="secondary">{w.save}</button>
                </form>
            </details>
        }
    });
    view! {
        <div class="comment-actions">
            {edit}
            <form method="post" action=lang.path(&routes::comment_action(c.id, "delete"))>
                <button type="submit" class="link-button">{w.delete}</button>
            </form>
        </div>
    }
    .into_any()
}

/// An instructor's actions on any comment, and who wrote it.
fn moderation(c: &Comment, shown: &Shown, w: &'static TalkWords) -> AnyView {
    let lang = shown.lang;
    let mut actions = Vec::new();
    if c.held_ms.is_some() {
        actions.push(("restore", w.approve));
    }
    if c.hidden_ms.is_some() {
        actions.push(("restore", w.restore));
    } else {
        actions.push(("hide", w.hide));
    }
    if c.parent_id.is_none() {
        actions.push(if c.locked_ms.is_some() { ("unlock", w.unlock) } else { ("lock", w.lock) });
    }
    actions.push(("remove", w.remove));
    actions.dedup_by_key(|(a, _)| *a);
    let buttons = actions
        .into_iter()
        .map(|(action, label)| {
            view! {
                <form method="post" action=lang.path(&routes::comment_action(c.id, action))>
                    <button type="submit" class="link-button" data-action=action>{label}</button>
                </form>
            }
        })
        .collect_view();
    view! {
        <div class="comment-moderation" aria-label=w.moderation>
            <span class="author-account">{(w.by)(&c.author_email)}</span>
            {buttons}
        </div>
    }
    .into_any()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(id: i64, parent: Option<i64>, account: i64) -> Comment {
        Comment {
            id,
            place: "lesson:x".into(),
            parent_id: parent,
            account_id: account,
            display_name: None,
            learner_id: format!("l{account}"),
            author_role: "learner".into(),
            author_email: format!("{account}@example.org"),
            body: "b".into(),
            section: None,
            created_ms: 0,
            edited_ms: None,
            deleted_ms: None,
            hidden_ms: None,
            held_ms: None,
            locked_ms: None,
            activity_ms: 0,
        }
    }

    #[test]
    fn hidden_and_held_comments_are_their_authors_and_the_instructors() {
        let hidden_root = Comment { hidden_ms: Some(1), ..c(1, None, 1) };
        let held_reply = Comment { held_ms: Some(1), ..c(3, Some(2), 3) };
        let gone = Comment { deleted_ms: Some(1), ..c(4, None, 1) };
        let all = vec![hidden_root, c(5, Some(1), 2), c(2, None, 2), held_reply, gone];
        let ids = |reader: Reader| -> Vec<Vec<i64>> {
            threads_for(all.clone(), &reader)
                .iter()
                .map(|t| std::iter::once(&t.root).chain(&t.replies).map(|c| c.id).collect())
                .collect()
        };
        let anyone = Reader::VISITOR;
        assert_eq!(ids(anyone), [vec![2]], "a hidden thread goes whole; a bare deletion goes");
        assert_eq!(ids(Reader { account: Some(3), signed_in: true, ..anyone }), [vec![2, 3]]);
        assert_eq!(ids(Reader { account: Some(1), ..anyone }), [vec![1, 5], vec![2]]);
        assert_eq!(
            ids(Reader { account: Some(9), signed_in: true, instructor: true }),
            [vec![1, 5], vec![2, 3]]
        );
    }

    #[test]
    fn the_kept_rendering_filled_for_a_learner_is_their_own_rendering() {
        let now = 10 * 60 * 1000;
        let mut all = vec![
            Comment { created_ms: now - 60_000, ..c(1, None, 1) },
            Comment { edited_ms: Some(now), ..c(5, Some(1), 2) },
            Comment {
                body: "<template data-hole=\"own-2\"></template> `x` [a](https://e.org)".into(),
                section: Some("s1".into()),
                ..c(2, None, 2)
            },
            Comment { deleted_ms: Some(1), ..c(6, None, 3) },
            c(7, Some(6), 1),
            Comment { locked_ms: Some(1), author_role: "instructor".into(), ..c(8, None, 4) },
            Comment { hidden_ms: Some(1), ..c(9, Some(8), 5) },
        ];
        all[0].display_name = Some("Ada <b>".into());
        let place = Place::Lesson("x".into());
        let sections = vec![("s1".to_string(), "One".to_string())];
        let levels: HashMap<String, u32> = [("l1".to_string(), 3)].into();
        for lang in Lang::ALL {
            let kept =
                Kept::render(all.clone(), &place, lang, 7, now, levels.clone(), sections.clone());
            let own = |reader: Reader, followed: Vec<i64>| {
                let shown = Shown {
                    place: place.clone(),
                    lang,
                    reader,
                    version: 7,
                    now_ms: now,
                    followed,
                    levels: levels.clone(),
                    sections: sections.clone(),
                    draft: None,
                    report: None,
                    holes: false,
                };
                render(threads_for(all.clone(), &reader), shown)
            };
            assert_eq!(kept.visitors, own(Reader::VISITOR, vec![]));
            for (account, followed) in [(1, vec![1, 6]), (2, vec![]), (4, vec![8]), (42, vec![2])] {
                let reader = Reader { account: Some(account), signed_in: true, instructor: false };
                let filled = kept.fill(account, &followed, lang, now);
                assert_eq!(filled, own(reader, followed), "learner {account}, {lang:?}");
                assert!(!filled.contains(HOLE), "{filled}");
            }
            let first = kept.fill(1, &[], lang, now);
            assert!(first.contains(&routes::comment_action(1, "edit")), "{first}");
            assert!(!first.contains(&routes::comment_action(2, "edit")), "{first}");
            assert!(first.contains("&lt;template data-hole"), "a comment's text stays text");
        }
    }
}
