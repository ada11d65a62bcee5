//! The learner's notifications: replies in the threads they follow and the instructors'
//! answers to their reports, newest first. Opening one and marking read are plain form posts
//! (`/notifications/read`), so the page works without JavaScript.

use leptos::prelude::*;
use leptos_meta::Title;
use lockstep_routes::{ACCOUNT_SIGN_IN, NOTIFICATIONS_READ};

use crate::api::get_notifications;
use crate::components::{ProgressPanel, Toast};
use crate::model::{NotificationItem, NotificationsPage as Page};
use crate::resource::resource;

#[component]
pub fn NotificationsPage() -> impl IntoView {
    let lang = crate::page::use_lang();
    let t = lockstep_i18n::t(lang);
    let page = resource(move || lang, get_notifications);
    view! {
        <Title text=t.notifications.title/>
        <Suspense fallback=move || view! { <p class="loading">{t.xp.loading}</p> }>
            {move || Suspend::new(async move {
                match page.await {
                    Ok(p) => view! { <Notifications p/> }.into_any(),
                    Err(e) => view! { <p class="error">{t.xp.load_failed} {e.to_string()}</p> }.into_any(),
                }
            })}
        </Suspense>
    }
}

#[component]
fn Notifications(p: Page) -> impl IntoView {
    let Page { signed_in, items, progress } = p;
    let lang = crate::page::use_lang();
    let t = lockstep_i18n::t(lang);
    let w = &t.notifications;
    let read = lang.path(NOTIFICATIONS_READ);
    let body = if !signed_in {
        view! {
            <p>{w.sign_in_before} <a href=lang.path(ACCOUNT_SIGN_IN)>{t.account.sign_in}</a></p>
        }
        .into_any()
    } else if items.is_empty() {
        view! { <p class="muted" data-role="no-notifications">{w.none}</p> }.into_any()
    } else {
        let any_unread = items.iter().any(|i| i.unread);
        let list =
            items.into_iter().map(|item| view! { <Item item read=read.clone()/> }).collect_view();
        view! {
            {any_unread.then(|| view! {
                <form method="post" action=read.clone() data-role="mark-all-read">
                    <button type="submit" class="secondary">{w.mark_all_read}</button>
                </form>
            })}
            <ol class="notifications" data-role="notifications">{list}</ol>
        }
        .into_any()
    };
    view! {
        <section class="notifications-page">
            <h1>{w.title}</h1>
            <Toast message=RwSignal::new(progress.notice.clone())/>
            <ProgressPanel progress=Signal::stored(progress)/>
            {body}
        </section>
    }
}

#[component]
fn Item(item: NotificationItem, read: String) -> impl IntoView {
    let w = &crate::page::use_t().notifications;
    let NotificationItem { id, unread, text, ago, answer } = item;
    view! {
        <li class="notification" class:unread=unread data-role="notification">
            {unread.then(|| view! { <span class="badge">{w.new}</span> " " })}
            <span class="notification-text">{text}</span>
            " " <span class="muted">{ago}</span>
            {answer.map(|a| view! { <blockquote class="notification-answer"><p>{w.answer}</p><p>{a}</p></blockquote> })}
            <form method="post" action=read>
                <input type="hidden" name="id" value=id.to_string()/>
                <button type="submit" class="link-button">{w.open}</button>
            </form>
        </li>
    }
}
