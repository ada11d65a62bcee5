//! Where the parts of a page that are fresh on every request (the comments) go: the lesson
//! page names each part's place, a render for keeping leaves a placeholder there
//! ([`SLOT_PREFIX`]), and every response fills it with the part's [`section`]. What each part
//! holds is the server's (`lockstep_pages::request_parts`).

/// Where a request part's placeholder names it: `<template data-slot="request:NAME">`.
pub const SLOT_PREFIX: &str = "request:";

/// The element a request part fills: what the lesson page renders empty, byte for byte as
/// Leptos writes it (its static `class` after the attribute set from a value), with `html`
/// inside. The server's tests compare a filled page with a full render.
pub fn section(name: &str, html: &str) -> String {
    format!("<section data-part=\"{name}\" class=\"request-part\">{html}</section>")
}
