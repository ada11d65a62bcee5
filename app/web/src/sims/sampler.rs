//! `sampler`: which dataset indices each rank iterates in an epoch, exactly as PyTorch's
//! `DistributedSampler` yields them, with padding duplicates and `drop_last` marked, and what
//! forgetting `set_epoch` does.

use leptos::prelude::*;
use lockstep_embed::Sampler;
use lockstep_i18n::sims::SimWords;
use sim_engine::sampler::DistributedSampler;

use super::{NumberField, Player};

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
            let shard = s.indices(sampler_epoch).map_err(|e| e.to_string())?;
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
    let w = crate::use_t().sims;
    let t = &w.sampler;
    let first_epoch = params.epoch;
    let state = RwSignal::new(params);
    let step = RwSignal::new(0usize);
    let loop_epoch = move || first_epoch + step.get() as u64;
    let model = Memo::new(move |_| state.with(|p| SamplerModel::new(p, loop_epoch())));

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
        {move || {
            let epoch = loop_epoch();
            model.with(|m| match m {
                Ok(m) => view! { <SamplerBody model=m.clone() loop_epoch=epoch params=state.get() w/> }.into_any(),
                Err(e) => view! { <p class="error">{e.clone()}</p> }.into_any(),
            })
        }}
    }
}

#[component]
fn SamplerBody(
    model: SamplerModel,
    loop_epoch: u64,
    params: Sampler,
    w: &'static SimWords,
) -> impl IntoView {
    let t = &w.sampler;
    let explain = if !params.shuffle {
        t.no_shuffle.to_string()
    } else if params.set_epoch {
        (t.with_set_epoch)(loop_epoch, params.seed as i128 + loop_epoch as i128)
    } else {
        (t.without_set_epoch)(loop_epoch)
    };
    let ranks = model
        .shards
        .iter()
        .zip(&model.padding)
        .enumerate()
        .map(|(r, (shard, pad))| {
            let text: Vec<String> = shard.iter().map(u64::to_string).collect();
            let chips = shard
                .iter()
                .zip(pad)
                .map(|(&i, &p)| {
                    view! {
                        <li class=format!("chip rank-{}{}", r % 8, if p { " padding" } else { "" }) title=if p { t.padding_title } else { "" }>
                            {i.to_string()}
                            {p.then(|| view! { <sup aria-label=t.padding>"*"</sup> })}
                        </li>
                    }
                })
                .collect_view();
            view! {
                <li class="rank-row" data-role="rank-indices" data-rank=r data-indices=text.join(" ")>
                    <span class=format!("rank-label rank-{}", r % 8)>{(w.rank)(r)}</span>
                    <ol class="chips">{chips}</ol>
                </li>
            }
        })
        .collect_view();
    let cells = model
        .owners
        .iter()
        .enumerate()
        .map(|(i, owners)| {
            let (class, who) = match owners.as_slice() {
                [] => ("cell dropped".to_string(), t.dropped.to_string()),
                [r] => (format!("cell rank-{}", r % 8), format!("r{r}")),
                many => (
                    format!("cell rank-{} duplicate", many[0] % 8),
                    many.iter().map(|r| format!("r{r}")).collect::<Vec<_>>().join("+") + "*",
                ),
            };
            view! { <li class=class><span class="index">{i}</span><small>{who}</small></li> }
        })
        .collect_view();
    let summary = (t.summary)(
        model.len,
        model.shards.len(),
        model.shards.first().map_or(0, Vec::len),
        model.padded(),
        model.dropped(),
    );
    view! {
        <p class="sim-explain" data-role="epoch">{explain}</p>
        <ol class="rank-rows">{ranks}</ol>
        <h4>{t.dataset_title}</h4>
        <ol class="dataset-strip" data-role="dataset">{cells}</ol>
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
