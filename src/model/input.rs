//! `RunAgentInput` (the request body) and the lists it carries besides messages.

use super::{Extra, List, Message, RawJson, Str, owned_struct};

/// The body of an AG-UI run request (`POST` to an agent endpoint).
///
/// ```
/// use agui_wire::{RunAgentInput, Message, Bump};
/// let arena = Bump::new();
/// let body = br#"{"threadId":"thread-1","runId":"run-1",
///   "messages":[{"id":"msg-1","role":"user","content":"Hello!"}],
///   "tools":[],"context":[],"state":{"draft":"hello"},"forwardedProps":{}}"#;
/// let input = RunAgentInput::parse(body, &arena)?;
/// assert_eq!(input.thread_id, "thread-1");
/// assert!(matches!(input.messages[0], Message::User(_)));
/// assert_eq!(input.state.as_ref().map(|s| s.text()), Some(r#"{"draft":"hello"}"#));
/// # Ok::<(), agui_wire::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RunAgentInput<'a> {
    /// `threadId`: the conversation thread.
    pub thread_id: Str<'a>,
    /// `runId`: this run.
    pub run_id: Str<'a>,
    /// `protocolVersion` (new in 1.0).
    pub protocol_version: Option<Str<'a>>,
    /// `parentRunId`: lineage pointer for branching or time travel.
    pub parent_run_id: Option<Str<'a>>,
    /// `state`: the front end's or agent's state, any JSON (a `null` here is kept as a value).
    pub state: Option<RawJson<'a>>,
    /// `messages`: the conversation.
    pub messages: List<'a, Message<'a>>,
    /// `tools`: tools the client offers the agent.
    pub tools: Option<List<'a, Tool<'a>>>,
    /// `context`: context entries for the agent.
    pub context: Option<List<'a, Context<'a>>>,
    /// `forwardedProps`: anything else the client forwards, any JSON.
    pub forwarded_props: Option<RawJson<'a>>,
    /// `resume`: answers to the interrupts of the previous run.
    pub resume: Option<List<'a, ResumeEntry<'a>>>,
    /// Unknown fields and the wire field order.
    pub extra: Extra<'a>,
}
owned_struct!(RunAgentInput {
    thread_id,
    run_id,
    protocol_version,
    parent_run_id,
    state,
    messages,
    tools,
    context,
    forwarded_props,
    resume,
    extra
});

impl RunAgentInput<'_> {
    /// JSON keys in the order the Python SDK writes them.
    pub(crate) const FIELDS: &'static [&'static str] = &[
        "threadId",
        "runId",
        "protocolVersion",
        "parentRunId",
        "state",
        "messages",
        "tools",
        "context",
        "forwardedProps",
        "resume",
    ];
}

/// A tool the client offers the agent.
///
/// ```
/// use agui_wire::{Tool, Str, RawJson};
/// let tool = Tool {
///     name: Str::new("get_weather"),
///     description: Some(Str::new("Get the weather for a city")),
///     parameters: Some(RawJson::from_text(r#"{"type":"object"}"#).unwrap()),
///     ..Default::default()
/// };
/// assert_eq!(tool.name, "get_weather");
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Tool<'a> {
    /// `name`
    pub name: Str<'a>,
    /// `description` (required by the 1.0 SDKs, optional in the .NET docs; read as optional).
    pub description: Option<Str<'a>>,
    /// `parameters`: a JSON Schema.
    pub parameters: Option<RawJson<'a>>,
    /// `metadata`: an object.
    pub metadata: Option<RawJson<'a>>,
    /// Unknown fields and the wire field order.
    pub extra: Extra<'a>,
}
owned_struct!(Tool {
    name,
    description,
    parameters,
    metadata,
    extra
});

impl Tool<'_> {
    pub(crate) const FIELDS: &'static [&'static str] =
        &["name", "description", "parameters", "metadata"];
}

/// A piece of context for the agent.
///
/// ```
/// use agui_wire::{Context, Str};
/// let c = Context { description: Str::new("Current customer tier"), value: Str::new("enterprise"), ..Default::default() };
/// assert_eq!(c.value, "enterprise");
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Context<'a> {
    /// `description`: what the context represents.
    pub description: Str<'a>,
    /// `value`
    pub value: Str<'a>,
    /// Unknown fields and the wire field order.
    pub extra: Extra<'a>,
}
owned_struct!(Context {
    description,
    value,
    extra
});

impl Context<'_> {
    pub(crate) const FIELDS: &'static [&'static str] = &["description", "value"];
}

/// One answer, in `RunAgentInput.resume`, to an interrupt of the previous run.
///
/// ```
/// use agui_wire::{ResumeEntry, ResumeStatus, Str};
/// let r = ResumeEntry { interrupt_id: Str::new("int-1"), status: ResumeStatus::Resolved, ..Default::default() };
/// assert_eq!(r.status.as_str(), "resolved");
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ResumeEntry<'a> {
    /// `interruptId`: the interrupt this entry answers.
    pub interrupt_id: Str<'a>,
    /// `status`: `resolved` or `cancelled`.
    pub status: ResumeStatus,
    /// `payload`: the response, any JSON.
    pub payload: Option<RawJson<'a>>,
    /// `metadata`: an object.
    pub metadata: Option<RawJson<'a>>,
    /// Unknown fields and the wire field order.
    pub extra: Extra<'a>,
}
owned_struct!(ResumeEntry {
    interrupt_id,
    status,
    payload,
    metadata,
    extra
});

impl ResumeEntry<'_> {
    pub(crate) const FIELDS: &'static [&'static str] =
        &["interruptId", "status", "payload", "metadata"];
}

/// `ResumeEntry.status`.
///
/// ```
/// use agui_wire::ResumeStatus;
/// assert_eq!(ResumeStatus::from_name("cancelled"), Some(ResumeStatus::Cancelled));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ResumeStatus {
    /// `"resolved"`: the user answered.
    #[default]
    Resolved,
    /// `"cancelled"`: the user abandoned the interrupt.
    Cancelled,
}

impl ResumeStatus {
    /// The wire value.
    ///
    /// ```
    /// # use agui_wire::ResumeStatus;
    /// assert_eq!(ResumeStatus::Cancelled.as_str(), "cancelled");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            ResumeStatus::Resolved => "resolved",
            ResumeStatus::Cancelled => "cancelled",
        }
    }

    /// Reads a wire value.
    ///
    /// ```
    /// # use agui_wire::ResumeStatus;
    /// assert_eq!(ResumeStatus::from_name("done"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<ResumeStatus> {
        match name {
            "resolved" => Some(ResumeStatus::Resolved),
            "cancelled" => Some(ResumeStatus::Cancelled),
            _ => None,
        }
    }
}
