//! Reading an event the way the TypeScript client's enforcement stage does: an item of a list
//! whose discriminator names nothing the protocol defines (a JSON Patch operation with an
//! unknown `op`, a message with an unknown `role`, a content part with an unknown `type`) is
//! dropped, with a warning, and the rest of the event is kept. The parser rejects such events;
//! this runs only when it did, in one linear pass over the event.

use bumpalo::Bump;

use super::json::Json;
use crate::events::Event;
use crate::model::{InputContentKind, RawJson, Role};
use crate::{Error, ParseOptions};

/// An item dropped from an event: its path (`messages[2]`) and why.
pub(crate) struct Dropped {
    pub(crate) path: String,
    pub(crate) why: String,
}

const OPS: [&str; 6] = ["add", "remove", "replace", "move", "copy", "test"];

/// Removes from the array at `list` the objects `keep` refuses, recording them under `path`.
fn retain(
    list: Option<&mut Json>,
    path: &str,
    dropped: &mut Vec<Dropped>,
    mut keep: impl FnMut(&Json) -> Result<(), String>,
) {
    let Some(Json::Array(items)) = list else {
        return;
    };
    let mut i = 0;
    items.retain(|item| {
        let verdict = match item {
            Json::Object(_) => keep(item),
            _ => Ok(()),
        };
        let at = i;
        i += 1;
        match verdict {
            Ok(()) => true,
            Err(why) => {
                dropped.push(Dropped {
                    path: format!("{path}[{at}]"),
                    why,
                });
                false
            }
        }
    });
}

fn discriminator(item: &Json, field: &str, known: impl Fn(&str) -> bool) -> Result<(), String> {
    match item.get(field) {
        Some(Json::String(s)) if known(s) => Ok(()),
        Some(Json::String(s)) => Err(format!("unknown {field} {s:?}")),
        Some(_) => Err(format!("`{field}` is not a string")),
        None => Err(format!("no `{field}`")),
    }
}

fn op_known(op: &Json) -> Result<(), String> {
    discriminator(op, "op", |s| OPS.contains(&s))
}

fn part_known(part: &Json) -> Result<(), String> {
    discriminator(part, "type", |s| InputContentKind::from_name(s).is_some())
}

/// Drops unknown messages, and unknown content parts of the messages that have parts.
fn clean_messages(list: Option<&mut Json>, path: &str, dropped: &mut Vec<Dropped>) {
    retain(list, path, dropped, |m| {
        discriminator(m, "role", |s| Role::from_name(s).is_some())
    });
}

fn clean_parts_of(list: Option<&mut Json>, path: &str, dropped: &mut Vec<Dropped>) {
    let Some(Json::Array(messages)) = list else {
        return;
    };
    for (i, m) in messages.iter_mut().enumerate() {
        let role = m.get("role").and_then(Json::as_str);
        if matches!(role, Some("user" | "tool")) {
            let at = format!("{path}[{i}].content");
            retain(m.get_mut("content"), &at, dropped, part_known);
        }
    }
}

/// Parses `bytes` as one event; when the parser rejects it, drops every list item with an
/// unknown or missing discriminator (as the TypeScript client's enforcement stage does) and parses
/// what is left. Gives the event and what was dropped.
pub(crate) fn parse<'a>(
    bytes: &'a [u8],
    arena: &'a Bump,
    options: &ParseOptions,
) -> Result<(Event<'a>, Vec<Dropped>), Error> {
    let first = match Event::parse_with(bytes, arena, options) {
        Ok(ev) => return Ok((ev, Vec::new())),
        Err(err) => err,
    };
    // Any error: a missing discriminator is "missing field" to the parser, and the client
    // drops that item too. When nothing is dropped, the parser's error stands.
    let Ok(text) = std::str::from_utf8(bytes) else {
        return Err(first);
    };
    let Ok(raw) = RawJson::from_text(text) else {
        return Err(first);
    };
    let Ok(mut tree) = Json::from_validated(raw.as_bytes(), options.max_depth) else {
        return Err(first);
    };
    let mut dropped = Vec::new();
    match tree.get("type").and_then(Json::as_str) {
        Some("STATE_DELTA") => retain(tree.get_mut("delta"), "delta", &mut dropped, op_known),
        Some("ACTIVITY_DELTA") => retain(tree.get_mut("patch"), "patch", &mut dropped, op_known),
        Some("MESSAGES_SNAPSHOT") => {
            clean_messages(tree.get_mut("messages"), "messages", &mut dropped);
            clean_parts_of(tree.get_mut("messages"), "messages", &mut dropped);
        }
        Some("RUN_STARTED") => {
            if let Some(input) = tree.get_mut("input") {
                clean_messages(input.get_mut("messages"), "input.messages", &mut dropped);
                clean_parts_of(input.get_mut("messages"), "input.messages", &mut dropped);
            }
        }
        Some("TOOL_CALL_RESULT") => {
            retain(tree.get_mut("content"), "content", &mut dropped, part_known)
        }
        _ => {}
    }
    if dropped.is_empty() {
        return Err(first);
    }
    let cleaned: &'a [u8] = arena.alloc_slice_copy(&crate::WriteJson::to_json_vec(&tree));
    let event = Event::parse_with(cleaned, arena, options)?;
    Ok((event, dropped))
}
