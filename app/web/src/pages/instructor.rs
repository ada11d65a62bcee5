//! The instructor's view: every learner's XP, level, lessons and quizzes, and per quiz question
//! how many answered it and the share that got it right: the questions the course teaches
//! badly stand out. Both tables download as CSV.

use leptos::prelude::*;
use leptos_meta::Title;
use lockstep_routes::{
    INSTRUCTOR_LEARNERS_CSV, INSTRUCTOR_QUESTIONS_CSV, INSTRUCTOR_REPORTS_CSV, INSTRUCTOR_SETTINGS,
};

use crate::api::get_instructor;
use crate::clock::Time;
use crate::components::TextArea;
use crate::model::{InstructorView, ReportRow, REPORT_STATUSES};
use crate::resource::resource;

#[component]
pub fn InstructorPage() -> impl IntoView {
    let lang = crate::page::use_lang();
    let t = lockstep_i18n::t(lang);
    let w = &t.instructor;
    // `?course=<slug>`: the view of one course.
    let query = leptos_router::hooks::use_query_map();
    let course = move || query.read().get("course");
    let page = resource(move || (lang, course()), |(lang, course)| get_instructor(lang, course));
    view! {
        <Title text=w.title/>
        <Suspense fallback=move || view! { <p class="loading">{t.xp.loading}</p> }>
            {move || Suspend::new(async move {
                match page.await {
                    Ok(Some(v)) => view! { <Instructor v/> }.into_any(),
                    Ok(None) => {
                        super::set_status(403);
                        view! {
                            <section class="message-page">
                                <h1>{w.only_title}</h1>
                                <p>{w.only_before}
                                   <a href=lang.path(lockstep_routes::ACCOUNT)>{t.account.sign_in}</a>
                                   {w.only_middle}
                                   <code>"lockstep admin grant-instructor EMAIL"</code> "."</p>
                            </section>
                        }
                            .into_any()
                    }
                    Err(e) => view! { <p class="error">{w.load_failed} {e.to_string()}</p> }.into_any(),
                }
            })}
        </Suspense>
    }
}

#[component]
fn Instructor(v: InstructorView) -> impl IntoView {
    let InstructorView {
        learners,
        questions,
        submissions,
        reports,
        hold_first_comments,
        // An instructor's own XP is no news on the page they teach from.
        progress: _,
        courses,
        course,
    } = v;
    let count = learners.len();
    let lang = crate::page::use_lang();
    let w = &lockstep_i18n::t(lang).instructor;
    let said = &lockstep_i18n::t(lang).submission;
    let all_courses = lockstep_i18n::t(lang).course.all_courses;
    // The filter and the downloads name the course by the slug the server listed.
    let suffix = course.as_ref().map_or_else(String::new, |c| format!("?course={c}"));
    let file = |name: &str| match &course {
        Some(c) => format!("{name}-{c}.csv"),
        None => format!("{name}.csv"),
    };
    let page = lang.path(lockstep_routes::INSTRUCTOR);
    let filter = view! {
        <nav class="course-filter" aria-label=w.filter data-role="course-filter">
            <a href=page.clone() aria-current=course.is_none().then_some("page")>{all_courses}</a>
            {courses.into_iter().map(|(slug, title)| {
                let current = (course.as_deref() == Some(slug.as_str())).then_some("page");
                view! { " · " <a href=format!("{page}?course={slug}") aria-current=current>{title}</a> }
            }).collect_view()}
        </nav>
    };
    view! {
        <section class="instructor-page">
            <h1>{w.title}</h1>
            {filter}
            <nav class="page-contents" aria-label=w.contents data-role="instructor-contents">
                <a href="#reports">{w.reports_heading}</a> " · "
                <a href="#submissions">{w.submissions}</a> " · "
                <a href="#learners">{w.learners_heading}</a> " · "
                <a href="#questions">{w.questions}</a> " · "
                <a href="#comments-settings">{w.comments_settings}</a>
            </nav>
            // What an instructor acts on first: the reports, then the submissions.
            <Reports reports/>
            <h2 id="submissions">{w.submissions}</h2>
            <p>{w.submissions_intro}</p>
            <div class="table-scroll">
                <table class="instructor-table" data-role="all-submissions">
                    <thead><tr>
                        <th scope="col">{w.submission}</th><th scope="col">{w.when}</th><th scope="col">{w.learner}</th><th scope="col">{w.exercise}</th><th scope="col">{w.status}</th>
                    </tr></thead>
                    <tbody>
                        {submissions.into_iter().map(|(who, exercise, s)| view! {
                            <tr>
                                <td><a href=lang.path(&lockstep_routes::submission(s.id))>{format!("#{}", s.id)}</a></td>
                                <td><Time moment=s.when/></td>
                                <td>{who}</td>
                                <td>{exercise}</td>
                                <td>{(said.status_word)(&s.verdict.unwrap_or(s.status))}</td>
                            </tr>
                        }).collect_view()}
                    </tbody>
                </table>
            </div>
            <h2 id="learners">{(w.learners)(count)}</h2>
            <p><a href=format!("{INSTRUCTOR_LEARNERS_CSV}{suffix}") download=file("learners")>{w.csv}</a></p>
            <div class="table-scroll">
                <table class="instructor-table" data-role="learners">
                    <thead><tr>
                        <th scope="col">{w.learner}</th><th scope="col">"XP"</th><th scope="col">{w.level}</th>
                        <th scope="col">{w.lessons}</th><th scope="col">{w.quizzes_passed}</th><th scope="col">{w.achievements}</th>
                    </tr></thead>
                    <tbody>
                        {learners.into_iter().map(|l| view! {
                            <tr>
                                <th scope="row">{l.who}</th>
                                <td>{l.xp}</td>
                                <td>{format!("{} · {}", l.level, l.level_name)}</td>
                                <td>{format!("{}/{}", l.lessons_done, l.lessons_total)}</td>
                                <td>{l.quizzes_passed}</td>
                                <td>{l.achievements}</td>
                            </tr>
                        }).collect_view()}
                    </tbody>
                </table>
            </div>
            <h2 id="questions">{w.questions}</h2>
            <p>{w.questions_intro}</p>
            <p><a href=format!("{INSTRUCTOR_QUESTIONS_CSV}{suffix}") download=file("questions")>{w.csv}</a></p>
            <div class="table-scroll">
                <table class="instructor-table" data-role="questions">
                    <thead><tr>
                        <th scope="col">{w.lesson}</th><th scope="col">{w.question}</th><th scope="col">{w.answered}</th><th scope="col">{w.right}</th>
                    </tr></thead>
                    <tbody>
                        {questions.into_iter().map(|q| {
                            let share = q.percent_right().map_or_else(|| "—".to_string(), |p| format!("{p}%"));
                            view! {
                                <tr>
                                    <td class="course-text"><a href=lang.path(&lockstep_routes::lesson_section(&q.lesson, Some(&format!("quiz-{}", q.quiz))))>{q.lesson_title}</a></td>
                                    <td>{format!("Q{}. ", q.question)} <span class="course-text">{q.prompt}</span></td>
                                    <td>{q.answered}</td>
                                    <td>{share}</td>
                                </tr>
                            }
                        }).collect_view()}
                    </tbody>
                </table>
            </div>
            <form method="post" action=lang.path(INSTRUCTOR_SETTINGS) class="account-form" data-role="comments-settings">
                <h2 id="comments-settings">{w.comments_settings}</h2>
                <label>
                    <input type="checkbox" name="hold_first_comments" value="on" checked=hold_first_comments/>
                    " " {w.hold_first_comments}
                </label>
                <button type="submit" class="secondary">{w.save_settings}</button>
            </form>
        </section>
    }
}

/// What learners reported, newest first, each with its status and answer to set.
#[component]
fn Reports(reports: Vec<ReportRow>) -> impl IntoView {
    let lang = crate::page::use_lang();
    let w = &lockstep_i18n::t(lang).instructor;
    let count = reports.len();
    let rows = reports
        .into_iter()
        .map(|r| {
            let options = REPORT_STATUSES
                .iter()
                .map(|s| view! { <option value=*s selected=r.status == *s>{(w.report_status)(s)}</option> })
                .collect_view();
            view! {
                <tr data-report=r.id>
                    <td><Time moment=r.when/></td>
                    <td><a href=r.href>{r.place}</a></td>
                    <td class="report-body">{r.body}</td>
                    <td>{r.from.unwrap_or_else(|| w.anonymous.to_string())}</td>
                    <td>
                        <form method="post" action=lang.path(&lockstep_routes::instructor_report(r.id)) data-form=format!("answer-{}", r.id)>
                            <select name="status" aria-label=w.status>{options}</select>
                            <TextArea text=r.reply name="reply" rows=2 label=w.answer maxlength=crate::model::MAX_REPORT_CHARS/>
                            <button type="submit" class="secondary">{w.save}</button>
                        </form>
                    </td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <h2 id="reports">{(w.reports)(count)}</h2>
        <p>{w.reports_intro}</p>
        <p><a href=INSTRUCTOR_REPORTS_CSV download="reports.csv">{w.csv}</a></p>
        {(count == 0).then(|| view! { <p class="muted">{w.no_reports}</p> })}
        <div class="table-scroll">
            <table class="instructor-table" data-role="reports">
                <thead><tr>
                    <th scope="col">{w.when}</th><th scope="col">{w.place}</th><th scope="col">{w.what}</th>
                    <th scope="col">{w.from}</th><th scope="col">{w.status}</th>
                </tr></thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
    }
    .into_any()
}
