//! The client against a real HTTP server on loopback: what it sends (the token, the JSON body,
//! `Last-Event-ID`) and how it reads each kind of answer.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::sync::mpsc;
use std::time::Duration;

use lockstep_client::{json, ClientError, Server, Timeout};

/// Serves one request with `status` and `body`, and sends back what it received.
fn answer_once(status: &str, body: &str) -> (String, mpsc::Receiver<String>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let (tx, rx) = mpsc::channel();
    let response = format!(
        "HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    );
    std::thread::spawn(move || {
        let (stream, _) = listener.accept().unwrap();
        let mut reader = BufReader::new(stream.try_clone().unwrap());
        let mut request = String::new();
        let mut length = 0;
        loop {
            let mut line = String::new();
            reader.read_line(&mut line).unwrap();
            if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                length = v.trim().parse().unwrap();
            }
            request.push_str(&line);
            if line == "\r\n" {
                break;
            }
        }
        let mut body = vec![0; length];
        reader.read_exact(&mut body).unwrap();
        request.push_str(&String::from_utf8(body).unwrap());
        (&stream).write_all(response.as_bytes()).unwrap();
        tx.send(request).unwrap();
    });
    (base, rx)
}

fn server(base: &str) -> Server {
    Server::new(&format!("{base}/"), "tok-123", Timeout::Whole(Duration::from_secs(10)))
}

#[test]
fn posts_json_with_the_token_and_reads_the_answer() {
    let (base, sent) = answer_once("200 OK", r#"{"due": 3}"#);
    let answer = server(&base).post("/api/worker/pilots", &serde_json::json!({"pilots": []}));
    let value: serde_json::Value = json(answer.unwrap()).unwrap();
    assert_eq!(value["due"], 3);
    let request = sent.recv().unwrap();
    assert!(request.starts_with("POST /api/worker/pilots HTTP/1.1\r\n"), "{request}");
    assert!(
        request.to_ascii_lowercase().contains("authorization: bearer tok-123\r\n"),
        "{request}"
    );
    let body: serde_json::Value =
        serde_json::from_str(request.split("\r\n\r\n").nth(1).unwrap()).unwrap();
    assert_eq!(body, serde_json::json!({"pilots": []}));
}

#[test]
fn resumes_a_stream_after_the_last_event() {
    let (base, sent) = answer_once("204 No Content", "");
    let answer = server(&base).get("/api/submissions/7/events", Some("41")).unwrap();
    assert_eq!(answer.status().as_u16(), 204);
    let request = sent.recv().unwrap().to_ascii_lowercase();
    assert!(request.starts_with("get /api/submissions/7/events http/1.1\r\n"), "{request}");
    assert!(request.contains("last-event-id: 41\r\n"), "{request}");
}

#[test]
fn refusals_other_statuses_and_unreadable_answers_are_told_apart() {
    let read = |status: &str, body: &str| {
        let (base, _sent) = answer_once(status, body);
        json::<serde_json::Value>(server(&base).get("/x", None).unwrap()).unwrap_err()
    };
    assert!(
        matches!(read("401 Unauthorized", "no token"), ClientError::Refused { status: 401, body } if body == "no token")
    );
    assert!(matches!(read("403 Forbidden", ""), ClientError::Refused { status: 403, .. }));
    assert!(
        matches!(read("500 Internal Server Error", "logged"), ClientError::Status { status: 500, body } if body == "logged")
    );
    assert!(matches!(read("200 OK", "not json"), ClientError::Unreadable(_)));
}

#[test]
fn an_unreachable_server_is_a_network_error() {
    let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let err = server(&format!("http://127.0.0.1:{port}")).get("/x", None).unwrap_err();
    assert!(matches!(err, ClientError::Network(_)), "{err:?}");
}
