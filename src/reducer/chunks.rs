//! Chunk expansion, as the TypeScript client's `transformChunks` does it: `TEXT_MESSAGE_CHUNK`,
//! `TOOL_CALL_CHUNK` and `REASONING_MESSAGE_CHUNK` become start / content / end events.
//!
//! Each *lane* (the subagent a chunk is attributed to; `None` is the parent agent) assembles at
//! most one stream at a time. A chunk continues its lane's open stream when it names the same
//! id or no id; otherwise the open stream is closed (a synthesized `*_END`) and a new one opened
//! (a synthesized `*_START`). Explicit events close their own lane's stream; run-level events
//! and `MESSAGES_SNAPSHOT` close every lane.

use std::collections::{HashMap, HashSet};

use super::error::{Entity, ReduceErrorKind};
use super::verify::{Owner, text};
use crate::events::*;
use crate::model::{Role, Str};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Kind {
    Text,
    Tool,
    Reasoning,
}

#[derive(Debug, Clone)]
enum Pending {
    Text {
        message_id: String,
        role: Role,
        name: Option<String>,
        subagent: Owner,
    },
    Tool {
        tool_call_id: String,
        name: String,
        parent: Option<String>,
        subagent: Owner,
    },
    Reasoning {
        message_id: String,
        subagent: Owner,
    },
}

impl Kind {
    /// The chunk event of this kind.
    fn event(self) -> &'static str {
        match self {
            Kind::Text => "TEXT_MESSAGE_CHUNK",
            Kind::Tool => "TOOL_CALL_CHUNK",
            Kind::Reasoning => "REASONING_MESSAGE_CHUNK",
        }
    }
    /// What the chunks of this kind assemble.
    fn entity(self) -> Entity {
        match self {
            Kind::Text => Entity::TextMessage,
            Kind::Tool => Entity::ToolCall,
            Kind::Reasoning => Entity::ReasoningMessage,
        }
    }
    /// The chunk's id field.
    fn id_field(self) -> &'static str {
        match self {
            Kind::Tool => "toolCallId",
            Kind::Text | Kind::Reasoning => "messageId",
        }
    }
}

impl Pending {
    fn kind(&self) -> Kind {
        match self {
            Pending::Text { .. } => Kind::Text,
            Pending::Tool { .. } => Kind::Tool,
            Pending::Reasoning { .. } => Kind::Reasoning,
        }
    }
    fn id(&self) -> &str {
        match self {
            Pending::Text { message_id, .. } | Pending::Reasoning { message_id, .. } => message_id,
            Pending::Tool { tool_call_id, .. } => tool_call_id,
        }
    }
}

fn owned(t: &str) -> Str<'static> {
    Str::new(t).into_owned()
}

fn base_with(subagent: &Owner) -> EventBase<'static> {
    EventBase {
        subagent_run_id: subagent.as_deref().map(owned),
        ..EventBase::default()
    }
}

/// The base of a synthesized `*_START`: the chunk's `metadata` and `subagentRunId`.
fn start_base<'a>(chunk: &EventBase<'a>) -> EventBase<'a> {
    EventBase {
        metadata: chunk.metadata.clone(),
        subagent_run_id: chunk.subagent_run_id.clone(),
        ..EventBase::default()
    }
}

/// Pushes the content event (`make(base, delta)`) a chunk stands for, if any: one when it has a
/// `delta` or a `rawEvent`; an empty one for a chunk with only `metadata` that opened nothing.
/// The content is attributed to `owner`.
fn push_content<'a>(
    out: &mut Vec<Event<'a>>,
    chunk: &EventBase<'a>,
    delta: &Option<Str<'a>>,
    owner: &Owner,
    make: impl Fn(EventBase<'a>, Str<'a>) -> Event<'a>,
) {
    let base = |raw: bool| EventBase {
        metadata: chunk.metadata.clone(),
        raw_event: if raw { chunk.raw_event.clone() } else { None },
        subagent_run_id: owner.as_deref().map(owned),
        ..EventBase::default()
    };
    if delta.is_some() || chunk.raw_event.is_some() {
        out.push(make(base(true), delta.clone().unwrap_or_default()));
    } else if out.is_empty() && chunk.metadata.is_some() {
        out.push(make(base(false), Str::default()));
    }
}

/// The events one input event stands for, in order.
pub(crate) enum Expansion<'a> {
    /// These synthesized events (closing open streams), then the event itself.
    Pass(Vec<Event<'static>>),
    /// The chunk's expansion, which replaces it.
    Replace(Vec<Event<'a>>),
}

/// The open streams, one per lane at most. Every operation is a hash lookup: a stream of
/// chunks over many subagents costs the same per chunk as over one.
#[derive(Debug, Clone, Default)]
pub(crate) struct Lanes {
    /// Open streams by owner, with the sequence number of their opening.
    lanes: HashMap<Owner, (u64, Pending)>,
    next: u64,
    /// The lane holding the open stream of a kind and id (at most one: a chunk naming an id
    /// another lane holds is that lane's, or an error).
    by_id: HashMap<(Kind, String), Owner>,
    /// The lanes with an open stream of each kind.
    by_kind: [HashSet<Owner>; 3],
}

impl Kind {
    fn slot(self) -> usize {
        match self {
            Kind::Text => 0,
            Kind::Tool => 1,
            Kind::Reasoning => 2,
        }
    }
}

impl Lanes {
    fn get(&self, owner: &Owner) -> Option<&Pending> {
        self.lanes.get(owner).map(|(_, p)| p)
    }

    /// Closes `owner`'s open stream, if any, giving its synthesized end.
    fn close(&mut self, owner: &Owner) -> Option<Event<'static>> {
        let (_, pending) = self.lanes.remove(owner)?;
        let kind = pending.kind();
        self.by_id.remove(&(kind, pending.id().to_owned()));
        self.by_kind[kind.slot()].remove(owner);
        Some(match pending {
            Pending::Text {
                message_id,
                subagent,
                ..
            } => Event::TextMessageEnd(TextMessageEndEvent {
                base: base_with(&subagent),
                message_id: owned(&message_id),
            }),
            Pending::Tool {
                tool_call_id,
                subagent,
                ..
            } => Event::ToolCallEnd(ToolCallEndEvent {
                base: base_with(&subagent),
                tool_call_id: owned(&tool_call_id),
            }),
            Pending::Reasoning {
                message_id,
                subagent,
            } => Event::ReasoningMessageEnd(ReasoningMessageEndEvent {
                base: base_with(&subagent),
                message_id: owned(&message_id),
            }),
        })
    }

    /// Closes every lane, in the order they opened.
    fn close_all(&mut self) -> Vec<Event<'static>> {
        let mut owners: Vec<(u64, Owner)> = self
            .lanes
            .iter()
            .map(|(o, (n, _))| (*n, o.clone()))
            .collect();
        owners.sort_unstable_by_key(|(n, _)| *n);
        owners.iter().filter_map(|(_, o)| self.close(o)).collect()
    }

    /// Which lane a chunk belongs to.
    fn resolve(&self, kind: Kind, id: Option<&str>, tag: &Owner) -> Result<Owner, ReduceErrorKind> {
        if let Some(id) = id {
            if let Some(owner) = self.by_id.get(&(kind, id.to_owned())) {
                if let Some(t) = tag
                    && owner.as_deref() != Some(t.as_str())
                {
                    return Err(ReduceErrorKind::ChunkLaneMismatch {
                        entity: kind.entity(),
                        id: id.to_owned(),
                        subagent: t.clone(),
                        owner: owner.clone(),
                    });
                }
                return Ok(owner.clone());
            }
            return Ok(tag.clone());
        }
        if tag.is_some() {
            return Ok(tag.clone());
        }
        if self.get(&None).is_some_and(|p| p.kind() == kind) {
            return Ok(None);
        }
        let open = &self.by_kind[kind.slot()];
        match open.len() {
            0 => Ok(None),
            1 => Ok(open.iter().next().cloned().unwrap_or_default()),
            many => Err(ReduceErrorKind::ChunkAmbiguous {
                event: kind.event(),
                field: kind.id_field(),
                open: many,
                entity: kind.entity(),
            }),
        }
    }

    /// Opens a stream on `owner`'s lane (closed before by the caller).
    fn open(&mut self, owner: Owner, pending: Pending) {
        let kind = pending.kind();
        self.by_id
            .insert((kind, pending.id().to_owned()), owner.clone());
        self.by_kind[kind.slot()].insert(owner.clone());
        self.lanes.insert(owner, (self.next, pending));
        self.next += 1;
    }

    /// Expands one input event.
    pub(crate) fn expand<'a>(&mut self, ev: &Event<'a>) -> Result<Expansion<'a>, ReduceErrorKind> {
        let own_lane = |ev: &Event<'_>| -> Owner { ev.subagent_run_id().map(text) };
        Ok(match ev {
            Event::TextMessageChunk(c) => Expansion::Replace(self.text_chunk(c)?),
            Event::ToolCallChunk(c) => Expansion::Replace(self.tool_chunk(c)?),
            Event::ReasoningMessageChunk(c) => Expansion::Replace(self.reasoning_chunk(c)?),
            Event::RunStarted(_)
            | Event::RunFinished(_)
            | Event::RunError(_)
            | Event::MessagesSnapshot(_) => Expansion::Pass(self.close_all()),
            Event::Raw(_)
            | Event::ActivitySnapshot(_)
            | Event::ActivityDelta(_)
            | Event::ReasoningEncryptedValue(_)
            | Event::SubagentStarted(_)
            | Event::Unknown { .. } => Expansion::Pass(Vec::new()),
            // The others (text, tool call, state, custom, step, reasoning, and the subagent
            // terminals) close their own lane.
            other => Expansion::Pass(self.close(&own_lane(other)).into_iter().collect()),
        })
    }

    fn text_chunk<'a>(
        &mut self,
        c: &TextMessageChunkEvent<'a>,
    ) -> Result<Vec<Event<'a>>, ReduceErrorKind> {
        let tag: Owner = c.base.subagent_run_id.as_ref().map(text);
        let chunk_id = c.message_id.as_ref().map(text);
        let lane = self.resolve(Kind::Text, chunk_id.as_deref(), &tag)?;
        let mut out: Vec<Event<'a>> = Vec::new();
        let (message_id, opener_sub) = match self.get(&lane) {
            Some(Pending::Text {
                message_id,
                role,
                name,
                subagent,
            }) if chunk_id.is_none() || chunk_id.as_deref() == Some(message_id) => {
                if let Some(r) = c.role
                    && r != *role
                {
                    return Err(ReduceErrorKind::ChunkDisagrees {
                        entity: Entity::TextMessage,
                        id: message_id.clone(),
                        field: "role",
                        found: r.as_str().to_owned(),
                        established: Some(role.as_str().to_owned()),
                    });
                }
                if let Some(n) = c.name.as_ref().map(text)
                    && Some(&n) != name.as_ref()
                {
                    return Err(ReduceErrorKind::ChunkDisagrees {
                        entity: Entity::TextMessage,
                        id: message_id.clone(),
                        field: "name",
                        found: n,
                        established: name.clone(),
                    });
                }
                (message_id.clone(), subagent.clone())
            }
            _ => {
                out.extend(self.close(&lane));
                let Some(message_id) = chunk_id else {
                    return Err(ReduceErrorKind::ChunkNeedsField {
                        event: Kind::Text.event(),
                        field: "messageId",
                    });
                };
                let role = c.role.unwrap_or(Role::Assistant);
                self.open(
                    lane,
                    Pending::Text {
                        message_id: message_id.clone(),
                        role,
                        name: c.name.as_ref().map(text),
                        subagent: tag.clone(),
                    },
                );
                out.push(Event::TextMessageStart(TextMessageStartEvent {
                    base: start_base(&c.base),
                    message_id: c.message_id.clone().unwrap_or_default(),
                    role: Some(role),
                    name: c.name.clone(),
                }));
                (message_id, tag.clone())
            }
        };
        let owner = tag.or(opener_sub);
        push_content(&mut out, &c.base, &c.delta, &owner, |base, delta| {
            Event::TextMessageContent(TextMessageContentEvent {
                base,
                message_id: owned(&message_id),
                delta,
            })
        });
        Ok(out)
    }

    fn tool_chunk<'a>(
        &mut self,
        c: &ToolCallChunkEvent<'a>,
    ) -> Result<Vec<Event<'a>>, ReduceErrorKind> {
        let tag: Owner = c.base.subagent_run_id.as_ref().map(text);
        let chunk_id = c.tool_call_id.as_ref().map(text);
        let lane = self.resolve(Kind::Tool, chunk_id.as_deref(), &tag)?;
        let mut out: Vec<Event<'a>> = Vec::new();
        let (tool_call_id, opener_sub) = match self.get(&lane) {
            Some(Pending::Tool {
                tool_call_id,
                name,
                parent,
                subagent,
            }) if chunk_id.is_none() || chunk_id.as_deref() == Some(tool_call_id) => {
                if let Some(n) = c.tool_call_name.as_ref().map(text)
                    && n != *name
                {
                    return Err(ReduceErrorKind::ChunkDisagrees {
                        entity: Entity::ToolCall,
                        id: tool_call_id.clone(),
                        field: "toolCallName",
                        found: n,
                        established: Some(name.clone()),
                    });
                }
                if let Some(p) = c.parent_message_id.as_ref().map(text)
                    && Some(&p) != parent.as_ref()
                {
                    return Err(ReduceErrorKind::ChunkDisagrees {
                        entity: Entity::ToolCall,
                        id: tool_call_id.clone(),
                        field: "parentMessageId",
                        found: p,
                        established: parent.clone(),
                    });
                }
                (tool_call_id.clone(), subagent.clone())
            }
            _ => {
                out.extend(self.close(&lane));
                let (Some(id), Some(name)) = (&c.tool_call_id, &c.tool_call_name) else {
                    return Err(ReduceErrorKind::ChunkNeedsField {
                        event: Kind::Tool.event(),
                        field: if c.tool_call_id.is_none() {
                            "toolCallId"
                        } else {
                            "toolCallName"
                        },
                    });
                };
                self.open(
                    lane,
                    Pending::Tool {
                        tool_call_id: text(id),
                        name: text(name),
                        parent: c.parent_message_id.as_ref().map(text),
                        subagent: tag.clone(),
                    },
                );
                out.push(Event::ToolCallStart(ToolCallStartEvent {
                    base: start_base(&c.base),
                    tool_call_id: id.clone(),
                    tool_call_name: name.clone(),
                    parent_message_id: c.parent_message_id.clone(),
                }));
                (text(id), tag.clone())
            }
        };
        let owner = tag.or(opener_sub);
        push_content(&mut out, &c.base, &c.delta, &owner, |base, delta| {
            Event::ToolCallArgs(ToolCallArgsEvent {
                base,
                tool_call_id: owned(&tool_call_id),
                delta,
            })
        });
        Ok(out)
    }

    fn reasoning_chunk<'a>(
        &mut self,
        c: &ReasoningMessageChunkEvent<'a>,
    ) -> Result<Vec<Event<'a>>, ReduceErrorKind> {
        let tag: Owner = c.base.subagent_run_id.as_ref().map(text);
        let chunk_id = c.message_id.as_ref().map(text);
        let lane = self.resolve(Kind::Reasoning, chunk_id.as_deref(), &tag)?;
        let mut out: Vec<Event<'a>> = Vec::new();
        let (message_id, opener_sub) = match self.get(&lane) {
            Some(Pending::Reasoning {
                message_id,
                subagent,
            }) if chunk_id.is_none() || chunk_id.as_deref() == Some(message_id) => {
                (message_id.clone(), subagent.clone())
            }
            _ => {
                out.extend(self.close(&lane));
                let Some(message_id) = chunk_id else {
                    return Err(ReduceErrorKind::ChunkNeedsField {
                        event: Kind::Reasoning.event(),
                        field: "messageId",
                    });
                };
                self.open(
                    lane,
                    Pending::Reasoning {
                        message_id: message_id.clone(),
                        subagent: tag.clone(),
                    },
                );
                out.push(Event::ReasoningMessageStart(ReasoningMessageStartEvent {
                    base: start_base(&c.base),
                    message_id: c.message_id.clone().unwrap_or_default(),
                    role: Some(Role::Reasoning),
                }));
                (message_id, tag.clone())
            }
        };
        let owner = tag.or(opener_sub);
        push_content(&mut out, &c.base, &c.delta, &owner, |base, delta| {
            Event::ReasoningMessageContent(ReasoningMessageContentEvent {
                base,
                message_id: owned(&message_id),
                delta,
            })
        });
        Ok(out)
    }
}
