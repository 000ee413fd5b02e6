//! Templates of the first fields of the objects a chat body holds most of (messages, tool
//! calls, their functions), as senders write them: the keys, colons and quotes compared as
//! bytes, short ids and roles found by 16-byte looks, in the SDKs' order (`id`, `role`,
//! `content`), Python's spaced style, and sorted keys (`content`, `id`, `role`). A template
//! books what it read as the general key loop books it, or gives up with nothing moved (or
//! hands its one field to the loop); `parser::differential` holds each to that loop.

use super::input::{MessageParts, content_fits};
use super::keys::{self, F};
use super::orders;
use super::tagged::HeadEarly;
use super::{Obj, Parser};
use crate::error::RawResult;
use crate::model::*;
use crate::scanner::{StrToken, holds, simd};

/// Where the value of a field as senders write it ends: `input` holds `key` at `at` (the
/// quoted key, its colon and the value's opening quote), the value is a plain ASCII string
/// that ends within 64 bytes, and `after` follows its closing quote. `None` for anything else.
#[inline(always)]
fn plain_field<const K: usize, const A: usize>(
    input: &[u8],
    at: usize,
    key: &[u8; K],
    after: &[u8; A],
) -> Option<usize> {
    if !holds(input, at, key) {
        return None;
    }
    let Some((end, false)) = simd::string_end64(input, at + K) else {
        return None;
    };
    holds(input, end, after).then_some(end)
}

/// Whether an object whose first key is `K` bytes long with its quotes and colon (at `at`) is
/// written with one space after each `:` and `,` (Python's `json.dumps`): a space after that
/// colon. The templates then take their spaced literals. (Only that one byte is read here;
/// the template checks every literal whole.)
#[inline(always)]
fn spaced<const K: usize>(input: &[u8], at: usize, _first_key: &[u8; K]) -> bool {
    input.get(at + K) == Some(&b' ')
}

/// The length of [`python_style`]`(lit)`.
const fn python_len(lit: &[u8]) -> usize {
    let mut n = lit.len();
    let mut i = 0;
    while i < lit.len() {
        n += matches!(lit[i], b':' | b',') as usize;
        i += 1;
    }
    n
}

/// A compact template literal as Python's `json.dumps` writes it: a space after each `:` and
/// `,` (the literals' keys and values hold neither). `M` is [`python_len`]`(lit)`.
const fn python_style<const M: usize>(lit: &[u8]) -> [u8; M] {
    let mut out = [b' '; M];
    let (mut i, mut o) = (0, 0);
    while i < lit.len() {
        out[o] = lit[i];
        o += 1 + matches!(lit[i], b':' | b',') as usize;
        i += 1;
    }
    assert!(o == M, "M must be python_len(lit)");
    out
}

/// The index of the first `needle` in `hay` (a template literal); fails to compile without one.
const fn find(hay: &[u8], needle: &[u8]) -> usize {
    let mut at = 0;
    while at + needle.len() <= hay.len() {
        let mut k = 0;
        while k < needle.len() && hay[at + k] == needle[k] {
            k += 1;
        }
        if k == needle.len() {
            return at;
        }
        at += 1;
    }
    panic!("the literal does not hold the needle")
}

/// `$call` with the template literals named `$name`, spelt once as senders write them
/// compactly, in the style of the object at the parser's cursor (its first key
/// `$first_key`): as spelt, or as Python's `json.dumps` writes them ([`python_style`], built
/// at compile time). Each name is a `const` in `$call`, so `$call` may derive constants from
/// it (`const { find(REST, b"…") }`).
macro_rules! in_style {
    ($p:expr, $first_key:literal, |$($name:ident = $lit:literal),+ $(,)?| $call:expr) => {
        if spaced($p.cur.bytes, $p.cur.pos, $first_key) {
            $(const $name: &[u8; python_len($lit)] = &python_style($lit);)+
            $call
        } else {
            $(const $name: &[u8; $lit.len()] = $lit;)+
            $call
        }
    };
}

/// The spaces in a template literal (what the general loop would count as whitespace).
#[inline(always)]
const fn spaces<const N: usize>(lit: &[u8; N]) -> usize {
    let mut n = 0;
    let mut i = 0;
    while i < N {
        n += (lit[i] == b' ') as usize;
        i += 1;
    }
    n
}

/// The role whose name, then a closing quote, starts at `at`, and the name's length; `None`
/// when the bytes there are not one of them (or fewer than 10 bytes are left).
#[inline(always)]
fn role_at(b: &[u8], at: usize) -> Option<(Role, usize)> {
    let w = u64::from_le_bytes(b.get(at..at + 8)?.try_into().ok()?);
    let w2 = u16::from_le_bytes(b.get(at + 8..at + 10)?.try_into().ok()?);
    const fn word(s: &[u8]) -> u64 {
        let mut w = 0u64;
        let mut i = 0;
        while i < s.len() && i < 8 {
            w |= (s[i] as u64) << (8 * i);
            i += 1;
        }
        w
    }
    const M5: u64 = (1 << 40) - 1;
    const M7: u64 = (1 << 56) - 1;
    let t = u16::from_le_bytes(*b"t\"");
    let r = u16::from_le_bytes(*b"r\"");
    let g = u16::from_le_bytes(*b"g\"");
    Some(if w == word(b"assistan") && w2 == t {
        (Role::Assistant, 9)
    } else if w & M5 == word(b"user\"") {
        (Role::User, 4)
    } else if w & M5 == word(b"tool\"") {
        (Role::Tool, 4)
    } else if w == word(b"reasonin") && w2 == g {
        (Role::Reasoning, 9)
    } else if w & M7 == word(b"system\"") {
        (Role::System, 6)
    } else if w == word(b"develope") && w2 == r {
        (Role::Developer, 9)
    } else if w == word(b"activity") && w2 & 0xff == u16::from(b'"') {
        (Role::Activity, 8)
    } else {
        return None;
    })
}

/// [`role_at`] for the unit tests.
#[cfg(test)]
pub(crate) fn role_at_for_tests(b: &[u8], at: usize) -> Option<(Role, usize)> {
    role_at(b, at)
}

impl<'a> Parser<'a, '_> {
    /// A message's first fields as senders write them, `"id":"…","role":"…"` and, when a
    /// string follows as `,"content":"…"`, the content (the cursor just past the `{`): the id
    /// a plain ASCII string that ends within 64 bytes, the role one of the role names, both
    /// read by byte compares and 16-byte looks, the content by [`Parser::message_content`]
    /// as the general loop reads it. On a match the fields are booked in `obj` as the general
    /// loop books them, the cursor is after the last field read, and the role is written to
    /// `kind`. `kind` untouched, nothing moved, for anything else (whitespace, escapes, a longer or
    /// non-ASCII id, another first key, an unknown role, the input's end within 10 bytes of
    /// the role's start): the general loop then reads the message from the same place. An
    /// error reading the content is the one the general loop gives there.
    ///
    /// Senders that sort their keys write `"content":…,"id":"…","role":"…"` instead: that
    /// head is [`Parser::message_head_sorted`].
    #[inline(always)]
    pub(crate) fn message_head(
        &mut self,
        obj: &mut Obj<'a>,
        m: &mut MessageParts<'a>,
        kind: &mut Option<Role>,
        early: &mut HeadEarly<'a>,
    ) -> RawResult<()> {
        // Sorted keys put `content` first.
        if self.cur.bytes.get(self.cur.pos + 1) == Some(&b'c') {
            return self.message_head_sorted(obj, m, kind, early);
        }
        in_style!(self, b"\"id\":", |
            ID = b"\"id\":\"",
            ROLE = b"\",\"role\":\"",
            CONTENT = b",\"content\":\"",
        | self.message_head_in(obj, m, kind, ID, ROLE, CONTENT))
    }

    /// [`Parser::message_head`] in one style: `id` the key up to the id's opening quote, `role`
    /// from the id's closing quote to the role's opening one, `content` from the role's closing
    /// quote to the content's opening one. Spaces in them are counted as the general loop
    /// counts them.
    #[inline(always)]
    fn message_head_in<const I: usize, const R: usize, const C: usize>(
        &mut self,
        obj: &mut Obj<'a>,
        m: &mut MessageParts<'a>,
        kind: &mut Option<Role>,
        id: &[u8; I],
        role: &[u8; R],
        content: &[u8; C],
    ) -> RawResult<()> {
        let bytes = self.cur.bytes;
        let at = self.cur.pos;
        let Some(end) = plain_field(bytes, at, id, role) else {
            return Ok(());
        };
        let Some((found, len)) = role_at(bytes, end + R) else {
            return Ok(());
        };
        *kind = Some(found);
        m.id = Some(Str::from_validated(self.cur.text(at + I, end), false));
        // Field ids of every role: `id` 1, `role` 2 (`Role::fields`), `content` past them.
        let after = end + R + len + 1;
        self.cur.pos = after;
        self.cur.ws += spaces(id) + spaces(role);
        let content_id = (found != Role::Activity && holds(bytes, after, content))
            .then(|| keys::message_id(found, F::Content))
            .flatten();
        let Some(content_id) = content_id else {
            obj.book_head(0b110, 2);
            return Ok(());
        };
        obj.book_head(0b110 | 1 << content_id, content_id as u32);
        self.cur.pos = after + C - 1;
        self.cur.ws += spaces(content);
        self.message_content(found, m)
    }

    /// A message's first fields as senders that sort their keys write them,
    /// `"content":…,"id":"…","role":"…"` (the cursor just past the `{`): the content read as
    /// [`Parser::early_content`] reads it before the role, then the id (a plain ASCII string
    /// that ends within 64 bytes) and the role by byte compares. On a match the three fields
    /// are booked in `obj` in their wire order (a shared record, [`Obj::book_head_in_order`]),
    /// the role is written to `kind` and the cursor is after it. When the content was read but
    /// the id and role do not follow so (another key between, a long or escaped id, a content
    /// the role would refuse), the content is handed to the key loop in `early`, as if the
    /// loop had read it before the role, and the cursor is after it. Nothing moved for
    /// anything else (whitespace, another first key, a content `early_content` leaves). Out of
    /// line: the loop of senders that put `id` first stays as it was.
    #[inline(never)]
    fn message_head_sorted(
        &mut self,
        obj: &mut Obj<'a>,
        m: &mut MessageParts<'a>,
        kind: &mut Option<Role>,
        early: &mut HeadEarly<'a>,
    ) -> RawResult<()> {
        in_style!(self, b"\"content\":", |
            CONTENT = b"\"content\":",
            ID = b",\"id\":\"",
            ROLE = b"\",\"role\":\"",
        | self.message_head_sorted_in(obj, m, kind, early, CONTENT, ID, ROLE))
    }

    /// [`Parser::message_head_sorted`] in one style: `content` the key up to its value, `id`
    /// from the content's end to the id's opening quote, `role` from the id's closing quote
    /// to the role's opening one.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn message_head_sorted_in<const C: usize, const I: usize, const R: usize>(
        &mut self,
        obj: &mut Obj<'a>,
        m: &mut MessageParts<'a>,
        kind: &mut Option<Role>,
        early: &mut HeadEarly<'a>,
        content: &[u8; C],
        id: &[u8; I],
        role: &[u8; R],
    ) -> RawResult<()> {
        let bytes = self.cur.bytes;
        let (at, ws) = (self.cur.pos, self.cur.ws);
        if !holds(bytes, at, content) {
            return Ok(());
        }
        let value = at + C;
        self.cur.pos = value;
        self.cur.ws += spaces(content);
        if !self.early_content(m)? {
            (self.cur.pos, self.cur.ws) = (at, ws);
            return Ok(());
        }
        // `early_content` read a value there, so the byte is present.
        let first = bytes.get(value).copied().unwrap_or(0);
        let after = self.cur.pos;
        if let Some(end) = plain_field(bytes, after, id, role)
            && let Some((found, len)) = role_at(bytes, end + R)
            && content_fits(found, first)
            && let Some(order) =
                keys::message_id(found, F::Content).and_then(orders::content_id_role)
        {
            *kind = Some(found);
            m.id = Some(Str::from_validated(self.cur.text(after + I, end), false));
            // Field ids of every role: `id` 1, `role` 2 (`Role::fields`), `content` past them.
            obj.book_head_in_order(0b110 | 1 << order.order_ids()[0], order);
            self.cur.pos = end + R + len + 1;
            self.cur.ws += spaces(id) + spaces(role);
            return Ok(());
        }
        obj.past_first();
        let key = StrToken {
            raw: self.cur.text(at + 1, at + 8),
            start: at,
            escaped: false,
        };
        *early = Some((key, F::Content, value));
        Ok(())
    }

    /// A tool call's first fields as senders write them, `"id":"…","type":"function",
    /// "function":` and the `{` of its object (the cursor just past the call's `{`): the id a
    /// plain ASCII string that ends within 64 bytes, read by byte compares and 16-byte
    /// looks. On a match the three fields are booked in `obj` as the general loop books them,
    /// the id and type are read, the cursor is at the function's `{`, and the caller reads
    /// the function. `false`, nothing moved, for anything else.
    #[inline(always)]
    pub(crate) fn tool_call_head(
        &mut self,
        obj: &mut Obj<'a>,
        id: &mut Option<Str<'a>>,
        call: &mut ToolCall<'a>,
    ) -> bool {
        in_style!(self, b"\"id\":", |
            KEY = b"\"id\":\"",
            REST = b"\",\"type\":\"function\",\"function\":{",
        | self.tool_call_head_in(obj, id, call, KEY, REST, const { find(REST, b"function\"") }))
    }

    /// [`Parser::tool_call_head`] in one style: `key` up to the id's opening quote, `rest` from
    /// its closing quote to the function's `{`, with `function` (the type) `ty_at` bytes into it.
    #[inline(always)]
    fn tool_call_head_in<const K: usize, const T: usize>(
        &mut self,
        obj: &mut Obj<'a>,
        id: &mut Option<Str<'a>>,
        call: &mut ToolCall<'a>,
        key: &[u8; K],
        rest: &[u8; T],
        ty_at: usize,
    ) -> bool {
        let bytes = self.cur.bytes;
        let at = self.cur.pos;
        let Some(end) = plain_field(bytes, at, key, rest) else {
            return false;
        };
        // `ToolCall::FIELDS`: `id` 0, `type` 1, `function` 2.
        obj.book_head(0b111, 2);
        *id = Some(Str::from_validated(self.cur.text(at + K, end), false));
        let ty = end + ty_at;
        call.r#type = Some(Str::from_validated(self.cur.text(ty, ty + 8), false));
        self.cur.pos = end + T - 1;
        self.cur.ws += spaces(key) + spaces(rest);
        true
    }

    /// A tool call's fields as senders that sort their keys write them, `"function":{…},
    /// "id":"…","type":"function"` (the cursor just past the call's `{`): the function read
    /// as the general loop reads it, then the id (a plain ASCII string that ends within 64
    /// bytes) and the type by byte compares. On a match the three fields are booked in `obj`
    /// in their wire order (a shared record), the id and type are read and the cursor is
    /// after the type; when only the function is there so, it alone is booked and the
    /// cursor is after it. `None`, nothing moved, when the call does not start with
    /// `"function":{`. Out of line: the loop of senders that put `id` first stays as it was.
    #[inline(never)]
    pub(crate) fn tool_call_head_sorted(
        &mut self,
        obj: &mut Obj<'a>,
        id: &mut Option<Str<'a>>,
        call: &mut ToolCall<'a>,
    ) -> RawResult<Option<FunctionCall<'a>>> {
        in_style!(self, b"\"function\":", |
            FUNCTION = b"\"function\":{",
            KEY = b",\"id\":\"",
            TYPE = b"\",\"type\":\"function\"",
        | self.tool_call_head_sorted_in(obj, id, call, FUNCTION, KEY, TYPE))
    }

    /// [`Parser::tool_call_head_sorted`] in one style: `function` the key up to the
    /// function's `{`, `key` from the function's `}` to the id's opening quote, `ty` from its
    /// closing quote to the type's closing one.
    #[inline(always)]
    fn tool_call_head_sorted_in<const F: usize, const K: usize, const T: usize>(
        &mut self,
        obj: &mut Obj<'a>,
        id: &mut Option<Str<'a>>,
        call: &mut ToolCall<'a>,
        function: &[u8; F],
        key: &[u8; K],
        ty: &[u8; T],
    ) -> RawResult<Option<FunctionCall<'a>>> {
        let bytes = self.cur.bytes;
        if !holds(bytes, self.cur.pos, function) {
            return Ok(None);
        }
        self.cur.pos += F - 1;
        self.cur.ws += spaces(function);
        let f = self.function_call::<true>()?;
        let after = self.cur.pos;
        // `ToolCall::FIELDS`: `id` 0, `type` 1, `function` 2.
        match plain_field(bytes, after, key, ty) {
            Some(end) => {
                obj.book_head_in_order(0b111, &orders::FUNCTION_ID_TYPE);
                *id = Some(Str::from_validated(self.cur.text(after + K, end), false));
                let ty_at = end + T - 9;
                call.r#type = Some(Str::from_validated(self.cur.text(ty_at, ty_at + 8), false));
                self.cur.pos = end + T;
                self.cur.ws += spaces(key) + spaces(ty);
            }
            None => obj.book_head(0b100, 2),
        }
        Ok(Some(f))
    }

    /// A function call's first fields as senders write them, `"name":"…","arguments":` (the
    /// cursor just past the `{`): the name a plain ASCII string that ends within 64 bytes.
    /// On a match both fields are booked in `obj` as the general loop books them, the name
    /// is read, the cursor is at the value of `arguments` (past any whitespace, as the
    /// general loop leaves it), and the caller reads it as the general loop does. `false`,
    /// nothing moved, for anything else.
    #[inline(always)]
    pub(super) fn function_head(&mut self, obj: &mut Obj<'a>, name: &mut Option<Str<'a>>) -> bool {
        in_style!(self, b"\"name\":", |
            KEY = b"\"name\":\"",
            ARGUMENTS = b"\",\"arguments\":",
        | self.function_head_in(obj, name, KEY, ARGUMENTS))
    }

    /// A function call's fields as senders that sort their keys write them,
    /// `"arguments":"…","name":"…"` (the cursor just past the `{`): the arguments read as the
    /// general loop reads them, then the name (a plain ASCII string that ends within 64
    /// bytes) by byte compares. On a match both are booked in `obj` in their wire order (a
    /// shared record) and the cursor is after the name; when only the arguments are there
    /// so, they alone are booked and the cursor is after them. Nothing moved when the
    /// object does not start with `"arguments":"`. Out of line, as
    /// [`Parser::tool_call_head_sorted`].
    #[inline(never)]
    pub(super) fn function_head_sorted(
        &mut self,
        obj: &mut Obj<'a>,
        name: &mut Option<Str<'a>>,
        arguments: &mut Option<Str<'a>>,
    ) -> RawResult<()> {
        in_style!(self, b"\"arguments\":", |
            KEY = b"\"arguments\":\"",
            NAME = b",\"name\":\"",
        | self.function_head_sorted_in(obj, name, arguments, KEY, NAME))
    }

    /// [`Parser::function_head_sorted`] in one style: `key` up to the arguments' opening
    /// quote, `name` from their closing quote to the name's opening one.
    #[inline(always)]
    fn function_head_sorted_in<const K: usize, const N: usize>(
        &mut self,
        obj: &mut Obj<'a>,
        name: &mut Option<Str<'a>>,
        arguments: &mut Option<Str<'a>>,
        key: &[u8; K],
        name_key: &[u8; N],
    ) -> RawResult<()> {
        let bytes = self.cur.bytes;
        if !holds(bytes, self.cur.pos, key) {
            return Ok(());
        }
        self.cur.pos += K - 1;
        self.cur.ws += spaces(key);
        *arguments = Some(self.string("arguments")?);
        let after = self.cur.pos;
        // `FunctionCall::FIELDS`: `name` 0, `arguments` 1.
        match plain_field(bytes, after, name_key, b"\"") {
            Some(end) => {
                obj.book_head_in_order(0b11, &orders::ARGUMENTS_NAME);
                *name = Some(Str::from_validated(self.cur.text(after + N, end), false));
                self.cur.pos = end + 1;
                self.cur.ws += spaces(name_key);
            }
            None => obj.book_head(0b10, 1),
        }
        Ok(())
    }

    /// [`Parser::function_head`] in one style.
    #[inline(always)]
    fn function_head_in<const K: usize, const A: usize>(
        &mut self,
        obj: &mut Obj<'a>,
        name: &mut Option<Str<'a>>,
        key: &[u8; K],
        arguments: &[u8; A],
    ) -> bool {
        let bytes = self.cur.bytes;
        let at = self.cur.pos;
        let Some(end) = plain_field(bytes, at, key, arguments) else {
            return false;
        };
        // `FunctionCall::FIELDS`: `name` 0, `arguments` 1.
        obj.book_head(0b11, 1);
        *name = Some(Str::from_validated(self.cur.text(at + K, end), false));
        self.cur.pos = end + A;
        self.cur.ws += spaces(key) + spaces(arguments);
        // As the general loop, past the colon: whitespace before the value.
        self.cur.skip_ws();
        true
    }
}

#[cfg(test)]
mod tests {
    use super::{find, python_len, python_style};

    /// The spaced literals built from the compact spelling are the ones Python writes.
    #[test]
    fn python_style_spaces_each_colon_and_comma() {
        const REST: &[u8] = b"\",\"type\":\"function\",\"function\":{";
        let spaced: [u8; python_len(REST)] = python_style(REST);
        assert_eq!(&spaced, b"\", \"type\": \"function\", \"function\": {");
        assert_eq!(find(REST, b"function\""), 10);
        assert_eq!(find(&spaced, b"function\""), 12);
        let key: [u8; python_len(b"\"content\":")] = python_style(b"\"content\":");
        assert_eq!(&key, b"\"content\": ");
        let none: [u8; python_len(b"\"")] = python_style(b"\"");
        assert_eq!(&none, b"\"");
    }
}
