//! The instructor's view: every learner's XP, level, lessons and quizzes, and per quiz question
//! how many answered it and the share that got it right: the questions the course teaches
//! badly stand out. Both tables download as CSV.

use leptos::prelude::*;
use leptos_meta::Title;
use lockstep_routes::{INSTRUCTOR_LEARNERS_CSV, INSTRUCTOR_QUESTIONS_CSV};

use crate::api::get_instructor;
use crate::components::ProgressPanel;
use crate::model::InstructorView;

#[component]
pub fn InstructorPage() -> impl IntoView {
    let page = Resource::new(|| (), |_| get_instructor());
    view! {
        <Title text="Instructor view"/>
        <Suspense fallback=|| view! { <p class="loading">"Loading…"</p> }>
            {move || Suspend::new(async move {
                match page.await {
                    Ok(Some(v)) => view! { <Instructor v/> }.into_any(),
                    Ok(None) => {
                        super::set_status(403);
                        view! {
                            <section class="message-page">
                                <h1>"Instructors only"</h1>
                                <p>"This page shows every learner's progress, so only instructors see it. "
                                   <a href=lockstep_routes::ACCOUNT>"Sign in"</a>
                                   " with an instructor's account; an operator grants the role on the server with "
                                   <code>"lockstep admin grant-instructor EMAIL"</code> "."</p>
                            </section>
                        }
                            .into_any()
                    }
                    Err(e) => view! { <p class="error">"The instructor view could not be loaded: " {e.to_string()}</p> }.into_any(),
                }
            })}
        </Suspense>
    }
}

#[component]
fn Instructor(v: InstructorView) -> impl IntoView {
    let InstructorView { learners, questions, submissions, progress } = v;
    let count = learners.len();
    view! {
        <section class="instructor-page">
            <h1>"Instructor view"</h1>
            <ProgressPanel progress=Signal::stored(progress)/>
            <h2 id="learners">"Learners (" {count} ")"</h2>
            <p><a href=INSTRUCTOR_LEARNERS_CSV download="learners.csv">"Download as CSV"</a></p>
            <div class="table-scroll">
                <table class="instructor-table" data-role="learners">
                    <thead><tr>
                        <th scope="col">"Learner"</th><th scope="col">"XP"</th><th scope="col">"Level"</th>
                        <th scope="col">"Lessons"</th><th scope="col">"Quizzes passed"</th><th scope="col">"Achievements"</th>
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
            <h2 id="submissions">"Submissions"</h2>
            <p>"The latest 200, every learner's. Open one to read its verdict or grade it again."</p>
            <div class="table-scroll">
                <table class="instructor-table" data-role="all-submissions">
                    <thead><tr>
                        <th scope="col">"Submission"</th><th scope="col">"Learner"</th><th scope="col">"Exercise"</th><th scope="col">"Status"</th>
                    </tr></thead>
                    <tbody>
                        {submissions.into_iter().map(|(who, exercise, s)| view! {
                            <tr>
                                <td><a href=lockstep_routes::submission(s.id)>{format!("#{}", s.id)}</a></td>
                                <td>{who}</td>
                                <td>{exercise}</td>
                                <td>{s.verdict.unwrap_or(s.status)}</td>
                            </tr>
                        }).collect_view()}
                    </tbody>
                </table>
            </div>
            <h2 id="questions">"Quiz questions"</h2>
            <p>"Counted over each learner's first answer to a quiz, before its review showed the right options. A low share right points at a part of the lesson that does not teach it yet."</p>
            <p><a href=INSTRUCTOR_QUESTIONS_CSV download="questions.csv">"Download as CSV"</a></p>
            <div class="table-scroll">
                <table class="instructor-table" data-role="questions">
                    <thead><tr>
                        <th scope="col">"Lesson"</th><th scope="col">"Question"</th><th scope="col">"Answered"</th><th scope="col">"Right"</th>
                    </tr></thead>
                    <tbody>
                        {questions.into_iter().map(|q| {
                            let share = q.percent_right().map_or_else(|| "—".to_string(), |p| format!("{p}%"));
                            view! {
                                <tr>
                                    <td><a href=lockstep_routes::lesson_section(&q.lesson, Some(&format!("quiz-{}", q.quiz)))>{q.lesson_title}</a></td>
                                    <td>{format!("Q{}. {}", q.question, q.prompt)}</td>
                                    <td>{q.answered}</td>
                                    <td>{share}</td>
                                </tr>
                            }
                        }).collect_view()}
                    </tbody>
                </table>
            </div>
        </section>
    }
}
