//! Every lesson as learners meet it, in a real headless Chromium: in the light and the dark
//! theme, on a phone (390 px) and a desktop (1280 px), every button and control of the page is
//! used once (the simulations' controls, copy buttons, the contents, the quiz, "Mark lesson
//! complete", the reset with its confirmation). The test fails on any console error or panic,
//! the crash notice, a page wider than the screen, or a progress panel that disagrees with the
//! server's afterwards. Every page is also checked for sideways scrolling at 320 px.
//!
//! Needs the release browser bundle and Debian's chromium + chromium-driver, like `browser.rs`;
//! it fails, never skips, when they are missing.

use crate::common;

use std::time::Duration;

use common::*;
use fantoccini::key::Key;
use fantoccini::{Client, Locator};

/// Collects console errors, uncaught errors and rejections from here on in this document.
const HOOKS: &str = "if (!window.__errors) { window.__errors = []; \
    const ce = console.error; console.error = (...a) => { __errors.push('console.error: ' + a.join(' ').slice(0, 500)); ce(...a); }; \
    addEventListener('error', e => __errors.push('error: ' + e.message)); \
    addEventListener('unhandledrejection', e => __errors.push('rejection: ' + e.reason)); }";

/// The elements that stick out past the right edge of the window, if any: `tag.class` each.
const WIDER_THAN_THE_SCREEN: &str = "const w = document.documentElement.clientWidth; \
    if (document.documentElement.scrollWidth <= w) return []; \
    return Array.from(document.querySelectorAll('body *')) \
      .filter(e => e.getBoundingClientRect().right > w + 1 && getComputedStyle(e).position !== 'fixed') \
      .filter(e => !Array.from(e.children).some(c => c.getBoundingClientRect().right > w + 1)) \
      .slice(0, 5).map(e => e.tagName.toLowerCase() + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right) + 'px');";

/// Text whose colour against its background misses WCAG AA (4.5:1, or 3:1 for large text):
/// up to five, each with its ratio and colours. Backgrounds are composited up the ancestors;
/// text in SVG (drawn with `fill`) and disabled controls are left out, as WCAG leaves them.
const LOW_CONTRAST: &str = r#"
const parse = c => { const [rgb, srgb] = [c.match(/rgba?\(([^)]+)\)/), c.match(/^color\(srgb ([^)]+)\)/)];
  if (!rgb && !srgb) throw new Error(`a colour the contrast check cannot read: ${c}`);
  const p = (rgb || srgb)[1].split(/[\s,\/]+/).filter(Boolean).map(Number);
  // color-mix() computes to color(srgb …), its channels from 0 to 1.
  const k = srgb ? 255 : 1;
  return { r: p[0] * k, g: p[1] * k, b: p[2] * k, a: p.length > 3 ? p[3] : 1 }; };
const over = (top, under) => ({ r: top.r * top.a + under.r * (1 - top.a), g: top.g * top.a + under.g * (1 - top.a),
  b: top.b * top.a + under.b * (1 - top.a), a: 1 });
const lum = ({ r, g, b }) => { const f = v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
  return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
const background = el => { const layers = [];
  for (let e = el; e; e = e.parentElement) { const c = parse(getComputedStyle(e).backgroundColor);
    if (c && c.a > 0) { layers.push(c); if (c.a >= 1) break; } }
  let base = { r: 255, g: 255, b: 255, a: 1 };
  if (!layers.length || layers[layers.length - 1].a < 1) base = matchMedia('(prefers-color-scheme: dark)').matches ? { r: 0, g: 0, b: 0, a: 1 } : base;
  return layers.reverse().reduce((under, top) => over(top, under), base); };
const bad = [];
for (const el of document.querySelectorAll('body *')) {
  if (el.closest('svg, [aria-hidden=true], [hidden], template, script, style, noscript')) continue;
  if (el.matches(':disabled, [aria-disabled=true]')) continue;
  const own = Array.from(el.childNodes).some(n => n.nodeType === 3 && n.textContent.trim());
  if (!own || !el.getClientRects().length) continue;
  const st = getComputedStyle(el);
  if (st.visibility === 'hidden' || +st.opacity === 0) continue;
  const bg = background(el); const fg = over(parse(st.color), bg);
  const [hi, lo] = [lum(fg), lum(bg)].sort((a, b) => b - a); const ratio = (hi + 0.05) / (lo + 0.05);
  const size = parseFloat(st.fontSize); const large = size >= 24 || (size >= 18.66 && +st.fontWeight >= 700);
  if (ratio < (large ? 3 : 4.5) - 0.01) bad.push(`${el.tagName.toLowerCase()}.${el.className} "${el.textContent.trim().slice(0, 30)}" ${ratio.toFixed(2)}:1 (${st.color} on rgb(${Math.round(bg.r)}, ${Math.round(bg.g)}, ${Math.round(bg.b)}))`);
  if (bad.length >= 5) break;
}
return bad;
"#;

async fn page_problems(c: &Client, what: &str) {
    let errors = c.execute("return window.__errors || []", vec![]).await.unwrap();
    assert_eq!(errors, serde_json::json!([]), "{what}: errors on the page");
    assert_eq!(
        c.find_all(Locator::Css("[data-role=app-error]")).await.unwrap().len(),
        0,
        "{what}: the crash notice"
    );
    let wide = c.execute(WIDER_THAN_THE_SCREEN, vec![]).await.unwrap();
    assert_eq!(wide, serde_json::json!([]), "{what}: wider than the screen");
    let low = c.execute(LOW_CONTRAST, vec![]).await.unwrap();
    assert_eq!(low, serde_json::json!([]), "{what}: text below WCAG AA contrast");
}

async fn open(c: &Client, url: &str, what: &str) {
    c.goto(url).await.unwrap();
    wait_for_hydration(c, what).await;
    c.execute(HOOKS, vec![]).await.unwrap();
}

async fn xp(c: &Client) -> String {
    text(c, "[data-role=xp]").await.unwrap_or_default()
}

/// Uses every control of the simulations, the code blocks and the contents once; how many.
async fn use_every_control(c: &Client, what: &str) -> usize {
    let mut used = 0;
    let controls = c
        .find_all(Locator::Css(
            ".sim button, .sim input[type=range], .sim input[type=number], .sim input[type=checkbox], \
             .sim select, .copy-button, .toc-toggle, .toc-folded summary",
        ))
        .await
        .unwrap();
    for control in controls {
        if !control.is_displayed().await.unwrap_or(false) {
            continue;
        }
        let tag = control.tag_name().await.unwrap();
        let kind = control.attr("type").await.unwrap().unwrap_or_default();
        let disabled = control.attr("aria-disabled").await.unwrap().as_deref() == Some("true")
            || control.attr("disabled").await.unwrap().is_some();
        if disabled {
            continue;
        }
        match (tag.as_str(), kind.as_str()) {
            ("input", "range") | ("input", "number") | ("select", _) => {
                click(c, &control).await;
                control.send_keys(&Key::Up.to_string()).await.unwrap();
            }
            _ => click(c, &control).await,
        }
        used += 1;
    }
    // Playing takes a moment; whatever it does must not fail.
    tokio::time::sleep(Duration::from_millis(300)).await;
    page_problems(c, &format!("{what}, after every control")).await;
    used
}

/// The quiz, complete and the reset with its confirmation, on the lesson at `url`.
async fn use_the_learner_controls(c: &Client, url: &str, what: &str) {
    if c.find(Locator::Css(".quiz-form")).await.is_ok() {
        let questions = c.find_all(Locator::Css(".quiz-form fieldset")).await.unwrap();
        for q in questions {
            let first = q.find(Locator::Css("input")).await.unwrap();
            click(c, &first).await;
        }
        let submit = c.find(Locator::Css(".quiz-form button[type=submit]")).await.unwrap();
        click(c, &submit).await;
        wait_for("the quiz's review", || async {
            text(c, "[data-role=quiz-review] .quiz-score").await.is_some()
        })
        .await;
        wait_for_hydration(c, "the reviewed lesson").await;
        c.execute(HOOKS, vec![]).await.unwrap();
        page_problems(c, &format!("{what}, after the quiz")).await;
    }
    if let Ok(complete) = c.find(Locator::Css(".lesson-complete button.primary")).await {
        click(c, &complete).await;
        wait_for("the completion", || async { text(c, ".lesson-complete .done").await.is_some() })
            .await;
        page_problems(c, &format!("{what}, after completing")).await;
    }
    let summary = c.find(Locator::Css(".reset-lesson summary")).await.unwrap();
    click(c, &summary).await;
    let confirm = c.find(Locator::Css("[data-role=reset-confirm]")).await.unwrap();
    click(c, &confirm).await;
    wait_for("the reset", || async {
        c.find_all(Locator::Css(".reset-lesson")).await.unwrap().is_empty()
    })
    .await;
    page_problems(c, &format!("{what}, after the reset")).await;
    // The panel says what the server says.
    let shown = xp(c).await;
    open(c, url, what).await;
    assert_eq!(xp(c).await, shown, "{what}: the panel against the server after a reload");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_lesson_every_control_both_themes_phone_and_desktop() {
    let tmp = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}?mode=rwc", tmp.path().join("db.sqlite3").display());
    let base = serve_course_on(&url).await;
    let course = lockstep_course::load(&in_process::course_dir()).unwrap();
    let lessons: Vec<String> =
        course.lessons.iter().filter_map(|l| l.ready()).map(|l| l.slug.clone()).collect();
    assert_eq!(lessons.len(), 10);
    let (_driver, webdriver) = start_chromedriver().await;
    for (theme, args) in [
        ("light", ["--blink-settings=preferredColorScheme=1"].as_slice()),
        ("dark", ["--force-dark-mode", "--blink-settings=preferredColorScheme=0"].as_slice()),
    ] {
        let c = browser(&webdriver, &tmp.path().join(theme), args).await;
        c.goto(&base).await.unwrap();
        let dark = c
            .execute("return matchMedia('(prefers-color-scheme: dark)').matches", vec![])
            .await
            .unwrap();
        assert_eq!(dark, serde_json::json!(theme == "dark"), "the {theme} theme");

        // No page scrolls sideways on the narrowest phone.
        c.set_window_size(320, 800).await.unwrap();
        let mut pages: Vec<String> = vec!["/".into(), "/xp".into(), "/account".into()];
        pages.extend(course.exercises().map(|(_, e)| lockstep_routes::exercise(&e.id)));
        pages.extend(lessons.iter().map(|s| lockstep_routes::lesson(s)));
        for page in &pages {
            open(&c, &format!("{base}{page}"), page).await;
            page_problems(&c, &format!("{page} at 320 px, {theme}")).await;
        }

        for width in [390, 1280] {
            c.set_window_size(width, 900).await.unwrap();
            for slug in &lessons {
                let what = format!("{slug} at {width} px, {theme}");
                let url = format!("{base}{}", lockstep_routes::lesson(slug));
                open(&c, &url, &what).await;
                page_problems(&c, &what).await;
                let used = use_every_control(&c, &what).await;
                // Every lesson has code or contents to use at least; one with a simulation
                // has its controls too.
                let sims = c.find_all(Locator::Css(".sim")).await.unwrap().len();
                assert!(used > 2 * sims, "{what}: {used} controls used, {sims} simulations");
                use_the_learner_controls(&c, &url, &what).await;
            }
        }
        c.close().await.unwrap();
    }
}

/// A panic in the browser bundle leaves a notice that says so and offers a reload, instead of
/// a page whose buttons silently stopped answering, and the server logs it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crash_in_the_page_is_said_and_reported() {
    let tmp = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}?mode=rwc", tmp.path().join("db.sqlite3").display());
    let base = serve_course_on(&url).await;
    let (_driver, webdriver) = start_chromedriver().await;
    let c = browser(&webdriver, &tmp.path().join("profile"), &[]).await;
    open(&c, &format!("{base}/lessons/dataparallel"), "lesson 2").await;
    c.execute(
        "import(document.querySelector('meta[name=lockstep-bundle]').content + '/lesson/lesson.js')\
         .then(m => { try { m.check_crash_notice() } catch (e) {} })",
        vec![],
    )
    .await
    .unwrap();
    wait_for("the crash notice", || async {
        text(&c, "[data-role=app-error]").await.is_some_and(|t| {
            t.starts_with(lockstep_i18n::t(lockstep_routes::Lang::En).site.broken_page)
        })
    })
    .await;
    // Reported: the beacon to the server went out (its answer is the log line; the router
    // test reads the route).
    wait_for("the report", || async {
        c.execute(
            "return performance.getEntriesByType('resource').some(e => e.name.endsWith('/api/client-errors'))",
            vec![],
        )
        .await
        .unwrap()
            == serde_json::json!(true)
    })
    .await;
    let reload = c.find(Locator::Css("[data-role=app-error] a")).await.unwrap();
    assert_eq!(reload.attr("href").await.unwrap().as_deref(), Some(""));
    c.close().await.unwrap();
}
