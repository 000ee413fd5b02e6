//! The event-order rules of the TypeScript client's `verifyEvents` (`@ag-ui/client` 1.0.0),
//! checked on the stream after chunk expansion.

use std::collections::{HashMap, HashSet};

use indexmap::IndexMap;

use super::error::{Entity, ReduceErrorKind};
use crate::events::{EncryptedValueSubtype, Event, EventType};
use crate::model::{Message, Str};

/// Who owns an entity: a subagent id, or `None` for the parent agent.
pub(crate) type Owner = Option<String>;

pub(crate) fn text(s: &Str<'_>) -> String {
    s.unescaped().into_owned()
}

/// A set that remembers insertion order (as a JavaScript `Set` does) with O(1) insert,
/// lookup and remove: each member carries the sequence number of its insertion, and the order
/// is rebuilt (sorted) only when the members are listed, in an error message.
#[derive(Default, Debug, Clone)]
pub(crate) struct OrderedSet {
    members: HashMap<String, u64>,
    next: u64,
}

impl OrderedSet {
    pub(crate) fn contains(&self, s: &str) -> bool {
        super::stats::tick(1);
        self.members.contains_key(s)
    }
    pub(crate) fn insert(&mut self, s: String) {
        if let std::collections::hash_map::Entry::Vacant(v) = self.members.entry(s) {
            v.insert(self.next);
            self.next += 1;
        }
    }
    pub(crate) fn remove(&mut self, s: &str) {
        self.members.remove(s);
    }
    /// The members, in insertion order.
    pub(crate) fn ordered(&self) -> Vec<String> {
        let mut v: Vec<(&String, u64)> = self.members.iter().map(|(k, n)| (k, *n)).collect();
        v.sort_unstable_by_key(|(_, n)| *n);
        v.into_iter().map(|(k, _)| k.clone()).collect()
    }
}

#[derive(Default, Debug, Clone)]
pub(crate) struct Verifier {
    first_seen: bool,
    run_started: bool,
    run_finished: bool,
    run_error: bool,
    messages: OrderedSet,
    tool_calls: OrderedSet,
    reasoning_spans: OrderedSet,
    reasoning_messages: OrderedSet,
    owner_message: HashMap<String, Owner>,
    owner_tool_call: HashMap<String, Owner>,
    owner_activity: HashMap<String, Owner>,
    owner_reasoning: HashMap<String, Owner>,
    /// Open steps per owner, owners in first-use order.
    steps: IndexMap<Owner, OrderedSet>,
    subagents: OrderedSet,
    closed_subagents: HashSet<String>,
}

/// The check every continuation makes: an event tagged with a subagent must agree with the
/// recorded owner of what it continues (an untagged event always agrees).
fn tag_check(
    event: &'static str,
    tag: &Option<String>,
    owner: Option<&Owner>,
    entity: Entity,
    id: &str,
) -> Result<(), ReduceErrorKind> {
    match (tag, owner) {
        (Some(t), Some(o)) if o.as_deref() != Some(t.as_str()) => {
            Err(ReduceErrorKind::SubagentMismatch {
                event,
                subagent: t.clone(),
                entity,
                id: id.to_owned(),
                owner: o.clone(),
            })
        }
        _ => Ok(()),
    }
}

impl Verifier {
    fn reset_run(&mut self) {
        *self = Verifier {
            first_seen: true,
            run_started: true,
            ..Verifier::default()
        };
    }

    fn steps_for(&mut self, owner: &Owner) -> &mut OrderedSet {
        self.steps.entry(owner.clone()).or_default()
    }

    /// Records the owners of replayed messages (`MESSAGES_SNAPSHOT`, authoritative; the
    /// `RUN_STARTED` input echo, only where nothing is recorded yet).
    fn seed(&mut self, messages: &[Message<'_>], authoritative: bool) {
        for m in messages {
            let id = text(m.id());
            let owner = message_owner(m);
            let bucket = match m {
                Message::Reasoning(_) => &mut self.owner_reasoning,
                Message::Activity(_) => &mut self.owner_activity,
                _ => &mut self.owner_message,
            };
            if authoritative || !bucket.contains_key(&id) {
                bucket.insert(id, owner.clone());
            }
            if let Message::Assistant(a) = m {
                for call in a.tool_calls.iter().flat_map(|c| c.iter()) {
                    let cid = text(&call.id);
                    if authoritative || !self.owner_tool_call.contains_key(&cid) {
                        self.owner_tool_call.insert(cid, owner.clone());
                    }
                }
            }
        }
    }

    /// Checks one (expanded) event against the order rules and records what it opens or
    /// closes.
    pub(crate) fn check(&mut self, ev: &Event<'_>) -> Result<(), ReduceErrorKind> {
        let Some(t) = ev.event_type() else {
            return Ok(());
        };
        let name = t.as_str();
        use EventType as T;
        if self.run_error && t != T::RunStarted {
            return Err(ReduceErrorKind::RunErrored { event: name });
        }
        if self.run_finished && t != T::RunError && t != T::RunStarted {
            return Err(ReduceErrorKind::RunFinished { event: name });
        }
        if !self.first_seen {
            self.first_seen = true;
            if t != T::RunStarted && t != T::RunError {
                return Err(ReduceErrorKind::NotStarted { event: name });
            }
        } else if t == T::RunStarted {
            if self.run_started && !self.run_finished && !self.run_error {
                return Err(ReduceErrorKind::RunActive);
            }
            if self.run_finished || self.run_error {
                self.reset_run();
            }
        }
        let tag: Owner = ev.subagent_run_id().map(text);
        match ev {
            Event::TextMessageStart(e) => {
                let id = text(&e.message_id);
                if self.messages.contains(&id) {
                    return Err(ReduceErrorKind::AlreadyActive {
                        entity: Entity::TextMessage,
                        id,
                        subagent: None,
                    });
                }
                let existing = self.owner_message.get(&id);
                tag_check(name, &tag, existing, Entity::Message, &id)?;
                if existing.is_none() {
                    self.owner_message.insert(id.clone(), tag);
                }
                self.messages.insert(id);
            }
            Event::TextMessageContent(_) | Event::TextMessageEnd(_) => {
                let id = match ev {
                    Event::TextMessageContent(e) => text(&e.message_id),
                    Event::TextMessageEnd(e) => text(&e.message_id),
                    _ => String::new(),
                };
                if !self.messages.contains(&id) {
                    return Err(ReduceErrorKind::NotActive {
                        event: name,
                        entity: Entity::TextMessage,
                        id,
                    });
                }
                tag_check(
                    name,
                    &tag,
                    self.owner_message.get(&id),
                    Entity::Message,
                    &id,
                )?;
                if t == T::TextMessageEnd {
                    self.messages.remove(&id);
                }
            }
            Event::ToolCallStart(e) => {
                let id = text(&e.tool_call_id);
                if self.tool_calls.contains(&id) {
                    return Err(ReduceErrorKind::AlreadyActive {
                        entity: Entity::ToolCall,
                        id,
                        subagent: None,
                    });
                }
                let parent = e.parent_message_id.as_ref().map(text);
                let mut inherited: Option<Owner> = None;
                if let Some(p) = &parent
                    && let Some(po) = self.owner_message.get(p)
                {
                    if let Some(tg) = &tag
                        && po.as_deref() != Some(tg.as_str())
                    {
                        return Err(ReduceErrorKind::ToolCallParentMismatch {
                            subagent: tg.clone(),
                            parent: p.clone(),
                            owner: po.clone(),
                        });
                    }
                    inherited = Some(po.clone());
                }
                let existing = self.owner_tool_call.get(&id).cloned();
                if let Some(owner) = &existing {
                    tag_check(name, &tag, Some(owner), Entity::ToolCall, &id)?;
                    if let (None, Some(inh)) = (&tag, &inherited)
                        && inh != owner
                    {
                        return Err(ReduceErrorKind::ToolCallOwnerConflict {
                            id,
                            owner: owner.clone(),
                            parent: parent.unwrap_or_default(),
                            parent_owner: inh.clone(),
                        });
                    }
                }
                if existing.is_none() {
                    let owner = match (&tag, inherited) {
                        (Some(tg), _) => Some(tg.clone()),
                        (None, Some(inh)) => inh,
                        (None, None) => None,
                    };
                    self.owner_tool_call.insert(id.clone(), owner);
                }
                self.tool_calls.insert(id);
            }
            Event::ToolCallArgs(_) | Event::ToolCallEnd(_) => {
                let id = match ev {
                    Event::ToolCallArgs(e) => text(&e.tool_call_id),
                    Event::ToolCallEnd(e) => text(&e.tool_call_id),
                    _ => String::new(),
                };
                if !self.tool_calls.contains(&id) {
                    return Err(ReduceErrorKind::NotActive {
                        event: name,
                        entity: Entity::ToolCall,
                        id,
                    });
                }
                tag_check(
                    name,
                    &tag,
                    self.owner_tool_call.get(&id),
                    Entity::ToolCall,
                    &id,
                )?;
                if t == T::ToolCallEnd {
                    self.tool_calls.remove(&id);
                }
            }
            Event::StepStarted(e) => {
                let step = text(&e.step_name);
                let steps = self.steps_for(&tag);
                if steps.contains(&step) {
                    return Err(ReduceErrorKind::AlreadyActive {
                        entity: Entity::Step,
                        id: step,
                        subagent: tag,
                    });
                }
                steps.insert(step);
            }
            Event::StepFinished(e) => {
                let step = text(&e.step_name);
                if !self.steps_for(&tag).contains(&step) {
                    let other = self
                        .steps
                        .iter()
                        .find(|(o, names)| **o != tag && names.contains(&step))
                        .map(|(o, _)| o.clone());
                    return Err(match other {
                        Some(owner) => ReduceErrorKind::StepOwnedElsewhere {
                            step,
                            by: tag,
                            owner,
                        },
                        None => ReduceErrorKind::NotActive {
                            event: name,
                            entity: Entity::Step,
                            id: step,
                        },
                    });
                }
                self.steps_for(&tag).remove(&step);
            }
            Event::ActivitySnapshot(e) => {
                let id = text(&e.message_id);
                let is_new = !self.owner_activity.contains_key(&id);
                if is_new || e.replace != Some(false) {
                    self.owner_activity.insert(id, tag);
                }
            }
            Event::ToolCallResult(e) => {
                self.owner_message.insert(text(&e.message_id), tag);
            }
            Event::ReasoningStart(_) | Event::ReasoningMessageStart(_) => {
                let (id, span) = match ev {
                    Event::ReasoningStart(e) => (text(&e.message_id), true),
                    Event::ReasoningMessageStart(e) => (text(&e.message_id), false),
                    _ => (String::new(), false),
                };
                let open = if span {
                    &self.reasoning_spans
                } else {
                    &self.reasoning_messages
                };
                if open.contains(&id) {
                    return Err(ReduceErrorKind::AlreadyActive {
                        entity: if span {
                            Entity::ReasoningSpan
                        } else {
                            Entity::ReasoningMessage
                        },
                        id,
                        subagent: None,
                    });
                }
                let existing = self.owner_reasoning.get(&id);
                tag_check(name, &tag, existing, Entity::ReasoningMessage, &id)?;
                if existing.is_none() {
                    self.owner_reasoning.insert(id.clone(), tag);
                }
                if span {
                    self.reasoning_spans.insert(id);
                } else {
                    self.reasoning_messages.insert(id);
                }
            }
            Event::ReasoningMessageContent(_)
            | Event::ReasoningMessageEnd(_)
            | Event::ReasoningEnd(_) => {
                let id = match ev {
                    Event::ReasoningMessageContent(e) => text(&e.message_id),
                    Event::ReasoningMessageEnd(e) => text(&e.message_id),
                    Event::ReasoningEnd(e) => text(&e.message_id),
                    _ => String::new(),
                };
                let span = t == T::ReasoningEnd;
                let open = if span {
                    &self.reasoning_spans
                } else {
                    &self.reasoning_messages
                };
                if !open.contains(&id) {
                    return Err(ReduceErrorKind::NotActive {
                        event: name,
                        entity: if span {
                            Entity::ReasoningSpan
                        } else {
                            Entity::ReasoningMessage
                        },
                        id,
                    });
                }
                let owner = self.owner_reasoning.get(&id);
                tag_check(name, &tag, owner, Entity::ReasoningMessage, &id)?;
                if span {
                    self.reasoning_spans.remove(&id);
                } else if t == T::ReasoningMessageEnd {
                    self.reasoning_messages.remove(&id);
                }
            }
            Event::ReasoningEncryptedValue(e) => {
                let id = text(&e.entity_id);
                let (owner, entity) = match e.subtype {
                    EncryptedValueSubtype::ToolCall => {
                        (self.owner_tool_call.get(&id), Entity::ToolCall)
                    }
                    EncryptedValueSubtype::Message => (
                        self.owner_message
                            .get(&id)
                            .or_else(|| self.owner_reasoning.get(&id)),
                        Entity::Message,
                    ),
                };
                tag_check(name, &tag, owner, entity, &id)?;
            }
            Event::ActivityDelta(e) => {
                let id = text(&e.message_id);
                tag_check(
                    name,
                    &tag,
                    self.owner_activity.get(&id),
                    Entity::Activity,
                    &id,
                )?;
            }
            Event::SubagentStarted(e) => {
                let id = text(&e.subagent_run_id);
                if self.subagents.contains(&id) {
                    return Err(ReduceErrorKind::AlreadyActive {
                        entity: Entity::Subagent,
                        id,
                        subagent: None,
                    });
                }
                if self.closed_subagents.contains(&id) {
                    return Err(ReduceErrorKind::SubagentReused { id });
                }
                if let Some(p) = e.parent_subagent_run_id.as_ref().map(text)
                    && !self.subagents.contains(&p)
                    && !self.closed_subagents.contains(&p)
                {
                    return Err(ReduceErrorKind::ParentSubagentNotStarted { id: p });
                }
                self.subagents.insert(id);
            }
            Event::SubagentFinished(_) | Event::SubagentError(_) => {
                let id = tag.unwrap_or_default();
                if !self.subagents.contains(&id) {
                    return Err(ReduceErrorKind::NotActive {
                        event: name,
                        entity: Entity::Subagent,
                        id,
                    });
                }
                self.subagents.remove(&id);
                self.closed_subagents.insert(id);
            }
            Event::MessagesSnapshot(e) => self.seed(&e.messages, true),
            Event::RunStarted(e) => {
                self.run_started = true;
                if let Some(input) = &e.input {
                    self.seed(&input.messages, false);
                }
            }
            Event::RunFinished(_) => {
                let steps: Vec<String> = self
                    .steps
                    .iter()
                    .flat_map(|(o, names)| {
                        names.ordered().into_iter().map(move |n| match o {
                            Some(s) => format!("{n} (subagent {s:?})"),
                            None => n,
                        })
                    })
                    .collect();
                let still = |entity, ids: Vec<String>| {
                    if ids.is_empty() {
                        Ok(())
                    } else {
                        Err(ReduceErrorKind::StillActive { entity, ids })
                    }
                };
                still(Entity::Step, steps)?;
                still(Entity::TextMessage, self.messages.ordered())?;
                still(Entity::ReasoningMessage, self.reasoning_messages.ordered())?;
                still(Entity::ReasoningSpan, self.reasoning_spans.ordered())?;
                still(Entity::ToolCall, self.tool_calls.ordered())?;
                still(Entity::Subagent, self.subagents.ordered())?;
                self.run_finished = true;
            }
            Event::RunError(_) => self.run_error = true,
            _ => {}
        }
        Ok(())
    }
}

fn message_owner(m: &Message<'_>) -> Owner {
    let s = match m {
        Message::Developer(x) => &x.subagent_run_id,
        Message::System(x) => &x.subagent_run_id,
        Message::Assistant(x) => &x.subagent_run_id,
        Message::User(x) => &x.subagent_run_id,
        Message::Tool(x) => &x.subagent_run_id,
        Message::Activity(x) => &x.subagent_run_id,
        Message::Reasoning(x) => &x.subagent_run_id,
    };
    s.as_ref().map(text)
}
