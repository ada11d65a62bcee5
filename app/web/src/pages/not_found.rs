use leptos::prelude::*;
use leptos_meta::Title;

#[component]
pub fn NotFound() -> impl IntoView {
    super::set_status(404);
    let lang = crate::page::use_lang();
    let t = lockstep_i18n::t(lang);
    view! {
        <Title text=t.errors.not_found_title/>
        <section class="message-page">
            <h1>{t.errors.not_found_title}</h1>
            <p>{t.errors.not_found}</p>
            <p><a href=lang.path(lockstep_routes::HOME)>{t.lesson.back_to_course}</a></p>
        </section>
    }
}
