//! Markdown to HTML for comments: small passes over pulldown-cmark's events, then `ammonia`.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, OnceLock};

use lockstep_highlight::Kind;
use pulldown_cmark::{CodeBlockKind, Event, Options, Parser, Tag, TagEnd};

use crate::is_invisible_control;

/// The fence languages a code block is highlighted in, with the `class` that names it; any
/// other fence is plain text.
const LANGUAGES: &[(&str, &str)] = &[
    ("python", "language-python"),
    ("bash", "language-bash"),
    ("sh", "language-sh"),
    ("shell", "language-shell"),
    ("toml", "language-toml"),
    ("json", "language-json"),
    ("yaml", "language-yaml"),
];

/// How many rendered texts [`render_kept`] keeps: far more than the comments of the pages read
/// at once; when full it starts over.
const KEPT_MOST: usize = 4_096;

/// [`render`], kept in this process by text: a page renders its comments on every request,
/// and rendering (highlighting code, then sanitizing) costs far more than the rest of the page.
/// Rendering is a pure function of the text, so a kept result is never stale; a new renderer
/// comes with a new process, which starts empty.
pub fn render_kept(markdown: &str) -> Arc<str> {
    static KEPT: OnceLock<Mutex<HashMap<String, Arc<str>>>> = OnceLock::new();
    let kept = KEPT.get_or_init(Mutex::default);
    if let Some(html) = kept.lock().unwrap_or_else(|e| e.into_inner()).get(markdown) {
        return html.clone();
    }
    // Rendered outside the lock: two requests may render one text twice, never wait on it.
    let html: Arc<str> = render(markdown).into();
    let mut kept = kept.lock().unwrap_or_else(|e| e.into_inner());
    if kept.len() >= KEPT_MOST {
        kept.clear();
    }
    kept.insert(markdown.to_string(), html.clone());
    html
}

/// `markdown` as HTML that is safe to put in a page: paragraphs, emphasis, lists, quotes,
/// inline code, code blocks highlighted as in lessons, and links marked `nofollow ugc noopener`.
/// What markdown would pass through as HTML is shown as text; images are shown as their alt
/// text; headings become paragraphs (a comment does not add to the lesson's outline).
pub fn render(markdown: &str) -> String {
    let text: String = markdown.chars().filter(|c| !is_invisible_control(*c)).collect();
    let events = Parser::new_ext(&text, Options::ENABLE_STRIKETHROUGH);
    let events = code_blocks(headings_as_paragraphs(images_as_text(html_as_text(events))));
    let mut html = String::new();
    pulldown_cmark::html::push_html(&mut html, events);
    sanitizer().clean(&html).to_string()
}

/// Raw HTML, block or inline, becomes the text it is.
fn html_as_text<'a>(events: impl Iterator<Item = Event<'a>>) -> impl Iterator<Item = Event<'a>> {
    events.map(|e| match e {
        Event::Html(html) | Event::InlineHtml(html) => Event::Text(html),
        e => e,
    })
}

/// An image shows as its alt text: a comment loads nothing from elsewhere.
fn images_as_text<'a>(events: impl Iterator<Item = Event<'a>>) -> impl Iterator<Item = Event<'a>> {
    events.filter(|e| !matches!(e, Event::Start(Tag::Image { .. }) | Event::End(TagEnd::Image)))
}

fn headings_as_paragraphs<'a>(
    events: impl Iterator<Item = Event<'a>>,
) -> impl Iterator<Item = Event<'a>> {
    events.map(|e| match e {
        Event::Start(Tag::Heading { .. }) => Event::Start(Tag::Paragraph),
        Event::End(TagEnd::Heading(_)) => Event::End(TagEnd::Paragraph),
        e => e,
    })
}

/// Each code block as one piece of HTML, highlighted when its fence names a known language;
/// its text escaped by the highlighter.
fn code_blocks<'a>(events: impl Iterator<Item = Event<'a>>) -> impl Iterator<Item = Event<'a>> {
    let mut block: Option<(Option<(&'static str, &'static str)>, String)> = None;
    events.filter_map(move |e| match (&mut block, e) {
        (None, Event::Start(Tag::CodeBlock(kind))) => {
            let lang = match kind {
                CodeBlockKind::Fenced(info) => {
                    let word = info.split_whitespace().next().unwrap_or("").to_ascii_lowercase();
                    LANGUAGES.iter().copied().find(|(l, _)| *l == word)
                }
                CodeBlockKind::Indented => None,
            };
            block = Some((lang, String::new()));
            None
        }
        (Some((_, code)), Event::Text(text)) => {
            code.push_str(&text);
            None
        }
        (Some(_), Event::End(TagEnd::CodeBlock)) => {
            let (lang, code) = block.take().expect("inside a block");
            let code = code.strip_suffix('\n').unwrap_or(&code);
            let lines = match lang {
                Some((lang, _)) => lockstep_highlight::highlight(lang, code),
                None => lockstep_highlight::plain(code),
            };
            let class = lang.map(|(_, c)| format!(" class=\"{c}\"")).unwrap_or_default();
            let body = lockstep_highlight::to_html(&lines);
            Some(Event::Html(format!("<pre><code{class}>{body}</code></pre>\n").into()))
        }
        (_, e) => Some(e),
    })
}

/// The allow-list: nothing is kept that is not named here.
fn sanitizer() -> &'static ammonia::Builder<'static> {
    static BUILDER: OnceLock<ammonia::Builder<'static>> = OnceLock::new();
    BUILDER.get_or_init(|| {
        let tags = [
            "p",
            "br",
            "strong",
            "em",
            "del",
            "code",
            "pre",
            "span",
            "a",
            "ul",
            "ol",
            "li",
            "blockquote",
            "hr",
        ];
        let highlight: HashSet<&str> = Kind::ALL.iter().map(|k| k.class()).collect();
        let languages: HashSet<&str> = LANGUAGES.iter().map(|(_, class)| *class).collect();
        let mut builder = ammonia::Builder::empty();
        builder
            .tags(tags.into_iter().collect())
            .generic_attributes(HashSet::new())
            .tag_attributes(HashMap::from([
                ("a", HashSet::from(["href"])),
                ("ol", HashSet::from(["start"])),
            ]))
            .allowed_classes(HashMap::from([("span", highlight), ("code", languages)]))
            .url_schemes(HashSet::from(["http", "https", "mailto"]))
            .url_relative(ammonia::UrlRelative::PassThrough)
            .link_rel(Some("nofollow ugc noopener"))
            .strip_comments(true);
        builder
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kept_render_is_the_render() {
        let text = "```python\nprint('<b>')\n```\n<script>x</script>";
        assert_eq!(&*render_kept(text), render(text));
        assert!(Arc::ptr_eq(&render_kept(text), &render_kept(text)), "kept");
    }

    #[test]
    fn markdown_renders_as_the_lessons_do() {
        let html = render("`set_epoch`를 **매 epoch** 불러야 하나요?\n\n```python\nfor epoch in range(3):\n    sampler.set_epoch(epoch)\n```");
        assert!(html.contains("<code>set_epoch</code>를 <strong>매 epoch</strong>"), "{html}");
        assert!(html.contains(r#"<pre><code class="language-python">"#), "{html}");
        assert!(html.contains(r#"<span class="hl-"#), "highlighted: {html}");
        let html = render("[lesson 4](/lessons/distributed-sampler#set-epoch)");
        assert_eq!(
            html.trim(),
            r#"<p><a href="/lessons/distributed-sampler#set-epoch" rel="nofollow ugc noopener">lesson 4</a></p>"#
        );
        assert_eq!(render("# Title").trim(), "<p>Title</p>");
    }
}
