//! Code fences: the info string after the language (```` ```python title="…" ````), the titled
//! code block it renders to, and the `sim` fence that embeds a simulation instead.

use lockstep_embed::Simulation;

/// Code-fence directives an instructor may write after the language: ```` ```python title="…" ````.
/// `exercise="ID"` makes the code the starting point of a graded exercise, submitted at
/// `/exercises/ID`.
pub const FENCE_DIRECTIVES: &[&str] = &["title", "exercise"];

/// A code fence's info string, e.g. `python title="DDP training script"`.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Fence {
    pub lang: Option<String>,
    pub title: Option<String>,
    /// The graded exercise this code starts.
    pub exercise: Option<String>,
}

pub fn parse_fence_info(info: &str) -> Result<Fence, String> {
    let info = info.trim();
    let (lang, mut rest) = match info.find(char::is_whitespace) {
        Some(i) => (&info[..i], info[i..].trim_start()),
        None => (info, ""),
    };
    if lang.contains('=') {
        return Err(format!(
            "code fence `{info}`: the language comes first, e.g. ```python title=\"…\"```"
        ));
    }
    let mut fence =
        Fence { lang: (!lang.is_empty()).then(|| lang.to_string()), ..Fence::default() };
    while !rest.is_empty() {
        let key_end = rest.find(|c: char| c == '=' || c.is_whitespace()).unwrap_or(rest.len());
        let key = &rest[..key_end];
        let Some(after) = rest[key_end..].strip_prefix('=') else {
            if FENCE_DIRECTIVES.contains(&key) {
                return Err(format!(
                    "code-fence directive `{key}` needs a value: {key}=\"…\" (no spaces around =)"
                ));
            }
            return Err(format!(
                "unknown code-fence directive `{key}` (expected key=\"value\"; known: {})",
                FENCE_DIRECTIVES.join(", ")
            ));
        };
        let (value, remaining) = if let Some(quoted) = after.strip_prefix('"') {
            let end = quoted
                .find('"')
                .ok_or_else(|| format!("code fence `{info}`: unterminated quote in `{key}`"))?;
            (&quoted[..end], &quoted[end + 1..])
        } else {
            let end = after.find(char::is_whitespace).unwrap_or(after.len());
            (&after[..end], &after[end..])
        };
        match key {
            "title" => fence.title = Some(value.to_string()),
            "exercise" => {
                if !lockstep_routes::is_exercise_id(value) {
                    return Err(format!(
                        "exercise id `{value}`: use lower-case letters, digits and dashes, \
                         e.g. exercise=\"ddp-conversion\""
                    ));
                }
                fence.exercise = Some(value.to_string());
            }
            other => {
                return Err(format!(
                    "unknown code-fence directive `{other}` (known: {})",
                    FENCE_DIRECTIVES.join(", ")
                ))
            }
        }
        rest = remaining.trim_start();
    }
    Ok(fence)
}

pub fn code_block_html(fence: &Fence, code: &str, page: lockstep_i18n::Lang) -> String {
    let words = &lockstep_i18n::t(page).markdown;
    let lang = fence.lang.as_deref().map(escape);
    let mut s = String::from("<figure class=\"code-block\">");
    s.push_str("<figcaption>");
    if let Some(title) = &fence.title {
        s.push_str(&format!("<span class=\"code-title\">{}</span>", escape(title)));
    }
    if let Some(lang) = &lang {
        s.push_str(&format!("<span class=\"code-lang\">{lang}</span>"));
    }
    // The copy button only works once the page is hydrated; CSS hides it until then.
    s.push_str(&format!(
        "<button type=\"button\" class=\"copy-button\" aria-label=\"{}\">{}</button>",
        words.copy_code, words.copy
    ));
    s.push_str("</figcaption><pre><code");
    if let Some(lang) = &lang {
        s.push_str(&format!(" class=\"language-{lang}\""));
    }
    s.push('>');
    // Highlighted once, when the course is loaded; every text in it escaped.
    match fence.lang.as_deref() {
        Some(lang) => {
            s.push_str(&lockstep_highlight::to_html(&lockstep_highlight::highlight(lang, code)))
        }
        None => s.push_str(&escape(code)),
    }
    s.push_str("</code></pre></figure>\n");
    if let Some(id) = &fence.exercise {
        s.push_str(&format!(
            "<p class=\"exercise-link\"><a href=\"{}\">{}</a></p>\n",
            page.path(&lockstep_routes::exercise(id)),
            words.exercise_link
        ));
    }
    s
}

/// What a ```` ```sim NAME key=value ```` fence embeds, or why it cannot: `None` when the fence
/// is not a simulation at all. `nested`: the fence is inside a list, quote, table or footnote,
/// where a simulation cannot stand.
pub fn simulation(info: &str, code: &str, nested: bool) -> Option<Result<Simulation, String>> {
    if info.split_whitespace().next() != Some(lockstep_embed::FENCE_LANGUAGE) {
        return None;
    }
    let directive = info.trim_start()[lockstep_embed::FENCE_LANGUAGE.len()..].trim();
    Some(if nested {
        Err("a simulation must stand on its own, not inside a list, quote or table".to_string())
    } else if !code.trim().is_empty() {
        Err(lockstep_embed::DirectiveError::NonEmptyBody.to_string())
    } else {
        Simulation::parse(directive).map_err(|e| e.to_string())
    })
}

pub(crate) fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    pulldown_cmark_escape::escape_html(&mut out, s).expect("writing to a String cannot fail");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fence_info_parsing() {
        assert_eq!(parse_fence_info("").unwrap(), Fence::default());
        assert_eq!(
            parse_fence_info("bash title=run").unwrap(),
            Fence { lang: Some("bash".into()), title: Some("run".into()), exercise: None }
        );
        assert!(parse_fence_info("python title=\"open").unwrap_err().contains("unterminated"));
        assert!(parse_fence_info("python numbered").unwrap_err().contains("`numbered`"));
        assert!(parse_fence_info("python linenos title=\"x\"")
            .unwrap_err()
            .contains("directive `linenos` "));
        assert!(parse_fence_info("title=\"x\"").is_err());
        let starter = parse_fence_info("python title=\"t.py\" exercise=\"ddp-1\"").unwrap();
        assert_eq!(starter.exercise.as_deref(), Some("ddp-1"));
        assert!(parse_fence_info("python exercise=\"Has Space\"")
            .unwrap_err()
            .contains("exercise id"));
    }

    #[test]
    fn only_the_sim_language_is_a_simulation() {
        assert!(simulation("simple", "x", false).is_none());
        assert!(simulation("python title=\"sim\"", "", false).is_none());
        assert!(matches!(
            simulation("sim sampler len=4", "", false),
            Some(Ok(Simulation::Sampler(_)))
        ));
        assert!(matches!(simulation("sim sampler", "", true), Some(Err(_))));
    }
}
