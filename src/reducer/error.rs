//! The reducer's errors (event-order violations) and warnings (events it had to ignore).

use std::fmt;

/// What a stream opens and closes, for messages.
///
/// ```
/// use agui_wire::reducer::Entity;
/// assert_eq!(Entity::ToolCall.to_string(), "tool call");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Entity {
    /// A text message (`TEXT_MESSAGE_*`).
    TextMessage,
    /// A tool call (`TOOL_CALL_*`).
    ToolCall,
    /// A reasoning message (`REASONING_MESSAGE_*`).
    ReasoningMessage,
    /// A reasoning span (`REASONING_START` / `REASONING_END`).
    ReasoningSpan,
    /// A step (`STEP_*`).
    Step,
    /// A subagent (`SUBAGENT_*`).
    Subagent,
    /// A message of any kind (for ownership checks).
    Message,
    /// An activity message (`ACTIVITY_*`).
    Activity,
}

impl Entity {
    /// The name used in messages.
    ///
    /// ```
    /// # use agui_wire::reducer::Entity;
    /// assert_eq!(Entity::ReasoningSpan.name(), "reasoning span");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Entity::TextMessage => "text message",
            Entity::ToolCall => "tool call",
            Entity::ReasoningMessage => "reasoning message",
            Entity::ReasoningSpan => "reasoning span",
            Entity::Step => "step",
            Entity::Subagent => "subagent",
            Entity::Message => "message",
            Entity::Activity => "activity",
        }
    }

    fn plural(self) -> &'static str {
        match self {
            Entity::TextMessage => "text messages",
            Entity::ToolCall => "tool calls",
            Entity::ReasoningMessage => "reasoning messages",
            Entity::ReasoningSpan => "reasoning spans",
            Entity::Step => "steps",
            Entity::Subagent => "subagents",
            Entity::Message => "messages",
            Entity::Activity => "activities",
        }
    }
}

impl fmt::Display for Entity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The owner of an entity in a message: a subagent, or the parent agent.
struct Owner<'o>(&'o Option<String>);

impl fmt::Display for Owner<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(s) => write!(f, "subagent {s:?}"),
            None => f.write_str("the parent agent"),
        }
    }
}

/// How an event stream breaks the order the protocol requires (the checks of the TypeScript
/// client's `verifyEvents`, and the errors of its chunk expansion).
///
/// ```
/// use agui_wire::reducer::{ReduceErrorKind, Entity};
/// let k = ReduceErrorKind::NotActive { event: "TEXT_MESSAGE_CONTENT", entity: Entity::TextMessage, id: "m1".into() };
/// assert_eq!(k.to_string(), "TEXT_MESSAGE_CONTENT for text message \"m1\", which is not in progress");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ReduceErrorKind {
    /// The first event is neither `RUN_STARTED` nor `RUN_ERROR`.
    NotStarted {
        /// The event's type.
        event: &'static str,
    },
    /// `RUN_STARTED` while a run is active.
    RunActive,
    /// An event after `RUN_FINISHED` (other than `RUN_STARTED` or `RUN_ERROR`).
    RunFinished {
        /// The event's type.
        event: &'static str,
    },
    /// An event after `RUN_ERROR` (other than `RUN_STARTED`).
    RunErrored {
        /// The event's type.
        event: &'static str,
    },
    /// A start for something already in progress.
    AlreadyActive {
        /// What was started twice.
        entity: Entity,
        /// Its id (a step's name).
        id: String,
        /// For steps: the subagent the step belongs to.
        subagent: Option<String>,
    },
    /// A continuation or end for something not in progress.
    NotActive {
        /// The event's type.
        event: &'static str,
        /// What it continues.
        entity: Entity,
        /// Its id (a step's name).
        id: String,
    },
    /// `STEP_FINISHED` for a step that is open under another owner.
    StepOwnedElsewhere {
        /// The step's name.
        step: String,
        /// The subagent the event names (`None`: the parent agent).
        by: Option<String>,
        /// The owner of the open step.
        owner: Option<String>,
    },
    /// An event's `subagentRunId` disagrees with the owner of what it continues.
    SubagentMismatch {
        /// The event's type.
        event: &'static str,
        /// The event's `subagentRunId`.
        subagent: String,
        /// What it continues.
        entity: Entity,
        /// Its id.
        id: String,
        /// Its owner.
        owner: Option<String>,
    },
    /// `TOOL_CALL_START` tagged with another subagent than its parent message's owner.
    ToolCallParentMismatch {
        /// The event's `subagentRunId`.
        subagent: String,
        /// `parentMessageId`
        parent: String,
        /// The parent message's owner.
        owner: Option<String>,
    },
    /// `TOOL_CALL_START` reopening a tool call of one owner under a message of another.
    ToolCallOwnerConflict {
        /// The tool call id.
        id: String,
        /// The tool call's owner.
        owner: Option<String>,
        /// `parentMessageId`
        parent: String,
        /// The parent message's owner.
        parent_owner: Option<String>,
    },
    /// `SUBAGENT_STARTED` for a subagent that already finished in this run.
    SubagentReused {
        /// The subagent id.
        id: String,
    },
    /// `SUBAGENT_STARTED` naming a parent subagent not started in this run.
    ParentSubagentNotStarted {
        /// `parentSubagentRunId`
        id: String,
    },
    /// `RUN_FINISHED` while something is still in progress.
    StillActive {
        /// What is still in progress.
        entity: Entity,
        /// Their ids, in the order they started.
        ids: Vec<String>,
    },
    /// The first chunk of a stream lacks the field that names it.
    ChunkNeedsField {
        /// The chunk's type.
        event: &'static str,
        /// `messageId`, `toolCallId` or `toolCallName`.
        field: &'static str,
    },
    /// A chunk repeats a field of its stream's opener with another value.
    ChunkDisagrees {
        /// The stream's kind.
        entity: Entity,
        /// The stream's id.
        id: String,
        /// The field.
        field: &'static str,
        /// The chunk's value.
        found: String,
        /// The opener's value.
        established: Option<String>,
    },
    /// A chunk's `subagentRunId` disagrees with its open stream's owner.
    ChunkLaneMismatch {
        /// The stream's kind.
        entity: Entity,
        /// The stream's id.
        id: String,
        /// The chunk's `subagentRunId`.
        subagent: String,
        /// The stream's owner.
        owner: Option<String>,
    },
    /// A chunk with neither id nor `subagentRunId` while several subagents have a stream open.
    ChunkAmbiguous {
        /// The chunk's type.
        event: &'static str,
        /// The id field it lacks.
        field: &'static str,
        /// How many streams are open.
        open: usize,
        /// Their kind.
        entity: Entity,
    },
    /// A value nests deeper than [`ReduceOptions::max_depth`](super::ReduceOptions::max_depth).
    TooDeep {
        /// The limit.
        limit: usize,
    },
    /// The state (or an activity message's content) would grow past
    /// [`ReduceOptions::max_state_bytes`](super::ReduceOptions::max_state_bytes).
    TooLarge {
        /// The limit, in bytes ([`Json::approx_size`](super::Json::approx_size)).
        limit: usize,
    },
    /// `MESSAGES_SNAPSHOT`s would have kept more messages beyond the ones they carry than
    /// [`ReduceOptions::max_kept_per_event`](super::ReduceOptions::max_kept_per_event) allows.
    KeptTooMuch {
        /// The allowance, in messages per event applied.
        per_event: usize,
    },
    /// JSON Patches would have moved or copied more values than
    /// [`ReduceOptions::max_moved_per_event`](super::ReduceOptions::max_moved_per_event) allows.
    MovedTooMuch {
        /// The allowance, in values per event applied.
        per_event: usize,
    },
    /// The event's bytes are not a valid event ([`Reducer::apply_json`](super::Reducer::apply_json)).
    Invalid {
        /// The parser's error, with its byte offset and JSON path.
        error: crate::Error,
    },
}

impl fmt::Display for ReduceErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use ReduceErrorKind as K;
        match self {
            K::NotStarted { event } => {
                write!(f, "the first event must be RUN_STARTED, found {event}")
            }
            K::RunActive => f.write_str(
                "RUN_STARTED while a run is still active; the run must end with RUN_FINISHED or RUN_ERROR first",
            ),
            K::RunFinished { event } => write!(
                f,
                "{event} after RUN_FINISHED; a new run must start with RUN_STARTED"
            ),
            K::RunErrored { event } => write!(
                f,
                "{event} after RUN_ERROR; only a new RUN_STARTED may follow"
            ),
            K::AlreadyActive {
                entity: Entity::Step,
                id,
                subagent,
            } => {
                write!(f, "step {id:?} is already active")?;
                match subagent {
                    Some(s) => write!(f, " in subagent {s:?}"),
                    None => Ok(()),
                }
            }
            K::AlreadyActive { entity, id, .. } => {
                write!(f, "{entity} {id:?} is already in progress")
            }
            K::NotActive { event, entity, id } => {
                write!(f, "{event} for {entity} {id:?}, which is not in progress")
            }
            K::StepOwnedElsewhere { step, by, owner } => write!(
                f,
                "STEP_FINISHED for step {step:?} attributed to {}, but the step is open under {}",
                Owner(by),
                Owner(owner)
            ),
            K::SubagentMismatch {
                event,
                subagent,
                entity,
                id,
                owner,
            } => write!(
                f,
                "{event}: subagentRunId {subagent:?} does not match the owner of {entity} {id:?}, {}",
                Owner(owner)
            ),
            K::ToolCallParentMismatch {
                subagent,
                parent,
                owner,
            } => write!(
                f,
                "TOOL_CALL_START: subagentRunId {subagent:?} does not match the owner of its parent message {parent:?}, {}",
                Owner(owner)
            ),
            K::ToolCallOwnerConflict {
                id,
                owner,
                parent,
                parent_owner,
            } => write!(
                f,
                "TOOL_CALL_START: tool call {id:?} belongs to {} but its parent message {parent:?} to {}",
                Owner(owner),
                Owner(parent_owner)
            ),
            K::SubagentReused { id } => write!(
                f,
                "SUBAGENT_STARTED: subagent {id:?} already finished in this run (subagent ids are per invocation)"
            ),
            K::ParentSubagentNotStarted { id } => write!(
                f,
                "SUBAGENT_STARTED: parentSubagentRunId {id:?} was not started in this run"
            ),
            K::StillActive { entity, ids } => write!(
                f,
                "RUN_FINISHED while {} are still in progress: {}",
                entity.plural(),
                ids.join(", ")
            ),
            K::ChunkNeedsField { event, field } => {
                write!(f, "the first {event} of a stream needs a `{field}`")
            }
            K::ChunkDisagrees {
                entity,
                id,
                field,
                found,
                established,
            } => {
                write!(
                    f,
                    "cannot continue {entity} {id:?}: the chunk's `{field}` {found:?} does not match the stream's "
                )?;
                match established {
                    Some(e) => write!(f, "{e:?}"),
                    None => f.write_str("(absent)"),
                }
            }
            K::ChunkLaneMismatch {
                entity,
                id,
                subagent,
                owner,
            } => write!(
                f,
                "cannot continue {entity} {id:?}: the chunk's subagentRunId {subagent:?} does not match the stream's owner, {}",
                Owner(owner)
            ),
            K::ChunkAmbiguous {
                event,
                field,
                open,
                entity,
            } => write!(
                f,
                "{event} carries neither `{field}` nor `subagentRunId`, but {open} subagents have a {entity} open"
            ),
            K::TooDeep { limit } => {
                write!(f, "a value nests deeper than the limit of {limit} levels")
            }
            K::TooLarge { limit } => write!(
                f,
                "the state would grow past the limit of {limit} bytes (ReduceOptions::max_state_bytes)"
            ),
            K::KeptTooMuch { per_event } => write!(
                f,
                "MESSAGES_SNAPSHOT would keep more messages it does not carry than the stream allows \
                 ({per_event} per event applied, ReduceOptions::max_kept_per_event)"
            ),
            K::MovedTooMuch { per_event } => write!(
                f,
                "the patch would move or copy more values than the stream allows \
                 ({per_event} per event applied, ReduceOptions::max_moved_per_event)"
            ),
            K::Invalid { error } => write!(f, "not a valid event: {error}"),
        }
    }
}

/// An error of [`Reducer::apply`](super::Reducer::apply): which event (counting from 0, all
/// events fed to the reducer) and what is wrong.
///
/// ```
/// use agui_wire::{Event, Bump, reducer::Reducer};
/// let arena = Bump::new();
/// let mut r = Reducer::new();
/// let ev = Event::parse(br#"{"type":"TEXT_MESSAGE_START","messageId":"m1"}"#, &arena)?;
/// let err = r.apply(&ev).unwrap_err();
/// assert_eq!(err.index(), 0);
/// assert_eq!(err.to_string(), "event 0: the first event must be RUN_STARTED, found TEXT_MESSAGE_START");
/// # Ok::<(), agui_wire::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReduceError {
    pub(crate) index: usize,
    pub(crate) kind: ReduceErrorKind,
}

impl ReduceError {
    /// The index of the offending event among all events given to the reducer.
    ///
    /// ```
    /// # use agui_wire::reducer::{ReduceError, ReduceErrorKind};
    /// assert_eq!(ReduceError::new(3, ReduceErrorKind::RunActive).index(), 3);
    /// ```
    pub fn index(&self) -> usize {
        self.index
    }

    /// What is wrong.
    ///
    /// ```
    /// # use agui_wire::reducer::{ReduceError, ReduceErrorKind};
    /// assert_eq!(ReduceError::new(0, ReduceErrorKind::RunActive).kind(), &ReduceErrorKind::RunActive);
    /// ```
    pub fn kind(&self) -> &ReduceErrorKind {
        &self.kind
    }

    /// Builds an error.
    ///
    /// ```
    /// # use agui_wire::reducer::{ReduceError, ReduceErrorKind};
    /// let e = ReduceError::new(5, ReduceErrorKind::TooDeep { limit: 8 });
    /// assert_eq!(e.to_string(), "event 5: a value nests deeper than the limit of 8 levels");
    /// ```
    pub fn new(index: usize, kind: ReduceErrorKind) -> ReduceError {
        ReduceError { index, kind }
    }
}

impl fmt::Display for ReduceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "event {}: {}", self.index, self.kind)
    }
}

impl std::error::Error for ReduceError {}

/// An event the reducer ignored, or applied only in part, where the TypeScript client logs a
/// warning and goes on (a JSON Patch that does not apply, text for an activity message, ...).
///
/// ```
/// use agui_wire::{Event, Bump, reducer::Reducer};
/// let arena = Bump::new();
/// let mut r = Reducer::new();
/// for frame in [&br#"{"type":"RUN_STARTED","threadId":"t","runId":"r"}"#[..],
///               br#"{"type":"STATE_DELTA","delta":[{"op":"remove","path":"/missing"}]}"#] {
///     r.apply(&Event::parse(frame, &arena)?).unwrap();
/// }
/// let w = &r.warnings()[0];
/// assert_eq!(w.index, 1);
/// assert_eq!(w.to_string(), "event 1: STATE_DELTA not applied: operation 0 (remove /missing): the path does not exist");
/// # Ok::<(), agui_wire::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReduceWarning {
    /// The index of the event.
    pub index: usize,
    /// What happened.
    pub message: String,
}

impl fmt::Display for ReduceWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "event {}: {}", self.index, self.message)
    }
}
