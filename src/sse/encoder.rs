//! The encoder: frames, events, comments and `retry` lines written as SSE.

use memchr::memchr2;

use super::{SseError, SseErrorKind};

/// Checks that `value` can be an `event` or `id` value.
fn check_field(value: &str, field: &'static str, nul: bool) -> Result<(), SseError> {
    let bad = value
        .bytes()
        .position(|b| b == b'\n' || b == b'\r' || (nul && b == 0));
    match bad {
        Some(at) => Err(SseError::new(
            SseErrorKind::InvalidField { field },
            at as u64,
        )),
        None => Ok(()),
    }
}

/// Writes `text` as lines, each after `prefix`, splitting at every CR, LF or CRLF.
fn write_lines(out: &mut Vec<u8>, prefix: &[u8], text: &[u8]) {
    let mut rest = text;
    loop {
        out.extend_from_slice(prefix);
        match memchr2(b'\n', b'\r', rest) {
            Some(end) => {
                out.extend_from_slice(rest.get(..end).unwrap_or_default());
                out.push(b'\n');
                let crlf = rest.get(end..end + 2) == Some(b"\r\n");
                rest = rest.get(end + 1 + usize::from(crlf)..).unwrap_or_default();
            }
            None => {
                out.extend_from_slice(rest);
                out.push(b'\n');
                return;
            }
        }
    }
}

/// Appends one event with only data to `out`: `data: <line>\n` for every line of `data`, then a
/// blank line. For compact JSON this is the official encoders' `data: <json>\n\n`.
///
/// Data with line breaks is split into several `data:` lines, so it decodes back to the same
/// bytes, except that SSE cannot carry a CR: a CRLF or lone CR in `data` decodes as LF.
///
/// ```
/// use agui_wire::sse::encode_frame;
/// let mut out = Vec::new();
/// encode_frame(&mut out, b"{\"type\":\"RUN_STARTED\"}");
/// encode_frame(&mut out, b"two\nlines");
/// assert_eq!(out, b"data: {\"type\":\"RUN_STARTED\"}\n\ndata: two\ndata: lines\n\n");
/// ```
pub fn encode_frame(out: &mut Vec<u8>, data: &[u8]) {
    out.reserve(data.len() + 8);
    write_lines(out, b"data: ", data);
    out.push(b'\n');
}

/// Appends one event to `out`: an `event:` line and an `id:` line when given, then the data as
/// [`encode_frame`] writes it. Nothing is written on error.
///
/// # Errors
///
/// [`SseErrorKind::InvalidField`] if `event` holds a CR or LF, or `id` a CR, LF or NUL (a
/// decoder would ignore such an id).
///
/// ```
/// use agui_wire::sse::encode_event;
/// let mut out = Vec::new();
/// encode_event(&mut out, Some("agui"), Some("42"), b"{}")?;
/// assert_eq!(out, b"event: agui\nid: 42\ndata: {}\n\n");
/// # Ok::<(), agui_wire::sse::SseError>(())
/// ```
pub fn encode_event(
    out: &mut Vec<u8>,
    event: Option<&str>,
    id: Option<&str>,
    data: &[u8],
) -> Result<(), SseError> {
    if let Some(event) = event {
        check_field(event, "event", false)?;
    }
    if let Some(id) = id {
        check_field(id, "id", true)?;
    }
    if let Some(event) = event {
        out.extend_from_slice(b"event: ");
        out.extend_from_slice(event.as_bytes());
        out.push(b'\n');
    }
    if let Some(id) = id {
        out.extend_from_slice(b"id: ");
        out.extend_from_slice(id.as_bytes());
        out.push(b'\n');
    }
    encode_frame(out, data);
    Ok(())
}

/// Appends a comment block to `out`: `: <line>\n` for every line of `text`, then a blank line
/// (which dispatches nothing). `encode_comment(out, b"keep-alive")` is the usual keep-alive.
///
/// ```
/// use agui_wire::sse::encode_comment;
/// let mut out = Vec::new();
/// encode_comment(&mut out, b"keep-alive");
/// assert_eq!(out, b": keep-alive\n\n");
/// ```
pub fn encode_comment(out: &mut Vec<u8>, text: &[u8]) {
    write_lines(out, b": ", text);
    out.push(b'\n');
}

/// Appends a `retry: <milliseconds>` line and a blank line to `out`.
///
/// ```
/// use agui_wire::sse::encode_retry;
/// let mut out = Vec::new();
/// encode_retry(&mut out, 3000);
/// assert_eq!(out, b"retry: 3000\n\n");
/// ```
pub fn encode_retry(out: &mut Vec<u8>, milliseconds: u64) {
    out.extend_from_slice(b"retry: ");
    crate::writer::write_uint(milliseconds, false, out);
    out.extend_from_slice(b"\n\n");
}
