//! RFC 6902 JSON Patch over the reducer's [`Json`] tree.
//!
//! A patch applies atomically, as `fast-json-patch`'s `applyPatch` with validation on (the
//! TypeScript client's choice): the document changes only when every operation succeeded. The
//! client gets that by copying the document first; here the operations run in place and log
//! how to undo each change, so a patch costs its own operations, not the document's size. Behaviour follows RFC 6902 and RFC 6901:
//!
//! - `add` needs the parent to exist; on an object it sets the member (replacing one of the
//!   same name), on an array it inserts at an index `0..=len` or appends at `-`;
//! - `remove`, `replace` and `test` need the target to exist; `test` compares by JSON value
//!   (numbers by value, objects whatever their member order);
//! - `move` and `copy` need `from` to exist; `move` may not move a value into its own child;
//! - the empty path is the whole document: `add`/`replace` replace it, `remove` makes it `null`
//!   (as `fast-json-patch` does), `move`/`copy` replace it with the value at `from`;
//! - array indices are `0` or digits without a leading zero (`fast-json-patch` also takes `01`
//!   and the empty token as indices; agui-wire does not).

use std::cell::Cell;

use super::json::Json;
use super::object::Squeezed;

/// Why a patch could not be applied.
///
/// ```
/// use agui_wire::reducer::{Json, apply_patch};
/// let doc = Json::parse(r#"{"a":1}"#).unwrap();
/// let patch = Json::parse(r#"[{"op":"remove","path":"/b"}]"#).unwrap();
/// let err = apply_patch(&doc, &patch, 512).unwrap_err();
/// assert_eq!(err.to_string(), "operation 0 (remove /b): the path does not exist");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PatchError {
    /// Index of the failing operation in the patch.
    pub index: usize,
    /// The operation's `op` and `path`, for the message.
    pub operation: String,
    /// What went wrong.
    pub reason: &'static str,
}

impl std::fmt::Display for PatchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "operation {} ({}): {}",
            self.index, self.operation, self.reason
        )
    }
}

impl std::error::Error for PatchError {}

/// Splits a JSON Pointer into its unescaped tokens (`~1` → `/`, then `~0` → `~`).
fn tokens(pointer: &str) -> Option<Vec<String>> {
    if pointer.is_empty() {
        return Some(Vec::new());
    }
    let rest = pointer.strip_prefix('/')?;
    super::stats::tick(1);
    Some(
        rest.split('/')
            .map(|t| {
                if t.contains('~') {
                    t.replace("~1", "/").replace("~0", "~")
                } else {
                    t.to_owned()
                }
            })
            .collect(),
    )
}

/// An array index token: `0` or digits without a leading zero, below `limit` (inclusive when
/// `end_ok`).
fn index(token: &str, len: usize, end_ok: bool) -> Option<usize> {
    if token.is_empty() || !token.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if token.len() > 1 && token.starts_with('0') {
        return None;
    }
    let i: usize = token.parse().ok()?;
    (i < len || (end_ok && i == len)).then_some(i)
}

/// The value at `path`, if any.
fn get<'j>(doc: &'j Json, path: &[String]) -> Option<&'j Json> {
    let mut cur = doc;
    for t in path {
        cur = match cur {
            Json::Object(_) => cur.get(t)?,
            Json::Array(a) => a.get(index(t, a.len(), false)?)?,
            _ => return None,
        };
    }
    Some(cur)
}

fn get_mut<'j>(doc: &'j mut Json, path: &[String]) -> Option<&'j mut Json> {
    let mut cur = doc;
    for t in path {
        cur = match cur {
            Json::Object(_) => cur.get_mut(t)?,
            Json::Array(a) => {
                let i = index(t, a.len(), false)?;
                a.get_mut(i)?
            }
            _ => return None,
        };
    }
    Some(cur)
}

const NO_PATH: &str = "the path does not exist";
const NO_PARENT: &str = "the parent of the path does not exist or is not a container";
const BAD_INDEX: &str = "the array index is not valid here";

/// How to undo one change a patch made (see [`rollback`]). A value that is `None` is the one
/// the undo just before took back (a `move` takes a value out and adds it elsewhere).
enum Undo {
    /// The whole document was replaced: put this one back.
    Root(Option<Json>),
    /// The value at the path was replaced: put this one back.
    Value(Vec<String>, Json),
    /// A new member was appended to the object at the path: take it off.
    Appended(Vec<String>),
    /// A member was taken out of the object at the path, leaving a hole in its slot.
    Member(Vec<String>, usize, String, Option<Json>),
    /// An element was inserted into the array at the path, at the index: take it out.
    Inserted(Vec<String>, usize),
    /// An element was removed from the array at the path, at the index: put it back.
    Element(Vec<String>, usize, Option<Json>),
    /// The holes of the object at the path were squeezed out: put them back.
    Squeezed(Vec<String>, Squeezed),
}

/// Gives the value a [`take`] logged as carried to its undo (the value stays in the log until
/// the patch is through).
fn keep(log: &mut [Undo], value: Json) {
    if let Some(Undo::Root(slot) | Undo::Member(.., slot) | Undo::Element(.., slot)) =
        log.last_mut()
    {
        *slot = Some(value);
    }
}

/// Adds `value` at `path`, logging how to undo it; on failure, gives the value back.
fn add(
    doc: &mut Json,
    path: &[String],
    value: Json,
    log: &mut Vec<Undo>,
    limits: &Limits,
) -> Result<(), (&'static str, Json)> {
    let Some((last, parent)) = path.split_last() else {
        log.push(Undo::Root(Some(std::mem::replace(doc, value))));
        return Ok(());
    };
    match get_mut(doc, parent) {
        Some(Json::Object(o)) => {
            log.push(match o.insert(last.clone(), value) {
                Some(old) => Undo::Value(path.to_vec(), old),
                None => Undo::Appended(parent.to_vec()),
            });
            Ok(())
        }
        Some(Json::Array(a)) => {
            let i = if last == "-" {
                Some(a.len())
            } else {
                index(last, a.len(), true)
            };
            let Some(i) = i else {
                return Err((BAD_INDEX, value));
            };
            if let Err(why) = limits.move_(a.len() - i) {
                return Err((why, value));
            }
            a.insert(i, value);
            log.push(Undo::Inserted(parent.to_vec(), i));
            Ok(())
        }
        _ => Err((NO_PARENT, value)),
    }
}

/// Takes the value at `path` out, logging how to put it back (the value itself is given to
/// the log by [`keep`], or comes back from where a `move` put it).
fn take(
    doc: &mut Json,
    path: &[String],
    log: &mut Vec<Undo>,
    limits: &Limits,
) -> Result<Json, &'static str> {
    let Some((last, parent)) = path.split_last() else {
        log.push(Undo::Root(None));
        return Ok(std::mem::take(doc));
    };
    match get_mut(doc, parent) {
        Some(Json::Object(o)) => {
            if let Some(squeezed) = o.squeeze() {
                log.push(Undo::Squeezed(parent.to_vec(), squeezed));
            }
            let (slot, key, v) = o.take_slot(last).ok_or(NO_PATH)?;
            log.push(Undo::Member(parent.to_vec(), slot, key, None));
            Ok(v)
        }
        Some(Json::Array(a)) => {
            let i = index(last, a.len(), false).ok_or(NO_PATH)?;
            limits.move_(a.len() - i - 1)?;
            log.push(Undo::Element(parent.to_vec(), i, None));
            Ok(a.remove(i))
        }
        _ => Err(NO_PATH),
    }
}

/// Undoes the logged changes, last first, leaving `doc` as it was before the patch.
fn rollback(doc: &mut Json, log: Vec<Undo>) {
    let mut carried: Option<Json> = None;
    for undo in log.into_iter().rev() {
        super::stats::tick(1);
        match undo {
            Undo::Root(v) => {
                let v = v.or_else(|| carried.take()).unwrap_or_default();
                carried = Some(std::mem::replace(doc, v));
            }
            Undo::Value(path, old) => {
                if let Some(slot) = get_mut(doc, &path) {
                    carried = Some(std::mem::replace(slot, old));
                }
            }
            Undo::Appended(parent) => {
                if let Some(Json::Object(o)) = get_mut(doc, &parent) {
                    carried = o.pop_last();
                }
            }
            Undo::Member(parent, slot, key, v) => {
                if let (Some(Json::Object(o)), Some(v)) =
                    (get_mut(doc, &parent), v.or_else(|| carried.take()))
                {
                    o.put_back(slot, key, v);
                }
            }
            Undo::Inserted(parent, i) => {
                if let Some(Json::Array(a)) = get_mut(doc, &parent)
                    && i < a.len()
                {
                    carried = Some(a.remove(i));
                }
            }
            Undo::Element(parent, i, v) => {
                if let (Some(Json::Array(a)), Some(v)) =
                    (get_mut(doc, &parent), v.or_else(|| carried.take()))
                {
                    a.insert(i.min(a.len()), v);
                }
            }
            Undo::Squeezed(path, squeezed) => {
                if let Some(Json::Object(o)) = get_mut(doc, &path) {
                    o.unsqueeze(squeezed);
                }
            }
        }
    }
}

/// The default of [`apply_patch`]'s size limit, and of
/// [`ReduceOptions::max_state_bytes`](super::ReduceOptions::max_state_bytes): 256 MiB.
pub const DEFAULT_MAX_BYTES: usize = 256 << 20;

/// Applies `patch` (a JSON array of operations) to a copy of `doc` and returns the result.
/// `max_depth` bounds the nesting of the result, and its size (as [`Json::approx_size`]) may
/// not pass 256 MiB ([`DEFAULT_MAX_BYTES`]): a `copy` that would cross it fails before anything
/// is copied.
///
/// ```
/// use agui_wire::reducer::{Json, apply_patch};
/// let doc = Json::parse(r#"{"cart":[],"total":0}"#).unwrap();
/// let patch = Json::parse(r#"[{"op":"add","path":"/cart/-","value":{"sku":"A1"}},
///                             {"op":"replace","path":"/total","value":12.5},
///                             {"op":"copy","from":"/cart/0","path":"/last"}]"#).unwrap();
/// let out = apply_patch(&doc, &patch, 512).unwrap();
/// assert_eq!(out.to_string(), r#"{"cart":[{"sku":"A1"}],"total":12.5,"last":{"sku":"A1"}}"#);
/// ```
pub fn apply_patch(doc: &Json, patch: &Json, max_depth: usize) -> Result<Json, PatchError> {
    let limits = Limits {
        max_depth,
        max_bytes: DEFAULT_MAX_BYTES,
        max_moved: u64::MAX,
        moved: Cell::new(0),
    };
    let mut out = doc.clone();
    apply(&mut out, patch.clone(), doc.approx_size(), &limits)?;
    Ok(out)
}

/// The bounds of [`apply`].
pub(crate) struct Limits {
    pub(crate) max_depth: usize,
    /// The largest result, as [`Json::approx_size`].
    pub(crate) max_bytes: usize,
    /// The work counted in `moved` may not pass this.
    pub(crate) max_moved: u64,
    /// Work whose cost the patch's own size does not bound, counted up as it is done: array
    /// elements moved to insert or remove before the end, and the values a `copy` copies or a
    /// depth check walks.
    pub(crate) moved: Cell<u64>,
}

impl Limits {
    /// Counts `n` more units of [`moved`](Self::moved) work, or refuses them.
    fn move_(&self, n: usize) -> Result<(), &'static str> {
        let total = self.moved.get().saturating_add(n as u64);
        if total > self.max_moved {
            return Err(TOO_MUCH_MOVED);
        }
        self.moved.set(total);
        super::stats::tick(n as u64);
        Ok(())
    }
}

/// Why the result would be too big.
pub(crate) const TOO_LARGE: &str = "the result would be larger than the size limit";

/// Why the patch would do more work than allowed ([`Limits::max_moved`]).
pub(crate) const TOO_MUCH_MOVED: &str =
    "the patch would move or copy more values than the stream's allowance";

/// What a member (with its key) or element adds to the size of its container.
fn member_size(v: &Json, key: Option<&str>) -> usize {
    v.approx_size() + key.map_or(0, super::walk::key_size)
}

/// What `add`ing `v` at `path` adds to the size, and the value it would replace (measured
/// only if need be, see [`Size`]).
fn added<'d>(doc: &'d Json, path: &[String], v: &Json) -> (usize, Option<&'d Json>) {
    let Some((last, parent)) = path.split_last() else {
        return (v.approx_size(), Some(doc));
    };
    match get(doc, parent) {
        Some(Json::Object(o)) => match o.get(last) {
            Some(old) => (v.approx_size(), Some(old)),
            None => (member_size(v, Some(last)), None),
        },
        Some(Json::Array(_)) => (member_size(v, None), None),
        _ => (0, None),
    }
}

/// The size of an object member's key at `path` (0 for an array element or the root).
fn key_at(doc: &Json, path: &[String]) -> usize {
    match path.split_last() {
        Some((last, parent)) if matches!(get(doc, parent), Some(Json::Object(_))) => {
            super::walk::key_size(last)
        }
        _ => 0,
    }
}

/// The value an undo entry holds that the patch took out of the document (removed or
/// replaced), if any.
fn taken(undo: &Undo) -> Option<&Json> {
    match undo {
        Undo::Value(_, v)
        | Undo::Root(Some(v))
        | Undo::Member(.., Some(v))
        | Undo::Element(.., Some(v)) => Some(v),
        _ => None,
    }
}

/// The result's size while a patch runs, kept as a bound that leaves the values the patch took
/// out still counted: they are measured (walked) only when the bound would pass the limit, or
/// once the patch has gone through, when they are dropped anyway. So a patch that fails, and
/// is undone, never walks what it removed.
struct Size {
    bound: usize,
    /// The log entries before this one have their taken values subtracted.
    measured: usize,
}

impl Size {
    /// Subtracts the values taken out since the last time.
    fn settle(&mut self, log: &[Undo]) {
        for undo in log.get(self.measured..).unwrap_or_default() {
            if let Some(v) = taken(undo) {
                self.bound = self.bound.saturating_sub(v.approx_size());
            }
        }
        self.measured = log.len();
    }

    /// The size once `add` is added and `sub` and the value `old` (about to be replaced)
    /// taken off, if it is within `max`; and whether `old` was measured (its log entry, the
    /// next, must then not be measured again: see [`counted`](Self::counted)).
    fn grow(
        &mut self,
        (add, sub): (usize, usize),
        old: Option<&Json>,
        log: &[Undo],
        max: usize,
    ) -> Option<(usize, bool)> {
        let next = self.bound.saturating_add(add).saturating_sub(sub);
        if next <= max {
            return Some((next, false));
        }
        self.settle(log);
        let old = old.map_or(0, Json::approx_size);
        let next = (self.bound.saturating_add(add))
            .saturating_sub(sub)
            .saturating_sub(old);
        (next <= max).then_some((next, old > 0))
    }

    /// Takes the new size; when the replaced value was measured, the entries logged since
    /// (its own among them) count as measured.
    fn counted(&mut self, (next, measured): (usize, bool), log: &[Undo]) {
        self.bound = next;
        if measured {
            self.measured = log.len();
        }
    }
}

/// Applies `patch` to `doc` (whose [`Json::approx_size`] is `size`) in place, giving the
/// result's size, kept up to date operation by operation; when an operation fails, the changes
/// made so far are undone and `doc` is as it was. The work is that of the operations (plus what
/// a `copy` copies, and a walk of what the patch removed or replaced once it has gone through
/// and drops it; see [`Size`]), not a copy of the document. The operations'
/// values are moved out of `patch`, not copied; a `copy` is measured before it is made.
pub(crate) fn apply(
    doc: &mut Json,
    patch: Json,
    size: usize,
    limits: &Limits,
) -> Result<usize, PatchError> {
    let mut log = Vec::new();
    let result = run(doc, patch, size, limits, &mut log);
    if result.is_err() {
        rollback(doc, log);
    }
    result
}

/// [`apply`]'s operations, logging how to undo each change.
fn run(
    out: &mut Json,
    mut patch: Json,
    size: usize,
    limits: &Limits,
    log: &mut Vec<Undo>,
) -> Result<usize, PatchError> {
    let max_depth = limits.max_depth;
    let Json::Array(ops) = &mut patch else {
        return Err(PatchError {
            index: 0,
            operation: String::new(),
            reason: "the patch is not an array",
        });
    };
    // What `copy` operations have copied so far: bounded by the size limit too, so that a
    // patch copying a big value in and out again cannot make work without end.
    let mut copied = 0usize;
    // The first `move` to a deeper path, if any: the result's depth is checked at the end.
    let mut deepened: Option<usize> = None;
    let mut size = Size {
        bound: size,
        measured: 0,
    };
    let max_bytes = limits.max_bytes;
    for (i, op) in ops.iter_mut().enumerate() {
        super::stats::tick(1);
        let name = op.get("op").and_then(Json::as_str).unwrap_or("").to_owned();
        let path_text = op
            .get("path")
            .and_then(Json::as_str)
            .unwrap_or("")
            .to_owned();
        let err = |reason| PatchError {
            index: i,
            operation: format!("{name} {path_text}"),
            reason,
        };
        if !matches!(
            name.as_str(),
            "add" | "remove" | "replace" | "move" | "copy" | "test"
        ) {
            return Err(err("unknown `op`"));
        }
        let path = tokens(&path_text)
            .filter(|_| op.get("path").and_then(Json::as_str).is_some())
            .ok_or_else(|| err("`path` is not a JSON Pointer"))?;
        let from = op.get("from").and_then(Json::as_str).and_then(tokens);
        let from = || {
            from.clone()
                .ok_or_else(|| err("`from` is not a JSON Pointer"))
        };
        let value = op.remove("value");
        let value = || value.ok_or_else(|| err("`value` is missing"));
        let check_depth = |v: &Json| {
            if path.len() + v.depth() > max_depth {
                Err(err("the result would nest deeper than the limit"))
            } else {
                Ok(())
            }
        };
        match name.as_str() {
            "add" => {
                let v = value()?;
                check_depth(&v)?;
                let (more, old) = added(out, &path, &v);
                let next =
                    (size.grow((more, 0), old, log, max_bytes)).ok_or_else(|| err(TOO_LARGE))?;
                add(out, &path, v, log, limits).map_err(|(why, _)| err(why))?;
                size.counted(next, log);
            }
            "remove" => {
                // The key goes now; the value's size when it is measured (see `Size`).
                let key = key_at(out, &path);
                let v = take(out, &path, log, limits).map_err(err)?;
                keep(log, v);
                size.bound = size.bound.saturating_sub(key);
                if path.is_empty() {
                    // The document is `null` now.
                    size.bound = size.bound.saturating_add(out.approx_size());
                }
            }
            "replace" => {
                let v = value()?;
                check_depth(&v)?;
                let old = get(out, &path).ok_or_else(|| err(NO_PATH))?;
                let next = (size.grow((v.approx_size(), 0), Some(old), log, max_bytes))
                    .ok_or_else(|| err(TOO_LARGE))?;
                if let Some(slot) = get_mut(out, &path) {
                    log.push(Undo::Value(path.clone(), std::mem::replace(slot, v)));
                }
                size.counted(next, log);
            }
            "move" => {
                let from = from()?;
                if from == path {
                    get(out, &from).ok_or_else(|| err("`from` does not exist"))?;
                    continue;
                }
                if path.len() > from.len() && path.starts_with(&from) {
                    return Err(err("a value cannot be moved into one of its children"));
                }
                get(out, &from).ok_or_else(|| err("`from` does not exist"))?;
                // The moved value is not walked (a patch may move a big value back and forth):
                // its size goes with it, only the keys and a replaced value count, and the
                // depth is checked once, on the result, if a move went deeper.
                if path.len() > from.len() && deepened.is_none() {
                    deepened = Some(i);
                }
                let old_key = key_at(out, &from);
                let v = take(out, &from, log, limits).map_err(err)?;
                // What the value lands on: the whole document, or a member of the same key.
                let (replaced_key, old) = match path.split_last() {
                    None => (0, Some(&*out)),
                    Some((last, parent)) => match get(out, parent) {
                        Some(Json::Object(o)) => match o.get(last) {
                            Some(old) => (super::walk::key_size(last), Some(old)),
                            None => (0, None),
                        },
                        _ => (0, None),
                    },
                };
                let new_key = key_at(out, &path);
                let sub = old_key.saturating_add(replaced_key);
                let Some(next) = size.grow((new_key, sub), old, log, max_bytes) else {
                    keep(log, v);
                    return Err(err(TOO_LARGE));
                };
                if let Err((why, v)) = add(out, &path, v, log, limits) {
                    keep(log, v);
                    return Err(err(why));
                }
                size.counted(next, log);
            }
            "copy" => {
                let from = from()?;
                let src = get(out, &from).ok_or_else(|| err("`from` does not exist"))?;
                check_depth(src)?;
                // Measured before it is made: a copy past the limit allocates nothing.
                let (more, old) = added(out, &path, src);
                let next =
                    (size.grow((more, 0), old, log, max_bytes)).ok_or_else(|| err(TOO_LARGE))?;
                let bytes = src.approx_size();
                copied = copied.saturating_add(bytes);
                if copied > limits.max_bytes {
                    return Err(err(TOO_LARGE));
                }
                // A copy costs what it copies: drawn from the allowance, a value per unit.
                limits
                    .move_(bytes / std::mem::size_of::<Json>())
                    .map_err(err)?;
                let v = src.clone();
                add(out, &path, v, log, limits).map_err(|(why, _)| err(why))?;
                size.counted(next, log);
            }
            _ => {
                let v = value()?;
                let cur = get(out, &path).ok_or_else(|| err(NO_PATH))?;
                if *cur != v {
                    return Err(err("the test failed: the value differs"));
                }
            }
        }
    }
    // The depth check walks the document: counted as moved work, one unit per value at most
    // (each value is at least a `Json` in the size).
    if let Some(i) = deepened
        && let Err(why) = limits.move_(size.bound / std::mem::size_of::<Json>())
    {
        return Err(PatchError {
            index: i,
            operation: "move".to_owned(),
            reason: why,
        });
    }
    if let Some(i) = deepened
        && out.depth() > max_depth
    {
        return Err(PatchError {
            index: i,
            operation: "move".to_owned(),
            reason: "the result would nest deeper than the limit",
        });
    }
    size.settle(log);
    Ok(size.bound)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(doc: &str, patch: &str) -> Result<String, String> {
        let doc = Json::parse(doc).unwrap();
        let patch = Json::parse(patch).unwrap();
        apply_patch(&doc, &patch, 64)
            .map(|v| v.to_string())
            .map_err(|e| e.to_string())
    }

    #[test]
    fn rfc6902_appendix_a() {
        let ok =
            |doc, patch, want: &str| assert_eq!(run(doc, patch).as_deref(), Ok(want), "{patch}");
        ok(
            r#"{"foo":"bar"}"#,
            r#"[{"op":"add","path":"/baz","value":"qux"}]"#,
            r#"{"foo":"bar","baz":"qux"}"#,
        );
        ok(
            r#"{"foo":["bar","baz"]}"#,
            r#"[{"op":"add","path":"/foo/1","value":"qux"}]"#,
            r#"{"foo":["bar","qux","baz"]}"#,
        );
        ok(
            r#"{"baz":"qux","foo":"bar"}"#,
            r#"[{"op":"remove","path":"/baz"}]"#,
            r#"{"foo":"bar"}"#,
        );
        ok(
            r#"{"foo":["bar","qux","baz"]}"#,
            r#"[{"op":"remove","path":"/foo/1"}]"#,
            r#"{"foo":["bar","baz"]}"#,
        );
        ok(
            r#"{"baz":"qux","foo":"bar"}"#,
            r#"[{"op":"replace","path":"/baz","value":"boo"}]"#,
            r#"{"baz":"boo","foo":"bar"}"#,
        );
        ok(
            r#"{"foo":{"bar":"baz","waldo":"fred"},"qux":{"corge":"grault"}}"#,
            r#"[{"op":"move","from":"/foo/waldo","path":"/qux/thud"}]"#,
            r#"{"foo":{"bar":"baz"},"qux":{"corge":"grault","thud":"fred"}}"#,
        );
        ok(
            r#"{"foo":["all","grass","cows","eat"]}"#,
            r#"[{"op":"move","from":"/foo/1","path":"/foo/3"}]"#,
            r#"{"foo":["all","cows","eat","grass"]}"#,
        );
        ok(
            r#"{"baz":"qux","foo":["a",2,"c"]}"#,
            r#"[{"op":"test","path":"/baz","value":"qux"},{"op":"test","path":"/foo/1","value":2}]"#,
            r#"{"baz":"qux","foo":["a",2,"c"]}"#,
        );
        ok(
            r#"{"foo":"bar"}"#,
            r#"[{"op":"add","path":"/child","value":{"grandchild":{}}}]"#,
            r#"{"foo":"bar","child":{"grandchild":{}}}"#,
        );
        ok(
            r#"{"foo":"bar"}"#,
            r#"[{"op":"add","path":"/baz","value":"qux","xyz":123}]"#,
            r#"{"foo":"bar","baz":"qux"}"#,
        );
        ok(
            r#"{"foo":["bar"]}"#,
            r#"[{"op":"add","path":"/foo/-","value":["abc","def"]}]"#,
            r#"{"foo":["bar",["abc","def"]]}"#,
        );
        ok(
            r#"{"/":9,"~1":10}"#,
            r#"[{"op":"test","path":"/~01","value":10}]"#,
            r#"{"/":9,"~1":10}"#,
        );
        ok(
            r#"{"a/b":1}"#,
            r#"[{"op":"move","from":"/a~1b","path":"/c"}]"#,
            r#"{"c":1}"#,
        );
        ok(
            r#"{"a":1}"#,
            r#"[{"op":"add","path":"","value":[1]}]"#,
            r#"[1]"#,
        );
        ok(r#"{"a":1}"#, r#"[{"op":"remove","path":""}]"#, "null");
        ok(
            r#"{"a":{"b":1}}"#,
            r#"[{"op":"copy","from":"/a","path":""}]"#,
            r#"{"b":1}"#,
        );
        ok(
            r#"[1,2]"#,
            r#"[{"op":"test","path":"","value":[1.0,2e0]}]"#,
            "[1,2]",
        );
        let err = |doc, patch| assert!(run(doc, patch).is_err(), "{patch} should fail");
        err(
            r#"{"foo":"bar"}"#,
            r#"[{"op":"add","path":"/baz/bat","value":"qux"}]"#,
        );
        err(
            r#"{"baz":"qux"}"#,
            r#"[{"op":"test","path":"/baz","value":"bar"}]"#,
        );
        err(
            r#"{"foo":[1]}"#,
            r#"[{"op":"add","path":"/foo/2","value":1}]"#,
        );
        err(
            r#"{"foo":[1]}"#,
            r#"[{"op":"add","path":"/foo/01","value":1}]"#,
        );
        err(r#"{"foo":[1]}"#, r#"[{"op":"remove","path":"/foo/-"}]"#);
        err(
            r#"{"foo":[1]}"#,
            r#"[{"op":"replace","path":"/foo/x","value":1}]"#,
        );
        err(
            r#"{"a":{}}"#,
            r#"[{"op":"move","from":"/a","path":"/a/b"}]"#,
        );
        err(r#"{}"#, r#"[{"op":"copy","from":"/x","path":"/y"}]"#);
        err(r#"{}"#, r#"[{"op":"test","path":"/x","value":null}]"#);
        err(r#"{"a":"s"}"#, r#"[{"op":"add","path":"/a/b","value":1}]"#);
    }

    #[test]
    fn atomic_and_bounded() {
        let doc = Json::parse(r#"{"a":1}"#).unwrap();
        let patch =
            Json::parse(r#"[{"op":"add","path":"/b","value":2},{"op":"remove","path":"/zz"}]"#)
                .unwrap();
        let err = apply_patch(&doc, &patch, 64).unwrap_err();
        assert_eq!(err.index, 1);
        assert_eq!(doc.to_string(), r#"{"a":1}"#);
        let deep = Json::parse(r#"[{"op":"add","path":"/b","value":[[[[1]]]]}]"#).unwrap();
        assert!(apply_patch(&doc, &deep, 4).is_err());
        assert!(apply_patch(&doc, &deep, 5).is_ok());
    }

    /// Random patches over small and indexed objects and arrays, each ending in an operation
    /// that fails: the document must come back exactly (member order, and every key found
    /// through the object's index again), however the operations before moved, removed,
    /// replaced, copied or squeezed.
    #[test]
    fn a_failing_patch_undoes_every_change() {
        let mut rng = super::super::test_rng(0x9e37_79b9_7f4a_7c15_u64);
        let keys: Vec<String> = (0..24).map(|i| format!("k{i}")).collect();
        let doc_text = format!(
            r#"{{"o":{{{}}},"s":{{"a":1,"b":[1,2,3]}},"l":[0,1,2,3,4,5],"k0":0}}"#,
            keys.iter()
                .enumerate()
                .map(|(i, k)| format!(r#""{k}":{i}"#))
                .collect::<Vec<_>>()
                .join(",")
        );
        let paths = |rng: &mut dyn FnMut(usize) -> usize| -> String {
            match rng(6) {
                0 => format!("/o/k{}", rng(26)),
                1 => ["/s/a", "/s/b", "/s/c", "/s/b/0", "/s/b/-"][rng(5)].to_owned(),
                2 => format!("/l/{}", rng(8)),
                3 => "/l/-".to_owned(),
                4 => ["/o", "/s", "/l", "/k0", "/new"][rng(5)].to_owned(),
                _ => format!("/k{}", rng(4)),
            }
        };
        for round in 0..3000 {
            let doc = Json::parse(&doc_text).unwrap();
            let mut ops = Vec::new();
            if round % 3 == 0 {
                // Enough removals from the indexed object to squeeze its holes out.
                let start = rng(24);
                ops.extend(
                    (0..14 + rng(8))
                        .map(|j| format!(r#"{{"op":"remove","path":"/o/k{}"}}"#, (start + j) % 24)),
                );
            }
            for _ in 0..rng(30) {
                let path = paths(&mut rng);
                let from = paths(&mut rng);
                ops.push(match rng(6) {
                    0 => format!(r#"{{"op":"add","path":"{path}","value":{{"v":{round}}}}}"#),
                    1 => format!(r#"{{"op":"remove","path":"{path}"}}"#),
                    2 => format!(r#"{{"op":"replace","path":"{path}","value":[{round}]}}"#),
                    3 => format!(r#"{{"op":"move","from":"{from}","path":"{path}"}}"#),
                    4 => format!(r#"{{"op":"copy","from":"{from}","path":"{path}"}}"#),
                    _ => format!(r#"{{"op":"remove","path":"/o/k{}"}}"#, rng(24)),
                });
            }
            ops.push(r#"{"op":"test","path":"","value":"never"}"#.to_owned());
            let patch = Json::parse(&format!("[{}]", ops.join(","))).unwrap();
            let mut out = doc.clone();
            let limits = Limits {
                max_depth: 64,
                max_bytes: DEFAULT_MAX_BYTES,
                max_moved: u64::MAX,
                moved: Cell::new(0),
            };
            assert!(apply(&mut out, patch, doc.approx_size(), &limits).is_err());
            assert_eq!(out.to_string(), doc_text, "round {round}: {ops:?}");
            let o = out.get("o").unwrap().as_object().unwrap();
            for (i, k) in keys.iter().enumerate() {
                assert_eq!(
                    o.get(k).map(Json::to_string),
                    Some(i.to_string()),
                    "round {round}"
                );
            }
        }
    }

    /// Random patches without `copy` (whose own bound on what it copies would need modelling):
    /// the size given back is the result's `approx_size`, and under a limit the patch fails
    /// with `TOO_LARGE` at exactly the first operation (every one but `remove`) after which the document is past it (the values
    /// taken out are measured late, but the answers are the eager ones).
    #[test]
    fn sizes_are_exact_and_the_limit_is_met_at_the_right_operation() {
        let mut rng = super::super::test_rng(0x1234_5678_9abc_def1_u64);
        let doc_text = r#"{"o":{"a":"xxxxxxxxxxxxxxxx","b":[1,2,3,4],"c":{"d":"yyyy"}},"l":["zzzzzzzz",[1,[2]]],"s":"ssssssss"}"#;
        let paths = [
            "/o/a", "/o/b", "/o/c", "/o/c/d", "/o/b/0", "/l/0", "/l/1", "/l/-", "/s", "/n", "/o/n",
            "",
        ];
        let unlimited = Limits {
            max_depth: 64,
            max_bytes: usize::MAX,
            max_moved: u64::MAX,
            moved: Cell::new(0),
        };
        let mut limited_rounds = 0;
        for round in 0..2000 {
            let doc = Json::parse(doc_text).unwrap();
            let ops: Vec<String> = (0..1 + rng(8))
                .map(|_| {
                    let (path, from) = (paths[rng(paths.len())], paths[rng(paths.len())]);
                    let value =
                        ["1", r#""a long value, longer than the rest""#, "[[1,2],{}]"][rng(3)];
                    match rng(4) {
                        0 => format!(r#"{{"op":"add","path":"{path}","value":{value}}}"#),
                        1 => format!(r#"{{"op":"remove","path":"{path}"}}"#),
                        2 => format!(r#"{{"op":"replace","path":"{path}","value":{value}}}"#),
                        _ => format!(r#"{{"op":"move","from":"{from}","path":"{path}"}}"#),
                    }
                })
                .collect();
            // The sizes after each operation, one operation at a time, measured eagerly.
            let mut step = doc.clone();
            let mut sizes = Vec::new();
            for op in &ops {
                let one = Json::parse(&format!("[{op}]")).unwrap();
                let before = step.approx_size();
                if apply(&mut step, one, before, &unlimited).is_err() {
                    break;
                }
                sizes.push(step.approx_size());
            }
            let patch = Json::parse(&format!("[{}]", ops.join(","))).unwrap();
            let mut out = doc.clone();
            match apply(&mut out, patch.clone(), doc.approx_size(), &unlimited) {
                Ok(size) => {
                    assert_eq!(sizes.len(), ops.len(), "round {round}");
                    assert_eq!(size, out.approx_size(), "round {round}: {ops:?}");
                }
                Err(e) => assert_eq!(e.index, sizes.len(), "round {round}: {ops:?}"),
            }
            // A limit just under one of the sizes reached, above the document's own (as the
            // reducer's state always is when a patch starts): the first operation past it fails.
            let above: Vec<usize> = sizes
                .iter()
                .copied()
                .filter(|&s| s > doc.approx_size())
                .collect();
            let Some(&target) = above.get(rng(above.len().max(1))) else {
                continue;
            };
            let max_bytes = target - 1;
            let limited = Limits {
                max_depth: 64,
                max_bytes,
                max_moved: u64::MAX,
                moved: Cell::new(0),
            };
            let mut out = doc.clone();
            let result = apply(&mut out, patch, doc.approx_size(), &limited);
            // Every operation but `remove`, and a `move` onto itself, checks the limit.
            let checks = |op: &str| {
                let op = Json::parse(op).unwrap();
                let field = |k| op.get(k).and_then(Json::as_str);
                match field("op") {
                    Some("remove") => false,
                    Some("move") => field("from") != field("path"),
                    _ => true,
                }
            };
            let first_past =
                (sizes.iter().zip(&ops)).position(|(&s, op)| s > max_bytes && checks(op));
            match (result, first_past) {
                (Err(e), Some(at)) if e.reason == TOO_LARGE => {
                    assert_eq!(e.index, at, "round {round}: {ops:?} limit {max_bytes}");
                    limited_rounds += 1;
                }
                // Never past the limit: as without one.
                (Err(e), None) if e.reason != TOO_LARGE => assert_eq!(e.index, sizes.len()),
                (Ok(_), None) if sizes.len() == ops.len() => continue,
                (r, at) => panic!(
                    "round {round}: {ops:?} limit {max_bytes}: {r:?}, expected too large at {at:?}"
                ),
            }
            assert_eq!(out.to_string(), doc.to_string(), "round {round}");
        }
        assert!(
            limited_rounds > 200,
            "{limited_rounds} rounds met the limit"
        );
    }
}
