//! `lockstep submit FILE`: the terminal client. Submits a script to a Lockstep server with the
//! learner's API token (made on the account page) and, with `--wait`, follows its live events
//! to the verdict. Blocking IO: it is a command, not a server.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::time::Duration;

use grading_protocol::live::Event;
use grading_protocol::{Status, Verdict};
use lockstep_routes::Lang;

#[derive(Debug, thiserror::Error)]
pub enum SubmitError {
    #[error("cannot read {path}: {source}")]
    Read { path: String, source: std::io::Error },
    #[error("{0}")]
    Refused(String),
    #[error("cannot reach the server: {0}")]
    Network(String),
    #[error("the server answered something this client cannot read: {0}")]
    Protocol(String),
}

impl SubmitError {
    /// Exit code: 2 for what the learner can fix (the file, the token, the script), 3 when the
    /// server could not be reached or understood.
    pub fn exit_code(&self) -> u8 {
        match self {
            SubmitError::Read { .. } | SubmitError::Refused(_) => 2,
            SubmitError::Network(_) | SubmitError::Protocol(_) => 3,
        }
    }
}

pub struct Request<'a> {
    pub server: &'a str,
    pub token: &'a str,
    pub exercise: &'a str,
    pub file: &'a Path,
    /// The language of the progress lines and the report.
    pub lang: Lang,
}

/// What came of a submission: its id and, when waited for, its verdict.
pub struct Submitted {
    pub id: i64,
    pub url: String,
    pub verdict: Option<Verdict>,
    /// Where each check of the verdict is taught, in the request's language, by check id.
    pub sections: BTreeMap<String, String>,
    /// Why there is no verdict although it was waited for (the platform gave up, or it was
    /// cancelled).
    pub ended_without: Option<String>,
}

impl Submitted {
    /// 0 pass, 1 fail, 2 error, timeout or no verdict; 0 when not waited for.
    pub fn exit_code(&self) -> u8 {
        match (&self.verdict, &self.ended_without) {
            (Some(v), _) => match v.status {
                Status::Pass => 0,
                Status::Fail => 1,
                Status::Error | Status::Timeout => 2,
            },
            (None, Some(_)) => 2,
            (None, None) => 0,
        }
    }
}

fn read_json(mut r: lockstep_client::Response) -> Result<serde_json::Value, SubmitError> {
    let status = r.status();
    let body: serde_json::Value =
        r.body_mut().read_json().map_err(|e| SubmitError::Protocol(format!("{status}: {e}")))?;
    if !status.is_success() {
        let why = body["error"].as_str().map_or_else(|| body.to_string(), str::to_string);
        return Err(SubmitError::Refused(format!("{}: {why}", status.as_u16())));
    }
    Ok(body)
}

/// Submits the file; with `wait`, follows the grading, telling `progress` each step in words.
pub fn submit(
    req: &Request,
    wait: bool,
    progress: &mut dyn FnMut(&str),
) -> Result<Submitted, SubmitError> {
    let script = std::fs::read(req.file)
        .map_err(|source| SubmitError::Read { path: req.file.display().to_string(), source })?;
    let script = String::from_utf8(script).map_err(|_| {
        SubmitError::Refused(format!("{} is not UTF-8 text: save it as UTF-8", req.file.display()))
    })?;
    let file_name = req.file.file_name().map(|n| n.to_string_lossy().into_owned());
    // Only the connection is timed: the events stream stays open while the grade runs.
    let timeout = lockstep_client::Timeout::Connect(Duration::from_secs(15));
    let api = lockstep_client::Server::new(req.server, req.token, timeout);
    let network = |e: lockstep_client::ClientError| SubmitError::Network(e.to_string());
    let body =
        serde_json::json!({ "exercise": req.exercise, "file_name": file_name, "script": script });
    let response = api.post(lockstep_routes::SUBMISSIONS_API, &body).map_err(network)?;
    let created = read_json(response)?;
    let id = created["id"].as_i64().ok_or_else(|| SubmitError::Protocol(created.to_string()))?;
    let url = api.url(&lockstep_routes::submission(id));
    let mut submitted =
        Submitted { id, url, verdict: None, sections: BTreeMap::new(), ended_without: None };
    if !wait {
        return Ok(submitted);
    }
    progress(&(lockstep_i18n::t(req.lang).terminal.submitted)(id, &submitted.url));
    let events = lockstep_routes::submission_events(id);
    let mut last_id: Option<String> = None;
    // Follow the events; a dropped connection resumes after the last event seen.
    let ended = 'follow: loop {
        let response = api.get(&events, last_id.as_deref()).map_err(network)?;
        if response.status() == 204 {
            break None;
        }
        if !response.status().is_success() {
            return Err(read_json(response)
                .err()
                .unwrap_or(SubmitError::Protocol("events".into())));
        }
        let reader = BufReader::new(response.into_body().into_reader());
        let (mut id, mut data) = (None, String::new());
        for line in reader.lines() {
            let Ok(line) = line else { continue 'follow };
            if let Some(v) = line.strip_prefix("id:") {
                id = Some(v.trim().to_string());
            } else if let Some(v) = line.strip_prefix("data:") {
                data.push_str(v.trim());
            } else if line.is_empty() && !data.is_empty() {
                last_id = id.take().or(last_id);
                let event: Event = serde_json::from_str(&std::mem::take(&mut data))
                    .map_err(|e| SubmitError::Protocol(e.to_string()))?;
                if let Some(words) = describe(&event, req.lang) {
                    progress(&words);
                }
                match event {
                    Event::Verdict { .. } => break 'follow None,
                    Event::Failed { reason } => break 'follow Some(reason),
                    Event::Cancelled => break 'follow Some("cancelled".into()),
                    _ => {}
                }
            }
        }
        // The stream ended without a final event: reconnect after a moment.
        std::thread::sleep(Duration::from_millis(500));
    };
    submitted.ended_without = ended;
    if submitted.ended_without.is_none() {
        let response = api.get(&lockstep_routes::submission_api(id), None).map_err(network)?;
        let shown = read_json(response)?;
        submitted.verdict = Some(
            serde_json::from_value(shown["verdict"].clone())
                .map_err(|e| SubmitError::Protocol(format!("the verdict: {e}")))?,
        );
        // A server from before the links gives none: the report falls back to the course's own.
        submitted.sections =
            serde_json::from_value(shown["sections"][req.lang.code()].clone()).unwrap_or_default();
    }
    Ok(submitted)
}

impl Submitted {
    /// The verdict's report in `lang`, each check linked to its section in that language.
    pub fn report(&self, lang: Lang) -> Option<String> {
        let verdict = self.verdict.as_ref()?;
        let section = |c: &grading_protocol::Check| match self.sections.get(c.id.as_str()) {
            Some(url) => url.clone(),
            None => c.section.url(),
        };
        Some(verdict.report_in(lang, &section))
    }
}

/// One line for the terminal per step; checks that passed are shown too, briefly.
fn describe(event: &Event, lang: Lang) -> Option<String> {
    let w = &lockstep_i18n::t(lang).terminal;
    Some(match event {
        Event::Queued { ahead } => (w.queued)(*ahead),
        Event::WaitingForNode(wait) => wait.describe_in(lang),
        Event::Started { worker, attempt, node: Some(node) } => {
            (w.started_on_node)(node, worker, *attempt)
        }
        Event::Started { worker, attempt, node: None } => (w.started)(worker, *attempt),
        Event::RunStarted { index, role, nproc } => (w.run_started)(*index, *nproc, role.as_str()),
        Event::RunFinished { index, wall_s, .. } => (w.run_finished)(*index, *wall_s),
        Event::Check { check } => {
            let status = check.status.as_str();
            format!("{status:>4} {}: {}", check.id.as_str(), check.message_in(lang))
        }
        Event::Requeued { reason } => (w.requeued)(reason),
        Event::Verdict { .. } => return None,
        Event::Failed { reason } => (w.gave_up)(reason),
        Event::Cancelled => w.cancelled.into(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A verdict graded before verdicts kept their sentences (real torch, an older runner).
    const OLD: &str =
        include_str!("../../../gpu-runner/protocol/tests/verdicts/module_forward.json");

    fn submitted(sections: &[(&str, &str)]) -> Submitted {
        Submitted {
            id: 7,
            url: "http://x/submissions/7".into(),
            verdict: Some(serde_json::from_str(OLD).unwrap()),
            sections: sections.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
            ended_without: None,
        }
    }

    #[test]
    fn the_report_links_each_check_to_the_section_the_server_gave_for_the_language() {
        let ko = "/ko/lessons/ddp-allreduce#backward-중에-bucket-단위로";
        let report = submitted(&[("replicas_in_sync", ko)]).report(Lang::Ko).unwrap();
        assert!(
            report.starts_with("실패: 1 of 10 checks failed"),
            "an old verdict's own words: {report}"
        );
        assert!(report.contains(&format!("참고 {ko}")), "{report}");
        // A server that gave no links: the course's own section.
        let report = submitted(&[]).report(Lang::En).unwrap();
        assert!(report.contains(
            "see /lessons/ddp-allreduce#backward-bucketed-all-reduce-overlapped-with-computation"
        ));
    }

    #[test]
    fn live_steps_in_korean() {
        let said = |e: Event| describe(&e, Lang::Ko).unwrap();
        assert_eq!(said(Event::Queued { ahead: 2 }), "대기열에 들어감, 앞에 2개");
        assert_eq!(said(Event::Cancelled), "취소됨");
        assert_eq!(describe(&Event::Cancelled, Lang::En).unwrap(), "cancelled");
    }

    /// Japanese has no terminal words of its own: `--lang=ja` prints English's, report and
    /// all (its sections are the server's links in Japanese, where it serves Japanese).
    #[test]
    fn a_language_without_terminal_words_prints_english() {
        for event in [Event::Queued { ahead: 2 }, Event::Cancelled] {
            assert_eq!(describe(&event, Lang::Ja), describe(&event, Lang::En));
        }
        let w = |lang| &lockstep_i18n::t(lang).terminal;
        assert_eq!((w(Lang::Ja).submitted)(3, "/s/3"), (w(Lang::En).submitted)(3, "/s/3"));
        let report = |lang| submitted(&[]).report(lang).unwrap();
        assert_eq!(report(Lang::Ja), report(Lang::En));
        assert_eq!("ja".parse::<Lang>(), Ok(Lang::Ja));
    }
}
