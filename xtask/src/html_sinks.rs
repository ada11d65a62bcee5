//! ARCHITECTURE.md, "Every learner- or worker-controlled value reaches HTML only through
//! escaping": the places that write HTML without Leptos's escaping are few, and each is listed
//! here with why what it writes is trusted. A new one fails the lint until it is added, with its
//! reason, where a reviewer reads it.
//!
//! Leptos escapes text and attribute values. It does not escape `inner_html`, nor the children
//! of `<textarea>`, `<script>` and `<style>` (it writes those as they are), and a page script
//! that sets `innerHTML` escapes nothing.

use std::path::{Path, PathBuf};

use anyhow::{bail, Result};

/// Writing raw HTML, in the Rust of the web app and the server, and in the editor's script.
const SINKS: &[&str] = &[
    "inner_html",
    "<textarea",
    "<script",
    "<style",
    "innerHTML",
    "outerHTML",
    "insertAdjacentHTML",
    "document.write",
];

/// (file, sink, how many times, why what it writes is trusted).
const ALLOWED: &[(&str, &str, usize, &str)] = &[
    (
        "app/web/src/pages/lesson.rs",
        "inner_html",
        2,
        "the lesson body: lockstep-course's renderer output, which rejects raw HTML in lessons; \
         and a request part's element, always given \"\" (so hydration keeps what the server \
         wrote in it, which a request part renders through Leptos's escaping view!)",
    ),
    (
        "app/web/src/sims/mod.rs",
        "inner_html",
        1,
        "a simulation's first frame: the server's render of the simulation's own view! (Leptos's \
         escaping; its values come from the lesson's sim directive, parsed into numbers), and \
         \"\" in the browser, where hydration keeps the server's",
    ),
    (
        "app/web/src/quiz.rs",
        "inner_html",
        5,
        "quiz prompts, options and explanations: the course renderer's output, as for lessons",
    ),
    (
        "app/web/src/pages/exercise.rs",
        "inner_html",
        1,
        "the exercise's task: the lesson's prose before its code, from the course renderer",
    ),
    (
        "app/web/src/pages/submission.rs",
        "inner_html",
        1,
        "a constant <noscript> refresh, no value in it",
    ),
    (
        "app/pages/src/talk.rs",
        "inner_html",
        1,
        "a comment's text: lockstep_comments::render's output, pulldown-cmark with raw HTML \
         turned to text and images to their alt text, then ammonia's allow-list of tags, \
         attributes and URL schemes (app/comments/tests/hostile.rs)",
    ),
    (
        "app/web/src/talk_live.rs",
        "inner_html",
        1,
        "the comments part, swapped in live: the HTML of GET /api/comments, which is the \
         server's render of the same request part (lockstep-pages' talk.rs, above)",
    ),
    (
        "app/web/src/lib.rs",
        "<script",
        2,
        "crash::SCRIPT and clock::SCRIPT, constants: the page's own notice for a bundle that \
         failed, and the redrawing of its times in the reader's zone",
    ),
    (
        "app/web/src/components.rs",
        "<textarea",
        1,
        "TextArea, which escapes its text on the server: every text area goes through it",
    ),
];

pub fn check(root: &Path) -> Result<()> {
    let mut files = Vec::new();
    // Every app crate's source, so a new crate is checked without being named here.
    for entry in std::fs::read_dir(root.join("app"))? {
        let src = entry?.path().join("src");
        if src.is_dir() {
            collect(&src, &mut files)?;
        }
    }
    collect(&root.join("app/web/editor"), &mut files)?;
    let mut problems = Vec::new();
    for file in &files {
        let relative = file.strip_prefix(root)?.to_string_lossy().replace('\\', "/");
        let text = std::fs::read_to_string(file)?;
        for sink in SINKS {
            let found = count(&text, sink);
            let allowed = ALLOWED
                .iter()
                .find(|(f, s, _, _)| *f == relative && s == sink)
                .map_or(0, |(_, _, n, _)| *n);
            if found != allowed {
                problems.push(format!(
                    "{relative}: `{sink}` {found} times, {allowed} allowed: raw HTML must not carry \
                     a learner's or a worker's value (xtask/src/html_sinks.rs lists the trusted \
                     ones, with why)"
                ));
            }
        }
    }
    if !problems.is_empty() {
        bail!("{}", problems.join("\n"));
    }
    Ok(())
}

/// Occurrences outside comments and outside the unit tests at the end of a Rust file.
fn count(text: &str, sink: &str) -> usize {
    let lines: Vec<&str> = text.lines().collect();
    // The code ends where its tests' module begins: `#[cfg(test)]` (or `#[cfg(all(test, …))]`)
    // over `mod tests`.
    let tests = lines.windows(2).position(|w| {
        let attribute = w[0].trim();
        attribute.starts_with("#[cfg(") && attribute.contains("test") && w[1].starts_with("mod ")
    });
    lines[..tests.unwrap_or(lines.len())]
        .iter()
        .filter(|l| {
            let code = l.trim_start();
            !(code.starts_with("//") || code.starts_with("/*") || code.starts_with('*'))
        })
        .map(|l| l.matches(sink).count())
        .sum()
}

fn collect(dir: &Path, files: &mut Vec<PathBuf>) -> Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            if path.file_name().is_some_and(|n| n == "node_modules") {
                continue;
            }
            collect(&path, files)?;
        } else if path.extension().is_some_and(|e| e == "rs" || e == "js") {
            files.push(path);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sinks_are_counted_in_code_only() {
        let text = "// inner_html in a comment\nlet a = view! { <p inner_html=x/> };\n\
                    /// <textarea> in a doc\n#[cfg(test)]\nmod tests { inner_html }";
        assert_eq!(count(text, "inner_html"), 1);
        assert_eq!(count(text, "<textarea"), 0);
        // A test-only attribute over something else is not where the tests begin.
        let text = "#[cfg(all(test, not(feature = \"ssr\")))]\ncompile_error!(\"\");\n\
                    let a = view! { <p inner_html=x/> };\n#[cfg(all(test, feature = \"x\"))]\n\
                    mod tests { inner_html }";
        assert_eq!(count(text, "inner_html"), 1);
    }

    #[test]
    fn the_repository_passes() {
        check(&Path::new(env!("CARGO_MANIFEST_DIR")).join("..")).unwrap();
    }
}
