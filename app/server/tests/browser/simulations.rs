//! The six simulations embedded in the real course, driven in headless Chromium once the page has
//! hydrated: the values a learner reads must be PyTorch's and the arithmetic's, not the page's
//! opinion. Each simulation's screenshot is kept in `target/test-artifacts/`. (What a step costs
//! the browser is `sim_steps.rs`.)
//! A second test drives them with the keyboard alone, with reduced motion asked for.

use crate::common;

use common::*;
use fantoccini::actions::{InputSource, KeyAction, KeyActions};
use fantoccini::elements::Element;
use fantoccini::key::Key;
use fantoccini::{Client, Locator};
use serde_json::json;

async fn sim(c: &Client, name: &str) -> Element {
    let sim = c.find(Locator::Css(&format!(r#"[data-sim="{name}"]"#))).await.unwrap();
    c.execute(
        "arguments[0].scrollIntoView({block: 'start', behavior: 'instant'})",
        vec![serde_json::to_value(&sim).unwrap()],
    )
    .await
    .unwrap();
    sim
}

async fn within(e: &Element, css: &str) -> Element {
    e.find(Locator::Css(css)).await.unwrap_or_else(|_| panic!("no `{css}` in the simulation"))
}

/// Every rank's values as the table shows them, from the cells' `data-value`.
async fn ring_values(c: &Client) -> Vec<Vec<f64>> {
    let v = c
        .execute(
            r#"return [...document.querySelectorAll('[data-sim="ring-allreduce"] [data-role="values"] tbody tr')]
                .map(tr => [...tr.querySelectorAll('td')].map(td => Number(td.dataset.value)))"#,
            vec![],
        )
        .await
        .unwrap();
    serde_json::from_value(v).unwrap()
}

/// Sets a number input inside a simulation the way a learner does: type, then leave the field.
async fn set_number(c: &Client, sim: &Element, label: &str, value: usize) {
    let script = r#"
        const [sim, label, value] = arguments;
        const input = [...sim.querySelectorAll('label')].find(l => l.textContent.trim().startsWith(label)).querySelector('input');
        input.value = String(value);
        input.dispatchEvent(new Event('change', { bubbles: true }));"#;
    c.execute(script, vec![serde_json::to_value(sim).unwrap(), json!(label), json!(value)])
        .await
        .unwrap();
}

/// What the sampler draws, checked against the indices each rank row carries (`data-indices`,
/// which the other checks hold to torch): each rank's chips read its indices from the first
/// drawn place on, and each dataset cell names the ranks that got its index ("r1", "r0+r3*"
/// when padding gave it to several). Returns how many chips and cells were compared.
async fn sampler_drawn_as_indices(c: &Client, sampler: &Element) -> (usize, usize) {
    let script = r#"
        const sim = arguments[0];
        const rows = [...sim.querySelectorAll('[data-role="rank-indices"]')].map(row => ({
            rank: Number(row.dataset.rank),
            indices: row.dataset.indices.split(' ').filter(x => x).map(Number),
            start: Number(row.querySelector('ol.chips').getAttribute('start')) - 1,
            chips: [...row.querySelectorAll('.chip')].map(li => li.firstChild.textContent),
        }));
        const strip = sim.querySelector('[data-role="dataset"]');
        const cells = [...strip.querySelectorAll('li')].map(li => [
            Number(li.querySelector('.index').textContent), li.querySelector('small').textContent,
        ]);
        return { rows, cells };"#;
    let got = c.execute(script, vec![serde_json::to_value(sampler).unwrap()]).await.unwrap();
    let rows = got["rows"].as_array().unwrap();
    let mut owners: std::collections::BTreeMap<u64, Vec<u64>> = Default::default();
    let mut chips = 0;
    for row in rows {
        let rank = row["rank"].as_u64().unwrap();
        let indices: Vec<u64> =
            row["indices"].as_array().unwrap().iter().map(|i| i.as_u64().unwrap()).collect();
        let start = row["start"].as_u64().unwrap() as usize;
        for (k, chip) in row["chips"].as_array().unwrap().iter().enumerate() {
            assert_eq!(
                chip.as_str().unwrap(),
                indices[start + k].to_string(),
                "rank {rank}, place {}: the chip and the rank's indices {indices:?}",
                start + k
            );
            chips += 1;
        }
        for i in indices {
            let o = owners.entry(i).or_default();
            if !o.contains(&rank) {
                o.push(rank);
            }
        }
    }
    let cells = got["cells"].as_array().unwrap();
    for cell in cells {
        let i = cell[0].as_u64().unwrap();
        let shown = cell[1].as_str().unwrap();
        match owners.get(&i).map(Vec::as_slice) {
            Some([r]) => assert_eq!(shown, format!("r{r}"), "index {i}"),
            Some(many) => {
                let names: Vec<String> = many.iter().map(|r| format!("r{r}")).collect();
                assert_eq!(shown, format!("{}*", names.join("+")), "index {i}")
            }
            // Dropped: no rank got it, and the cell says so in words.
            None => assert!(!shown.starts_with('r'), "index {i} went to no rank: {shown}"),
        }
    }
    (chips, cells.len())
}

fn column_sums(values: &[Vec<f64>]) -> Vec<f64> {
    (0..values[0].len()).map(|i| values.iter().map(|r| r[i]).sum()).collect()
}

fn numbers(s: &str) -> Vec<f64> {
    s.split_whitespace().map(|x| x.replace(',', "").parse().unwrap()).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn simulations_in_the_course() {
    let tmp = tempfile::tempdir().unwrap();
    let base = serve_course(tmp.path()).await;
    let (_driver, webdriver) = start_chromedriver().await;
    let c = browser(&webdriver, &tmp.path().join("profile"), &[]).await;

    // --- Ring all-reduce, lesson 3: the server renders the start; stepping reaches the sum. ---
    c.goto(&format!("{base}/lessons/ddp-allreduce")).await.unwrap();
    wait_for_hydration(&c, "lesson 3 to hydrate").await;
    let ring = sim(&c, "ring-allreduce").await;
    let start = ring_values(&c).await;
    assert_eq!(
        start,
        vec![vec![1.0, 2.0, 3.0], vec![4.0, 5.0, 6.0], vec![7.0, 8.0, 9.0]],
        "lesson 3's starting values"
    );
    assert!(
        within(&ring, "[data-role=result]").await.attr("hidden").await.unwrap().is_some(),
        "no result before the last step"
    );
    let next = within(&ring, ".sim-step").await;
    for step in 1..=4 {
        click(&c, &next).await;
        wait_for("the step to render", || async {
            within(&ring, ".sim-position").await.text().await.unwrap()
                == format!("Step {step} of 4")
        })
        .await;
    }
    assert_eq!(ring_values(&c).await, vec![vec![12.0, 15.0, 18.0]; 3], "every rank holds the sum");
    assert_eq!(within(&ring, "[data-role=final-sum]").await.text().await.unwrap(), "12 15 18");
    assert_eq!(within(&ring, "[data-role=final-mean]").await.text().await.unwrap(), "4 5 6");
    assert_eq!(
        next.attr("aria-disabled").await.unwrap().as_deref(),
        Some("true"),
        "no step after the last"
    );
    std::fs::write(artifacts().join("sim-ring-allreduce.png"), ring.screenshot().await.unwrap())
        .unwrap();

    // Five ranks of seven values, played to the end: the result is the sum of what the table
    // started with, whatever the chunking.
    set_number(&c, &ring, "Ranks", 5).await;
    set_number(&c, &ring, "Values per rank", 7).await;
    let start = ring_values(&c).await;
    assert_eq!((start.len(), start[0].len()), (5, 7));
    click(&c, &within(&ring, ".sim-play").await).await;
    // The result is there, hidden, from the start; the last step shows it.
    wait_for("the played ring to finish", || async {
        ring.find(Locator::Css("[data-role=result]:not([hidden]) [data-role=final-sum]"))
            .await
            .is_ok()
    })
    .await;
    let sum = numbers(&within(&ring, "[data-role=final-sum]").await.text().await.unwrap());
    assert_eq!(sum, column_sums(&start));
    assert_eq!(ring_values(&c).await, vec![sum.clone(); 5]);

    // A step fades in the cells it changed; a reset, even from the first step, shows them at
    // once and stops the fades still running.
    let fades: Vec<u64> = serde_json::from_value(
        c.execute(
            r#"const sim = document.querySelector('[data-sim="ring-allreduce"]');
               const fades = () => document.getAnimations()
                   .filter(a => a.effect && sim.contains(a.effect.target)).length;
               const settle = () => new Promise(done => setTimeout(done, 0));
               const press = (button) => { sim.querySelector(button).click(); return settle(); };
               let afterStep;
               return press('.sim-reset')
                   .then(() => press('.sim-step'))
                   .then(() => { afterStep = fades(); return press('.sim-reset'); })
                   .then(() => [afterStep, fades()]);"#,
            vec![],
        )
        .await
        .unwrap(),
    )
    .unwrap();
    assert!(fades[0] > 0, "a step fades in what it changed: {fades:?}");
    assert_eq!(fades[1], 0, "a reset fades nothing: {fades:?}");

    // 64 ranks of 256 values: the table draws the cells in view, and scrolling to the far
    // corner shows that corner's cells as the current step has them (every rank holds the sum;
    // column i sums r·256 + i + 1 over 64 ranks: 516,096 + 64·(i + 1)).
    click(&c, &within(&ring, ".sim-reset").await).await;
    set_number(&c, &ring, "Ranks", 64).await;
    set_number(&c, &ring, "Values per rank", 256).await;
    let drawn = c
        .execute(
            r#"const next = document.querySelector('[data-sim="ring-allreduce"] .sim-step');
               for (let i = 0; i < 126; i++) next.click();
               return document.querySelectorAll('[data-sim="ring-allreduce"] .ring-table td').length"#,
            vec![],
        )
        .await
        .unwrap();
    let drawn = drawn.as_u64().unwrap();
    assert!(drawn > 0 && drawn < 2_000, "{drawn} cells drawn of 16,384: only those in view");
    wait_for("the last step", || async {
        within(&ring, ".sim-position").await.text().await.unwrap() == "Step 126 of 126"
    })
    .await;
    c.execute(
        "const s = document.querySelector('[data-sim=\"ring-allreduce\"] .values-scroll');
         s.scrollTo(s.scrollWidth, s.scrollHeight);",
        vec![],
    )
    .await
    .unwrap();
    let corner = r#"[data-sim="ring-allreduce"] tr[data-rank="63"] td[aria-colindex="257"]"#;
    wait_for("the far corner to be drawn", || async { c.find(Locator::Css(corner)).await.is_ok() })
        .await;
    let value = c.find(Locator::Css(corner)).await.unwrap().attr("data-value").await.unwrap();
    assert_eq!(value.as_deref(), Some("532480"), "rank 63's last value after the last step");
    assert!(
        c.find(Locator::Css(r#"[data-sim="ring-allreduce"] tr[data-rank="0"]"#)).await.is_err(),
        "rows far out of view are not drawn"
    );

    // --- DistributedSampler, lesson 4: torch's indices, set_epoch on and off. ---
    c.goto(&format!("{base}/lessons/distributed-sampler")).await.unwrap();
    wait_for_hydration(&c, "lesson 4 to hydrate").await;
    let sampler = sim(&c, "sampler").await;
    let indices = |rank: usize| {
        let sampler = sampler.clone();
        async move {
            within(&sampler, &format!(r#"[data-role="rank-indices"][data-rank="{rank}"]"#))
                .await
                .attr("data-indices")
                .await
                .unwrap()
                .unwrap()
        }
    };
    let epoch0 = indices(2).await;
    assert_eq!(sampler_drawn_as_indices(&c, &sampler).await, (12, 10), "every place and index");
    // torch 2.13: list(DistributedSampler(range(10), num_replicas=4, rank=2, seed=0)) is [7, 0, 4]
    assert_eq!(epoch0, "7 0 4", "epoch 0 as torch yields it");
    let next = within(&sampler, ".sim-step").await;
    click(&c, &next).await;
    wait_for("epoch 1", || async { indices(2).await != epoch0 }).await;
    // ... after set_epoch(1): [1, 9, 5]
    assert_eq!(indices(2).await, "1 9 5");
    assert_eq!(sampler_drawn_as_indices(&c, &sampler).await, (12, 10), "epoch 1 drawn");
    std::fs::write(artifacts().join("sim-sampler.png"), sampler.screenshot().await.unwrap())
        .unwrap();

    // Untick set_epoch: the sampler is back at epoch 0, and stays there as epochs pass.
    let toggle =
        sampler.find(Locator::XPath(".//label[contains(., 'set_epoch')]/input")).await.unwrap();
    click(&c, &toggle).await;
    wait_for("the order to fall back to epoch 0", || async { indices(2).await == epoch0 }).await;
    click(&c, &next).await;
    wait_for("epoch 2", || async {
        within(&sampler, ".sim-position").await.text().await.unwrap() == "Epoch 2 of 9"
    })
    .await;
    assert_eq!(indices(2).await, epoch0, "without set_epoch every epoch repeats epoch 0");
    sampler_drawn_as_indices(&c, &sampler).await;
    let explain = within(&sampler, "[data-role=epoch]").await.text().await.unwrap();
    assert!(explain.contains("set_epoch is never called"), "{explain}");

    std::fs::write(
        artifacts().join("sim-sampler-without-set-epoch.png"),
        sampler.screenshot().await.unwrap(),
    )
    .unwrap();

    // --- DP vs DDP, lesson 1: more GPUs move both speedups, DDP ahead. ---
    c.goto(&format!("{base}/lessons/why-distributed")).await.unwrap();
    wait_for_hydration(&c, "lesson 1 to hydrate").await;
    let compare = sim(&c, "dp-vs-ddp").await;
    let speedups = || {
        let compare = compare.clone();
        async move {
            let read = |role: &'static str| {
                let compare = compare.clone();
                async move {
                    let t = within(&compare, &format!("[data-role={role}]"))
                        .await
                        .text()
                        .await
                        .unwrap();
                    t.trim_end_matches('×').parse::<f64>().unwrap()
                }
            };
            (read("speedup-dp").await, read("speedup-ddp").await)
        }
    };
    let (dp4, ddp4) = speedups().await;
    assert!(ddp4 > dp4 && ddp4 > 1.0, "4 GPUs: DP {dp4}, DDP {ddp4}");
    let slider = compare.find(Locator::XPath(".//label[contains(., 'GPUs')]/input")).await.unwrap();
    let set_range = "arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input', { bubbles: true }))";
    c.execute(set_range, vec![serde_json::to_value(&slider).unwrap(), json!("8")]).await.unwrap();
    wait_for("the speedups to follow the GPUs", || async { speedups().await != (dp4, ddp4) }).await;
    let (dp8, ddp8) = speedups().await;
    assert!(ddp8 > ddp4, "DDP keeps gaining: {ddp4} → {ddp8}");
    assert!(ddp8 > dp8, "8 GPUs: DP {dp8}, DDP {ddp8}");
    c.execute(set_range, vec![serde_json::to_value(&slider).unwrap(), json!("1")]).await.unwrap();
    wait_for("one GPU", || async { speedups().await.1 == 1.0 }).await;
    c.execute(set_range, vec![serde_json::to_value(&slider).unwrap(), json!("4")]).await.unwrap();
    wait_for("four GPUs again", || async { speedups().await == (dp4, ddp4) }).await;
    click(&c, &within(&compare, ".sim-play").await).await;
    wait_for("the iteration to play out", || async {
        within(&compare, ".sim-position").await.text().await.unwrap() == "Frame 10 of 10"
    })
    .await;
    let bars = c
        .execute(
            r#"return document.querySelectorAll('[data-sim="dp-vs-ddp"] .gantt rect').length"#,
            vec![],
        )
        .await
        .unwrap();
    assert!(bars.as_u64().unwrap() > 40, "both timelines drawn: {bars}");
    std::fs::write(artifacts().join("sim-dp-vs-ddp.png"), compare.screenshot().await.unwrap())
        .unwrap();

    // --- Scatter and gather, lesson 2: torch.chunk's sizes, phase by phase. ---
    c.goto(&format!("{base}/lessons/dataparallel")).await.unwrap();
    wait_for_hydration(&c, "lesson 2 to hydrate").await;
    let scatter = sim(&c, "scatter-gather").await;
    let chunks = within(&scatter, "[data-role=chunks]").await.text().await.unwrap();
    assert!(chunks.contains("3 + 3 + 3 + 1"), "torch.chunk(10 rows, 4): {chunks}");
    let next = within(&scatter, ".sim-step").await;
    click(&c, &next).await;
    wait_for("the scatter phase", || async {
        within(&scatter, "[data-role=phase]").await.text().await.unwrap().starts_with("Scatter")
    })
    .await;
    let active = c.execute(r#"return [...document.querySelectorAll('[data-sim="scatter-gather"] .device.active')].map(d => d.dataset.device)"#, vec![]).await.unwrap();
    assert_eq!(active, json!(["0", "1", "2", "3"]), "GPU 0 sends a chunk to each of the others");
    for _ in 0..8 {
        click(&c, &next).await;
    }
    wait_for("the optimizer step", || async {
        within(&scatter, "[data-role=phase]")
            .await
            .text()
            .await
            .unwrap()
            .starts_with("Optimizer step")
    })
    .await;
    let active = c.execute(r#"return [...document.querySelectorAll('[data-sim="scatter-gather"] .device.active')].map(d => d.dataset.device)"#, vec![]).await.unwrap();
    assert_eq!(active, json!(["0"]), "only GPU 0 steps");
    std::fs::write(artifacts().join("sim-scatter-gather.png"), scatter.screenshot().await.unwrap())
        .unwrap();

    // --- Gradient accumulation, lesson 7: the default MLP rebuilds into 3 buckets (1 MiB
    // first, then 25 MiB), so 4 micro-batches all-reduce 12 times without no_sync, 3 with. ---
    c.goto(&format!("{base}/lessons/accumulation-and-mixed-precision")).await.unwrap();
    wait_for_hydration(&c, "lesson 7 to hydrate").await;
    let acc = sim(&c, "accumulation").await;
    let counts = c
        .execute(
            r#"return [...document.querySelectorAll('[data-sim="accumulation"] [data-role=accumulation-cost] tbody tr:first-child td')].map(td => td.textContent.trim())"#,
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(counts, json!(["12", "3"]), "all-reduces per optimizer step");
    let next = within(&acc, ".sim-step").await;
    click(&c, &next).await;
    wait_for("the first micro-batch", || async {
        within(&acc, "[data-role=so-far]").await.text().await.unwrap()
            == "All-reduces so far: 3 without no_sync, 0 with it."
    })
    .await;
    for _ in 0..3 {
        click(&c, &next).await;
    }
    wait_for("the synced micro-batch", || async {
        within(&acc, "[data-role=so-far]").await.text().await.unwrap()
            == "All-reduces so far: 12 without no_sync, 3 with it."
    })
    .await;
    std::fs::write(artifacts().join("sim-accumulation.png"), acc.screenshot().await.unwrap())
        .unwrap();

    // --- Memory per GPU, lesson 10: the ZeRO paper's example, then fewer GPUs. ---
    c.goto(&format!("{base}/lessons/when-ddp-is-not-enough")).await.unwrap();
    wait_for_hydration(&c, "lesson 10 to hydrate").await;
    let memory = sim(&c, "memory").await;
    let totals = || async {
        let v = c
            .execute(
                r#"return [...document.querySelectorAll('[data-sim="memory"] .memory-row')].map(r => [r.dataset.totalGb, r.classList.contains('fits')])"#,
                vec![],
            )
            .await
            .unwrap();
        serde_json::from_value::<Vec<(String, bool)>>(v).unwrap()
    };
    assert_eq!(
        totals().await,
        [
            ("120.000".to_string(), false),
            ("31.406".to_string(), true),
            ("16.641".to_string(), true),
            ("1.875".to_string(), true)
        ]
    );
    set_number(&c, &memory, "GPUs", 8).await;
    wait_for("8 GPUs", || async { totals().await[3].0 == "15.000" }).await;
    assert_eq!(totals().await[0].0, "120.000", "DDP shards nothing");
    std::fs::write(artifacts().join("sim-memory.png"), memory.screenshot().await.unwrap()).unwrap();
    // On a phone the legend wraps, an entry at a time: each swatch stays on its name's line,
    // just before it (a swatch had wrapped away, leaving names beside the wrong colour).
    c.set_window_size(390, 844).await.unwrap();
    let entries = c
        .execute(
            r#"return [...document.querySelectorAll('[data-sim="memory"] .legend li')].map(li => {
                 const swatch = li.querySelector('.part, .gpu-line-swatch').getBoundingClientRect();
                 const range = document.createRange();
                 range.selectNodeContents([...li.childNodes].filter(n => n.nodeType === 3).pop());
                 const lines = [...range.getClientRects()];
                 const mid = (swatch.top + swatch.bottom) / 2;
                 return [li.textContent, lines.length, mid > lines[0].top && mid < lines[0].bottom,
                         Math.round(lines[0].left - swatch.right)];
               })"#,
            vec![],
        )
        .await
        .unwrap();
    let entries: Vec<(String, usize, bool, i64)> = serde_json::from_value(entries).unwrap();
    assert_eq!(entries.len(), 5, "{entries:?}");
    for (name, lines, beside, gap) in &entries {
        assert!(*lines == 1 && *beside && (0..=12).contains(gap), "{name}: {entries:?}");
    }

    c.close().await.unwrap();
}

/// Presses and releases `key` on whatever has focus, as a keyboard would (WebDriver's key
/// actions; sending keys to an element would focus it first).
async fn press(c: &Client, key: impl Into<char>) {
    let key = key.into();
    let keys = KeyActions::new("keyboard".into())
        .then(KeyAction::Down { value: key })
        .then(KeyAction::Up { value: key });
    c.perform_actions(keys).await.unwrap();
}

/// Tabs through the page until the element `css` has focus; every stop on the way must show a
/// focus ring.
async fn tab_to(c: &Client, css: &str) {
    for _ in 0..400 {
        press(c, Key::Tab).await;
        let here = c
            .execute(
                "const e = document.activeElement; \
                 return [e.matches(arguments[0]), getComputedStyle(e).outlineStyle, e.outerHTML.slice(0, 120)]",
                vec![json!(css)],
            )
            .await
            .unwrap();
        // Past the page's last stop focus leaves for the browser's own UI and `body` is active.
        if here[2].as_str().unwrap().starts_with("<body") {
            continue;
        }
        assert_ne!(here[1], "none", "focus is visible on {}", here[2]);
        if here[0] == true {
            return;
        }
    }
    panic!("Tab never reached `{css}`");
}

async fn focused_is(c: &Client, css: &str) -> bool {
    c.execute("return document.activeElement.matches(arguments[0])", vec![json!(css)])
        .await
        .unwrap()
        == true
}

/// The issue's accessibility demands, driven with keys only and with reduced motion asked for:
/// every control has a name, Tab reaches the controls, Enter and Space drive them, focus is
/// never lost, and nothing animates.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn simulations_by_keyboard_with_reduced_motion() {
    let tmp = tempfile::tempdir().unwrap();
    let base = serve_course(tmp.path()).await;
    let (_driver, webdriver) = start_chromedriver().await;
    let c =
        browser(&webdriver, &tmp.path().join("profile"), &["--force-prefers-reduced-motion"]).await;
    c.goto(&format!("{base}/lessons/ddp-allreduce")).await.unwrap();
    wait_for_hydration(&c, "lesson 3 to hydrate").await;

    let unnamed = c
        .execute(
            "return [...document.querySelectorAll('.sim :is(button, input, select)')] \
                .filter(e => !(e.closest('label') || e.getAttribute('aria-label') || e.textContent.trim())) \
                .map(e => e.outerHTML)",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(unnamed, json!([]), "every control in a simulation has a name");

    // Step the ring to the end with Enter; focus stays on the button when it has no more steps.
    let ring_next = r#"[data-sim="ring-allreduce"] .sim-step"#;
    tab_to(&c, ring_next).await;
    let position = || async {
        text(&c, r#"[data-sim="ring-allreduce"] .sim-position"#).await.unwrap_or_default()
    };
    for step in 1..=4 {
        press(&c, Key::Enter).await;
        wait_for("a step by keyboard", || async {
            position().await == format!("Step {step} of 4")
        })
        .await;
        if step == 1 {
            // A step's marks are what fades in, when motion is not turned down.
            let motion = c
                .execute(
                    "return [matchMedia('(prefers-reduced-motion: reduce)').matches, \
                             getComputedStyle(document.querySelector('.ring-table .cell > .added')).transitionDuration, \
                             getComputedStyle(document.documentElement).scrollBehavior]",
                    vec![],
                )
                .await
                .unwrap();
            assert_eq!(motion, json!([true, "0s", "auto"]), "no transitions, no smooth scroll");
        }
    }
    assert!(focused_is(&c, ring_next).await, "focus stays on Next at the last step");
    press(&c, Key::Enter).await;
    assert_eq!(position().await, "Step 4 of 4", "nothing after the last step");
    assert_eq!(ring_values(&c).await, vec![vec![12.0, 15.0, 18.0]; 3]);

    // Reset is the next stop; Space presses it.
    press(&c, Key::Tab).await;
    assert!(focused_is(&c, r#"[data-sim="ring-allreduce"] .sim-reset"#).await);
    press(&c, ' ').await;
    wait_for("reset by keyboard", || async { position().await == "Start" }).await;

    // A number field: arrow up, then leave it. The table grows a rank.
    let ranks = r#"[data-sim="ring-allreduce"] .sim-head input[type=number]"#;
    tab_to(&c, ranks).await;
    press(&c, Key::Up).await;
    press(&c, Key::Tab).await;
    wait_for("a fourth rank", || async { ring_values(&c).await.len() == 4 }).await;

    // The tensor-size slider moves with the arrow keys and says its value.
    let slider = r#"[data-sim="ring-allreduce"] input[type=range]"#;
    tab_to(&c, slider).await;
    let before = c
        .execute("return document.activeElement.getAttribute('aria-valuetext')", vec![])
        .await
        .unwrap();
    press(&c, Key::Right).await;
    let after = c
        .execute("return document.activeElement.getAttribute('aria-valuetext')", vec![])
        .await
        .unwrap();
    assert_eq!((before, after), (json!("100.0 MB"), json!("400.0 MB")));

    // DP vs DDP: the GPU count from the keyboard moves the speedups.
    let speedups = || async {
        c.execute(
            r#"return ['ddp', 'dp'].map(k => document.querySelector(`[data-sim="dp-vs-ddp"] [data-role=speedup-${k}]`).textContent)"#,
            vec![],
        )
        .await
        .unwrap()
    };
    let was = speedups().await;
    tab_to(&c, r#"[data-sim="dp-vs-ddp"] input[type=range]"#).await;
    press(&c, Key::Down).await;
    wait_for("the speedups to move", || async { speedups().await != was }).await;

    c.close().await.unwrap();
}

/// A simulation out of view is the server's drawing until the reader comes near it: the page is
/// interactive without the simulations' part of the bundle, and nothing of it is downloaded; near
/// it, the part loads and the simulation is drawn live with what the server drew.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_simulation_out_of_view_is_drawn_live_when_the_reader_comes_near() {
    let tmp = tempfile::tempdir().unwrap();
    let base = serve_course(tmp.path()).await;
    let (_driver, webdriver) = start_chromedriver().await;
    let c = browser(&webdriver, &tmp.path().join("profile"), &[]).await;
    c.goto(&format!("{base}/lessons/ddp-allreduce")).await.unwrap();
    wait_for_hydration_only(&c, "lesson 3 to hydrate").await;
    catch_page_errors(&c).await;

    const STATE: &str = r#"
        const sim = document.querySelector('[data-sim="ring-allreduce"]');
        const controls = sim.querySelector('.sim-controls');
        return {
            below: sim.getBoundingClientRect().top / innerHeight,
            live: sim.hasAttribute('data-live'),
            controls: controls ? getComputedStyle(controls).display : 'missing',
            values: sim.querySelector('[data-role="values"]').innerText,
            explain: sim.querySelector('.sim-explain').innerText,
            part: performance.getEntriesByType('resource').some(e => /split_(collectives|timelines)_/.test(e.name)),
        };
    "#;
    tokio::time::sleep(std::time::Duration::from_millis(1500)).await;
    let before = c.execute(STATE, vec![]).await.unwrap();
    assert!(before["below"].as_f64().unwrap() > 1.5, "the ring is out of view: {before}");
    assert_eq!(before["live"], json!(false), "{before}");
    assert_eq!(before["controls"], json!("none"), "no controls before it is live: {before}");
    assert_eq!(before["part"], json!(false), "the simulations' part is not downloaded: {before}");
    assert!(before["values"].as_str().unwrap().contains('9'), "the server's first frame: {before}");

    let ring = sim(&c, "ring-allreduce").await;
    wait_for("the ring drawn live", || async {
        c.execute(STATE, vec![]).await.unwrap()["live"] == json!(true)
    })
    .await;
    let after = c.execute(STATE, vec![]).await.unwrap();
    assert_eq!(after["part"], json!(true), "{after}");
    assert_ne!(after["controls"], json!("none"), "{after}");
    assert_eq!(
        (&after["values"], &after["explain"]),
        (&before["values"], &before["explain"]),
        "drawn live, it shows what the server drew"
    );
    click(&c, &within(&ring, ".sim-step").await).await;
    wait_for("a step of the ring", || async {
        ring_values(&c).await != vec![vec![1.0, 2.0, 3.0], vec![4.0, 5.0, 6.0], vec![7.0, 8.0, 9.0]]
    })
    .await;
    assert_eq!(page_errors(&c).await, json!([]), "no error in the page");
    c.close().await.unwrap();
}
