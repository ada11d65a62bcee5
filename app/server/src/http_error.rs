//! The one error every handler answers with when it cannot do what was asked. A refusal says
//! why in words, with its status; a failure of the server is logged with what it was doing, and
//! the client learns only that it was logged. The API answers `{"error": "…"}`; a form posted
//! by a browser (the quiz, the account forms) answers the same words as text.

use std::borrow::Cow;

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;

#[derive(Debug)]
pub struct HttpError {
    status: StatusCode,
    message: Cow<'static, str>,
    text: bool,
}

/// What a client is told of a failure of the server.
pub const LOGGED: &str = "the server failed; the error has been logged";

impl HttpError {
    /// The request cannot be served as asked: `status` (4xx) and why.
    pub fn refused(status: StatusCode, message: impl Into<Cow<'static, str>>) -> HttpError {
        HttpError { status, message: message.into(), text: false }
    }

    /// The server failed at `what`: logged here, with the error.
    pub fn internal(what: &str, error: impl std::fmt::Display) -> HttpError {
        tracing::error!("{what}: {error}");
        HttpError { status: StatusCode::INTERNAL_SERVER_ERROR, message: LOGGED.into(), text: false }
    }

    /// Answered as text, for a browser's form post.
    pub fn text(self) -> HttpError {
        HttpError { text: true, ..self }
    }
}

impl IntoResponse for HttpError {
    fn into_response(self) -> Response {
        if self.text {
            (self.status, self.message.into_owned()).into_response()
        } else {
            (self.status, Json(serde_json::json!({ "error": self.message }))).into_response()
        }
    }
}
