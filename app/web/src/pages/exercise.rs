//! A graded exercise: the starting script in an editor, Submit, and the learner's submissions.
//! The form is a plain post (it works without JavaScript); the browser bundle's editor only
//! upgrades the text area it posts.

use leptos::prelude::*;
use leptos_meta::{Script, Title};
use leptos_router::hooks::{use_params_map, use_query_map};
use lockstep_routes::{ACCOUNT, DRAFTS_API, SUBMISSIONS_API};

use crate::api::get_exercise;
use crate::clock::Time;
use crate::components::{ProgressPanel, TextArea, Toast};
use crate::model::{ExercisePage as Page, SubmissionRow};
use crate::resource::resource;

#[component]
pub fn ExercisePage() -> impl IntoView {
    let params = use_params_map();
    let query = use_query_map();
    let id = move || params.read().get("id").unwrap_or_default();
    let from = move || query.read().get("from");
    let lang = crate::page::use_lang();
    let w = &lockstep_i18n::t(lang).exercise;
    let page =
        resource(move || (id(), from(), lang), |(id, from, lang)| get_exercise(id, from, lang));
    view! {
        <Suspense fallback=move || view! { <p class="loading">{w.loading}</p> }>
            {move || Suspend::new(async move {
                match page.await {
                    Ok(Page { exercise: None, .. }) => view! { <super::NotFound/> }.into_any(),
                    Ok(p) => view! { <Exercise p/> }.into_any(),
                    Err(e) => {
                        super::set_status(500);
                        view! { <p class="error">{w.load_failed} {e.to_string()}</p> }.into_any()
                    }
                }
            })}
        </Suspense>
    }
}

#[component]
fn Exercise(p: Page) -> impl IntoView {
    let Page { exercise, signed_in, error, editor, submissions, progress } = p;
    let e = exercise.expect("the page shows found exercises only");
    let pinned = editor.pinned().to_string();
    // Whose copy the browser keeps: an account's apart from another's on a shared machine.
    let owner = progress.account.as_deref().map(owner_key).unwrap_or_else(|| "visitor".into());
    let lang = crate::page::use_lang();
    crate::talk_live::follow(lang);
    let w = &lockstep_i18n::t(lang).exercise;
    let describe = editor.describe(lang);
    let start_over = format!("{}?from=start", lang.path(&lockstep_routes::exercise(&e.id)));
    let lesson = lang.path(&lockstep_routes::lesson(&e.lesson_slug));
    let error =
        error.map(|e| view! { <p class="form-error" role="alert" data-role="form-error">{e}</p> });
    let title = e.title.clone();
    let submit = if signed_in {
        view! { <button type="submit" class="primary" data-role="submit">{w.submit}</button> }
            .into_any()
    } else {
        view! {
            <p class="muted" data-role="sign-in-to-submit">
                <a href=lang.path(ACCOUNT)>{w.sign_in}</a>
                {w.sign_in_to_submit}
            </p>
        }
        .into_any()
    };
    view! {
        <Title text=title.clone()/>
        // The editor upgrades the text area once the page is hydrated (app/web/editor).
        <Script type_="module" src=crate::page::bundle_file("editor.js")/>
        <section class="exercise-page" data-exercise=e.id.clone()>
            <p class="breadcrumb"><a href=lesson>{e.lesson_title.clone()}</a></p>
            <h1>{title}</h1>
            <Toast message=RwSignal::new(progress.notice.clone())/>
            <ProgressPanel progress=Signal::stored(progress)/>
            // The task as the lesson sets it (course-renderer HTML: the author's markdown, raw
            // HTML refused).
            <div class="exercise-task lesson-body" data-role="task" inner_html=e.task_html.clone()></div>
            <p class="muted">
                {w.grader_before}
                <code>"torchrun"</code>
                {(w.grader_after)(e.xp)}
                <a href=e.section_href.clone() data-role="section">{w.back_to_section}</a>
            </p>
            <h2 id="checks">{w.checks}</h2>
            <ol class="exercise-checks" data-role="checks">
                {e.checks
                    .iter()
                    .map(|c| view! {
                        <li>
                            <strong>{c.title.clone()}</strong>
                            ": " {c.asks.clone()} " "
                            <a href=c.href.clone()>{w.where_taught}</a>
                        </li>
                    })
                    .collect_view()}
            </ol>
            {error}
            // Multipart, so that without JavaScript the chosen file travels with the form.
            <form method="post" action=lang.path(SUBMISSIONS_API) enctype="multipart/form-data" class="exercise-form" data-role="exercise-form">
                <input type="hidden" name="exercise" value=e.id.clone()/>
                <input type="hidden" name="file_name" value=e.file_name.clone()/>
                <label for="script">{e.file_name.clone()}</label>
                <p class="upload">
                    <label>{w.upload} <input type="file" name="upload" accept=".py,text/x-python" data-upload/></label>
                </p>
                // The editor keeps a copy in the browser as the learner types, and for an
                // account saves it to the server too (app/web/editor/editor.js).
                <div
                    class="draft"
                    data-draft=e.id.clone()
                    data-saved-ms=editor.saved_ms
                    data-pinned=pinned
                    data-autosave=signed_in.then_some(DRAFTS_API)
                    data-owner=owner
                    data-said-restored=w.draft_restored
                    data-said-saved=w.draft_saved
                    data-said-save-failed=w.draft_save_failed
                    data-said-kept=w.draft_kept
                    data-code-label=w.python_code
                >
                    <p class="muted draft-source" data-role="script-source">
                        {describe}
                        " "
                        <a href=start_over data-role="start-over">{w.start_over}</a>
                    </p>
                    <TextArea text=editor.script id="script" name="script" rows=30 editor="python"/>
                    <p class="muted draft-status" data-role="draft-status" aria-live="polite"></p>
                </div>
                {submit}
            </form>
            <Submissions rows=submissions/>
            {super::lesson::request_part(crate::page::COMMENTS_PART)}
        </section>
    }
}

/// A short, stable name for an account's drafts in the browser's storage: not the email
/// itself, which the storage would otherwise keep in plain sight.
fn owner_key(email: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in email.bytes() {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    format!("a{h:016x}")
}

#[component]
fn Submissions(rows: Vec<SubmissionRow>) -> impl IntoView {
    let lang = crate::page::use_lang();
    let w = &lockstep_i18n::t(lang).exercise;
    let said = &lockstep_i18n::t(lang).submission;
    (!rows.is_empty()).then(|| {
        view! {
            <h2>{w.your_submissions}</h2>
            <table class="submissions" data-role="submissions">
                <thead><tr><th scope="col">{w.submission}</th><th scope="col">{w.submitted}</th><th scope="col">{w.status}</th></tr></thead>
                <tbody>
                    {rows
                        .into_iter()
                        .map(|r| {
                            let shown = r.verdict.clone().unwrap_or(r.status.clone());
                            view! {
                                <tr>
                                    <td><a href=lang.path(&lockstep_routes::submission(r.id))>{format!("#{}", r.id)}</a></td>
                                    <td><Time moment=r.when/></td>
                                    <td class=format!("verdict-{shown}")>{(said.status_word)(&shown)}</td>
                                </tr>
                            }
                        })
                        .collect_view()}
                </tbody>
            </table>
        }
    })
}
