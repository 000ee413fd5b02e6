//! The shared walk over one JSON object of the model: which fields are present, in which order
//! they go out, and how each is written. The writer and the `Serialize` impls both use it, so
//! they agree on field order.

use std::convert::Infallible;

use serde::ser::SerializeMap;

use super::{Sink, WriteJson};
use crate::model::{EXTRA_BASE, Extra, Field};

/// One entry of an object on its way out: a known field (an index into the type's field names)
/// or the i-th unknown field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Slot {
    Known(usize),
    Extra(usize),
}

/// A model object as the writer and the serializer see it.
///
/// Implemented for `&'d T`, so the spans it writes borrow for `'d`.
pub(crate) trait ObjectView<'d> {
    /// The JSON names of the known fields (ids index this).
    fn names(&self) -> &'static [&'static str];
    /// A bit per known field that is present.
    fn present(&self) -> u64;
    /// Unknown fields and the recorded order.
    fn extra(&self) -> &'d Extra<'d>;
    /// Writes the value of known field `k` (present).
    fn write_field<S: Sink<'d>>(&self, k: usize, out: &mut S);
    /// Serializes known field `k` (present) as a map entry named `name`.
    fn ser_field<M: SerializeMap>(&self, k: usize, name: &str, map: &mut M)
    -> Result<(), M::Error>;
}

/// Calls `f` for every entry of an object, in output order.
///
/// With no recorded order: present known fields in `names` order, then the unknown fields.
/// With one: the recorded ids that are still present, in that order; then present known
/// fields the record does not mention (in `names` order); then unknown fields it does not
/// mention. Every present field comes out exactly once, whatever the record says.
pub(crate) fn for_each_slot<E>(
    n: usize,
    present: u64,
    extra: &Extra<'_>,
    mut f: impl FnMut(Slot) -> Result<(), E>,
) -> Result<(), E> {
    let n = n.min(64);
    let n_extra = extra.fields().len();
    let order = extra.order();
    if order.is_empty() {
        for k in 0..n {
            if present & (1 << k) != 0 {
                f(Slot::Known(k))?;
            }
        }
        for i in 0..n_extra {
            f(Slot::Extra(i))?;
        }
        return Ok(());
    }
    let mut done_known = 0u64;
    let mut done_extra: smallvec::SmallVec<[u64; 2]> =
        smallvec::smallvec![0u64; n_extra.div_ceil(64)];
    for &id in order {
        if id < EXTRA_BASE {
            let k = id as usize;
            let bit = 1u64 << (k & 63);
            if k < n && present & bit != 0 && done_known & bit == 0 {
                done_known |= bit;
                f(Slot::Known(k))?;
            }
        } else {
            let i = (id - EXTRA_BASE) as usize;
            if i < n_extra
                && let Some(word) = done_extra.get_mut(i / 64)
            {
                let bit = 1u64 << (i % 64);
                if *word & bit == 0 {
                    *word |= bit;
                    f(Slot::Extra(i))?;
                }
            }
        }
    }
    for k in 0..n {
        let bit = 1u64 << k;
        if present & bit != 0 && done_known & bit == 0 {
            f(Slot::Known(k))?;
        }
    }
    for i in 0..n_extra {
        let done = done_extra
            .get(i / 64)
            .is_some_and(|w| w & (1u64 << (i % 64)) != 0);
        if !done {
            f(Slot::Extra(i))?;
        }
    }
    Ok(())
}

/// Writes an object: `{`, its entries in output order, `}`.
pub(crate) fn write_object<'d, V: ObjectView<'d>, S: Sink<'d>>(v: V, out: &mut S) {
    let names = v.names();
    let extra = v.extra();
    out.push(b"{");
    let mut first = true;
    let _ = for_each_slot::<Infallible>(names.len(), v.present(), extra, |slot| {
        if !first {
            out.push(b",");
        }
        first = false;
        match slot {
            Slot::Known(k) => {
                if let Some(name) = names.get(k) {
                    out.push(b"\"");
                    out.push(name.as_bytes());
                    out.push(b"\":");
                    v.write_field(k, out);
                }
            }
            Slot::Extra(i) => {
                if let Some(field) = extra.fields().get(i) {
                    write_extra_field(field, out);
                }
            }
        }
        Ok(())
    });
    out.push(b"}");
}

/// Writes an unknown field's entry: its key as it came (already escaped), `:`, its value.
#[inline]
pub(crate) fn write_extra_field<'d, S: Sink<'d>>(field: &'d Field<'d>, out: &mut S) {
    out.push(b"\"");
    out.push_borrowed(field.key.raw().as_bytes());
    out.push(b"\":");
    field.value.write_json(out);
}

/// An object view whose discriminator (`type`) is supplied from outside: a media part's kind
/// lives in its [`crate::InputContent`] variant, not in [`crate::MediaInputContent`].
pub(crate) struct WithTag<V> {
    pub(crate) inner: V,
    pub(crate) id: usize,
    pub(crate) tag: &'static str,
}

impl<'d, V: ObjectView<'d>> ObjectView<'d> for WithTag<V> {
    fn names(&self) -> &'static [&'static str] {
        self.inner.names()
    }
    fn present(&self) -> u64 {
        self.inner.present() | (1 << self.id)
    }
    fn extra(&self) -> &'d Extra<'d> {
        self.inner.extra()
    }
    fn write_field<S: Sink<'d>>(&self, k: usize, out: &mut S) {
        if k == self.id {
            write_tag(self.tag, out);
        } else {
            self.inner.write_field(k, out);
        }
    }
    fn ser_field<M: SerializeMap>(
        &self,
        k: usize,
        name: &str,
        map: &mut M,
    ) -> Result<(), M::Error> {
        if k == self.id {
            map.serialize_entry(name, self.tag)
        } else {
            self.inner.ser_field(k, name, map)
        }
    }
}

/// Writes a discriminator value (a plain ASCII word, no escaping needed).
#[inline]
pub(crate) fn write_tag<'d, S: Sink<'d>>(tag: &str, out: &mut S) {
    out.push(b"\"");
    out.push(tag.as_bytes());
    out.push(b"\"");
}

/// Hands out the runs of a validated JSON text that lie between whitespace outside strings,
/// so that writing them one after another gives the text minified.
pub(crate) fn for_each_compact_run<'d>(text: &'d [u8], mut f: impl FnMut(&'d [u8])) {
    let mut in_str = false;
    let mut escape = false;
    let mut start = 0;
    for (i, &c) in text.iter().enumerate() {
        if in_str {
            if escape {
                escape = false;
            } else if c == b'\\' {
                escape = true;
            } else if c == b'"' {
                in_str = false;
            }
        } else if c == b'"' {
            in_str = true;
        } else if matches!(c, b' ' | b'\t' | b'\n' | b'\r') {
            if let Some(run) = text.get(start..i).filter(|r| !r.is_empty()) {
                f(run);
            }
            start = i + 1;
        }
    }
    if let Some(run) = text.get(start..).filter(|r| !r.is_empty()) {
        f(run);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Field, List, RawJson, Str};

    fn slots(n: usize, present: u64, extra: &Extra<'_>) -> Vec<Slot> {
        let mut v = Vec::new();
        let _ = for_each_slot::<Infallible>(n, present, extra, |s| {
            v.push(s);
            Ok(())
        });
        v
    }

    fn extra_with(order: Vec<u32>, n: usize) -> Extra<'static> {
        let fields = (0..n)
            .map(|i| Field {
                key: Str::new(["a", "b", "c", "d"][i % 4]),
                value: RawJson::null(),
            })
            .collect::<Vec<_>>();
        Extra::from_parts(List::from(fields), List::from(order))
    }

    #[test]
    fn canonical_order() {
        let e = extra_with(vec![], 2);
        assert_eq!(
            slots(4, 0b1011, &e),
            vec![
                Slot::Known(0),
                Slot::Known(1),
                Slot::Known(3),
                Slot::Extra(0),
                Slot::Extra(1)
            ]
        );
    }

    #[test]
    fn recorded_order_is_robust() {
        // Recorded: extra0, field 2, field 0, extra1; field 2 is now absent, field 1 was
        // added, extra 2 was added, an id out of range is ignored.
        let e = extra_with(
            vec![EXTRA_BASE, 2, 0, EXTRA_BASE + 1, 40, EXTRA_BASE + 9],
            3,
        );
        assert_eq!(
            slots(3, 0b011, &e),
            vec![
                Slot::Extra(0),
                Slot::Known(0),
                Slot::Extra(1),
                Slot::Known(1),
                Slot::Extra(2)
            ]
        );
        // Duplicated ids are written once.
        let e = extra_with(vec![1, 1, EXTRA_BASE, EXTRA_BASE], 1);
        assert_eq!(slots(2, 0b10, &e), vec![Slot::Known(1), Slot::Extra(0)]);
    }

    #[test]
    fn runs_minify() {
        let text = br#" { "a b" : [1, "x\" y"] ,"c":	true }
"#;
        let mut out = Vec::new();
        for_each_compact_run(text, |r| out.extend_from_slice(r));
        assert_eq!(out, br#"{"a b":[1,"x\" y"],"c":true}"#);
        let mut reference = Vec::new();
        crate::model::minify_into(text, &mut reference);
        assert_eq!(out, reference);
    }
}
