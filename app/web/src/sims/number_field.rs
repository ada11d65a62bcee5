//! A labelled number field for the simulations' parameters.

use leptos::prelude::*;

/// A labelled number field, wide enough for `max`. What the learner types is clamped to
/// `min..=max` before `set` sees it; anything that is not a number gives the field back its
/// value, rather than leaving it empty with the simulation still at the old one.
#[component]
pub fn NumberField(
    label: &'static str,
    #[prop(into)] value: Signal<i64>,
    set: Callback<i64>,
    min: i64,
    max: i64,
) -> impl IntoView {
    view! {
        <label>
            {label}
            <input
                type="number"
                min=min
                max=max
                style=format!("width: {}ch", max.to_string().len() + 4)
                prop:value=move || value.get().to_string()
                on:change=move |ev| {
                    match event_target_value(&ev).trim().parse::<i64>() {
                        Ok(v) => set.run(v.clamp(min, max)),
                        Err(_) => restore(&ev, value.get_untracked()),
                    }
                }
            />
        </label>
    }
}

/// Writes `value` back into the field an event came from.
fn restore(ev: &leptos::ev::Event, value: i64) {
    #[cfg(feature = "hydrate")]
    event_target::<web_sys::HtmlInputElement>(ev).set_value(&value.to_string());
    #[cfg(not(feature = "hydrate"))]
    let _ = (ev, value);
}
