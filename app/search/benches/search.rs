//! Search's figures, side by side with a plain substring scan of the same text: the time to
//! build the index and each query's latency (p50, p99), for the real course (both editions)
//! and a synthetic course 100 times its size (the same sections, each under 100 lesson names).
//!
//! `cargo bench -p lockstep-search` (release build; prints a table, asserts nothing).

use std::path::Path;
use std::time::{Duration, Instant};

use lockstep_course::live::LiveCourse;
use lockstep_routes::Lang;
use lockstep_search::{sections, Doc, SearchIndex};

const QUERIES: [(Lang, &str); 8] = [
    (Lang::Ko, "모델"),
    (Lang::Ko, "학습"),
    (Lang::Ko, "모델을"),
    (Lang::Ko, "gradient bucket"),
    (Lang::En, "all-reduce"),
    (Lang::En, "set_epoch"),
    (Lang::En, "gradient bucket"),
    (Lang::En, "zebrafish"),
];

fn docs(copies: usize) -> Vec<Doc> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../lessons");
    let languages = lockstep_routes::Languages::default();
    let live = LiveCourse::open(dir, false, &languages, |_| {}).unwrap();
    let loaded = live.loaded();
    let mut out = Vec::new();
    for copy in 0..copies {
        for lang in languages.iter() {
            let edition = loaded.edition(lang);
            for lesson in edition.course.lessons.iter().filter_map(|l| l.ready()) {
                for section in sections::of(lesson) {
                    out.push(Doc {
                        lang,
                        slug: format!("{}-{copy}", lesson.slug),
                        lesson_title: lesson.front.title.clone(),
                        section,
                    });
                }
            }
        }
    }
    out
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

fn ms(d: Duration) -> String {
    format!("{:.3} ms", d.as_secs_f64() * 1000.0)
}

fn main() {
    println!(
        "| course | sections | text | index build | query p50 | query p99 | scan p50 | scan p99 |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for (name, copies) in [("real (en + ko)", 1), ("100x synthetic", 100)] {
        let all = docs(copies);
        let bytes: usize = all.iter().map(|d| d.section.text.len() + d.section.heading.len()).sum();
        // What the scan searches: each section's heading and text, lower-cased once, by language.
        let scan: Vec<(Lang, String)> = all
            .iter()
            .map(|d| (d.lang, format!("{} {}", d.section.heading, d.section.text).to_lowercase()))
            .collect();
        let n = all.len();
        let start = Instant::now();
        let index = SearchIndex::from_docs(all).unwrap();
        let build = start.elapsed();
        let rounds = if copies == 1 { 200 } else { 20 };
        let (mut searched, mut scanned) = (Vec::new(), Vec::new());
        for _ in 0..rounds {
            for (lang, q) in QUERIES {
                let t = Instant::now();
                let hits = index.search(lang, q, 20).unwrap().unwrap();
                searched.push(t.elapsed());
                std::hint::black_box(hits);
                let t = Instant::now();
                let needle = q.to_lowercase();
                let found: Vec<usize> = scan
                    .iter()
                    .enumerate()
                    .filter(|(_, (l, text))| *l == lang && text.contains(&needle))
                    .map(|(i, _)| i)
                    .take(20)
                    .collect();
                scanned.push(t.elapsed());
                std::hint::black_box(found);
            }
        }
        searched.sort();
        scanned.sort();
        println!(
            "| {name} | {n} | {:.1} MB | {} | {} | {} | {} | {} |",
            bytes as f64 / 1e6,
            ms(build),
            ms(percentile(&searched, 0.5)),
            ms(percentile(&searched, 0.99)),
            ms(percentile(&scanned, 0.5)),
            ms(percentile(&scanned, 0.99)),
        );
    }
    println!(
        "\nQueries: {}. The scan stops at 20 sections like the search, but finds `모델` only \
         as written (no ranking, no snippets) and `gradient bucket` only as that exact string.",
        QUERIES.iter().map(|(l, q)| format!("{q} ({})", l.code())).collect::<Vec<_>>().join(", ")
    );
}
