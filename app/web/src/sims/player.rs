//! Play, pause, step and reset: the controls every simulation shares.

use std::time::Duration;

use leptos::prelude::*;
use lockstep_i18n::sims::Unit;

/// Given by the page to a simulation: called the first time the learner reaches its last step
/// by playing or stepping (the server records that it was explored).
#[derive(Clone, Copy)]
pub struct OnExplored(pub Callback<()>);

/// Drives `step` from 0 (the starting state) to `last`. Playing advances one step per second
/// and stops at the end; stepping by hand pauses first.
#[component]
pub fn Player(
    step: RwSignal<usize>,
    #[prop(into)] last: Signal<usize>,
    /// What the steps are, for the Next button and the position line: `step`, `epoch`, … of
    /// the catalogue's units.
    unit: &'static Unit,
    /// The name of the simulation, for the controls' group label.
    #[prop(into)]
    label: String,
    /// Shows `step` as a position; step 0 is the starting state.
    #[prop(optional)]
    start_label: Option<&'static str>,
) -> impl IntoView {
    let playing = RwSignal::new(false);
    // Whether the learner has pressed Play or Next: a simulation that starts at its last state
    // (DP vs DDP shows its whole timeline) is not explored by being looked at.
    let moved = StoredValue::new(false);
    let timer = StoredValue::new(None::<IntervalHandle>);
    let stop = move || {
        playing.set(false);
        if let Some(h) = timer.get_value() {
            h.clear();
        }
        timer.set_value(None);
    };
    let play = move || {
        moved.set_value(true);
        if step.get_untracked() >= last.get_untracked() {
            step.set(0);
        }
        playing.set(true);
        let tick = move || {
            step.update(|s| *s = (*s + 1).min(last.get_untracked()));
            if step.get_untracked() >= last.get_untracked() {
                stop();
            }
        };
        timer.set_value(set_interval_with_handle(tick, Duration::from_millis(1000)).ok());
    };
    on_cleanup(stop);
    if let Some(OnExplored(explored)) = use_context::<OnExplored>() {
        let told = StoredValue::new(false);
        Effect::new(move |_| {
            let at_end = step.get() >= last.get() && last.get() > 0;
            if at_end && moved.get_value() && !told.get_value() {
                told.set_value(true);
                explored.run(());
            }
        });
    }
    let w = crate::page::use_t().sims;
    view! {
        <div class="sim-controls needs-js" role="group" aria-label=(w.controls)(&label)>
            <button
                type="button"
                class="sim-play"
                aria-pressed=move || playing.get().to_string()
                on:click=move |_| if playing.get_untracked() { stop() } else { play() }
            >
                {move || if playing.get() { w.pause } else { w.play }}
            </button>
            <button
                type="button"
                class="sim-step"
                // Not `disabled`: a disabled button drops keyboard focus to the page, and a
                // learner stepping with Enter would lose their place at the last step.
                aria-disabled=move || (step.get() >= last.get()).to_string()
                on:click=move |_| {
                    stop();
                    // A control that shows itself disabled does nothing, and so earns nothing.
                    if step.get_untracked() >= last.get_untracked() {
                        return;
                    }
                    moved.set_value(true);
                    step.update(|s| *s += 1);
                }
            >
                {(w.next)(unit.name)}
            </button>
            <button
                type="button"
                class="sim-reset"
                on:click=move |_| {
                    stop();
                    step.set(0);
                }
            >
                {w.reset}
            </button>
        </div>
        <p class="sim-position" aria-live="polite">
            {move || match (step.get(), start_label) {
                (0, Some(start)) => start.to_string(),
                (s, _) => (unit.position)(s, last.get()),
            }}
        </p>
    }
}

/// What the current step does, in words, kept as tall as the longest of its texts (`longest`,
/// laid under it unseen): a text that wraps to more lines than the last would push the whole
/// simulation under it down, and the browser would paint all of it again for that step. (At
/// 64 ranks the ring's went from one line to two at its first step, which was its slowest.)
#[component]
pub fn Explain(
    /// The paragraph's `data-role`, which the tests read it by.
    role: &'static str,
    #[prop(into)] text: Signal<String>,
    /// The longest text `text` gives for these parameters.
    #[prop(into)]
    longest: Signal<String>,
) -> impl IntoView {
    view! {
        <p class="sim-explain stacked" data-role=role>
            <span>{text}</span>
            <span class="sizer" aria-hidden="true">{longest}</span>
        </p>
    }
}

/// The longest of `texts` (by characters; the box also grows for a text that is longer on the
/// page).
pub fn longest(texts: impl IntoIterator<Item = String>) -> String {
    texts.into_iter().max_by_key(|t| t.chars().count()).unwrap_or_default()
}
