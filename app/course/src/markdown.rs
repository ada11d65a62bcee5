//! Markdown body → HTML, with what the lesson page needs beside it: the table of contents, the
//! heading ids other lessons may link to, and the links this lesson makes to others.
//!
//! Everything an instructor can get wrong is reported as a [`Diagnostic`] with the line it is on;
//! the renderer still produces HTML for the rest of the body so the whole file is checked in one
//! pass.

use std::collections::BTreeSet;

use pulldown_cmark::{
    html, BlockQuoteKind, CodeBlockKind, CowStr, Event, HeadingLevel, LinkType, Options, Parser,
    Tag, TagEnd,
};

use lockstep_embed::Simulation;

use crate::diagnostic::{Diagnostic, LineIndex};
use crate::fence::{self, Fence};
use crate::quiz::{self, Quiz};
use crate::slug::{heading_id, slug_for_file, unique_id};
use lockstep_i18n::{t, Lang};

/// Stands in the rendered HTML where a simulation or quiz goes until [`render`] cuts the body
/// there. Lesson text cannot produce it: raw HTML is escaped, and so is code. One HTML writer
/// renders the whole body (footnote numbers run across it), so the cut comes after.
const EMBED_MARKER: &str = "<!--lockstep-simulation-->";

/// A piece of a lesson's body: rendered markdown, or something the page renders itself.
#[derive(Debug, Clone, PartialEq)]
pub enum Block {
    Html(String),
    Simulation(Simulation),
    /// With its answers: the page must only ever get [`Quiz::questions`]' prompts and options.
    Quiz(Quiz),
}

/// A graded exercise a lesson declares with ```` ```python exercise="ID" ````: that code is the
/// learner's starting point.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Exercise {
    pub id: String,
    /// The script's file name: the fence's title up to a colon (`train.py: the start`), or
    /// `ID.py`.
    pub file_name: String,
    pub title: Option<String>,
    pub starter: String,
    pub line: usize,
    /// The `##`/`###` heading the exercise sits under: its page's title and the section it links
    /// back to. `None` for an exercise before any heading.
    pub section: Option<TocEntry>,
    /// The task in the author's words: what the lesson says between that heading and the code,
    /// rendered.
    pub task_html: String,
}

/// One entry of the in-page table of contents (`##` and `###` headings).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TocEntry {
    pub level: u8,
    pub id: String,
    pub title: String,
    /// Where the heading is in its file.
    pub line: usize,
}

/// A link from this lesson to a lesson file, checked once the whole course is loaded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LessonLink {
    /// Target file name, e.g. `03-ddp-allreduce.md`; `None` for an anchor in this lesson.
    pub file: Option<String>,
    pub anchor: Option<String>,
    pub line: usize,
}

#[derive(Debug, Default)]
pub struct Rendered {
    /// The language of the page it renders to: its interface words and its links.
    pub lang: Lang,
    /// The body: rendered HTML, cut where simulations are embedded.
    pub blocks: Vec<Block>,
    pub toc: Vec<TocEntry>,
    /// Every heading id in the body, for links into this lesson.
    pub anchors: BTreeSet<String>,
    pub links: Vec<LessonLink>,
    pub exercises: Vec<Exercise>,
    pub outline: Outline,
    pub problems: Vec<Diagnostic>,
}

/// Where a lesson's parts are, for comparing a translation with its source
/// ([`crate::parity`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Outline {
    /// The line of each simulation, in order.
    pub simulations: Vec<usize>,
    /// How many footnotes it defines.
    pub footnotes: usize,
}

/// `html` cut at its markers, the embedded blocks in their places.
fn cut(html: &str, embedded: Vec<Block>) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut embedded = embedded.into_iter();
    for (i, html) in html.split(EMBED_MARKER).enumerate() {
        if i > 0 {
            blocks.push(embedded.next().expect("one embedded block per marker"));
        }
        if !html.trim().is_empty() {
            blocks.push(Block::Html(html.to_string()));
        }
    }
    blocks
}

pub fn options() -> Options {
    Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_HEADING_ATTRIBUTES
        | Options::ENABLE_MATH
        | Options::ENABLE_GFM
}

/// Renders `body`, the markdown after the front matter, whose first line is line
/// `first_line` of `file`.
pub fn render(file: &str, body: &str, first_line: usize, lang: Lang) -> Rendered {
    let lines = LineIndex::new(body, first_line);
    let mut out = Rendered { lang, ..Rendered::default() };
    let mut embedded = Vec::new();
    let mut events: Vec<Event<'_>> = Vec::new();
    let mut parser = Parser::new_ext(body, options()).into_offset_iter();
    // How deep inside lists, quotes, tables and footnotes we are: a simulation must stand alone.
    let mut nesting = 0usize;
    // The latest `##`/`###` heading and where the events after it start: an exercise's section
    // and task.
    let mut section: Option<(TocEntry, usize)> = None;

    while let Some((event, range)) = parser.next() {
        let line = lines.line_of(range.start);
        match &event {
            Event::Start(
                Tag::List(_)
                | Tag::Item
                | Tag::BlockQuote(_)
                | Tag::Table(_)
                | Tag::FootnoteDefinition(_),
            ) => nesting += 1,
            Event::End(
                TagEnd::List(_)
                | TagEnd::Item
                | TagEnd::BlockQuote(_)
                | TagEnd::Table
                | TagEnd::FootnoteDefinition,
            ) => nesting -= 1,
            _ => {}
        }
        if matches!(event, Event::Start(Tag::FootnoteDefinition(_))) {
            out.outline.footnotes += 1;
        }
        match event {
            Event::Start(Tag::Heading { level, id, classes, attrs }) => {
                // Buffer the heading's inline events: its id and TOC title come from its text.
                let mut inner = Vec::new();
                let mut text = String::new();
                for (ev, _) in parser.by_ref() {
                    match &ev {
                        Event::End(TagEnd::Heading(_)) => break,
                        Event::Text(t) | Event::Code(t) | Event::InlineMath(t) => text.push_str(t),
                        _ => {}
                    }
                    inner.push(ev);
                }
                let base = id.map(|s| s.to_string()).unwrap_or_else(|| heading_id(&text));
                let id = unique_id(&mut out.anchors, &base);
                let toc = TocEntry {
                    level: level as u8,
                    id: id.clone(),
                    title: text.trim().to_string(),
                    line,
                };
                if matches!(level, HeadingLevel::H2 | HeadingLevel::H3) {
                    out.toc.push(toc.clone());
                }
                events.push(Event::Start(Tag::Heading {
                    level,
                    id: Some(CowStr::from(id.clone())),
                    classes,
                    attrs,
                }));
                events.extend(inner.into_iter().map(|e| rewrite_inline(file, e, line, &mut out)));
                events.push(Event::Html(
                    format!(
                        r##"<a class="anchor" href="#{id}" aria-label="{}">#</a>"##,
                        t(out.lang).markdown.link_to_section
                    )
                    .into(),
                ));
                events.push(Event::End(TagEnd::Heading(level)));
                if matches!(level, HeadingLevel::H2 | HeadingLevel::H3) {
                    section = Some((toc, events.len()));
                }
            }
            Event::Start(Tag::CodeBlock(kind)) => {
                let info = match &kind {
                    CodeBlockKind::Fenced(info) => info.to_string(),
                    CodeBlockKind::Indented => String::new(),
                };
                let mut code = String::new();
                for (ev, _) in parser.by_ref() {
                    match ev {
                        Event::End(TagEnd::CodeBlock) => break,
                        Event::Text(t) => code.push_str(&t),
                        _ => {}
                    }
                }
                if info.split_whitespace().next() == Some(quiz::FENCE_LANGUAGE) {
                    let fence_problem = if nesting > 0 {
                        Some("a quiz must stand on its own, not inside a list, quote or table")
                    } else if info.split_whitespace().nth(1).is_some() {
                        Some("a `quiz` fence takes nothing after `quiz`: the quiz is its body")
                    } else {
                        None
                    };
                    match fence_problem
                        .map_or_else(|| quiz::parse(&code), |m| Err(vec![(0, m.into())]))
                    {
                        Ok(q) => {
                            embedded.push(Block::Quiz(quiz::Quiz { line, ..q }));
                            events.push(Event::Html(EMBED_MARKER.into()));
                        }
                        Err(problems) => {
                            out.problems.extend(problems.into_iter().map(|(at, message)| {
                                // The body starts on the line after the fence.
                                let at = if fence_problem.is_some() { line } else { line + 1 + at };
                                Diagnostic::new(file, at, format!("quiz: {message}"))
                            }))
                        }
                    }
                    continue;
                }
                if let Some(checked) = fence::simulation(&info, &code, nesting > 0) {
                    match checked {
                        Ok(sim) => {
                            embedded.push(Block::Simulation(sim));
                            out.outline.simulations.push(line);
                            events.push(Event::Html(EMBED_MARKER.into()));
                        }
                        Err(message) => out.problems.push(Diagnostic::new(
                            file,
                            line,
                            format!("simulation: {message}"),
                        )),
                    }
                    continue;
                }
                match fence::parse_fence_info(&info) {
                    Ok(f) => {
                        if let Some(id) = f.exercise.clone() {
                            let task = section.as_ref().map_or(&[][..], |(_, at)| &events[*at..]);
                            let mut e = exercise(id, f.title.clone(), &code, line);
                            e.section = section.as_ref().map(|(toc, _)| toc.clone());
                            e.task_html = task_html(task);
                            out.exercises.push(e);
                        }
                        events
                            .push(Event::Html(fence::code_block_html(&f, &code, out.lang).into()));
                    }
                    Err(message) => {
                        out.problems.push(Diagnostic::new(file, line, message));
                        events.push(Event::Html(
                            fence::code_block_html(&Fence::default(), &code, out.lang).into(),
                        ));
                    }
                }
            }
            Event::Start(Tag::BlockQuote(Some(kind))) => {
                let (class, label) = admonition(kind, out.lang);
                events.push(Event::Html(
                    format!(r#"<aside class="admonition {class}" role="note"><p class="admonition-title">{label}</p>"#)
                        .into(),
                ));
            }
            Event::End(TagEnd::BlockQuote(Some(_))) => events.push(Event::Html("</aside>".into())),
            Event::Html(_) | Event::InlineHtml(_) => {
                out.problems.push(Diagnostic::new(
                    file,
                    line,
                    "raw HTML is not allowed in lessons: use markdown (it is escaped and shown as text)",
                ));
                let text = match event {
                    Event::Html(t) | Event::InlineHtml(t) => t,
                    _ => unreachable!(),
                };
                events.push(Event::Text(text));
            }
            other => {
                let ev = rewrite_inline(file, other, line, &mut out);
                events.push(ev);
            }
        }
    }

    let mut html = String::new();
    html::push_html(&mut html, events.into_iter());
    out.blocks = cut(&html, embedded);
    out
}

fn exercise(id: String, title: Option<String>, code: &str, line: usize) -> Exercise {
    let named = title.as_deref().and_then(|t| t.split(':').next()).map(str::trim);
    let file_name = match named {
        Some(n) if n.ends_with(".py") && !n.contains(['/', ' ']) => n.to_string(),
        _ => format!("{id}.py"),
    };
    Exercise {
        id,
        file_name,
        title,
        starter: code.to_string(),
        line,
        section: None,
        task_html: String::new(),
    }
}

/// The HTML of what the section says before an exercise's code (the code block itself is not
/// among `events` yet). A simulation or quiz in between stays in the lesson: its marker is
/// dropped.
fn task_html(events: &[Event<'_>]) -> String {
    let mut html = String::new();
    let prose =
        events.iter().filter(|e| !matches!(e, Event::Html(h) if h.as_ref() == EMBED_MARKER));
    html::push_html(&mut html, prose.cloned());
    html
}

/// Math → MathML, and links to lesson files → links to lesson pages.
fn rewrite_inline<'a>(file: &str, event: Event<'a>, line: usize, out: &mut Rendered) -> Event<'a> {
    match event {
        Event::InlineMath(tex) => Event::InlineHtml(math(file, &tex, false, line, out).into()),
        Event::DisplayMath(tex) => Event::Html(math(file, &tex, true, line, out).into()),
        Event::Start(Tag::Link { link_type, dest_url, title, id }) => {
            let dest_url = match link_type {
                LinkType::Email | LinkType::Autolink => dest_url,
                _ => rewrite_link(file, dest_url, line, out),
            };
            Event::Start(Tag::Link { link_type, dest_url, title, id })
        }
        other => other,
    }
}

fn rewrite_link<'a>(file: &str, dest: CowStr<'a>, line: usize, out: &mut Rendered) -> CowStr<'a> {
    let is_external = dest.contains("://") || dest.starts_with("mailto:") || dest.starts_with('/');
    if is_external {
        return dest;
    }
    // An anchor may be written as it reads (`#모델-복제`) or percent-encoded, as a browser's
    // address bar copies it: either names the same heading.
    let (path, anchor) = match dest.split_once('#') {
        Some((p, a)) => (p, Some(percent_decoded(a))),
        None => (&*dest, None),
    };
    if path.is_empty() {
        out.links.push(LessonLink { file: None, anchor, line });
        return dest;
    }
    if !path.ends_with(".md") || path.contains('/') {
        out.problems.push(Diagnostic::new(
            file,
            line,
            format!(
                "link `{dest}`: link to another lesson by its file name, e.g. `03-ddp-allreduce.md#section`; \
                 other relative links have nothing to point to"
            ),
        ));
        return dest;
    }
    let target =
        out.lang.path(&lockstep_routes::lesson_section(&slug_for_file(path), anchor.as_deref()));
    out.links.push(LessonLink { file: Some(path.to_string()), anchor, line });
    target.into()
}

/// `a` with its `%XX` escapes decoded, when they decode to UTF-8; otherwise `a` as it is.
fn percent_decoded(a: &str) -> String {
    percent_encoding::percent_decode_str(a)
        .decode_utf8()
        .map_or_else(|_| a.to_string(), |s| s.into_owned())
}

fn math(file: &str, tex: &str, display: bool, line: usize, out: &mut Rendered) -> String {
    use pulldown_latex::{config::DisplayMode, push_mathml, Parser, RenderConfig, Storage};
    let storage = Storage::new();
    let events: Result<Vec<_>, _> = Parser::new(tex, &storage).collect();
    let events = match events {
        Ok(events) => events,
        Err(e) => {
            out.problems.push(Diagnostic::new(file, line, format!("math `{tex}`: {e}")));
            return format!("<code class=\"math-error\">{}</code>", fence::escape(tex));
        }
    };
    let config = RenderConfig {
        display_mode: if display { DisplayMode::Block } else { DisplayMode::Inline },
        annotation: Some(tex),
        ..RenderConfig::default()
    };
    let mut mathml = String::new();
    push_mathml(&mut mathml, events.into_iter().map(Ok::<_, std::io::Error>), config)
        .expect("writing to a String cannot fail");
    mathml
}

fn admonition(kind: BlockQuoteKind, lang: Lang) -> (&'static str, &'static str) {
    let words = &t(lang).markdown;
    match kind {
        BlockQuoteKind::Note => ("note", words.note),
        BlockQuoteKind::Tip => ("tip", words.tip),
        BlockQuoteKind::Important => ("important", words.important),
        BlockQuoteKind::Warning => ("warning", words.warning),
        BlockQuoteKind::Caution => ("caution", words.caution),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(md: &str) -> Rendered {
        render("t.md", md, 1, Lang::En)
    }

    impl Rendered {
        /// The body's HTML without the simulations.
        fn html(&self) -> String {
            self.blocks
                .iter()
                .filter_map(|b| if let Block::Html(h) = b { Some(h.as_str()) } else { None })
                .collect()
        }
    }

    #[test]
    fn heading_ids_and_toc() {
        let out = r("## Ring all-reduce, step by step\n\n### Why `N-1`?\n\n## Ring all-reduce, step by step\n\n#### deep\n");
        let ids: Vec<_> = out.toc.iter().map(|t| (t.level, t.id.as_str())).collect();
        assert_eq!(
            ids,
            vec![
                (2, "ring-all-reduce-step-by-step"),
                (3, "why-n-1"),
                (2, "ring-all-reduce-step-by-step-1")
            ]
        );
        assert!(out.anchors.contains("deep"));
        assert!(out.html().contains(r#"<h2 id="ring-all-reduce-step-by-step">"#), "{}", out.html());
        assert!(out.problems.is_empty());
    }

    #[test]
    fn explicit_heading_id() {
        let out = r("## Setup {#setup-steps}\n");
        assert_eq!(out.toc[0].id, "setup-steps");
        assert_eq!(out.toc[0].title, "Setup");
    }

    #[test]
    fn titled_code_block() {
        let out = r("```python title=\"DDP training script\"\nprint('<hi>')\n```\n");
        assert!(out.problems.is_empty(), "{:?}", out.problems);
        assert!(out.html().contains(r#"<span class="code-title">DDP training script</span>"#));
        assert!(
            out.html().contains(r#"<code class="language-python"><span class="hl-b">print</span>(<span class="hl-s">&#39;&lt;hi&gt;&#39;</span>)"#),
            "{}",
            out.html()
        );
    }

    #[test]
    fn an_exercise_has_its_section_and_task() {
        let out = r("## Setup\n\nRead this.\n\n## Exercise: convert it\n\nConvert **this** to `DDP`.\n\n- and test it\n\n```python title=\"t.py: start\" exercise=\"conv\"\nx = 1\n```\n\nAfter.\n");
        assert!(out.problems.is_empty(), "{:?}", out.problems);
        let e = &out.exercises[0];
        let section = e.section.as_ref().unwrap();
        assert_eq!(
            (section.id.as_str(), section.title.as_str()),
            ("exercise-convert-it", "Exercise: convert it")
        );
        assert_eq!(
            e.task_html,
            "<p>Convert <strong>this</strong> to <code>DDP</code>.</p>\n<ul>\n<li>and test it</li>\n</ul>\n"
        );
        let before_any = r("```python exercise=\"e\"\nx\n```\n");
        assert_eq!(
            (before_any.exercises[0].section.as_ref(), before_any.exercises[0].task_html.as_str()),
            (None, "")
        );
    }

    #[test]
    fn unknown_fence_directive_has_its_line() {
        let out = render("05-x.md", "text\n\n```python highlight=\"1-3\"\nx\n```\n", 12, Lang::En);
        assert_eq!(out.problems.len(), 1);
        assert_eq!(
            out.problems[0].to_string(),
            "05-x.md:14: unknown code-fence directive `highlight` (known: title, exercise)"
        );
    }

    #[test]
    fn quizzes_are_blocks_and_their_problems_have_file_lines() {
        let body = "Intro.\n\n```quiz\n[[question]]\nprompt = \"p\"\n[[question.option]]\ntext = \"a\"\ncorrect = true\nexplain = \"x\"\n[[question.option]]\ntext = \"b\"\nexplain = \"y\"\n```\n";
        let out = render("04-x.md", body, 20, Lang::En);
        assert!(out.problems.is_empty(), "{:?}", out.problems);
        assert!(matches!(&out.blocks[1], Block::Quiz(q) if q.questions.len() == 1));
        let broken = body.replace("correct = true\n", "");
        let out = render("04-x.md", &broken, 20, Lang::En);
        assert_eq!(
            out.problems.iter().map(ToString::to_string).collect::<Vec<_>>(),
            ["04-x.md:23: quiz: question 1 has no correct option: mark one with `correct = true`"]
        );
        let unknown = body.replace("prompt = \"p\"", "prompt = \"p\"\nhint = \"h\"");
        let problems = render("04-x.md", &unknown, 20, Lang::En).problems;
        assert_eq!(problems[0].line, 25, "{problems:?}");
        assert!(problems[0].message.starts_with("quiz: unknown field `hint`"), "{problems:?}");
        let nested = render("t.md", "- item\n\n  ```quiz\n  ```\n", 1, Lang::En).problems;
        assert_eq!(
            nested[0].to_string(),
            "t.md:3: quiz: a quiz must stand on its own, not inside a list, quote or table"
        );
    }

    #[test]
    fn simulations_cut_the_body() {
        let out =
            r("Before.\n\n```sim ring-allreduce ranks=3\n```\n\nAfter.\n\n```sim sampler\n```\n");
        assert!(out.problems.is_empty(), "{:?}", out.problems);
        let blocks = &out.blocks;
        assert_eq!(blocks.len(), 4);
        assert!(matches!(&blocks[0], Block::Html(h) if h.contains("Before.")));
        assert!(
            matches!(&blocks[1], Block::Simulation(Simulation::RingAllReduce(p)) if p.ranks == 3)
        );
        assert!(matches!(&blocks[2], Block::Html(h) if h.contains("After.")));
        assert!(matches!(&blocks[3], Block::Simulation(Simulation::Sampler(_))));
    }

    #[test]
    fn simulation_problems_have_their_line() {
        let out = render("03-x.md", "text\n\n```sim ring-allreduce ranks=100\n```\n", 7, Lang::En);
        assert_eq!(
            out.problems.iter().map(ToString::to_string).collect::<Vec<_>>(),
            vec!["03-x.md:9: simulation: `ranks=100`: a whole number from 2 to 64"]
        );
        assert!(
            out.blocks.iter().all(|b| matches!(b, Block::Html(_))),
            "a broken directive embeds nothing"
        );
        let problems =
            |md: &str| r(md).problems.into_iter().map(|p| p.to_string()).collect::<Vec<_>>();
        assert_eq!(
            problems("- item\n\n  ```sim sampler\n  ```\n"),
            vec!["t.md:3: simulation: a simulation must stand on its own, not inside a list, quote or table"]
        );
        assert_eq!(
            problems("```sim sampler\nlen=4\n```\n"),
            vec!["t.md:1: simulation: a `sim` block takes its parameters on the fence line; its body must be empty"]
        );
        assert_eq!(
            problems("```sim warp-drive\n```\n"),
            vec!["t.md:1: simulation: unknown simulation `warp-drive`: use one of ring-allreduce, sampler, dp-vs-ddp, scatter-gather, accumulation, memory"]
        );
        // Only the fence language `sim` is a directive; a word that starts with it is code.
        assert!(r("```simple\nx\n```\n").problems.is_empty());
    }

    #[test]
    fn a_korean_page_has_korean_words_and_korean_links() {
        let md = "## 모델\n\n> [!NOTE]\n> 참고\n\n[링](03-ddp-allreduce.md#x)\n\n```python title=\"a.py\" exercise=\"ddp-conversion\"\nx = 1\n```\n";
        let html = render("05-x.md", md, 1, Lang::Ko).html();
        for part in [
            "href=\"/ko/lessons/ddp-allreduce#x\"",
            "href=\"/ko/exercises/ddp-conversion\"",
            "aria-label=\"이 섹션 링크\"",
            ">참고<",
            ">복사</button>",
        ] {
            assert!(html.contains(part), "{part} in {html}");
        }
        let english = render("05-x.md", md, 1, Lang::En).html();
        assert!(english.contains("href=\"/lessons/ddp-allreduce#x\""), "{english}");
    }

    #[test]
    fn admonitions() {
        let out = r("> [!WARNING]\n> Deadlock ahead.\n\n> plain quote\n");
        assert!(out.html().contains(r#"<aside class="admonition warning" role="note"><p class="admonition-title">Warning</p>"#), "{}", out.html());
        assert!(out.html().contains("</aside>"));
        assert!(out.html().contains("<blockquote>"));
    }

    #[test]
    fn math_is_mathml() {
        let out = r("Each rank sends $2(N-1)/N$ of the data.\n\n$$\n\\frac{a}{b}\n$$\n");
        assert!(out.problems.is_empty(), "{:?}", out.problems);
        assert!(out.html().contains("<math"), "{}", out.html());
        assert!(out.html().contains("<mfrac>"), "{}", out.html());
        assert!(out.html().contains(r#"display="block""#), "{}", out.html());
    }

    #[test]
    fn bad_math_is_reported() {
        let out = r("line one\n\n$\\frac{a}$\n");
        assert_eq!(out.problems.len(), 1, "{:?}", out.problems);
        assert_eq!(out.problems[0].line, 3);
    }

    #[test]
    fn lesson_links_are_rewritten_and_recorded() {
        let out = r("See [ring](03-ddp-allreduce.md#the-ring) and [top](#intro) and [PyTorch](https://pytorch.org).\n");
        assert!(out.html().contains(r#"href="/lessons/ddp-allreduce#the-ring""#), "{}", out.html());
        assert!(out.html().contains(r#"href="https://pytorch.org""#));
        assert_eq!(
            out.links,
            vec![
                LessonLink {
                    file: Some("03-ddp-allreduce.md".into()),
                    anchor: Some("the-ring".into()),
                    line: 1
                },
                LessonLink { file: None, anchor: Some("intro".into()), line: 1 },
            ]
        );
    }

    #[test]
    fn relative_non_lesson_link_is_a_problem() {
        let out = r("\n[img](images/x.png)\n");
        assert_eq!(out.problems.len(), 1);
        assert_eq!(out.problems[0].line, 2);
    }

    #[test]
    fn raw_html_is_escaped_and_reported() {
        let out = r("text <script>alert(1)</script>\n");
        assert_eq!(out.problems.len(), 2, "{:?}", out.problems);
        assert!(!out.html().contains("<script>"), "{}", out.html());
    }

    #[test]
    fn tables_footnotes_tasks() {
        let out = r("| a | b |\n|---|---|\n| 1 | 2 |\n\nA claim.[^1]\n\n- [ ] todo\n- [x] done\n\n[^1]: Source.\n");
        assert!(out.html().contains("<table>"));
        assert!(out.html().contains("footnote-definition"));
        assert!(out.html().contains(r#"type="checkbox""#));
        assert!(out.problems.is_empty());
    }

    #[test]
    fn korean_headings_have_their_own_ids_and_links_reach_them() {
        let body = "## 모델 복제\n\n## Café résumé {#cafe}\n\n## 모델 복제\n\nSee [링크](#모델-복제), [encoded](#%EB%AA%A8%EB%8D%B8-%EB%B3%B5%EC%A0%9C), [again](#모델-복제-1) and [override](#cafe).\n";
        let out = r(body);
        assert!(out.problems.is_empty(), "{:?}", out.problems);
        let ids: Vec<&str> = out.toc.iter().map(|t| t.id.as_str()).collect();
        assert_eq!(ids, ["모델-복제", "cafe", "모델-복제-1"]);
        assert!(out.html().contains(r#"<h2 id="모델-복제">"#), "{}", out.html());
        let anchors: Vec<Option<&str>> = out.links.iter().map(|l| l.anchor.as_deref()).collect();
        assert_eq!(
            anchors,
            [Some("모델-복제"), Some("모델-복제"), Some("모델-복제-1"), Some("cafe")]
        );
        assert_eq!(percent_decoded("%ZZ%4"), "%ZZ%4", "not an escape: kept");
    }
}
