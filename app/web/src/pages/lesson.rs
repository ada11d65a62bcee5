use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_params_map;

use crate::api::{get_lesson, CompleteLesson, ExploreSimulation, ResetLesson};
use crate::components::{on_lesson_click, ProgressPanel, Tags, Toast, Toc};
use crate::model::{BodyBlock, LessonLookup, LessonView};
use crate::quiz::QuizView;
use crate::sims::SimulationView;

#[component]
pub fn LessonPage() -> impl IntoView {
    let params = use_params_map();
    let complete = ServerAction::<CompleteLesson>::new();
    let reset = ServerAction::<ResetLesson>::new();
    let page = Resource::new(
        move || {
            (
                params.read().get("slug").unwrap_or_default(),
                complete.version().get(),
                reset.version().get(),
            )
        },
        |(slug, _, _)| get_lesson(slug),
    );
    view! {
        <Suspense fallback=|| view! { <p class="loading">"Loading the lesson…"</p> }>
            {move || Suspend::new(async move {
                match page.await {
                    Ok(LessonLookup::Found(lesson)) => view! { <Lesson lesson complete reset/> }.into_any(),
                    Ok(LessonLookup::Broken { title, problems }) => {
                        super::set_status(500);
                        view! { <BrokenLesson title problems/> }.into_any()
                    }
                    Ok(LessonLookup::Missing) => view! { <super::NotFound/> }.into_any(),
                    Err(e) => {
                        super::set_status(500);
                        view! { <p class="error">"The lesson could not be loaded: " {e.to_string()}</p> }.into_any()
                    }
                }
            })}
        </Suspense>
    }
}

#[component]
fn Lesson(
    lesson: LessonView,
    complete: ServerAction<CompleteLesson>,
    reset: ServerAction<ResetLesson>,
) -> impl IntoView {
    let LessonView {
        slug,
        position,
        total,
        title,
        minutes,
        tags,
        xp,
        summary,
        body,
        toc,
        prev,
        next,
        completed,
        progress,
        has_progress,
    } = lesson;
    // Exploring a simulation updates the panel and says what it earned, without reloading the
    // lesson (which would reset every simulation on it).
    let toast = RwSignal::new(progress.notice.clone());
    let progress = RwSignal::new(progress);
    let explore = ServerAction::<ExploreSimulation>::new();
    Effect::new(move |_| {
        if let Some(Ok(p)) = explore.value().get() {
            toast.set(p.message());
            progress.set(p.progress);
        }
    });
    let mut simulations = 0u32;
    view! {
        <Title text=title.clone()/>
        <div class="lesson-layout">
            <article class="lesson" on:click=on_lesson_click>
                <header class="lesson-header">
                    <p class="eyebrow">
                        <span class="lesson-position">{format!("Lesson {position:02} of {total:02}")}</span>
                        " · ~" {minutes} " min"
                    </p>
                    <h1>{title}</h1>
                    <p class="lede">{summary}</p>
                    <Tags tags/>
                    <ProgressPanel progress/>
                    <Toast message=toast/>
                </header>
                <div class="lesson-body">
                    {body
                        .into_iter()
                        .map(|block| match block {
                            BodyBlock::Html(html) => view! { <div class="prose" inner_html=html></div> }.into_any(),
                            BodyBlock::Simulation(sim) => {
                                let (slug, index) = (slug.clone(), simulations);
                                simulations += 1;
                                let explored = Callback::new(move |()| {
                                    explore.dispatch(ExploreSimulation { slug: slug.clone(), index });
                                });
                                view! { <SimulationView sim explored/> }.into_any()
                            }
                            BodyBlock::Quiz(quiz) => view! { <QuizView quiz/> }.into_any(),
                        })
                        .collect_view()}
                </div>
                <section class="lesson-complete" aria-label="Progress">
                    {if completed {
                        view! { <p class="done">"✓ You completed this lesson (" {xp} " XP)."</p> }.into_any()
                    } else {
                        let slug = slug.clone();
                        view! {
                            <ActionForm action=complete>
                                <input type="hidden" name="slug" value=slug/>
                                <button type="submit" class="primary">"Mark lesson complete · +" {xp} " XP"</button>
                            </ActionForm>
                        }
                            .into_any()
                    }}
                    {has_progress.then(|| {
                        view! {
                            <ActionForm action=reset attr:class="reset-lesson">
                                <input type="hidden" name="slug" value=slug/>
                                <button type="submit">"Reset this lesson's progress"</button>
                            </ActionForm>
                        }
                    })}
                </section>
                <nav class="prev-next" aria-label="Lessons">
                    {prev.map(|p| view! { <a class="prev" rel="prev" href=lockstep_routes::lesson(&p.slug)>"← " {p.title}</a> })}
                    {next.map(|n| view! { <a class="next" rel="next" href=lockstep_routes::lesson(&n.slug)>{n.title} " →"</a> })}
                </nav>
            </article>
            <aside class="lesson-aside">
                <Toc entries=toc/>
            </aside>
        </div>
    }
}

#[component]
fn BrokenLesson(title: String, problems: Vec<String>) -> impl IntoView {
    view! {
        <Title text=title.clone()/>
        <section class="message-page">
            <h1>{title}</h1>
            <p>"This lesson cannot be shown right now: its file has errors. The rest of the course is available."</p>
            <p>"For the instructor (" <code>"lessons check"</code> " prints the same):"</p>
            <ul class="problems">
                {problems.into_iter().map(|p| view! { <li><code>{p}</code></li> }).collect_view()}
            </ul>
            <p><a href="/">"Back to the course"</a></p>
        </section>
    }
}
