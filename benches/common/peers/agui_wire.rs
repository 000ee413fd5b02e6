//! Our parser, `agui_wire::RunAgentInput::parse`, with one arena reused across iterations
//! (`arena.reset()` before each parse), as a proxy would run it.
//!
//! Two timed variants:
//! - `agui_wire`: the parse alone. Strings stay raw slices of the input (escapes are
//!   validated, decoded only on demand), so it does less than the serde peers, which
//!   decode every escaped string while parsing;
//! - `agui_wire_decoded`: the parse plus decoding every message text, text part and tool
//!   call `arguments` into the arena (`Str::in_arena`), the same information the serde
//!   `Cow` peers hold when they return.

use std::hint::black_box;

use agui_wire::{Bump, Content, InputContent, InputContentSource, Message, RunAgentInput, Str};

use super::{Body, Peer};
use crate::common::corpus::{Corpus, Summary};

/// Decoded length of a string.
fn text_len(s: &Str<'_>) -> usize {
    s.unescaped().len()
}

fn content(s: &mut Summary, c: &Content<'_>) {
    match c {
        Content::Text(t) => s.text_bytes += text_len(t),
        Content::Parts(parts) => {
            for p in parts {
                match p {
                    InputContent::Text(t) => s.text_bytes += text_len(&t.text),
                    InputContent::Image(m)
                    | InputContent::Audio(m)
                    | InputContent::Video(m)
                    | InputContent::Document(m) => {
                        if let InputContentSource::Data(d) = &m.source {
                            s.media_bytes += text_len(&d.value);
                        }
                    }
                    InputContent::Binary(_) => {}
                }
            }
        }
    }
}

/// What our model holds, in the generator's terms.
pub fn summary(r: &RunAgentInput<'_>) -> Summary {
    let mut s = Summary {
        messages: r.messages.len(),
        tools: r.tools.as_ref().map_or(0, |t| t.len()),
        context: r.context.as_ref().map_or(0, |c| c.len()),
        resume: r.resume.as_ref().map_or(0, |x| x.len()),
        state_raw_len: Some(r.state.as_ref().map_or(0, |j| j.text().len())),
        forwarded_raw_len: Some(r.forwarded_props.as_ref().map_or(0, |j| j.text().len())),
        ..Summary::default()
    };
    for m in &r.messages {
        match m {
            Message::Developer(t) => s.text_bytes += text_len(&t.content),
            Message::System(t) => s.text_bytes += text_len(&t.content),
            Message::Reasoning(t) => s.text_bytes += text_len(&t.content),
            Message::Assistant(a) => {
                s.text_bytes += a.content.as_ref().map_or(0, text_len);
                for c in a.tool_calls.iter().flat_map(|l| l.iter()) {
                    s.tool_calls += 1;
                    s.args_bytes += text_len(&c.function.arguments);
                }
            }
            Message::User(u) => content(&mut s, &u.content),
            Message::Tool(t) => content(&mut s, &t.content),
            Message::Activity(_) => {}
        }
    }
    s
}

/// Decodes every string the summary counts into `arena`; returns the total decoded length.
pub fn decode_all<'a>(r: &RunAgentInput<'a>, arena: &'a Bump) -> usize {
    fn content<'a>(c: &Content<'a>, arena: &'a Bump) -> usize {
        match c {
            Content::Text(t) => t.in_arena(arena).len(),
            Content::Parts(parts) => parts
                .iter()
                .map(|p| match p {
                    InputContent::Text(t) => t.text.in_arena(arena).len(),
                    _ => 0,
                })
                .sum(),
        }
    }
    let mut n = 0;
    for m in &r.messages {
        n += match m {
            Message::Developer(t) => t.content.in_arena(arena).len(),
            Message::System(t) => t.content.in_arena(arena).len(),
            Message::Reasoning(t) => t.content.in_arena(arena).len(),
            Message::Assistant(a) => {
                a.content.as_ref().map_or(0, |c| c.in_arena(arena).len())
                    + a.tool_calls
                        .iter()
                        .flat_map(|l| l.iter())
                        .map(|c| c.function.arguments.in_arena(arena).len())
                        .sum::<usize>()
            }
            Message::User(u) => content(&u.content, arena),
            Message::Tool(t) => content(&t.content, arena),
            Message::Activity(_) => 0,
        };
    }
    n
}

fn check(input: &[u8]) -> Result<Option<Summary>, String> {
    let arena = Bump::new();
    let r = RunAgentInput::parse(input, &arena).map_err(|e| e.to_string())?;
    Ok(Some(summary(&r)))
}

/// Our peers: the parse alone, and the parse plus decoding (both with a reused arena).
pub fn peers(_corpus: &Corpus) -> Vec<Peer<'static>> {
    let mut arena = Bump::new();
    let parse = Peer {
        name: "agui_wire",
        body: Body::Slice(Box::new(move |input: &[u8]| {
            arena.reset();
            let r = RunAgentInput::parse(input, &arena).expect("agui_wire");
            black_box(&r);
        })),
        check: Box::new(check),
        cold: Some(Box::new(|input: &[u8]| {
            let arena = Bump::new();
            let r = RunAgentInput::parse(input, &arena).expect("agui_wire");
            black_box(&r);
        })),
    };
    let mut arena = Bump::new();
    let decoded = Peer {
        name: "agui_wire_decoded",
        body: Body::Slice(Box::new(move |input: &[u8]| {
            arena.reset();
            let r = RunAgentInput::parse(input, &arena).expect("agui_wire");
            black_box(decode_all(&r, &arena));
            black_box(&r);
        })),
        check: Box::new(|input: &[u8]| {
            let arena = Bump::new();
            let r = RunAgentInput::parse(input, &arena).map_err(|e| e.to_string())?;
            let s = summary(&r);
            let n = decode_all(&r, &arena);
            if n == s.text_bytes + s.args_bytes {
                Ok(Some(s))
            } else {
                Err(format!(
                    "decoded {n} bytes, expected {}",
                    s.text_bytes + s.args_bytes
                ))
            }
        }),
        cold: None,
    };
    vec![parse, decoded]
}
