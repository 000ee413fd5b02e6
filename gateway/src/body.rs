//! The request body as it streams in: fed piece by piece, refused as soon as a piece proves
//! it too large or invalid, and kept whole (parsed) once it ends.
//!
//! This is the gateway's one seam onto the library's owning chunk-fed parser, so the rest of
//! the gateway does not care how the parse is held across `.await`s.

use agui_wire::ParseOptions;
use bytes::Bytes;

use crate::reject::Rejection;

/// A body being received. `Send + 'static`: held across the `.await`s between pieces.
pub struct BodyCheck {
    options: ParseOptions,
    buf: Vec<u8>,
}

/// A complete, valid body.
pub struct Checked {
    options: ParseOptions,
    bytes: Bytes,
}

impl BodyCheck {
    /// Starts a body; `declared` is its `Content-Length` when the client sent one (refused at
    /// once when over the limit, and used to size the buffer).
    pub fn new(options: ParseOptions, declared: Option<usize>) -> Result<BodyCheck, Rejection> {
        if let Some(n) = declared.filter(|n| *n > options.max_input_bytes) {
            return Err(Rejection::too_large(n, options.max_input_bytes));
        }
        let capacity = declared.unwrap_or(0).min(options.max_input_bytes);
        Ok(BodyCheck {
            options,
            buf: Vec::with_capacity(capacity),
        })
    }

    /// Takes the next piece.
    pub fn feed(&mut self, chunk: &[u8]) -> Result<(), Rejection> {
        let len = self.buf.len() + chunk.len();
        if len > self.options.max_input_bytes {
            return Err(Rejection::too_large(len, self.options.max_input_bytes));
        }
        self.buf.extend_from_slice(chunk);
        Ok(())
    }

    /// Bytes received so far.
    pub fn received(&self) -> usize {
        self.buf.len()
    }

    /// The body ended: the parsed document, or why it is refused.
    pub fn finish(self) -> Result<Checked, Rejection> {
        let arena = agui_wire::Bump::new();
        agui_wire::RunAgentInput::parse_with(&self.buf, &arena, &self.options)
            .map_err(|e| Rejection::from_parse(&e))?;
        Ok(Checked {
            options: self.options,
            bytes: Bytes::from(self.buf),
        })
    }
}

impl Checked {
    /// The body as received.
    pub fn bytes(&self) -> &Bytes {
        &self.bytes
    }

    /// Edits the document with `edit`; when it reports changes (returns `Ok(n > 0)`), the
    /// body to forward is the edited document written out, else the bytes as received.
    pub fn edit<E>(
        self,
        edit: impl FnOnce(&mut agui_wire::RunAgentInput<'_>) -> Result<usize, E>,
    ) -> Result<(Bytes, usize), E> {
        let arena = agui_wire::Bump::new();
        let Ok(mut input) =
            agui_wire::RunAgentInput::parse_with(&self.bytes, &arena, &self.options)
        else {
            return Ok((self.bytes.clone(), 0));
        };
        let n = edit(&mut input)?;
        if n == 0 {
            return Ok((self.bytes.clone(), 0));
        }
        Ok((Bytes::from(agui_wire::to_vec(&input)), n))
    }
}
