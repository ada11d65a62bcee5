//! The one error every handler answers with when it cannot do what was asked. A refusal says
//! why in words, with its status; a failure of the server is logged with what it was doing, and
//! the client learns only that it was logged. The API answers `{"error": "…"}`; a worker reads
//! the same words as text; a browser's form post or page gets them on a page of the site.

use std::borrow::Cow;

use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Response};
use axum::Json;

#[derive(Debug)]
pub struct HttpError {
    status: StatusCode,
    message: Cow<'static, str>,
    form: Form,
}

/// How the words are sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Form {
    Json,
    Text,
    Page,
}

/// What a client is told of a failure of the server.
pub const LOGGED: &str = "the server failed; the error has been logged";

impl HttpError {
    /// The request cannot be served as asked: `status` (4xx) and why.
    pub fn refused(status: StatusCode, message: impl Into<Cow<'static, str>>) -> HttpError {
        HttpError { status, message: message.into(), form: Form::Json }
    }

    /// The server failed at `what`: logged here, with the error.
    pub fn internal(what: &str, error: impl std::fmt::Display) -> HttpError {
        tracing::error!("{what}: {error}");
        let status = StatusCode::INTERNAL_SERVER_ERROR;
        HttpError { status, message: LOGGED.into(), form: Form::Json }
    }

    /// Answered as plain text, for a program that shows it as it is (a worker).
    pub fn text(self) -> HttpError {
        HttpError { form: Form::Text, ..self }
    }

    /// Answered as a page of the site, for a browser.
    pub fn page(self) -> HttpError {
        HttpError { form: Form::Page, ..self }
    }
}

impl IntoResponse for HttpError {
    fn into_response(self) -> Response {
        match self.form {
            Form::Json => {
                (self.status, Json(serde_json::json!({ "error": self.message }))).into_response()
            }
            Form::Text => (self.status, self.message.into_owned()).into_response(),
            Form::Page => (self.status, Html(page(self.status, &self.message))).into_response(),
        }
    }
}

/// A page with `message`, escaped, under the status's name, in the site's style.
fn page(status: StatusCode, message: &str) -> String {
    let title = status.canonical_reason().unwrap_or("Error");
    let message = html_escape::encode_text(message);
    format!(
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{title}</title><link rel=\"stylesheet\" href=\"/pkg/{css}.css\"></head>\
         <body><main id=\"main\"><section class=\"message-page\"><h1>{title}</h1><p>{message}</p>\
         <p><a href=\"{home}\">Back to the course</a></p></section></main></body></html>",
        css = lockstep_web::OUTPUT_NAME,
        home = lockstep_routes::HOME,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_escapes_its_words() {
        let html = page(StatusCode::BAD_REQUEST, "<script>alert(1)</script> & \"q\"");
        assert!(html.contains("<title>Bad Request</title>"), "{html}");
        assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt; &amp;"), "{html}");
        assert!(!html.contains("<script>"), "{html}");
    }
}
