//! The lessons' bundle's entry point (`lockstep_web::hydrates_only_islands`): the site's islands
//! and a lesson's own, which the site's other pages never load, with the simulations split off
//! into parts loaded when one comes near. A bundle of its own: as a part of the site's islands
//! bundle, the lesson's code and what it shared with the simulations' parts came in more files
//! and 20 kB (Brotli) more.
//!
//! # What is where
//!
//! The browser entry point of the lessons, which hydrate only their islands too
//! (`lockstep_web::hydrate_lesson`; `pages::lesson::islands`: the bell, the progress panel and
//! toast, each quiz, the completion, each simulation, the contents' toggle, and click listeners for
//! the copy buttons, the report link and the language switch). The islands share the learner's
//! state as the application's lesson does, read from what the server wrote into the page
//! (`data-role="lesson-parts"`, `LessonParts`: slug, XP, quizzes; `data-role="learner"` in the
//! progress part; `data-params` on each simulation). A bundle of its own in a folder of its own
//! (`lesson/lesson.js`, `lesson/lesson_bg.wasm`), built without `app` and with `split`: the
//! simulations are two parts of it (`sims::collectives`, `sims::timelines`), loaded when one comes
//! near. In the site's islands bundle the lesson's code made the site's pages 70 kB (Brotli)
//! larger; as a part of that bundle, a lesson loaded 20 kB more than with this one. Built only for
//! wasm32.

#[wasm_bindgen::prelude::wasm_bindgen]
pub fn hydrate() {
    lockstep_web::crash::install();
    lockstep_web::hydrate_lesson();
}
