//! The pages' resources, read with the same JSON reader as the server functions that fetch them.
//!
//! A resource's data reaches the browser two ways: serialized into the page the server rendered
//! (read at hydration), and as a server function's response (read when a page is reached by a
//! link or fetched again). Leptos's own codec reads the first from a `&str` and server functions
//! read the second from bytes, and serde_json's reader is a type parameter: every type of the
//! model was compiled into the bundle twice, once per reader. This codec reads the page's text
//! as bytes, so both ways share one copy of each type's reading code.

use leptos::server::codee::{Decoder, Encoder};
use serde::de::DeserializeOwned;
use serde::Serialize;

/// JSON, written as Leptos's default codec writes it, read from bytes as server functions do.
pub struct Json;

impl<T: Serialize> Encoder<T> for Json {
    type Error = serde_json::Error;
    type Encoded = String;

    fn encode(val: &T) -> Result<String, serde_json::Error> {
        serde_json::to_string(val)
    }
}

impl<T: DeserializeOwned> Decoder<T> for Json {
    type Error = serde_json::Error;
    type Encoded = str;

    fn decode(val: &str) -> Result<T, serde_json::Error> {
        serde_json::from_slice(val.as_bytes())
    }
}

/// A page's resource, read with [`Json`].
pub type Resource<T> = leptos::prelude::Resource<T, Json>;

/// `Resource::new` with [`Json`]: tracks `source`, and fetches with `fetcher` whenever it
/// changes (on the server, once, into the page).
#[track_caller]
pub fn resource<S, T, Fut>(
    source: impl Fn() -> S + Send + Sync + 'static,
    fetcher: impl Fn(S) -> Fut + Send + Sync + 'static,
) -> Resource<T>
where
    S: PartialEq + Clone + Send + Sync + 'static,
    T: Serialize + DeserializeOwned + Send + Sync + 'static,
    Fut: std::future::Future<Output = T> + Send + 'static,
{
    Resource::new_with_options(source, fetcher, false)
}
