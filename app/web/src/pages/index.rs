use leptos::prelude::*;
use leptos_meta::Title;

use crate::api::get_course_overview;
use crate::components::{ProgressPanel, Tags, Toast};
use crate::model::CourseOverview;

#[component]
pub fn CourseIndex() -> impl IntoView {
    let lang = crate::use_lang();
    let t = crate::use_t();
    let overview = Resource::new(move || lang, get_course_overview);
    view! {
        <Suspense fallback=move || view! { <p class="loading">{t.course.loading}</p> }>
            {move || Suspend::new(async move {
                match overview.await {
                    Ok(o) => view! { <Overview o/> }.into_any(),
                    Err(e) => view! { <p class="error">{t.course.load_failed} {e.to_string()}</p> }.into_any(),
                }
            })}
        </Suspense>
    }
}

#[component]
fn Overview(o: CourseOverview) -> impl IntoView {
    let lang = crate::use_lang();
    let w = &crate::use_t().course;
    let total = o.lessons.len();
    let total_minutes: u32 = o.lessons.iter().map(|l| l.minutes).sum();
    let percent = (o.completed * 100).checked_div(total).unwrap_or(0);
    view! {
        <Title text=o.title.clone()/>
        <section class="course-hero">
            <p class="eyebrow">{(w.hero)(total, total_minutes)}</p>
            <h1>{o.title.clone()}</h1>
            <p class="lede">{o.summary.clone()}</p>
            <ProgressPanel progress=Signal::stored(o.progress.clone())/>
            <Toast message=RwSignal::new(o.progress.notice.clone())/>
            <div class="progress" aria-label=w.progress_label>
                <div class="progress-text">
                    <strong>{format!("{}/{total}", o.completed)}</strong> {w.lessons_completed}
                </div>
                <div class="bar" role="progressbar" aria-valuemin="0" aria-valuemax="100" aria-valuenow=percent>
                    <span style=format!("width:{percent}%")></span>
                </div>
            </div>
        </section>
        <ol class="lesson-list">
            {o.lessons
                .into_iter()
                .map(|l| {
                    let href = lang.path(&lockstep_routes::lesson(&l.slug));
                    view! {
                        <li class="lesson-card" class:completed=l.completed class:unavailable=!l.available>
                            <span class="lesson-number" aria-hidden="true">{format!("{:02}", l.position)}</span>
                            <div class="lesson-card-body">
                                <h2><a href=href>{l.title}</a></h2>
                                <p class="meta">
                                    {(w.lesson_meta)(l.position, total, l.minutes, l.xp)}
                                    {l.completed.then(|| view! { " · " <span class="done">{w.completed}</span> })}
                                    {(!l.available).then(|| view! { " · " <span class="warn">{w.unavailable}</span> })}
                                </p>
                                <p class="summary">{l.summary}</p>
                                <Tags tags=l.tags/>
                            </div>
                        </li>
                    }
                })
                .collect_view()}
        </ol>
    }
}
