//! A lesson as search reads it: its sections (the text under each `##` or `###` heading, and
//! the part before the first), in plain text, from the lesson's rendered blocks. A quiz counts
//! with its questions and options, never its explanations: those say which options are right,
//! which the page shows only once a learner passes.

use lockstep_course::{Block, Lesson};

/// One searchable part of a lesson.
#[derive(Debug, Clone, PartialEq)]
pub struct Section {
    /// The heading's id; `None` for the text before the first heading.
    pub heading_id: Option<String>,
    /// The heading's text, or the lesson's title for the part before the first heading.
    pub heading: String,
    pub text: String,
}

pub fn of(lesson: &Lesson) -> Vec<Section> {
    let mut out = vec![Section {
        heading_id: None,
        heading: lesson.front.title.clone(),
        text: lesson.front.summary.clone(),
    }];
    for block in &lesson.body {
        match block {
            Block::Html(html) => read_html(html, &mut out),
            Block::Quiz(quiz) => {
                let current = out.last_mut().expect("one section at least");
                for q in &quiz.questions {
                    push_text(&mut current.text, &plain(&q.prompt_html));
                    for o in &q.options {
                        push_text(&mut current.text, &plain(&o.text_html));
                    }
                }
            }
            Block::Simulation(_) => {}
        }
    }
    out.retain(|s| s.heading_id.is_some() || !s.text.trim().is_empty());
    out
}

fn push_text(to: &mut String, text: &str) {
    let text = text.trim();
    if text.is_empty() {
        return;
    }
    if !to.is_empty() {
        to.push(' ');
    }
    to.push_str(text);
}

/// Splits the renderer's HTML at its `<h2 id=…>` and `<h3 id=…>` headings.
fn read_html(html: &str, out: &mut Vec<Section>) {
    let mut rest = html;
    loop {
        let next = ["<h2 id=\"", "<h3 id=\""].iter().filter_map(|t| rest.find(t)).min();
        let Some(at) = next else {
            let current = out.last_mut().expect("one section at least");
            push_text(&mut current.text, &plain(rest));
            return;
        };
        let current = out.last_mut().expect("one section at least");
        push_text(&mut current.text, &plain(&rest[..at]));
        let level = &rest[at + 1..at + 3];
        let after = &rest[at + 8..];
        let Some(id_end) = after.find('"') else { return };
        let id = unescape(&after[..id_end]);
        let close = format!("</{level}>");
        let Some(open_end) = after.find('>') else { return };
        let inner_start = open_end + 1;
        let Some(inner_len) = after[inner_start..].find(&close) else { return };
        let inner = &after[inner_start..inner_start + inner_len];
        // The renderer's `#` link to the section is not part of its title.
        let inner = inner.split("<a class=\"anchor\"").next().unwrap_or(inner);
        out.push(Section { heading_id: Some(id), heading: plain(inner), text: String::new() });
        rest = &after[inner_start + inner_len + close.len()..];
    }
}

/// The text of the renderer's HTML: tags dropped (a copy button's label with them), block ends
/// made spaces, entities decoded.
pub fn plain(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(lt) = rest.find('<') {
        out.push_str(&rest[..lt]);
        let tag_end = rest[lt..].find('>').map_or(rest.len(), |e| lt + e + 1);
        let tag = &rest[lt..tag_end];
        rest = &rest[tag_end..];
        if tag.starts_with("<button") {
            rest = rest.find("</button>").map_or("", |e| &rest[e + "</button>".len()..]);
            continue;
        }
        if tag.starts_with("<annotation") {
            // MathML's LaTeX source: the formula's text is already in its elements.
            rest = rest.find("</annotation>").map_or("", |e| &rest[e + "</annotation>".len()..]);
            continue;
        }
        if ["</p", "</li", "</td", "</th", "</pre", "<br", "</h", "</figcaption", "</div"]
            .iter()
            .any(|t| tag.starts_with(t))
        {
            out.push(' ');
        }
    }
    out.push_str(rest);
    let text = unescape(&out);
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn unescape(text: &str) -> String {
    text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&#x27;", "'")
        .replace("&amp;", "&")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_splits_at_headings_and_loses_its_markup() {
        let mut out = vec![Section { heading_id: None, heading: "T".into(), text: String::new() }];
        read_html(
            "<p>Intro &amp; more.</p>\n<h2 id=\"the-ring\">The <code>ring</code><a class=\"anchor\" \
             href=\"#the-ring\" aria-label=\"Link\">#</a></h2>\n<p>Each rank</p><figure><figcaption>\
             <button type=\"button\">Copy</button></figcaption><pre><code>dist.all_reduce(t)</code></pre>\
             </figure><h3 id=\"모델-복제\">모델 복제</h3><p>모델을</p>",
            &mut out,
        );
        let got: Vec<(Option<&str>, &str, &str)> = out
            .iter()
            .map(|s| (s.heading_id.as_deref(), s.heading.as_str(), s.text.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                (None, "T", "Intro & more."),
                (Some("the-ring"), "The ring", "Each rank dist.all_reduce(t)"),
                (Some("모델-복제"), "모델 복제", "모델을"),
            ]
        );
    }
}
