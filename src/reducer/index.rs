//! Lookup of messages and tool calls by id, so that a stream of many small events over a long
//! conversation costs a hash lookup per event rather than a scan of every message.
//!
//! The answers are the ones a scan from the start gives (the first message with the id, the
//! first *assistant* message whose `toolCalls` hold the call), as the TypeScript client's
//! `find` does on messages its enforcement stage has cleaned: `toolCalls` is a field of
//! assistant messages only, so the same field kept as an unknown field on another message
//! never holds a tool call for the reducer. The index follows appends, placed tool results and
//! replaced messages as they happen (a call held by several messages keeps every holder, so
//! that replacing the first one finds the next at once); any other change to the message list
//! (a snapshot, a list read after results were placed) marks it stale, and the next lookup
//! rebuilds it. The list (`list.rs`) checks the answers on short lists against a scan in debug
//! builds.

use std::collections::{BTreeSet, HashMap};

use super::json::Json;
use super::list::At;
use super::stats;

#[derive(Debug, Clone, Default)]
pub(crate) struct Index {
    fresh: bool,
    /// The first message with each id.
    ids: HashMap<String, At>,
    /// The first holder of each tool call id: (message, place in its `toolCalls`).
    calls: HashMap<String, (usize, usize)>,
    /// The other holders of the call ids held more than once.
    more_calls: HashMap<String, BTreeSet<(usize, usize)>>,
    /// The first tool message with each pair of message id and `toolCallId` (see
    /// [`result_key`]), and the others of the pairs held more than once.
    results: HashMap<String, At>,
    more_results: HashMap<String, BTreeSet<At>>,
}

/// The key of a tool message's pair of ids (the first one's length first, so that no two
/// pairs share a key whatever their characters).
pub(crate) fn result_key(id: &str, call: &str) -> String {
    format!("{}:{id}{call}", id.len())
}

/// The pair of ids of a tool message.
fn result_of(m: &Json) -> Option<String> {
    if m.get("role").and_then(Json::as_str) != Some("tool") {
        return None;
    }
    let call = m.get("toolCallId").and_then(Json::as_str)?;
    Some(result_key(id_of(m)?, call))
}

pub(crate) fn id_of(m: &Json) -> Option<&str> {
    m.get("id").and_then(Json::as_str)
}

/// The tool calls of an assistant message (none for other roles).
pub(crate) fn calls_of(m: &Json) -> &[Json] {
    if m.get("role").and_then(Json::as_str) != Some("assistant") {
        return &[];
    }
    m.get("toolCalls")
        .and_then(Json::as_array)
        .map_or(&[], Vec::as_slice)
}

impl Index {
    /// Marks the index stale.
    pub(crate) fn invalidate(&mut self) {
        self.fresh = false;
    }

    pub(crate) fn is_fresh(&self) -> bool {
        self.fresh
    }

    /// Starts a rebuild: empty, and fresh once every message is [`add`](Self::add)ed in order.
    pub(crate) fn clear(&mut self) {
        self.ids.clear();
        self.calls.clear();
        self.more_calls.clear();
        self.results.clear();
        self.more_results.clear();
        self.fresh = true;
    }

    /// Records message `m`, at `at` (a message at a later place than every one recorded, or
    /// one placed before later ones: the first holder of an id is the earliest either way).
    pub(crate) fn add(&mut self, at: At, m: &Json) {
        if !self.fresh {
            return;
        }
        if let Some(id) = id_of(m) {
            stats::tick(1);
            let slot = self.ids.entry(id.to_owned()).or_insert(at);
            *slot = (*slot).min(at);
        }
        if let Some(key) = result_of(m) {
            stats::tick(1);
            match self.results.get_mut(&key) {
                None => {
                    self.results.insert(key, at);
                }
                Some(first) => {
                    let other = if at < *first {
                        std::mem::replace(first, at)
                    } else {
                        at
                    };
                    self.more_results.entry(key).or_default().insert(other);
                }
            }
        }
        if at.1 == super::list::BASE {
            for (ci, c) in calls_of(m).iter().enumerate() {
                if let Some(cid) = id_of(c) {
                    self.call_added(cid, (at.0, ci));
                }
            }
        }
    }

    /// Records tool call `id`, held by message `at.0` at place `at.1`.
    pub(crate) fn call_added(&mut self, id: &str, at: (usize, usize)) {
        if !self.fresh {
            return;
        }
        stats::tick(1);
        match self.calls.get_mut(id) {
            None => {
                self.calls.insert(id.to_owned(), at);
            }
            Some(first) if *first == at => {}
            Some(first) => {
                let other = if at < *first {
                    std::mem::replace(first, at)
                } else {
                    at
                };
                self.more_calls
                    .entry(id.to_owned())
                    .or_default()
                    .insert(other);
            }
        }
    }

    /// Forgets the tool calls of message `m`, which was at `at`, and its pair of ids if it is a
    /// tool message (it is being replaced).
    pub(crate) fn remove_calls(&mut self, at: At, m: &Json) {
        if !self.fresh {
            return;
        }
        if let Some(key) = result_of(m) {
            stats::tick(1);
            let more = self.more_results.get_mut(&key);
            if self.results.get(&key) == Some(&at) {
                match more.and_then(BTreeSet::pop_first) {
                    Some(next) => {
                        self.results.insert(key.clone(), next);
                    }
                    None => {
                        self.results.remove(&key);
                    }
                }
            } else if let Some(more) = more {
                more.remove(&at);
            }
            if self.more_results.get(&key).is_some_and(BTreeSet::is_empty) {
                self.more_results.remove(&key);
            }
        }
        if at.1 != super::list::BASE {
            return;
        }
        for (ci, c) in calls_of(m).iter().enumerate() {
            let Some(cid) = id_of(c) else { continue };
            stats::tick(1);
            let holder = (at.0, ci);
            let more = self.more_calls.get_mut(cid);
            if self.calls.get(cid) == Some(&holder) {
                match more.and_then(BTreeSet::pop_first) {
                    Some(next) => {
                        self.calls.insert(cid.to_owned(), next);
                    }
                    None => {
                        self.calls.remove(cid);
                    }
                }
            } else if let Some(more) = more {
                more.remove(&holder);
            }
            if self.more_calls.get(cid).is_some_and(BTreeSet::is_empty) {
                self.more_calls.remove(cid);
            }
        }
    }

    /// The first message with `id` (the index must be fresh).
    pub(crate) fn message(&self, id: &str) -> Option<At> {
        stats::tick(1);
        self.ids.get(id).copied()
    }

    /// The first tool message with message id `id` and `toolCallId` `call` (the index must be
    /// fresh).
    pub(crate) fn result(&self, id: &str, call: &str) -> Option<At> {
        stats::tick(1);
        self.results.get(&result_key(id, call)).copied()
    }

    /// The first message holding tool call `id`, and the call's place in it (the index must be
    /// fresh).
    pub(crate) fn tool_call(&self, id: &str) -> Option<(usize, usize)> {
        stats::tick(1);
        self.calls.get(id).copied()
    }
}
