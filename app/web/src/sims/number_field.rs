//! A labelled number field for the simulations' parameters.

use leptos::prelude::*;

/// A labelled number field. What the learner types is clamped to `min..=max` before `set` sees
/// it; text that is not a number is ignored.
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
                prop:value=move || value.get().to_string()
                on:change=move |ev| {
                    if let Ok(v) = event_target_value(&ev).parse::<i64>() {
                        set.run(v.clamp(min, max));
                    }
                }
            />
        </label>
    }
}
