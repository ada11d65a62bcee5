//! How XP works: the rules, the levels and the achievements, with the learner's own.

use leptos::prelude::*;
use leptos_meta::Title;

use crate::api::get_xp_rules;
use crate::components::{ProgressPanel, Toast};
use crate::model::XpRules;
use crate::resource::resource;

#[component]
pub fn XpPage() -> impl IntoView {
    let lang = crate::page::use_lang();
    let w = &lockstep_i18n::t(lang).xp;
    let rules = resource(move || lang, get_xp_rules);
    view! {
        <Title text=w.title/>
        <Suspense fallback=move || view! { <p class="loading">{w.loading}</p> }>
            {move || Suspend::new(async move {
                match rules.await {
                    Ok(r) => view! { <Rules r/> }.into_any(),
                    Err(e) => view! { <p class="error">{w.load_failed} {e.to_string()}</p> }.into_any(),
                }
            })}
        </Suspense>
    }
}

#[component]
fn Rules(r: XpRules) -> impl IntoView {
    let XpRules { rules, levels, achievements, progress, courses } = r;
    let lang = crate::page::use_lang();
    let w = &crate::page::use_t().xp;
    view! {
        <section class="xp-page">
            <h1>{w.title}</h1>
            <Toast message=RwSignal::new(progress.notice.clone())/>
            <ProgressPanel progress=Signal::stored(progress)/>
            <p>{w.intro}</p>
            <h2>{w.by_course}</h2>
            <table data-role="xp-by-course">
                <thead><tr><th scope="col">{w.course}</th><th scope="col">{w.lessons}</th><th scope="col">"XP"</th></tr></thead>
                <tbody>
                    {courses
                        .into_iter()
                        .map(|c| view! {
                            <tr data-course=c.slug.clone()>
                                <td><a href=lang.path(&lockstep_routes::course(&c.slug))>{c.title}</a></td>
                                <td>{format!("{}/{}", c.lessons_done, c.lessons)}</td>
                                <td>{format!("{}/{}", c.xp, c.xp_max)}</td>
                            </tr>
                        })
                        .collect_view()}
                </tbody>
            </table>
            <h2>{w.earning}</h2>
            <table data-role="xp-rules">
                <thead><tr><th scope="col">{w.what}</th><th scope="col">"XP"</th></tr></thead>
                <tbody>
                    {rules.into_iter().map(|(what, xp)| view! { <tr><td>{what}</td><td>{xp}</td></tr> }).collect_view()}
                </tbody>
            </table>
            <h2 id="quizzes">{w.quizzes}</h2>
            <p data-role="quiz-policy">
                {w.quiz_policy_before}
                <strong>{w.flawless}</strong>
                {w.quiz_policy_after}
            </p>
            <h2>{w.levels}</h2>
            <table data-role="levels">
                <thead><tr><th scope="col">{w.level}</th><th scope="col">{w.from}</th><th scope="col">{w.name}</th></tr></thead>
                <tbody>
                    {levels
                        .into_iter()
                        .map(|(n, from, name)| {
                            view! { <tr><td>{n}</td><td>{format!("{from} XP")}</td><td>{name}</td></tr> }
                        })
                        .collect_view()}
                </tbody>
            </table>
            <h2>{w.achievements}</h2>
            <ul class="achievements" data-role="achievements">
                {achievements
                    .into_iter()
                    .map(|a| {
                        view! {
                            <li class=if a.earned { "earned" } else { "" }>
                                <strong>{a.name}</strong>
                                {a.earned.then(|| view! { <span class="badge">{w.earned}</span> })}
                                <br/>
                                <span class="muted">{a.rule}</span>
                            </li>
                        }
                    })
                    .collect_view()}
            </ul>
            <h2 id="new-lessons">{w.new_lessons}</h2>
            <p data-role="new-lessons">{w.new_lessons_text}</p>
        </section>
    }
}
