//! The owned AG-UI 1.0 model most users write by hand: `String`, `Vec`,
//! `serde_json::Value` for the free-form JSON fields, `#[serde(tag = "role")]` for
//! messages and `#[serde(tag = "type")]` for parts and sources, unknown fields ignored,
//! no `#[serde(flatten)]`. Read by serde_json (`from_slice`) and simd-json
//! (`simd_json::serde::from_slice`).

#![allow(dead_code)] // the model's fields are the parsed information; benches only black_box them

use serde::Deserialize;
use serde_json::Value;

use crate::common::corpus::Summary;

/// The POST body.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RunAgentInput {
    pub thread_id: String,
    pub run_id: String,
    pub protocol_version: Option<String>,
    pub parent_run_id: Option<String>,
    pub state: Option<Value>,
    pub messages: Vec<Message>,
    #[serde(default)]
    pub tools: Vec<Tool>,
    #[serde(default)]
    pub context: Vec<Context>,
    pub forwarded_props: Option<Value>,
    #[serde(default)]
    pub resume: Vec<ResumeEntry>,
}

/// A message, discriminated by `role`.
#[derive(Debug, Deserialize)]
#[serde(tag = "role", rename_all = "lowercase")]
pub enum Message {
    Developer(TextMessage),
    System(TextMessage),
    Assistant(AssistantMessage),
    User(UserMessage),
    Tool(ToolMessage),
    Activity(ActivityMessage),
    Reasoning(ReasoningMessage),
}

/// Developer and system messages.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TextMessage {
    pub id: String,
    pub content: String,
    pub name: Option<String>,
    pub encrypted_value: Option<String>,
    pub metadata: Option<Value>,
    pub subagent_run_id: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AssistantMessage {
    pub id: String,
    pub content: Option<String>,
    pub tool_calls: Option<Vec<ToolCall>>,
    pub name: Option<String>,
    pub encrypted_value: Option<String>,
    pub metadata: Option<Value>,
    pub subagent_run_id: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UserMessage {
    pub id: String,
    pub content: Content,
    pub name: Option<String>,
    pub encrypted_value: Option<String>,
    pub metadata: Option<Value>,
    pub subagent_run_id: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolMessage {
    pub id: String,
    pub content: Content,
    pub tool_call_id: String,
    pub error: Option<String>,
    pub encrypted_value: Option<String>,
    pub metadata: Option<Value>,
    pub subagent_run_id: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ActivityMessage {
    pub id: String,
    pub activity_type: String,
    pub content: serde_json::Map<String, Value>,
    pub metadata: Option<Value>,
    pub subagent_run_id: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReasoningMessage {
    pub id: String,
    pub content: String,
    pub encrypted_value: Option<String>,
    pub metadata: Option<Value>,
    pub subagent_run_id: Option<String>,
}

/// `content`: a string or a list of parts.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum Content {
    Text(String),
    Parts(Vec<ContentPart>),
}

/// A content part, discriminated by `type` (`binary` is the deprecated pre-1.0 part that
/// gateways still receive).
#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum ContentPart {
    Text(TextPart),
    Image(MediaPart),
    Audio(MediaPart),
    Video(MediaPart),
    Document(MediaPart),
    Binary(BinaryPart),
}

#[derive(Debug, Deserialize)]
pub struct TextPart {
    pub id: Option<String>,
    pub text: String,
    pub metadata: Option<Value>,
}

#[derive(Debug, Deserialize)]
pub struct MediaPart {
    pub id: Option<String>,
    pub source: Source,
    pub metadata: Option<Value>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BinaryPart {
    pub mime_type: String,
    pub id: Option<String>,
    pub url: Option<String>,
    pub data: Option<String>,
    pub filename: Option<String>,
}

/// A media source, discriminated by `type`.
#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum Source {
    Data {
        value: String,
        #[serde(rename = "mimeType")]
        mime_type: String,
    },
    Url {
        value: String,
        #[serde(rename = "mimeType")]
        mime_type: Option<String>,
    },
    File {
        value: String,
        provider: Option<String>,
        #[serde(rename = "mimeType")]
        mime_type: Option<String>,
    },
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolCall {
    pub id: String,
    #[serde(rename = "type", default = "function")]
    pub kind: String,
    pub function: FunctionCall,
    pub encrypted_value: Option<String>,
    pub metadata: Option<Value>,
}

fn function() -> String {
    "function".to_owned()
}

#[derive(Debug, Deserialize)]
pub struct FunctionCall {
    pub name: String,
    pub arguments: String,
}

#[derive(Debug, Deserialize)]
pub struct Tool {
    pub name: String,
    pub description: String,
    pub parameters: Option<Value>,
    pub metadata: Option<Value>,
}

#[derive(Debug, Deserialize)]
pub struct Context {
    pub description: String,
    pub value: String,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResumeEntry {
    pub interrupt_id: String,
    pub status: ResumeStatus,
    pub payload: Option<Value>,
    pub metadata: Option<Value>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ResumeStatus {
    Resolved,
    Cancelled,
}

fn keys(v: &Option<Value>) -> Option<usize> {
    match v {
        Some(Value::Object(m)) => Some(m.len()),
        _ => Some(0),
    }
}

fn content(s: &mut Summary, c: &Content) {
    match c {
        Content::Text(t) => s.text_bytes += t.len(),
        Content::Parts(parts) => {
            for p in parts {
                match p {
                    ContentPart::Text(t) => s.text_bytes += t.text.len(),
                    ContentPart::Image(m)
                    | ContentPart::Audio(m)
                    | ContentPart::Video(m)
                    | ContentPart::Document(m) => {
                        if let Source::Data { value, .. } = &m.source {
                            s.media_bytes += value.len();
                        }
                    }
                    ContentPart::Binary(_) => {}
                }
            }
        }
    }
}

/// What this model saw, in the generator's terms.
pub fn summary(r: &RunAgentInput) -> Summary {
    let mut s = Summary {
        messages: r.messages.len(),
        tools: r.tools.len(),
        context: r.context.len(),
        resume: r.resume.len(),
        state_keys: keys(&r.state),
        forwarded_keys: keys(&r.forwarded_props),
        ..Summary::default()
    };
    for m in &r.messages {
        match m {
            Message::Developer(t) | Message::System(t) => s.text_bytes += t.content.len(),
            Message::Reasoning(t) => s.text_bytes += t.content.len(),
            Message::Assistant(a) => {
                s.text_bytes += a.content.as_ref().map_or(0, String::len);
                for c in a.tool_calls.iter().flatten() {
                    s.tool_calls += 1;
                    s.args_bytes += c.function.arguments.len();
                }
            }
            Message::User(u) => content(&mut s, &u.content),
            Message::Tool(t) => content(&mut s, &t.content),
            Message::Activity(_) => {}
        }
    }
    s
}
