//! [`Extra`]: what an object held beyond its known fields (the unknown [`Field`]s and the
//! wire order of its keys), so a writer can reproduce the input.

use std::fmt;

use super::{List, RawJson, Str};

/// A field the protocol does not define, kept with its raw value so it is forwarded intact.
///
/// ```
/// use agui_wire::{Field, Str, RawJson};
/// let f = Field { key: Str::new("x-trace"), value: RawJson::from_text("\"abc\"").unwrap() };
/// assert_eq!(f.key, "x-trace");
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Field<'a> {
    /// The key.
    pub key: Str<'a>,
    /// The value, as raw JSON.
    pub value: RawJson<'a>,
}

impl Field<'_> {
    /// Copies borrowed content out of the input.
    ///
    /// ```
    /// # use agui_wire::{Field, Str, RawJson};
    /// let f: Field<'static> = Field { key: Str::new("k"), value: RawJson::null() }.into_owned();
    /// ```
    pub fn into_owned(self) -> Field<'static> {
        Field {
            key: self.key.into_owned(),
            value: self.value.into_owned(),
        }
    }
}

/// What an object held beyond its known fields: the unknown fields (in order) and, when the
/// input did not use the protocol's usual field order, the order it did use, so a writer can
/// reproduce the input byte for byte.
///
/// ```
/// use agui_wire::{RunAgentInput, Bump};
/// let arena = Bump::new();
/// let doc = br#"{"threadId":"t","runId":"r","messages":[],"x-tenant":"acme"}"#;
/// let input = RunAgentInput::parse(doc, &arena).unwrap();
/// let f = &input.extra.fields()[0];
/// assert_eq!((f.key.raw(), f.value.text()), ("x-tenant", "\"acme\""));
/// ```
#[derive(Clone, Default)]
pub struct Extra<'a> {
    /// Two words: most objects have neither unknown fields nor an unusual order (`Empty`);
    /// the parser puts the others' record in its arena.
    repr: ExtraRepr<'a>,
}

#[derive(Clone, Default)]
enum ExtraRepr<'a> {
    #[default]
    Empty,
    Shared(&'a ExtraParts<'a>),
    Owned(Box<ExtraParts<'a>>),
}

/// The record behind a non-empty [`Extra`].
#[derive(Clone, Default)]
pub(crate) struct ExtraParts<'a> {
    fields: List<'a, Field<'a>>,
    /// Wire order of the object's keys: ids of known fields (below [`EXTRA_BASE`]) and
    /// `EXTRA_BASE + i` for the i-th unknown field. Empty means "the canonical order".
    order: List<'a, u32>,
}

impl<'a> ExtraParts<'a> {
    /// A record of unknown fields and wire order (an empty `order` means canonical).
    pub(crate) const fn new(fields: List<'a, Field<'a>>, order: List<'a, u32>) -> Self {
        ExtraParts { fields, order }
    }

    /// A record of no unknown fields and the wire order `ids` (the shared orders of the
    /// templates, `static`s).
    pub(crate) const fn order_only(ids: &'a [u32]) -> Self {
        ExtraParts::new(List::new(), List::borrowed(ids))
    }

    /// The wire order (empty for the canonical one).
    pub(crate) fn order_ids(&self) -> &[u32] {
        &self.order
    }
}

/// Offset of unknown-field ids in [`Extra`]'s order record.
pub(crate) const EXTRA_BASE: u32 = 1024;

impl<'a> Extra<'a> {
    /// The record of `fields` and `order`, kept in `arena` (nothing when both are empty).
    /// The two lists must not own heap memory (the arena never drops what it holds).
    #[inline]
    pub(crate) fn in_arena(
        fields: List<'a, Field<'a>>,
        order: List<'a, u32>,
        arena: &'a bumpalo::Bump,
    ) -> Extra<'a> {
        if fields.is_empty() && order.is_empty() {
            return Extra::default();
        }
        debug_assert!(!fields.is_owned() && !order.is_owned());
        Extra::shared(arena.alloc(ExtraParts::new(fields, order)))
    }

    /// A record that lives elsewhere (the arena, or a `static`).
    pub(crate) const fn shared(parts: &'a ExtraParts<'a>) -> Extra<'a> {
        Extra {
            repr: ExtraRepr::Shared(parts),
        }
    }

    /// The record of `fields` and `order` on the heap (nothing when both are empty).
    pub(crate) fn from_parts(fields: List<'a, Field<'a>>, order: List<'a, u32>) -> Extra<'a> {
        if fields.is_empty() && order.is_empty() {
            return Extra::default();
        }
        Extra {
            repr: ExtraRepr::Owned(Box::new(ExtraParts::new(fields, order))),
        }
    }

    fn parts(&self) -> Option<&ExtraParts<'a>> {
        match &self.repr {
            ExtraRepr::Empty => None,
            ExtraRepr::Shared(p) => Some(p),
            ExtraRepr::Owned(p) => Some(p),
        }
    }

    fn parts_mut(&mut self) -> &mut ExtraParts<'a> {
        let parts = match &self.repr {
            ExtraRepr::Owned(_) => None,
            ExtraRepr::Empty => Some(ExtraParts::default()),
            ExtraRepr::Shared(p) => Some((*p).clone()),
        };
        if let Some(p) = parts {
            self.repr = ExtraRepr::Owned(Box::new(p));
        }
        match &mut self.repr {
            ExtraRepr::Owned(p) => p,
            _ => unreachable!("made owned above"),
        }
    }

    /// The unknown fields, in input order.
    ///
    /// ```
    /// # use agui_wire::Extra;
    /// assert!(Extra::default().fields().is_empty());
    /// ```
    pub fn fields(&self) -> &[Field<'a>] {
        self.parts().map_or(&[], |p| &p.fields)
    }

    /// The unknown field named `key`, if any.
    ///
    /// ```
    /// # use agui_wire::{RunAgentInput, Bump};
    /// let arena = Bump::new();
    /// let doc = br#"{"threadId":"t","runId":"r","messages":[],"x":1}"#;
    /// let input = RunAgentInput::parse(doc, &arena).unwrap();
    /// assert_eq!(input.extra.get("x").map(|v| v.text()), Some("1"));
    /// ```
    pub fn get(&self, key: &str) -> Option<&RawJson<'a>> {
        self.fields()
            .iter()
            .find(|f| f.key.eq_text(key))
            .map(|f| &f.value)
    }

    /// Adds an unknown field (written after the known ones).
    ///
    /// ```
    /// # use agui_wire::{Extra, Str, RawJson};
    /// let mut e = Extra::default();
    /// e.push(Str::new("k"), RawJson::null());
    /// assert_eq!(e.fields().len(), 1);
    /// ```
    pub fn push(&mut self, key: Str<'a>, value: RawJson<'a>) {
        let parts = self.parts_mut();
        let i = parts.fields.len();
        parts.fields.to_mut().push(Field { key, value });
        if !parts.order.is_empty() {
            parts.order.to_mut().push(EXTRA_BASE + i as u32);
        }
    }

    /// Removes every unknown field named `key`; returns how many were removed.
    ///
    /// ```
    /// # use agui_wire::{Extra, Str, RawJson};
    /// let mut e = Extra::default();
    /// e.push(Str::new("k"), RawJson::null());
    /// assert_eq!(e.remove("k"), 1);
    /// ```
    pub fn remove(&mut self, key: &str) -> usize {
        if !self.fields().iter().any(|f| f.key.eq_text(key)) {
            return 0;
        }
        let parts = self.parts_mut();
        let before = parts.fields.len();
        // Drop the removed fields from the order record and renumber the rest.
        let keep: Vec<bool> = parts.fields.iter().map(|f| !f.key.eq_text(key)).collect();
        if !parts.order.is_empty() {
            let mut new_index = Vec::with_capacity(keep.len());
            let mut n = 0u32;
            for &k in &keep {
                new_index.push(if k { Some(n) } else { None });
                n += k as u32;
            }
            let order: Vec<u32> = parts
                .order
                .iter()
                .filter_map(|&id| {
                    if id < EXTRA_BASE {
                        Some(id)
                    } else {
                        new_index
                            .get((id - EXTRA_BASE) as usize)
                            .copied()
                            .flatten()
                            .map(|i| EXTRA_BASE + i)
                    }
                })
                .collect();
            parts.order = List::from(order);
        }
        let mut it = keep.iter();
        parts
            .fields
            .to_mut()
            .retain(|_| *it.next().unwrap_or(&true));
        before - parts.fields.len()
    }

    /// The recorded wire order (empty when canonical).
    pub(crate) fn order(&self) -> &[u32] {
        self.parts().map_or(&[], |p| &p.order)
    }

    /// Copies borrowed content out of the input.
    ///
    /// ```
    /// # use agui_wire::Extra;
    /// let e: Extra<'static> = Extra::default().into_owned();
    /// ```
    pub fn into_owned(self) -> Extra<'static> {
        match self.parts() {
            None => Extra::default(),
            Some(p) => Extra::from_parts(
                p.fields.clone().map(Field::into_owned),
                p.order.clone().map(|x| x),
            ),
        }
    }
}

impl PartialEq for Extra<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.fields() == other.fields()
    }
}

impl fmt::Debug for Extra<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.fields(), f)
    }
}
