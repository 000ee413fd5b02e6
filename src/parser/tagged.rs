//! Objects discriminated by a tag (`role`, `type`) that may sit anywhere among their fields:
//! fields before the tag are validated, remembered and read once the kind is known.

use smallvec::SmallVec;

use super::{Obj, Parser, keys};
use crate::error::{RawError, RawResult};
use crate::scanner::StrToken;

/// A field a template ([`Parser::tagged_keyed`]'s `head`) read before the tag and hands to
/// the key loop as `early` would have left it: its key, its field, and its value's offset.
pub(crate) type HeadEarly<'a> = Option<(StrToken<'a>, keys::F, usize)>;

impl<'a> Parser<'a, '_> {
    /// Reads an object discriminated by `tag` (`role`, `type`), wherever the tag sits.
    ///
    /// Each key is looked up once, into a [`keys::F`]. `resolve` maps the tag's value to a
    /// kind; `fields` gives the kind's known keys (the tag among them) and `ids` the index of a
    /// key among them; `on_field` reads one known field (the cursor at its value). Fields seen
    /// before the tag are validated, remembered and read once the kind is known, but for those
    /// `early` reads at once: a field read alike by the kinds that take its value's shape (a
    /// message's string `id`; its `content`, which senders that sort their keys put before
    /// `role`), which `early` reads into `builder` when it can, returning `true` (any other
    /// value is skipped and read once the kind is known, so its errors stay where they were).
    /// Once the kind is known, such a field is only booked (duplicates, order) when `kept`
    /// says the kind reads a value starting with that byte as `early` read it; else it is read
    /// again as the kind reads it. A value that may be long (a message's media) is then
    /// crossed once, not skipped and crossed again. `head` may read the first fields as a
    /// template: it books them in `obj` as the loop does and writes the kind (when it read
    /// the tag), or hands one field it read before the tag to the loop (`HeadEarly`).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn tagged_keyed<K: Copy, B>(
        &mut self,
        what: &'static str,
        tag: keys::F,
        expected: &'static str,
        resolve: impl Fn(&str) -> Option<K>,
        fields: impl Fn(K) -> &'static [&'static str],
        ids: impl Fn(K, keys::F) -> Option<usize>,
        builder: &mut B,
        head: impl FnOnce(
            &mut Self,
            &mut Obj<'a>,
            &mut B,
            &mut Option<K>,
            &mut HeadEarly<'a>,
        ) -> RawResult<()>,
        mut early: impl FnMut(&mut Self, keys::F, &mut B) -> RawResult<bool>,
        kept: impl Fn(K, keys::F, u8) -> bool,
        mut on_field: impl FnMut(&mut Self, K, keys::F, &mut B) -> RawResult<()>,
        obj: &mut Obj<'a>,
    ) -> RawResult<K> {
        if self.cur.peek() != Some(b'{') {
            return Err(self.wrong_type(what, "an object"));
        }
        let tag_name = keys::name(tag);
        *obj = self.open()?;
        // A field before the tag: its key, field, value offset, and whether `early` read it.
        type Pending<'a> = (StrToken<'a>, Option<keys::F>, usize, bool);
        let mut pending: SmallVec<[Pending<'a>; 4]> = SmallVec::new();
        let mut kind: Option<K> = None;
        // The object's first fields as a template (`head`), which books what it reads in
        // `obj` as the loop below does and writes the kind into `kind`; the loop goes on after
        // them. (The kind is not returned in the `Result`: moved out of it by bytes, it was
        // read back by a wider load, a store-forwarding stall on every message.)
        let mut head_early = None;
        head(self, obj, builder, &mut kind, &mut head_early)?;
        if let Some((key, f, pos)) = head_early {
            pending.push((key, Some(f), pos, true));
        }
        let mut key = StrToken::EMPTY;
        while self.next_key_into(obj, &mut key)? {
            let f = keys::field(&key);
            match kind {
                Some(k) => {
                    self.keyed_field(obj, k, &fields, &ids, f, key, builder, &mut on_field)?
                }
                None if f == Some(tag) => {
                    let at = self.cur.pos;
                    let value = self.string(tag_name)?;
                    let k = resolve(&value.unescaped()).ok_or_else(|| {
                        RawError::unknown_variant(tag_name, &value.unescaped(), expected, at)
                    })?;
                    let resume = self.cur.pos;
                    let depth = self.depth;
                    for (pkey, pf, pos, read) in pending.drain(..) {
                        if read
                            && let Some(f) = pf
                            && let Some(id) = ids(k, f)
                            && self.cur.bytes.get(pos).is_some_and(|&b| kept(k, f, b))
                        {
                            self.known_at(obj, fields(k), id, &pkey)?;
                            continue;
                        }
                        self.cur.seek(pos);
                        self.keyed_field(obj, k, &fields, &ids, pf, pkey, builder, &mut on_field)?;
                    }
                    self.cur.seek(resume);
                    self.depth = depth;
                    if let Some(id) = ids(k, tag) {
                        self.known_at(obj, fields(k), id, &key)?;
                    }
                    kind = Some(k);
                }
                None => {
                    let pos = self.cur.pos;
                    let read = match f {
                        Some(f) => early(self, f, builder)?,
                        None => false,
                    };
                    pending.push((key, f, pos, read));
                    if !read {
                        self.cur.skip_value(self.depth, self.opts.max_depth)?;
                    }
                }
            }
        }
        match kind {
            Some(k) => Ok(k),
            None => Err(Self::missing(obj.start, tag_name)),
        }
    }

    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn keyed_field<K: Copy, B>(
        &mut self,
        obj: &mut Obj<'a>,
        k: K,
        fields: &impl Fn(K) -> &'static [&'static str],
        ids: &impl Fn(K, keys::F) -> Option<usize>,
        f: Option<keys::F>,
        key: StrToken<'a>,
        builder: &mut B,
        on_field: &mut impl FnMut(&mut Self, K, keys::F, &mut B) -> RawResult<()>,
    ) -> RawResult<()> {
        match f.and_then(|f| Some((f, ids(k, f)?))) {
            Some((f, id)) => {
                self.known_at(obj, fields(k), id, &key)?;
                on_field(self, k, f, builder)
            }
            None => self.unknown(obj, key),
        }
    }

    /// Reads an object discriminated by `tag`, wherever the tag sits, its keys compared by
    /// name: the rare objects of events (outcomes). [`Parser::tagged_keyed`] is the fast twin
    /// for messages, content parts and sources.
    ///
    /// `resolve` maps the tag's value to a kind; `fields` gives the kind's known keys (the tag
    /// among them); `on_field` reads one known field (the cursor at its value). Fields seen
    /// before the tag are validated, remembered and read once the kind is known.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn tagged<K: Copy, B>(
        &mut self,
        what: &'static str,
        tag: &'static str,
        expected: &'static str,
        resolve: impl Fn(&str) -> Option<K>,
        fields: impl Fn(K) -> &'static [&'static str],
        builder: &mut B,
        mut on_field: impl FnMut(&mut Self, K, &'static str, &mut B) -> RawResult<()>,
    ) -> RawResult<(K, Obj<'a>)> {
        if self.cur.peek() != Some(b'{') {
            return Err(self.wrong_type(what, "an object"));
        }
        let mut obj = self.open()?;
        let mut pending: SmallVec<[(StrToken<'a>, usize); 4]> = SmallVec::new();
        let mut kind: Option<K> = None;
        while let Some(key) = self.next_key(&mut obj)? {
            match kind {
                Some(k) => self.tagged_field(&mut obj, k, &fields, key, builder, &mut on_field)?,
                None if Self::key_is(&key, tag) => {
                    let at = self.cur.pos;
                    let value = self.string(tag)?;
                    let k = resolve(&value.unescaped()).ok_or_else(|| {
                        RawError::unknown_variant(tag, &value.unescaped(), expected, at)
                    })?;
                    let resume = self.cur.pos;
                    let depth = self.depth;
                    for (pkey, pos) in pending.drain(..) {
                        self.cur.seek(pos);
                        self.tagged_field(&mut obj, k, &fields, pkey, builder, &mut on_field)?;
                    }
                    self.cur.seek(resume);
                    self.depth = depth;
                    self.known(&mut obj, fields(k), &key)?;
                    kind = Some(k);
                }
                None => {
                    pending.push((key, self.cur.pos));
                    self.cur.skip_value(self.depth, self.opts.max_depth)?;
                }
            }
        }
        match kind {
            Some(k) => Ok((k, obj)),
            None => Err(Self::missing(obj.start, tag)),
        }
    }

    fn tagged_field<K: Copy, B>(
        &mut self,
        obj: &mut Obj<'a>,
        k: K,
        fields: &impl Fn(K) -> &'static [&'static str],
        key: StrToken<'a>,
        builder: &mut B,
        on_field: &mut impl FnMut(&mut Self, K, &'static str, &mut B) -> RawResult<()>,
    ) -> RawResult<()> {
        let names = fields(k);
        match self.known(obj, names, &key)? {
            Some(id) => on_field(self, k, names[id], builder),
            None => self.unknown(obj, key),
        }
    }
}
