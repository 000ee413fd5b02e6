//! Dropping the fields the protocol does not define from messages, tool calls and content
//! parts (what the TypeScript client's enforcement stage does), for
//! [`ReduceOptions::keep_unknown_fields`](super::ReduceOptions::keep_unknown_fields) `false`.
//! JSON-valued fields (`metadata`, activity `content`, ...) are left whole.

use super::json::Json;
use crate::model::*;

fn retain(v: &mut Json, names: &[&str]) {
    if let Json::Object(members) = v {
        members.retain(|k, _| names.contains(&k));
    }
}

/// A message: its own fields, its tool calls, its content parts.
pub(crate) fn message(m: &mut Json) {
    let Some(role) = m
        .get("role")
        .and_then(Json::as_str)
        .and_then(Role::from_name)
    else {
        return;
    };
    retain(m, role.fields());
    if let Some(calls) = m.get_mut("toolCalls").and_then(Json::as_array_mut) {
        for call in calls {
            retain(call, ToolCall::FIELDS);
            if let Some(f) = call.get_mut("function") {
                retain(f, FunctionCall::FIELDS);
            }
        }
    }
    if matches!(role, Role::User | Role::Tool)
        && let Some(c) = m.get_mut("content")
    {
        content(c);
    }
}

/// `content`: a string, or parts.
pub(crate) fn content(c: &mut Json) {
    let Some(parts) = c.as_array_mut() else {
        return;
    };
    for part in parts {
        let kind = part
            .get("type")
            .and_then(Json::as_str)
            .and_then(InputContentKind::from_name);
        match kind {
            Some(InputContentKind::Text) => retain(part, TextInputContent::FIELDS),
            Some(InputContentKind::Binary) => retain(part, BinaryInputContent::FIELDS),
            Some(_) => {
                retain(part, MediaInputContent::FIELDS);
                if let Some(src) = part.get_mut("source") {
                    let names = match src.get("type").and_then(Json::as_str) {
                        Some("data") => DataSource::FIELDS,
                        Some("url") => UrlSource::FIELDS,
                        _ => FileSource::FIELDS,
                    };
                    retain(src, names);
                }
            }
            None => {}
        }
    }
}
