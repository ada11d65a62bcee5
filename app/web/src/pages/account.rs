//! The account page: sign in or create an account, or, signed in, change the password and
//! sign out. Plain forms posting to the server, so all of it works without JavaScript.

use leptos::prelude::*;
use leptos_meta::Title;
use lockstep_routes::{
    API_TOKEN, CHANGE_PASSWORD, DISPLAY_NAME, INSTRUCTOR, SIGN_IN, SIGN_OUT, SIGN_UP,
};

use crate::api::get_account;
use crate::components::{ProgressPanel, Toast};
use crate::model::AccountPage as Page;
use crate::resource::resource;

#[component]
pub fn AccountPage() -> impl IntoView {
    let t = crate::page::use_t();
    let page = resource(|| (), |_| get_account());
    view! {
        <Title text=t.account.title/>
        <Suspense fallback=move || view! { <p class="loading">{t.xp.loading}</p> }>
            {move || Suspend::new(async move {
                match page.await {
                    Ok(p) => view! { <Account p/> }.into_any(),
                    Err(e) => view! { <p class="error">{t.account.load_failed} {e.to_string()}</p> }.into_any(),
                }
            })}
        </Suspense>
    }
}

#[component]
fn Account(p: Page) -> impl IntoView {
    let Page { account, error, new_token, form_email, progress } = p;
    let lang = crate::page::use_lang();
    let w = &lockstep_i18n::t(lang).account;
    // Forms post to the page's language's twin, so their redirect comes back to this page.
    let to = move |path: &str| lang.path(path);
    // The email a refused form was typed with goes back into that form.
    let typed = |form: &str| {
        form_email.as_ref().filter(|(f, _)| f == form).map(|(_, e)| e.clone()).unwrap_or_default()
    };
    let (sign_in_email, sign_up_email) = (typed("sign-in"), typed("sign-up"));
    let error =
        error.map(|e| view! { <p class="form-error" role="alert" data-role="form-error">{e}</p> });
    let body = match account {
        Some(account) => view! {
            <p data-role="signed-in-as">{w.signed_in_as_before} <strong>{account.email}</strong> {w.signed_in_as_after}</p>
            {account.instructor.then(|| view! { <p><a href=to(INSTRUCTOR)>{w.instructor_view}</a></p> })}
            <form method="post" action=to(DISPLAY_NAME) class="account-form" data-role="display-name">
                <h2>{w.display_name}</h2>
                <label>{w.display_name}
                    <input type="text" name="display_name" value=account.display_name.clone().unwrap_or_default()
                           maxlength=crate::model::MAX_NAME_CHARS.to_string() autocomplete="nickname"/>
                </label>
                <p class="muted">{w.display_name_help}</p>
                <button type="submit" class="secondary">{w.save_name}</button>
            </form>
            <form method="post" action=to(CHANGE_PASSWORD) class="account-form" data-role="change-password">
                <h2>{w.change_password}</h2>
                <label>{w.current_password} <input type="password" name="current" autocomplete="current-password" required/></label>
                <label>{w.new_password} <input type="password" name="new" autocomplete="new-password" minlength="10" required/></label>
                <button type="submit" class="secondary">{w.change_password}</button>
            </form>
            <form method="post" action=to(API_TOKEN) class="account-form" data-role="api-token">
                <h2>{w.terminal}</h2>
                {new_token.map(|t| view! {
                    <p role="status">{w.new_token} <code data-role="new-token">{t}</code></p>
                })}
                <p>
                    {w.token_before} <code>"lockstep submit train.py --wait --token …"</code>
                    {w.token_after}
                </p>
                <button type="submit" class="secondary">{w.make_token}</button>
            </form>
            <form method="post" action=to(SIGN_OUT) class="account-form" data-role="sign-out">
                <button type="submit" class="secondary">{w.sign_out}</button>
            </form>
        }
            .into_any(),
        None => view! {
            <p>{w.why_sign_in}</p>
            <div class="account-forms">
                <form method="post" action=to(SIGN_IN) class="account-form" data-role="sign-in" id="sign-in">
                    <h2>{w.sign_in}</h2>
                    <label>{w.email} <input type="email" name="email" autocomplete="username" required value=sign_in_email/></label>
                    <label>{w.password} <input type="password" name="password" autocomplete="current-password" required/></label>
                    <button type="submit" class="primary">{w.sign_in}</button>
                </form>
                <form method="post" action=to(SIGN_UP) class="account-form" data-role="sign-up">
                    <h2>{w.create}</h2>
                    <label>{w.email} <input type="email" name="email" autocomplete="email" required value=sign_up_email/></label>
                    <label>{w.password_rule} <input type="password" name="password" autocomplete="new-password" minlength="10" required/></label>
                    <button type="submit" class="secondary">{w.create_button}</button>
                </form>
            </div>
            <p class="muted">{w.no_email}</p>
        }
            .into_any(),
    };
    view! {
        <section class="account-page">
            <h1>{w.title}</h1>
            <Toast message=RwSignal::new(progress.notice.clone())/>
            {error}
            {body}
            <ProgressPanel progress=Signal::stored(progress)/>
        </section>
    }
}
