//! A submission's page: where it is (queued, which run is going), each check as it is
//! decided, then the verdict, every failure linked to the lesson section that teaches it.
//!
//! The server renders what has happened so far. With JavaScript the page follows the
//! submission's server-sent events from the last one it has; without, it reloads itself every
//! few seconds until the verdict is in.

use grading_protocol::live::Event;
use grading_protocol::{Check, CheckStatus, RunRole};
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_params_map;

use crate::api::get_submission;
use crate::components::{ProgressPanel, ReportForm, Toast};
use crate::model::{LiveEvent, SubmissionPage as Page, SubmissionView};
use crate::resource::resource;

#[component]
pub fn SubmissionPage() -> impl IntoView {
    let params = use_params_map();
    let id = move || params.read().get("id").and_then(|id| id.parse::<i64>().ok());
    let lang = crate::page::use_lang();
    let w = &lockstep_i18n::t(lang).submission;
    let page = resource(
        move || (id(), lang),
        |(id, lang)| async move {
            match id {
                Some(id) => get_submission(id, lang).await.map(Some),
                None => Ok(None),
            }
        },
    );
    view! {
        <Suspense fallback=move || view! { <p class="loading">{w.loading}</p> }>
            {move || Suspend::new(async move {
                match page.await {
                    Ok(Some(Page { submission: Some(s), progress })) => {
                        view! { <Submission s progress/> }.into_any()
                    }
                    Ok(_) => view! { <super::NotFound/> }.into_any(),
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
fn Submission(s: SubmissionView, progress: crate::model::ProgressView) -> impl IntoView {
    let id = s.id;
    let lang = crate::page::use_lang();
    let w = &lockstep_i18n::t(lang).submission;
    let events = RwSignal::new(s.events.clone());
    let verdict = RwSignal::new(s.verdict.clone());
    let done = RwSignal::new(s.done);
    // The panel and what the verdict earned change live with the verdict; the toast says so
    // only then (a graded page loaded later shows what it earned beside the verdict).
    let progress = RwSignal::new(progress);
    let earned = RwSignal::new(s.earned.clone());
    let toast = RwSignal::new(None::<String>);
    #[cfg(feature = "hydrate")]
    {
        let after = s.events.last().map_or(0, |e| e.id);
        let graded = live::Graded { events, verdict, done, progress, earned, toast };
        Effect::new(move |_| {
            if !done.get_untracked() {
                live::follow(id, after, graded, lang);
            }
        });
    }
    let file_name = s.file_name.clone();
    let flagged =
        s.verdict.as_ref().and_then(|v| v.error.as_ref()).and_then(|e| {
            (e.file.as_deref() == Some(file_name.as_str())).then_some(e.line).flatten()
        });
    let resubmit = s.own.then(|| {
        let href = format!("{}?from={id}", lang.path(&lockstep_routes::exercise(&s.exercise)));
        view! { <a class="button" href=href data-role="resubmit">{w.resubmit}</a> }.into_any()
    });
    let lesson = s.lesson_slug.clone().map(|slug| {
        let title = s.lesson_title.clone().unwrap_or(slug.clone());
        view! { <p class="breadcrumb"><a href=lang.path(&lockstep_routes::exercise(&s.exercise))>{w.exercise_crumb} {title}</a></p> }
    });
    let refresh = (!s.done).then(|| {
        // Without JavaScript, the page reloads itself until the verdict is in; with it, the
        // `noscript` is inert and the live events update the page instead.
        view! { <div inner_html=r#"<noscript><meta http-equiv="refresh" content="3"></noscript>"#></div> }
    });
    // Only while no worker has it: the first live event after `queued` ends the chance.
    let can_cancel = s.can_cancel;
    let cancel = move || {
        let queued = events.with(|es| {
            let last = es.last().map(|e| &e.event);
            matches!(
                last,
                Some(Event::Queued { .. } | Event::Requeued { .. } | Event::WaitingForNode(_))
            )
        });
        (can_cancel && queued && !done.get()).then(|| {
            view! {
                <form method="post" action=lang.path(&lockstep_routes::submission_cancel(id)) class="inline-form">
                    <button type="submit" class="secondary" data-role="cancel">{w.cancel}</button>
                </form>
            }
        })
    };
    let rerun = s.can_rerun.then(|| {
        view! {
            <form method="post" action=lang.path(&lockstep_routes::submission_rerun(id)) class="inline-form">
                <button type="submit" class="secondary" data-role="rerun">{w.rerun}</button>
            </form>
        }
    });
    // Each check's lesson section in the page's language, by the section the verdict names.
    let sections = s.sections.clone();
    let checks = move || {
        // The stored verdict is the authority; before it, the checks reported so far.
        match verdict.get() {
            Some(v) => v.checks,
            None => events
                .get()
                .into_iter()
                .filter_map(|e| match e.event {
                    Event::Check { check } => Some(check),
                    _ => None,
                })
                .collect(),
        }
    };
    let report_place = lockstep_routes::Place::Exercise(s.exercise.clone()).key();
    view! {
        <Title text=(w.title)(id)/>
        {refresh}
        <section class="submission-page" data-submission=id>
            {lesson}
            <h1>{(w.heading)(id, &s.file_name)}</h1>
            <Toast message=toast/>
            <ProgressPanel progress=Signal::from(progress)/>
            <p class="submission-status" role="status" aria-live="polite" data-role="status" data-done=move || done.get().to_string()>
                {move || status_line(&events.get(), lang)}
            </p>
            {cancel}
            {rerun}
            <ol class="runs" data-role="runs">
                {move || runs(&events.get(), lang).into_iter().map(|r| view! { <li>{r}</li> }).collect_view()}
            </ol>
            <ul class="checks" data-role="checks">
                {move || {
                    let case = verdict.with(|v| v.as_ref().and_then(LearnerCase::of));
                    let file_name = file_name.clone();
                    let sections = sections.clone();
                    checks().into_iter().map(|c| view! { <CheckItem c case file_name=file_name.clone() sections=sections.clone()/> }).collect_view()
                }}
            </ul>
            {move || verdict.get().map(|v| {
                let comparison = super::run_vs_model::compare(&v);
                let report_place = report_place.clone();
                view! {
                    <p class=format!("verdict verdict-{}", v.status.as_str()) data-role="verdict">
                        <strong>{(w.status_word)(v.status.as_str()).to_uppercase()}</strong> ": " {v.summary_in(lang)}
                    </p>
                    {move || earned.get().and_then(|e| e.message(lang)).map(|m| view! {
                        <p class="earned" data-role="earned">{m}</p>
                    })}
                    {v.error.map(|e| view! { <pre class="verdict-error" data-role="verdict-error">{e.message_in(lang)}</pre> })}
                    {comparison.map(|c| view! { <super::run_vs_model::RunBesideModel c/> })}
                    <ReportForm place=report_place submission=id/>
                }
                .into_any()
            })}
            <GradedScript file_name=s.file_name.clone() lines=s.script.clone() flagged resubmit/>
        </section>
    }
}

/// The script as it was graded, numbered as the verdict's `file:line` counts, each line an
/// anchor (`#L12`) that messages link to; the line an error names is marked.
#[component]
fn GradedScript(
    file_name: String,
    lines: Vec<lockstep_highlight::Line>,
    flagged: Option<u32>,
    resubmit: Option<AnyView>,
) -> impl IntoView {
    view! {
        <h2 id="script">{crate::page::use_t().submission.graded_script}</h2>
        {resubmit.map(|r| view! { <p>{r}</p> })}
        <figure class="code-block graded-script" data-role="graded-script">
            <figcaption><span class="code-title">{file_name}</span><span class="code-lang">"python"</span></figcaption>
            <pre class="numbered"><code class="language-python">
                {lines
                    .into_iter()
                    .enumerate()
                    .map(|(i, line)| {
                        let n = i as u32 + 1;
                        let class = if flagged == Some(n) { "code-line line-flagged" } else { "code-line" };
                        view! {
                            <span class=class id=format!("L{n}")>
                                <span class="line-number" aria-hidden="true">{n}</span>
                                {line
                                    .into_iter()
                                    .map(|span| match span.kind {
                                        Some(kind) => view! { <span class=kind.class()>{span.text}</span> }.into_any(),
                                        None => span.text.into_any(),
                                    })
                                    .collect_view()}
                            </span>
                        }
                    })
                    .collect_view()}
            </code></pre>
        </figure>
    }
}

/// A message with every `FILE:LINE` of the graded script made a link to that line.
fn with_line_links(text: &str, file_name: &str) -> impl IntoView {
    let mut pieces = Vec::new();
    let mut rest = text;
    let needle = format!("{file_name}:");
    while let Some(at) = rest.find(&needle) {
        let after = &rest[at + needle.len()..];
        let digits = after.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 {
            pieces.push(rest[..at + needle.len()].to_string().into_any());
            rest = after;
            continue;
        }
        pieces.push(rest[..at].to_string().into_any());
        let site = rest[at..at + needle.len() + digits].to_string();
        let href = format!("#L{}", &after[..digits]);
        pieces.push(view! { <a href=href class="line-link">{site}</a> }.into_any());
        rest = &after[digits..];
    }
    pieces.push(rest.to_string().into_any());
    pieces.collect_view()
}

/// What the verdict's graded run showed of the learner's data, to set a simulation up as
/// their script ran.
#[derive(Debug, Clone, Copy, PartialEq)]
struct LearnerCase {
    dataset_len: u64,
    world: u32,
}

impl LearnerCase {
    fn of(v: &grading_protocol::Verdict) -> Option<LearnerCase> {
        let run = v.runs.iter().find(|r| r.role == RunRole::Ddp)?;
        let dataset_len = run.measured.as_ref()?.dataset_len?;
        Some(LearnerCase { dataset_len, world: run.nproc.max(1) })
    }
}

/// The simulation that shows a failed check's mistake in the learner's own case, with what it
/// shows in words.
fn case_simulation(
    c: &Check,
    case: LearnerCase,
    lang: lockstep_i18n::Lang,
) -> Option<(lockstep_embed::Simulation, String)> {
    let w = &lockstep_i18n::t(lang).submission;
    use grading_protocol::CheckId;
    use lockstep_embed::{Sampler, Simulation, MAX_REPLICAS};
    if c.status != CheckStatus::Fail {
        return None;
    }
    let replicas = (case.world as usize).min(MAX_REPLICAS);
    // Every index is drawn as a cell: a few per process keep the pattern readable.
    let shown = (case.dataset_len as usize).clamp(1, 8 * replicas);
    let scale = if shown as u64 == case.dataset_len {
        String::new()
    } else {
        (w.case_scale)(case.dataset_len, shown)
    };
    let sampler = |set_epoch| {
        Simulation::Sampler(Sampler {
            len: shown,
            replicas,
            seed: 0,
            epoch: 0,
            shuffle: true,
            drop_last: false,
            set_epoch,
        })
    };
    match c.id {
        CheckId::SamplerSetEpoch => Some((sampler(false), (w.case_set_epoch)(replicas, &scale))),
        CheckId::SamplerSharding => Some((sampler(true), (w.case_sharding)(replicas, &scale))),
        _ => None,
    }
}

#[component]
fn CheckItem(
    c: Check,
    case: Option<LearnerCase>,
    file_name: String,
    sections: Vec<crate::model::SectionLink>,
) -> impl IntoView {
    let lang = crate::page::use_lang();
    let w = &lockstep_i18n::t(lang).submission;
    let sim = case.and_then(|case| case_simulation(&c, case, lang)).map(|(sim, caption)| {
        view! {
            <figure class="check-sim" data-role="case-sim">
                <figcaption>{caption}</figcaption>
                <crate::sims::SimulationView sim/>
            </figure>
        }
        .into_any()
    });
    // A slow run is explained by the cost model set to the learner's own model and batch.
    let model = (case.is_some()
        && c.id == grading_protocol::CheckId::Speedup
        && c.status == CheckStatus::Fail)
        .then(|| {
            view! {
                <p class="check-model"><a href="#run-vs-model">{w.beside_model}</a></p>
            }
        });
    let status = c.status.as_str();
    let title = crate::model::check_words(c.id, lang).0;
    // The server's link for the section in this language (it lists every section the verdict
    // names); one it did not list links to the course's own.
    let section = sections
        .iter()
        .find(|s| s.lesson == c.section.lesson && s.heading == c.section.heading)
        .map(|s| s.href.clone())
        .or_else(|| lockstep_routes::section_link(&c.section.lesson, &c.section.heading));
    view! {
        <li class=format!("check check-{status}") data-check=c.id.as_str()>
            <span class="check-status">{(w.status_word)(status)}</span>
            " "
            <strong>{title}</strong>
            " "
            <span class="check-message">{with_line_links(&c.message_in(lang), &file_name)}</span>
            {c.hint_in(lang).map(|h| view! { <p class="check-hint">{h}</p> })}
            {(c.status != CheckStatus::Pass)
                .then_some(section)
                .flatten()
                .map(|href| view! {
                    <p class="check-lesson"><a href=href>{w.read_section}</a></p>
                })}
            {model}
            {sim}
        </li>
    }
}

/// Where the submission is, in words, from its latest event that says.
pub fn status_line(events: &[LiveEvent], lang: lockstep_i18n::Lang) -> String {
    let w = &lockstep_i18n::t(lang).submission;
    let mut line = w.waiting.to_string();
    for e in events {
        line = match &e.event {
            Event::Queued { ahead: 0 } => w.waiting_next.into(),
            Event::Queued { ahead } => (w.waiting_ahead)(*ahead),
            Event::WaitingForNode(wait) => wait.describe_in(lang),
            // The worker's name is the operators' (`local/host`, `slurm/node/job`): a learner
            // learns only that grading began, and on which GPU node when Slurm says.
            Event::Started { attempt, node, .. } => {
                let place = match node {
                    Some(node) => (w.on_node)(node),
                    None => w.being_graded.to_string(),
                };
                (w.attempt)(&place, *attempt)
            }
            Event::RunStarted { index, role, nproc } => {
                (w.run)(*index, &run_words(*role, *nproc, lang))
            }
            Event::RunFinished { .. } | Event::Check { .. } => continue,
            Event::Requeued { reason } => (w.requeued)(reason),
            Event::Verdict { status, .. } => {
                let summary = e.event.summary_in(lang).unwrap_or_default();
                (w.graded)(&(w.status_word)(status.as_str()).to_uppercase(), &summary)
            }
            Event::Failed { reason } => (w.failed)(reason),
            Event::Cancelled => w.cancelled.into(),
        };
    }
    line
}

fn run_words(role: RunRole, nproc: u32, lang: lockstep_i18n::Lang) -> String {
    let w = &lockstep_i18n::t(lang).submission;
    match role {
        RunRole::Ddp => (w.run_ddp)(nproc),
        RunRole::Single => w.run_single.into(),
        RunRole::Uninterrupted => (w.run_uninterrupted)(nproc),
        RunRole::Interrupted => (w.run_interrupted)(nproc),
    }
}

/// Each run as it went: "Run 2: your script with 1 process, to time the speedup: 14.2 s".
pub fn runs(events: &[LiveEvent], lang: lockstep_i18n::Lang) -> Vec<String> {
    let w = &lockstep_i18n::t(lang).submission;
    let mut runs: Vec<(u32, String, Option<f64>)> = Vec::new();
    for e in events {
        match &e.event {
            Event::RunStarted { index, role, nproc } => {
                runs.push((*index, run_words(*role, *nproc, lang), None));
            }
            Event::RunFinished { index, wall_s, .. } => {
                if let Some(r) = runs.iter_mut().rev().find(|r| r.0 == *index) {
                    r.2 = Some(*wall_s);
                }
            }
            // A new attempt starts its runs afresh.
            Event::Started { .. } => runs.clear(),
            _ => {}
        }
    }
    runs.into_iter()
        .map(|(i, what, wall)| match wall {
            Some(s) => (w.run_took)(i, &what, s),
            None => (w.run_running)(i, &what),
        })
        .collect()
}

/// The browser's half: follows the submission's server-sent events.
#[cfg(feature = "hydrate")]
mod live {
    use leptos::prelude::*;
    use wasm_bindgen::prelude::*;
    use wasm_bindgen::JsCast;

    use crate::model::{LiveEvent, ProgressView, Progressed};

    const KINDS: &[&str] = &[
        "queued",
        "waiting_for_node",
        "started",
        "run_started",
        "run_finished",
        "check",
        "verdict",
        "requeued",
        "failed",
        "cancelled",
    ];

    /// What the live events and the verdict's arrival update.
    #[derive(Clone, Copy)]
    pub struct Graded {
        pub events: RwSignal<Vec<LiveEvent>>,
        pub verdict: RwSignal<Option<grading_protocol::Verdict>>,
        pub done: RwSignal<bool>,
        pub progress: RwSignal<ProgressView>,
        pub earned: RwSignal<Option<Progressed>>,
        pub toast: RwSignal<Option<String>>,
    }

    pub fn follow(id: i64, after: i64, graded: Graded, lang: lockstep_i18n::Lang) {
        let Graded { events, verdict, done, progress, earned, toast } = graded;
        // In the page's language: the server words each check and the verdict.
        let url = format!(
            "{}?after={after}&lang={}",
            lockstep_routes::submission_events(id),
            lang.code()
        );
        let Ok(source) = web_sys::EventSource::new(&url) else { return };
        let closing = source.clone();
        let on_event =
            Closure::<dyn Fn(web_sys::MessageEvent)>::new(move |m: web_sys::MessageEvent| {
                let Some(data) = m.data().as_string() else { return };
                let Ok(event) = serde_json::from_str::<grading_protocol::live::Event>(&data) else {
                    return;
                };
                let event_id = m.last_event_id().parse().unwrap_or(0);
                // A reconnect replays from the last id the browser saw; never show one twice.
                if events.with_untracked(|es| es.iter().any(|e| e.id == event_id)) {
                    return;
                }
                let last = event.is_final();
                events.update(|es| es.push(LiveEvent { id: event_id, event }));
                if last {
                    closing.close();
                    leptos::task::spawn_local(async move {
                        // The server recorded the verdict's XP with it: its page now says
                        // what the pass earned and where the learner stands.
                        if let Ok(page) = crate::api::get_submission(id, lang).await {
                            if let Some(s) = page.submission {
                                verdict.set(s.verdict);
                                toast.set(s.earned.as_ref().and_then(|e| e.message(lang)));
                                earned.set(s.earned);
                            }
                            progress.set(page.progress);
                        }
                        done.set(true);
                    });
                }
            });
        for kind in KINDS {
            let _ =
                source.add_event_listener_with_callback(kind, on_event.as_ref().unchecked_ref());
        }
        // The listener lives as long as the page.
        on_event.forget();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use grading_protocol::Status;

    fn e(id: i64, event: Event) -> LiveEvent {
        LiveEvent { id, event }
    }

    #[test]
    fn the_status_says_where_it_is() {
        let mut events = vec![e(1, Event::Queued { ahead: 2 })];
        assert_eq!(
            status_line(&events, lockstep_i18n::Lang::En),
            "Waiting for a grading machine: 2 ahead of yours."
        );
        events.push(e(2, Event::Started { worker: "local/host".into(), attempt: 1, node: None }));
        assert_eq!(status_line(&events, lockstep_i18n::Lang::En), "Being graded.");
        events.push(e(3, Event::RunStarted { index: 1, role: RunRole::Ddp, nproc: 2 }));
        events.push(e(
            4,
            Event::RunFinished { index: 1, role: RunRole::Ddp, nproc: 2, wall_s: 9.94 },
        ));
        events.push(e(5, Event::RunStarted { index: 2, role: RunRole::Single, nproc: 1 }));
        assert_eq!(
            status_line(&events, lockstep_i18n::Lang::En),
            "Run 2: your script with 1 process, to time the speedup."
        );
        assert_eq!(
            runs(&events, lockstep_i18n::Lang::En),
            [
                "Run 1: your script with 2 processes: 9.9 s",
                "Run 2: your script with 1 process, to time the speedup: running…"
            ]
        );
        events.push(e(6, Event::Requeued { reason: "the worker stopped answering".into() }));
        events.push(e(7, Event::Started { worker: "b".into(), attempt: 2, node: None }));
        assert_eq!(status_line(&events, lockstep_i18n::Lang::En), "Being graded (attempt 2).");
        assert!(
            runs(&events, lockstep_i18n::Lang::En).is_empty(),
            "a new attempt starts its runs afresh"
        );
        events.push(e(
            8,
            Event::Verdict {
                status: Status::Pass,
                summary: "All 10 checks passed.".into(),
                words: None,
            },
        ));
        assert_eq!(
            status_line(&events, lockstep_i18n::Lang::En),
            "Graded: PASS. All 10 checks passed."
        );
    }

    #[test]
    fn the_status_says_where_slurm_has_it() {
        use grading_protocol::live::NodeWait;
        let wait =
            NodeWait { partition: "gpu".into(), ahead: 3, reason: "Resources".into(), gpus: 4 };
        let mut events = vec![e(1, Event::Queued { ahead: 0 }), e(2, Event::WaitingForNode(wait))];
        assert_eq!(
            status_line(&events, lockstep_i18n::Lang::En),
            "Waiting for a GPU node — 3 jobs ahead in partition gpu (its nodes are busy)."
        );
        let node = Some("gpu-07".to_string());
        events.push(e(
            3,
            Event::Started { worker: "slurm/gpu-07/slurm-41".into(), attempt: 1, node },
        ));
        assert_eq!(status_line(&events, lockstep_i18n::Lang::En), "Running on GPU node gpu-07.");
    }
}
