//! simd-json's own borrowed DOM (`simd_json::to_borrowed_value`): untyped, so the check
//! walks the tree by key.

use simd_json::BorrowedValue;
use simd_json::prelude::*;

use crate::common::corpus::Summary;

fn str_len(v: Option<&BorrowedValue<'_>>) -> usize {
    v.and_then(|v| v.as_str()).map_or(0, str::len)
}

fn content(s: &mut Summary, c: &BorrowedValue<'_>) {
    if let Some(t) = c.as_str() {
        s.text_bytes += t.len();
    } else if let Some(parts) = c.as_array() {
        for p in parts {
            match p.get("type").and_then(|t| t.as_str()) {
                Some("text") => s.text_bytes += str_len(p.get("text")),
                Some("image" | "audio" | "video" | "document") => {
                    if let Some(src) = p.get("source")
                        && src.get("type").and_then(|t| t.as_str()) == Some("data")
                    {
                        s.media_bytes += str_len(src.get("value"));
                    }
                }
                _ => {}
            }
        }
    }
}

fn keys(v: Option<&BorrowedValue<'_>>) -> Option<usize> {
    Some(v.and_then(|v| v.as_object()).map_or(0, |o| o.len()))
}

fn len(v: Option<&BorrowedValue<'_>>) -> usize {
    v.and_then(|v| v.as_array()).map_or(0, Vec::len)
}

/// What the DOM holds, in the generator's terms.
pub fn summary(v: &BorrowedValue<'_>) -> Summary {
    let mut s = Summary {
        messages: len(v.get("messages")),
        tools: len(v.get("tools")),
        context: len(v.get("context")),
        resume: len(v.get("resume")),
        state_keys: keys(v.get("state")),
        forwarded_keys: keys(v.get("forwardedProps")),
        ..Summary::default()
    };
    for m in v
        .get("messages")
        .and_then(|m| m.as_array())
        .into_iter()
        .flatten()
    {
        if m.get("role").and_then(|r| r.as_str()) == Some("activity") {
            continue;
        }
        if let Some(c) = m.get("content") {
            content(&mut s, c);
        }
        for call in m
            .get("toolCalls")
            .and_then(|c| c.as_array())
            .into_iter()
            .flatten()
        {
            s.tool_calls += 1;
            s.args_bytes += str_len(call.get("function").and_then(|f| f.get("arguments")));
        }
    }
    s
}
