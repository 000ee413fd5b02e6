//! `AgentCapabilities`: what an agent declares it supports (every field optional).

use super::{Extra, List, RawJson, Str, Tool, owned_struct};

/// An agent's declaration of what it supports, in eleven optional groups.
///
/// ```
/// use agui_wire::{AgentCapabilities, Bump};
/// let arena = Bump::new();
/// let doc = br#"{"identity":{"name":"Support Agent","version":"1.0.0"},
///   "transport":{"streaming":true,"resumable":true},
///   "tools":{"supported":true,"clientProvided":true},
///   "multimodal":{"input":{"image":true,"audio":true,"pdf":true}}}"#;
/// let caps = AgentCapabilities::parse(doc, &arena)?;
/// assert_eq!(caps.identity.as_ref().unwrap().name.as_ref().unwrap(), "Support Agent");
/// assert_eq!(caps.transport.as_ref().unwrap().streaming, Some(true));
/// let input = caps.multimodal.as_ref().unwrap().input.as_ref().unwrap();
/// assert_eq!((input.pdf, input.video), (Some(true), None));
/// # Ok::<(), agui_wire::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct AgentCapabilities<'a> {
    /// `identity`
    pub identity: Option<IdentityCapabilities<'a>>,
    /// `transport`
    pub transport: Option<TransportCapabilities<'a>>,
    /// `tools`
    pub tools: Option<ToolsCapabilities<'a>>,
    /// `output`
    pub output: Option<OutputCapabilities<'a>>,
    /// `state`
    pub state: Option<StateCapabilities<'a>>,
    /// `multiAgent`
    pub multi_agent: Option<MultiAgentCapabilities<'a>>,
    /// `reasoning`
    pub reasoning: Option<ReasoningCapabilities<'a>>,
    /// `multimodal`
    pub multimodal: Option<MultimodalCapabilities<'a>>,
    /// `execution`
    pub execution: Option<ExecutionCapabilities<'a>>,
    /// `humanInTheLoop`
    pub human_in_the_loop: Option<HumanInTheLoopCapabilities<'a>>,
    /// `custom`: integration-specific capabilities, an object.
    pub custom: Option<RawJson<'a>>,
    /// Unknown fields and the wire field order.
    pub extra: Extra<'a>,
}
owned_struct!(AgentCapabilities {
    identity,
    transport,
    tools,
    output,
    state,
    multi_agent,
    reasoning,
    multimodal,
    execution,
    human_in_the_loop,
    custom,
    extra
});

impl AgentCapabilities<'_> {
    pub(crate) const FIELDS: &'static [&'static str] = &[
        "identity",
        "transport",
        "tools",
        "output",
        "state",
        "multiAgent",
        "reasoning",
        "multimodal",
        "execution",
        "humanInTheLoop",
        "custom",
    ];
}

/// Declares a capability group made only of optional booleans.
macro_rules! flag_group {
    ($(#[$doc:meta])* $name:ident { $($field:ident => $json:literal),* $(,)? }) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq, Default)]
        pub struct $name<'a> {
            $(
                #[doc = concat!("`", $json, "`")]
                pub $field: Option<bool>,
            )*
            /// Unknown fields and the wire field order.
            pub extra: Extra<'a>,
        }
        owned_struct!($name { $($field,)* extra });

        impl<'a> $name<'a> {
            pub(crate) const FIELDS: &'static [&'static str] = &[$($json),*];

            /// The flag slots in [`Self::FIELDS`] order.
            pub(crate) fn flags_mut(&mut self) -> Vec<&mut Option<bool>> {
                vec![$(&mut self.$field),*]
            }
        }
    };
}

flag_group!(
    /// `transport`: streaming, websocket, binary, push and resumability support.
    ///
    /// ```
    /// use agui_wire::TransportCapabilities;
    /// let t = TransportCapabilities { streaming: Some(true), ..Default::default() };
    /// assert_eq!(t.websocket, None);
    /// ```
    TransportCapabilities {
        streaming => "streaming",
        websocket => "websocket",
        http_binary => "httpBinary",
        push_notifications => "pushNotifications",
        resumable => "resumable",
    }
);

flag_group!(
    /// `state`: snapshot, delta, memory and persistence support.
    ///
    /// ```
    /// use agui_wire::StateCapabilities;
    /// assert_eq!(StateCapabilities::default().deltas, None);
    /// ```
    StateCapabilities {
        snapshots => "snapshots",
        deltas => "deltas",
        memory => "memory",
        persistent_state => "persistentState",
    }
);

flag_group!(
    /// `reasoning`: reasoning, streaming and encrypted reasoning support.
    ///
    /// ```
    /// use agui_wire::ReasoningCapabilities;
    /// assert_eq!(ReasoningCapabilities::default().encrypted, None);
    /// ```
    ReasoningCapabilities {
        supported => "supported",
        streaming => "streaming",
        encrypted => "encrypted",
    }
);

flag_group!(
    /// `humanInTheLoop`: approvals, interventions, feedback, interrupts, approve-with-edits.
    ///
    /// ```
    /// use agui_wire::HumanInTheLoopCapabilities;
    /// assert_eq!(HumanInTheLoopCapabilities::default().interrupts, None);
    /// ```
    HumanInTheLoopCapabilities {
        supported => "supported",
        approvals => "approvals",
        interventions => "interventions",
        feedback => "feedback",
        interrupts => "interrupts",
        approve_with_edits => "approveWithEdits",
    }
);

flag_group!(
    /// `multimodal.input`: which input modalities the agent takes.
    ///
    /// ```
    /// use agui_wire::MultimodalInputCapabilities;
    /// assert_eq!(MultimodalInputCapabilities::default().pdf, None);
    /// ```
    MultimodalInputCapabilities {
        image => "image",
        audio => "audio",
        video => "video",
        pdf => "pdf",
        file => "file",
    }
);

flag_group!(
    /// `multimodal.output`: which output modalities the agent produces.
    ///
    /// ```
    /// use agui_wire::MultimodalOutputCapabilities;
    /// assert_eq!(MultimodalOutputCapabilities::default().image, None);
    /// ```
    MultimodalOutputCapabilities {
        image => "image",
        audio => "audio",
    }
);

/// `identity`: who the agent is.
///
/// ```
/// use agui_wire::{IdentityCapabilities, Str};
/// let i = IdentityCapabilities { name: Some(Str::new("Support Agent")), ..Default::default() };
/// assert!(i.version.is_none());
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct IdentityCapabilities<'a> {
    /// `name`
    pub name: Option<Str<'a>>,
    /// `type`
    pub r#type: Option<Str<'a>>,
    /// `description`
    pub description: Option<Str<'a>>,
    /// `version`
    pub version: Option<Str<'a>>,
    /// `provider`
    pub provider: Option<Str<'a>>,
    /// `documentationUrl`
    pub documentation_url: Option<Str<'a>>,
    /// `metadata`: an object.
    pub metadata: Option<RawJson<'a>>,
    /// Unknown fields and the wire field order.
    pub extra: Extra<'a>,
}
owned_struct!(IdentityCapabilities {
    name,
    r#type,
    description,
    version,
    provider,
    documentation_url,
    metadata,
    extra
});

impl IdentityCapabilities<'_> {
    pub(crate) const FIELDS: &'static [&'static str] = &[
        "name",
        "type",
        "description",
        "version",
        "provider",
        "documentationUrl",
        "metadata",
    ];
}

/// `tools`: tool support and tool-calling configuration.
///
/// ```
/// use agui_wire::ToolsCapabilities;
/// assert!(ToolsCapabilities::default().items.is_none());
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ToolsCapabilities<'a> {
    /// `supported`
    pub supported: Option<bool>,
    /// `items`: the agent's own tools.
    pub items: Option<List<'a, Tool<'a>>>,
    /// `parallelCalls`
    pub parallel_calls: Option<bool>,
    /// `clientProvided`
    pub client_provided: Option<bool>,
    /// Unknown fields and the wire field order.
    pub extra: Extra<'a>,
}
owned_struct!(ToolsCapabilities {
    supported,
    items,
    parallel_calls,
    client_provided,
    extra
});

impl ToolsCapabilities<'_> {
    pub(crate) const FIELDS: &'static [&'static str] =
        &["supported", "items", "parallelCalls", "clientProvided"];
}

/// `output`: structured output and supported MIME types.
///
/// ```
/// use agui_wire::OutputCapabilities;
/// assert!(OutputCapabilities::default().supported_mime_types.is_none());
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct OutputCapabilities<'a> {
    /// `structuredOutput`
    pub structured_output: Option<bool>,
    /// `supportedMimeTypes`
    pub supported_mime_types: Option<List<'a, Str<'a>>>,
    /// Unknown fields and the wire field order.
    pub extra: Extra<'a>,
}
owned_struct!(OutputCapabilities {
    structured_output,
    supported_mime_types,
    extra
});

impl OutputCapabilities<'_> {
    pub(crate) const FIELDS: &'static [&'static str] = &["structuredOutput", "supportedMimeTypes"];
}

/// `multiAgent`: delegation, handoffs and sub-agents.
///
/// ```
/// use agui_wire::MultiAgentCapabilities;
/// assert!(MultiAgentCapabilities::default().subagents.is_none());
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MultiAgentCapabilities<'a> {
    /// `supported`
    pub supported: Option<bool>,
    /// `delegation`
    pub delegation: Option<bool>,
    /// `handoffs`
    pub handoffs: Option<bool>,
    /// `subagents`
    pub subagents: Option<List<'a, SubagentInfo<'a>>>,
    /// Unknown fields and the wire field order.
    pub extra: Extra<'a>,
}
owned_struct!(MultiAgentCapabilities {
    supported,
    delegation,
    handoffs,
    subagents,
    extra
});

impl MultiAgentCapabilities<'_> {
    pub(crate) const FIELDS: &'static [&'static str] =
        &["supported", "delegation", "handoffs", "subagents"];
}

/// One entry of `multiAgent.subagents`.
///
/// ```
/// use agui_wire::{SubagentInfo, Str};
/// let s = SubagentInfo { name: Str::new("researcher"), ..Default::default() };
/// assert_eq!(s.name, "researcher");
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SubagentInfo<'a> {
    /// `name`
    pub name: Str<'a>,
    /// `description`
    pub description: Option<Str<'a>>,
    /// Unknown fields and the wire field order.
    pub extra: Extra<'a>,
}
owned_struct!(SubagentInfo {
    name,
    description,
    extra
});

impl SubagentInfo<'_> {
    pub(crate) const FIELDS: &'static [&'static str] = &["name", "description"];
}

/// `multimodal`: input and output modalities.
///
/// ```
/// use agui_wire::MultimodalCapabilities;
/// assert!(MultimodalCapabilities::default().input.is_none());
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MultimodalCapabilities<'a> {
    /// `input`
    pub input: Option<MultimodalInputCapabilities<'a>>,
    /// `output`
    pub output: Option<MultimodalOutputCapabilities<'a>>,
    /// Unknown fields and the wire field order.
    pub extra: Extra<'a>,
}
owned_struct!(MultimodalCapabilities {
    input,
    output,
    extra
});

impl MultimodalCapabilities<'_> {
    pub(crate) const FIELDS: &'static [&'static str] = &["input", "output"];
}

/// `execution`: code execution and iteration/time limits.
///
/// ```
/// use agui_wire::ExecutionCapabilities;
/// let e = ExecutionCapabilities { max_iterations: Some(10), ..Default::default() };
/// assert_eq!(e.max_iterations, Some(10));
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ExecutionCapabilities<'a> {
    /// `codeExecution`
    pub code_execution: Option<bool>,
    /// `sandboxed`
    pub sandboxed: Option<bool>,
    /// `maxIterations`: a non-negative integer, at most 2^53 - 1 (any integral spelling, `1.0` too).
    pub max_iterations: Option<u64>,
    /// `maxExecutionTime`: a non-negative integer, at most 2^53 - 1 (any integral spelling).
    pub max_execution_time: Option<u64>,
    /// Unknown fields and the wire field order.
    pub extra: Extra<'a>,
}
owned_struct!(ExecutionCapabilities {
    code_execution,
    sandboxed,
    max_iterations,
    max_execution_time,
    extra
});

impl ExecutionCapabilities<'_> {
    pub(crate) const FIELDS: &'static [&'static str] = &[
        "codeExecution",
        "sandboxed",
        "maxIterations",
        "maxExecutionTime",
    ];
}
