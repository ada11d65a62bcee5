//! Builds the browser side of the site into `target/site`: the hydrate crate (the application),
//! the islands crate (the site's pages, which hydrate only their islands) and the lesson crate
//! (the lessons, which do too) compiled to wasm, wasm-bindgen's JS glue, wasm-opt, the
//! stylesheet and the public files, with gzip and Brotli copies the server sends to browsers that
//! accept them.
//!
//! The bundle's files go in `pkg/<hash>/`, the hash of their contents (`pkg/current` names it),
//! so the server can let browsers keep them for a year without asking again: a new build is a
//! new address. Relative references between them (the JS glue's wasm) keep working.
//!
//! A build keeps the bundles of the builds before it ([`KEPT_BUNDLES`] in all): a page already
//! open loads its parts from its own bundle as the learner reaches them, and so does a page
//! from an app machine not yet restarted in a rolling deploy. Deleting them left such pages
//! without styles or scripts, and without a word.
//!
//! Plain cargo rather than cargo-leptos: cargo-leptos downloads wasm-opt and other tools from
//! outside the package registries when they are missing, and takes 16 minutes to install.
//!
//! # The build chain
//!
//! The chain is plain cargo, not cargo-leptos. cargo-leptos downloads tools (`wasm-opt`, and
//! `wasm-bindgen` when the version differs) from outside the package registries, and it takes 16
//! minutes to install.
//!
//! 1. `cargo rustc -p lockstep-hydrate --lib --target wasm32-unknown-unknown --profile wasm-release
//!    -- -C link-arg=--emit-relocs` (`opt-level = "z"`, LTO, one codegen unit, `panic = "abort"`;
//!    the relocations, on the final link only, are what the splitter reads), then
//!    `lockstep-islands` without the relocations, and `lockstep-lesson` with them: lockstep-web is
//!    compiled twice more, without `app`, where the pages' functions that are `#[lazy]` in the
//!    application are plain ones (a lazy function is exported for the splitter, and exported it
//!    would keep the pages' code in those bundles); the lessons' with `split`, where the
//!    simulations' two groups are lazy. Every build, native and wasm, has `--cfg erase_components`
//!    (`.cargo/config.toml`): Leptos then erases each element's children and attributes to one type
//!    instead of nesting their types, which makes the bundle about a fifth smaller and each server
//!    test binary half. The server must render with it too, because it writes the `<!>` markers
//!    after text nodes that the browser's hydration expects; tests that look for markup read pages
//!    without them (`without_markers`). A transparent component that returns routes erases them
//!    itself (`Pages`).
//! 2. The module is split (`wasm_split_cli_support`, a library of xtask's, as a crate from the
//!    registry): the code reachable only from a `#[lazy]` function moves into a module of its own
//!    (`split_<name>.wasm`), code several of them share into `chunk_<n>.wasm`, with a loader
//!    (`__wasm_split.______________________.js`, the name Leptos writes into pages) and
//!    `__wasm_split_manifest.json`, which the server reads (`HydrationScripts`) to write a `<link
//!    rel="preload">` for each part a page was rendered with. The parts: the simulations
//!    (`sims::simulation`, a lazy function only the browser has), and the pages in two groups
//!    (`pages::lazy`: the pages every reader meets, graded work and its review), each group's pages
//!    `LazyRoute`s awaiting one lazy function. Groups, because one part per page made what pages
//!    share into a hundred small files per page. A lesson is in the application's main module, not
//!    a part: as a part, the lesson's code and what it shared with the others came in eight files.
//!    A lesson page arriving from the server hydrates only its islands (see `app/lesson`), so the
//!    application has it only after a link from graded work. The lessons' bundle is split the same
//!    way into `pkg/<hash>/lesson/`, with its own loader and manifest: the simulations in two
//!    parts, which a lesson loads when one comes near. The server renders the site's pages without
//!    their group's lazy function, so no page preloads that part: it arrives from the server with
//!    the islands bundle, and the application loads the part only when it goes to one of those
//!    pages from another. The simulations' part is never in a page's preloads and hydration does
//!    not wait for it: the server draws each simulation's first frame into its `<section
//!    class="sim">` as HTML (`inner_html`, which hydration leaves as it is), and the browser loads
//!    the part when the simulation comes within half a screen of the view (an
//!    `IntersectionObserver`; at once on a page reached by a link), then draws it live in place of
//!    the server's drawing and marks it `data-live`, which shows its controls. A page carries each
//!    simulation as `sims::Embedded` (its kind's name, its parameters as JSON), which only the
//!    simulations' part reads, so the main module has no code for them. So a lesson is interactive
//!    without the simulations' code, and a reader who never scrolls to one never downloads it.
//!    `lockstep_web::hydrate` awaits `hydrate_from_async`, which loads the route's part before
//!    hydrating its page: hydration must find the code that drew the page. Only then does it mark
//!    the page hydrated (`mark_hydrated`: `html[data-hydrated]` and the `lockstep-hydrated`
//!    performance mark); an effect of `App` would run while the route's part is still loading. Once
//!    any `#[lazy]` exists an unsplit module cannot be instantiated, so the dev build splits too.
//! 3. `wasm-bindgen --target web --keep-lld-exports --no-demangle --out-name lockstep` on the split
//!    main module, `--out-name islands` on the islands bundle, and `--out-name lesson` on the
//!    lessons' split main module, into its folder. The page's head loads one of the three (`shell`,
//!    by `hydrates_only_islands` and the address's being a lesson's: the head is written before the
//!    route is rendered, so the address decides). The CLI version must equal the locked
//!    `wasm-bindgen` crate (`=0.2.130` in `Cargo.toml`).
//! 4. `wasm-opt -Oz` from npm's `binaryen@132` on the three main modules and on every part.
//!    Debian's binaryen 108 corrupts the module. The JS glue, the parts' loader and the stylesheet
//!    are minified by esbuild (not bundled: their imports, exports and the wasm imports' property
//!    names stay).
//! 5. The CSS and public files are copied, and `.gz` (gzip -9) and `.br` (Brotli, quality 11)
//!    copies are made. The server's static handler sends the one the browser accepts, Brotli first
//!    (`Vary: accept-encoding`).
//! 6. The bundle (the wasm modules, their JS, the manifest, the stylesheet, the editor) goes into
//!    `pkg/<hash>/`, the first 16 hex digits of the SHA-256 of its files, and `pkg/current` names
//!    that folder, replaced in one rename. The bundles of the 3 builds before stay (pages already
//!    open, and app machines not yet restarted, load their parts from them); older ones are
//!    removed. A page whose bundle fails to load shows the crash notice (`crash::SCRIPT`, inline in
//!    every page's head). The server reads it at start (`assets.rs`), serves the folder's files
//!    with `Cache-Control: public, max-age=31536000, immutable` and every page `no-cache`; each
//!    page names the folder in `<meta name="lockstep-bundle">`, from which the browser takes the
//!    editor's address (`lockstep_web::bundle_file`), and its script, wasm and stylesheet
//!    addresses. The error pages the server writes outside the app link an unhashed copy of the
//!    stylesheet, `pkg/lockstep.css`, which browsers revalidate. Pages, JSON and the comments' HTML
//!    are compressed on the way out (tower-http, the router's outermost layer).
//!
//! The server is configured in code (`LeptosOptions::builder().output_name("lockstep")`), not
//! through `LEPTOS_*` variables, so the server and the bundle can't disagree about file names.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result};

use crate::{cargo, run, setup};

pub const WASM_TARGET: &str = "wasm32-unknown-unknown";
/// Must equal `lockstep_web::OUTPUT_NAME`; the server asks for `/pkg/{OUTPUT_NAME}.js`.
const OUTPUT_NAME: &str = "lockstep";
/// Must equal `lockstep_web::ISLANDS_OUTPUT_NAME`.
const ISLANDS_OUTPUT_NAME: &str = "islands";
/// The lessons' bundle's name, and the folder of `pkg/<hash>/` it is in, split as it is into
/// parts of its own with a loader of its own: `lockstep_web::LESSON_OUTPUT_NAME` is
/// `lesson/lesson`.
const LESSON_OUTPUT_NAME: &str = "lesson";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Profile {
    /// Fast builds, big wasm, no wasm-opt.
    Dev,
    /// What ships: `wasm-release` profile plus `wasm-opt -Oz`.
    Release,
}

impl Profile {
    /// `--dev` picks [`Profile::Dev`].
    pub fn from_dev_flag(dev: bool) -> Profile {
        if dev {
            Profile::Dev
        } else {
            Profile::Release
        }
    }
}

/// The editor's bundle under `/pkg/<hash>/`, loaded by the exercise page.
const EDITOR_JS: &str = "editor.js";
/// The file in `pkg/` naming the current bundle's folder; read by the server at start.
const CURRENT: &str = "current";
/// How many bundles `pkg/` keeps, the new one among them: enough for the pages of the last few
/// deploys, which a learner may keep open for days.
const KEPT_BUNDLES: usize = 4;

pub fn site_dir(root: &Path) -> PathBuf {
    root.join("target/site")
}

pub fn build(root: &Path, profile: Profile) -> Result<()> {
    let (cargo_profile, profile_dir) = match profile {
        Profile::Dev => ("dev", "debug"),
        Profile::Release => ("wasm-release", "wasm-release"),
    };
    // `--emit-relocs` on the final link only: the splitter reads the relocations to move each
    // lazily loaded part's code out of the main module.
    let wasm_crate = |package: &str| {
        let mut cmd = cargo();
        cmd.current_dir(root).args(["rustc", "--package", package, "--lib", "--target"]);
        cmd.args([WASM_TARGET, "--profile", cargo_profile]);
        cmd
    };
    let relocs = ["--", "-C", "link-arg=--emit-relocs"];
    run(wasm_crate("lockstep-hydrate").args(relocs))?;
    // lockstep-web twice more, without the application (its `app` feature), for the site's
    // islands and, split, for the lessons: the other libraries are the ones just compiled.
    run(&mut wasm_crate("lockstep-islands"))?;
    run(wasm_crate("lockstep-lesson").args(relocs))?;

    // Nothing a running server may be sending is removed: the files outside the bundles are
    // written over, and the bundles of earlier builds stay (see the top of this file).
    let site = site_dir(root);
    // Built under a temporary name, moved to its hash once complete; what an interrupted
    // build left there goes first.
    let pkg = site.join("pkg").join("next");
    if pkg.exists() {
        std::fs::remove_dir_all(&pkg).with_context(|| format!("clearing {}", pkg.display()))?;
    }
    std::fs::create_dir_all(&pkg)?;

    let out = root.join("target").join(WASM_TARGET).join(profile_dir);
    // Each split bundle in its folder, where its parts' loader finds its main module and its
    // parts.
    let lesson = pkg.join(LESSON_OUTPUT_NAME);
    std::fs::create_dir_all(&lesson)?;
    let mut parts = split(&out.join("lockstep_hydrate.wasm"), &pkg, OUTPUT_NAME)?;
    parts.extend(split(&out.join("lockstep_lesson.wasm"), &lesson, LESSON_OUTPUT_NAME)?);
    let bindgen = |name: &str, dir: &Path, wasm: PathBuf| {
        run(Command::new("wasm-bindgen")
            .args(["--target", "web", "--no-typescript", "--keep-lld-exports", "--no-demangle"])
            .args(["--out-name", name, "--out-dir"])
            .arg(dir)
            .arg(wasm))
    };
    bindgen(OUTPUT_NAME, &pkg, out.join(split_main(OUTPUT_NAME)))?;
    bindgen(ISLANDS_OUTPUT_NAME, &pkg, out.join("lockstep_islands.wasm"))?;
    bindgen(LESSON_OUTPUT_NAME, &lesson, out.join(split_main(LESSON_OUTPUT_NAME)))?;

    let mains = [(OUTPUT_NAME, &pkg), (ISLANDS_OUTPUT_NAME, &pkg), (LESSON_OUTPUT_NAME, &lesson)]
        .map(|(name, dir)| dir.join(format!("{name}_bg.wasm")));
    if profile == Profile::Release {
        for module in mains.iter().chain(&parts) {
            // The features rustc enables by default for wasm32 must be declared, or wasm-opt
            // rejects the module.
            run(Command::new(setup::wasm_opt_path(root))
                .args([
                    "-Oz",
                    "--enable-bulk-memory",
                    "--enable-nontrapping-float-to-int",
                    "--enable-sign-ext",
                    "--enable-mutable-globals",
                    "--enable-reference-types",
                    "--enable-multivalue",
                ])
                .arg(module)
                .arg("-o")
                .arg(module))?;
        }
    }

    let css = stylesheet(&root.join("styles"))?;
    std::fs::write(pkg.join(format!("{OUTPUT_NAME}.css")), &css)?;
    if profile == Profile::Release {
        // The glue and the stylesheet as written are for reading: their comments and names
        // were 4.7 kB (Brotli) of what a lesson page loads first.
        let loader = SPLIT_LOADER.trim_start_matches("./");
        for dir in [&pkg, &lesson] {
            for file in std::fs::read_dir(dir)? {
                let file = file?.path();
                if file.extension().is_some_and(|e| e == "js") {
                    minify(root, &file)?;
                }
            }
        }
        debug_assert!(lesson.join(loader).exists() && pkg.join(loader).exists());
        minify(root, &pkg.join(format!("{OUTPUT_NAME}.css")))?;
    }
    // The error pages the server writes without the app link this unhashed copy.
    let plain_css = site.join("pkg").join(format!("{OUTPUT_NAME}.css"));
    std::fs::copy(pkg.join(format!("{OUTPUT_NAME}.css")), &plain_css)?;
    compress(&plain_css)?;
    copy_dir(&root.join("public"), &site)?;
    // The exercise page's code editor (CodeMirror 6), bundled from npm's packages.
    let node = root.join("xtask/node");
    run(Command::new(setup::esbuild_path(root))
        .current_dir(&node)
        .env("NODE_PATH", node.join("node_modules"))
        .arg(root.join("app/web/editor/editor.js"))
        .args(["--bundle", "--minify", "--format=esm", "--log-level=warning"])
        .arg(format!("--outfile={}", pkg.join(EDITOR_JS).display())))?;

    // Every file of the bundle: the main modules and their glue, the parts loaded on demand and
    // their loaders, the manifests (the server reads the application's to preload its parts),
    // the stylesheet, the editor.
    let mut files = Vec::new();
    let in_lesson = format!("{LESSON_OUTPUT_NAME}/");
    for (dir, prefix) in [(&pkg, ""), (&lesson, in_lesson.as_str())] {
        for entry in std::fs::read_dir(dir)? {
            let entry = entry?;
            if entry.file_type()?.is_file() {
                files.push(format!("{prefix}{}", entry.file_name().to_string_lossy()));
            }
        }
    }
    files.sort();
    let hash = content_hash(&pkg, &files)?;
    for file in &files {
        compress(&pkg.join(file))?;
    }
    let hashed = site.join("pkg").join(&hash);
    if hashed.exists() {
        // The same files as a bundle kept from before: the one being served stays as it is.
        std::fs::remove_dir_all(&pkg)?;
    } else {
        std::fs::rename(&pkg, &hashed)?;
    }
    // Marked newest, so that pruning keeps it whatever its folder's age.
    std::fs::File::open(&hashed)?.set_modified(std::time::SystemTime::now())?;
    // Replaced in one step: a server starting now reads the old name or the new, never half.
    let current = site.join("pkg").join(format!("{CURRENT}.next"));
    std::fs::write(&current, format!("{hash}\n"))?;
    std::fs::rename(&current, site.join("pkg").join(CURRENT))?;
    prune_bundles(&site.join("pkg"))?;
    for file in files.iter().filter(|f| f.ends_with(".wasm")) {
        let wasm = hashed.join(file);
        let size = |w: &Path| std::fs::metadata(w).map(|m| m.len());
        eprintln!(
            "xtask: browser bundle {}: {file} {} bytes, {} bytes gzipped, {} bytes Brotli",
            hashed.display(),
            size(&wasm)?,
            size(&wasm.with_extension("wasm.gz"))?,
            size(&wasm.with_extension("wasm.br"))?,
        );
    }
    Ok(())
}

/// Removes all but the [`KEPT_BUNDLES`] newest bundle folders of `pkg`.
fn prune_bundles(pkg: &Path) -> Result<()> {
    let mut bundles = Vec::new();
    for entry in std::fs::read_dir(pkg)? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if is_bundle_name(&name) && entry.file_type()?.is_dir() {
            bundles.push((entry.metadata()?.modified()?, name));
        }
    }
    for name in outdated(bundles, KEPT_BUNDLES) {
        std::fs::remove_dir_all(pkg.join(&name))
            .with_context(|| format!("removing the old bundle {name}"))?;
    }
    Ok(())
}

/// The bundles beyond the `keep` newest, by when each was built.
fn outdated<T: Ord>(mut bundles: Vec<(T, String)>, keep: usize) -> Vec<String> {
    bundles.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    bundles.into_iter().skip(keep).map(|(_, name)| name).collect()
}

/// A bundle folder's name: 16 lower-case hex digits (the server's `assets::is_hash`).
fn is_bundle_name(name: &str) -> bool {
    name.len() == 16 && name.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// The main module the splitter leaves beside cargo's output for the bundle `name`, for
/// wasm-bindgen.
fn split_main(name: &str) -> String {
    format!("{name}_split.wasm")
}
/// The loader of the parts, as the main module imports it. Leptos names it in the pages it
/// renders, so it must be this name exactly.
const SPLIT_LOADER: &str = "./__wasm_split.______________________.js";
/// What the server reads to preload the parts a page was rendered with.
const SPLIT_MANIFEST: &str = "__wasm_split_manifest.json";

/// Moves the code reachable only from `#[lazy]` functions out of the main module of the bundle
/// `name` into modules of their own in `dir` (with their loader and the manifest); returns those
/// modules.
fn split(wasm: &Path, dir: &Path, name: &str) -> Result<Vec<PathBuf>> {
    let bytes = std::fs::read(wasm).with_context(|| format!("reading {}", wasm.display()))?;
    let main = wasm.with_file_name(split_main(name));
    let mut options = wasm_split_cli_support::Options::new(&bytes);
    options.output_dir = dir;
    options.main_out_path = &main;
    options.link_name = SPLIT_LOADER;
    let main_module = format!("./{name}.js");
    options.main_module = &main_module;
    let split = wasm_split_cli_support::transform(options)
        .map_err(|e| anyhow::anyhow!("splitting {}: {e:?}", wasm.display()))?;
    let manifest = serde_json::to_string_pretty(&split.prefetch_map)?;
    std::fs::write(dir.join(SPLIT_MANIFEST), manifest)?;
    Ok(split.split_modules)
}

/// Minifies `file` (JS as an ES module, or CSS) in place with esbuild: names, white space and
/// comments. Not a bundle: its imports and exports stay as they are, and so do the property
/// names the wasm module's imports are looked up by.
fn minify(root: &Path, file: &Path) -> Result<()> {
    run(Command::new(setup::esbuild_path(root))
        .arg(file)
        .args(["--minify", "--log-level=error", "--allow-overwrite"])
        .args(file.extension().is_some_and(|e| e == "js").then_some("--format=esm"))
        .arg(format!("--outfile={}", file.display())))
}

/// The first 16 hex digits of the SHA-256 of the files' names and contents.
fn content_hash(dir: &Path, files: &[String]) -> Result<String> {
    use sha2::{Digest, Sha256};
    let mut hash = Sha256::new();
    for file in files {
        let bytes = std::fs::read(dir.join(file)).with_context(|| format!("reading {file}"))?;
        hash.update((file.len() as u64).to_le_bytes());
        hash.update(file.as_bytes());
        hash.update((bytes.len() as u64).to_le_bytes());
        hash.update(&bytes);
    }
    Ok(hash.finalize().iter().take(8).map(|b| format!("{b:02x}")).collect())
}

/// `FILE.gz` (gzip -9) and `FILE.br` (Brotli, quality 11) beside `file`, for the server to
/// send whichever the browser accepts.
fn compress(file: &Path) -> Result<()> {
    run(Command::new("gzip").args(["--keep", "--force", "-9"]).arg(file))?;
    let bytes = std::fs::read(file)?;
    let mut out = Vec::new();
    let params = brotli::enc::BrotliEncoderParams { quality: 11, lgwin: 24, ..Default::default() };
    brotli::BrotliCompress(&mut bytes.as_slice(), &mut out, &params)
        .with_context(|| format!("compressing {}", file.display()))?;
    let mut br = file.as_os_str().to_owned();
    br.push(".br");
    std::fs::write(br, out)?;
    Ok(())
}

/// All `styles/*.css` files in name order, concatenated. Plain CSS: no sass or tailwind
/// binaries to download.
fn stylesheet(dir: &Path) -> Result<String> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("reading {}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "css"))
        .collect();
    files.sort();
    let mut css = String::new();
    for f in files {
        css.push_str(&format!("/* {} */\n", f.file_name().unwrap_or_default().to_string_lossy()));
        css.push_str(&std::fs::read_to_string(&f)?);
        css.push('\n');
    }
    Ok(css)
}

fn copy_dir(from: &Path, to: &Path) -> Result<()> {
    if !from.exists() {
        return Ok(());
    }
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let dest = to.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            copy_dir(&entry.path(), &dest)?;
        } else {
            std::fs::copy(entry.path(), &dest)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_newest_bundles_are_kept() {
        let bundles =
            |ages: &[(u32, &str)]| ages.iter().map(|(t, n)| (*t, n.to_string())).collect();
        let old = outdated(bundles(&[(3, "c"), (1, "a"), (5, "e"), (2, "b"), (4, "d")]), 4);
        assert_eq!(old, ["a"]);
        assert!(outdated(bundles(&[(1, "a"), (2, "b")]), 4).is_empty());
        assert!(is_bundle_name("0123456789abcdef"));
        for name in ["next", "current", "lockstep.css", "0123456789ABCDEF", "0123456789abcde"] {
            assert!(!is_bundle_name(name), "{name}");
        }
    }
}
