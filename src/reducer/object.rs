//! [`JsonObject`]: the members of a [`Json`] object, in insertion order, with a hash index once
//! the object is big enough for a scan to cost more than a hash.
//!
//! Small objects (the messages, tool calls and most states) are a plain list searched in
//! order. Past [`INDEX_FROM`] members an index (a hash table of positions, keyed by the
//! members' own strings, hashed with the standard library's randomly seeded SipHash so that
//! chosen keys cannot make it degrade) makes lookup, insertion and removal O(1). A removal in an
//! indexed object leaves a hole that iteration skips; the holes are squeezed out when they
//! outnumber the members, so removals cost O(1) amortized and keep the order of the others.

use std::hash::{BuildHasher, RandomState};

use hashbrown::HashTable;

use super::json::Json;
use super::stats;

/// Members at which an object gets its index.
const INDEX_FROM: usize = 8;

#[derive(Debug)]
struct Index {
    table: HashTable<usize>,
    hasher: RandomState,
}

impl Index {
    fn hash(&self, key: &str) -> u64 {
        self.hasher.hash_one(key)
    }
}

/// The members of a JSON object: keys unique, in the order they were first inserted (a
/// member set again keeps its place, as in JavaScript; unlike JavaScript, integer-like keys
/// are not moved first).
///
/// ```
/// use agui_wire::reducer::{Json, JsonObject};
/// let mut o = JsonObject::new();
/// o.insert("b".into(), Json::from(true));
/// o.insert("a".into(), Json::Null);
/// o.insert("b".into(), Json::from("again"));
/// assert_eq!(o.keys().collect::<Vec<_>>(), ["b", "a"]);
/// assert_eq!(o.get("b").and_then(Json::as_str), Some("again"));
/// assert_eq!(o.remove("b"), Some(Json::from("again")));
/// assert_eq!(o.len(), 1);
/// ```
///
/// `JsonObject` is `Send + Sync`.
#[derive(Default)]
pub struct JsonObject {
    /// The members; `None` is a removed member's hole (in indexed objects, and in any object
    /// while a JSON Patch that removed the member may still be undone).
    slots: Vec<Option<(String, Json)>>,
    live: usize,
    index: Option<Box<Index>>,
}

impl JsonObject {
    /// An empty object.
    ///
    /// ```
    /// # use agui_wire::reducer::JsonObject;
    /// assert!(JsonObject::new().is_empty());
    /// ```
    pub fn new() -> JsonObject {
        JsonObject::default()
    }

    /// An object with room for `n` members.
    ///
    /// ```
    /// # use agui_wire::reducer::JsonObject;
    /// assert!(JsonObject::with_capacity(4).is_empty());
    /// ```
    pub fn with_capacity(n: usize) -> JsonObject {
        JsonObject {
            slots: Vec::with_capacity(n),
            ..JsonObject::default()
        }
    }

    /// How many members it has.
    ///
    /// ```
    /// # use agui_wire::reducer::Json;
    /// assert_eq!(Json::parse(r#"{"a":1,"a":2}"#).unwrap().as_object().unwrap().len(), 1);
    /// ```
    pub fn len(&self) -> usize {
        self.live
    }

    /// Whether it has no member.
    ///
    /// ```
    /// # use agui_wire::reducer::JsonObject;
    /// assert!(JsonObject::new().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.live == 0
    }

    /// The slot of `key`.
    fn find(&self, key: &str) -> Option<usize> {
        match &self.index {
            Some(ix) => {
                stats::tick(1);
                let slots = &self.slots;
                ix.table
                    .find(ix.hash(key), |&i| {
                        slots[i].as_ref().is_some_and(|(k, _)| k == key)
                    })
                    .copied()
            }
            None => {
                let at = self
                    .slots
                    .iter()
                    .position(|s| s.as_ref().is_some_and(|(k, _)| k == key));
                stats::tick(at.map_or(self.slots.len(), |i| i + 1) as u64);
                at
            }
        }
    }

    /// The value of member `key`.
    ///
    /// ```
    /// # use agui_wire::reducer::Json;
    /// let v = Json::parse(r#"{"a":1}"#).unwrap();
    /// assert!(v.as_object().unwrap().get("a").is_some());
    /// ```
    pub fn get(&self, key: &str) -> Option<&Json> {
        let i = self.find(key)?;
        self.slots[i].as_ref().map(|(_, v)| v)
    }

    /// The value of member `key`, to edit.
    ///
    /// ```
    /// # use agui_wire::reducer::{Json, JsonObject};
    /// let mut o = JsonObject::new();
    /// o.insert("a".into(), Json::Null);
    /// *o.get_mut("a").unwrap() = Json::from(true);
    /// assert_eq!(o.get("a"), Some(&Json::from(true)));
    /// ```
    pub fn get_mut(&mut self, key: &str) -> Option<&mut Json> {
        let i = self.find(key)?;
        self.slots[i].as_mut().map(|(_, v)| v)
    }

    /// Sets member `key`: in its place when it exists (giving the old value), else at the end.
    ///
    /// ```
    /// # use agui_wire::reducer::{Json, JsonObject};
    /// let mut o = JsonObject::new();
    /// assert_eq!(o.insert("a".into(), Json::Null), None);
    /// assert_eq!(o.insert("a".into(), Json::from(true)), Some(Json::Null));
    /// ```
    pub fn insert(&mut self, key: String, value: Json) -> Option<Json> {
        if let Some(i) = self.find(&key)
            && let Some((_, v)) = self.slots[i].as_mut()
        {
            return Some(std::mem::replace(v, value));
        }
        self.push_new(key, value);
        None
    }

    /// Appends a member whose key is not in the object.
    fn push_new(&mut self, key: String, value: Json) {
        let at = self.slots.len();
        if let Some(ix) = &mut self.index {
            let h = ix.hash(&key);
            let (slots, hasher) = (&self.slots, &ix.hasher);
            ix.table.insert_unique(h, at, |&i| {
                hasher.hash_one(slots[i].as_ref().map_or("", |(k, _)| k.as_str()))
            });
        }
        self.slots.push(Some((key, value)));
        self.live += 1;
        if self.index.is_none() && self.live > INDEX_FROM {
            self.build_index();
        }
    }

    fn build_index(&mut self) {
        stats::tick(self.slots.len() as u64);
        let hasher = RandomState::new();
        let mut table = HashTable::with_capacity(self.live);
        for (i, s) in self.slots.iter().enumerate() {
            if let Some((k, _)) = s {
                let h = hasher.hash_one(k.as_str());
                table.insert_unique(h, i, |&j| {
                    hasher.hash_one(self.slots[j].as_ref().map_or("", |(k, _)| k.as_str()))
                });
            }
        }
        self.index = Some(Box::new(Index { table, hasher }));
    }

    /// Removes member `key`, keeping the order of the others, and gives its value.
    ///
    /// ```
    /// # use agui_wire::reducer::Json;
    /// let mut v = Json::parse(r#"{"a":1,"b":2,"c":3}"#).unwrap();
    /// v.remove("b");
    /// assert_eq!(v.to_string(), r#"{"a":1,"c":3}"#);
    /// ```
    pub fn remove(&mut self, key: &str) -> Option<Json> {
        let i = self.find(key)?;
        match &mut self.index {
            None => {
                self.live -= 1;
                self.slots.remove(i).map(|(_, v)| v)
            }
            Some(ix) => {
                let h = ix.hash(key);
                if let Ok(entry) = ix.table.find_entry(h, |&j| j == i) {
                    entry.remove();
                }
                let out = self.slots[i].take().map(|(_, v)| v);
                self.live -= 1;
                let holes = self.slots.len() - self.live;
                if holes > self.live.max(INDEX_FROM) {
                    self.compact();
                }
                out
            }
        }
    }

    /// Removes member `key` and leaves a hole in its slot (so that [`put_back`](Self::put_back)
    /// can restore the exact order): the slot, the key and the value. The holes stay until a
    /// [`squeeze`](Self::squeeze).
    pub(crate) fn take_slot(&mut self, key: &str) -> Option<(usize, String, Json)> {
        let i = self.find(key)?;
        if let Some(ix) = &mut self.index {
            let h = ix.hash(key);
            if let Ok(entry) = ix.table.find_entry(h, |&j| j == i) {
                entry.remove();
            }
        }
        let (k, v) = self.slots[i].take()?;
        self.live -= 1;
        Some((i, k, v))
    }

    /// Puts a member taken by [`take_slot`](Self::take_slot) back in its slot (still a hole:
    /// the changes made since have been undone).
    pub(crate) fn put_back(&mut self, slot: usize, key: String, value: Json) {
        if !matches!(self.slots.get(slot), Some(None)) {
            debug_assert!(false, "put_back into a slot that is not a hole");
            return;
        }
        if let Some(ix) = &mut self.index {
            let h = ix.hash(&key);
            let (slots, hasher) = (&self.slots, &ix.hasher);
            ix.table.insert_unique(h, slot, |&i| {
                hasher.hash_one(slots[i].as_ref().map_or("", |(k, _)| k.as_str()))
            });
        }
        self.slots[slot] = Some((key, value));
        self.live += 1;
    }

    /// Removes the last slot's member (one just appended by [`insert`](Self::insert)) and
    /// gives its value.
    pub(crate) fn pop_last(&mut self) -> Option<Json> {
        let (k, v) = self.slots.pop()??;
        if let Some(ix) = &mut self.index {
            let (h, at) = (ix.hash(&k), self.slots.len());
            if let Ok(entry) = ix.table.find_entry(h, |&j| j == at) {
                entry.remove();
            }
        }
        self.live -= 1;
        Some(v)
    }

    /// Squeezes out the holes when they outnumber the members (as [`remove`](Self::remove)
    /// does), giving what [`unsqueeze`](Self::unsqueeze) needs to restore the slots.
    pub(crate) fn squeeze(&mut self) -> Option<Squeezed> {
        let holes = self.slots.len() - self.live;
        if holes <= self.live.max(INDEX_FROM) {
            return None;
        }
        stats::tick(self.slots.len() as u64);
        let at = (self.slots.iter().enumerate())
            .filter_map(|(i, s)| s.is_none().then_some(i))
            .collect();
        let indexed = self.index.is_some();
        self.compact();
        Some(Squeezed { holes: at, indexed })
    }

    /// Puts back the holes a [`squeeze`](Self::squeeze) took out (the members are the same
    /// ones again: the changes made since have been undone).
    pub(crate) fn unsqueeze(&mut self, squeezed: Squeezed) {
        stats::tick((self.slots.len() + squeezed.holes.len()) as u64);
        let mut members = std::mem::take(&mut self.slots).into_iter();
        let total = self.live + squeezed.holes.len();
        let mut holes = squeezed.holes.into_iter().peekable();
        self.slots = (0..total)
            .map(|i| match holes.peek() {
                Some(&h) if h == i => {
                    holes.next();
                    None
                }
                _ => members.next().flatten(),
            })
            .collect();
        self.index = None;
        if squeezed.indexed || self.live > INDEX_FROM {
            self.build_index();
        }
    }

    /// Squeezes out the holes and rebuilds the index.
    fn compact(&mut self) {
        self.slots.retain(Option::is_some);
        self.index = None;
        if self.live > INDEX_FROM {
            self.build_index();
        }
    }

    /// Keeps the members for which `keep` says `true`.
    ///
    /// ```
    /// # use agui_wire::reducer::Json;
    /// let mut v = Json::parse(r#"{"a":1,"b":2}"#).unwrap();
    /// v.as_object_mut().unwrap().retain(|k, _| k == "b");
    /// assert_eq!(v.to_string(), r#"{"b":2}"#);
    /// ```
    pub fn retain(&mut self, mut keep: impl FnMut(&str, &mut Json) -> bool) {
        for s in &mut self.slots {
            if let Some((k, v)) = s
                && !keep(k, v)
            {
                *s = None;
                self.live -= 1;
            }
        }
        self.compact();
    }

    /// The members, in order.
    ///
    /// ```
    /// # use agui_wire::reducer::Json;
    /// let v = Json::parse(r#"{"a":1,"b":2}"#).unwrap();
    /// let keys: Vec<&str> = v.as_object().unwrap().iter().map(|(k, _)| k).collect();
    /// assert_eq!(keys, ["a", "b"]);
    /// ```
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (&str, &Json)> + Clone + '_ {
        self.members()
    }

    /// The members, in order (the iterator's type, for the tree walks).
    pub(crate) fn members(&self) -> Members<'_> {
        Members {
            inner: self.slots.iter(),
            left: self.live,
        }
    }

    /// The members, in order, their values to edit.
    ///
    /// ```
    /// # use agui_wire::reducer::Json;
    /// let mut v = Json::parse(r#"{"a":1}"#).unwrap();
    /// for (_, x) in v.as_object_mut().unwrap().iter_mut() { *x = Json::Null; }
    /// assert_eq!(v.to_string(), r#"{"a":null}"#);
    /// ```
    pub fn iter_mut(&mut self) -> impl Iterator<Item = (&str, &mut Json)> {
        self.slots
            .iter_mut()
            .flatten()
            .map(|(k, v)| (k.as_str(), v))
    }

    /// The keys, in order.
    ///
    /// ```
    /// # use agui_wire::reducer::Json;
    /// let v = Json::parse(r#"{"b":1,"a":2}"#).unwrap();
    /// assert_eq!(v.as_object().unwrap().keys().collect::<Vec<_>>(), ["b", "a"]);
    /// ```
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.iter().map(|(k, _)| k)
    }

    /// Takes every member out, in order, leaving the object empty.
    pub(crate) fn take_members(&mut self) -> impl Iterator<Item = (String, Json)> + use<> {
        self.live = 0;
        self.index = None;
        std::mem::take(&mut self.slots).into_iter().flatten()
    }

    /// Members known to be unique (a copy of another object's), indexed at once when many.
    pub(crate) fn from_unique(members: Vec<(String, Json)>) -> JsonObject {
        let live = members.len();
        let mut o = JsonObject {
            slots: members.into_iter().map(Some).collect(),
            live,
            index: None,
        };
        if live > INDEX_FROM {
            o.build_index();
        }
        o
    }
}

/// The holes a [`JsonObject::squeeze`] took out, in slot order, and whether the object had its
/// index.
pub(crate) struct Squeezed {
    holes: Vec<usize>,
    indexed: bool,
}

/// The iterator of [`JsonObject::iter`].
pub(crate) struct Members<'a> {
    inner: std::slice::Iter<'a, Option<(String, Json)>>,
    left: usize,
}

impl Clone for Members<'_> {
    fn clone(&self) -> Self {
        Members {
            inner: self.inner.clone(),
            left: self.left,
        }
    }
}

impl<'a> Iterator for Members<'a> {
    type Item = (&'a str, &'a Json);
    fn next(&mut self) -> Option<Self::Item> {
        let (k, v) = self.inner.by_ref().flatten().next()?;
        self.left -= 1;
        Some((k.as_str(), v))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl ExactSizeIterator for Members<'_> {}

/// Members in order; a repeated key keeps its first place and takes the last value (as
/// `JSON.parse` does).
///
/// ```
/// use agui_wire::reducer::{Json, JsonObject};
/// let o: JsonObject = vec![("a".to_owned(), Json::Null), ("a".to_owned(), Json::from(true))].into();
/// assert_eq!(o.len(), 1);
/// ```
impl From<Vec<(String, Json)>> for JsonObject {
    fn from(members: Vec<(String, Json)>) -> JsonObject {
        members.into_iter().collect()
    }
}

/// Members in order; a repeated key keeps its first place and takes the last value.
///
/// ```
/// use agui_wire::reducer::{Json, JsonObject};
/// let o: JsonObject = [("k".to_owned(), Json::Null)].into_iter().collect();
/// assert_eq!(o.len(), 1);
/// ```
impl FromIterator<(String, Json)> for JsonObject {
    fn from_iter<I: IntoIterator<Item = (String, Json)>>(iter: I) -> JsonObject {
        let iter = iter.into_iter();
        let mut o = JsonObject::with_capacity(iter.size_hint().0);
        for (k, v) in iter {
            o.insert(k, v);
        }
        o
    }
}

/// A copy, member by member (each value copied without recursion, see [`Json`]).
impl Clone for JsonObject {
    fn clone(&self) -> JsonObject {
        JsonObject::from_unique(
            self.iter()
                .map(|(k, v)| (k.to_owned(), v.clone()))
                .collect(),
        )
    }
}

/// The object as JSON text.
impl std::fmt::Debug for JsonObject {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("{")?;
        for (i, (k, v)) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{}:{v}", Json::from(k))?;
        }
        f.write_str("}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Inserts, overwrites and removals in a pseudo-random order, checked step by step against
    /// a plain list searched in order (the reference semantics).
    #[test]
    fn agrees_with_a_plain_list() {
        // 7 keys: small objects, searched in order; 97: indexed, with holes and compaction.
        for keys in [7, 97] {
            agrees_with_a_plain_list_on(keys);
        }
    }

    fn agrees_with_a_plain_list_on(keys: u64) {
        let mut o = JsonObject::new();
        let mut reference: Vec<(String, u64)> = Vec::new();
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        for step in 0..20_000u64 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let key = format!("k{}", x % keys);
            if x.is_multiple_of(3) {
                let want = reference
                    .iter()
                    .position(|(k, _)| *k == key)
                    .map(|i| reference.remove(i).1);
                let got = o
                    .remove(&key)
                    .and_then(|v| v.as_number().map(str::to_owned));
                assert_eq!(got, want.map(|v| v.to_string()), "step {step}");
            } else {
                match reference.iter_mut().find(|(k, _)| *k == key) {
                    Some(slot) => slot.1 = step,
                    None => reference.push((key.clone(), step)),
                }
                o.insert(key, Json::Number(step.to_string()));
            }
            assert_eq!(o.len(), reference.len());
            if step.is_multiple_of(97) {
                let got: Vec<(String, String)> = o
                    .iter()
                    .map(|(k, v)| (k.to_owned(), v.as_number().unwrap_or("").to_owned()))
                    .collect();
                let want: Vec<(String, String)> = reference
                    .iter()
                    .map(|(k, v)| (k.clone(), v.to_string()))
                    .collect();
                assert_eq!(got, want, "step {step}");
                for (k, v) in &reference {
                    assert_eq!(o.get(k).and_then(Json::as_number), Some(&*v.to_string()));
                }
            }
        }
    }

    #[test]
    fn send_sync() {
        fn both<T: Send + Sync>() {}
        both::<JsonObject>();
        both::<Json>();
    }
}
