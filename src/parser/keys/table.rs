//! The key lookup shared by the parser's field tables (`parser::keys`) and the events'
//! (`events::fields`): each side declares its names once, as a [`KeyTable`] built at compile
//! time, and looks keys up with [`KeyTable::find`].
//!
//! A key is looked up by its length (the names of that length, a handful at most) and then by
//! a signature of its bytes, two or three machine words read at once ([`signature`]), compared
//! with the signatures the table computed at compile time: no byte loop and no `memcmp` call,
//! whatever the names.

use crate::model::Str;

/// The longest name a table may hold (and so the longest key worth a look).
pub(crate) const MAX_NAME: usize = 24;

/// Marks a field an object does not have, in the id tables of [`KeyTable::ids`].
pub(crate) const ABSENT: u8 = u8::MAX;

/// The names of one family of objects and the value (`T`, a field enum) each stands for.
pub(crate) struct KeyTable<T: Copy + 'static, const N: usize> {
    names: [(&'static str, T); N],
    /// The signature of each name, in the order of `order`.
    sigs: [[u64; 3]; N],
    /// Indices into `names`, shortest names first.
    order: [u8; N],
    /// `by_len[l]`: the range of `sigs` / `order` that holds the names of length `l`.
    by_len: [(u8, u8); MAX_NAME + 1],
}

impl<T: Copy + 'static, const N: usize> KeyTable<T, N> {
    /// The table of `names`, in the order of their values' ids (`names[i]` stands for the field
    /// of id `i`: [`KeyTable::ids`] relies on it, the tests check it). Compile time only: a name
    /// longer than [`MAX_NAME`], a repeated name or more than 255 names stop the build.
    pub(crate) const fn new(names: [(&'static str, T); N]) -> Self {
        assert!(N < ABSENT as usize, "too many names for u8 ids");
        let mut sigs = [[0u64; 3]; N];
        let mut order = [0u8; N];
        let mut by_len = [(0u8, 0u8); MAX_NAME + 1];
        let mut at = 0;
        let mut len = 0;
        while len <= MAX_NAME {
            let first = at;
            let mut i = 0;
            while i < N {
                let name = names[i].0.as_bytes();
                assert!(name.len() <= MAX_NAME, "a name longer than MAX_NAME");
                if name.len() == len {
                    let mut j = 0;
                    while j < i {
                        assert!(!same(names[j].0, names[i].0), "a name given twice");
                        j += 1;
                    }
                    sigs[at] = signature_const(name);
                    order[at] = i as u8;
                    at += 1;
                }
                i += 1;
            }
            by_len[len] = (first as u8, at as u8);
            len += 1;
        }
        KeyTable {
            names,
            sigs,
            order,
            by_len,
        }
    }

    /// The value of the name `key` is (as written, without escapes), if it is one.
    ///
    /// Written for a table in a `static` or `const` (every use): once inlined, the switch on
    /// the length has one arm per length, and in each the candidates and their signatures are
    /// constants, so a lookup is a few compares of words with immediates.
    #[inline(always)]
    pub(crate) fn find(&self, key: &[u8]) -> Option<T> {
        macro_rules! by_length {
            ($($len:literal)*) => {
                match key.len() {
                    $($len => self.find_of_length::<$len>(key),)*
                    _ => None,
                }
            };
        }
        by_length!(1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24)
    }

    /// [`KeyTable::find`] for a key of `L` bytes.
    #[inline(always)]
    fn find_of_length<const L: usize>(&self, key: &[u8]) -> Option<T> {
        let &(first, end) = self.by_len.get(L)?;
        if first == end {
            return None;
        }
        let [a, b, c] = signature(<&[u8; L]>::try_from(key).ok()?);
        let mut k = first as usize;
        while k < end as usize {
            // Word by word (an array compare is not folded as well).
            let &[x, y, z] = self.sigs.get(k)?;
            if a == x && b == y && c == z {
                let &(_, value) = self.names.get(*self.order.get(k)? as usize)?;
                return Some(value);
            }
            k += 1;
        }
        None
    }

    /// The value of the name a key written with escapes spells (rare): compared name by name.
    #[cold]
    pub(crate) fn find_escaped(&self, key: &Str<'_>) -> Option<T> {
        self.names
            .iter()
            .find(|(n, _)| key.eq_text(n))
            .map(|&(_, f)| f)
    }

    /// The name of id `i`.
    pub(crate) fn name(&self, i: usize) -> &'static str {
        self.names.get(i).map_or("", |&(n, _)| n)
    }

    /// The names with their values, in id order.
    #[cfg(test)]
    pub(crate) fn entries(&self) -> &[(&'static str, T); N] {
        &self.names
    }

    /// The id of `name` (compile time only: a name not in the table stops the build).
    const fn position(&self, name: &str) -> usize {
        let mut i = 0;
        while i < N {
            if same(self.names[i].0, name) {
                return i;
            }
            i += 1;
        }
        panic!("a field name missing from its key table")
    }

    /// `ids[f]`: the index in `fields` of the field of id `f`, or [`ABSENT`] (compile time: an
    /// object's field list made a table that [`id_in`] reads).
    pub(crate) const fn ids(&self, fields: &[&str]) -> [u8; N] {
        let mut ids = [ABSENT; N];
        let mut i = 0;
        while i < fields.len() {
            ids[self.position(fields[i])] = i as u8;
            i += 1;
        }
        ids
    }
}

/// The index in its object's field list of the field of id `f`, from a table made by
/// [`KeyTable::ids`].
#[inline(always)]
pub(crate) fn id_in<const N: usize>(ids: &[u8; N], f: usize) -> Option<usize> {
    let id = *ids.get(f)?;
    (id != ABSENT).then_some(id as usize)
}

/// Whether two names are equal, at compile time (where `==` on `str` is not `const`).
pub(crate) const fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// A key's bytes as words, for keys of one length (two keys of the same length have the same
/// signature exactly when they are equal), each word as wide as the bytes it holds, so that
/// compares with the table's constants take immediates: up to 4 bytes in the first word; 5 to
/// 7 as two overlapping 4-byte reads; 8 as one 8-byte read; 9 to 16 as two overlapping 8-byte
/// reads, the first and the last 8; 17 to 24 also bytes 8 to 16, in the third word. Longer
/// keys: no table holds them.
#[inline(always)]
pub(crate) fn signature(key: &[u8]) -> [u64; 3] {
    let len = key.len();
    let w8 = |at: usize| {
        key.get(at..at + 8)
            .and_then(|b| <[u8; 8]>::try_from(b).ok())
            .map_or(0, u64::from_le_bytes)
    };
    let w4 = |at: usize| {
        key.get(at..at + 4)
            .and_then(|b| <[u8; 4]>::try_from(b).ok())
            .map_or(0, |b| u64::from(u32::from_le_bytes(b)))
    };
    let w2 = |at: usize| {
        key.get(at..at + 2)
            .and_then(|b| <[u8; 2]>::try_from(b).ok())
            .map_or(0, |b| u64::from(u16::from_le_bytes(b)))
    };
    let b = |at: usize| u64::from(key.get(at).copied().unwrap_or(0));
    match len {
        0 => [0; 3],
        1 => [b(0), 0, 0],
        2 => [w2(0), 0, 0],
        3 => [w2(0) | b(2) << 16, 0, 0],
        4 => [w4(0), 0, 0],
        5..=7 => [w4(0), w4(len - 4), 0],
        8 => [w8(0), 0, 0],
        9..=16 => [w8(0), w8(len - 8), 0],
        _ => [w8(0), w8(len - 8), w8(8)],
    }
}

/// [`signature`] at compile time.
const fn signature_const(key: &[u8]) -> [u64; 3] {
    const fn w(key: &[u8], at: usize, n: usize) -> u64 {
        let mut v = 0u64;
        let mut i = 0;
        while i < n {
            v |= (key[at + i] as u64) << (8 * i);
            i += 1;
        }
        v
    }
    let len = key.len();
    match len {
        0 => [0; 3],
        1..=4 => [w(key, 0, len), 0, 0],
        5..=7 => [w(key, 0, 4), w(key, len - 4, 4), 0],
        8 => [w(key, 0, 8), 0, 0],
        9..=16 => [w(key, 0, 8), w(key, len - 8, 8), 0],
        _ => [w(key, 0, 8), w(key, len - 8, 8), w(key, 8, 8)],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Copy, PartialEq, Eq, Debug)]
    enum K {
        A,
        B,
        C,
        D,
        E,
    }

    const TABLE: KeyTable<K, 5> = KeyTable::new([
        ("a", K::A),
        ("abcd", K::B),
        ("abce", K::C),
        ("parentSubagentRunId", K::D),
        ("toolCallId", K::E),
    ]);

    #[test]
    fn signatures_agree_and_tell_keys_of_one_length_apart() {
        let keys: Vec<String> = (0..=MAX_NAME + 2)
            .flat_map(|len| {
                (0..len.max(1)).map(move |at| {
                    let mut k: Vec<u8> = (0..len).map(|i| b'a' + (i % 26) as u8).collect();
                    if let Some(b) = k.get_mut(at) {
                        *b = b'Z';
                    }
                    String::from_utf8(k).unwrap()
                })
            })
            .collect();
        for a in &keys {
            if a.len() <= MAX_NAME {
                assert_eq!(
                    signature(a.as_bytes()),
                    signature_const(a.as_bytes()),
                    "{a}"
                );
            }
            for b in &keys {
                if a.len() == b.len() && a.len() <= MAX_NAME {
                    assert_eq!(signature(a.as_bytes()) == signature(b.as_bytes()), a == b);
                }
            }
        }
    }

    #[test]
    fn finds_exactly_the_names() {
        for (i, &(name, k)) in TABLE.entries().iter().enumerate() {
            assert_eq!(TABLE.find(name.as_bytes()), Some(k), "{name}");
            assert_eq!(TABLE.find_escaped(&Str::new(name)), Some(k), "{name}");
            assert_eq!(TABLE.name(i), name);
        }
        for not in [
            "",
            "b",
            "abc",
            "abcf",
            "Abcd",
            "toolCallID",
            "parentSubagentRunIx",
        ] {
            assert_eq!(TABLE.find(not.as_bytes()), None, "{not}");
        }
        assert_eq!(TABLE.find(&[b'a'; MAX_NAME + 1]), None);
        const IDS: [u8; 5] = TABLE.ids(&["toolCallId", "a"]);
        assert_eq!(id_in(&IDS, K::E as usize), Some(0));
        assert_eq!(id_in(&IDS, K::A as usize), Some(1));
        assert_eq!(id_in(&IDS, K::B as usize), None);
        assert_eq!(id_in(&IDS, 99), None);
    }
}
