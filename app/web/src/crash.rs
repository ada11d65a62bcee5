//! When the browser bundle panics (a hydration mismatch, a disposed reactive value), the page
//! it ran is dead: buttons no longer answer. Rather than leave the learner clicking at a page
//! that silently ignores them, the panic hook puts a notice on the page that says so and offers
//! a reload, and reports the panic to the server's log (`CLIENT_ERRORS_API`), where operators
//! see what learners hit.

/// What the notice says; tests look for it.
pub const NOTICE: &str =
    "Something went wrong on this page, and its buttons may no longer respond.";

/// Panics on purpose, so that an operator (or a test) can see the crash notice and its line in
/// the server's log without waiting for a real bug: `(await import(document.querySelector(
/// "meta[name=lockstep-bundle]").content + "/lockstep.js")).check_crash_notice()` in the
/// browser's console on a page of the application (an exercise), `/lesson/lesson.js` on a
/// lesson, `/islands.js` on the site's other pages. Every bundle exports it. It breaks only the
/// page it is called on.
#[cfg(feature = "hydrate")]
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn check_crash_notice() {
    panic!("check_crash_notice: a panic on purpose, to check the crash notice");
}

#[cfg(feature = "hydrate")]
pub fn install() {
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        show_notice();
        report(&info.to_string());
    }));
}

#[cfg(feature = "hydrate")]
fn show_notice() {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else { return };
    let Some(body) = doc.body() else { return };
    if doc.query_selector("[data-role=app-error]").ok().flatten().is_some() {
        return;
    }
    let notice = (|| {
        let div = doc.create_element("div").ok()?;
        div.set_attribute("role", "alert").ok()?;
        div.set_attribute("class", "app-error").ok()?;
        div.set_attribute("data-role", "app-error").ok()?;
        div.set_text_content(Some(&format!("{NOTICE} ")));
        let reload = doc.create_element("a").ok()?;
        // An empty href is the page itself: following it reloads it.
        reload.set_attribute("href", "").ok()?;
        reload.set_text_content(Some("Reload the page"));
        div.append_child(&reload).ok()?;
        Some(div)
    })();
    if let Some(notice) = notice {
        let _ = body.append_child(&notice);
    }
}

#[cfg(feature = "hydrate")]
fn report(message: &str) {
    let Some(window) = web_sys::window() else { return };
    let url = window.location().href().unwrap_or_default();
    let body = serde_json::json!({ "message": message, "url": url }).to_string();
    let _ = window
        .navigator()
        .send_beacon_with_opt_str(lockstep_routes::CLIENT_ERRORS_API, Some(&body));
}
