//! What the pages show, as it crosses from server to browser (serialized into the page for
//! hydration, or returned by a server function).

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CourseOverview {
    pub title: String,
    pub summary: String,
    pub lessons: Vec<LessonCard>,
    pub completed: usize,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LessonCard {
    pub slug: String,
    /// 1-based position in the course.
    pub position: usize,
    pub title: String,
    pub minutes: u32,
    pub tags: Vec<String>,
    pub summary: String,
    pub xp: u32,
    pub completed: bool,
    /// False when the lesson file has problems and cannot be shown.
    pub available: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
// One value per request, moved once into the page: boxing the large variant would buy nothing.
#[allow(clippy::large_enum_variant)]
pub enum LessonLookup {
    Found(LessonView),
    /// The file exists but has problems; `problems` are `file:line: message` lines.
    Broken {
        title: String,
        problems: Vec<String>,
    },
    Missing,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LessonView {
    pub slug: String,
    pub position: usize,
    pub total: usize,
    pub title: String,
    pub minutes: u32,
    pub tags: Vec<String>,
    pub xp: u32,
    pub summary: String,
    /// The lesson text, rendered on the server from trusted lesson files (raw HTML in markdown is
    /// rejected there), with the simulations it embeds.
    pub body: Vec<BodyBlock>,
    pub toc: Vec<TocItem>,
    pub prev: Option<NeighbourLink>,
    pub next: Option<NeighbourLink>,
    pub completed: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum BodyBlock {
    Html(String),
    Simulation(lockstep_embed::Simulation),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TocItem {
    pub level: u8,
    pub id: String,
    pub title: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NeighbourLink {
    pub slug: String,
    pub title: String,
}
