//! The one error every handler answers with when it cannot do what was asked. A refusal says
//! why in words, with its status; a failure of the server is logged with what it was doing, and
//! the client learns only that it was logged. The API answers `{"error": "…"}`; a worker reads
//! the same words as text; a browser's form post or page gets them on a page of the site.

use std::borrow::Cow;

use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Response};
use axum::Json;
use lockstep_lang::Text;
use lockstep_routes::Lang;

#[derive(Debug)]
pub struct HttpError {
    status: StatusCode,
    /// In each language it was said in: a page reads it in its own, or in English (the
    /// language JSON and text answers always use).
    message: Text,
    form: Form,
}

/// A failure below the HTTP edge is the server's: `?` logs it and answers that it was logged (the
/// catalogue's `errors.logged`).
macro_rules! internal_from {
    ($($error:ty => $what:literal),* $(,)?) => {$(
        impl From<$error> for HttpError {
            fn from(e: $error) -> HttpError {
                HttpError::internal($what, e)
            }
        }
    )*};
}

internal_from! {
    lockstep_store::StoreError => "database",
    lockstep_rules::RulesError => "rules",
    tower_sessions::session::Error => "session",
}

/// How the words are sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Form {
    Json,
    Text,
    Page,
}

impl HttpError {
    /// The request cannot be served as asked: `status` (4xx) and why, in English.
    pub fn refused(status: StatusCode, message: impl Into<Cow<'static, str>>) -> HttpError {
        HttpError::said(status, Text::new(Lang::En, message.into()))
    }

    /// [`HttpError::refused`], with why in each language it is said in.
    pub fn said(status: StatusCode, message: Text) -> HttpError {
        HttpError { status, message, form: Form::Json }
    }

    /// The server failed at `what`: logged here, with the error.
    pub fn internal(what: &str, error: impl std::fmt::Display) -> HttpError {
        tracing::error!("{what}: {error}");
        let status = StatusCode::INTERNAL_SERVER_ERROR;
        HttpError::said(status, Text::each(|l| lockstep_i18n::t(l).errors.logged.into()))
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
                let error = self.message.get(Lang::En);
                (self.status, Json(serde_json::json!({ "error": error }))).into_response()
            }
            Form::Text => (self.status, self.message.get(Lang::En).to_string()).into_response(),
            Form::Page => {
                let words = ErrorPage { status: self.status, message: self.message };
                let mut response = (self.status, Html(words.page(Lang::En))).into_response();
                response.extensions_mut().insert(words);
                response
            }
        }
    }
}

/// The page of an address that is no page of the site, in English: for one under a language the
/// site does not serve ([`crate::language::forms_in_their_language`]).
pub fn not_found() -> Response {
    let words = |l| lockstep_i18n::t(l).errors.not_found.into();
    HttpError::said(StatusCode::NOT_FOUND, Text::each(words)).page().into_response()
}

/// What an error page says, kept on its response so that the page can be written again in
/// the language of the address it answers ([`crate::language::forms_in_their_language`]): the
/// handlers behind a Korean page's form are the English ones.
#[derive(Debug, Clone)]
pub struct ErrorPage {
    status: StatusCode,
    message: Text,
}

impl ErrorPage {
    /// The page in `lang`: `message`, escaped, under the status's name, in the site's style.
    pub fn page(&self, lang: Lang) -> String {
        let t = &lockstep_i18n::t(lang).errors;
        let status = self.status;
        let title =
            (t.status_title)(status.as_u16()).or(status.canonical_reason()).unwrap_or("Error");
        let message = html_escape::encode_text(self.message.get(lang));
        format!(
            "<!DOCTYPE html><html lang=\"{code}\"><head><meta charset=\"utf-8\">\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
             <title>{title}</title><link rel=\"stylesheet\" href=\"/pkg/{css}.css\"></head>\
             <body><main id=\"main\"><section class=\"message-page\"><h1>{title}</h1><p>{message}</p>\
             <p><a href=\"{home}\">{back}</a></p></section></main></body></html>",
            code = lang.code(),
            css = lockstep_web::OUTPUT_NAME,
            home = lang.path(lockstep_routes::HOME),
            back = t.back_to_course,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(status: StatusCode, en: &'static str, ko: Option<&'static str>) -> ErrorPage {
        let message = Text::each(|l| match (l, ko) {
            (Lang::Ko, Some(ko)) => ko.into(),
            _ => en.into(),
        });
        ErrorPage { status, message }
    }

    #[test]
    fn a_page_escapes_its_words() {
        let hostile = "<script>alert(1)</script> & \"q\"";
        for words in [page(StatusCode::BAD_REQUEST, hostile, Some(hostile))] {
            for lang in Lang::ALL {
                let html = words.page(lang);
                assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt; &amp;"), "{html}");
                assert!(!html.contains("<script>"), "{html}");
            }
        }
        let html = page(StatusCode::BAD_REQUEST, "x", None).page(Lang::En);
        assert!(html.contains("<title>Bad Request</title>"), "{html}");
    }

    #[test]
    fn a_korean_page_is_korean_around_the_words_it_has() {
        let words = page(StatusCode::FORBIDDEN, "instructors only", Some("강사만"));
        let html = words.page(Lang::Ko);
        assert!(html.contains(r#"<html lang="ko">"#) && html.contains("<h1>권한이 없습니다</h1>"));
        assert!(
            html.contains("<p>강사만</p>") && html.contains(r#"<a href="/ko">강의로 돌아가기</a>"#)
        );
        let english_only = page(StatusCode::IM_A_TEAPOT, "short and stout", None).page(Lang::Ko);
        assert!(
            english_only.contains("<h1>I'm a teapot</h1><p>short and stout</p>"),
            "{english_only}"
        );
    }
}
