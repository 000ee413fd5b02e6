//! The message list: the messages in order, their index by id, and where each tool result goes.
//!
//! A `TOOL_CALL_RESULT` goes right after its assistant message and the tool and activity
//! messages that follow it, which is before any later message (the client `splice`s it in,
//! moving everything after it). Here such a result is *placed*: kept in a short list attached to
//! the message it goes before, so the messages after it do not move, their places in the index
//! stay right, and the walk over the tool messages already there resumes where the last result
//! of the same assistant message went. A run of N results, each after a message appended at the
//! end, costs O(N) instead of O(N²).
//!
//! The list is put in one piece again when someone reads it ([`Messages::read`], a pass over
//! the list, and only after results were placed since the last read) or when an event needs
//! the whole list (a `MESSAGES_SNAPSHOT`). Reading therefore needs to change the list from
//! `&self`: [`Messages`] keeps it behind a [`Mutex`] and publishes the one-piece list in a
//! [`OnceLock`], which the next change takes back. Both are `Send + Sync`, so `Reducer` stays
//! so.

use std::collections::HashMap;
use std::ops::{Index as Get, IndexMut as GetMut};
use std::sync::{Mutex, OnceLock, PoisonError};

use super::index::{Index, id_of};
use super::json::Json;
use super::stats;

/// Where a message is: `(p, BASE)` is the `p`th message of the list proper, `(p, k)` the
/// `k`th result placed before it. Ordered as the messages are.
pub(crate) type At = (usize, usize);

/// The `k` of a message of the list proper (after every result placed before it).
pub(crate) const BASE: usize = usize::MAX;

/// The messages in order, with the results placed before later ones kept aside.
#[derive(Debug, Default)]
pub(crate) struct List {
    base: Vec<Json>,
    /// The results placed before `base[p]`, by `p`, in order.
    placed: HashMap<usize, Vec<Json>>,
    placed_len: usize,
    index: Index,
    /// Per assistant message (by place): where the walk for its next result starts (every
    /// message between it and there is a tool or activity message).
    resume: HashMap<usize, usize>,
    /// The list was lent out in one piece with placed results in it: the places changed.
    reshaped: bool,
}

/// What a walk over the messages after an assistant message steps over: tool and activity
/// messages (and anything that is not an object, which a snapshot may hold).
fn follows_its_call(m: &Json) -> bool {
    !matches!(m, Json::Object(_))
        || matches!(
            m.get("role").and_then(Json::as_str),
            Some("tool" | "activity")
        )
}

/// Debug builds check lookups against a scan on lists up to this long (longer ones would
/// make the debug build quadratic).
const CHECK_UP_TO: usize = 64;

impl List {
    /// A list of `messages`, its index to build.
    pub(crate) fn new(messages: Vec<Json>) -> List {
        List {
            base: messages,
            ..List::default()
        }
    }

    /// How many messages there are.
    pub(crate) fn len(&self) -> usize {
        self.base.len() + self.placed_len
    }

    /// The messages of the list proper (the places a new message would get start here).
    pub(crate) fn base_len(&self) -> usize {
        self.base.len()
    }

    /// Every message with its place, in order.
    fn iter(&self) -> impl Iterator<Item = (At, &Json)> {
        self.base.iter().enumerate().flat_map(move |(p, m)| {
            let before = if self.placed_len == 0 {
                None
            } else {
                self.placed.get(&p)
            };
            (before.into_iter().flatten().enumerate())
                .map(move |(k, r)| ((p, k), r))
                .chain(std::iter::once(((p, BASE), m)))
        })
    }

    fn refresh(&mut self) {
        if self.index.is_fresh() {
            return;
        }
        stats::tick(self.len() as u64);
        let mut index = std::mem::take(&mut self.index);
        index.clear();
        for (at, m) in self.iter() {
            index.add(at, m);
        }
        self.index = index;
    }

    /// Forgets every place: the index and the resume points.
    fn reshape(&mut self) {
        self.index.invalidate();
        self.resume.clear();
    }

    /// The first message with `id`.
    pub(crate) fn find(&mut self, id: &str) -> Option<At> {
        self.refresh();
        let found = self.index.message(id);
        debug_assert!(
            self.len() > CHECK_UP_TO
                || found
                    == self
                        .iter()
                        .find(|(_, m)| id_of(m) == Some(id))
                        .map(|(at, _)| at),
            "message index for {id:?}"
        );
        found
    }

    /// The first tool message with message id `id` and `toolCallId` `call`.
    pub(crate) fn find_result(&mut self, id: &str, call: &str) -> Option<At> {
        self.refresh();
        let found = self.index.result(id, call);
        debug_assert!(
            self.len() > CHECK_UP_TO
                || found
                    == self
                        .iter()
                        .find(|(_, m)| {
                            id_of(m) == Some(id)
                                && m.get("role").and_then(Json::as_str) == Some("tool")
                                && m.get("toolCallId").and_then(Json::as_str) == Some(call)
                        })
                        .map(|(at, _)| at),
            "result index for {id:?}, {call:?}"
        );
        found
    }

    /// The message a new result for tool call `id` goes after (see the index).
    pub(crate) fn result_target(&mut self, id: &str) -> Option<usize> {
        self.refresh();
        let found = self.index.result_target(id);
        debug_assert!(
            self.len() > CHECK_UP_TO || found == self.scan_result_target(id),
            "result target for {id:?}"
        );
        found
    }

    /// [`result_target`](Self::result_target) by the client's walk back from the end.
    fn scan_result_target(&self, id: &str) -> Option<usize> {
        let all: Vec<(At, &Json)> = self.iter().collect();
        let (mut latest, mut answered) = (None, false);
        for &((p, k), m) in all.iter().rev() {
            if super::index::answers(m) == Some(id) {
                answered = true;
            } else if k == BASE
                && super::index::calls_of(m)
                    .iter()
                    .any(|c| id_of(c) == Some(id))
            {
                latest.get_or_insert(p);
                if !answered {
                    return Some(p);
                }
                answered = false;
            }
        }
        latest
    }

    /// The first assistant message holding tool call `id`, and the call's place in it.
    pub(crate) fn tool_call(&mut self, id: &str) -> Option<(usize, usize)> {
        self.refresh();
        let found = self.index.tool_call(id);
        debug_assert!(
            self.len() > CHECK_UP_TO
                || found
                    == self.base.iter().enumerate().find_map(|(p, m)| {
                        let calls = super::index::calls_of(m);
                        let ci = calls.iter().position(|c| id_of(c) == Some(id))?;
                        Some((p, ci))
                    }),
            "tool call index for {id:?}"
        );
        found
    }

    /// Records tool call `id`, just appended to message `at.0` at place `at.1`.
    pub(crate) fn call_added(&mut self, id: &str, at: (usize, usize)) {
        self.index.call_added(id, at);
    }

    /// Appends a message; gives its place.
    pub(crate) fn push(&mut self, m: Json) -> At {
        let at = (self.base.len(), BASE);
        self.index.add(at, &m);
        self.base.push(m);
        at
    }

    /// Puts tool result `m` after assistant message `assistant` and the tool and activity
    /// messages after it; gives its place.
    pub(crate) fn place_result(&mut self, assistant: usize, m: Json) -> At {
        let mut p = self
            .resume
            .get(&assistant)
            .copied()
            .unwrap_or(assistant + 1);
        while self.base.get(p).is_some_and(follows_its_call) {
            stats::tick(1);
            p += 1;
        }
        self.resume.insert(assistant, p);
        if p == self.base.len() {
            return self.push(m);
        }
        let list = self.placed.entry(p).or_default();
        let at = (p, list.len());
        self.index.add(at, &m);
        list.push(m);
        self.placed_len += 1;
        at
    }

    /// Replaces the message at `at` with `m`, keeping the index right.
    pub(crate) fn replace(&mut self, at: At, m: Json) {
        let old = std::mem::replace(&mut self[at], m);
        if id_of(&old) != id_of(&self[at]) {
            self.reshape();
            return;
        }
        self.index.removed(at, &old);
        let mut index = std::mem::take(&mut self.index);
        if at.1 == BASE {
            for (ci, c) in super::index::calls_of(&self[at]).iter().enumerate() {
                if let Some(cid) = id_of(c) {
                    index.call_added(cid, (at.0, ci));
                }
            }
        }
        self.index = index;
    }

    /// Takes every message out, in order, leaving the list empty.
    pub(crate) fn take_all(&mut self) -> Vec<Json> {
        let all = self.lend();
        self.reshape();
        all
    }

    /// Replaces every message.
    pub(crate) fn set_all(&mut self, messages: Vec<Json>) {
        *self = List::new(messages);
    }

    /// Takes the messages out in one piece, to be given back by [`give_back`](Self::give_back) unchanged (the
    /// index stays, unless placed results had to go in line).
    fn lend(&mut self) -> Vec<Json> {
        if self.placed_len == 0 {
            return std::mem::take(&mut self.base);
        }
        stats::tick(self.len() as u64);
        let mut all = Vec::with_capacity(self.len());
        let mut placed = std::mem::take(&mut self.placed);
        for (p, m) in std::mem::take(&mut self.base).into_iter().enumerate() {
            if let Some(before) = placed.remove(&p) {
                all.extend(before);
            }
            all.push(m);
        }
        self.placed_len = 0;
        self.reshaped = true;
        all
    }

    /// Takes back what [`lend`](Self::lend) gave.
    fn give_back(&mut self, all: Vec<Json>) {
        self.base = all;
        if std::mem::take(&mut self.reshaped) {
            self.reshape();
        }
    }
}

impl Get<At> for List {
    type Output = Json;
    fn index(&self, (p, k): At) -> &Json {
        match k {
            BASE => &self.base[p],
            _ => &self.placed[&p][k],
        }
    }
}

impl GetMut<At> for List {
    fn index_mut(&mut self, (p, k): At) -> &mut Json {
        match k {
            BASE => &mut self.base[p],
            _ => match self.placed.get_mut(&p) {
                Some(list) => &mut list[k],
                None => panic!("no results placed before message {p}"),
            },
        }
    }
}

/// The [`List`] of a `Reducer`, readable in one piece from `&self`.
#[derive(Default)]
pub(crate) struct Messages {
    list: Mutex<List>,
    /// The list in one piece, while it is lent out for reading.
    read: OnceLock<Vec<Json>>,
}

impl Messages {
    pub(crate) fn new(messages: Vec<Json>) -> Messages {
        Messages {
            list: Mutex::new(List::new(messages)),
            read: OnceLock::new(),
        }
    }

    /// The list, to change (taking back a copy lent for reading).
    pub(crate) fn list(&mut self) -> &mut List {
        let list = self.list.get_mut().unwrap_or_else(PoisonError::into_inner);
        if let Some(all) = self.read.take() {
            list.give_back(all);
        }
        list
    }

    /// The messages in one piece.
    pub(crate) fn read(&self) -> &[Json] {
        self.read.get_or_init(|| {
            let mut list = self.list.lock().unwrap_or_else(PoisonError::into_inner);
            list.lend()
        })
    }

    /// The messages, taken out.
    pub(crate) fn into_vec(mut self) -> Vec<Json> {
        if let Some(all) = self.read.take() {
            return all;
        }
        let list = self.list.get_mut().unwrap_or_else(PoisonError::into_inner);
        list.lend()
    }
}

impl Clone for Messages {
    fn clone(&self) -> Messages {
        Messages::new(self.read().to_vec())
    }
}

impl std::fmt::Debug for Messages {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.read()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(id: &str, role: &str, call: Option<&str>) -> Json {
        let mut m = Json::from_members(vec![
            ("id".into(), Json::from(id)),
            ("role".into(), Json::from(role)),
        ]);
        match (role, call) {
            ("assistant", Some(c)) => m.set(
                "toolCalls",
                Json::Array(vec![Json::from_members(vec![("id".into(), Json::from(c))])]),
            ),
            ("tool", Some(c)) => m.set("toolCallId", Json::from(c)),
            _ => {}
        }
        m
    }

    /// Random appends, results, replacements and reads, against a plain list where a result
    /// is inserted by a walk from its assistant message (the client's way): the same messages
    /// in the same order, and the same answers to every lookup, whenever the list is read.
    #[test]
    fn placed_results_read_as_inserted_ones() {
        let mut rng = super::super::test_rng(0x2545_f491_4f6c_dd1d_u64);
        for round in 0..300 {
            let mut messages = Messages::default();
            let mut model: Vec<Json> = Vec::new();
            for step in 0..rng(120) {
                let id = format!("m{}", rng(40));
                let call = format!("c{}", rng(8));
                match rng(10) {
                    0..=2 => {
                        let role = ["user", "assistant", "tool", "activity"][rng(4)];
                        let m = message(&id, role, Some(&call));
                        model.push(m.clone());
                        messages.list().push(m);
                    }
                    3..=5 => {
                        let m = message(&id, "tool", Some(&call));
                        // The client's walk back: the latest holder with no result before
                        // the next holder, else the latest holder.
                        let holds = |x: &Json| {
                            super::super::index::calls_of(x)
                                .iter()
                                .any(|c| id_of(c) == Some(&call))
                        };
                        let (mut latest, mut answered, mut holder) = (None, false, None);
                        for (i, x) in model.iter().enumerate().rev() {
                            if super::super::index::answers(x) == Some(&call) {
                                answered = true;
                            } else if holds(x) {
                                latest.get_or_insert(i);
                                if !answered {
                                    holder = Some(i);
                                    break;
                                }
                                answered = false;
                            }
                        }
                        let holder = holder.or(latest);
                        let list = messages.list();
                        match (holder, list.result_target(&call)) {
                            (None, None) => {
                                model.push(m.clone());
                                list.push(m);
                            }
                            (Some(a), Some(p)) => {
                                let mut at = a + 1;
                                while model.get(at).is_some_and(follows_its_call) {
                                    at += 1;
                                }
                                model.insert(at, m.clone());
                                list.place_result(p, m);
                            }
                            other => panic!("round {round} step {step}: holder {other:?}"),
                        }
                    }
                    6 => {
                        let fresh = message(&id, "activity", None);
                        if let Some(i) = model.iter().position(|x| id_of(x) == Some(&id)) {
                            model[i] = fresh.clone();
                            let list = messages.list();
                            let at = list.find(&id).unwrap();
                            list.replace(at, fresh);
                        }
                    }
                    7 | 8 => {
                        let want = model.iter().find(|x| id_of(x) == Some(&id));
                        let list = messages.list();
                        let got = list.find(&id).map(|at| &list[at]);
                        assert_eq!(got, want, "round {round} step {step}: find {id}");
                    }
                    _ => assert_eq!(messages.read(), &model[..], "round {round} step {step}"),
                }
            }
            assert_eq!(messages.clone().into_vec(), model, "round {round}");
        }
    }
}
