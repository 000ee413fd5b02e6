//! Edits for proxies: change a parsed [`RunAgentInput`] a little and forward it.
//!
//! Each edit touches only what it names. Everything else keeps borrowing the input, so the
//! [writer](crate::writer) copies it out byte for byte: the other messages, the unknown fields,
//! the key order. Lists are turned from arena slices into `Vec`s on the first edit (a copy of
//! the cheap borrowed views, not of the text).
//!
//! ```
//! use agui_wire::{RunAgentInput, RawJson, Bump};
//! let arena = Bump::new();
//! let body = br#"{"threadId":"t","runId":"r","messages":[{"id":"r1","role":"reasoning","content":"hmm","encryptedValue":"gAAA"},{"id":"u1","role":"user","content":"hi","x-client":7}],"state":{"old":true}}"#;
//! let mut input = RunAgentInput::parse(body, &arena)?;
//! input.remove_reasoning_messages();
//! input.set_state(RawJson::from_text(r#"{"new":true}"#)?);
//! assert_eq!(agui_wire::to_vec(&input),
//!     br#"{"threadId":"t","runId":"r","messages":[{"id":"u1","role":"user","content":"hi","x-client":7}],"state":{"new":true}}"#);
//! # Ok::<(), agui_wire::Error>(())
//! ```

use std::fmt;

use crate::model::*;

/// Why an edit could not be made (nothing was changed).
///
/// ```
/// use agui_wire::{RunAgentInput, EditError};
/// let mut input = RunAgentInput::default();
/// let err = input.remove_message(3).unwrap_err();
/// assert_eq!(err, EditError::MessageOutOfRange { index: 3, len: 0 });
/// assert_eq!(err.to_string(), "no message 3 (the document has 0)");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EditError {
    /// There is no message at `index`.
    MessageOutOfRange {
        /// The index asked for.
        index: usize,
        /// How many messages there are.
        len: usize,
    },
    /// The message has no content parts (it is not a user or tool message, or its content is
    /// a string).
    NoParts {
        /// The message's index.
        message: usize,
    },
    /// The message has no part at `index`.
    PartOutOfRange {
        /// The message's index.
        message: usize,
        /// The part index asked for.
        index: usize,
        /// How many parts the message has.
        len: usize,
    },
}

impl fmt::Display for EditError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EditError::MessageOutOfRange { index, len } => {
                write!(f, "no message {index} (the document has {len})")
            }
            EditError::NoParts { message } => write!(
                f,
                "message {message} has no content parts (not a user or tool message with an array content)"
            ),
            EditError::PartOutOfRange {
                message,
                index,
                len,
            } => write!(f, "message {message} has no part {index} (it has {len})"),
        }
    }
}

impl std::error::Error for EditError {}

/// Where a content part is: the index of its message in `messages` and its index in that
/// message's `content` array.
///
/// ```
/// use agui_wire::PartPath;
/// let p = PartPath { message: 2, part: 0 };
/// assert_eq!(p.to_string(), "messages[2].content[0]");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PartPath {
    /// Index in `messages`.
    pub message: usize,
    /// Index in the message's `content`.
    pub part: usize,
}

impl fmt::Display for PartPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "messages[{}].content[{}]", self.message, self.part)
    }
}

/// The content parts of a message, for editing.
fn parts_mut<'m, 'a>(m: &'m mut Message<'a>) -> Option<&'m mut List<'a, InputContent<'a>>> {
    match m {
        Message::User(UserMessage {
            content: Content::Parts(p),
            ..
        })
        | Message::Tool(ToolMessage {
            content: Content::Parts(p),
            ..
        }) => Some(p),
        _ => None,
    }
}

/// The `encryptedValue` slots of a message (its own and its tool calls').
fn has_encrypted(m: &Message<'_>) -> bool {
    match m {
        Message::Developer(m) => m.encrypted_value.is_some(),
        Message::System(m) => m.encrypted_value.is_some(),
        Message::User(m) => m.encrypted_value.is_some(),
        Message::Tool(m) => m.encrypted_value.is_some(),
        Message::Reasoning(m) => m.encrypted_value.is_some(),
        Message::Activity(_) => false,
        Message::Assistant(m) => {
            m.encrypted_value.is_some()
                || m.tool_calls
                    .as_ref()
                    .is_some_and(|c| c.iter().any(|c| c.encrypted_value.is_some()))
        }
    }
}

fn strip_encrypted(m: &mut Message<'_>) -> usize {
    let take = |slot: &mut Option<Str<'_>>| slot.take().is_some() as usize;
    match m {
        Message::Developer(m) => take(&mut m.encrypted_value),
        Message::System(m) => take(&mut m.encrypted_value),
        Message::User(m) => take(&mut m.encrypted_value),
        Message::Tool(m) => take(&mut m.encrypted_value),
        Message::Reasoning(m) => take(&mut m.encrypted_value),
        Message::Activity(_) => 0,
        Message::Assistant(m) => {
            let mut n = take(&mut m.encrypted_value);
            if let Some(calls) = &mut m.tool_calls
                && calls.iter().any(|c| c.encrypted_value.is_some())
            {
                for c in calls.to_mut() {
                    n += take(&mut c.encrypted_value);
                }
            }
            n
        }
    }
}

/// Whether a media part carries its bytes inline: a `data` source, or a `url` source holding a
/// `data:` URL.
///
/// ```
/// use agui_wire::{MediaInputContent, InputContentSource, UrlSource, Str};
/// let m = MediaInputContent { source: InputContentSource::Url(UrlSource {
///     value: Str::new("data:image/png;base64,iVBORw0KGgo="), ..Default::default() }), ..Default::default() };
/// assert!(agui_wire::edit::is_inline(&m));
/// ```
pub fn is_inline(media: &MediaInputContent<'_>) -> bool {
    match &media.source {
        InputContentSource::Data(_) => true,
        InputContentSource::Url(u) => u
            .value
            .raw()
            .get(..5)
            .is_some_and(|p| p.eq_ignore_ascii_case("data:")),
        InputContentSource::File(_) => false,
    }
}

impl<'a> RunAgentInput<'a> {
    /// Replaces `state` (any JSON, `null` included); returns the old value.
    ///
    /// ```
    /// use agui_wire::{RunAgentInput, RawJson, Bump};
    /// let arena = Bump::new();
    /// let mut input = RunAgentInput::parse(br#"{"threadId":"t","runId":"r","state":{"a":1},"messages":[]}"#, &arena)?;
    /// let old = input.set_state(RawJson::from_text("[1,2]")?);
    /// assert_eq!(old.unwrap().text(), r#"{"a":1}"#);
    /// assert_eq!(agui_wire::to_vec(&input), br#"{"threadId":"t","runId":"r","state":[1,2],"messages":[]}"#);
    /// # Ok::<(), agui_wire::Error>(())
    /// ```
    pub fn set_state(&mut self, state: RawJson<'a>) -> Option<RawJson<'a>> {
        self.state.replace(state)
    }

    /// Replaces `forwardedProps`; returns the old value. `null` removes the field (the
    /// protocol allows it absent, not `null`).
    ///
    /// ```
    /// use agui_wire::{RunAgentInput, RawJson, Bump};
    /// let arena = Bump::new();
    /// let mut input = RunAgentInput::parse(br#"{"threadId":"t","runId":"r","messages":[]}"#, &arena)?;
    /// input.set_forwarded_props(RawJson::from_text(r#"{"tenant":"acme"}"#)?);
    /// assert_eq!(agui_wire::to_vec(&input),
    ///     br#"{"threadId":"t","runId":"r","messages":[],"forwardedProps":{"tenant":"acme"}}"#);
    /// input.set_forwarded_props(RawJson::null());
    /// assert!(input.forwarded_props.is_none());
    /// # Ok::<(), agui_wire::Error>(())
    /// ```
    pub fn set_forwarded_props(&mut self, props: RawJson<'a>) -> Option<RawJson<'a>> {
        if props.is_null() {
            self.forwarded_props.take()
        } else {
            self.forwarded_props.replace(props)
        }
    }

    /// Appends a context entry (creating `context` if absent).
    ///
    /// ```
    /// use agui_wire::{RunAgentInput, Context, Str, Bump};
    /// let arena = Bump::new();
    /// let mut input = RunAgentInput::parse(br#"{"threadId":"t","runId":"r","messages":[]}"#, &arena)?;
    /// input.push_context(Context { description: Str::new("tier"), value: Str::new("gold"), ..Default::default() });
    /// assert_eq!(agui_wire::to_vec(&input),
    ///     br#"{"threadId":"t","runId":"r","messages":[],"context":[{"description":"tier","value":"gold"}]}"#);
    /// # Ok::<(), agui_wire::Error>(())
    /// ```
    pub fn push_context(&mut self, entry: Context<'a>) {
        self.context.get_or_insert_default().to_mut().push(entry);
    }

    /// Removes the context entries for which `remove` says `true`; returns how many.
    ///
    /// ```
    /// use agui_wire::{RunAgentInput, Bump};
    /// let arena = Bump::new();
    /// let mut input = RunAgentInput::parse(br#"{"threadId":"t","runId":"r","messages":[],
    ///   "context":[{"description":"secret","value":"x"},{"description":"tier","value":"gold"}]}"#, &arena)?;
    /// assert_eq!(input.remove_context(|c| c.description == "secret"), 1);
    /// assert_eq!(input.context.as_ref().unwrap().len(), 1);
    /// # Ok::<(), agui_wire::Error>(())
    /// ```
    pub fn remove_context(&mut self, mut remove: impl FnMut(&Context<'a>) -> bool) -> usize {
        match &mut self.context {
            Some(list) => retain_list(list, |c| !remove(c)),
            None => 0,
        }
    }

    /// Appends a tool (creating `tools` if absent).
    ///
    /// ```
    /// use agui_wire::{RunAgentInput, Tool, Str, RawJson, Bump};
    /// let arena = Bump::new();
    /// let mut input = RunAgentInput::parse(br#"{"threadId":"t","runId":"r","messages":[],"tools":[]}"#, &arena)?;
    /// input.push_tool(Tool { name: Str::new("search"), description: Some(Str::new("Search the web")),
    ///     parameters: Some(RawJson::from_text(r#"{"type":"object"}"#)?), ..Default::default() });
    /// assert_eq!(agui_wire::to_vec(&input), br#"{"threadId":"t","runId":"r","messages":[],"tools":[{"name":"search","description":"Search the web","parameters":{"type":"object"}}]}"#);
    /// # Ok::<(), agui_wire::Error>(())
    /// ```
    pub fn push_tool(&mut self, tool: Tool<'a>) {
        self.tools.get_or_insert_default().to_mut().push(tool);
    }

    /// Removes the tools for which `remove` says `true`; returns how many.
    ///
    /// ```
    /// use agui_wire::{RunAgentInput, Bump};
    /// let arena = Bump::new();
    /// let mut input = RunAgentInput::parse(br#"{"threadId":"t","runId":"r","messages":[],
    ///   "tools":[{"name":"rm_rf","description":"no"},{"name":"search","description":"yes"}]}"#, &arena)?;
    /// assert_eq!(input.remove_tools(|t| t.name == "rm_rf"), 1);
    /// assert_eq!(input.tools.as_ref().unwrap()[0].name, "search");
    /// # Ok::<(), agui_wire::Error>(())
    /// ```
    pub fn remove_tools(&mut self, mut remove: impl FnMut(&Tool<'a>) -> bool) -> usize {
        match &mut self.tools {
            Some(list) => retain_list(list, |t| !remove(t)),
            None => 0,
        }
    }

    /// Keeps only the messages for which `keep` says `true`; returns how many were dropped.
    ///
    /// ```
    /// use agui_wire::{RunAgentInput, Role, Bump};
    /// let arena = Bump::new();
    /// let mut input = RunAgentInput::parse(br#"{"threadId":"t","runId":"r","messages":[
    ///   {"id":"s","role":"system","content":"be brief"},{"id":"u","role":"user","content":"hi"}]}"#, &arena)?;
    /// assert_eq!(input.retain_messages(|m| m.role() != Role::System), 1);
    /// assert_eq!(input.messages[0].id(), &"u");
    /// # Ok::<(), agui_wire::Error>(())
    /// ```
    pub fn retain_messages(&mut self, keep: impl FnMut(&Message<'a>) -> bool) -> usize {
        retain_list(&mut self.messages, keep)
    }

    /// Removes message `index` and returns it.
    ///
    /// ```
    /// use agui_wire::{RunAgentInput, Bump};
    /// let arena = Bump::new();
    /// let mut input = RunAgentInput::parse(br#"{"threadId":"t","runId":"r","messages":[
    ///   {"id":"a","role":"user","content":"1"},{"id":"b","role":"user","content":"2"}]}"#, &arena)?;
    /// assert_eq!(input.remove_message(0)?.id(), &"a");
    /// assert_eq!(input.messages.len(), 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn remove_message(&mut self, index: usize) -> Result<Message<'a>, EditError> {
        let len = self.messages.len();
        if index >= len {
            return Err(EditError::MessageOutOfRange { index, len });
        }
        Ok(self.messages.to_mut().remove(index))
    }

    /// Replaces message `index`; returns the old one.
    ///
    /// ```
    /// use agui_wire::{RunAgentInput, Message, UserMessage, Content, Str, Bump};
    /// let arena = Bump::new();
    /// let mut input = RunAgentInput::parse(br#"{"threadId":"t","runId":"r","messages":[{"id":"u","role":"user","content":"my card is 4111..."}]}"#, &arena)?;
    /// let redacted = Message::User(UserMessage { id: Str::new("u"), content: Content::Text(Str::new("[redacted]")),
    ///     ..Default::default() });
    /// input.replace_message(0, redacted)?;
    /// assert_eq!(agui_wire::to_vec(&input),
    ///     br#"{"threadId":"t","runId":"r","messages":[{"id":"u","role":"user","content":"[redacted]"}]}"#);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn replace_message(
        &mut self,
        index: usize,
        message: Message<'a>,
    ) -> Result<Message<'a>, EditError> {
        let len = self.messages.len();
        match self.messages.to_mut().get_mut(index) {
            Some(slot) => Ok(std::mem::replace(slot, message)),
            None => Err(EditError::MessageOutOfRange { index, len }),
        }
    }

    /// Appends a message.
    ///
    /// ```
    /// use agui_wire::{RunAgentInput, Message, SystemMessage, Str, Bump};
    /// let arena = Bump::new();
    /// let mut input = RunAgentInput::parse(br#"{"threadId":"t","runId":"r","messages":[]}"#, &arena)?;
    /// input.push_message(Message::System(SystemMessage { id: Str::new("policy"),
    ///     content: Str::new("Answer in English."), ..Default::default() }));
    /// assert_eq!(agui_wire::to_vec(&input),
    ///     br#"{"threadId":"t","runId":"r","messages":[{"id":"policy","role":"system","content":"Answer in English."}]}"#);
    /// # Ok::<(), agui_wire::Error>(())
    /// ```
    pub fn push_message(&mut self, message: Message<'a>) {
        self.messages.to_mut().push(message);
    }

    /// Replaces content part `part` of message `message` (a user or tool message with an
    /// array content); returns the old part.
    ///
    /// ```
    /// use agui_wire::{RunAgentInput, InputContent, TextInputContent, Str, Bump};
    /// let arena = Bump::new();
    /// let mut input = RunAgentInput::parse(br#"{"threadId":"t","runId":"r","messages":[{"id":"u","role":"user",
    ///   "content":[{"type":"text","text":"look"},{"type":"image","source":{"type":"data","value":"iVBORw0KGgo=","mimeType":"image/png"}}]}]}"#, &arena)?;
    /// let old = input.replace_part(0, 1, InputContent::Text(TextInputContent {
    ///     text: Str::new("[image removed]"), ..Default::default() }))?;
    /// assert!(old.as_media().is_some());
    /// assert_eq!(agui_wire::to_vec(&input), br#"{"threadId":"t","runId":"r","messages":[{"id":"u","role":"user","content":[{"type":"text","text":"look"},{"type":"text","text":"[image removed]"}]}]}"#);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn replace_part(
        &mut self,
        message: usize,
        part: usize,
        new: InputContent<'a>,
    ) -> Result<InputContent<'a>, EditError> {
        let len = self.messages.len();
        let m = self
            .messages
            .get(message)
            .ok_or(EditError::MessageOutOfRange {
                index: message,
                len,
            })?;
        let n_parts = match m {
            Message::User(UserMessage {
                content: Content::Parts(p),
                ..
            })
            | Message::Tool(ToolMessage {
                content: Content::Parts(p),
                ..
            }) => p.len(),
            _ => return Err(EditError::NoParts { message }),
        };
        if part >= n_parts {
            return Err(EditError::PartOutOfRange {
                message,
                index: part,
                len: n_parts,
            });
        }
        let slot = self
            .messages
            .to_mut()
            .get_mut(message)
            .and_then(parts_mut)
            .and_then(|p| p.to_mut().get_mut(part))
            .ok_or(EditError::NoParts { message })?;
        Ok(std::mem::replace(slot, new))
    }

    /// Removes every `encryptedValue` (on messages and on tool calls); returns how many.
    ///
    /// ```
    /// use agui_wire::{RunAgentInput, Bump};
    /// let arena = Bump::new();
    /// let mut input = RunAgentInput::parse(br#"{"threadId":"t","runId":"r","messages":[
    ///   {"id":"a","role":"assistant","encryptedValue":"e1","toolCalls":[{"id":"c","type":"function",
    ///     "function":{"name":"f","arguments":"{}"},"encryptedValue":"e2"}]}]}"#, &arena)?;
    /// assert_eq!(input.strip_encrypted_values(), 2);
    /// assert_eq!(agui_wire::to_vec(&input), br#"{"threadId":"t","runId":"r","messages":[{"id":"a","role":"assistant","toolCalls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{}"}}]}]}"#);
    /// # Ok::<(), agui_wire::Error>(())
    /// ```
    pub fn strip_encrypted_values(&mut self) -> usize {
        if !self.messages.iter().any(has_encrypted) {
            return 0;
        }
        self.messages
            .to_mut()
            .iter_mut()
            .filter(|m| has_encrypted(m))
            .map(strip_encrypted)
            .sum()
    }

    /// Removes every reasoning message; returns how many.
    ///
    /// ```
    /// use agui_wire::{RunAgentInput, Bump};
    /// let arena = Bump::new();
    /// let mut input = RunAgentInput::parse(br#"{"threadId":"t","runId":"r","messages":[
    ///   {"id":"r","role":"reasoning","content":"..."},{"id":"a","role":"assistant","content":"Done."}]}"#, &arena)?;
    /// assert_eq!(input.remove_reasoning_messages(), 1);
    /// assert_eq!(input.messages.len(), 1);
    /// # Ok::<(), agui_wire::Error>(())
    /// ```
    pub fn remove_reasoning_messages(&mut self) -> usize {
        self.retain_messages(|m| !matches!(m, Message::Reasoning(_)))
    }

    /// Calls `offload` for every media part (image, audio, video, document) of a user or tool
    /// message that carries its bytes inline (see [`is_inline`]); when it returns a URL, the
    /// part's source becomes a `url` source with that URL, keeping the part's `id`, `metadata`,
    /// unknown fields and the source's `mimeType` and unknown fields. Returns how many parts
    /// were changed. Legacy `binary` parts are left alone.
    ///
    /// The closure does the storing (decoding the base64, writing the bytes somewhere); this
    /// edit only rewrites the document.
    ///
    /// ```
    /// use agui_wire::{RunAgentInput, InputContentSource, Bump};
    /// let arena = Bump::new();
    /// let mut input = RunAgentInput::parse(br#"{"threadId":"t","runId":"r","messages":[{"id":"u","role":"user",
    ///   "content":[{"type":"image","source":{"type":"data","value":"iVBORw0KGgo=","mimeType":"image/png"}}]}]}"#, &arena)?;
    /// let n = input.offload_media(|path, media| {
    ///     assert_eq!(media.source.mime_type().unwrap(), "image/png");
    ///     Some(format!("https://cdn.example.com/m{}-p{}.png", path.message, path.part))
    /// });
    /// assert_eq!(n, 1);
    /// assert_eq!(agui_wire::to_vec(&input), br#"{"threadId":"t","runId":"r","messages":[{"id":"u","role":"user","content":[{"type":"image","source":{"type":"url","value":"https://cdn.example.com/m0-p0.png","mimeType":"image/png"}}]}]}"#);
    /// # Ok::<(), agui_wire::Error>(())
    /// ```
    pub fn offload_media(
        &mut self,
        mut offload: impl FnMut(PartPath, &MediaInputContent<'a>) -> Option<String>,
    ) -> usize {
        let mut urls = Vec::new();
        for (mi, m) in self.messages.iter().enumerate() {
            for (pi, p) in m.parts().iter().enumerate() {
                if let Some(media) = p.as_media().filter(|m| is_inline(m)) {
                    let path = PartPath {
                        message: mi,
                        part: pi,
                    };
                    if let Some(url) = offload(path, media) {
                        urls.push((path, url));
                    }
                }
            }
        }
        if urls.is_empty() {
            return 0;
        }
        let messages = self.messages.to_mut();
        let mut n = 0;
        for (path, url) in urls {
            let Some(parts) = messages.get_mut(path.message).and_then(parts_mut) else {
                continue;
            };
            let media = match parts.to_mut().get_mut(path.part) {
                Some(
                    InputContent::Image(m)
                    | InputContent::Audio(m)
                    | InputContent::Video(m)
                    | InputContent::Document(m),
                ) => m,
                _ => continue,
            };
            let (mime_type, extra) = match std::mem::take(&mut media.source) {
                InputContentSource::Data(d) => (Some(d.mime_type), d.extra),
                InputContentSource::Url(u) => (u.mime_type, u.extra),
                InputContentSource::File(f) => (f.mime_type, f.extra),
            };
            media.source = InputContentSource::Url(UrlSource {
                value: Str::new(&url).into_owned(),
                mime_type,
                extra,
            });
            n += 1;
        }
        n
    }
}

/// Keeps the items `keep` accepts, editing the list only when something goes; returns how
/// many were removed.
fn retain_list<T: Clone>(list: &mut List<'_, T>, mut keep: impl FnMut(&T) -> bool) -> usize {
    let flags: Vec<bool> = list.iter().map(&mut keep).collect();
    let removed = flags.iter().filter(|k| !**k).count();
    if removed > 0 {
        let mut it = flags.into_iter();
        list.to_mut().retain(|_| it.next().unwrap_or(true));
    }
    removed
}
