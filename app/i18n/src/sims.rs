//! The simulations' words: captions, controls and labels, in each language.

/// Every word the simulations show.
pub struct SimWords {
    pub play: &'static str,
}

pub static EN: SimWords = SimWords { play: "▶ Play" };

pub static KO: SimWords = SimWords { play: "▶ 재생" };
