//! The one HTTP client of a Lockstep server, for the programs that talk to it from outside: the
//! grading worker (`gpu-runner worker`), the Slurm pilot supervisor (`lockstep-pilots`) and the
//! terminal client (`lockstep submit`). Each holds a bearer token (a worker's or a learner's)
//! and reaches the server's API by the paths `lockstep-routes` defines. Blocking IO (ureq):
//! they are commands, not servers.
//!
//! # What is where
//!
//! The one HTTP client of the server's API, for the programs outside it that hold a bearer token:
//! the grading worker, the Slurm pilot supervisor and `lockstep submit`. One `Server` (base URL,
//! token, time-out), `post`/`get` by the paths of `lockstep-routes`, and reading an answer as JSON
//! with refusals (401/403) told apart. Blocking ureq; no tch, no database.

use std::time::Duration;

use serde::de::DeserializeOwned;
use serde::Serialize;

pub use lockstep_routes as routes;

/// A server's answer: its status and body, however it went.
pub type Response = ureq::http::Response<ureq::Body>;

#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// The request did not get an answer: no connection, a time-out, a broken stream.
    #[error("{0}")]
    Network(String),
    /// 401 or 403: the token is wrong, revoked, or of the wrong kind.
    #[error("{status}: {body}")]
    Refused { status: u16, body: String },
    /// Another status than the caller expected, with what the server said.
    #[error("{status}: {body}")]
    Status { status: u16, body: String },
    /// An answer the caller cannot read.
    #[error("its answer: {0}")]
    Unreadable(String),
}

/// One server, one token.
pub struct Server {
    agent: ureq::Agent,
    base: String,
    authorization: String,
}

/// How long a request may take, whole (`Whole`: an API call) or only to connect (`Connect`: a
/// stream of events that stays open while a grade runs).
#[derive(Debug, Clone, Copy)]
pub enum Timeout {
    Whole(Duration),
    Connect(Duration),
}

impl Server {
    /// `base`: the server's address, e.g. `https://lockstep.example.org` (a trailing `/` is
    /// dropped).
    pub fn new(base: &str, token: &str, timeout: Timeout) -> Server {
        let config = ureq::Agent::config_builder().http_status_as_error(false);
        let config = match timeout {
            Timeout::Whole(t) => config.timeout_global(Some(t)),
            Timeout::Connect(t) => config.timeout_connect(Some(t)),
        };
        Server {
            agent: config.build().into(),
            base: base.trim_end_matches('/').to_string(),
            authorization: format!("Bearer {token}"),
        }
    }

    /// The full URL of one of the server's paths.
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// `POST path` with `body` as JSON; any status is an answer.
    pub fn post<T: Serialize>(&self, path: &str, body: &T) -> Result<Response, ClientError> {
        self.agent
            .post(&self.url(path))
            .header("Authorization", &self.authorization)
            .send_json(body)
            .map_err(|e| ClientError::Network(e.to_string()))
    }

    /// `GET path`, with `Last-Event-ID` when resuming a stream of events.
    pub fn get(&self, path: &str, last_event: Option<&str>) -> Result<Response, ClientError> {
        let mut get = self.agent.get(&self.url(path)).header("Authorization", &self.authorization);
        if let Some(id) = last_event {
            get = get.header("Last-Event-ID", id);
        }
        get.call().map_err(|e| ClientError::Network(e.to_string()))
    }
}

/// The body of an answer as text, for messages.
pub fn text(mut r: Response) -> String {
    r.body_mut().read_to_string().unwrap_or_default()
}

/// The body of a 2xx answer as `T`; a refusal or another status as an error with its text.
pub fn json<T: DeserializeOwned>(mut r: Response) -> Result<T, ClientError> {
    let status = r.status().as_u16();
    match status {
        200..=299 => r.body_mut().read_json().map_err(|e| ClientError::Unreadable(e.to_string())),
        401 | 403 => Err(ClientError::Refused { status, body: text(r) }),
        _ => Err(ClientError::Status { status, body: text(r) }),
    }
}
