use leptos::prelude::*;
use leptos_meta::Title;

#[component]
pub fn NotFound() -> impl IntoView {
    super::set_status(404);
    view! {
        <Title text="Page not found"/>
        <section class="message-page">
            <h1>"Page not found"</h1>
            <p>"There is nothing at this address. The lesson may have been renamed."</p>
            <p><a href=lockstep_routes::HOME>"Back to the course"</a></p>
        </section>
    }
}
