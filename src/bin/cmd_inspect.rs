//! `agui-wire inspect`: a summary of a RunAgentInput.

use agui_wire::{Content, InputContent, InputContentSource, Message, RunAgentInput, Str};
use serde_json::{Map, Value, json};

use crate::{Failure, InputArgs};

/// One content part, as reported.
struct PartInfo {
    path: String,
    kind: &'static str,
    mime_type: Option<String>,
    source_type: Option<&'static str>,
    encoded_bytes: usize,
    decoded_bytes: Option<usize>,
    decode_error: Option<String>,
    detected: Option<&'static str>,
}

fn text(s: &Str<'_>) -> String {
    s.unescaped().into_owned()
}

fn part_info(path: String, part: &InputContent<'_>) -> PartInfo {
    let kind = part.kind().as_str();
    match part {
        InputContent::Text(t) => PartInfo {
            path,
            kind,
            mime_type: None,
            source_type: None,
            encoded_bytes: t.text.raw_len(),
            decoded_bytes: None,
            decode_error: None,
            detected: None,
        },
        InputContent::Binary(b) => PartInfo {
            path,
            kind,
            mime_type: Some(text(&b.mime_type)),
            source_type: Some(if b.data.is_some() {
                "data"
            } else if b.url.is_some() {
                "url"
            } else {
                "id"
            }),
            encoded_bytes: b.data.as_ref().or(b.url.as_ref()).map_or(0, Str::raw_len),
            decoded_bytes: None,
            decode_error: None,
            detected: None,
        },
        InputContent::Image(m)
        | InputContent::Audio(m)
        | InputContent::Video(m)
        | InputContent::Document(m) => PartInfo {
            path,
            kind,
            mime_type: m.source.mime_type().map(text),
            source_type: Some(m.source.type_name()),
            encoded_bytes: match &m.source {
                InputContentSource::Data(d) => d.value.raw_len(),
                InputContentSource::Url(u) => u.value.raw_len(),
                InputContentSource::File(f) => f.value.raw_len(),
            },
            decoded_bytes: None,
            decode_error: None,
            detected: None,
        },
    }
}

/// Summarise a RunAgentInput
///
/// Prints the thread and run ids, messages per role, tools, every content part (path, type,
/// mime type, source, encoded and decoded size, detected format of inline media) and the size
/// of each raw JSON field.
#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  agui-wire inspect samples/conversation.json
  agui-wire inspect --json samples/conversation.json | jq .contentParts")]
pub(crate) struct Inspect {
    /// Print the summary as one JSON object
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    input: InputArgs,
}

pub(crate) fn run(args: Inspect) -> Result<(), Failure> {
    let bytes = args.input.read()?;
    let arena = agui_wire::Bump::new();
    let input = RunAgentInput::parse_with(&bytes, &arena, &args.input.options())?;

    let mut per_role: Vec<(&'static str, usize)> = agui_wire::Role::ALL
        .iter()
        .map(|r| (r.as_str(), 0))
        .collect();
    let mut parts = Vec::new();
    let mut tool_calls = 0usize;
    for (i, m) in input.messages.iter().enumerate() {
        if let Some(slot) = per_role.iter_mut().find(|(r, _)| *r == m.role().as_str()) {
            slot.1 += 1;
        }
        let content = match m {
            Message::User(u) => Some(&u.content),
            Message::Tool(t) => Some(&t.content),
            Message::Assistant(a) => {
                tool_calls += a.tool_calls.as_ref().map_or(0, |c| c.len());
                None
            }
            _ => None,
        };
        if let Some(Content::Parts(ps)) = content {
            for (j, p) in ps.iter().enumerate() {
                parts.push(part_info(format!("messages[{i}].content[{j}]"), p));
            }
        }
    }
    for (path, decoded, detected) in crate::cmd_media::media_details(&input, &bytes, &arena) {
        if let Some(p) = parts.iter_mut().find(|p| p.path == path) {
            match decoded {
                Ok(n) => p.decoded_bytes = n,
                Err(e) => p.decode_error = Some(e),
            }
            p.detected = detected;
        }
    }
    let tools: Vec<String> = input
        .tools
        .iter()
        .flat_map(|t| t.iter())
        .map(|t| text(&t.name))
        .collect();
    let mut raw_fields: Vec<(String, usize)> = Vec::new();
    if let Some(s) = &input.state {
        raw_fields.push(("state".into(), s.as_bytes().len()));
    }
    if let Some(f) = &input.forwarded_props {
        raw_fields.push(("forwardedProps".into(), f.as_bytes().len()));
    }
    for (i, t) in input.tools.iter().flat_map(|t| t.iter()).enumerate() {
        if let Some(p) = &t.parameters {
            raw_fields.push((format!("tools[{i}].parameters"), p.as_bytes().len()));
        }
    }
    for (i, m) in input.messages.iter().enumerate() {
        if let Some(md) = m.metadata() {
            raw_fields.push((format!("messages[{i}].metadata"), md.as_bytes().len()));
        }
        if let Message::Activity(a) = m {
            raw_fields.push((format!("messages[{i}].content"), a.content.as_bytes().len()));
        }
    }
    for (i, r) in input.resume.iter().flat_map(|r| r.iter()).enumerate() {
        if let Some(p) = &r.payload {
            raw_fields.push((format!("resume[{i}].payload"), p.as_bytes().len()));
        }
    }

    if args.json {
        let mut roles = Map::new();
        for (r, n) in &per_role {
            roles.insert((*r).to_string(), json!(n));
        }
        let mut raw = Map::new();
        for (k, n) in &raw_fields {
            raw.insert(k.clone(), json!(n));
        }
        let out = json!({
            "threadId": text(&input.thread_id),
            "runId": text(&input.run_id),
            "parentRunId": input.parent_run_id.as_ref().map(text),
            "protocolVersion": input.protocol_version.as_ref().map(text),
            "bytes": bytes.len(),
            "messages": input.messages.len(),
            "messagesByRole": Value::Object(roles),
            "toolCalls": tool_calls,
            "tools": tools,
            "context": input.context.as_ref().map_or(0, |c| c.len()),
            "resume": input.resume.as_ref().map_or(0, |r| r.len()),
            "unknownFields": input.extra.fields().iter().map(|f| text(&f.key)).collect::<Vec<_>>(),
            "contentParts": parts.iter().map(|p| json!({
                "path": p.path,
                "type": p.kind,
                "mimeType": p.mime_type,
                "sourceType": p.source_type,
                "encodedBytes": p.encoded_bytes,
                "decodedBytes": p.decoded_bytes,
                "decodeError": p.decode_error,
                "detectedType": p.detected,
            })).collect::<Vec<_>>(),
            "rawFieldBytes": Value::Object(raw),
        });
        println!("{out}");
        return Ok(());
    }

    println!("threadId:   {}", text(&input.thread_id));
    println!("runId:      {}", text(&input.run_id));
    if let Some(p) = &input.parent_run_id {
        println!("parentRunId: {}", text(p));
    }
    if let Some(v) = &input.protocol_version {
        println!("protocolVersion: {}", text(v));
    }
    println!("size:       {} bytes", bytes.len());
    let roles: Vec<String> = per_role
        .iter()
        .filter(|(_, n)| *n > 0)
        .map(|(r, n)| format!("{r} {n}"))
        .collect();
    println!(
        "messages:   {} ({})",
        input.messages.len(),
        if roles.is_empty() {
            "none".to_string()
        } else {
            roles.join(", ")
        }
    );
    println!("tool calls: {tool_calls}");
    println!(
        "tools:      {}",
        if tools.is_empty() {
            "none".to_string()
        } else {
            tools.join(", ")
        }
    );
    println!(
        "context:    {} entries",
        input.context.as_ref().map_or(0, |c| c.len())
    );
    if let Some(r) = &input.resume {
        println!("resume:     {} entries", r.len());
    }
    if !input.extra.fields().is_empty() {
        let keys: Vec<String> = input.extra.fields().iter().map(|f| text(&f.key)).collect();
        println!("unknown fields: {}", keys.join(", "));
    }
    if parts.is_empty() {
        println!("content parts: none");
    } else {
        println!("content parts:");
        for p in &parts {
            let mut line = format!("  {:<28} {:<9}", p.path, p.kind);
            if let Some(s) = p.source_type {
                line.push_str(&format!(" source={s}"));
            }
            if let Some(m) = &p.mime_type {
                line.push_str(&format!(" mimeType={m}"));
            }
            line.push_str(&format!(" encoded={} bytes", p.encoded_bytes));
            if let Some(n) = p.decoded_bytes {
                line.push_str(&format!(" decoded={n} bytes"));
            }
            if let Some(t) = p.detected {
                line.push_str(&format!(" detected={t}"));
            }
            if let Some(e) = &p.decode_error {
                line.push_str(&format!(" INVALID: {e}"));
            }
            println!("{line}");
        }
    }
    if !raw_fields.is_empty() {
        println!("raw JSON fields:");
        for (k, n) in &raw_fields {
            println!("  {k:<28} {n} bytes");
        }
    }
    Ok(())
}
