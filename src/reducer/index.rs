//! Lookup of messages and tool calls by id, so that a stream of many small events over a long
//! conversation costs a hash lookup per event rather than a scan of every message.
//!
//! The answers are the ones a scan gives, as the TypeScript client's `find` and its backward
//! walk for a tool result do on messages its enforcement stage has cleaned: the first message
//! with an id, the first *assistant* message whose `toolCalls` hold a call (`toolCalls` is a
//! field of assistant messages only, so the same field kept as an unknown field on another
//! message never holds a tool call for the reducer), the first tool message with a pair of
//! message and call ids, and where a new result for a call goes: after the latest message
//! holding the call with no result for it before the next such message, or else after the
//! latest holder (as `@ag-ui/client` 1.0.4). The index follows appends, placed tool results
//! and replaced messages as they happen (every holder of an id is kept, so that replacing one
//! finds the next at once); any other change to the message list (a snapshot, a list read
//! after results were placed) marks it stale, and the next lookup rebuilds it. The list
//! (`list.rs`) checks the answers on short lists against a scan in debug builds.

use std::collections::{BTreeSet, HashMap};

use super::json::Json;
use super::list::{At, BASE};
use super::stats;

/// A set that is most often empty or of one element, without allocating for those.
#[derive(Debug, Clone, Default)]
enum Few<T> {
    #[default]
    None,
    One(T),
    Many(BTreeSet<T>),
}

impl<T: Ord + Copy> Few<T> {
    fn insert(&mut self, x: T) {
        match self {
            Few::None => *self = Few::One(x),
            Few::One(y) if *y == x => {}
            Few::One(y) => *self = Few::Many(BTreeSet::from([*y, x])),
            Few::Many(set) => {
                set.insert(x);
            }
        }
    }

    fn remove(&mut self, x: &T) {
        match self {
            Few::One(y) if y == x => *self = Few::None,
            Few::Many(set) => {
                set.remove(x);
            }
            _ => {}
        }
    }

    fn first(&self) -> Option<T> {
        match self {
            Few::None => None,
            Few::One(y) => Some(*y),
            Few::Many(set) => set.first().copied(),
        }
    }

    fn last(&self) -> Option<T> {
        match self {
            Few::None => None,
            Few::One(y) => Some(*y),
            Few::Many(set) => set.last().copied(),
        }
    }

    /// The greatest element below `x`.
    fn below(&self, x: &T) -> Option<T> {
        match self {
            Few::One(y) if y < x => Some(*y),
            Few::Many(set) => set.range(..x).next_back().copied(),
            _ => None,
        }
    }

    /// The least element above `x`.
    fn above(&self, x: &T) -> Option<T> {
        match self {
            Few::One(y) if y > x => Some(*y),
            Few::Many(set) => set
                .range((std::ops::Bound::Excluded(x), std::ops::Bound::Unbounded))
                .next()
                .copied(),
            _ => None,
        }
    }
}

/// What the index knows of one tool call id.
#[derive(Debug, Clone, Default)]
struct Call {
    /// The assistant messages holding it: (message, place in its `toolCalls`).
    holders: Few<(usize, usize)>,
    /// The tool messages answering it (`toolCallId`).
    results: Few<At>,
    /// The holders (by message) with no result after them before the next holder.
    unanswered: Few<usize>,
}

impl Call {
    /// Whether holder message `p` has a result before the next holder, kept in `unanswered`.
    fn review(&mut self, p: usize) {
        stats::tick(1);
        let holds = (self.holders.below(&(p.saturating_add(1), 0))).is_some_and(|h| h.0 == p);
        if !holds {
            self.unanswered.remove(&p);
            return;
        }
        let next = self.holders.above(&(p, usize::MAX)).map(|h| (h.0, BASE));
        let answered = (self.results.above(&(p, BASE))).is_some_and(|r| next.is_none_or(|n| r < n));
        if answered {
            self.unanswered.remove(&p);
        } else {
            self.unanswered.insert(p);
        }
    }

    /// The holder message before message place `at`, if any.
    fn holder_before(&self, at: At) -> Option<usize> {
        self.holders.below(&(at.0, 0)).map(|h| h.0)
    }
}

#[derive(Debug, Clone, Default)]
pub(crate) struct Index {
    fresh: bool,
    /// The first message with each id.
    ids: HashMap<String, At>,
    /// Each tool call id's holders and results.
    calls: HashMap<String, Call>,
    /// The tool messages of each pair of message id and `toolCallId` (see [`result_key`]).
    results: HashMap<String, Few<At>>,
}

/// The key of a tool message's pair of ids (the first one's length first, so that no two
/// pairs share a key whatever their characters).
pub(crate) fn result_key(id: &str, call: &str) -> String {
    format!("{}:{id}{call}", id.len())
}

pub(crate) fn id_of(m: &Json) -> Option<&str> {
    m.get("id").and_then(Json::as_str)
}

/// The call a tool message answers.
pub(crate) fn answers(m: &Json) -> Option<&str> {
    if m.get("role").and_then(Json::as_str) != Some("tool") {
        return None;
    }
    m.get("toolCallId").and_then(Json::as_str)
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
        self.results.clear();
        self.fresh = true;
    }

    /// Records message `m`, at `at` (anywhere: the first holder of an id is the earliest).
    pub(crate) fn add(&mut self, at: At, m: &Json) {
        if !self.fresh {
            return;
        }
        if let Some(id) = id_of(m) {
            stats::tick(1);
            let slot = self.ids.entry(id.to_owned()).or_insert(at);
            *slot = (*slot).min(at);
        }
        if let Some(call) = answers(m) {
            stats::tick(1);
            if let Some(id) = id_of(m) {
                (self.results.entry(result_key(id, call)).or_default()).insert(at);
            }
            let c = self.calls.entry(call.to_owned()).or_default();
            c.results.insert(at);
            if let Some(p) = c.holder_before(at) {
                c.review(p);
            }
        }
        if at.1 == BASE {
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
        let c = self.calls.entry(id.to_owned()).or_default();
        c.holders.insert(at);
        c.review(at.0);
        if let Some(p) = c.holder_before((at.0, BASE)) {
            c.review(p);
        }
    }

    /// Forgets message `m`, which was at `at` (it is being replaced by one with the same id).
    pub(crate) fn removed(&mut self, at: At, m: &Json) {
        if !self.fresh {
            return;
        }
        if let Some(call) = answers(m) {
            stats::tick(1);
            if let Some(id) = id_of(m) {
                let key = result_key(id, call);
                if let Some(few) = self.results.get_mut(&key) {
                    few.remove(&at);
                    if few.first().is_none() {
                        self.results.remove(&key);
                    }
                }
            }
            if let Some(c) = self.calls.get_mut(call) {
                c.results.remove(&at);
                if let Some(p) = c.holder_before(at) {
                    c.review(p);
                }
            }
        }
        if at.1 != BASE {
            return;
        }
        for (ci, call) in calls_of(m).iter().enumerate() {
            let Some(cid) = id_of(call) else { continue };
            stats::tick(1);
            if let Some(c) = self.calls.get_mut(cid) {
                c.holders.remove(&(at.0, ci));
                c.review(at.0);
                if let Some(p) = c.holder_before((at.0, BASE)) {
                    c.review(p);
                }
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
        self.results.get(&result_key(id, call)).and_then(Few::first)
    }

    /// The first message holding tool call `id`, and the call's place in it (the index must be
    /// fresh).
    pub(crate) fn tool_call(&self, id: &str) -> Option<(usize, usize)> {
        stats::tick(1);
        self.calls.get(id).and_then(|c| c.holders.first())
    }

    /// The message a new result for tool call `id` goes after: the latest holder with no
    /// result before the next holder, else the latest holder (the index must be fresh).
    pub(crate) fn result_target(&self, id: &str) -> Option<usize> {
        stats::tick(1);
        let c = self.calls.get(id)?;
        c.unanswered.last().or(c.holders.last().map(|h| h.0))
    }
}
