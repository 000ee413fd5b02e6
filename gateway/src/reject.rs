//! Why a request body is refused, as the JSON the client gets:
//! `{"error": "...", "path": "...", "offset": N}` with `413` for a crossed limit and `400` for
//! an invalid document.

use agui_wire::{Error, ErrorClass, ErrorKind};

/// A refused request body: the status to answer with and what to say. `Send + Sync`.
///
/// ```
/// use agui_gateway::reject::Rejection;
/// let arena = agui_wire::Bump::new();
/// let e = agui_wire::RunAgentInput::parse(br#"{"threadId":1}"#, &arena).unwrap_err();
/// let r = Rejection::from_parse(&e);
/// assert_eq!(r.status, 400);
/// let json: serde_json::Value = serde_json::from_slice(&r.to_json()).unwrap();
/// assert_eq!(json["path"], "threadId");
/// assert_eq!(json["offset"], 12);
/// assert!(json["error"].is_string());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rejection {
    /// `413` (a limit was crossed) or `400` (the document is invalid).
    pub status: u16,
    /// What is wrong, in words.
    pub error: String,
    /// Where, as a JSON path (`messages[2].content`), empty for the whole body.
    pub path: String,
    /// Byte offset in the body where the fault was found.
    pub offset: usize,
}

impl Rejection {
    /// The rejection for a parse error: `413` for a size, depth or count limit, `400` otherwise.
    ///
    /// ```
    /// use agui_gateway::reject::Rejection;
    /// let arena = agui_wire::Bump::new();
    /// let options = agui_wire::ParseOptions { max_input_bytes: 8, ..Default::default() };
    /// let e = agui_wire::RunAgentInput::parse_with(br#"{"threadId":"t"}"#, &arena, &options).unwrap_err();
    /// assert_eq!(Rejection::from_parse(&e).status, 413);
    /// ```
    pub fn from_parse(e: &Error) -> Rejection {
        let status = match e.kind().class() {
            ErrorClass::Limit => 413,
            _ => 400,
        };
        Rejection {
            status,
            error: e.kind().to_string(),
            path: e.path().to_string(),
            offset: e.offset(),
        }
    }

    /// The rejection for a body whose declared or received length is over `limit`.
    pub(crate) fn too_large(len: usize, limit: usize) -> Rejection {
        Rejection {
            status: 413,
            error: ErrorKind::InputTooLarge { len, limit }.to_string(),
            path: String::new(),
            offset: limit,
        }
    }

    /// A `400` for something found after parsing (a media part that does not decode).
    pub(crate) fn invalid(error: String, path: String) -> Rejection {
        Rejection {
            status: 400,
            error,
            path,
            offset: 0,
        }
    }

    /// The response body: `{"error":"...","path":"...","offset":N}` (sent as
    /// `application/json` with [`Rejection::status`]). See [`Rejection`] for an example.
    pub fn to_json(&self) -> Vec<u8> {
        serde_json::to_vec(&serde_json::json!({
            "error": self.error,
            "path": self.path,
            "offset": self.offset,
        }))
        .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_are_413_and_faults_400() {
        let arena = agui_wire::Bump::new();
        let e = agui_wire::RunAgentInput::parse(br#"{"threadId":1}"#, &arena).unwrap_err();
        let r = Rejection::from_parse(&e);
        assert_eq!(r.status, 400);
        let v: serde_json::Value = serde_json::from_slice(&r.to_json()).unwrap();
        assert_eq!(v["path"], "threadId");
        assert_eq!(v["offset"], 12);
        let options = agui_wire::ParseOptions {
            max_depth: 2,
            ..Default::default()
        };
        let deep = br#"{"threadId":"t","runId":"r","messages":[],"state":{"a":{"b":1}}}"#;
        let e = agui_wire::RunAgentInput::parse_with(deep, &arena, &options).unwrap_err();
        assert_eq!(Rejection::from_parse(&e).status, 413);
        assert_eq!(Rejection::too_large(10, 5).status, 413);
    }
}
