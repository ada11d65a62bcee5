//! Instants on a page. The server draws each in the site's default zone (`lockstep_clock`),
//! as `<time datetime="…Z" data-zone="Asia/Seoul">2026-11-25 23:03 UTC+9</time>`; the page's
//! clock script ([`SCRIPT`]) redraws it in the browser's own zone, in the same form, and keeps
//! that zone in a cookie ([`lockstep_routes::TIME_ZONE_COOKIE`]) from which the server learns
//! the zone a learner's streak days are counted in.

use leptos::prelude::*;

use crate::model::Moment;

/// An instant, as the server draws it and the clock script redraws it.
#[component]
pub fn Time(moment: Moment) -> impl IntoView {
    view! { <time datetime=moment.utc data-zone=moment.zone>{moment.local}</time> }
}

/// Redraws every `time[data-zone]` (now and as pages add them) in the browser's zone, and
/// keeps that zone in the cookie its `data-cookie` names. Its text matches `lockstep_clock`'s: `YYYY-MM-DD HH:MM`
/// and `UTC`, `UTC+9`, `UTC+5:30`, `UTC-3`.
pub const SCRIPT: &str = r#"(() => {
const name = document.currentScript.dataset.cookie + "=";
let zone;
try { zone = Intl.DateTimeFormat().resolvedOptions().timeZone; } catch (_) { return; }
if (!zone) return;
const kept = document.cookie.split("; ").find((c) => c.startsWith(name));
if (!kept || decodeURIComponent(kept.slice(name.length)) !== zone) {
  document.cookie = name + encodeURIComponent(zone) + "; path=/; max-age=31536000; samesite=lax" +
    (location.protocol === "https:" ? "; secure" : "");
}
const parts = new Intl.DateTimeFormat("en-US", { timeZone: zone, hourCycle: "h23",
  year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit" });
const text = (ms) => {
  const p = {};
  for (const { type, value } of parts.formatToParts(ms)) p[type] = value;
  const seconds = Math.floor(ms / 1000) * 1000;
  const local = Date.UTC(+p.year, p.month - 1, +p.day, +p.hour % 24, +p.minute, +p.second);
  const off = Math.round((local - seconds) / 60000), a = Math.abs(off), m = a % 60;
  const label = off === 0 ? "UTC" : "UTC" + (off > 0 ? "+" : "-") + Math.floor(a / 60) +
    (m ? ":" + String(m).padStart(2, "0") : "");
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute} ${label}`;
};
const redraw = (root) => {
  for (const t of root.querySelectorAll("time[data-zone]")) {
    if (t.dataset.zone === zone) continue;
    const ms = Date.parse(t.getAttribute("datetime"));
    const node = t.firstChild;
    if (Number.isNaN(ms) || !(node instanceof Text)) continue;
    // The text node is kept, not replaced, so that hydration finds the node it rendered.
    node.data = text(ms);
    t.dataset.zone = zone;
  }
};
const start = () => {
  redraw(document);
  new MutationObserver(() => redraw(document)).observe(document.body, { childList: true, subtree: true });
};
if (document.body) start(); else addEventListener("DOMContentLoaded", start);
})();"#;
