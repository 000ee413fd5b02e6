//! What a run or subagent ends with: [`TokenUsage`], [`Interrupt`], [`RunOutcome`],
//! [`SubagentOutcome`].

use crate::model::{Extra, IntoOwned, List, RawJson, Str, owned_struct};

crate::model::owned_by_method!(RunOutcome, SubagentOutcome);

/// Token usage of one model or provider in a run (`RUN_FINISHED.usage`, `RUN_ERROR.usage`).
///
/// ```
/// use agui_wire::{TokenUsage, Str};
/// let u = TokenUsage { model: Some(Str::new("gpt-x")), total_tokens: Some(1500), ..Default::default() };
/// assert_eq!(u.total_tokens, Some(1500));
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TokenUsage<'a> {
    /// `provider`
    pub provider: Option<Str<'a>>,
    /// `model`
    pub model: Option<Str<'a>>,
    /// `inputTokens`
    pub input_tokens: Option<u64>,
    /// `outputTokens`
    pub output_tokens: Option<u64>,
    /// `totalTokens`
    pub total_tokens: Option<u64>,
    /// `reasoningTokens`
    pub reasoning_tokens: Option<u64>,
    /// `cachedInputTokens`
    pub cached_input_tokens: Option<u64>,
    /// `cacheWriteInputTokens`
    pub cache_write_input_tokens: Option<u64>,
    /// Unknown fields and the wire field order.
    pub extra: Extra<'a>,
}
owned_struct!(TokenUsage {
    provider,
    model,
    input_tokens,
    output_tokens,
    total_tokens,
    reasoning_tokens,
    cached_input_tokens,
    cache_write_input_tokens,
    extra
});

impl TokenUsage<'_> {
    pub(crate) const FIELDS: &'static [&'static str] = &[
        "provider",
        "model",
        "inputTokens",
        "outputTokens",
        "totalTokens",
        "reasoningTokens",
        "cachedInputTokens",
        "cacheWriteInputTokens",
    ];
}

/// A pause for human input, delivered in `RUN_FINISHED.outcome` (`type: "interrupt"`).
///
/// ```
/// use agui_wire::{Interrupt, Str};
/// let i = Interrupt { id: Str::new("int-1"), reason: Str::new("approval"), ..Default::default() };
/// assert!(i.response_schema.is_none());
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Interrupt<'a> {
    /// `id`: what the next run's `resume[].interruptId` refers to.
    pub id: Str<'a>,
    /// `reason`
    pub reason: Str<'a>,
    /// `message`
    pub message: Option<Str<'a>>,
    /// `toolCallId`
    pub tool_call_id: Option<Str<'a>>,
    /// `responseSchema`: a JSON Schema (an object).
    pub response_schema: Option<RawJson<'a>>,
    /// `expiresAt`
    pub expires_at: Option<Str<'a>>,
    /// `metadata`: an object.
    pub metadata: Option<RawJson<'a>>,
    /// `subagentRunId`
    pub subagent_run_id: Option<Str<'a>>,
    /// Unknown fields and the wire field order.
    pub extra: Extra<'a>,
}
owned_struct!(Interrupt {
    id,
    reason,
    message,
    tool_call_id,
    response_schema,
    expires_at,
    metadata,
    subagent_run_id,
    extra
});

impl Interrupt<'_> {
    pub(crate) const FIELDS: &'static [&'static str] = &[
        "subagentRunId",
        "id",
        "reason",
        "message",
        "toolCallId",
        "responseSchema",
        "expiresAt",
        "metadata",
    ];
}

/// `RUN_FINISHED.outcome`, discriminated by `type`.
///
/// ```
/// use agui_wire::{RunOutcome, Extra};
/// let o = RunOutcome::Cancelled { extra: Extra::default() };
/// assert_eq!(o.type_name(), "cancelled");
/// ```
#[derive(Debug, Clone, PartialEq)]
pub enum RunOutcome<'a> {
    /// `{"type":"success"}`
    Success {
        /// `pendingToolCallIds`: tool calls left for the client to answer.
        pending_tool_call_ids: Option<List<'a, Str<'a>>>,
        /// Unknown fields and the wire field order.
        extra: Extra<'a>,
    },
    /// `{"type":"interrupt"}`: the run paused for input.
    Interrupt {
        /// `interrupts`: at least one.
        interrupts: List<'a, Interrupt<'a>>,
        /// Unknown fields and the wire field order.
        extra: Extra<'a>,
    },
    /// `{"type":"cancelled"}`
    Cancelled {
        /// Unknown fields and the wire field order.
        extra: Extra<'a>,
    },
}

impl<'a> RunOutcome<'a> {
    /// The wire value of `type`.
    ///
    /// ```
    /// # use agui_wire::{RunOutcome, Extra};
    /// assert_eq!(RunOutcome::Success { pending_tool_call_ids: None, extra: Extra::default() }.type_name(), "success");
    /// ```
    pub fn type_name(&self) -> &'static str {
        match self {
            RunOutcome::Success { .. } => "success",
            RunOutcome::Interrupt { .. } => "interrupt",
            RunOutcome::Cancelled { .. } => "cancelled",
        }
    }

    pub(crate) fn fields(&self) -> &'static [&'static str] {
        match self {
            RunOutcome::Success { .. } => &["type", "pendingToolCallIds"],
            RunOutcome::Interrupt { .. } => &["type", "interrupts"],
            RunOutcome::Cancelled { .. } => &["type"],
        }
    }

    /// Copies everything borrowed from the input.
    ///
    /// ```
    /// # use agui_wire::{RunOutcome, Extra};
    /// let o: RunOutcome<'static> = RunOutcome::Cancelled { extra: Extra::default() }.into_owned();
    /// ```
    pub fn into_owned(self) -> RunOutcome<'static> {
        match self {
            RunOutcome::Success {
                pending_tool_call_ids,
                extra,
            } => RunOutcome::Success {
                pending_tool_call_ids: pending_tool_call_ids.into_owned_value(),
                extra: extra.into_owned(),
            },
            RunOutcome::Interrupt { interrupts, extra } => RunOutcome::Interrupt {
                interrupts: interrupts.into_owned_value(),
                extra: extra.into_owned(),
            },
            RunOutcome::Cancelled { extra } => RunOutcome::Cancelled {
                extra: extra.into_owned(),
            },
        }
    }
}

/// `SUBAGENT_FINISHED.outcome`, discriminated by `type`.
///
/// ```
/// use agui_wire::{SubagentOutcome, Extra};
/// assert_eq!(SubagentOutcome::Success { extra: Extra::default() }.type_name(), "success");
/// ```
#[derive(Debug, Clone, PartialEq)]
pub enum SubagentOutcome<'a> {
    /// `{"type":"success"}`
    Success {
        /// Unknown fields and the wire field order.
        extra: Extra<'a>,
    },
    /// `{"type":"suspended"}`: the subagent waits on interrupts.
    Suspended {
        /// `interruptIds`
        interrupt_ids: Option<List<'a, Str<'a>>>,
        /// Unknown fields and the wire field order.
        extra: Extra<'a>,
    },
}

impl<'a> SubagentOutcome<'a> {
    /// The wire value of `type`.
    ///
    /// ```
    /// # use agui_wire::{SubagentOutcome, Extra};
    /// assert_eq!(SubagentOutcome::Suspended { interrupt_ids: None, extra: Extra::default() }.type_name(), "suspended");
    /// ```
    pub fn type_name(&self) -> &'static str {
        match self {
            SubagentOutcome::Success { .. } => "success",
            SubagentOutcome::Suspended { .. } => "suspended",
        }
    }

    pub(crate) fn fields(&self) -> &'static [&'static str] {
        match self {
            SubagentOutcome::Success { .. } => &["type"],
            SubagentOutcome::Suspended { .. } => &["type", "interruptIds"],
        }
    }

    /// Copies everything borrowed from the input.
    ///
    /// ```
    /// # use agui_wire::{SubagentOutcome, Extra};
    /// let o: SubagentOutcome<'static> = SubagentOutcome::Success { extra: Extra::default() }.into_owned();
    /// ```
    pub fn into_owned(self) -> SubagentOutcome<'static> {
        match self {
            SubagentOutcome::Success { extra } => SubagentOutcome::Success {
                extra: extra.into_owned(),
            },
            SubagentOutcome::Suspended {
                interrupt_ids,
                extra,
            } => SubagentOutcome::Suspended {
                interrupt_ids: interrupt_ids.into_owned_value(),
                extra: extra.into_owned(),
            },
        }
    }
}
