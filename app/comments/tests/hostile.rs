//! A held set of hostile comments, each rendered inert: no element or attribute that runs
//! script, loads anything or reorders text survives, whichever trick carries it. (Chromium
//! renders the same set in the comments' browser test, where no dialog may open.)

use lockstep_comments::render;

include!("data/hostile.rs");

/// The real tags of `html` (not escaped text): each name with its attributes and values.
fn tags(html: &str) -> Vec<(String, Vec<(String, String)>)> {
    let mut out = Vec::new();
    for piece in html.split('<').skip(1) {
        let body = piece.split('>').next().unwrap_or("");
        let mut chars = body.chars().peekable();
        let name: String = chars.by_ref().take_while(|c| !c.is_whitespace()).collect();
        let mut attrs = Vec::new();
        loop {
            while chars.peek().is_some_and(|c| c.is_whitespace()) {
                chars.next();
            }
            let attr: String =
                std::iter::from_fn(|| chars.next_if(|c| *c != '=' && !c.is_whitespace())).collect();
            if attr.is_empty() {
                break;
            }
            let mut value = String::new();
            if chars.next_if_eq(&'=').is_some() {
                if chars.next_if_eq(&'"').is_some() {
                    value = std::iter::from_fn(|| chars.next_if(|c| *c != '"')).collect();
                    chars.next();
                } else {
                    value = std::iter::from_fn(|| chars.next_if(|c| !c.is_whitespace())).collect();
                }
            }
            attrs.push((attr.to_ascii_lowercase(), value));
        }
        out.push((name.trim_start_matches('/').to_ascii_lowercase(), attrs));
    }
    out
}

/// Why `html` is not inert: an element or attribute outside the allow-list, a link to a
/// scheme that runs or loads something, a link without its `rel`, a reordering character.
fn inert(html: &str) -> Result<(), String> {
    let allowed = [
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
    for (name, attrs) in tags(html) {
        if !allowed.contains(&name.as_str()) {
            return Err(format!("element <{name}>"));
        }
        for (attr, value) in &attrs {
            let fits = match (name.as_str(), attr.as_str()) {
                ("a", "href") => {
                    let scheme = value.split(['/', '?', '#']).next().unwrap_or("");
                    match scheme.split_once(':') {
                        Some((s, _)) => ["http", "https", "mailto"].contains(&s),
                        None => true,
                    }
                }
                ("a", "rel") => value == "nofollow ugc noopener",
                ("ol", "start") => value.chars().all(|c| c.is_ascii_digit()),
                ("span" | "code", "class") => {
                    value.starts_with("hl-") || value.starts_with("language-")
                }
                _ => false,
            };
            if !fits {
                return Err(format!("<{name} {attr}=\"{value}\">"));
            }
        }
        if name == "a"
            && attrs.iter().any(|(a, _)| a == "href")
            && !attrs.iter().any(|(a, _)| a == "rel")
        {
            return Err("a link without its rel".into());
        }
    }
    if let Some(c) =
        html.chars().find(|c| lockstep_comments::is_invisible_control(*c) && *c != '\n')
    {
        return Err(format!("{}", c.escape_unicode()));
    }
    Ok(())
}

#[test]
fn every_hostile_comment_renders_inert() {
    let failures: Vec<String> = HOSTILE
        .iter()
        .filter_map(|c| {
            inert(&render(c)).err().map(|why| format!("{c:?} → {:?}: {why}", render(c)))
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn what_was_hostile_is_still_readable_as_text() {
    let html = render("<script>alert(1)</script>");
    assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), "{html}");
    let html = render("![a diagram](https://evil.example/x.png)");
    assert!(html.contains("a diagram") && !html.contains("evil.example"), "{html}");
    let html = render("[click](javascript:alert(1))");
    assert!(html.contains(">click</a>") || html.contains("click"), "{html}");
}

#[test]
fn a_very_long_line_is_kept_whole() {
    let line = "x".repeat(20_000);
    let html = render(&line);
    assert!(html.contains(&line));
}

#[test]
fn the_check_itself_catches_what_it_should() {
    assert!(inert("<p>ok <a href=\"/x\" rel=\"nofollow ugc noopener\">x</a></p>").is_ok());
    assert!(inert("&lt;img src=x onerror=alert(1)&gt;").is_ok(), "escaped text is text");
    assert!(inert("<img src=x>").is_err());
    assert!(inert("<a href=\"javascript:alert(1)\" rel=\"nofollow ugc noopener\">x</a>").is_err());
    assert!(inert("<a href=\"data:text/html,x\" rel=\"nofollow ugc noopener\">x</a>").is_err());
    assert!(inert("<p onclick=\"x\">x</p>").is_err());
    assert!(inert("<a title=\"x\" href=\"/x\" rel=\"nofollow ugc noopener\">x</a>").is_err());
    assert!(inert("<a href=\"/x\">x</a>").is_err());
    assert!(inert("<p>\u{202E}</p>").is_err());
}
