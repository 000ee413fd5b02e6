//! An AG-UI endpoint in axum, for services that are not proxies: the handler reads the
//! `RunAgentInput` as its body streams in (axum `Body` data frames fed to
//! [`OwnedBodyParser`]), refuses a bad body as soon as a frame proves it bad, and holds the
//! parsed body ([`ParsedBody`], `Send + Sync + 'static`) across `.await`s, here by handing it
//! to another task, on tokio's multi-threaded runtime. It answers with an event stream.
//!
//! ```sh
//! cargo run --example axum_stream            # listens on 127.0.0.1:3000
//! curl -N -H 'content-type: application/json' --data-binary @samples/conversation.json \
//!     http://127.0.0.1:3000/run
//! ```

use agui_wire::stream::{OwnedBodyParser, ParsedBody};
use agui_wire::{ErrorKind, Message, ParseOptions};
use axum::Router;
use axum::body::Body;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use http_body_util::BodyExt;

/// The limits every body is held to.
fn options() -> ParseOptions {
    ParseOptions {
        max_input_bytes: 32 << 20,
        max_depth: 128,
        max_messages: 10_000,
        ..ParseOptions::default()
    }
}

/// A refused body: `413` for a crossed limit, `400` for an invalid document, with a JSON body
/// saying what, where and at which byte.
fn refuse(e: &agui_wire::Error) -> Response {
    let status = match e.kind() {
        ErrorKind::InputTooLarge { .. }
        | ErrorKind::DepthLimitExceeded(_)
        | ErrorKind::TooManyItems { .. } => StatusCode::PAYLOAD_TOO_LARGE,
        _ => StatusCode::BAD_REQUEST,
    };
    let body = serde_json::json!({ "error": e.kind().to_string(), "path": e.path(), "offset": e.offset() });
    (
        status,
        [(header::CONTENT_TYPE, "application/json")],
        body.to_string(),
    )
        .into_response()
}

/// Reads the body frame by frame into the parser. The parser lives across the `.await`s
/// between frames; a frame that makes the body invalid or too large ends the read at once.
async fn read_input(mut body: Body) -> Result<ParsedBody, Response> {
    let mut parser = OwnedBodyParser::with_capacity(options(), 64 << 10);
    while let Some(frame) = body.frame().await {
        let frame = frame.map_err(|e| {
            (StatusCode::BAD_REQUEST, format!("reading the body: {e}")).into_response()
        })?;
        if let Ok(data) = frame.into_data() {
            parser.feed_buf(data).map_err(|e| refuse(&e))?;
        }
    }
    parser.finish().map_err(|e| refuse(&e))
}

/// What the "agent" answers: a line about the conversation it was given.
fn describe(input: &ParsedBody) -> String {
    let input = input.input();
    let users = input
        .messages
        .iter()
        .filter(|m| matches!(m, Message::User(_)))
        .count();
    let parts: usize = input.messages.iter().map(|m| m.parts().len()).sum();
    format!(
        "{} messages ({users} from the user, {parts} content parts), {} tools",
        input.messages.len(),
        input.tools.iter().count()
    )
}

/// `POST /run`: parse as the body arrives, work on it in another task, answer with events.
pub async fn run_agent(body: Body) -> Response {
    let parsed = match read_input(body).await {
        Ok(p) => p,
        Err(refused) => return refused,
    };
    let thread_id = parsed.input().thread_id.to_string();
    let run_id = parsed.input().run_id.to_string();
    // The parsed body moves to another task (any worker thread) and back: no copy, no re-parse.
    let summary = match tokio::spawn(async move {
        tokio::task::yield_now().await;
        describe(&parsed)
    })
    .await
    {
        Ok(s) => s,
        Err(_) => return StatusCode::INTERNAL_SERVER_ERROR.into_response(),
    };
    let events = [
        serde_json::json!({"type": "RUN_STARTED", "threadId": thread_id, "runId": run_id}),
        serde_json::json!({"type": "TEXT_MESSAGE_START", "messageId": "reply", "role": "assistant"}),
        serde_json::json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "reply", "delta": summary}),
        serde_json::json!({"type": "TEXT_MESSAGE_END", "messageId": "reply"}),
        serde_json::json!({"type": "RUN_FINISHED", "threadId": thread_id, "runId": run_id}),
    ];
    let mut out = Vec::new();
    for e in &events {
        agui_wire::sse::encode_frame(&mut out, e.to_string().as_bytes());
    }
    (
        [
            (header::CONTENT_TYPE, "text/event-stream"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        out,
    )
        .into_response()
}

/// The service.
pub fn app() -> Router {
    Router::new().route("/run", post(run_agent))
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let addr = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "127.0.0.1:3000".into());
    let listener = tokio::net::TcpListener::bind(&addr).await?;
    eprintln!("listening on http://{}/run", listener.local_addr()?);
    axum::serve(listener, app()).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    /// Serves `app()` on 127.0.0.1 and sends one request whose body goes in small pieces with
    /// pauses, so hyper hands the handler many frames.
    async fn post_slowly(body: &[u8], piece: usize) -> String {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let server = tokio::spawn(async move { axum::serve(listener, app()).await });
        let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
        let head = format!(
            "POST /run HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
            body.len()
        );
        s.write_all(head.as_bytes()).await.unwrap();
        for c in body.chunks(piece) {
            if s.write_all(c).await.is_err() {
                break; // refused early: the server stopped reading
            }
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
        let mut answer = Vec::new();
        let read = tokio::time::timeout(Duration::from_secs(20), s.read_to_end(&mut answer));
        read.await.expect("bounded").unwrap();
        server.abort();
        String::from_utf8_lossy(&answer).into_owned()
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_streamed_body_is_parsed_and_answered_with_events() {
        let body = std::fs::read(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/samples/conversation.json"
        ))
        .unwrap();
        let answer = post_slowly(&body, 200).await;
        assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
        assert!(answer.contains("text/event-stream"));
        assert!(answer.contains(r#""type":"RUN_FINISHED""#), "{answer}");
        assert!(answer.contains("content parts"), "{answer}");
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_bad_body_is_refused_with_where_and_why() {
        let answer = post_slowly(br#"{"threadId":"t","runId":5,"messages":[]}"#, 4).await;
        assert!(answer.starts_with("HTTP/1.1 400"), "{answer}");
        assert!(answer.contains(r#""path":"runId""#), "{answer}");
        assert!(answer.contains(r#""offset":24"#), "{answer}");
    }
}
