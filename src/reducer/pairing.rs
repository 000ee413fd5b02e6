//! Tool results put back after the message that called for them, as `@ag-ui/client` 1.0.4
//! does to the messages a `MESSAGES_SNAPSHOT` leaves: a `tool` message that the snapshot puts
//! after a later turn (a user message, another assistant message) moves back to the end of the
//! turn of the assistant message whose tool call it answers, before that turn's trailing
//! `reasoning` messages.
//!
//! The rules, in the client's order:
//! 1. A turn starts at each message that is not `tool`, `activity` or `reasoning`; an
//!    assistant message's tool calls (their string ids) are open from it on.
//! 2. A `tool` message answers the earliest open call with its `toolCallId` made by the turn
//!    it stands in, and stays where it is.
//! 3. One that stands in another turn, while a call with its id is open from an earlier
//!    turn, is displaced: the displaced results of an id, last first, each answer the latest
//!    open call made before them, and move after its message.
//! 4. One that comes before any call with its id (an orphan) moves after that call's message
//!    only when exactly one call with that id is ever made and it is still open; only the
//!    first orphan of that id moves.
//!
//! Nothing moves when nothing is displaced, and the order of everything else is kept. Linear
//! in the messages: each call and each result is looked at a bounded number of times.

use std::collections::HashMap;

use super::json::Json;
use super::stats;

/// One tool call made by the message at `issuer`.
struct Call {
    issuer: usize,
    answered: bool,
}

/// The calls made for one tool-call id, in order, and where the calls of the latest turn
/// that made any start (those before `open_from` in that run are answered).
#[derive(Default)]
struct Calls {
    list: Vec<Call>,
    /// The first call of the last run of calls made by one message not yet answered in
    /// place (rule 2 answers a run's calls in order).
    open_from: usize,
    /// The calls not yet answered.
    open: usize,
}

fn role(m: &Json) -> Option<&str> {
    m.get("role").and_then(Json::as_str)
}

/// Whether `m` starts a turn (rule 1).
fn starts_turn(m: &Json) -> bool {
    matches!(m, Json::Object(_)) && !matches!(role(m), Some("tool" | "activity" | "reasoning"))
}

/// Reorders `messages` by the rules above.
pub(super) fn repair(messages: Vec<Json>) -> Vec<Json> {
    let mut calls: HashMap<&str, Calls> = HashMap::new();
    // Per id: its displaced results, and its first orphan (ids are independent of each other,
    // and each message's moved results are sorted below, so the maps' order does not matter).
    let mut displaced: HashMap<&str, Vec<usize>> = HashMap::new();
    let mut orphans: HashMap<&str, usize> = HashMap::new();
    let mut turn = usize::MAX;
    for (at, m) in messages.iter().enumerate() {
        stats::tick(1);
        if !matches!(m, Json::Object(_)) {
            continue;
        }
        if role(m) == Some("tool") {
            let Some(id) = m.get("toolCallId").and_then(Json::as_str) else {
                continue;
            };
            let Some(c) = calls.get_mut(id) else {
                orphans.entry(id).or_insert(at);
                continue;
            };
            // Rule 2: the last run of calls is this turn's, and one of them is open.
            let in_turn = c.list.last().is_some_and(|last| last.issuer == turn);
            if in_turn && c.open_from < c.list.len() {
                c.list[c.open_from].answered = true;
                c.open_from += 1;
                c.open -= 1;
            } else if c.open > 0 {
                displaced.entry(id).or_default().push(at);
            }
        } else if starts_turn(m) {
            turn = at;
            if role(m) != Some("assistant") {
                continue;
            }
            let Some(Json::Array(list)) = m.get("toolCalls") else {
                continue;
            };
            for call in list {
                stats::tick(1);
                let Some(id) = call.get("id").and_then(Json::as_str) else {
                    continue;
                };
                let c = calls.entry(id).or_default();
                if c.list.last().is_none_or(|last| last.issuer != at) {
                    c.open_from = c.list.len();
                }
                c.list.push(Call {
                    issuer: at,
                    answered: false,
                });
                c.open += 1;
            }
        }
    }

    // Where each moved result goes: after the message that made its call.
    let mut after: HashMap<usize, Vec<usize>> = HashMap::new();
    let mut moved = vec![false; messages.len()];
    let mut place = |call: &mut Call, result: usize| {
        call.answered = true;
        after.entry(call.issuer).or_default().push(result);
        moved[result] = true;
    };
    // Rule 3.
    for (id, results) in &displaced {
        let Some(c) = calls.get_mut(id) else { continue };
        let mut k = c.list.len();
        for &result in results.iter().rev() {
            stats::tick(1);
            while k > 0 && (c.list[k - 1].answered || c.list[k - 1].issuer >= result) {
                stats::tick(1);
                k -= 1;
            }
            if k == 0 {
                break;
            }
            place(&mut c.list[k - 1], result);
        }
    }
    // Rule 4.
    for (id, result) in orphans {
        if let Some(c) = calls.get_mut(id)
            && let [only] = c.list.as_mut_slice()
            && !only.answered
        {
            place(only, result);
        }
    }
    if after.is_empty() {
        return messages;
    }
    for results in after.values_mut() {
        results.sort_unstable();
    }

    let mut slots: Vec<Option<Json>> = messages.into_iter().map(Some).collect();
    let mut out: Vec<Json> = Vec::with_capacity(slots.len());
    let mut pending: Option<Vec<usize>> = None;
    // Puts the pending results at the end of `out`, before its trailing reasoning messages
    // (the earliest reasoning message of the trailing run of activity and reasoning ones).
    let flush =
        |out: &mut Vec<Json>, slots: &mut [Option<Json>], pending: &mut Option<Vec<usize>>| {
            let Some(results) = pending.take() else {
                return;
            };
            let mut cut = out.len();
            for k in (0..out.len()).rev() {
                stats::tick(1);
                if !matches!(out[k], Json::Object(_)) {
                    continue;
                }
                match role(&out[k]) {
                    Some("reasoning") => cut = k,
                    Some("activity") => {}
                    _ => break,
                }
            }
            stats::tick((out.len() - cut + results.len()) as u64);
            let tail = out.split_off(cut);
            out.extend(results.into_iter().filter_map(|r| slots[r].take()));
            out.extend(tail);
        };
    for at in 0..slots.len() {
        stats::tick(1);
        if moved[at] {
            continue;
        }
        let Some(m) = slots[at].take() else { continue };
        if starts_turn(&m) {
            flush(&mut out, &mut slots, &mut pending);
        }
        out.push(m);
        if let Some(results) = after.remove(&at) {
            pending = Some(results);
        }
    }
    flush(&mut out, &mut slots, &mut pending);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn msgs(spec: &str) -> Vec<Json> {
        // "u1 a1:c1,c2 t1:c1 ..." : role letter, id, and calls (assistant) or the call answered.
        spec.split_whitespace()
            .map(|w| {
                let (name, arg) = w.split_once(':').unwrap_or((w, ""));
                let role = match &name[..1] {
                    "u" => "user",
                    "a" => "assistant",
                    "t" => "tool",
                    "r" => "reasoning",
                    "v" => "activity",
                    _ => "system",
                };
                let mut m = vec![
                    ("id".to_owned(), Json::String(name.to_owned())),
                    ("role".to_owned(), Json::from(role)),
                ];
                if role == "assistant" && !arg.is_empty() {
                    let calls = arg
                        .split(',')
                        .map(|c| Json::from_members(vec![("id".into(), Json::from(c))]))
                        .collect();
                    m.push(("toolCalls".to_owned(), Json::Array(calls)));
                }
                if role == "tool" {
                    m.push(("toolCallId".to_owned(), Json::from(arg)));
                }
                Json::from_members(m)
            })
            .collect()
    }

    fn order(spec: &str) -> String {
        repair(msgs(spec))
            .iter()
            .map(|m| m.get("id").and_then(Json::as_str).unwrap().to_owned())
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn results_move_back_to_their_call() {
        // In place: nothing moves.
        assert_eq!(order("u1 a1:c1 t1:c1 u2"), "u1 a1 t1 u2");
        // Displaced past a user message.
        assert_eq!(order("u1 a1:c1 u2 t1:c1"), "u1 a1 t1 u2");
        // Before the turn's trailing reasoning, after its activity.
        assert_eq!(order("a1:c1 v1 r1 v2 u2 t1:c1"), "a1 v1 t1 r1 v2 u2");
        // Two calls, results out of turn in reverse order: each to its call's message.
        assert_eq!(order("a1:c1 a2:c2 u1 t2:c2 t1:c1"), "a1 t1 a2 t2 u1");
        // An orphan before the only call of its id moves after it.
        assert_eq!(order("t1:c1 u1 a1:c1 u2"), "u1 a1 t1 u2");
        // Not when the id is called twice.
        assert_eq!(order("t1:c1 a1:c1 a2:c1 u2"), "t1 a1 a2 u2");
        // A result whose call is already answered stays.
        assert_eq!(order("a1:c1 t1:c1 u1 t2:c1"), "a1 t1 u1 t2");
        // A result for a call never made stays.
        assert_eq!(order("u1 t1:zz a1:c1"), "u1 t1 a1");
    }

    #[test]
    fn same_id_called_again_in_a_later_turn() {
        // t1 answers a2's call in place; t2 is displaced and goes to a1's open call.
        assert_eq!(order("a1:c1 u1 a2:c1 t1:c1 u2 t2:c1"), "a1 t2 u1 a2 t1 u2");
    }

    #[test]
    fn many_results_of_one_id_stay_linear() {
        // One message calling the same id 20 000 times, half answered in place, half
        // displaced past a user message (the work is counted in tests/reducer_scaling.rs).
        let n = 20_000;
        let mut spec = String::from("a0:");
        spec.push_str(&vec!["c"; n].join(","));
        for k in 0..n / 2 {
            spec.push_str(&format!(" t{k}:c"));
        }
        spec.push_str(" u1");
        for k in n / 2..n {
            spec.push_str(&format!(" t{k}:c"));
        }
        let out = repair(msgs(&spec));
        assert_eq!(out.len(), n + 2);
        let last = out.last().and_then(|m| m.get("id")).and_then(Json::as_str);
        assert_eq!(last, Some("u1"));
    }
}
