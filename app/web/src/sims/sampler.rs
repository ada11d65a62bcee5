//! `sampler`: which dataset indices each rank iterates in an epoch, exactly as PyTorch's
//! `DistributedSampler` yields them, with padding duplicates and `drop_last` marked, and what
//! forgetting `set_epoch` does.

use std::fmt::Write;
use std::sync::Arc;

use leptos::prelude::*;
use lockstep_embed::Sampler;
use lockstep_i18n::sims::SimWords;
use sim_engine::sampler::DistributedSampler;

use super::window::{windowed, Measure};
use super::{longest, Explain, NumberField, Player};

/// Epochs the player steps through after the first.
const EPOCHS: usize = 9;

#[derive(Debug, Clone, PartialEq)]
pub struct SamplerModel {
    pub len: usize,
    /// The epoch the sampler is at: the loop's epoch, or 0 when it never calls `set_epoch`.
    pub sampler_epoch: u64,
    /// Each rank's indices, in order.
    pub shards: Vec<Vec<u64>>,
    /// Whether each position of each shard is padding.
    pub padding: Vec<Vec<bool>>,
    /// For each dataset index, the ranks that get it (none when `drop_last` drops it).
    pub owners: Vec<Vec<usize>>,
}

impl SamplerModel {
    pub fn new(p: &Sampler, loop_epoch: u64) -> Result<SamplerModel, String> {
        let sampler_epoch = if p.set_epoch { loop_epoch } else { 0 };
        let mut shards = Vec::new();
        let mut padding = Vec::new();
        let mut owners = vec![Vec::new(); p.len];
        // Every rank shards the same order: drawn once, not once per rank (a sixteenth of the
        // work at 16 ranks).
        let mut order = None;
        for rank in 0..p.replicas {
            let s = DistributedSampler::new(
                p.len,
                p.replicas,
                rank as i64,
                p.shuffle,
                p.seed,
                p.drop_last,
            )
            .map_err(|e| e.to_string())?;
            if order.is_none() {
                order = Some(s.order(sampler_epoch).map_err(|e| e.to_string())?);
            }
            let shard = s.indices_of(order.as_ref().and_then(Option::as_ref));
            for &i in &shard {
                if !owners[i as usize].contains(&rank) {
                    owners[i as usize].push(rank);
                }
            }
            padding.push((0..shard.len()).map(|k| s.is_padding(k)).collect());
            shards.push(shard);
        }
        Ok(SamplerModel { len: p.len, sampler_epoch, shards, padding, owners })
    }

    pub fn dropped(&self) -> usize {
        self.owners.iter().filter(|o| o.is_empty()).count()
    }

    pub fn padded(&self) -> usize {
        self.padding.iter().flatten().filter(|&&p| p).count()
    }
}

#[component]
pub fn SamplerView(params: Sampler) -> impl IntoView {
    let w = crate::page::use_t().sims;
    let t = &w.sampler;
    let first_epoch = params.epoch;
    let state = RwSignal::new(params);
    let step = RwSignal::new(0usize);
    let loop_epoch = move || first_epoch + step.get() as u64;
    // Shared: what a step changed is written by comparing the model before it with the model
    // after it, and a clone of the whole would be two thousand vectors an epoch.
    let model =
        Memo::new(move |_| state.with(|p| SamplerModel::new(p, loop_epoch()).map(Arc::new)));

    let toggle =
        move |label: &'static str, get: fn(&Sampler) -> bool, set: fn(&mut Sampler, bool)| {
            view! {
                <label class="toggle">
                    <input
                        type="checkbox"
                        prop:checked=move || state.with(get)
                        on:change=move |ev| {
                            let on = event_target_checked(&ev);
                            state.update(|p| set(p, on));
                        }
                    />
                    {label}
                </label>
            }
        };
    let number = move |label: &'static str,
                       get: fn(&Sampler) -> i64,
                       set: fn(&mut Sampler, i64),
                       min: i64,
                       max: i64| {
        let set = Callback::new(move |v: i64| state.update(|p| set(p, v)));
        view! { <NumberField label value=Signal::derive(move || state.with(get)) set min max/> }
    };

    view! {
        <header class="sim-head">
            <h3>{t.title}</h3>
            <div class="sim-params needs-js">
                {number(t.dataset_size, |p| p.len as i64, |p, v| p.len = v as usize, 1, lockstep_embed::MAX_SAMPLER_LEN as i64)}
                {number(w.ranks, |p| p.replicas as i64, |p, v| p.replicas = v as usize, 1, lockstep_embed::MAX_REPLICAS as i64)}
                {number(t.seed, |p| p.seed, |p, v| p.seed = v, i64::MIN / 2, i64::MAX / 2)}
                {toggle(t.shuffle, |p| p.shuffle, |p, v| p.shuffle = v)}
                {toggle(t.drop_last, |p| p.drop_last, |p, v| p.drop_last = v)}
                {toggle(t.set_epoch, |p| p.set_epoch, |p, v| p.set_epoch = v)}
            </div>
        </header>
        <Player step last=Signal::derive(|| EPOCHS) unit=&w.units.epoch label=t.label/>
        // The parameters give the shapes (ranks, places, padding); an epoch only changes which
        // index sits where, so a step updates numbers and colours in place.
        {move || {
            let params = state.get();
            match model.with_untracked(Clone::clone) {
                Ok(first) => view! { <SamplerBody first model loop_epoch=Signal::derive(loop_epoch) params w/> }.into_any(),
                Err(e) => view! { <p class="error">{e}</p> }.into_any(),
            }
        }}
    }
}

/// The ranks a dataset index went to, as its cell in the strip shows them: CSS class and text.
fn owner_look(owners: &[usize], w: &SimWords) -> (String, String) {
    match owners {
        [] => ("cell dropped".to_string(), w.sampler.dropped.to_string()),
        [r] => (format!("cell rank-{}", r % 8), format!("r{r}")),
        many => (
            format!("cell rank-{} duplicate", many[0] % 8),
            many.iter().map(|r| format!("r{r}")).collect::<Vec<_>>().join("+") + "*",
        ),
    }
}

/// What the ranks' rows and the dataset strip draw before the browser has said what is in view.
const FIRST_RANKS: (usize, usize) = (16, 48);
const FIRST_STRIP: (usize, usize) = (1, 48);

/// The ranks' indices and the dataset strip. Both draw only the chips in view (at 1,024 indices
/// on 16 ranks an epoch changes all 2,048 of them, which took some 50 ms drawn whole).
#[component]
fn SamplerBody(
    /// The model as the body is built: its shapes hold for every epoch of these parameters.
    first: Arc<SamplerModel>,
    model: Memo<Result<Arc<SamplerModel>, String>>,
    loop_epoch: Signal<u64>,
    params: Sampler,
    w: &'static SimWords,
) -> impl IntoView {
    let t = &w.sampler;
    let explain = move |loop_epoch: u64| {
        if !params.shuffle {
            t.no_shuffle.to_string()
        } else if params.set_epoch {
            (t.with_set_epoch)(loop_epoch, params.seed as i128 + loop_epoch as i128)
        } else {
            (t.without_set_epoch)(loop_epoch)
        }
    };
    let ranks = first.shards.len();
    let per_rank = first.shards.first().map_or(0, Vec::len);
    let padding = StoredValue::new(first.padding.clone());

    let (rank_window, rank_box, measure_ranks) = windowed(
        (ranks, per_rank),
        FIRST_RANKS,
        Measure {
            head: None,
            lead: Some(".rank-label"),
            row: Some(".rank-row"),
            col: ".rank-row:first-child .chip",
        },
    );
    let (strip_window, strip_box, measure_strip) = windowed(
        (1, first.len),
        FIRST_STRIP,
        Measure { head: None, lead: None, row: None, col: ".dataset-strip .cell" },
    );

    // A step writes the drawn chips' new indices itself, a row at a time, comparing the model
    // before it with the model after: one effect a row, where a text that followed the model in
    // each chip was some 200 effects run an epoch. A chip is drawn with the index it holds when
    // it comes into view, and its text is not Leptos's to update.
    let rank_row = move |r: usize| {
        // The whole shard, in view or not: one string, not one per index.
        let text = move || {
            model.with(|m| {
                let mut text = String::new();
                for i in m.as_ref().ok().and_then(|m| m.shards.get(r)).into_iter().flatten() {
                    if !text.is_empty() {
                        text.push(' ');
                    }
                    let _ = write!(text, "{i}");
                }
                text
            })
        };
        #[cfg(feature = "hydrate")]
        let texts = super::window::Drawn::<web_sys::Node>::new();
        let chip = move |k: usize| {
            let i = model
                .with_untracked(|m| m.as_ref().ok().and_then(|m| m.shards.get(r)?.get(k).copied()));
            let p = padding.with_value(|p| p[r][k]);
            let item = NodeRef::<leptos::html::Li>::new();
            #[cfg(feature = "hydrate")]
            texts.keep(k, item, |li| li.first_child());
            view! {
                <li class=format!("chip rank-{}{}", r % 8, if p { " padding" } else { "" }) title=if p { t.padding_title } else { "" } node_ref=item>
                    {i.map_or(String::new(), |i| i.to_string())}
                    {p.then(|| view! { <sup aria-label=t.padding>"*"</sup> })}
                </li>
            }
        };
        Effect::new(move |shown: Option<Option<Arc<SamplerModel>>>| {
            let now = model.with(|m| m.as_ref().ok().cloned());
            // New parameters rebuild the body, whose rows may then outlive their ranks.
            #[cfg(feature = "hydrate")]
            {
                let shards = |m: &Option<Arc<SamplerModel>>| m.as_ref()?.shards.get(r).cloned();
                if let (Some(was), Some(now)) = (shown.as_ref().and_then(shards), shards(&now)) {
                    texts.each(|k, text| {
                        if let (Some(i), true) = (now.get(k), was.get(k) != now.get(k)) {
                            text.set_node_value(Some(&i.to_string()));
                        }
                    });
                }
            }
            #[cfg(not(feature = "hydrate"))]
            let _ = shown;
            now
        });
        view! {
            <li class="rank-row" data-role="rank-indices" data-rank=r data-indices=text>
                <span class=format!("rank-label rank-{}", r % 8)>{(w.rank)(r)}</span>
                <ol class="chips" start=move || rank_window.get().cols.0 + 1>
                    <For
                        each=move || rank_window.get().drawn_cols()
                        key=|&k| k
                        children=chip
                    />
                </ol>
            </li>
        }
    };
    // The same for the dataset strip: one effect writes the class and the ranks of each drawn
    // cell whose ranks changed.
    #[cfg(feature = "hydrate")]
    let cells = super::window::Drawn::<(web_sys::Element, web_sys::Node)>::new();
    let cell = move |i: usize| {
        let (class, who) = model.with_untracked(|m| {
            m.as_ref().ok().and_then(|m| Some(owner_look(m.owners.get(i)?, w))).unwrap_or_default()
        });
        let item = NodeRef::<leptos::html::Li>::new();
        #[cfg(feature = "hydrate")]
        cells.keep(i, item, |li| {
            let who = li.last_element_child()?.first_child()?;
            Some((li.into(), who))
        });
        view! {
            <li class=class node_ref=item>
                <span class="index">{i}</span>
                <small>{who}</small>
            </li>
        }
    };
    Effect::new(move |shown: Option<Option<Arc<SamplerModel>>>| {
        let now = model.with(|m| m.as_ref().ok().cloned());
        #[cfg(feature = "hydrate")]
        if let (Some(Some(was)), Some(now)) = (&shown, &now) {
            cells.each(|i, (cell, who_text)| {
                let Some(owners) = now.owners.get(i) else { return };
                if was.owners.get(i) != Some(owners) {
                    let (class, who) = owner_look(owners, w);
                    cell.set_class_name(&class);
                    who_text.set_node_value(Some(&who));
                }
            });
        }
        #[cfg(not(feature = "hydrate"))]
        let _ = shown;
        now
    });
    let summary = move || {
        model.with(|m| {
            m.as_ref().map_or(String::new(), |m| {
                (t.summary)(
                    m.len,
                    m.shards.len(),
                    m.shards.first().map_or(0, Vec::len),
                    m.padded(),
                    m.dropped(),
                )
            })
        })
    };
    let digits = super::window::digits(first.len);
    // The strip's widest text: an index on every rank that got it ("r3+r12*"), or the word for
    // a dropped one.
    let copies = (ranks * per_rank).div_ceil(first.len.max(1)).max(1);
    let dropped = if params.drop_last { 2 * t.dropped.chars().count() } else { 0 };
    let who = (copies * (2 + super::window::digits(ranks))).max(dropped);
    view! {
        <Explain
            role="epoch"
            text=Signal::derive(move || explain(loop_epoch.get()))
            longest=longest((0..=EPOCHS as u64).map(|e| explain(params.epoch + e)))
        />
        <div
            class="sampler-box sampler-ranks"
            style=format!("--rows: {ranks}; --cols: {per_rank}; --digits: {digits}")
            node_ref=rank_box
            on:scroll=move |_| measure_ranks()
        >
            <div class="sampler-plane">
                <ol class="rank-rows" style=move || rank_window.get().place()>
                    <For
                        each=move || rank_window.get().drawn_rows()
                        key=|&r| r
                        children=rank_row
                    />
                </ol>
            </div>
        </div>
        <h4>{t.dataset_title}</h4>
        <div
            class="sampler-box sampler-strip"
            style=format!("--rows: 1; --cols: {}; --digits: {digits}; --who: {who}", first.len)
            node_ref=strip_box
            on:scroll=move |_| measure_strip()
        >
            <div class="sampler-plane">
                <ol class="dataset-strip" data-role="dataset" start=move || strip_window.get().cols.0 + 1 style=move || strip_window.get().place()>
                    <For
                        each=move || strip_window.get().drawn_cols()
                        key=|&i| i
                        children=cell
                    />
                </ol>
            </div>
        </div>
        <p class="muted" data-role="summary">{summary}</p>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(len: usize, replicas: usize, drop_last: bool, set_epoch: bool) -> Sampler {
        Sampler { len, replicas, seed: 0, epoch: 0, shuffle: true, drop_last, set_epoch }
    }

    #[test]
    fn lesson_four_example() {
        // torch: DistributedSampler(range(10), num_replicas=4, rank=2, seed=0), set_epoch(1)
        let m = SamplerModel::new(&params(10, 4, false, true), 1).unwrap();
        assert_eq!(m.shards[2], vec![1, 9, 5]);
        assert_eq!(m.padded(), 2, "12 places for 10 indices");
        assert_eq!(m.owners.iter().filter(|o| o.len() == 2).count(), 2);
        assert_eq!(m.dropped(), 0);
    }

    #[test]
    fn without_set_epoch_the_order_repeats() {
        let fixed: Vec<_> = (0..3)
            .map(|e| SamplerModel::new(&params(16, 2, false, false), e).unwrap().shards)
            .collect();
        assert!(fixed.iter().all(|s| s == &fixed[0]));
        let moving = SamplerModel::new(&params(16, 2, false, true), 1).unwrap();
        assert_ne!(moving.shards, fixed[0]);
        assert_eq!(SamplerModel::new(&params(16, 2, false, false), 5).unwrap().sampler_epoch, 0);
    }

    #[test]
    fn drop_last_drops_the_tail() {
        let m = SamplerModel::new(&params(10, 4, true, true), 0).unwrap();
        assert_eq!(m.shards.iter().map(Vec::len).collect::<Vec<_>>(), vec![2, 2, 2, 2]);
        assert_eq!(m.dropped(), 2);
        assert_eq!(m.padded(), 0);
    }
}
