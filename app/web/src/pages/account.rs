//! The account page: sign in or create an account, or, signed in, change the password and
//! sign out. Plain forms posting to the server, so all of it works without JavaScript.

use leptos::prelude::*;
use leptos_meta::Title;
use lockstep_routes::{API_TOKEN, CHANGE_PASSWORD, INSTRUCTOR, SIGN_IN, SIGN_OUT, SIGN_UP};

use crate::api::get_account;
use crate::components::{ProgressPanel, Toast};
use crate::model::AccountPage as Page;

#[component]
pub fn AccountPage() -> impl IntoView {
    let page = Resource::new(|| (), |_| get_account());
    view! {
        <Title text="Account"/>
        <Suspense fallback=|| view! { <p class="loading">"Loading…"</p> }>
            {move || Suspend::new(async move {
                match page.await {
                    Ok(p) => view! { <Account p/> }.into_any(),
                    Err(e) => view! { <p class="error">"The account page could not be loaded: " {e.to_string()}</p> }.into_any(),
                }
            })}
        </Suspense>
    }
}

#[component]
fn Account(p: Page) -> impl IntoView {
    let Page { account, error, new_token, form_email, progress } = p;
    // The email a refused form was typed with goes back into that form.
    let typed = |form: &str| {
        form_email.as_ref().filter(|(f, _)| f == form).map(|(_, e)| e.clone()).unwrap_or_default()
    };
    let (sign_in_email, sign_up_email) = (typed("sign-in"), typed("sign-up"));
    let error =
        error.map(|e| view! { <p class="form-error" role="alert" data-role="form-error">{e}</p> });
    let body = match account {
        Some(account) => view! {
            <p data-role="signed-in-as">"Signed in as " <strong>{account.email}</strong> "."</p>
            {account.instructor.then(|| view! { <p><a href=INSTRUCTOR>"Instructor view: every learner and question"</a></p> })}
            <form method="post" action=CHANGE_PASSWORD class="account-form" data-role="change-password">
                <h2>"Change password"</h2>
                <label>"Current password" <input type="password" name="current" autocomplete="current-password" required/></label>
                <label>"New password" <input type="password" name="new" autocomplete="new-password" minlength="10" required/></label>
                <button type="submit" class="secondary">"Change password"</button>
            </form>
            <form method="post" action=API_TOKEN class="account-form" data-role="api-token">
                <h2>"Submit from a terminal"</h2>
                {new_token.map(|t| view! {
                    <p role="status">"Your new token, shown only this once: " <code data-role="new-token">{t}</code></p>
                })}
                <p>
                    "With a token, " <code>"lockstep submit train.py --wait --token …"</code>
                    " submits a script and follows its grading. A new token replaces the last one."
                </p>
                <button type="submit" class="secondary">"Make a new token"</button>
            </form>
            <form method="post" action=SIGN_OUT class="account-form" data-role="sign-out">
                <button type="submit" class="secondary">"Sign out"</button>
            </form>
        }
            .into_any(),
        None => view! {
            <p>"Sign in to keep your progress on every device. What you did in this browser is added to your account; nothing counts twice."</p>
            <div class="account-forms">
                <form method="post" action=SIGN_IN class="account-form" data-role="sign-in" id="sign-in">
                    <h2>"Sign in"</h2>
                    <label>"Email" <input type="email" name="email" autocomplete="username" required value=sign_in_email/></label>
                    <label>"Password" <input type="password" name="password" autocomplete="current-password" required/></label>
                    <button type="submit" class="primary">"Sign in"</button>
                </form>
                <form method="post" action=SIGN_UP class="account-form" data-role="sign-up">
                    <h2>"Create an account"</h2>
                    <label>"Email" <input type="email" name="email" autocomplete="email" required value=sign_up_email/></label>
                    <label>"Password (at least 10 characters)" <input type="password" name="password" autocomplete="new-password" minlength="10" required/></label>
                    <button type="submit" class="secondary">"Create account"</button>
                </form>
            </div>
            <p class="muted">"No email is ever sent. If you forget your password, ask your instructor to reset it."</p>
        }
            .into_any(),
    };
    view! {
        <section class="account-page">
            <h1>"Account"</h1>
            <Toast message=RwSignal::new(progress.notice.clone())/>
            {error}
            {body}
            <ProgressPanel progress=Signal::stored(progress)/>
        </section>
    }
}
