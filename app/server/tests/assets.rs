//! The browser bundle as the release build writes it (`target/site`): pages name its hashed
//! folder, its files are kept by browsers for a year and sent Brotli- or gzip-compressed as the
//! browser asks, pages are asked for again every time.

mod common;

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use common::in_process::*;
use common::site_root;

/// `path` on `app`, asking for `encoding` (none: identity).
async fn fetch(app: &App, path: &str, encoding: Option<&str>) -> (Page, usize) {
    let mut req = Request::get(path);
    if let Some(e) = encoding {
        req = req.header(header::ACCEPT_ENCODING, e);
    }
    let res = tower::ServiceExt::oneshot(app.router.clone(), req.body(Body::empty()).unwrap());
    let res = res.await.unwrap();
    let status = res.status();
    let headers = res.headers().clone();
    let bytes = http_body_util::BodyExt::collect(res.into_body()).await.unwrap().to_bytes();
    let body = String::from_utf8_lossy(&bytes).into_owned();
    (Page { status, headers, body }, bytes.len())
}

fn header(page: &Page, name: header::HeaderName) -> &str {
    page.headers.get(name).map(|v| v.to_str().unwrap()).unwrap_or("")
}

#[test]
fn the_bundle_is_hashed_kept_for_a_year_and_compressed_as_asked() {
    on_runtime(async {
        let site = site_root();
        let hash = std::fs::read_to_string(site.join("pkg/current")).unwrap().trim().to_string();
        let dir = site.join("pkg").join(&hash);
        let db = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}?mode=rwc", db.path().join("db.sqlite3").display());
        let app = app_configured(&lessons_root(), &url, db, |c| c.site_root = site.clone()).await;

        // The page names the folder, its script, wasm and stylesheet in it, and is not kept. A
        // lesson hydrates only its islands, with the lessons' bundle, which is in a folder of its
        // own; it preloads none of its parts: the simulations' load when one comes near.
        let (page, _) = fetch(&app, "/lessons/dataparallel", None).await;
        assert_eq!(page.status, StatusCode::OK);
        let bundle = format!("/pkg/{hash}");
        let lesson =
            [format!("{bundle}/lesson/lesson.js"), format!("{bundle}/lesson/lesson_bg.wasm")];
        for named in [
            format!(r#"<meta name="lockstep-bundle" content="{bundle}">"#),
            format!(r#"href="{bundle}/lockstep.css""#),
        ]
        .iter()
        .chain(&lesson)
        {
            assert!(page.body.contains(named), "{named}");
        }
        assert_eq!(header(&page, header::CACHE_CONTROL), "no-cache");
        let preloads = |body: &str, part: &str| {
            body.split("<link").any(|l| l.contains(r#"rel="preload""#) && l.contains(part))
        };
        assert!(!preloads(&page.body, "split_"), "{}", page.body);
        assert!(!preloads(&page.body, "chunk_"), "{}", page.body);
        // The site's pages load the islands bundle, and no part of the application's; a lesson
        // in Korean is a lesson.
        let islands = [format!("{bundle}/islands.js"), format!("{bundle}/islands_bg.wasm")];
        for (site_page, names) in
            ["/", "/ko", "/xp", "/ko/search?q=ddp", "/account", "/courses/ddp"]
                .map(|p| (p, &islands))
                .into_iter()
                .chain([("/ko/lessons/dataparallel", &lesson)])
        {
            let (page, _) = fetch(&app, site_page, None).await;
            for part in ["split_", "__wasm_split", "lockstep.js", "lockstep_bg.wasm"] {
                assert!(!page.body.contains(part), "{site_page} names {part}");
            }
            for named in names {
                assert!(page.body.contains(named), "{site_page} does not name {named}");
            }
        }
        // Graded work is the application's: its main module, and its group's part, preloaded.
        let (exercise, _) = fetch(&app, "/exercises/ddp-conversion", None).await;
        assert_eq!(exercise.status, StatusCode::OK);
        for named in [format!("{bundle}/lockstep.js"), format!("{bundle}/lockstep_bg.wasm")] {
            assert!(exercise.body.contains(&named), "{named}");
        }
        assert!(exercise.body.contains(&format!(r#"src="{bundle}/editor.js""#)));
        assert!(preloads(&exercise.body, "split_work"), "{}", exercise.body);

        for file in [
            "lockstep_bg.wasm",
            "lockstep.js",
            "islands_bg.wasm",
            "islands.js",
            "lesson/lesson_bg.wasm",
            "lesson/lesson.js",
            "lockstep.css",
            "editor.js",
        ] {
            let path = format!("{bundle}/{file}");
            for (asked, sent, suffix) in [
                (Some("gzip, deflate, br, zstd"), "br", ".br"),
                (Some("gzip"), "gzip", ".gz"),
                (None, "", ""),
            ] {
                let (got, len) = fetch(&app, &path, asked).await;
                assert_eq!(got.status, StatusCode::OK, "{path}");
                assert_eq!(header(&got, header::CONTENT_ENCODING), sent, "{path} for {asked:?}");
                let on_disk = std::fs::metadata(dir.join(format!("{file}{suffix}"))).unwrap().len();
                assert_eq!(len as u64, on_disk, "{path}{suffix}");
                assert_eq!(
                    header(&got, header::CACHE_CONTROL),
                    "public, max-age=31536000, immutable",
                    "{path}"
                );
                assert!(header(&got, header::VARY).contains("accept-encoding"), "{path}");
            }
        }

        // Brotli is the smaller: what the budget is counted in.
        let size = |name: &str| std::fs::metadata(dir.join(name)).unwrap().len();
        assert!(size("lockstep_bg.wasm.br") < size("lockstep_bg.wasm.gz"));

        // Anything else under /pkg is not kept for a year: the error pages' stylesheet, a
        // folder that is not this build's.
        let (plain, _) = fetch(&app, "/pkg/lockstep.css", Some("br")).await;
        assert_eq!(plain.status, StatusCode::OK);
        assert!(!header(&plain, header::CACHE_CONTROL).contains("immutable"));
        let (old, _) = fetch(&app, "/pkg/0000000000000000/lockstep.js", None).await;
        assert_eq!(old.status, StatusCode::NOT_FOUND);
        assert!(!header(&old, header::CACHE_CONTROL).contains("immutable"));
    });
}
