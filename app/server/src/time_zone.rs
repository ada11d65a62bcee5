//! The reader's time zone, as the page's clock script keeps it in a cookie
//! ([`lockstep_routes::TIME_ZONE_COOKIE`]): before a browser's request that may record XP (a
//! POST), the learner's stored zone follows it, so that the day an event is counted on is the
//! learner's own (`lockstep_clock`). The store lets it change once a day. A visitor's first
//! XP makes them a learner during the request: the learner it issued takes the zone after it.

use axum::extract::{FromRequestParts, Request, State};
use axum::http::header::{COOKIE, SET_COOKIE};
use axum::http::{HeaderMap, Method};
use axum::middleware::Next;
use axum::response::Response;
use lockstep_clock::Zone;
use lockstep_routes::TIME_ZONE_COOKIE;
use lockstep_rules::Requester;

use crate::state::AppState;
use lockstep_clock::now_ms;

pub async fn remember(State(state): State<AppState>, req: Request, next: Next) -> Response {
    let zone = (req.method() == Method::POST).then(|| cookie_zone(req.headers())).flatten();
    let Some(zone) = zone else { return next.run(req).await };
    let (mut parts, body) = req.into_parts();
    let mut known = false;
    if let Ok(requester) = Requester::from_request_parts(&mut parts, &state).await {
        if let Some(learner) = requester.learner() {
            keep(&state, learner, &zone).await;
            known = true;
        }
    }
    let response = next.run(Request::from_parts(parts, body)).await;
    if !known {
        if let Some(issued) = issued_learner(&state, response.headers()) {
            if let Err(e) = state.context.store.adopt_time_zone(&issued, &zone, now_ms()).await {
                tracing::warn!("keeping a new learner's time zone: {e}");
            }
        }
    }
    response
}

/// The learner a response's `Set-Cookie` gives the browser, if it gives one.
fn issued_learner(state: &AppState, headers: &HeaderMap) -> Option<String> {
    let cookie = state.rules().learner_cookie;
    headers.get_all(SET_COOKIE).iter().find_map(|set| {
        let pair = set.to_str().ok()?.split(';').next()?;
        let mut sent = HeaderMap::new();
        sent.insert(COOKIE, pair.parse().ok()?);
        cookie.read(&sent)
    })
}

/// Stores `zone` as the learner's unless it is theirs already. A failure is logged and the
/// request goes on: its events are then counted in the zone stored before.
async fn keep(state: &AppState, learner: &str, zone: &Zone) {
    let store = &state.context.store;
    match store.cached().learner(learner).await {
        Ok(kept) if kept.time_zone.as_deref() == Some(zone.name()) => return,
        Ok(_) => {}
        Err(e) => return tracing::warn!("reading a learner's time zone: {e}"),
    }
    if let Err(e) = store.set_time_zone(learner, zone.name(), now_ms()).await {
        tracing::warn!("keeping a learner's time zone: {e}");
    }
}

/// The zone the request's cookie names, if it is one the server knows.
fn cookie_zone(headers: &HeaderMap) -> Option<Zone> {
    let value = lockstep_rules::learner_cookie::cookies(headers, TIME_ZONE_COOKIE).next()?;
    let name = percent_encoding::percent_decode_str(value).decode_utf8().ok()?;
    Zone::named(&name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn zone_of(cookie: &str) -> Option<String> {
        let mut headers = HeaderMap::new();
        headers.insert(COOKIE, cookie.parse().unwrap());
        cookie_zone(&headers).map(|z| z.name().to_string())
    }

    #[test]
    fn the_cookie_as_the_script_writes_it() {
        assert_eq!(
            zone_of("lang=ko; lockstep-tz=America%2FNew_York").as_deref(),
            Some("America/New_York")
        );
        assert_eq!(zone_of("lockstep-tz=Etc%2FGMT%2B5").as_deref(), Some("Etc/GMT+5"));
        assert_eq!(zone_of("lockstep-tz=UTC").as_deref(), Some("UTC"));
        assert_eq!(zone_of("lockstep-tz=Nowhere%2FAtAll"), None);
        assert_eq!(zone_of("lockstep-tz=%2E%2E%2Fetc%2Fpasswd"), None);
        assert_eq!(zone_of("other-tz=Asia%2FSeoul"), None);
    }
}
