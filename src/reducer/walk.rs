//! Every whole-tree operation on [`Json`] (copying, comparing, writing, measuring, dropping)
//! without recursion: an explicit stack, so a tree of any depth costs heap, never call stack.

use super::json::Json;
use super::object::{JsonObject, Members};
use super::stats;

/// One step of a depth-first walk.
pub(crate) enum Step<'a> {
    /// A value that is not a container.
    Scalar(&'a Json),
    /// An array (`true`: an object) opens.
    Open(&'a Json),
    /// The key of the object member whose value comes next.
    Key(&'a str),
    /// The innermost open container closes (`true`: an object).
    Close(bool),
}

enum Cursor<'a> {
    Arr(std::slice::Iter<'a, Json>),
    Obj(Members<'a>),
}

fn enter<'a>(v: &'a Json, stack: &mut Vec<Cursor<'a>>, f: &mut impl FnMut(Step<'a>)) {
    stats::tick(1);
    match v {
        Json::Array(a) => {
            f(Step::Open(v));
            stack.push(Cursor::Arr(a.iter()));
        }
        Json::Object(o) => {
            f(Step::Open(v));
            stack.push(Cursor::Obj(o.members()));
        }
        _ => f(Step::Scalar(v)),
    }
}

/// Walks `root` depth first, members in order.
pub(crate) fn walk<'a>(root: &'a Json, mut f: impl FnMut(Step<'a>)) {
    let mut stack: Vec<Cursor<'a>> = Vec::new();
    enter(root, &mut stack, &mut f);
    while let Some(top) = stack.last_mut() {
        match top {
            Cursor::Arr(it) => match it.next() {
                Some(v) => enter(v, &mut stack, &mut f),
                None => {
                    stack.pop();
                    f(Step::Close(false));
                }
            },
            Cursor::Obj(it) => match it.next() {
                Some((k, v)) => {
                    f(Step::Key(k));
                    enter(v, &mut stack, &mut f);
                }
                None => {
                    stack.pop();
                    f(Step::Close(true));
                }
            },
        }
    }
}

enum Frame {
    Arr(Vec<Json>),
    /// Members so far, the pending key, and whether keys may repeat.
    Obj(Vec<(String, Json)>, Option<String>, bool),
}

/// Builds a tree from values, opens, keys and closes (the inverse of [`walk`]).
#[derive(Default)]
pub(crate) struct Builder {
    stack: Vec<Frame>,
    result: Option<Json>,
}

impl Builder {
    pub(crate) fn depth(&self) -> usize {
        self.stack.len()
    }
    pub(crate) fn done(&self) -> bool {
        self.result.is_some()
    }
    /// Whether the next string is a key.
    pub(crate) fn wants_key(&self) -> bool {
        matches!(self.stack.last(), Some(Frame::Obj(_, None, _)))
    }
    pub(crate) fn value(&mut self, v: Json) {
        match self.stack.last_mut() {
            None => self.result = Some(v),
            Some(Frame::Arr(a)) => a.push(v),
            Some(Frame::Obj(m, key, _)) => m.push((key.take().unwrap_or_default(), v)),
        }
    }
    pub(crate) fn open_array(&mut self, cap: usize) {
        self.stack.push(Frame::Arr(Vec::with_capacity(cap)));
    }
    /// `unique`: the keys are known not to repeat (a copy of an object).
    pub(crate) fn open_object(&mut self, cap: usize, unique: bool) {
        self.stack
            .push(Frame::Obj(Vec::with_capacity(cap), None, !unique));
    }
    pub(crate) fn key(&mut self, k: String) {
        if let Some(Frame::Obj(_, key, _)) = self.stack.last_mut() {
            *key = Some(k);
        }
    }
    /// Closes the innermost container; `false` when none is open.
    pub(crate) fn close(&mut self) -> bool {
        let v = match self.stack.pop() {
            Some(Frame::Arr(a)) => Json::Array(a),
            Some(Frame::Obj(m, _, false)) => Json::Object(JsonObject::from_unique(m)),
            Some(Frame::Obj(m, _, true)) => Json::Object(JsonObject::from(m)),
            None => return false,
        };
        self.value(v);
        true
    }
    pub(crate) fn finish(self) -> Option<Json> {
        self.result
    }
}

/// A copy of `v`.
pub(crate) fn clone(v: &Json) -> Json {
    let mut b = Builder::default();
    walk(v, |step| match step {
        Step::Scalar(s) => b.value(match s {
            Json::Bool(x) => Json::Bool(*x),
            Json::Number(n) => Json::Number(n.clone()),
            Json::String(x) => Json::String(x.clone()),
            _ => Json::Null,
        }),
        Step::Open(Json::Array(a)) => b.open_array(a.len()),
        Step::Open(Json::Object(o)) => b.open_object(o.len(), true),
        Step::Open(_) => {}
        Step::Key(k) => b.key(k.to_owned()),
        Step::Close(_) => {
            b.close();
        }
    });
    b.finish().unwrap_or_default()
}

/// Numbers compare by value, as JavaScript numbers do (`1 == 1.0`, `1e3 == 1000`).
fn number_eq(a: &str, b: &str) -> bool {
    a == b
        || match (a.parse::<f64>(), b.parse::<f64>()) {
            (Ok(x), Ok(y)) => x == y,
            _ => false,
        }
}

/// Deep equality as JSON Patch's `test` defines it: numbers by value, objects by their set of
/// members (in any order, each looked up by key), arrays element by element.
pub(crate) fn eq(a: &Json, b: &Json) -> bool {
    let mut pairs: Vec<(&Json, &Json)> = vec![(a, b)];
    while let Some((x, y)) = pairs.pop() {
        stats::tick(1);
        let same = match (x, y) {
            (Json::Null, Json::Null) => true,
            (Json::Bool(p), Json::Bool(q)) => p == q,
            (Json::Number(p), Json::Number(q)) => number_eq(p, q),
            (Json::String(p), Json::String(q)) => p == q,
            (Json::Array(p), Json::Array(q)) => {
                pairs.extend(p.iter().zip(q));
                p.len() == q.len()
            }
            (Json::Object(p), Json::Object(q)) => {
                p.len() == q.len()
                    && p.iter().all(|(k, v)| match q.get(k) {
                        Some(w) => {
                            pairs.push((v, w));
                            true
                        }
                        None => false,
                    })
            }
            _ => false,
        };
        if !same {
            return false;
        }
    }
    true
}

/// Nesting depth: 0 for a scalar, 1 for `[]` or `[1]`, and so on.
pub(crate) fn depth(v: &Json) -> usize {
    let (mut open, mut max) = (0usize, 0usize);
    walk(v, |step| match step {
        Step::Open(_) => {
            open += 1;
            max = max.max(open);
        }
        Step::Close(_) => open -= 1,
        _ => {}
    });
    max
}

/// What one value takes in its array or object slot (the enum), and what an object member's
/// key adds to it.
const VALUE: usize = std::mem::size_of::<Json>();
const KEY: usize = std::mem::size_of::<String>();

/// An estimate of the memory `v` holds: [`VALUE`] bytes per value, [`KEY`] per object key,
/// plus the bytes of its strings, numbers and keys (allocator overhead and spare capacity
/// aside).
pub(crate) fn approx_size(v: &Json) -> usize {
    let mut n = 0usize;
    walk(v, |step| {
        n = n.saturating_add(match step {
            Step::Scalar(Json::Number(s) | Json::String(s)) => VALUE + s.len(),
            Step::Scalar(_) | Step::Open(_) => VALUE,
            Step::Key(k) => KEY + k.len(),
            Step::Close(_) => 0,
        })
    });
    n
}

/// What an object member's key adds to [`approx_size`].
pub(crate) fn key_size(k: &str) -> usize {
    KEY + k.len()
}

/// Writes compact JSON through `push` (`escape`: writes a string with its quotes).
pub(crate) fn write<'a>(v: &'a Json, mut push: impl FnMut(Piece<'a>)) {
    // Whether a comma goes before the next array element or object key.
    let mut comma = false;
    // Whether the next value follows a key (no comma).
    let mut after_key = false;
    walk(v, |step| match step {
        Step::Key(k) => {
            if comma {
                push(Piece::Raw(b","));
            }
            push(Piece::Str(k));
            push(Piece::Raw(b":"));
            after_key = true;
        }
        Step::Scalar(s) => {
            if comma && !after_key {
                push(Piece::Raw(b","));
            }
            after_key = false;
            match s {
                Json::Null => push(Piece::Raw(b"null")),
                Json::Bool(true) => push(Piece::Raw(b"true")),
                Json::Bool(false) => push(Piece::Raw(b"false")),
                Json::Number(n) => push(Piece::Borrowed(n.as_bytes())),
                Json::String(x) => push(Piece::Str(x)),
                _ => {}
            }
            comma = true;
        }
        Step::Open(o) => {
            if comma && !after_key {
                push(Piece::Raw(b","));
            }
            after_key = false;
            push(Piece::Raw(if matches!(o, Json::Object(_)) {
                b"{"
            } else {
                b"["
            }));
            comma = false;
        }
        Step::Close(obj) => {
            push(Piece::Raw(if obj { b"}" } else { b"]" }));
            comma = true;
        }
    });
}

/// A piece of JSON text for [`write()`].
pub(crate) enum Piece<'a> {
    /// Punctuation or a literal.
    Raw(&'static [u8]),
    /// Bytes of the tree (a number's text).
    Borrowed(&'a [u8]),
    /// A string, to quote and escape.
    Str(&'a str),
}

/// The value as a `serde_json::Value` (numbers it cannot hold become `null`).
pub(crate) fn to_serde(v: &Json) -> serde_json::Value {
    use serde_json::Value as V;
    enum F {
        Arr(Vec<V>),
        Obj(serde_json::Map<String, V>, String),
    }
    let mut stack: Vec<F> = Vec::new();
    let mut out = V::Null;
    let mut put = |stack: &mut Vec<F>, x: V| match stack.last_mut() {
        None => out = x,
        Some(F::Arr(a)) => a.push(x),
        Some(F::Obj(m, k)) => {
            m.insert(std::mem::take(k), x);
        }
    };
    walk(v, |step| match step {
        Step::Scalar(s) => {
            let x = match s {
                Json::Bool(b) => V::Bool(*b),
                Json::Number(n) => n.parse::<serde_json::Number>().map_or(V::Null, V::Number),
                Json::String(x) => V::String(x.clone()),
                _ => V::Null,
            };
            put(&mut stack, x);
        }
        Step::Open(Json::Object(_)) => stack.push(F::Obj(serde_json::Map::new(), String::new())),
        Step::Open(_) => stack.push(F::Arr(Vec::new())),
        Step::Key(k) => {
            if let Some(F::Obj(_, key)) = stack.last_mut() {
                *key = k.to_owned();
            }
        }
        Step::Close(_) => {
            let x = match stack.pop() {
                Some(F::Arr(a)) => V::Array(a),
                Some(F::Obj(m, _)) => V::Object(m),
                None => V::Null,
            };
            put(&mut stack, x);
        }
    });
    out
}

/// Whether `v` is a container holding something.
fn has_children(v: &Json) -> bool {
    match v {
        Json::Array(a) => !a.is_empty(),
        Json::Object(o) => !o.is_empty(),
        _ => false,
    }
}

/// Moves the children of `v` onto `stack`, leaving it empty.
fn take_children(v: &mut Json, stack: &mut Vec<Json>) {
    match v {
        Json::Array(a) => stack.append(a),
        Json::Object(o) => stack.extend(o.take_members().map(|(_, x)| x)),
        _ => {}
    }
}

/// The body of `Json`'s `Drop`: when a child is itself a non-empty container, the subtree is
/// taken apart level by level on a heap stack, so that no drop recurses more than one level.
pub(crate) fn drop_children(v: &mut Json) {
    let nested = match v {
        Json::Array(a) => a.iter().any(has_children),
        Json::Object(o) => o.iter().any(|(_, x)| has_children(x)),
        _ => false,
    };
    if !nested {
        return;
    }
    let mut stack = Vec::new();
    take_children(v, &mut stack);
    while let Some(mut x) = stack.pop() {
        take_children(&mut x, &mut stack);
    }
}
