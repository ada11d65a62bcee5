//! What a first visit to a page downloads besides its HTML (wasm, JS, CSS, as the browser
//! received them: `transferSize` from the Performance API, in the encoding it asked for; all of
//! it until the page is hydrated and its loads have settled, the reader not scrolling) and
//! when the page became interactive (hydrated: the `lockstep-hydrated` mark), in headless
//! Chromium on the release bundle, each page in a fresh profile. A lesson page is also loaded
//! under Chromium's "Fast 3G" (562.5 ms latency, 180,000 B/s down).
//!
//! Prints a table (and writes it to `target/test-artifacts/bundle-budget.txt`). Each page has
//! the issue's goal and the ceiling enforced today; the test fails over the ceiling. Every
//! ceiling is its goal now: a page that grows past its goal fails.

mod common;

use common::*;
use fantoccini::wd::WebDriverCompatibleCommand;
use fantoccini::Client;
use std::time::{Duration, Instant};

const KB: f64 = 1000.0;

/// (name, path, goal, enforced ceiling), in bytes transferred.
const PAGES: &[(&str, &str, u64, u64)] = &[
    // The site's pages load only the islands bundle; a lesson, the lessons' bundle.
    ("catalogue", "/", 200_000, 200_000),
    ("xp", "/xp", 200_000, 200_000),
    ("account", "/account", 200_000, 200_000),
    ("search", "/search?q=allreduce", 200_000, 200_000),
    // Lesson 1's first simulation is near the top, so its part loads at once; the others'
    // are further down, and a first load without that part must stay so.
    ("lesson 1", "/lessons/why-distributed", 300_000, 300_000),
    ("lesson 2", "/lessons/dataparallel", 300_000, 300_000),
    ("lesson 3", "/lessons/ddp-allreduce", 300_000, 300_000),
    ("lesson 4", "/lessons/distributed-sampler", 300_000, 300_000),
    ("lesson 7", "/lessons/accumulation-and-mixed-precision", 300_000, 300_000),
];

/// Chromium's network throttling, through chromedriver's own endpoint.
#[derive(Debug)]
struct NetworkConditions {
    latency_ms: f64,
    down_bytes_per_s: u64,
    up_bytes_per_s: u64,
}

/// DevTools' "Fast 3G" preset.
const FAST_3G: NetworkConditions =
    NetworkConditions { latency_ms: 562.5, down_bytes_per_s: 180_000, up_bytes_per_s: 84_375 };

impl WebDriverCompatibleCommand for NetworkConditions {
    fn endpoint(
        &self,
        base: &url::Url,
        session: Option<&str>,
    ) -> Result<url::Url, url::ParseError> {
        base.join(&format!("session/{}/chromium/network_conditions", session.unwrap_or_default()))
    }

    fn method_and_body(&self, _: &url::Url) -> (axum::http::Method, Option<String>) {
        let body = serde_json::json!({ "network_conditions": {
            "offline": false,
            "latency": self.latency_ms,
            "download_throughput": self.down_bytes_per_s,
            "upload_throughput": self.up_bytes_per_s,
        }});
        (axum::http::Method::POST, Some(body.to_string()))
    }
}

/// What one load of a page downloaded, by type, and when it was hydrated.
#[derive(Debug, Default)]
struct Load {
    wasm: u64,
    js: u64,
    css: u64,
    files: usize,
    hydrated_ms: f64,
}

impl Load {
    fn total(&self) -> u64 {
        self.wasm + self.js + self.css
    }
}

async fn load(c: &Client, url: &str) -> Load {
    c.goto(url).await.unwrap();
    wait_for_hydration_only(c, url).await;
    // What the page goes on to load without the reader doing anything belongs to its first load
    // too: a simulation near the first view (within half a screen below it) loads its part
    // right after hydration. Counted once those are drawn live and nothing new has arrived for
    // a second and a half.
    const SETTLED: &str = r#"
        const near = [...document.querySelectorAll('section.sim:not([data-live])')]
            .filter(s => s.getClientRects().length && s.getBoundingClientRect().top < innerHeight * 1.5);
        return [performance.getEntriesByType('resource').length, near.length];
    "#;
    let (deadline, mut seen) = (Instant::now() + WAIT, (0, Instant::now()));
    while seen.1.elapsed() < Duration::from_millis(1500) {
        assert!(Instant::now() < deadline, "{url}: its loads did not settle");
        let got = c.execute(SETTLED, vec![]).await.unwrap();
        let (count, near) = (got[0].as_u64().unwrap(), got[1].as_u64().unwrap());
        if count != seen.0 || near > 0 {
            seen = (count, Instant::now());
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let script = r#"
        const hydrated = performance.getEntriesByName('lockstep-hydrated')[0];
        return {
            hydrated: hydrated ? hydrated.startTime : -1,
            resources: performance.getEntriesByType('resource').map(e => ({
                name: e.name, size: e.transferSize,
            })),
        };
    "#;
    let got = c.execute(script, vec![]).await.unwrap();
    let mut load = Load { hydrated_ms: got["hydrated"].as_f64().unwrap(), ..Load::default() };
    for r in got["resources"].as_array().unwrap() {
        let name = r["name"].as_str().unwrap().split('?').next().unwrap().to_string();
        let size = r["size"].as_u64().unwrap();
        let slot = if name.ends_with(".wasm") {
            &mut load.wasm
        } else if name.ends_with(".js") {
            &mut load.js
        } else if name.ends_with(".css") {
            &mut load.css
        } else {
            continue;
        };
        *slot += size;
        load.files += 1;
    }
    assert!(load.hydrated_ms > 0.0, "{url}: no hydration mark");
    load
}

/// The encoding the server sends the main module in, for the `Accept-Encoding` Chromium sends.
async fn encoding_chromium_gets(c: &Client, base: &str) -> String {
    let script = r#"
        const src = document.querySelector('meta[name=lockstep-bundle]').content + '/lockstep_bg.wasm';
        return fetch(src, { cache: 'no-store' }).then(r => r.headers.get('content-encoding') || 'identity');
    "#;
    c.goto(base).await.unwrap();
    c.execute_async(
        &format!("const done = arguments[0]; (async () => {{ {script} }})().then(done);"),
        vec![],
    )
    .await
    .unwrap()
    .as_str()
    .unwrap()
    .to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn first_loads_stay_within_their_budgets() {
    let tmp = tempfile::tempdir().unwrap();
    let base = serve_course(tmp.path()).await;
    let (_driver, webdriver) = start_chromedriver().await;

    let mut lines = Vec::new();
    let mut over = Vec::new();
    let probe = browser(&webdriver, &tmp.path().join("probe"), &[]).await;
    let encoding = encoding_chromium_gets(&probe, &base).await;
    probe.close().await.unwrap();
    lines.push(format!("the bundle as Chromium asks for it over http: {encoding}"));
    lines.push(format!(
        "{:<10} {:>9} {:>9} {:>9} {:>9} {:>6} {:>9} {:>9} {:>12}",
        "page",
        "wasm kB",
        "JS kB",
        "CSS kB",
        "total kB",
        "files",
        "goal kB",
        "ceiling",
        "hydrated ms"
    ));
    for (i, (name, path, goal, ceiling)) in PAGES.iter().enumerate() {
        let c = browser(&webdriver, &tmp.path().join(format!("p{i}")), &[]).await;
        let l = load(&c, &format!("{base}{path}")).await;
        c.close().await.unwrap();
        lines.push(format!(
            "{:<10} {:>9.1} {:>9.1} {:>9.1} {:>9.1} {:>6} {:>9.0} {:>9.0} {:>12.0}",
            name,
            l.wasm as f64 / KB,
            l.js as f64 / KB,
            l.css as f64 / KB,
            l.total() as f64 / KB,
            l.files,
            *goal as f64 / KB,
            *ceiling as f64 / KB,
            l.hydrated_ms
        ));
        if l.total() > *ceiling {
            over.push(format!("{name}: {} bytes, over its ceiling of {ceiling}", l.total()));
        }
    }
    // The issue's figure: lesson 3 under Fast 3G, from nothing to interactive.
    for (name, path) in [("lesson 3", "/lessons/ddp-allreduce"), ("catalogue", "/")] {
        let c = browser(&webdriver, &tmp.path().join(format!("slow-{name}")), &[]).await;
        c.issue_cmd(FAST_3G).await.unwrap();
        let l = load(&c, &format!("{base}{path}")).await;
        lines.push(format!(
            "{name} under Fast 3G: {:.1} kB, hydrated at {:.0} ms",
            l.total() as f64 / KB,
            l.hydrated_ms
        ));
        // What loading the simulations' part on the way costs a reader: from scrolling to the
        // first simulation to seeing it drawn live.
        if path.starts_with("/lessons/") {
            let script = r#"
                const done = arguments[arguments.length - 1];
                const sim = document.querySelector('section.sim');
                const t0 = performance.now();
                sim.scrollIntoView({ block: 'center', behavior: 'instant' });
                const poll = () => sim.hasAttribute('data-live')
                    ? done(performance.now() - t0) : setTimeout(poll, 10);
                poll();
            "#;
            let ms = c.execute_async(script, vec![]).await.unwrap().as_f64().unwrap();
            lines.push(format!(
                "{name} under Fast 3G: its first simulation drawn live {ms:.0} ms after it was \
                 scrolled into view"
            ));
        }
        c.close().await.unwrap();
    }
    let table = lines.join("\n");
    eprintln!("{table}");
    std::fs::write(artifacts().join("bundle-budget.txt"), format!("{table}\n")).unwrap();
    assert!(over.is_empty(), "{}", over.join("\n"));
}
