//! The owning streaming types in async code: `OwnedBodyParser` is `Send + 'static` and
//! `ParsedBody` is `Send + Sync + 'static` (checked at compile time), and both are used for real
//! on tokio's multi-threaded runtime, held across `.await`s and moved between tasks.

use std::sync::Arc;
use std::time::Duration;

use agui_wire::stream::{OwnedBodyParser, ParsedBody};
use agui_wire::{Bump, ErrorKind, Message, ParseOptions, RunAgentInput};
use bytes::Bytes;

fn assert_send<T: Send + 'static>() {}
fn assert_send_sync<T: Send + Sync + 'static>() {}

#[test]
fn owning_types_are_send_and_static() {
    assert_send::<OwnedBodyParser>();
    assert_send_sync::<ParsedBody>();
    assert_send_sync::<agui_wire::stream::CapacityError>();
    assert_send::<agui_wire::stream::BodyBuf>();
}

/// A body with a few messages and a media part, as `n` frames of about `size` bytes.
fn body() -> Vec<u8> {
    let mut doc = String::from(r#"{"threadId":"thread-1","runId":"run-1","messages":["#);
    for i in 0..50 {
        if i > 0 {
            doc.push(',');
        }
        doc.push_str(&format!(
            r#"{{"id":"m{i}","role":"user","content":[{{"type":"text","text":"hello {i}"}},{{"type":"image","source":{{"type":"data","value":"iVBORw0KGgo=","mimeType":"image/png"}}}}]}}"#
        ));
    }
    doc.push_str(r#"],"state":{"counter":12,"list":[1,2,3]},"tools":[],"context":[]}"#);
    doc.into_bytes()
}

fn frames(doc: &[u8], size: usize) -> Vec<Bytes> {
    doc.chunks(size).map(Bytes::copy_from_slice).collect()
}

fn one_shot_debug(doc: &[u8]) -> String {
    let arena = Bump::new();
    format!("{:?}", RunAgentInput::parse(doc, &arena).unwrap())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn parser_held_across_awaits_and_body_moved_between_tasks() {
    let doc = body();
    let want = one_shot_debug(&doc);
    let (tx, mut rx) = tokio::sync::mpsc::channel::<Bytes>(4);
    let sender = tokio::spawn({
        let frames = frames(&doc, 97);
        async move {
            for f in frames {
                tx.send(f).await.unwrap();
                tokio::task::yield_now().await;
            }
        }
    });
    // The parser lives in a spawned task (which must be `Send`) and is held across every
    // `.await` of the receive loop, possibly resuming on another worker thread each time.
    let parsing = tokio::spawn(async move {
        let mut parser = OwnedBodyParser::new(ParseOptions::default());
        let mut threads = std::collections::HashSet::new();
        let mut complete = false;
        while let Some(frame) = rx.recv().await {
            threads.insert(std::thread::current().id());
            tokio::time::sleep(Duration::from_micros(50)).await;
            complete = parser.feed_buf(frame).unwrap().is_complete();
        }
        assert!(complete);
        (parser.finish().unwrap(), threads.len())
    });
    sender.await.unwrap();
    let (parsed, _threads) = parsing.await.unwrap();
    assert_eq!(format!("{:?}", parsed.input()), want);
    assert_eq!(parsed.bytes(), &doc[..]);

    // Moved to another task, and shared by two more through an `Arc` (`Sync`).
    let parsed = tokio::spawn(async move {
        tokio::task::yield_now().await;
        let mut parsed = parsed;
        parsed.with_input_mut(|input, _| input.retain_messages(|m| m.id() != "m0"));
        parsed
    })
    .await
    .unwrap();
    let shared = Arc::new(parsed);
    let readers: Vec<_> = (0..2)
        .map(|_| {
            let shared = Arc::clone(&shared);
            tokio::spawn(async move {
                tokio::task::yield_now().await;
                (shared.input().messages.len(), shared.to_vec())
            })
        })
        .collect();
    for r in readers {
        let (n, written) = r.await.unwrap();
        assert_eq!(n, 49);
        let arena = Bump::new();
        let reparsed = RunAgentInput::parse(&written, &arena).unwrap();
        assert!(matches!(&reparsed.messages[0], Message::User(u) if u.id == "m1"));
    }
    // The original bytes are still there, untouched by the edit, for forwarding.
    assert_eq!(shared.bytes(), &doc[..]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn errors_and_limits_arrive_as_early_in_a_task() {
    let opts = ParseOptions {
        max_input_bytes: 300,
        ..ParseOptions::default()
    };
    let doc = body();
    let got = tokio::spawn(async move {
        let mut parser = OwnedBodyParser::with_capacity(opts, doc.len());
        assert!(parser.capacity() <= 300);
        let mut fed = 0;
        for f in frames(&doc, 64) {
            tokio::task::yield_now().await;
            fed += f.len();
            if let Err(e) = parser.feed_buf(f) {
                return (e, fed, parser.received());
            }
        }
        panic!("the limit was not enforced");
    })
    .await
    .unwrap();
    let (err, fed, received) = got;
    assert_eq!(
        err.kind(),
        &ErrorKind::InputTooLarge {
            len: 320,
            limit: 300
        }
    );
    assert_eq!(fed, 320);
    // The chunk that crossed the limit was not copied in.
    assert_eq!(received, 256);

    // A protocol error in the second chunk comes from that chunk.
    let err = tokio::spawn(async move {
        let mut parser = OwnedBodyParser::default();
        parser
            .feed(br#"{"threadId":"t","runId":"r","messages":[{"id":"1","#)
            .unwrap();
        tokio::task::yield_now().await;
        parser
            .feed(br#""role":"robot","content":"x"}]}"#)
            .unwrap_err()
    })
    .await
    .unwrap();
    assert_eq!((err.path(), err.offset()), ("messages[0].role", 57));
}

#[test]
fn parsed_body_from_bytes_is_not_copied() {
    let doc = Bytes::from(body());
    let parsed = ParsedBody::parse(doc.clone(), &ParseOptions::default()).unwrap();
    assert_eq!(parsed.bytes().as_ptr(), doc.as_ptr());
    let Message::User(u) = &parsed.input().messages[3] else {
        panic!("not a user message")
    };
    // The document's strings are slices of the caller's `Bytes`.
    assert!(agui_wire::offset_in(&doc, u.id.raw().as_bytes()).is_some());
    assert_eq!(parsed.into_bytes().as_ptr(), doc.as_ptr());

    // The same from a `Vec<u8>`, and from chunks.
    let from_vec = ParsedBody::parse(body(), &ParseOptions::default()).unwrap();
    let mut parser = OwnedBodyParser::default();
    for f in frames(&body(), 10) {
        parser.feed(&f).unwrap();
    }
    let fed = parser.finish().unwrap();
    assert_eq!(fed.input(), from_vec.input());
    let ptr = fed.bytes().as_ptr();
    let bytes = fed.into_bytes();
    assert_eq!((bytes.as_ptr(), &bytes[..]), (ptr, &body()[..]));
}

#[test]
fn parse_errors_are_one_shot_errors() {
    let doc = br#"{"threadId":"t","runId":"r","messages":[{"id":"1","role":"robot"}]}"#;
    let arena = Bump::new();
    let want = RunAgentInput::parse(doc, &arena).unwrap_err();
    assert_eq!(
        ParsedBody::parse(&doc[..], &ParseOptions::default()).unwrap_err(),
        want
    );
    let mut parser = OwnedBodyParser::default();
    let fed = doc.chunks(5).map(|c| parser.feed(c)).find_map(Result::err);
    assert_eq!(fed, Some(want.clone()));
    assert_eq!(parser.finish().unwrap_err(), want);
    // A truncated body: `finish` reports what one-shot reports.
    let mut parser = OwnedBodyParser::default();
    parser.feed(&doc[..30]).unwrap();
    assert_eq!(
        parser.finish().unwrap_err(),
        RunAgentInput::parse(&doc[..30], &arena).unwrap_err()
    );
}

#[test]
fn hostile_capacity_is_capped_or_refused() {
    // Over the limit: capped to it.
    let opts = ParseOptions {
        max_input_bytes: 1 << 16,
        ..ParseOptions::default()
    };
    assert_eq!(
        OwnedBodyParser::with_capacity(opts, 100 << 30).capacity(),
        1 << 16
    );
    // No limit, and more than the allocator gives: starts small instead of aborting.
    let parser = OwnedBodyParser::with_capacity(ParseOptions::default(), 1 << 62);
    assert!(parser.capacity() < 1 << 20);
    assert!(agui_wire::stream::BodyBuf::try_with_capacity(1 << 62).is_err());
    assert!(agui_wire::stream::BodyBuf::try_with_capacity(usize::MAX).is_err());
}

#[test]
fn the_buffer_never_grows_past_the_limit() {
    let opts = ParseOptions {
        max_input_bytes: 5000,
        ..ParseOptions::default()
    };
    let mut parser = OwnedBodyParser::new(opts);
    let mut doc = br#"{"threadId":"t","runId":"r","messages":[],"state":""#.to_vec();
    doc.resize(4990, b'x');
    doc.extend_from_slice(br#""}"#);
    for c in doc.chunks(1000) {
        parser.feed(c).unwrap();
    }
    // Doubling from 4096 would reserve 8192: the block stops at the limit.
    assert_eq!(parser.capacity(), 5000);
    assert!(parser.finish().is_ok());
}

/// `read_body` over an `http_body::Body` (feature `http-body`: `cargo test --features
/// http-body`).
#[cfg(feature = "http-body")]
mod http_body_adapter {
    use super::*;
    use agui_wire::stream::ReadBodyError;
    use http_body::{Body, Frame};
    use std::collections::VecDeque;
    use std::pin::Pin;
    use std::task::{Context, Poll};

    /// Frames that arrive one per poll, with a pending poll (and a wake-up) before each, as a
    /// socket delivers them; `fail` ends the body with an error instead.
    struct Slow {
        frames: VecDeque<Bytes>,
        ready: bool,
        fail: bool,
    }

    impl Body for Slow {
        type Data = Bytes;
        type Error = std::io::Error;
        fn poll_frame(
            mut self: Pin<&mut Self>,
            cx: &mut Context<'_>,
        ) -> Poll<Option<Result<Frame<Bytes>, std::io::Error>>> {
            if !self.ready {
                self.ready = true;
                cx.waker().wake_by_ref();
                return Poll::Pending;
            }
            self.ready = false;
            match self.frames.pop_front() {
                Some(b) => Poll::Ready(Some(Ok(Frame::data(b)))),
                None if self.fail => Poll::Ready(Some(Err(std::io::Error::other("reset")))),
                None => Poll::Ready(None),
            }
        }
    }

    fn slow(doc: &[u8], size: usize, fail: bool) -> Slow {
        Slow {
            frames: frames(doc, size).into(),
            ready: false,
            fail,
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn reads_a_body_in_a_spawned_task() {
        let doc = body();
        let want = one_shot_debug(&doc);
        let body = slow(&doc, 61, false);
        let parsed = tokio::spawn(OwnedBodyParser::default().read_body(body))
            .await
            .unwrap()
            .unwrap();
        assert_eq!(format!("{:?}", parsed.input()), want);
        assert_eq!(parsed.bytes(), &doc[..]);

        let err = tokio::spawn(OwnedBodyParser::default().read_body(slow(&doc[..500], 61, true)))
            .await
            .unwrap()
            .unwrap_err();
        assert!(matches!(err, ReadBodyError::Body(_)), "{err}");

        let mut bad = doc.clone();
        bad[300] = b'#';
        let err = tokio::spawn(OwnedBodyParser::default().read_body(slow(&bad, 61, true)))
            .await
            .unwrap()
            .unwrap_err();
        let arena = Bump::new();
        let want = RunAgentInput::parse(&bad, &arena).unwrap_err();
        // The parse error, from the frame holding byte 300 (the body's error is never reached).
        assert!(matches!(err, ReadBodyError::Parse(e) if e == want));
    }
}
