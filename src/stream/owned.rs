//! Owning forms of the streaming parser and of a parsed body, for async tasks:
//! [`OwnedBodyParser`] (`Send + 'static`) and [`ParsedBody`] (`Send + Sync + 'static`).
//!
//! Each keeps its [`BodyBuf`] (or the whole body as [`Bytes`]) and its [`Bump`] arena in one
//! heap block beside the parser or document that borrows them (a [`self_cell`](mod@self_cell) pair), so the
//! value can be moved, held across `.await`s and sent to another task without copying the
//! body or re-parsing it.

use std::io::IoSlice;

use bumpalo::Bump;
use bytes::{Buf, Bytes};
use self_cell::self_cell;

use super::{BodyBuf, BodyParser, Status};
use crate::error::Error;
use crate::model::RunAgentInput;
use crate::parser::ParseOptions;

/// What the pair owns: the body and the arena the lists live in.
struct Store {
    /// The body when it was given whole ([`ParsedBody::parse`]); `None` when it arrived in
    /// chunks, into `buf`.
    whole: Option<Bytes>,
    buf: BodyBuf,
    arena: Bump,
}

impl Store {
    fn new(whole: Option<Bytes>, buf: BodyBuf) -> Store {
        Store {
            whole,
            buf,
            arena: Bump::new(),
        }
    }

    fn bytes(&self) -> &[u8] {
        match &self.whole {
            Some(b) => b,
            None => self.buf.as_bytes(),
        }
    }
}

/// What borrows the store: the parser while the body arrives, the document once it is
/// complete (the finished parser stays beside it, idle, so that neither half is ever missing).
struct Stage<'a> {
    parser: BodyParser<'a>,
    doc: RunAgentInput<'a>,
}

self_cell!(
    struct Pair {
        owner: Store,

        #[covariant]
        dependent: Stage,
    }
);

/// A chunk-fed `RunAgentInput` parser that owns its buffer and arena: `Send + 'static`, so it
/// can be held across `.await`s in a task on a multi-threaded runtime (which
/// [`BodyParser`], borrowing a `&Bump`, cannot).
///
/// It is [`BodyParser`] inside, with every guarantee of it: the same answers as one-shot
/// parsing, errors reported by the chunk that proves them, [`ParseOptions::max_input_bytes`]
/// enforced as bytes arrive, and linear work whatever the chunking. [`OwnedBodyParser::finish`]
/// turns it into a [`ParsedBody`] without copying or re-parsing anything.
///
/// ```
/// use agui_wire::stream::{OwnedBodyParser, Status};
/// use agui_wire::ParseOptions;
/// let body = br#"{"threadId":"t","runId":"r","messages":[{"id":"1","role":"user","content":"hi"}]}"#;
/// let mut parser = OwnedBodyParser::new(ParseOptions::default());
/// for chunk in body.chunks(7) {
///     parser.feed(chunk)?;
/// }
/// assert!(parser.is_complete());
/// let parsed = parser.finish()?;
/// assert_eq!(parsed.input().messages.len(), 1);
/// assert_eq!(parsed.bytes(), body); // the original bytes, for forwarding as they came
/// # Ok::<(), agui_wire::Error>(())
/// ```
pub struct OwnedBodyParser {
    pair: Pair,
}

// SAFETY: every part of the pair is `Send` except the references the parser holds to the
// store's `BodyBuf` and `Bump` (and the arena vectors that point to that `Bump`): a `&Bump` is
// not `Send` because `Bump` is not `Sync`, which protects a `Bump` that two threads could
// reach at once. Here both the `Bump` and every reference to it live inside the one heap block
// of the pair, which moves as a whole (moving the handle does not move the block), and no
// reference into the store outlives a call of a method of this type (they return values or
// borrows of `self`, which end before `self` can move). So after a move to another thread, the
// `Bump` and the `BodyBuf` are reached from that thread only, exactly as if they had been
// moved by value, and both types are `Send`. The type is not `Sync` (the `Bump` is not), so no
// two threads ever reach it at once. `assert_contents_send` below checks that nothing else in
// the pair is thread-bound.
unsafe impl Send for OwnedBodyParser {}

impl OwnedBodyParser {
    /// A parser with the given options (and a buffer that grows as the body arrives).
    ///
    /// ```
    /// use agui_wire::stream::OwnedBodyParser;
    /// use agui_wire::ParseOptions;
    /// let parser = OwnedBodyParser::new(ParseOptions::default());
    /// assert_eq!(parser.received(), 0);
    /// ```
    pub fn new(options: ParseOptions) -> OwnedBodyParser {
        OwnedBodyParser::with_buf(options, BodyBuf::new())
    }

    /// A parser whose buffer has room for `capacity` bytes up front (from `Content-Length`),
    /// so that a body of that size is received into one block.
    ///
    /// The size is a hint and never a hazard: it is capped by
    /// [`ParseOptions::max_input_bytes`] (a larger body is refused anyway), and if the
    /// allocator cannot give even that, the buffer starts small and grows as bytes arrive.
    /// The parser is also told to expect that many bytes ([`BodyParser::expect_len`]), so
    /// long lists grow once rather than by doubling.
    ///
    /// ```
    /// use agui_wire::stream::OwnedBodyParser;
    /// use agui_wire::ParseOptions;
    /// let opts = ParseOptions { max_input_bytes: 1 << 20, ..ParseOptions::default() };
    /// // A hostile Content-Length of 100 GB reserves at most the limit.
    /// let parser = OwnedBodyParser::with_capacity(opts, 100 << 30);
    /// assert!(parser.capacity() <= 1 << 20);
    /// ```
    pub fn with_capacity(options: ParseOptions, capacity: usize) -> OwnedBodyParser {
        let capacity = capacity.min(options.max_input_bytes);
        let buf = BodyBuf::try_with_capacity(capacity).unwrap_or_default();
        let mut parser = OwnedBodyParser::with_buf(options, buf);
        parser
            .pair
            .with_dependent_mut(|_, stage| stage.parser.expect_len(capacity));
        parser
    }

    fn with_buf(options: ParseOptions, buf: BodyBuf) -> OwnedBodyParser {
        let pair = Pair::new(Store::new(None, buf), |store| Stage {
            parser: BodyParser::with_options(&store.buf, &store.arena, options),
            doc: RunAgentInput::default(),
        });
        OwnedBodyParser { pair }
    }

    /// Appends `chunk` and parses on, as [`BodyParser::feed`] does.
    ///
    /// ```
    /// use agui_wire::stream::{OwnedBodyParser, Status};
    /// use agui_wire::ParseOptions;
    /// let mut parser = OwnedBodyParser::new(ParseOptions::default());
    /// assert_eq!(parser.feed(br#"{"threadId":"t","runId":"r","#)?, Status::Partial);
    /// assert_eq!(parser.feed(br#""messages":[]}"#)?, Status::Complete(42));
    /// # Ok::<(), agui_wire::Error>(())
    /// ```
    pub fn feed(&mut self, chunk: &[u8]) -> Result<Status, Error> {
        self.pair
            .with_dependent_mut(|_, stage| stage.parser.feed(chunk))
    }

    /// Appends every byte of `data` (a `bytes::Bytes` body frame, or any [`Buf`], however
    /// many pieces it is in) and parses on.
    ///
    /// ```
    /// use agui_wire::stream::{OwnedBodyParser, Status};
    /// use agui_wire::ParseOptions;
    /// use bytes::{Buf, Bytes};
    /// let mut parser = OwnedBodyParser::new(ParseOptions::default());
    /// parser.feed_buf(Bytes::from_static(br#"{"threadId":"t","#))?;
    /// let rest = Bytes::from_static(br#""runId":"r","#).chain(&br#""messages":[]}"#[..]);
    /// assert_eq!(parser.feed_buf(rest)?, Status::Complete(42));
    /// # Ok::<(), agui_wire::Error>(())
    /// ```
    pub fn feed_buf(&mut self, mut data: impl Buf) -> Result<Status, Error> {
        let mut status = self.feed(&[])?;
        while data.has_remaining() {
            let chunk = data.chunk();
            let n = chunk.len();
            status = self.feed(chunk)?;
            data.advance(n);
        }
        Ok(status)
    }

    /// Whether the document is complete (as [`BodyParser::is_complete`]).
    ///
    /// ```
    /// use agui_wire::stream::OwnedBodyParser;
    /// let mut parser = OwnedBodyParser::default();
    /// parser.feed(br#"{"threadId":"t","runId":"r","messages":[]}"#)?;
    /// assert!(parser.is_complete());
    /// # Ok::<(), agui_wire::Error>(())
    /// ```
    pub fn is_complete(&self) -> bool {
        self.pair.borrow_dependent().parser.is_complete()
    }

    /// The bytes received so far.
    ///
    /// ```
    /// use agui_wire::stream::OwnedBodyParser;
    /// let mut parser = OwnedBodyParser::default();
    /// parser.feed(b"{\"thr")?;
    /// assert_eq!(parser.bytes(), b"{\"thr");
    /// # Ok::<(), agui_wire::Error>(())
    /// ```
    pub fn bytes(&self) -> &[u8] {
        self.pair.borrow_owner().bytes()
    }

    /// Number of bytes received so far.
    ///
    /// ```
    /// use agui_wire::stream::OwnedBodyParser;
    /// let mut parser = OwnedBodyParser::default();
    /// parser.feed(b"  {")?;
    /// assert_eq!(parser.received(), 3);
    /// # Ok::<(), agui_wire::Error>(())
    /// ```
    pub fn received(&self) -> usize {
        self.pair.borrow_owner().buf.len()
    }

    /// Size of the buffer's current block (see [`BodyBuf::capacity`]).
    ///
    /// ```
    /// use agui_wire::stream::OwnedBodyParser;
    /// let parser = OwnedBodyParser::with_capacity(Default::default(), 4096);
    /// assert_eq!(parser.capacity(), 4096);
    /// ```
    pub fn capacity(&self) -> usize {
        self.pair.borrow_owner().buf.capacity()
    }

    /// Ends the body: the parsed body, or the error one-shot parsing gives for the bytes
    /// received (as [`BodyParser::finish`]). Nothing is copied or parsed again.
    ///
    /// ```
    /// use agui_wire::stream::OwnedBodyParser;
    /// use agui_wire::ErrorKind;
    /// let mut parser = OwnedBodyParser::default();
    /// parser.feed(br#"{"threadId":"t""#)?;
    /// assert_eq!(parser.finish().unwrap_err().kind(), &ErrorKind::UnexpectedEof);
    /// # Ok::<(), agui_wire::Error>(())
    /// ```
    pub fn finish(self) -> Result<ParsedBody, Error> {
        let mut pair = self.pair;
        pair.with_dependent_mut(|_, stage| {
            stage.doc = stage.parser.finish_in_place()?;
            Ok::<(), Error>(())
        })?;
        Ok(ParsedBody { pair })
    }
}

impl Default for OwnedBodyParser {
    /// A parser with the default [`ParseOptions`].
    fn default() -> Self {
        OwnedBodyParser::new(ParseOptions::default())
    }
}

impl std::fmt::Debug for OwnedBodyParser {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("OwnedBodyParser")
            .field(&self.pair.borrow_dependent().parser)
            .finish()
    }
}

/// A parsed `RunAgentInput` that owns its body and arena: `Send + Sync + 'static`, so a
/// handler can hold it across `.await`s, move it to another task, queue it or share it in an
/// `Arc`.
///
/// Made by [`OwnedBodyParser::finish`] (the body arrived in chunks) or [`ParsedBody::parse`]
/// (the body is whole, as `Bytes` or `Vec<u8>`: not copied). The document borrows its strings
/// from the body, as [`RunAgentInput::parse`] does.
///
/// ```
/// use agui_wire::stream::ParsedBody;
/// use agui_wire::{Message, ParseOptions};
/// let body = br#"{"threadId":"t","runId":"r","messages":[{"id":"1","role":"user","content":"hi"}]}"#.to_vec();
/// let mut parsed = ParsedBody::parse(body, &ParseOptions::default())?;
/// assert!(matches!(parsed.input().messages[0], Message::User(_)));
/// // Edits go through a closure (the document borrows the body it lives beside).
/// parsed.with_input_mut(|input, _arena| input.retain_messages(|_| false));
/// assert_eq!(parsed.to_vec(), br#"{"threadId":"t","runId":"r","messages":[]}"#);
/// # Ok::<(), agui_wire::Error>(())
/// ```
pub struct ParsedBody {
    pair: Pair,
}

// SAFETY: as for `OwnedBodyParser`: the references inside the pair point into its own store
// and move with it, so moving a `ParsedBody` to another thread moves the `Bump` and the
// `BodyBuf` (both `Send`) by value in effect.
unsafe impl Send for ParsedBody {}

// SAFETY: through `&ParsedBody` only immutable data is reachable: the document (`input`,
// whose types are `Sync`, see `assert_contents_send`), the body's bytes, and what is
// computed from them. Neither the `Bump` nor the `BodyBuf` (whose `&self` methods could
// allocate or append) nor the idle parser is reachable through `&self`: the arena is handed
// out only by `with_input_mut`, which takes `&mut self`, so no other thread holds a
// reference to the value meanwhile.
unsafe impl Sync for ParsedBody {}

impl ParsedBody {
    /// Parses a whole body, kept as it is (a `Vec<u8>` becomes `Bytes` without a copy, and
    /// `Bytes` are not copied either).
    ///
    /// ```
    /// use agui_wire::stream::ParsedBody;
    /// use agui_wire::ParseOptions;
    /// use bytes::Bytes;
    /// let body = Bytes::from_static(br#"{"threadId":"t","runId":"r","messages":[]}"#);
    /// let parsed = ParsedBody::parse(body.clone(), &ParseOptions::default())?;
    /// assert_eq!(parsed.input().thread_id, "t");
    /// assert_eq!(parsed.bytes().as_ptr(), body.as_ptr()); // the same bytes, not a copy
    /// # Ok::<(), agui_wire::Error>(())
    /// ```
    pub fn parse(body: impl Into<Bytes>, options: &ParseOptions) -> Result<ParsedBody, Error> {
        let store = Store::new(Some(body.into()), BodyBuf::new());
        let pair = Pair::try_new(store, |store| {
            let doc = RunAgentInput::parse_with(store.bytes(), &store.arena, options)?;
            Ok::<_, Error>(Stage {
                parser: BodyParser::with_options(&store.buf, &store.arena, options.clone()),
                doc,
            })
        })?;
        Ok(ParsedBody { pair })
    }

    /// The document.
    ///
    /// ```
    /// use agui_wire::stream::ParsedBody;
    /// let parsed = ParsedBody::parse(&br#"{"threadId":"t","runId":"r","messages":[]}"#[..], &Default::default())?;
    /// assert_eq!(parsed.input().run_id, "r");
    /// # Ok::<(), agui_wire::Error>(())
    /// ```
    pub fn input(&self) -> &RunAgentInput<'_> {
        &self.pair.borrow_dependent().doc
    }

    /// The body as received, byte for byte (for forwarding it unchanged when nothing was
    /// edited).
    ///
    /// ```
    /// use agui_wire::stream::ParsedBody;
    /// let body = br#"{ "threadId":"t", "runId":"r", "messages":[] }"#;
    /// let parsed = ParsedBody::parse(&body[..], &Default::default())?;
    /// assert_eq!(parsed.bytes(), body);
    /// # Ok::<(), agui_wire::Error>(())
    /// ```
    pub fn bytes(&self) -> &[u8] {
        self.pair.borrow_owner().bytes()
    }

    /// The body as received, as `Bytes` (for an HTTP client): the same bytes without a copy.
    /// The returned `Bytes` keep the whole parsed body alive until they are dropped.
    ///
    /// ```
    /// use agui_wire::stream::OwnedBodyParser;
    /// let mut parser = OwnedBodyParser::default();
    /// parser.feed(br#"{"threadId":"t","runId":"r","messages":[]}"#)?;
    /// let parsed = parser.finish()?;
    /// let ptr = parsed.bytes().as_ptr();
    /// let bytes = parsed.into_bytes();
    /// assert_eq!(bytes.as_ptr(), ptr);
    /// # Ok::<(), agui_wire::Error>(())
    /// ```
    pub fn into_bytes(self) -> Bytes {
        match &self.pair.borrow_owner().whole {
            Some(b) => b.clone(),
            None => Bytes::from_owner(BodyOwner(self)),
        }
    }

    /// Edits the document: `edit` gets it mutably, with the arena (for
    /// [`Str::new_in`](crate::Str::new_in) and the like). The document's lifetime is the
    /// closure's own, so nothing borrowed from outside can be put into it, and nothing from
    /// it can leave except owned values.
    ///
    /// ```
    /// use agui_wire::stream::ParsedBody;
    /// use agui_wire::{Context, Str};
    /// let mut parsed = ParsedBody::parse(&br#"{"threadId":"t","runId":"r","messages":[]}"#[..], &Default::default())?;
    /// parsed.with_input_mut(|input, arena| {
    ///     input.push_context(Context {
    ///         description: Str::new_in("tenant", arena),
    ///         value: Str::new_in("acme", arena),
    ///         ..Default::default()
    ///     });
    /// });
    /// assert_eq!(
    ///     parsed.to_vec(),
    ///     br#"{"threadId":"t","runId":"r","messages":[],"context":[{"description":"tenant","value":"acme"}]}"#
    /// );
    /// # Ok::<(), agui_wire::Error>(())
    /// ```
    pub fn with_input_mut<R>(
        &mut self,
        edit: impl for<'a> FnOnce(&mut RunAgentInput<'a>, &'a Bump) -> R,
    ) -> R {
        self.pair
            .with_dependent_mut(|store, stage| edit(&mut stage.doc, &store.arena))
    }

    /// The document written as compact JSON ([`crate::to_vec`]).
    ///
    /// ```
    /// use agui_wire::stream::ParsedBody;
    /// let parsed = ParsedBody::parse(&br#"{ "threadId" : "t", "runId":"r", "messages":[] }"#[..], &Default::default())?;
    /// assert_eq!(parsed.to_vec(), br#"{"threadId":"t","runId":"r","messages":[]}"#);
    /// # Ok::<(), agui_wire::Error>(())
    /// ```
    pub fn to_vec(&self) -> Vec<u8> {
        crate::to_vec(self.input())
    }

    /// The document written as slices for vectored I/O ([`crate::to_io_slices`]): long
    /// strings and raw values are slices of the body, only the glue between them goes into
    /// `scratch`.
    ///
    /// ```
    /// use agui_wire::stream::ParsedBody;
    /// let parsed = ParsedBody::parse(&br#"{"threadId":"t","runId":"r","messages":[]}"#[..], &Default::default())?;
    /// let mut scratch = Vec::new();
    /// let slices = parsed.to_io_slices(&mut scratch);
    /// let joined: Vec<u8> = slices.iter().flat_map(|s| s.iter().copied()).collect();
    /// assert_eq!(joined, parsed.to_vec());
    /// # Ok::<(), agui_wire::Error>(())
    /// ```
    pub fn to_io_slices<'x>(&'x self, scratch: &'x mut Vec<u8>) -> Vec<IoSlice<'x>> {
        crate::to_io_slices(self.input(), scratch)
    }
}

impl std::fmt::Debug for ParsedBody {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ParsedBody")
            .field("len", &self.bytes().len())
            .field("input", self.input())
            .finish()
    }
}

/// A parsed body as the owner of [`Bytes`] of its original body.
struct BodyOwner(ParsedBody);

impl AsRef<[u8]> for BodyOwner {
    fn as_ref(&self) -> &[u8] {
        self.0.bytes()
    }
}

/// The `unsafe impl`s above rest on everything in the pair other than the references to the
/// store being `Send` (and the document `Sync`): checked here at compile time, so a field that
/// is not (an `Rc`, a `Cell`) cannot be added unnoticed.
#[allow(dead_code)]
fn assert_contents_send() {
    fn send<T: Send>() {}
    fn sync<T: Sync>() {}
    send::<Store>();
    sync::<RunAgentInput<'static>>();
    send::<RunAgentInput<'static>>();
    super::assert_parser_parts_send();
}

#[cfg(test)]
mod tests {
    //! Run under valgrind by CI (`.ci/run`): the pair moved between threads mid-parse, with the
    //! buffer outgrowing its blocks, and shared by threads once parsed.
    use super::*;
    use crate::model::Str;
    use std::sync::Arc;

    fn doc(n: usize) -> Vec<u8> {
        let mut d = String::from(r#"{"threadId":"t","runId":"r","messages":["#);
        for i in 0..n {
            if i > 0 {
                d.push(',');
            }
            d.push_str(&format!(
                r#"{{"id":"m{i}","role":"user","content":"{}"}}"#,
                "x".repeat(i % 40)
            ));
        }
        d.push_str(r#"],"state":{"a":[1,2,{"b":null}]}}"#);
        d.into_bytes()
    }

    #[test]
    fn moved_between_threads_while_parsing() {
        let body = doc(300);
        let mut parser = OwnedBodyParser::default();
        let last = body.len().div_ceil(333) - 1;
        for (i, chunk) in body.chunks(333).enumerate() {
            let chunk = chunk.to_vec();
            // Every chunk on a new thread: the saved messages, the arena and the buffer (which
            // outgrows its first block here) move with the parser.
            parser = std::thread::spawn(move || {
                let s = parser.feed(&chunk).unwrap();
                assert_eq!(s.is_complete(), i == last);
                parser
            })
            .join()
            .unwrap();
        }
        let mut parsed = std::thread::spawn(move || parser.finish().unwrap())
            .join()
            .unwrap();
        let arena = Bump::new();
        assert_eq!(
            parsed.input(),
            &RunAgentInput::parse(&body, &arena).unwrap()
        );
        parsed.with_input_mut(|input, arena| {
            input.thread_id = Str::new_in(arena.alloc_str(&"t".repeat(1000)), arena);
        });
        let shared = Arc::new(parsed);
        let handles: Vec<_> = (0..2)
            .map(|_| {
                let s = Arc::clone(&shared);
                std::thread::spawn(move || (s.input().messages.len(), s.to_vec().len()))
            })
            .collect();
        for h in handles {
            let (n, len) = h.join().unwrap();
            assert_eq!((n, len), (300, shared.to_vec().len()));
        }
        assert_eq!(shared.bytes(), &body[..]);
        let shared = Arc::try_unwrap(shared).unwrap();
        let bytes = std::thread::spawn(move || shared.into_bytes())
            .join()
            .unwrap();
        assert_eq!(&bytes[..], &body[..]);
    }
}
