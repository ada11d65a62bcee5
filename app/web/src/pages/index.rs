use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_params_map;

use crate::api::{get_catalogue, get_course_overview};
use crate::components::{ProgressPanel, Tags, Toast};
use crate::model::{CatalogueView, CourseCard, CourseOverview};
use crate::resource::resource;

/// `/`: every course, with the reader's progress in each.
#[component]
pub fn CataloguePage() -> impl IntoView {
    let lang = crate::page::use_lang();
    let t = crate::page::use_t();
    let catalogue = resource(move || lang, get_catalogue);
    view! {
        <Suspense fallback=move || view! { <p class="loading">{t.course.loading}</p> }>
            {move || Suspend::new(async move {
                match catalogue.await {
                    Ok(c) => view! { <Catalogue c/> }.into_any(),
                    Err(e) => view! { <p class="error">{t.course.load_failed} {e.to_string()}</p> }.into_any(),
                }
            })}
        </Suspense>
    }
}

/// `/courses/<slug>`: one course and its lessons.
#[component]
pub fn CoursePage() -> impl IntoView {
    let lang = crate::page::use_lang();
    let t = crate::page::use_t();
    let params = use_params_map();
    let slug = move || params.read().get("slug").unwrap_or_default();
    let overview = resource(move || (slug(), lang), |(slug, lang)| get_course_overview(slug, lang));
    view! {
        <Suspense fallback=move || view! { <p class="loading">{t.course.loading}</p> }>
            {move || Suspend::new(async move {
                match overview.await {
                    Ok(Some(o)) => view! {
                        <p class="crumbs"><a href=lang.path(lockstep_routes::HOME)>"← " {t.course.all_courses}</a></p>
                        <Overview o heading=true/>
                    }.into_any(),
                    Ok(None) => view! { <super::NotFound/> }.into_any(),
                    Err(e) => view! { <p class="error">{t.course.load_failed} {e.to_string()}</p> }.into_any(),
                }
            })}
        </Suspense>
    }
}

#[component]
fn Catalogue(c: CatalogueView) -> impl IntoView {
    let w = &crate::page::use_t().course;
    view! {
        <Title text=w.catalogue_title/>
        <section class="catalogue-hero">
            <h1>{w.catalogue_title}</h1>
            <p class="lede">{w.catalogue_lede}</p>
            <ProgressPanel progress=Signal::stored(c.progress.clone())/>
            <Toast message=RwSignal::new(c.progress.notice.clone())/>
        </section>
        <ul class="course-list" aria-label=w.catalogue_label>
            {c.courses.into_iter().map(|card| view! { <CourseCardView card/> }).collect_view()}
        </ul>
        {c.only.map(|o| view! { <Overview o heading=false/> })}
    }
}

#[component]
fn CourseCardView(card: CourseCard) -> impl IntoView {
    let lang = crate::page::use_lang();
    let w = &crate::page::use_t().course;
    let percent = (card.completed * 100).checked_div(card.lessons).unwrap_or(0);
    let way_in = match (&card.next, card.lessons) {
        (_, 0) => view! { <p class="meta">{w.no_lessons_yet}</p> }.into_any(),
        (None, _) => view! { <p class="meta done">{w.finished}</p> }.into_any(),
        (Some(next), _) => {
            let words = if card.completed == 0 { w.start } else { w.resume };
            let href = lang.path(&lockstep_routes::lesson(&next.slug));
            view! { <p><a class="button" href=href>{words(&next.title)}</a></p> }.into_any()
        }
    };
    let authors = (!card.authors.is_empty()).then(|| (w.by)(&card.authors.join(", ")));
    view! {
        <li class="course-card" class:unpublished=card.unpublished data-course=card.slug.clone()>
            <h2>
                <a href=lang.path(&lockstep_routes::course(&card.slug))>{card.title}</a>
                {card.unpublished.then(|| view! { " " <span class="badge draft">{w.draft}</span> })}
            </h2>
            <p class="meta">{(w.card_meta)(card.lessons, card.minutes)} {authors.map(|a| view! { " · " {a} })}</p>
            <p class="summary">{card.summary}</p>
            <div class="progress" aria-label=w.progress_label>
                <div class="progress-text">
                    <strong>{format!("{}/{}", card.completed, card.lessons)}</strong> {w.lessons_completed}
                </div>
                <div class="bar" role="progressbar" aria-valuemin="0" aria-valuemax="100" aria-valuenow=percent>
                    <span style=format!("width:{percent}%")></span>
                </div>
            </div>
            {way_in}
        </li>
    }
}

/// A course's lessons under its heading and progress; `heading`: the course's own page, where
/// it is the page's title (in the catalogue of one course, the list follows the card).
#[component]
fn Overview(o: CourseOverview, heading: bool) -> impl IntoView {
    let lang = crate::page::use_lang();
    let w = &crate::page::use_t().course;
    let total = o.lessons.len();
    let total_minutes: u32 = o.lessons.iter().map(|l| l.minutes).sum();
    let percent = (o.completed * 100).checked_div(total).unwrap_or(0);
    let drafts = o.lessons.iter().filter(|l| l.unpublished).count();
    // The way in, as the catalogue's card has it: the first lesson not done yet.
    let next = o.lessons.iter().find(|l| l.available && !l.completed && !l.unpublished);
    let way_in = match next {
        Some(next) => {
            let words = if o.completed == 0 { w.start } else { w.resume };
            let href = lang.path(&lockstep_routes::lesson(&next.slug));
            view! { <p><a class="button" href=href data-role="way-in">{words(&next.title)}</a></p> }
                .into_any()
        }
        None if o.completed > 0 => view! { <p class="meta done">{w.finished}</p> }.into_any(),
        None => ().into_any(),
    };
    let hero = heading.then(|| {
        view! {
            <Title text=o.title.clone()/>
            <section class="course-hero">
                <p class="eyebrow">
                    {(w.hero)(total, total_minutes)}
                    {(drafts > 0).then(|| (w.drafts_among)(drafts))}
                    {o.unpublished.then(|| view! { " · " <span class="badge draft">{w.draft}</span> })}
                </p>
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
                {way_in}
            </section>
        }
    });
    view! {
        {hero}
        <ol class="lesson-list" data-course=o.slug.clone()>
            {o.lessons
                .into_iter()
                .map(|l| {
                    let href = lang.path(&lockstep_routes::lesson(&l.slug));
                    view! {
                        <li class="lesson-card" class:completed=l.completed class:unavailable=!l.available class:unpublished=l.unpublished>
                            <span class="lesson-number" aria-hidden="true">{format!("{:02}", l.position)}</span>
                            <div class="lesson-card-body">
                                <h2><a href=href>{l.title}</a></h2>
                                <p class="meta">
                                    {(w.lesson_meta)(l.position, total, l.minutes, l.xp)}
                                    {l.completed.then(|| view! { " · " <span class="done">{w.completed}</span> })}
                                    {(!l.available).then(|| view! { " · " <span class="warn">{w.unavailable}</span> })}
                                    {l.unpublished.then(|| view! { " · " <span class="badge draft">{w.draft}</span> })}
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
