//! `ag-ui` 0.5.0-alpha.3 (crates.io; an independent Rust SDK that speaks AG-UI 1.0, the newest
//! version published when this was written; there is no `ag-ui` 1.0 crate yet): owned serde
//! types with `serde_json::Value` for state and forwarded props, read with
//! `serde_json::from_slice`. It reads the modern corpora (content parts, every role).

use ag_ui::RunAgentInput;
use ag_ui::message::{InputContent, InputContentSource, Message, ToolContent, UserContent};
use serde_json::Value;

use crate::common::corpus::Summary;

/// Parses with ag-ui's types.
pub fn parse(input: &[u8]) -> serde_json::Result<RunAgentInput> {
    serde_json::from_slice(input)
}

fn keys(v: &Value) -> Option<usize> {
    Some(v.as_object().map_or(0, |o| o.len()))
}

fn parts(s: &mut Summary, parts: &[InputContent]) {
    for p in parts {
        match p {
            InputContent::Text(t) => s.text_bytes += t.text.len(),
            InputContent::Image(m)
            | InputContent::Audio(m)
            | InputContent::Video(m)
            | InputContent::Document(m) => {
                if let InputContentSource::Data { value, .. } = &m.source {
                    s.media_bytes += value.len();
                }
            }
            InputContent::Binary(_) => {}
        }
    }
}

/// What its model saw, in the generator's terms.
pub fn summary(r: &RunAgentInput) -> Summary {
    let mut s = Summary {
        messages: r.messages.len(),
        tools: r.tools.len(),
        context: r.context.len(),
        resume: r.resume.as_ref().map_or(0, |x| x.len()),
        state_keys: keys(&r.state),
        forwarded_keys: keys(&r.forwarded_props),
        ..Summary::default()
    };
    for m in &r.messages {
        match m {
            Message::Developer(t) => s.text_bytes += t.content.len(),
            Message::System(t) => s.text_bytes += t.content.len(),
            Message::Reasoning(t) => s.text_bytes += t.content.len(),
            Message::Assistant(a) => {
                s.text_bytes += a.content.as_ref().map_or(0, String::len);
                for c in a.tool_calls.iter().flatten() {
                    s.tool_calls += 1;
                    s.args_bytes += c.function.arguments.len();
                }
            }
            Message::User(u) => match &u.content {
                UserContent::Text(t) => s.text_bytes += t.len(),
                UserContent::Parts(p) => parts(&mut s, p),
            },
            Message::Tool(t) => match &t.content {
                ToolContent::Text(t) => s.text_bytes += t.len(),
                ToolContent::Parts(p) => parts(&mut s, p),
            },
            Message::Activity(_) => {}
        }
    }
    s
}
