//! How XP works: the rules, the levels and the achievements, with the learner's own.

use leptos::prelude::*;
use leptos_meta::Title;

use crate::api::get_xp_rules;
use crate::components::{ProgressPanel, Toast};
use crate::model::XpRules;

#[component]
pub fn XpPage() -> impl IntoView {
    let rules = Resource::new(|| (), |_| get_xp_rules());
    view! {
        <Title text="How XP works"/>
        <Suspense fallback=|| view! { <p class="loading">"Loading…"</p> }>
            {move || Suspend::new(async move {
                match rules.await {
                    Ok(r) => view! { <Rules r/> }.into_any(),
                    Err(e) => view! { <p class="error">"The rules could not be loaded: " {e.to_string()}</p> }.into_any(),
                }
            })}
        </Suspense>
    }
}

#[component]
fn Rules(r: XpRules) -> impl IntoView {
    let XpRules { rules, levels, achievements, progress } = r;
    view! {
        <section class="xp-page">
            <h1>"How XP works"</h1>
            <Toast message=RwSignal::new(progress.notice.clone())/>
            <ProgressPanel progress=Signal::stored(progress)/>
            <p>
                "The server records what you do and works out your XP from it. Doing something twice earns it once; resetting a lesson takes its XP away until you earn it again."
            </p>
            <h2>"Earning XP"</h2>
            <table data-role="xp-rules">
                <thead><tr><th scope="col">"What"</th><th scope="col">"XP"</th></tr></thead>
                <tbody>
                    {rules.into_iter().map(|(what, xp)| view! { <tr><td>{what}</td><td>{xp}</td></tr> }).collect_view()}
                </tbody>
            </table>
            <h2 id="quizzes">"Quizzes"</h2>
            <p data-role="quiz-policy">
                "Each attempt at a quiz shows its options in a new order, and you may answer as often as you like. Until you pass, the review of an attempt says which questions were wrong and why each option you chose is right or wrong, but not which options are right: otherwise the review of a failed attempt would be the answer key for the next, and a pass would show only that you copied it. Once you pass, the review shows every answer with its explanation. A perfect score counts for "
                <strong>"Flawless"</strong>
                " only at your first attempt at a quiz; resetting the lesson does not make a quiz you have seen answered new."
            </p>
            <h2>"Levels"</h2>
            <table data-role="levels">
                <thead><tr><th scope="col">"Level"</th><th scope="col">"From"</th><th scope="col">"Name"</th></tr></thead>
                <tbody>
                    {levels
                        .into_iter()
                        .map(|(n, from, en, ko)| {
                            view! { <tr><td>{n}</td><td>{format!("{from} XP")}</td><td>{en} " · " <span lang="ko">{ko}</span></td></tr> }
                        })
                        .collect_view()}
                </tbody>
            </table>
            <h2>"Achievements"</h2>
            <ul class="achievements" data-role="achievements">
                {achievements
                    .into_iter()
                    .map(|a| {
                        view! {
                            <li class=if a.earned { "earned" } else { "" }>
                                <strong>{a.name_en}</strong>
                                " · "
                                <span lang="ko">{a.name_ko}</span>
                                {a.earned.then(|| view! { <span class="badge">" ✓ earned"</span> })}
                                <br/>
                                <span class="muted">{a.rule}</span>
                            </li>
                        }
                    })
                    .collect_view()}
            </ul>
        </section>
    }
}
