//! Lookup of messages and tool calls by id, so that a stream of many small events over a long
//! conversation costs a hash lookup per event rather than a scan of every message.
//!
//! The answers are the ones a scan from the start gives (the first message with the id, the
//! first *assistant* message whose `toolCalls` hold the call), as the TypeScript client's
//! `find` does on messages its enforcement stage has cleaned: `toolCalls` is a field of
//! assistant messages only, so the same field kept as an unknown field on another message
//! never holds a tool call for the reducer. The index follows appends and insertions as they
//! happen; any other change to the message list (a snapshot, a replaced message) marks it
//! stale, and the next lookup rebuilds it. Debug builds check the answers on short lists against the scan.

use std::collections::HashMap;

use super::json::Json;

/// Debug builds check the index against a scan on lists up to this long (longer ones would
/// make the debug build quadratic).
const CHECK_UP_TO: usize = 64;

#[derive(Debug, Clone, Default)]
pub(crate) struct Index {
    fresh: bool,
    /// Counts the changes other than appends and insertions.
    generation: u64,
    ids: HashMap<String, usize>,
    calls: HashMap<String, (usize, usize)>,
}

fn id_of(m: &Json) -> Option<&str> {
    m.get("id").and_then(Json::as_str)
}

/// The tool calls of an assistant message (none for other roles).
fn calls_of(m: &Json) -> &[Json] {
    if m.get("role").and_then(Json::as_str) != Some("assistant") {
        return &[];
    }
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
        self.generation += 1;
    }

    /// Changes when the message list changes other than by an append or an insertion.
    pub(crate) fn generation(&self) -> u64 {
        self.generation
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
        super::stats::tick(messages.len() as u64);
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

    /// Records the message just inserted at `at` (the later ones moved up by one).
    pub(crate) fn inserted(&mut self, messages: &[Json], at: usize) {
        if !self.fresh {
            return;
        }
        super::stats::tick((self.ids.len() + self.calls.len()) as u64);
        for i in self.ids.values_mut() {
            if *i >= at {
                *i += 1;
            }
        }
        for (mi, _) in self.calls.values_mut() {
            if *mi >= at {
                *mi += 1;
            }
        }
        let Some(m) = messages.get(at) else {
            self.fresh = false;
            return;
        };
        // The first holder wins: the new message when the others are after it.
        if let Some(id) = id_of(m) {
            let slot = self.ids.entry(id.to_owned()).or_insert(at);
            *slot = (*slot).min(at);
        }
        for (ci, c) in calls_of(m).iter().enumerate() {
            if let Some(cid) = id_of(c) {
                let slot = self.calls.entry(cid.to_owned()).or_insert((at, ci));
                *slot = (*slot).min((at, ci));
            }
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
        debug_assert!(
            messages.len() > CHECK_UP_TO || found == scan_message(messages, id),
            "message index for {id:?}"
        );
        found
    }

    /// The first message holding tool call `id`, and the call's place in it.
    pub(crate) fn tool_call(&mut self, messages: &[Json], id: &str) -> Option<(usize, usize)> {
        self.refresh(messages);
        let found = self.calls.get(id).copied();
        debug_assert!(
            messages.len() > CHECK_UP_TO || found == scan_tool_call(messages, id),
            "tool call index for {id:?}"
        );
        found
    }
}
