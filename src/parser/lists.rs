//! Lists: the one reader of JSON arrays behind every list field, resumable on a growing
//! buffer (the chunk-fed parser saves a list's items when the bytes run out inside it), with
//! the room each kind of list reserves up front.

use super::resume::{Item, Keep, ListFrame, ListStep, Never, Resumable};
use super::{Filled, Parser, Slot};
use crate::error::{ErrorKind, RawError, RawResult};
use crate::model::List;

/// Bytes per message assumed when sizing a `messages` list up front (chat bodies run from a
/// few dozen to thousands of bytes per message).
pub(super) const MESSAGE_BYTES_HINT: usize = 256;

/// Most messages a `messages` list reserves room for up front (a body of a few huge messages
/// should not reserve for thousands); a longer list then grows by [`room_after`].
pub(super) const MESSAGE_HINT_CAP: usize = 4096;

/// Items a list must hold before its average item size is trusted to size it.
const ESTIMATE_AFTER: usize = 8;

/// Room a non-empty list of content parts or tool calls reserves up front (they hold one to
/// a few items; growing from one by doubling copied the list at the second and third), and
/// the fewest bytes an item of them takes, which bounds the room by the bytes still to read.
const SMALL_LIST_HINT: usize = 4;
const SMALL_ITEM_BYTES: usize = 24;

impl<'a> Parser<'a, '_> {
    /// A JSON array whose items `item` reads, into the arena.
    pub(crate) fn list<T>(
        &mut self,
        field: &'static str,
        limit: usize,
        mut item: impl FnMut(&mut Self) -> RawResult<T>,
    ) -> RawResult<List<'a, T>> {
        self.list_in::<T, Never>(field, limit, 0, |p, slot| Ok(slot.put(item(p)?)))
    }

    /// [`Parser::list`] for a list of `RunAgentInput` that a streaming pass can resume: on a
    /// growing buffer the list saves its items when the bytes run out inside it, and a later
    /// pass continues after the last complete item ([`resume`](super::resume)).
    pub(crate) fn rlist<T: Item<'a>>(
        &mut self,
        field: &'static str,
        limit: usize,
        mut item: impl FnMut(&mut Self) -> RawResult<T>,
    ) -> RawResult<List<'a, T>> {
        self.list_in::<T, Resumable>(field, limit, 0, |p, slot| Ok(slot.put(item(p)?)))
    }

    /// [`Parser::rlist`] for the short lists of a message (content parts, tool calls): a
    /// non-empty list starts with room for [`SMALL_LIST_HINT`] items, fewer when the bytes still
    /// to read could not hold them. `item` builds each item in its slot of the list (a part or
    /// a call is a few hundred bytes: moved through `Result`s, it was copied twice).
    pub(crate) fn short_rlist<T: Item<'a>>(
        &mut self,
        field: &'static str,
        limit: usize,
        item: impl for<'s> FnMut(&mut Self, Slot<'s, T>) -> RawResult<Filled<'s>>,
    ) -> RawResult<List<'a, T>> {
        let rest = self.cur.rest_expected();
        let hint = (rest / SMALL_ITEM_BYTES).min(SMALL_LIST_HINT).min(limit);
        self.list_in::<T, Resumable>(field, limit, hint, item)
    }

    /// An optional [`Parser::short_rlist`] (present: `null` per the options).
    pub(crate) fn opt_short_rlist<T: Item<'a>>(
        &mut self,
        field: &'static str,
        item: impl for<'s> FnMut(&mut Self, Slot<'s, T>) -> RawResult<Filled<'s>>,
    ) -> RawResult<Option<List<'a, T>>> {
        self.opt_of(field, |p, limit| p.short_rlist(field, limit, item))
    }

    /// [`Parser::rlist`] for `messages`: a non-empty list starts with room for one message per
    /// [`MESSAGE_BYTES_HINT`] bytes still to read (at most [`MESSAGE_HINT_CAP`]); once full, it
    /// grows to what the rest of the body would hold at its messages' average size
    /// ([`room_after`]), so a long conversation is copied once, not at every doubling (the
    /// arena keeps every outgrown buffer). `item` builds each message in its slot of the list.
    pub(crate) fn messages_list<T: Item<'a>>(
        &mut self,
        limit: usize,
        item: impl for<'s> FnMut(&mut Self, Slot<'s, T>) -> RawResult<Filled<'s>>,
    ) -> RawResult<List<'a, T>> {
        let rest = self.cur.rest_expected();
        let hint = (rest / MESSAGE_BYTES_HINT).min(MESSAGE_HINT_CAP).min(limit);
        self.list_in::<T, Resumable>("messages", limit, hint, item)
    }

    /// The one list reader; `K` says whether its items can be saved between passes. A fresh
    /// non-empty list reserves room for `hint` items. `item` writes each item straight into
    /// the list's next slot.
    #[inline(always)]
    fn list_in<T, K: Keep<'a, T>>(
        &mut self,
        field: &'static str,
        limit: usize,
        hint: usize,
        mut item: impl for<'s> FnMut(&mut Self, Slot<'s, T>) -> RawResult<Filled<'s>>,
    ) -> RawResult<List<'a, T>> {
        if self.cur.peek() != Some(b'[') {
            return Err(self.wrong_type(field, "an array"));
        }
        let start = self.cur.pos;
        let saved = match self.frames.as_mut() {
            Some(f) => f.take_list(start),
            None => None,
        };
        let restored = saved.and_then(|f| {
            let (pos, step, reread, skip) = (f.pos, f.step, f.reread, f.skip);
            K::restore(f.items).map(|items| (items, pos, step, reread, skip))
        });
        let (mut items, mut step, mut reread, mut skip) = match restored {
            Some((items, pos, step, reread, skip)) => {
                self.depth += 1;
                self.cur.seek(pos);
                (items, step, reread, skip)
            }
            None => {
                self.enter()?;
                self.cur.pos += 1;
                (
                    bumpalo::collections::Vec::new_in(self.arena),
                    ListStep::First,
                    0,
                    false,
                )
            }
        };
        loop {
            if step == ListStep::First {
                self.cur.skip_ws();
                match self.cur.peek() {
                    Some(b']') => {
                        self.cur.pos += 1;
                        self.depth -= 1;
                        return Ok(List::new());
                    }
                    None if self.cur.partial() => {
                        let e = self.cur.err(ErrorKind::UnexpectedEof);
                        return Err(self.suspend_list::<T, K>(e, start, items, step, 0, false));
                    }
                    _ => {
                        items.reserve(hint);
                        step = ListStep::Item;
                    }
                }
            }
            if step == ListStep::Item {
                self.cur.skip_ws();
                if items.len() >= limit {
                    if self.cur.peek().is_none() && self.cur.partial() {
                        // The limit error's offset is after the whitespace still to come.
                        let e = self.cur.err(ErrorKind::UnexpectedEof);
                        return Err(self.suspend_list::<T, K>(e, start, items, step, reread, skip));
                    }
                    return Err(self.cur.err(ErrorKind::TooManyItems { what: field, limit }));
                }
                let head = self.cur.pos;
                if skip && self.cur.partial() {
                    if let Err(e) = self.cur.skip_value(self.depth, self.opts.max_depth)
                        && e.kind == ErrorKind::UnexpectedEof
                    {
                        self.cur.pos = head;
                        return Err(self.suspend_list::<T, K>(e, start, items, step, reread, skip));
                    }
                    // Complete (or wrong): the typed parse below gives the verdict.
                    self.cur.seek(head);
                }
                if items.len() == items.capacity() {
                    let len = items.len();
                    let rest = self.cur.rest_expected();
                    let room = room_after::<T>(len, self.cur.pos - start, rest, limit);
                    items.reserve_exact(room - len);
                }
                let len = items.len();
                // SAFETY: `reserve(1)` made room for one item past `len`, inside the buffer;
                // `MaybeUninit<T>` has the layout of `T`, and nothing else refers to that slot.
                let slot = unsafe { &mut *items.as_mut_ptr().add(len).cast() };
                match item(self, Slot(slot)) {
                    // SAFETY: the `Filled` proves `Slot::put` wrote the item at `len`.
                    Ok(Filled(_)) => unsafe { items.set_len(len + 1) },
                    Err(e) => {
                        self.cur.pos = head;
                        return Err(self.suspend_list::<T, K>(e, start, items, step, reread, skip));
                    }
                }
                (reread, skip) = (0, false);
            }
            self.cur.skip_ws();
            match self.cur.peek() {
                Some(b',') => {
                    self.cur.pos += 1;
                    step = ListStep::Item;
                }
                Some(b']') => {
                    self.cur.pos += 1;
                    break;
                }
                _ => {
                    let e = self.cur.unexpected("',' or ']'");
                    return Err(self.suspend_list::<T, K>(
                        e,
                        start,
                        items,
                        ListStep::After,
                        0,
                        false,
                    ));
                }
            }
        }
        self.depth -= 1;
        // Gives back the room reserved past the last item when the list is still the arena's
        // newest allocation (bumpalo reclaims a shrink of at least half; else it keeps the
        // room): a message's parts or tool calls reserve four and mostly hold one. Chat with
        // 20 000 messages: 13.4 MB of arena down to 9.7, and parse 4% faster for the denser
        // memory (benches/HISTORY.md, thirteenth pass).
        items.shrink_to_fit();
        Ok(List::borrowed(items.into_bump_slice()))
    }

    /// Saves a list whose pass ran out of bytes at `self.cur.pos` (in `step`).
    #[cold]
    fn suspend_list<T, K: Keep<'a, T>>(
        &mut self,
        e: RawError,
        start: usize,
        items: bumpalo::collections::Vec<'a, T>,
        step: ListStep,
        reread: usize,
        skip: bool,
    ) -> RawError {
        if e.kind != ErrorKind::UnexpectedEof || !self.cur.partial() {
            return e;
        }
        let pos = self.cur.pos;
        if let (Some(frames), Some(items)) = (self.frames.as_mut(), K::save(items)) {
            let pass = frames.pass;
            frames.lists.push(ListFrame {
                start,
                pos,
                step,
                items,
                reread,
                skip,
                pass,
            });
        }
        e
    }

    /// An optional list (present: `null` per the options).
    pub(crate) fn opt_list<T>(
        &mut self,
        field: &'static str,
        item: impl FnMut(&mut Self) -> RawResult<T>,
    ) -> RawResult<Option<List<'a, T>>> {
        self.opt_of(field, |p, limit| p.list(field, limit, item))
    }

    /// [`Parser::opt_list`], resumable as [`Parser::rlist`].
    pub(crate) fn opt_rlist<T: Item<'a>>(
        &mut self,
        field: &'static str,
        item: impl FnMut(&mut Self) -> RawResult<T>,
    ) -> RawResult<Option<List<'a, T>>> {
        self.opt_of(field, |p, limit| p.rlist(field, limit, item))
    }

    /// An optional list (`None` when [`Parser::null_as_absent`] says so), else `read` with the
    /// options' item limit: the body of [`Parser::opt_list`] and its resumable forms.
    #[inline(always)]
    fn opt_of<T>(
        &mut self,
        field: &'static str,
        read: impl FnOnce(&mut Self, usize) -> RawResult<List<'a, T>>,
    ) -> RawResult<Option<List<'a, T>>> {
        if self.null_as_absent(field)? {
            return Ok(None);
        }
        let limit = self.opts.max_list_items;
        read(self, limit).map(Some)
    }
}

/// The room a full list of `len` items grows to, when `read` bytes of the input hold its items
/// so far and `rest` bytes are still to read (`len` is below `limit`, the most it may hold).
///
/// A list at least doubles, as a `Vec` does (so the copies of growing add up to less than the
/// final list). Once it has [`ESTIMATE_AFTER`] items it grows to what the bytes still to read
/// would hold at its average item size so far, with an eighth to spare, when that is more: a
/// list as uniform as a conversation's messages then grows once, not by doubling (at 20 000
/// messages doubling filled 61 440 slots and copied 28 672 of them). New room from the
/// estimate never takes more arena than half the bytes still to read, so no input gets the
/// parser to reserve much more than it could fill. (A chunk-fed pass sees only the bytes
/// received, so its lists double.)
fn room_after<T>(len: usize, read: usize, rest: usize, limit: usize) -> usize {
    if len < ESTIMATE_AFTER {
        return (len * 2).max(4).min(limit).max(len + 1);
    }
    let avg = (read / len).max(1);
    let more = rest / avg;
    let bound = rest / 2 / size_of::<T>().max(1);
    let estimate = len + (more + more / 8 + 1).min(bound);
    let geometric = len * 2;
    geometric.max(estimate).min(limit).max(len + 1)
}

#[cfg(test)]
mod room_tests {
    use super::room_after;

    #[test]
    fn small_lists_double() {
        assert_eq!(room_after::<[u8; 100]>(0, 1, 1 << 20, 1000), 4);
        assert_eq!(room_after::<[u8; 100]>(4, 80, 1 << 20, 1000), 8);
        assert_eq!(room_after::<[u8; 100]>(7, 80, 1 << 20, 10), 10);
    }

    #[test]
    fn a_uniform_list_grows_once_to_fit() {
        // 32 items of 400 bytes read, 7.8 MB to go: room for ~20 000 more, in one step.
        let room = room_after::<[u8; 144]>(32, 32 * 400, 20_000 * 400, usize::MAX);
        assert!((32 + 20_000..=32 + 22_600).contains(&room), "{room}");
    }

    #[test]
    fn new_room_is_bounded_by_the_bytes_left_and_the_limit() {
        // Tiny items so far, then a long tail (a big `state`, say): no more new room than
        // half the bytes left.
        let room = room_after::<[u8; 80]>(8, 8 * 11, 10 << 20, usize::MAX);
        assert!((room - 8) * 80 <= 5 << 20, "{room}");
        assert_eq!(room_after::<[u8; 80]>(8, 88, 10 << 20, 100), 100);
        // Near the end (or in a chunk-fed pass, which sees few bytes) the list still doubles.
        assert_eq!(room_after::<[u8; 80]>(1000, 400_000, 10, usize::MAX), 2000);
        // Never less than one more slot.
        assert_eq!(room_after::<[u8; 80]>(3, 30, 0, 4), 4);
    }
}
