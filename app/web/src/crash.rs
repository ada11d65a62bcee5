//! When the browser bundle panics (a hydration mismatch, a disposed reactive value), or cannot
//! be loaded at all (a build removed it, the network failed), the page is dead: buttons no
//! longer answer. Rather than leave the learner clicking at a page that silently ignores them,
//! the page shows a notice that says so, in its language, and offers a reload; a panic is also
//! reported to the server's log (`CLIENT_ERRORS_API`), where operators see what learners hit.
//!
//! The notice is drawn by a script every page carries in its head ([`SCRIPT`]), since a page
//! whose bundle failed to load has no wasm to draw it; the panic hook asks that script for it.
//!
//! # Crashes in the browser
//!
//! `lockstep_web::crash::install` replaces the panic hook: a panic logs to the console, puts a
//! notice with a reload link on the page (`[data-role=app-error]`) and sends a beacon to `POST
//! /api/client-errors`, which logs it (cut, escaped) for operators.

/// The page's own script: draws the notice (`data-role="app-error"`) when a script or
/// stylesheet of the page fails to load, when a module import fails, and when the bundle's
/// panic hook sends [`BROKEN`]. Its words come from its `data-notice` and `data-reload`.
pub const SCRIPT: &str = r#"(() => {
const me = document.currentScript;
const show = () => {
  if (!document.body) { addEventListener("DOMContentLoaded", show); return; }
  if (document.querySelector("[data-role=app-error]")) return;
  const div = document.createElement("div");
  div.setAttribute("role", "alert");
  div.className = "app-error";
  div.dataset.role = "app-error";
  // Styled here, not by the stylesheet, which may be what failed to load: over everything,
  // where it cannot be missed, in the theme's colours when they are there.
  div.style.cssText = "position:fixed;left:1rem;right:1rem;bottom:1rem;z-index:100;" +
    "max-width:40rem;margin:0 auto;padding:.9rem 1.1rem;font-weight:600;" +
    "background:var(--surface,#fff);color:var(--text,#1a1a25);" +
    "border:2px solid var(--danger,#b42318);border-radius:10px;box-shadow:0 6px 24px rgb(0 0 0/.25)";
  div.textContent = me.dataset.notice + " ";
  const reload = document.createElement("a");
  reload.setAttribute("href", "");
  reload.textContent = me.dataset.reload;
  div.append(reload);
  document.body.append(div);
};
addEventListener("lockstep-broken", show);
addEventListener("error", (e) => {
  const t = e.target;
  if (t instanceof HTMLScriptElement || (t instanceof HTMLLinkElement && /stylesheet|preload/.test(t.rel))) show();
}, true);
addEventListener("unhandledrejection", (e) => {
  const why = String((e.reason && e.reason.message) || e.reason);
  if (/dynamically imported module|module script|WebAssembly/i.test(why)) show();
});
})();"#;

/// The event the panic hook sends for [`SCRIPT`] to show the notice.
pub const BROKEN: &str = "lockstep-broken";

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
    let Some(window) = web_sys::window() else { return };
    if let Ok(event) = web_sys::Event::new(BROKEN) {
        let _ = window.dispatch_event(&event);
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
