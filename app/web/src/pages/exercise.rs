//! A graded exercise: the starting script in an editor, Submit, and the learner's submissions.
//! The form is a plain post (it works without JavaScript); the browser bundle's editor only
//! upgrades the text area it posts.

use leptos::prelude::*;
use leptos_meta::{Script, Title};
use leptos_router::hooks::use_params_map;
use lockstep_routes::{ACCOUNT, SUBMISSIONS_API};

use crate::api::get_exercise;
use crate::components::{ProgressPanel, TextArea, Toast};
use crate::model::{ExercisePage as Page, SubmissionRow};

#[component]
pub fn ExercisePage() -> impl IntoView {
    let params = use_params_map();
    let id = move || params.read().get("id").unwrap_or_default();
    let page = Resource::new(id, get_exercise);
    view! {
        <Suspense fallback=|| view! { <p class="loading">"Loading the exercise…"</p> }>
            {move || Suspend::new(async move {
                match page.await {
                    Ok(Page { exercise: None, .. }) => view! { <super::NotFound/> }.into_any(),
                    Ok(p) => view! { <Exercise p/> }.into_any(),
                    Err(e) => {
                        super::set_status(500);
                        view! { <p class="error">"The exercise could not be loaded: " {e.to_string()}</p> }.into_any()
                    }
                }
            })}
        </Suspense>
    }
}

#[component]
fn Exercise(p: Page) -> impl IntoView {
    let Page { exercise, signed_in, error, draft, submissions, progress } = p;
    let e = exercise.expect("the page shows found exercises only");
    let script = draft.unwrap_or_else(|| e.starter.clone());
    let lesson = lockstep_routes::lesson(&e.lesson_slug);
    let error =
        error.map(|e| view! { <p class="form-error" role="alert" data-role="form-error">{e}</p> });
    let title = e.title.clone();
    let submit = if signed_in {
        view! { <button type="submit" class="primary" data-role="submit">"Submit for grading"</button> }
            .into_any()
    } else {
        view! {
            <p class="muted" data-role="sign-in-to-submit">
                <a href=ACCOUNT>"Sign in"</a>
                " to submit: grading runs your script on a real machine for a few minutes, so it is kept for accounts."
            </p>
        }
        .into_any()
    };
    view! {
        <Title text=title.clone()/>
        // The editor upgrades the text area once the page is hydrated (app/web/editor).
        <Script type_="module" src="/pkg/editor.js"/>
        <section class="exercise-page" data-exercise=e.id.clone()>
            <p class="breadcrumb"><a href=lesson>{e.lesson_title.clone()}</a></p>
            <h1>{title}</h1>
            <Toast message=RwSignal::new(progress.notice.clone())/>
            <ProgressPanel progress=Signal::stored(progress)/>
            // The task as the lesson sets it (course-renderer HTML: the author's markdown, raw
            // HTML refused).
            <div class="exercise-task lesson-body" data-role="task" inner_html=e.task_html.clone()></div>
            <p class="muted">
                "The grader runs your script with "
                <code>"torchrun"</code>
                " in a sandbox, watches what every rank really does, and checks it against the lesson. A pass (every check) earns "
                {e.xp}
                " XP, once. "
                <a href=e.section_href.clone() data-role="section">"Back to the lesson section"</a>
            </p>
            <h2 id="checks">"What the grader checks"</h2>
            <ol class="exercise-checks" data-role="checks">
                {e.checks
                    .iter()
                    .map(|c| view! {
                        <li>
                            <strong>{c.title.clone()}</strong>
                            ": " {c.asks.clone()} " "
                            <a href=c.href.clone()>"Where the lesson teaches it"</a>
                        </li>
                    })
                    .collect_view()}
            </ol>
            {error}
            // Multipart, so that without JavaScript the chosen file travels with the form.
            <form method="post" action=SUBMISSIONS_API enctype="multipart/form-data" class="exercise-form" data-role="exercise-form">
                <input type="hidden" name="exercise" value=e.id.clone()/>
                <input type="hidden" name="file_name" value=e.file_name.clone()/>
                <label for="script">{e.file_name.clone()}</label>
                <p class="upload">
                    <label>"Or upload your script (it replaces the text below): " <input type="file" name="upload" accept=".py,text/x-python" data-upload/></label>
                </p>
                <TextArea text=script id="script" name="script" rows=30 editor="python"/>
                {submit}
            </form>
            <Submissions rows=submissions/>
        </section>
    }
}

#[component]
fn Submissions(rows: Vec<SubmissionRow>) -> impl IntoView {
    (!rows.is_empty()).then(|| {
        view! {
            <h2>"Your submissions"</h2>
            <table class="submissions" data-role="submissions">
                <thead><tr><th scope="col">"Submission"</th><th scope="col">"Status"</th></tr></thead>
                <tbody>
                    {rows
                        .into_iter()
                        .map(|r| {
                            let shown = r.verdict.clone().unwrap_or(r.status.clone());
                            view! {
                                <tr>
                                    <td><a href=lockstep_routes::submission(r.id)>{format!("#{}", r.id)}</a></td>
                                    <td class=format!("verdict-{shown}")>{shown.clone()}</td>
                                </tr>
                            }
                        })
                        .collect_view()}
                </tbody>
            </table>
        }
    })
}
