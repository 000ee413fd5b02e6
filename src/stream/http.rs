//! Reading an `http_body::Body` (hyper 1, axum, tower) into a [`ParsedBody`], frame by frame
//! (cargo feature `http-body`).

use std::fmt;

use super::{OwnedBodyParser, ParsedBody};
use crate::error::Error;

/// Why [`OwnedBodyParser::read_body`] failed.
///
/// ```
/// use agui_wire::stream::ReadBodyError;
/// let e: ReadBodyError<std::io::Error> = ReadBodyError::Body(std::io::Error::other("reset"));
/// assert_eq!(e.to_string(), "reading the body: reset");
/// ```
#[derive(Debug)]
pub enum ReadBodyError<E> {
    /// The body's own error (the connection failed, a limit of the HTTP layer).
    Body(E),
    /// The document is invalid or over a limit of [`crate::ParseOptions`], reported by the
    /// frame that proves it (answer `413` for [`crate::ErrorKind::InputTooLarge`], `400`
    /// otherwise).
    Parse(Error),
}

impl<E: fmt::Display> fmt::Display for ReadBodyError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadBodyError::Body(e) => write!(f, "reading the body: {e}"),
            ReadBodyError::Parse(e) => e.fmt(f),
        }
    }
}

impl<E: std::error::Error + 'static> std::error::Error for ReadBodyError<E> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ReadBodyError::Body(e) => Some(e),
            ReadBodyError::Parse(e) => Some(e),
        }
    }
}

impl OwnedBodyParser {
    /// Feeds every data frame of `body` as it arrives (trailers are ignored) and finishes:
    /// the parsed body, or the first error, from the frame that proves it (the rest of the
    /// body is then not read). The future is `Send` when the body is.
    ///
    /// ```
    /// # use std::{pin::Pin, task::{Context, Poll}, collections::VecDeque};
    /// # use bytes::Bytes;
    /// # use http_body::{Body, Frame};
    /// # struct Frames(VecDeque<Bytes>);
    /// # impl Body for Frames {
    /// #     type Data = Bytes;
    /// #     type Error = std::convert::Infallible;
    /// #     fn poll_frame(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
    /// #         Poll::Ready(self.0.pop_front().map(|b| Ok(Frame::data(b))))
    /// #     }
    /// # }
    /// use agui_wire::stream::OwnedBodyParser;
    /// # let rt = tokio::runtime::Builder::new_current_thread().build().unwrap();
    /// # rt.block_on(async {
    /// let body = Frames([&br#"{"threadId":"t","runId":"r","#[..], br#""messages":[]}"#]
    ///     .into_iter().map(Bytes::from_static).collect());
    /// // In a handler: `OwnedBodyParser::with_capacity(opts, content_length).read_body(req.into_body())`.
    /// let parsed = OwnedBodyParser::default().read_body(body).await?;
    /// assert_eq!(parsed.input().run_id, "r");
    /// # Ok::<(), agui_wire::stream::ReadBodyError<std::convert::Infallible>>(())
    /// # }).unwrap();
    /// ```
    pub async fn read_body<B>(mut self, body: B) -> Result<ParsedBody, ReadBodyError<B::Error>>
    where
        B: http_body::Body,
    {
        let mut body = std::pin::pin!(body);
        while let Some(frame) = std::future::poll_fn(|cx| body.as_mut().poll_frame(cx)).await {
            let frame = frame.map_err(ReadBodyError::Body)?;
            if let Ok(data) = frame.into_data() {
                self.feed_buf(data).map_err(ReadBodyError::Parse)?;
            }
        }
        self.finish().map_err(ReadBodyError::Parse)
    }
}

#[allow(dead_code)]
fn assert_read_body_send<B: http_body::Body + Send + 'static>(body: B)
where
    B::Data: Send,
{
    fn send<T: Send>(_: T) {}
    send(OwnedBodyParser::default().read_body(body));
}
