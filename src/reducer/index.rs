//! Lookup of messages and tool calls by id, so that a stream of many small events over a long
//! conversation costs a hash lookup per event rather than a scan of every message.
//!
//! The answers are the ones a scan from the start gives (the first message with the id, the
//! first message whose `toolCalls` hold the call), as the TypeScript client's `find` does. The
//! index follows appends as they happen; any other change to the message list (an insertion,
//! a snapshot, a replaced message) marks it stale, and the next lookup rebuilds it. Debug
//! builds check every answer against the scan.

use std::collections::HashMap;

use super::json::Json;

#[derive(Debug, Clone, Default)]
pub(crate) struct Index {
    fresh: bool,
    ids: HashMap<String, usize>,
    calls: HashMap<String, (usize, usize)>,
}

fn id_of(m: &Json) -> Option<&str> {
    m.get("id").and_then(Json::as_str)
}

fn calls_of(m: &Json) -> &[Json] {
    m.get("toolCalls")
        .and_then(Json::as_array)
        .map_or(&[], Vec::as_slice)
}

/// The first message with `id`, by a scan.
pub(crate) fn scan_message(messages: &[Json], id: &str) -> Option<usize> {
    messages.iter().position(|m| id_of(m) == Some(id))
}

/// The first message holding tool call `id`, and the call's place in it, by a scan.
pub(crate) fn scan_tool_call(messages: &[Json], id: &str) -> Option<(usize, usize)> {
    messages.iter().enumerate().find_map(|(mi, m)| {
        let ci = calls_of(m).iter().position(|c| id_of(c) == Some(id))?;
        Some((mi, ci))
    })
}

impl Index {
    /// Marks the index stale (the message list changed other than by an append).
    pub(crate) fn invalidate(&mut self) {
        self.fresh = false;
    }

    fn add(&mut self, i: usize, m: &Json) {
        if let Some(id) = id_of(m) {
            self.ids.entry(id.to_owned()).or_insert(i);
        }
        for (ci, c) in calls_of(m).iter().enumerate() {
            if let Some(cid) = id_of(c) {
                self.calls.entry(cid.to_owned()).or_insert((i, ci));
            }
        }
    }

    fn refresh(&mut self, messages: &[Json]) {
        if self.fresh {
            return;
        }
        self.ids.clear();
        self.calls.clear();
        for (i, m) in messages.iter().enumerate() {
            self.add(i, m);
        }
        self.fresh = true;
    }

    /// Records the message just appended to `messages`.
    pub(crate) fn pushed(&mut self, messages: &[Json]) {
        if let (true, Some((last, m))) =
            (self.fresh, messages.split_last().map(|(m, r)| (r.len(), m)))
        {
            self.add(last, m);
        }
    }

    /// Records tool call `id`, just appended to message `at.0` at place `at.1`.
    pub(crate) fn call_added(&mut self, id: &str, at: (usize, usize)) {
        if self.fresh {
            self.calls.entry(id.to_owned()).or_insert(at);
        }
    }

    /// The first message with `id`.
    pub(crate) fn message(&mut self, messages: &[Json], id: &str) -> Option<usize> {
        self.refresh(messages);
        let found = self.ids.get(id).copied();
        debug_assert_eq!(
            found,
            scan_message(messages, id),
            "message index for {id:?}"
        );
        found
    }

    /// The first message holding tool call `id`, and the call's place in it.
    pub(crate) fn tool_call(&mut self, messages: &[Json], id: &str) -> Option<(usize, usize)> {
        self.refresh(messages);
        let found = self.calls.get(id).copied();
        debug_assert_eq!(
            found,
            scan_tool_call(messages, id),
            "tool call index for {id:?}"
        );
        found
    }
}
