//! Lesson pages rendered once per course version, with the learner's parts filled per request.
//!
//! Rendering a lesson (its body, every embedded simulation's first state) is the expensive part
//! of a page, and it is the same for every learner. The server renders the page once with
//! [`RenderTemplate`] on the request: every [`LearnerPart`] then renders as a placeholder,
//! `<template data-slot="NAME"></template>`, and the page's learner data is an anonymous
//! visitor's. [`Template::parse`] cuts that HTML at the placeholders and at the serialized
//! learner data; [`Template::fill`] renders only the learner's parts, with the same functions the
//! page uses, and the learner's data, serialized as Leptos serializes a resource. The result is
//! the page a full render gives, byte for byte (the server's tests compare the two), so the
//! browser hydrates it as usual.

use leptos::prelude::*;
use leptos::tachys::view::RenderHtml;

use super::{learner_part, LearnerPart, LearnerState, LessonParts};
use crate::model::{LessonLearner, LessonView};

/// A request extension: render the page as a template.
#[derive(Debug, Clone, Copy)]
pub struct RenderTemplate;

/// Whether the page being rendered is a template (on the server, for a request carrying
/// [`RenderTemplate`]).
pub fn rendering_template() -> bool {
    use_context::<http::request::Parts>()
        .is_some_and(|parts| parts.extensions.get::<RenderTemplate>().is_some())
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum TemplateError {
    #[error("the page's learner data is not where it should be ({0} copies)")]
    LearnerData(usize),
    #[error("the page has a placeholder for `{0}`, which is not a part of the learner's")]
    UnknownPart(String),
    #[error("the page has an unclosed placeholder")]
    Unclosed,
}

/// A rendered lesson page, cut where the learner's parts and data go.
#[derive(Debug)]
pub struct Template {
    lesson: LessonParts,
    /// The page's language, which the learner's parts are rendered in.
    lang: lockstep_i18n::Lang,
    pieces: Vec<Piece>,
    /// The bytes of HTML that are the same for everyone, to size the page.
    fixed_len: usize,
}

#[derive(Debug, Clone, PartialEq)]
enum Piece {
    Html(String),
    Part(LearnerPart),
    /// The learner's data for hydration, as Leptos serializes a resource's value.
    LearnerData,
    /// A request part, by name: filled on every response, never kept filled.
    Request(String),
}

const SLOT_START: &str = "<template data-slot=\"";
const SLOT_END: &str = "\"></template>";

impl Template {
    /// `html`: the page rendered with [`RenderTemplate`] for `lesson`, whose learner data was
    /// `anonymous`.
    pub fn parse(
        html: &str,
        lesson: LessonView,
        lang: lockstep_i18n::Lang,
        anonymous: &LessonLearner,
    ) -> Result<Template, TemplateError> {
        let data = format!(" = {};", serialized(anonymous));
        let copies = html.matches(&data).count();
        if copies != 1 {
            return Err(TemplateError::LearnerData(copies));
        }
        let mut pieces = Vec::new();
        let (before, after) = html.split_once(&data).expect("counted once");
        cut_slots(before, &mut pieces)?;
        pieces.push(Piece::Html(" = ".into()));
        pieces.push(Piece::LearnerData);
        pieces.push(Piece::Html(";".into()));
        cut_slots(after, &mut pieces)?;
        let fixed_len = fixed_len(&pieces);
        Ok(Template { lesson: LessonParts::of(&lesson), lang, pieces, fixed_len })
    }

    /// The page for `learner`, with each request part's HTML from `requests` (name, HTML); a
    /// part missing there is left empty.
    pub fn fill(&self, learner: LessonLearner, requests: &[(String, String)]) -> String {
        if self.pieces.iter().all(|p| matches!(p, Piece::Html(_) | Piece::Request(_))) {
            return self.fill_requests(requests);
        }
        let pieces = self.render(Some(learner), Some(requests));
        let mut page = String::with_capacity(self.fixed_len + 8192);
        for piece in pieces {
            if let Piece::Html(html) = piece {
                page.push_str(&html);
            }
        }
        page
    }

    /// [`Template::fill`] of a template whose learner's parts are written in already (the
    /// anonymous visitors' variant): the request parts between its HTML, with no render, as an
    /// anonymous lesson page is served on every request.
    fn fill_requests(&self, requests: &[(String, String)]) -> String {
        let parts: usize = requests.iter().map(|(_, html)| html.len() + 64).sum();
        let mut page = String::with_capacity(self.fixed_len + parts);
        for piece in &self.pieces {
            match piece {
                Piece::Html(html) => page.push_str(html),
                Piece::Request(name) => {
                    let html = requests.iter().find(|(n, _)| n == name).map_or("", |(_, h)| h);
                    page.push_str(&crate::ssr::request_parts::section(name, html));
                }
                _ => unreachable!("only HTML and request parts are left"),
            }
        }
        page
    }

    /// The template with the learner's parts rendered for `learner` once (every anonymous
    /// visitor is the same learner): only the request parts are left to fill.
    pub fn with_learner(&self, learner: LessonLearner) -> Template {
        let pieces = self.render(Some(learner), None);
        let fixed_len = fixed_len(&pieces);
        Template { lesson: self.lesson.clone(), lang: self.lang, pieces, fixed_len }
    }

    /// The request parts left to fill, in page order.
    pub fn request_parts(&self) -> Vec<&str> {
        self.pieces
            .iter()
            .filter_map(|p| if let Piece::Request(n) = p { Some(n.as_str()) } else { None })
            .collect()
    }

    /// The HTML, when nothing is left to fill.
    pub fn html(&self) -> Option<&str> {
        match &self.pieces[..] {
            [] => Some(""),
            [Piece::Html(html)] => Some(html),
            _ => None,
        }
    }

    /// The pieces with what is given filled in, runs of HTML joined.
    fn render(
        &self,
        learner: Option<LessonLearner>,
        requests: Option<&[(String, String)]>,
    ) -> Vec<Piece> {
        let owner = Owner::new();
        owner.with(|| {
            provide_context(self.lang);
            let state =
                learner.map(|l| LearnerState::new(l, ServerAction::new(), ServerAction::new()));
            let mut out: Vec<Piece> = Vec::new();
            let push = |out: &mut Vec<Piece>, html: &str| match out.last_mut() {
                Some(Piece::Html(last)) => last.push_str(html),
                _ => out.push(Piece::Html(html.to_string())),
            };
            for piece in &self.pieces {
                match (piece, &state, requests) {
                    (Piece::Html(html), ..) => push(&mut out, html),
                    (Piece::Part(part), Some(state), _) => {
                        push(&mut out, &learner_part(*part, &self.lesson, state).to_html())
                    }
                    (Piece::LearnerData, Some(state), _) => {
                        push(&mut out, &serialized(&state.learner.get_untracked()))
                    }
                    (Piece::Request(name), _, Some(requests)) => {
                        let html = requests.iter().find(|(n, _)| n == name).map_or("", |(_, h)| h);
                        push(&mut out, &crate::ssr::request_parts::section(name, html))
                    }
                    (unfilled, ..) => out.push(unfilled.clone()),
                }
            }
            out
        })
    }
}

/// The bytes of HTML that are the same for everyone, to size the page.
fn fixed_len(pieces: &[Piece]) -> usize {
    pieces.iter().map(|p| if let Piece::Html(h) = p { h.len() } else { 0 }).sum()
}

/// Splits `html` at the learner parts' placeholders.
fn cut_slots(mut html: &str, pieces: &mut Vec<Piece>) -> Result<(), TemplateError> {
    while let Some(start) = html.find(SLOT_START) {
        pieces.push(Piece::Html(html[..start].to_string()));
        let rest = &html[start + SLOT_START.len()..];
        let end = rest.find(SLOT_END).ok_or(TemplateError::Unclosed)?;
        let name = &rest[..end];
        if let Some(request) = name.strip_prefix(crate::ssr::request_parts::SLOT_PREFIX) {
            pieces.push(Piece::Request(request.to_string()));
        } else {
            let part = LearnerPart::from_name(name)
                .ok_or_else(|| TemplateError::UnknownPart(name.into()))?;
            pieces.push(Piece::Part(part));
        }
        html = &rest[end + SLOT_END.len()..];
    }
    pieces.push(Piece::Html(html.to_string()));
    Ok(())
}

/// The learner's data as the page carries it for hydration: what the lesson page's
/// `get_lesson_learner` resource returned, JSON-encoded and written as a JavaScript string
/// the way `hydration_context` writes every resolved resource.
fn serialized(learner: &LessonLearner) -> String {
    let json = serde_json::to_string(&Ok::<&LessonLearner, ServerFnError>(learner))
        .expect("page models always serialize");
    format!("{:?}", json.replace('<', "\\u003c"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lesson() -> LessonView {
        LessonView {
            slug: "l".into(),
            course: None,
            position: 1,
            total: 1,
            title: "L".into(),
            minutes: 1,
            tags: vec![],
            xp: 10,
            summary: String::new(),
            body: vec![],
            toc: vec![],
            prev: None,
            next: None,
            untranslated: None,
            sections: vec![],
            request_parts: vec![],
            unpublished: None,
        }
    }

    #[test]
    fn a_template_is_cut_at_each_placeholder_and_the_learner_data() {
        let anonymous = LessonLearner::default();
        let html = format!(
            "<p>a</p><template data-slot=\"progress\"></template><p>b</p>\
             <template data-slot=\"quiz-3\"></template><script>X[1] = {};</script>",
            serialized(&anonymous)
        );
        let t = Template::parse(&html, lesson(), lockstep_i18n::Lang::En, &anonymous).unwrap();
        assert_eq!(
            t.pieces,
            vec![
                Piece::Html("<p>a</p>".into()),
                Piece::Part(LearnerPart::Progress),
                Piece::Html("<p>b</p>".into()),
                Piece::Part(LearnerPart::Quiz(3)),
                Piece::Html("<script>X[1]".into()),
                Piece::Html(" = ".into()),
                Piece::LearnerData,
                Piece::Html(";".into()),
                Piece::Html("</script>".into()),
            ]
        );
    }

    /// A request part stays a placeholder in the template kept for anonymous visitors, and
    /// each fill writes what it is given for this response.
    #[test]
    fn request_parts_are_never_kept_filled() {
        let anonymous = LessonLearner::default();
        let html = format!(
            "<p>a</p><template data-slot=\"request:talk\"></template><script>X = {};</script>",
            serialized(&anonymous)
        );
        let t = Template::parse(&html, lesson(), lockstep_i18n::Lang::En, &anonymous).unwrap();
        let kept = t.with_learner(anonymous.clone());
        assert_eq!(kept.request_parts(), ["talk"]);
        assert_eq!(kept.html(), None, "a request part is left to fill");
        let page = |n: u32| kept.fill(anonymous.clone(), &[("talk".into(), format!("<i>{n}</i>"))]);
        let (first, second) = (page(1), page(2));
        assert!(
            first.contains(r#"<section data-part="talk" class="request-part"><i>1</i></section>"#),
            "{first}"
        );
        assert!(second.contains("<i>2</i>") && !second.contains("<i>1</i>"), "{second}");
        assert!(kept
            .fill(anonymous.clone(), &[])
            .contains(r#"data-part="talk" class="request-part"></section>"#));
        let without = Template::parse(
            &format!("<p>a</p>{}", &html[html.find("<script>").unwrap()..]),
            lesson(),
            lockstep_i18n::Lang::En,
            &anonymous,
        )
        .unwrap();
        assert!(without.with_learner(anonymous).html().is_some(), "nothing left to fill");
    }

    #[test]
    fn a_template_without_exactly_one_copy_of_the_learner_data_is_refused() {
        let anonymous = LessonLearner::default();
        assert_eq!(
            Template::parse("<p>no data</p>", lesson(), lockstep_i18n::Lang::En, &anonymous)
                .unwrap_err(),
            TemplateError::LearnerData(0)
        );
        let data = format!(" = {};", serialized(&anonymous));
        assert_eq!(
            Template::parse(
                &format!("{data}{data}"),
                lesson(),
                lockstep_i18n::Lang::En,
                &anonymous
            )
            .unwrap_err(),
            TemplateError::LearnerData(2)
        );
        let html = format!("<template data-slot=\"header\"></template>{data}");
        assert_eq!(
            Template::parse(&html, lesson(), lockstep_i18n::Lang::En, &anonymous).unwrap_err(),
            TemplateError::UnknownPart("header".into())
        );
    }

    #[test]
    fn learner_data_is_escaped_as_leptos_escapes_it() {
        let mut learner = LessonLearner::default();
        learner.progress.notice = Some("</script> \"quoted\"".into());
        let s = serialized(&learner);
        assert!(s.starts_with("\"{\\\"Ok\\\":{"), "{s}");
        assert!(!s.contains('<'), "no `<` can end the script early: {s}");
    }
}
