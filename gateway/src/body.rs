//! The request body as it streams in: fed piece by piece to the library's owning chunk-fed
//! parser ([`agui_wire::stream::OwnedBodyParser`], `Send + 'static`, so it lives across the
//! `.await`s between pieces), refused as soon as a piece proves it too large or invalid, and
//! kept parsed ([`agui_wire::stream::ParsedBody`]) once it ends.

use agui_wire::ParseOptions;
use agui_wire::stream::{OwnedBodyParser, ParsedBody};
use bytes::Bytes;

use crate::reject::Rejection;

/// The most buffer reserved up front on a client's word (its `Content-Length`); past that the
/// buffer grows only as bytes actually arrive.
const MAX_RESERVE: usize = 1 << 20;

/// A request body being received and judged piece by piece.
///
/// One per request; `Send` (it lives on the request's task across `.await`s), not `Sync`.
///
/// ```
/// use agui_gateway::body::BodyCheck;
/// use agui_wire::ParseOptions;
/// let body = br#"{"threadId":"t","runId":"r","messages":[]}"#;
/// let mut check = BodyCheck::new(ParseOptions::default(), Some(body.len()))?;
/// for piece in body.chunks(7) {
///     check.feed(piece)?; // refused here, at the first piece that proves the body bad
/// }
/// let checked = check.finish()?;
/// assert_eq!(&checked.into_bytes()[..], body); // forwarded as received
///
/// // An invalid body is refused on the piece with the fault, with where it is.
/// let mut check = BodyCheck::new(ParseOptions::default(), None)?;
/// check.feed(br#"{"threadId":"t","run"#)?;
/// let refused = check.feed(br#"Id":5,"#).unwrap_err();
/// assert_eq!((refused.status, refused.path.as_str()), (400, "runId"));
/// # Ok::<(), agui_gateway::reject::Rejection>(())
/// ```
pub struct BodyCheck {
    parser: OwnedBodyParser,
}

/// A complete, valid body, parsed: forward it as received ([`Checked::into_bytes`]) or edited
/// ([`Checked::edit`], or through a [`Policy`](crate::policy::Policy)).
///
/// `Send + Sync`: it may move to a blocking thread for editing.
///
/// ```
/// use agui_gateway::body::BodyCheck;
/// use agui_wire::ParseOptions;
/// let body = br#"{"threadId":"t","runId":"r","messages":[],"state":{"secret":1}}"#;
/// let mut check = BodyCheck::new(ParseOptions::default(), None)?;
/// check.feed(body)?;
/// let checked = check.finish()?;
/// let (edited, changes) = checked.edit(|input| {
///     input.state = None;
///     Ok::<usize, std::convert::Infallible>(1)
/// }).unwrap();
/// assert_eq!(changes, 1);
/// assert_eq!(&edited[..], br#"{"threadId":"t","runId":"r","messages":[]}"#);
/// # Ok::<(), agui_gateway::reject::Rejection>(())
/// ```
pub struct Checked {
    parsed: ParsedBody,
}

impl BodyCheck {
    /// Starts a body; `declared` is its `Content-Length` when the client sent one (refused at
    /// once when over the limit).
    pub fn new(options: ParseOptions, declared: Option<usize>) -> Result<BodyCheck, Rejection> {
        if let Some(n) = declared.filter(|n| *n > options.max_input_bytes) {
            return Err(Rejection::too_large(n, options.max_input_bytes));
        }
        let capacity = declared.unwrap_or(16 << 10).min(MAX_RESERVE);
        Ok(BodyCheck {
            parser: OwnedBodyParser::with_capacity(options, capacity),
        })
    }

    /// Takes the next piece: parsed as far as it goes, refused at the first byte that proves the
    /// body invalid or too large.
    pub fn feed(&mut self, chunk: &[u8]) -> Result<(), Rejection> {
        self.parser
            .feed(chunk)
            .map(drop)
            .map_err(|e| Rejection::from_parse(&e))
    }

    /// Bytes received so far.
    pub fn received(&self) -> usize {
        self.parser.received()
    }

    /// The body ended: the parsed document, or why it is refused.
    pub fn finish(self) -> Result<Checked, Rejection> {
        self.parser
            .finish()
            .map(|parsed| Checked { parsed })
            .map_err(|e| Rejection::from_parse(&e))
    }
}

impl Checked {
    /// The body as received, without a copy.
    pub fn into_bytes(self) -> Bytes {
        self.parsed.into_bytes()
    }

    /// Edits the document with `edit`; when it reports changes (`Ok(n)` with `n > 0`) the body
    /// to forward is the edited document written out, else the bytes as received.
    pub fn edit<E>(
        mut self,
        edit: impl for<'a> FnOnce(&mut agui_wire::RunAgentInput<'a>) -> Result<usize, E>,
    ) -> Result<(Bytes, usize), E> {
        let n = self.parsed.with_input_mut(|input, _arena| edit(input))?;
        if n == 0 {
            return Ok((self.into_bytes(), 0));
        }
        Ok((Bytes::from(self.parsed.to_vec()), n))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_are_judged_as_they_come() {
        let body = br#"{"threadId":"t","runId":"r","messages":[]}"#;
        let mut check = BodyCheck::new(ParseOptions::default(), Some(body.len())).unwrap();
        for piece in body.chunks(3) {
            check.feed(piece).unwrap();
        }
        assert_eq!(check.received(), body.len());
        assert_eq!(&check.finish().unwrap().into_bytes()[..], body);
        // Refused on the piece with the fault, not at the end.
        let mut check = BodyCheck::new(ParseOptions::default(), None).unwrap();
        check.feed(br#"{"threadId":"t","run"#).unwrap();
        let r = check.feed(br#"Id":5,"#).unwrap_err();
        assert_eq!((r.status, r.path.as_str()), (400, "runId"));
        let small = ParseOptions {
            max_input_bytes: 10,
            ..Default::default()
        };
        assert_eq!(
            BodyCheck::new(small.clone(), Some(11))
                .err()
                .unwrap()
                .status,
            413
        );
        let mut check = BodyCheck::new(small, None).unwrap();
        check
            .feed(b"{\"threadId\"")
            .err()
            .map(|r| assert_eq!(r.status, 413))
            .unwrap();
    }
}
