//! Messages: the seven roles of the conversation, and tool calls.

use super::{Content, Extra, List, RawJson, Str, owned_struct};

/// A conversation message, discriminated by its `role`.
///
/// ```
/// use agui_wire::{RunAgentInput, Message, Role, Bump};
/// let arena = Bump::new();
/// let body = br#"{"threadId":"t","runId":"r","messages":[
///   {"id":"sys-1","role":"system","content":"You are a helpful assistant."},
///   {"id":"asst-1","role":"assistant","toolCalls":[{"id":"call-1","type":"function",
///     "function":{"name":"get_weather","arguments":"{\"city\":\"Seattle\"}"}}]}]}"#;
/// let input = RunAgentInput::parse(body, &arena)?;
/// assert_eq!(input.messages[0].role(), Role::System);
/// let Message::Assistant(a) = &input.messages[1] else { panic!() };
/// let call = &a.tool_calls.as_ref().unwrap()[0];
/// assert_eq!(call.function.arguments.unescaped(), r#"{"city":"Seattle"}"#);
/// # Ok::<(), agui_wire::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub enum Message<'a> {
    /// `role: "developer"`
    Developer(DeveloperMessage<'a>),
    /// `role: "system"`
    System(SystemMessage<'a>),
    /// `role: "assistant"`
    Assistant(AssistantMessage<'a>),
    /// `role: "user"`
    User(UserMessage<'a>),
    /// `role: "tool"`
    Tool(ToolMessage<'a>),
    /// `role: "activity"`
    Activity(ActivityMessage<'a>),
    /// `role: "reasoning"`
    Reasoning(ReasoningMessage<'a>),
}

/// A message role.
///
/// ```
/// use agui_wire::Role;
/// assert_eq!(Role::from_name("tool"), Some(Role::Tool));
/// assert_eq!(Role::Reasoning.as_str(), "reasoning");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Role {
    /// `developer`
    Developer,
    /// `system`
    System,
    /// `assistant`
    Assistant,
    /// `user`
    User,
    /// `tool`
    Tool,
    /// `activity`
    Activity,
    /// `reasoning`
    Reasoning,
}

impl Role {
    /// All roles, in the protocol's order.
    ///
    /// ```
    /// # use agui_wire::Role;
    /// assert_eq!(Role::ALL.len(), 7);
    /// ```
    pub const ALL: [Role; 7] = [
        Role::Developer,
        Role::System,
        Role::Assistant,
        Role::User,
        Role::Tool,
        Role::Activity,
        Role::Reasoning,
    ];

    /// The wire value.
    ///
    /// ```
    /// # use agui_wire::Role;
    /// assert_eq!(Role::User.as_str(), "user");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Developer => "developer",
            Role::System => "system",
            Role::Assistant => "assistant",
            Role::User => "user",
            Role::Tool => "tool",
            Role::Activity => "activity",
            Role::Reasoning => "reasoning",
        }
    }

    /// Reads a wire value.
    ///
    /// ```
    /// # use agui_wire::Role;
    /// assert_eq!(Role::from_name("bot"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<Role> {
        Some(match name {
            "developer" => Role::Developer,
            "system" => Role::System,
            "assistant" => Role::Assistant,
            "user" => Role::User,
            "tool" => Role::Tool,
            "activity" => Role::Activity,
            "reasoning" => Role::Reasoning,
            _ => return None,
        })
    }

    /// The JSON keys of this role's message in the order the Python SDK writes them.
    pub(crate) const fn fields(self) -> &'static [&'static str] {
        match self {
            Role::Developer | Role::System | Role::User => &[
                "subagentRunId",
                "id",
                "role",
                "name",
                "encryptedValue",
                "metadata",
                "content",
            ],
            Role::Assistant => &[
                "subagentRunId",
                "id",
                "role",
                "name",
                "encryptedValue",
                "metadata",
                "content",
                "toolCalls",
            ],
            Role::Tool => &[
                "subagentRunId",
                "id",
                "role",
                "content",
                "toolCallId",
                "error",
                "encryptedValue",
                "metadata",
            ],
            Role::Activity => &[
                "subagentRunId",
                "id",
                "role",
                "activityType",
                "content",
                "metadata",
            ],
            Role::Reasoning => &[
                "subagentRunId",
                "id",
                "role",
                "content",
                "encryptedValue",
                "metadata",
            ],
        }
    }
}

impl std::fmt::Display for Role {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

macro_rules! text_message {
    ($(#[$doc:meta])* $name:ident, $content_doc:literal) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq, Default)]
        pub struct $name<'a> {
            /// `id`
            pub id: Str<'a>,
            #[doc = $content_doc]
            pub content: Str<'a>,
            /// `name`: optional sender name.
            pub name: Option<Str<'a>>,
            /// `encryptedValue`: optional opaque encrypted value.
            pub encrypted_value: Option<Str<'a>>,
            /// `metadata`: an object.
            pub metadata: Option<RawJson<'a>>,
            /// `subagentRunId` (new in 1.0).
            pub subagent_run_id: Option<Str<'a>>,
            /// Unknown fields and the wire field order.
            pub extra: Extra<'a>,
        }
        owned_struct!($name { id, content, name, encrypted_value, metadata, subagent_run_id, extra });
    };
}

text_message!(
    /// `role: "developer"`: instructions from the developer.
    ///
    /// ```
    /// use agui_wire::{DeveloperMessage, Str};
    /// let m = DeveloperMessage { id: Str::new("dev-1"), content: Str::new("Prefer concise answers."),
    ///     name: Some(Str::new("policy")), ..Default::default() };
    /// assert_eq!(m.name.unwrap(), "policy");
    /// ```
    DeveloperMessage,
    "`content`: the developer instruction."
);

text_message!(
    /// `role: "system"`: system instructions.
    ///
    /// ```
    /// use agui_wire::{SystemMessage, Str};
    /// let m = SystemMessage { id: Str::new("sys-1"), content: Str::new("You are a helpful assistant."),
    ///     ..Default::default() };
    /// assert_eq!(m.content, "You are a helpful assistant.");
    /// ```
    SystemMessage,
    "`content`: the system instruction."
);

/// `role: "assistant"`: the agent's reply, with optional text and tool calls.
///
/// ```
/// use agui_wire::{AssistantMessage, Str};
/// let m = AssistantMessage { id: Str::new("asst-1"), content: Some(Str::new("I can help.")), ..Default::default() };
/// assert!(m.tool_calls.is_none());
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct AssistantMessage<'a> {
    /// `id`
    pub id: Str<'a>,
    /// `content`: optional text.
    pub content: Option<Str<'a>>,
    /// `toolCalls`
    pub tool_calls: Option<List<'a, ToolCall<'a>>>,
    /// `name`
    pub name: Option<Str<'a>>,
    /// `encryptedValue`
    pub encrypted_value: Option<Str<'a>>,
    /// `metadata`: an object.
    pub metadata: Option<RawJson<'a>>,
    /// `subagentRunId`
    pub subagent_run_id: Option<Str<'a>>,
    /// Unknown fields and the wire field order.
    pub extra: Extra<'a>,
}
owned_struct!(AssistantMessage {
    id,
    content,
    tool_calls,
    name,
    encrypted_value,
    metadata,
    subagent_run_id,
    extra
});

/// `role: "user"`: text or ordered multimodal parts.
///
/// ```
/// use agui_wire::{UserMessage, Content, Str};
/// let m = UserMessage { id: Str::new("user-1"), content: Content::Text(Str::new("Hello")), ..Default::default() };
/// assert_eq!(m.content.as_text().unwrap(), "Hello");
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct UserMessage<'a> {
    /// `id`
    pub id: Str<'a>,
    /// `content`: `string | InputContent[]`.
    pub content: Content<'a>,
    /// `name`
    pub name: Option<Str<'a>>,
    /// `encryptedValue`
    pub encrypted_value: Option<Str<'a>>,
    /// `metadata`: an object.
    pub metadata: Option<RawJson<'a>>,
    /// `subagentRunId`
    pub subagent_run_id: Option<Str<'a>>,
    /// Unknown fields and the wire field order.
    pub extra: Extra<'a>,
}
owned_struct!(UserMessage {
    id,
    content,
    name,
    encrypted_value,
    metadata,
    subagent_run_id,
    extra
});

/// `role: "tool"`: the result of a tool call.
///
/// ```
/// use agui_wire::{ToolMessage, Content, Str};
/// let m = ToolMessage { id: Str::new("tool-msg-1"), tool_call_id: Str::new("call-1"),
///     content: Content::Text(Str::new(r#"{"temperature":72}"#)), ..Default::default() };
/// assert_eq!(m.tool_call_id, "call-1");
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ToolMessage<'a> {
    /// `id`
    pub id: Str<'a>,
    /// `content`: `string | InputContent[]` (an array is new in 1.0).
    pub content: Content<'a>,
    /// `toolCallId`: the call this message answers.
    pub tool_call_id: Str<'a>,
    /// `error`
    pub error: Option<Str<'a>>,
    /// `encryptedValue`
    pub encrypted_value: Option<Str<'a>>,
    /// `metadata`: an object.
    pub metadata: Option<RawJson<'a>>,
    /// `subagentRunId`
    pub subagent_run_id: Option<Str<'a>>,
    /// Unknown fields and the wire field order.
    pub extra: Extra<'a>,
}
owned_struct!(ToolMessage {
    id,
    content,
    tool_call_id,
    error,
    encrypted_value,
    metadata,
    subagent_run_id,
    extra
});

/// `role: "activity"`: structured activity for a renderer.
///
/// ```
/// use agui_wire::{ActivityMessage, RawJson, Str};
/// let m = ActivityMessage { id: Str::new("activity-1"), activity_type: Str::new("PLAN"),
///     content: RawJson::from_text(r#"{"status":"running"}"#).unwrap(), ..Default::default() };
/// assert_eq!(m.activity_type, "PLAN");
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ActivityMessage<'a> {
    /// `id`
    pub id: Str<'a>,
    /// `activityType`: chooses the renderer.
    pub activity_type: Str<'a>,
    /// `content`: a JSON object.
    pub content: RawJson<'a>,
    /// `metadata`: an object.
    pub metadata: Option<RawJson<'a>>,
    /// `subagentRunId`
    pub subagent_run_id: Option<Str<'a>>,
    /// Unknown fields and the wire field order.
    pub extra: Extra<'a>,
}
owned_struct!(ActivityMessage {
    id,
    activity_type,
    content,
    metadata,
    subagent_run_id,
    extra
});

/// `role: "reasoning"`: the agent's reasoning text.
///
/// ```
/// use agui_wire::{ReasoningMessage, Str};
/// let m = ReasoningMessage { id: Str::new("reasoning-1"), content: Str::new("Thinking..."), ..Default::default() };
/// assert!(m.encrypted_value.is_none());
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ReasoningMessage<'a> {
    /// `id`
    pub id: Str<'a>,
    /// `content`
    pub content: Str<'a>,
    /// `encryptedValue`
    pub encrypted_value: Option<Str<'a>>,
    /// `metadata`: an object.
    pub metadata: Option<RawJson<'a>>,
    /// `subagentRunId`
    pub subagent_run_id: Option<Str<'a>>,
    /// Unknown fields and the wire field order.
    pub extra: Extra<'a>,
}
owned_struct!(ReasoningMessage {
    id,
    content,
    encrypted_value,
    metadata,
    subagent_run_id,
    extra
});

impl<'a> Message<'a> {
    /// The message's role.
    ///
    /// ```
    /// # use agui_wire::{Message, Role, ReasoningMessage};
    /// assert_eq!(Message::Reasoning(ReasoningMessage::default()).role(), Role::Reasoning);
    /// ```
    pub fn role(&self) -> Role {
        match self {
            Message::Developer(_) => Role::Developer,
            Message::System(_) => Role::System,
            Message::Assistant(_) => Role::Assistant,
            Message::User(_) => Role::User,
            Message::Tool(_) => Role::Tool,
            Message::Activity(_) => Role::Activity,
            Message::Reasoning(_) => Role::Reasoning,
        }
    }

    /// The message's `id`.
    ///
    /// ```
    /// # use agui_wire::{Message, SystemMessage, Str};
    /// let m = Message::System(SystemMessage { id: Str::new("s"), ..Default::default() });
    /// assert_eq!(m.id(), &"s");
    /// ```
    pub fn id(&self) -> &Str<'a> {
        match self {
            Message::Developer(m) => &m.id,
            Message::System(m) => &m.id,
            Message::Assistant(m) => &m.id,
            Message::User(m) => &m.id,
            Message::Tool(m) => &m.id,
            Message::Activity(m) => &m.id,
            Message::Reasoning(m) => &m.id,
        }
    }

    /// The message's `metadata`, if any.
    ///
    /// ```
    /// # use agui_wire::{Message, SystemMessage};
    /// assert!(Message::System(SystemMessage::default()).metadata().is_none());
    /// ```
    pub fn metadata(&self) -> Option<&RawJson<'a>> {
        match self {
            Message::Developer(m) => m.metadata.as_ref(),
            Message::System(m) => m.metadata.as_ref(),
            Message::Assistant(m) => m.metadata.as_ref(),
            Message::User(m) => m.metadata.as_ref(),
            Message::Tool(m) => m.metadata.as_ref(),
            Message::Activity(m) => m.metadata.as_ref(),
            Message::Reasoning(m) => m.metadata.as_ref(),
        }
    }

    /// The message's unknown fields.
    ///
    /// ```
    /// # use agui_wire::{Message, SystemMessage};
    /// assert!(Message::System(SystemMessage::default()).extra().fields().is_empty());
    /// ```
    pub fn extra(&self) -> &Extra<'a> {
        match self {
            Message::Developer(m) => &m.extra,
            Message::System(m) => &m.extra,
            Message::Assistant(m) => &m.extra,
            Message::User(m) => &m.extra,
            Message::Tool(m) => &m.extra,
            Message::Activity(m) => &m.extra,
            Message::Reasoning(m) => &m.extra,
        }
    }

    /// The content parts of a user or tool message (empty for text content and other roles).
    ///
    /// ```
    /// # use agui_wire::{Message, UserMessage};
    /// assert!(Message::User(UserMessage::default()).parts().is_empty());
    /// ```
    pub fn parts(&self) -> &[super::InputContent<'a>] {
        match self {
            Message::User(m) => m.content.parts(),
            Message::Tool(m) => m.content.parts(),
            _ => &[],
        }
    }

    /// Copies everything borrowed from the input.
    ///
    /// ```
    /// # use agui_wire::{Message, SystemMessage};
    /// let m: Message<'static> = Message::System(SystemMessage::default()).into_owned();
    /// ```
    pub fn into_owned(self) -> Message<'static> {
        match self {
            Message::Developer(m) => Message::Developer(m.into_owned()),
            Message::System(m) => Message::System(m.into_owned()),
            Message::Assistant(m) => Message::Assistant(m.into_owned()),
            Message::User(m) => Message::User(m.into_owned()),
            Message::Tool(m) => Message::Tool(m.into_owned()),
            Message::Activity(m) => Message::Activity(m.into_owned()),
            Message::Reasoning(m) => Message::Reasoning(m.into_owned()),
        }
    }
}

/// A tool call made by an assistant message.
///
/// ```
/// use agui_wire::{ToolCall, FunctionCall, Str};
/// let call = ToolCall { id: Str::new("call-1"),
///     function: FunctionCall { name: Str::new("get_weather"), arguments: Str::new(r#"{"city":"Seattle"}"#), ..Default::default() },
///     ..Default::default() };
/// assert_eq!(call.call_type(), "function");
/// assert_eq!(call.function.arguments.raw(), r#"{\"city\":\"Seattle\"}"#);
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ToolCall<'a> {
    /// `id`
    pub id: Str<'a>,
    /// `type`: always `"function"`; `None` when the sender left it out (Python fills it in).
    pub r#type: Option<Str<'a>>,
    /// `function`: name and JSON-encoded arguments.
    pub function: FunctionCall<'a>,
    /// `encryptedValue`
    pub encrypted_value: Option<Str<'a>>,
    /// `metadata`: an object.
    pub metadata: Option<RawJson<'a>>,
    /// Unknown fields and the wire field order.
    pub extra: Extra<'a>,
}
owned_struct!(ToolCall {
    id,
    r#type,
    function,
    encrypted_value,
    metadata,
    extra
});

impl ToolCall<'_> {
    pub(crate) const FIELDS: &'static [&'static str] =
        &["id", "type", "function", "encryptedValue", "metadata"];

    /// The call type, `"function"` when absent.
    ///
    /// ```
    /// # use agui_wire::ToolCall;
    /// assert_eq!(ToolCall::default().call_type(), "function");
    /// ```
    pub fn call_type(&self) -> std::borrow::Cow<'_, str> {
        match &self.r#type {
            Some(t) => t.unescaped(),
            None => std::borrow::Cow::Borrowed("function"),
        }
    }
}

/// The function a tool call invokes.
///
/// ```
/// use agui_wire::{FunctionCall, Str};
/// let f = FunctionCall { name: Str::new("f"), arguments: Str::new("{}"), ..Default::default() };
/// assert_eq!(f.arguments, "{}");
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct FunctionCall<'a> {
    /// `name`
    pub name: Str<'a>,
    /// `arguments`: a JSON-encoded string (JSON inside JSON; unescape to read it).
    pub arguments: Str<'a>,
    /// Unknown fields and the wire field order.
    pub extra: Extra<'a>,
}
owned_struct!(FunctionCall {
    name,
    arguments,
    extra
});

impl FunctionCall<'_> {
    pub(crate) const FIELDS: &'static [&'static str] = &["name", "arguments"];
}
