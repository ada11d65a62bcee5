//! One check of a verdict, and the ids the web app and lessons refer to checks by.

use std::fmt;
use std::str::FromStr;

use lockstep_lang::{words, Words};
use lockstep_routes::Lang;
use serde::{Deserialize, Serialize};

#[cfg(feature = "words")]
use crate::Said;

/// Declares the checks, and [`CheckId::ALL`] from the same list, so that no check can be left out
/// of it. The serialized names are stable: stored verdicts and the web app use them.
macro_rules! check_ids {
    ($($variant:ident => $name:literal,)*) => {
        /// A check of some exercise. Which exercise's, in which order, and the section that
        /// teaches it: the exercise registry (`grading_checks::exercises`).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
        pub enum CheckId {
            $(#[serde(rename = $name)] $variant,)*
        }

        impl CheckId {
            /// Every check, in declaration order.
            pub const ALL: &'static [CheckId] = &[$(CheckId::$variant,)*];

            /// The id as it appears in JSON and in messages, e.g. `rank0_logging`.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(CheckId::$variant => $name,)*
                }
            }
        }
    };
}

check_ids! {
    Launched => "launched",
    DdpWrapped => "ddp_wrapped",
    SamplerSharding => "sampler_sharding",
    SamplerSetEpoch => "sampler_set_epoch",
    Rank0Logging => "rank0_logging",
    ReplicasInSync => "replicas_in_sync",
    CheckpointRank0Only => "checkpoint_rank0_only",
    CheckpointUnwrapped => "checkpoint_unwrapped",
    NoDeadlock => "no_deadlock",
    Speedup => "speedup",
    RestartedAndFinished => "restarted_and_finished",
    ResumedFromSnapshot => "resumed_from_snapshot",
    SamplerOrderResumed => "sampler_order_resumed",
    SnapshotRank0Only => "snapshot_rank0_only",
    FinalParamsMatch => "final_params_match",
}

impl CheckId {
    /// The check's name for learners, in `lang`: "Only rank 0 logs".
    pub fn title_in(self, lang: Lang) -> &'static str {
        self.words().0.get(lang)
    }

    /// What the check asks of a script, in a sentence, for the exercise page, in `lang`.
    pub fn asks_in(self, lang: Lang) -> &'static str {
        self.words().1.get(lang)
    }

    /// (title, asks): one match, each check's words in every language beside each other.
    fn words(self) -> (Words, Words) {
        match self {
            CheckId::Launched => (
                words! { En: "Launched as a process group", Ko: "process group으로 실행됨" },
                words! {
                    En: "Every process starts under torchrun and joins the process group with init_process_group.",
                    Ko: "모든 프로세스가 torchrun 아래에서 시작하고 init_process_group으로 process group에 들어갑니다.",
                },
            ),
            CheckId::DdpWrapped => (
                words! { En: "Model wrapped in DDP", Ko: "모델을 DDP로 감쌈" },
                words! {
                    En: "The model is wrapped in DistributedDataParallel and trained through the wrapper.",
                    Ko: "모델을 DistributedDataParallel로 감싸고, 그 wrapper를 통해 학습합니다.",
                },
            ),
            CheckId::SamplerSharding => (
                words! { En: "Data split between ranks", Ko: "rank마다 데이터를 나눠 가짐" },
                words! {
                    En: "A DistributedSampler gives each rank its own share of the dataset.",
                    Ko: "DistributedSampler가 rank마다 데이터셋의 서로 다른 몫을 줍니다.",
                },
            ),
            CheckId::SamplerSetEpoch => (
                words! { En: "set_epoch every epoch", Ko: "epoch마다 set_epoch 호출" },
                words! {
                    En: "sampler.set_epoch(epoch) runs at the start of each epoch, so the order changes from epoch to epoch.",
                    Ko: "각 epoch 시작에 sampler.set_epoch(epoch)를 불러 epoch마다 순서가 바뀝니다.",
                },
            ),
            CheckId::Rank0Logging => (
                words! { En: "Only rank 0 logs", Ko: "rank 0만 로그를 찍음" },
                words! {
                    En: "Progress is printed once per job, by global rank 0.",
                    Ko: "진행 상황은 job 전체에서 한 번, global rank 0만 출력합니다.",
                },
            ),
            CheckId::ReplicasInSync => (
                words! { En: "Replicas stay in sync", Ko: "replica들이 같은 상태를 유지함" },
                words! {
                    En: "Every rank ends with the same parameters.",
                    Ko: "모든 rank가 같은 파라미터로 끝납니다.",
                },
            ),
            CheckId::CheckpointRank0Only => (
                words! { En: "Only rank 0 writes the checkpoint", Ko: "rank 0만 checkpoint를 씀" },
                words! {
                    En: "One process writes the checkpoint, so no two writers race on one file.",
                    Ko: "프로세스 하나만 checkpoint를 써서, 한 파일을 두고 여러 프로세스가 경쟁하지 않습니다.",
                },
            ),
            CheckId::CheckpointUnwrapped => (
                words! { En: "Checkpoint of the unwrapped model", Ko: "감싸지 않은 모델의 checkpoint" },
                words! {
                    En: "The checkpoint is model.module's state_dict: it loads into a plain model, without DDP.",
                    Ko: "checkpoint가 model.module의 state_dict라서 DDP 없이 일반 모델에 그대로 로드됩니다.",
                },
            ),
            CheckId::NoDeadlock => (
                words! { En: "No deadlock", Ko: "deadlock 없음" },
                words! {
                    En: "Every rank reaches the end: no collective or barrier waits for a rank that never comes.",
                    Ko: "모든 rank가 끝까지 갑니다. 오지 않는 rank를 기다리는 collective나 barrier가 없습니다.",
                },
            ),
            CheckId::Speedup => (
                words! { En: "Faster than one process", Ko: "프로세스 하나보다 빠름" },
                words! {
                    En: "N processes get through the data faster than one, in samples per second.",
                    Ko: "N개의 프로세스가 프로세스 하나보다 초당 더 많은 샘플을 처리합니다.",
                },
            ),
            CheckId::RestartedAndFinished => (
                words! { En: "Restarted and finished", Ko: "재시작 후 끝까지 완료" },
                words! {
                    En: "After a rank is killed in the middle of an epoch, torchrun restarts the job and it finishes.",
                    Ko: "epoch 중간에 rank 하나가 죽으면 torchrun이 job을 재시작하고, job이 끝까지 갑니다.",
                },
            ),
            CheckId::ResumedFromSnapshot => (
                words! { En: "Resumed from the snapshot", Ko: "snapshot에서 이어서 학습" },
                words! {
                    En: "The restarted job continues from its last snapshot, not from epoch 0.",
                    Ko: "재시작한 job이 epoch 0이 아니라 마지막 snapshot부터 이어 갑니다.",
                },
            ),
            CheckId::SamplerOrderResumed => (
                words! { En: "Same data order as without the crash", Ko: "crash가 없었을 때와 같은 데이터 순서" },
                words! {
                    En: "After the restart each rank sees the samples an uninterrupted run would have shown it.",
                    Ko: "재시작 뒤에도 각 rank는 중단 없이 돌았을 때 받았을 샘플을 그대로 받습니다.",
                },
            ),
            CheckId::SnapshotRank0Only => (
                words! { En: "Only rank 0 writes the snapshot", Ko: "rank 0만 snapshot을 씀" },
                words! {
                    En: "One process writes the snapshot file.",
                    Ko: "프로세스 하나만 snapshot 파일을 씁니다.",
                },
            ),
            CheckId::FinalParamsMatch => (
                words! { En: "Same final parameters as without the crash", Ko: "crash가 없었을 때와 같은 최종 파라미터" },
                words! {
                    En: "The interrupted-and-resumed run ends with the parameters of a run that was never interrupted.",
                    Ko: "중단됐다가 이어서 학습한 run이 한 번도 중단되지 않은 run과 같은 파라미터로 끝납니다.",
                },
            ),
        }
    }
}

impl fmt::Display for CheckId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownCheckId(pub String);

impl fmt::Display for UnknownCheckId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let known: Vec<&str> = CheckId::ALL.iter().map(|c| c.as_str()).collect();
        write!(f, "unknown check `{}`: the checks are {}", self.0, known.join(", "))
    }
}

impl std::error::Error for UnknownCheckId {}

impl FromStr for CheckId {
    type Err = UnknownCheckId;

    fn from_str(s: &str) -> Result<CheckId, UnknownCheckId> {
        CheckId::ALL
            .iter()
            .copied()
            .find(|c| c.as_str() == s)
            .ok_or_else(|| UnknownCheckId(s.to_string()))
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CheckStatus {
    Pass,
    Fail,
    /// Not evaluated: what it needs never happened (the message says what).
    Skip,
}

impl CheckStatus {
    /// As serialized: `pass`, `fail`, `skip`.
    pub fn as_str(self) -> &'static str {
        match self {
            CheckStatus::Pass => "pass",
            CheckStatus::Fail => "fail",
            CheckStatus::Skip => "skip",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Check {
    pub id: CheckId,
    pub status: CheckStatus,
    pub required: bool,
    /// The evidence, in words, with the numbers.
    pub message: String,
    /// What to do about a failure; absent when it passed.
    pub hint: Option<String>,
    /// The lesson section that teaches it, by id: the page that shows the check builds its
    /// URL, in the reader's language. Verdicts stored before it was an id carry the English
    /// URL under `lesson`, which is read as the ids it names.
    #[serde(alias = "lesson", deserialize_with = "section_or_url")]
    pub section: Section,
    /// `message` and `hint` as sentences, worded in the reader's language when shown; absent
    /// from verdicts graded before they were kept, which have only the English text.
    #[cfg(feature = "words")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub words: Option<Box<CheckWords>>,
}

/// What a check said, as sentences: see [`Said`].
#[cfg(feature = "words")]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CheckWords {
    pub message: Said,
    pub hint: Option<Said>,
}

impl Check {
    /// The evidence in `lang` (in English where the verdict predates its sentences). Without
    /// the `words` feature (the browser), the text as the server sent it, which it worded in
    /// the page's language ([`Check::in_language`]).
    pub fn message_in(&self, lang: Lang) -> String {
        #[cfg(feature = "words")]
        if let Some(w) = &self.words {
            return w.message.say(lang);
        }
        let _ = lang;
        self.message.clone()
    }

    /// The hint in `lang`, as [`Check::message_in`].
    pub fn hint_in(&self, lang: Lang) -> Option<String> {
        #[cfg(feature = "words")]
        if let Some(CheckWords { hint: Some(hint), .. }) = self.words.as_deref() {
            return Some(hint.say(lang));
        }
        let _ = lang;
        self.hint.clone()
    }

    /// The check with its text worded in `lang` and its sentences dropped: what a page in
    /// that language needs, without the sentences' code in the browser.
    #[cfg(feature = "words")]
    pub fn in_language(mut self, lang: Lang) -> Check {
        self.message = self.message_in(lang);
        self.hint = self.hint_in(lang);
        self.words = None;
        self
    }
}

/// A lesson section by id: the lesson's slug and the id of one of its headings.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Section {
    pub lesson: String,
    pub heading: String,
}

impl Section {
    pub fn new(lesson: &str, heading: &str) -> Section {
        Section { lesson: lesson.into(), heading: heading.into() }
    }

    /// Its page in the course's own language, for a reader who has no course at hand to map
    /// its heading into a translation.
    pub fn url(&self) -> String {
        lockstep_routes::lesson_section(&self.lesson, Some(&self.heading))
    }
}

fn section_or_url<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Section, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Either {
        Ids(Section),
        Url(String),
    }
    match Either::deserialize(d)? {
        Either::Ids(section) => Ok(section),
        Either::Url(url) => match lockstep_routes::parse_lesson_section(&url) {
            Some((lesson, Some(heading))) => Ok(Section::new(lesson, heading)),
            _ => Err(serde::de::Error::custom(format!("`{url}` is not a lesson section"))),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_serialize_as_their_names() {
        for &id in CheckId::ALL {
            assert_eq!(serde_json::to_value(id).unwrap(), id.as_str());
            assert_eq!(serde_json::from_value::<CheckId>(id.as_str().into()).unwrap(), id);
            assert_eq!(id.as_str().parse::<CheckId>(), Ok(id));
        }
        let err = "rank_0_logging".parse::<CheckId>().unwrap_err().to_string();
        assert!(err.contains("the checks are launched, ddp_wrapped"), "{err}");
    }

    #[test]
    fn a_section_is_ids_and_a_stored_url_reads_as_them() {
        let check = |section: &str| {
            let json = format!(
                r#"{{"id": "speedup", "status": "pass", "required": true, "message": "m", "hint": null, {section}}}"#
            );
            serde_json::from_str::<Check>(&json)
        };
        let new = check(r#""section": {"lesson": "distributed-sampler", "heading": "set-epoch"}"#);
        let old = check(r#""lesson": "/lessons/distributed-sampler#set-epoch""#);
        let new = new.unwrap();
        assert_eq!(new.section, Section::new("distributed-sampler", "set-epoch"));
        assert_eq!(old.unwrap(), new);
        let written = serde_json::to_value(&new).unwrap();
        assert_eq!(written["section"]["heading"], "set-epoch");
        assert!(written.get("lesson").is_none());
        assert!(check(r#""lesson": "https://example.org/x""#).is_err());
    }
}
