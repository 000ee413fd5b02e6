//! How each event changes the messages and the state: the per-event half of [`Reducer`];
//! the checks that run first are in `verify.rs` and `order.rs`.

use super::*;

impl Reducer {
    /// Applies one verified event to the messages and state.
    pub(super) fn reduce(&mut self, index: usize, ev: &Event<'_>) -> Result<(), ReduceErrorKind> {
        let depth = self.opts.max_depth;
        let meta = match ev.base().and_then(|b| b.metadata.as_ref()) {
            Some(m) => Some(self.tree(m)?),
            None => None,
        };
        let sub = ev.subagent_run_id().map(text);
        match ev {
            Event::TextMessageStart(e) => {
                let role = e.role.unwrap_or(Role::Assistant);
                let name = e.name.as_ref().map(text);
                self.start_message(index, ev, &text(&e.message_id), role, name, meta);
            }
            Event::ReasoningMessageStart(e) => {
                self.start_message(index, ev, &text(&e.message_id), Role::Reasoning, None, meta);
            }
            Event::TextMessageContent(_)
            | Event::TextMessageEnd(_)
            | Event::ReasoningMessageContent(_)
            | Event::ReasoningMessageEnd(_) => {
                let (id, delta) = match ev {
                    Event::TextMessageContent(e) => (&e.message_id, Some(&e.delta)),
                    Event::TextMessageEnd(e) => (&e.message_id, None),
                    Event::ReasoningMessageContent(e) => (&e.message_id, Some(&e.delta)),
                    Event::ReasoningMessageEnd(e) => (&e.message_id, None),
                    _ => return Ok(()),
                };
                let id = text(id);
                let name = ev.type_name().into_owned();
                let Some(at) = self.find(&id) else {
                    self.warn(index, format!("{name}: no message with id {id:?}"));
                    return Ok(());
                };
                let target = &mut self.list()[at];
                if target.get("role").and_then(Json::as_str) == Some("activity") {
                    self.warn(
                        index,
                        format!("{name}: message {id:?} is an activity message; ignored"),
                    );
                    return Ok(());
                }
                if let Some(delta) = delta {
                    append(target, "content", &delta.unescaped());
                }
                Self::merge_metadata(target, meta);
            }
            Event::ToolCallStart(e) => self.tool_call_start(index, e, meta, sub),
            Event::ToolCallArgs(_) | Event::ToolCallEnd(_) => {
                let (id, delta) = match ev {
                    Event::ToolCallArgs(e) => (&e.tool_call_id, Some(&e.delta)),
                    Event::ToolCallEnd(e) => (&e.tool_call_id, None),
                    _ => return Ok(()),
                };
                let id = text(id);
                let Some(at) = self.find_tool_call(&id) else {
                    let name = ev.type_name().into_owned();
                    self.warn(index, format!("{name}: no message holds tool call {id:?}"));
                    return Ok(());
                };
                // The first arguments after a call was started again replace the old ones
                // (as the client from 1.0.4); its end forgets the restart.
                let restarted = !self.restarted.is_empty() && self.restarted.remove(&id);
                let Some(call) = self.tool_call_mut(at) else {
                    return Ok(());
                };
                if let Some(delta) = delta
                    && let Some(func) = call.get_mut("function")
                {
                    if restarted {
                        func.set("arguments", Json::String(delta.unescaped().into_owned()));
                    } else {
                        append(func, "arguments", &delta.unescaped());
                    }
                }
                Self::merge_metadata(call, meta);
            }
            Event::ToolCallResult(e) => {
                let call_id = text(&e.tool_call_id);
                let mut content = self.tree_of(&e.content)?;
                if !self.opts.keep_unknown_fields {
                    strip::content(&mut content);
                }
                let message_id = text(&e.message_id);
                // A result with the message and call ids of one already there replaces it in
                // place, keeping its other fields (as the client from 1.0.4).
                if let Some(at) = self.list().find_result(&message_id, &call_id) {
                    let old = &mut self.list()[at];
                    old.set("content", content);
                    match sub {
                        Some(s) => old.set("subagentRunId", Json::String(s)),
                        None => {
                            old.remove("subagentRunId");
                        }
                    }
                    Self::merge_metadata(old, meta);
                    return Ok(());
                }
                let mut msg = Json::from_members(vec![
                    ("id".into(), Json::String(message_id)),
                    ("toolCallId".into(), Json::String(call_id.clone())),
                    ("role".into(), Json::from("tool")),
                    ("content".into(), content),
                ]);
                if let Some(s) = sub {
                    msg.set("subagentRunId", Json::String(s));
                }
                Self::merge_metadata(&mut msg, meta);
                match self.list().result_target(&call_id) {
                    None => {
                        self.push(msg);
                    }
                    Some(assistant) => {
                        // After the latest message calling for it with no result yet (else the
                        // latest calling for it), and the tool and activity messages right
                        // after it (as the client from 1.0.4; 1.0.0 took the first message and
                        // stepped over tool messages only), placed there without moving the
                        // later ones (see `list.rs`).
                        self.kept_credit += 1;
                        self.list().place_result(assistant, msg);
                    }
                }
            }
            Event::StateSnapshot(e) => {
                let state = self.tree(&e.snapshot)?;
                self.carry(e.snapshot.as_bytes().len());
                let bytes = state.approx_size();
                if bytes > self.opts.max_state_bytes {
                    return Err(self.too_large());
                }
                self.state = state;
                self.state_bytes = bytes;
            }
            Event::StateDelta(e) => {
                let patch = self.patch_tree(&e.delta)?;
                self.carry(e.delta.as_bytes().len());
                let limits = self.patch_limits(depth);
                let result = patch::apply(&mut self.state, patch, self.state_bytes, &limits);
                self.patch_done(&limits, &result)?;
                match result {
                    Ok(bytes) => self.state_bytes = bytes,
                    Err(err) => self.warn(index, format!("STATE_DELTA not applied: {err}")),
                }
            }
            Event::MessagesSnapshot(e) => self.messages_snapshot(e)?,
            Event::ActivitySnapshot(e) => self.activity_snapshot(e, meta, sub)?,
            Event::ActivityDelta(e) => {
                let id = text(&e.message_id);
                let Some(at) = self.find(&id) else {
                    return Ok(());
                };
                if self.list()[at].get("role").and_then(Json::as_str) != Some("activity") {
                    self.warn(
                        index,
                        format!("ACTIVITY_DELTA: message {id:?} is not an activity message"),
                    );
                    return Ok(());
                }
                let patch = self.patch_tree(&e.patch)?;
                self.carry(e.patch.as_bytes().len());
                let limits = self.patch_limits(depth.saturating_sub(2));
                let size = match self.activity_bytes.get(&id) {
                    Some(&size) => size,
                    None => self.list()[at]
                        .get("content")
                        .map_or(Json::object().approx_size(), Json::approx_size),
                };
                // In place (the patch undoes itself when it fails); a message without content
                // gets the patched `{}` once the metadata is merged, as the client orders it.
                let msg = &mut self.list()[at];
                let (result, fresh) = match msg.get_mut("content") {
                    Some(content) => (patch::apply(content, patch, size, &limits), None),
                    None => {
                        let mut content = Json::object();
                        let result = patch::apply(&mut content, patch, size, &limits);
                        (result, Some(content))
                    }
                };
                // The content's size now: the patched one, or the same (a failed patch is undone).
                let bytes = *result.as_ref().unwrap_or(&size);
                self.activity_bytes.insert(id.clone(), bytes);
                self.patch_done(&limits, &result)?;
                Self::merge_metadata(&mut self.list()[at], meta);
                match result {
                    Ok(_) => {
                        let msg = &mut self.list()[at];
                        if let Some(content) = fresh {
                            msg.set("content", content);
                        }
                        msg.set("activityType", Json::String(text(&e.activity_type)));
                    }
                    Err(err) => self.warn(
                        index,
                        format!("ACTIVITY_DELTA for {id:?} not applied: {err}"),
                    ),
                }
            }
            Event::RunStarted(e) => {
                if let Some(input) = &e.input {
                    let trees: Vec<(String, Json)> = input
                        .messages
                        .iter()
                        .map(|m| Ok((text(m.id()), self.message_tree(m)?)))
                        .collect::<Result<_, ReduceErrorKind>>()?;
                    for (id, tree) in trees {
                        if self.find(&id).is_none() {
                            self.push(tree);
                        }
                    }
                }
            }
            Event::ReasoningEncryptedValue(e) => {
                let id = text(&e.entity_id);
                let value = Json::String(text(&e.encrypted_value));
                match e.subtype {
                    EncryptedValueSubtype::ToolCall => {
                        let found = self.find_assistant_call(&id);
                        if let Some(call) = found.and_then(|at| self.tool_call_mut(at)) {
                            call.set("encryptedValue", value);
                        }
                    }
                    EncryptedValueSubtype::Message => {
                        if let Some(at) = self.find(&id) {
                            let m = &mut self.list()[at];
                            if m.get("role").and_then(Json::as_str) != Some("activity") {
                                m.set("encryptedValue", value);
                            }
                        }
                    }
                }
            }
            _ => {}
        }
        Ok(())
    }

    fn start_message(
        &mut self,
        index: usize,
        ev: &Event<'_>,
        id: &str,
        role: Role,
        name: Option<String>,
        meta: Option<Json>,
    ) {
        let at = match self.find(id) {
            Some(at) => {
                if self.list()[at].get("role").and_then(Json::as_str) == Some("activity") {
                    let name = ev.type_name().into_owned();
                    self.warn(
                        index,
                        format!("{name}: message {id:?} is an activity message; ignored"),
                    );
                    return;
                }
                at
            }
            None => {
                let mut m = Json::from_members(vec![
                    ("id".into(), Json::from(id)),
                    ("role".into(), Json::from(role.as_str())),
                    ("content".into(), Json::from("")),
                ]);
                if let Some(n) = name {
                    m.set("name", Json::String(n));
                }
                if let Some(s) = ev.subagent_run_id() {
                    m.set("subagentRunId", Json::String(text(s)));
                }
                self.push(m)
            }
        };
        Self::merge_metadata(&mut self.list()[at], meta);
    }

    fn tool_call_start(
        &mut self,
        index: usize,
        e: &ToolCallStartEvent<'_>,
        meta: Option<Json>,
        sub: Option<String>,
    ) {
        let id = text(&e.tool_call_id);
        let name = text(&e.tool_call_name);
        if let Some(at) = self.find_tool_call(&id) {
            // Started again: its next arguments replace the ones it has.
            self.restarted.insert(id.clone());
            let Some(call) = self.tool_call_mut(at) else {
                return;
            };
            let old = call
                .get("function")
                .and_then(|f| f.get("name"))
                .and_then(Json::as_str)
                .map(str::to_owned);
            if old.as_deref() != Some(name.as_str()) {
                if let Some(f) = call.get_mut("function") {
                    f.set("name", Json::String(name.clone()));
                }
                Self::merge_metadata(call, meta);
                self.warn(
                    index,
                    format!("TOOL_CALL_START: tool call {id:?} already exists with name {:?}; renamed to {name:?}", old.unwrap_or_default()),
                );
                return;
            }
            Self::merge_metadata(call, meta);
            return;
        }
        let before = self.list().base_len();
        // The assistant message the call goes into.
        let parent = e
            .parent_message_id
            .as_ref()
            .map(text)
            .filter(|p| !p.is_empty());
        let target = match parent {
            Some(p) => match self.find(&p) {
                Some(at)
                    if self.list()[at].get("role").and_then(Json::as_str) == Some("assistant") =>
                {
                    at
                }
                found => {
                    if let Some(at) = found {
                        let role = self.list()[at]
                            .get("role")
                            .and_then(Json::as_str)
                            .unwrap_or("")
                            .to_owned();
                        self.warn(index, format!("TOOL_CALL_START: parentMessageId {p:?} is a {role:?} message, not an assistant message; using the tool call id"));
                    }
                    let new_id = if found.is_some() { id.clone() } else { p };
                    self.push_assistant(new_id)
                }
            },
            None => self.push_assistant(id.clone()),
        };
        // Made here, and not sharing its id with an earlier message.
        let created = target.0 >= before && target.1 == list::BASE && {
            let new_id = self.list()[target]
                .get("id")
                .and_then(Json::as_str)
                .unwrap_or("")
                .to_owned();
            self.find(&new_id) == Some(target)
        };
        let msg = &mut self.list()[target];
        if let (true, Some(s)) = (created, sub)
            && msg.get("subagentRunId").is_none()
        {
            msg.set("subagentRunId", Json::String(s));
        }
        if msg.get("toolCalls").is_none_or(|c| matches!(c, Json::Null)) {
            msg.set("toolCalls", Json::Array(Vec::new()));
        }
        let mut call = Json::from_members(vec![
            ("id".into(), Json::String(id.clone())),
            ("type".into(), Json::from("function")),
            (
                "function".into(),
                Json::from_members(vec![
                    ("name".into(), Json::String(name)),
                    ("arguments".into(), Json::from("")),
                ]),
            ),
        ]);
        Self::merge_metadata(&mut call, meta);
        let added = (msg.get_mut("toolCalls").and_then(Json::as_array_mut)).map(|calls| {
            calls.push(call);
            calls.len() - 1
        });
        // Only assistant messages of the list proper hold calls (placed ones are results).
        if let (Some(ci), list::BASE) = (added, target.1) {
            self.list().call_added(&id, (target.0, ci));
        }
    }

    fn push_assistant(&mut self, id: String) -> At {
        self.push(Json::from_members(vec![
            ("id".into(), Json::String(id)),
            ("role".into(), Json::from("assistant")),
            ("toolCalls".into(), Json::Array(Vec::new())),
        ]))
    }

    fn messages_snapshot(&mut self, e: &MessagesSnapshotEvent<'_>) -> Result<(), ReduceErrorKind> {
        let incoming: Vec<Json> = e
            .messages
            .iter()
            .map(|m| self.message_tree(m))
            .collect::<Result<_, _>>()?;
        fn id_of(m: &Json) -> Option<&str> {
            m.get("id").and_then(Json::as_str)
        }
        fn role_of(m: &Json) -> Option<&str> {
            m.get("role").and_then(Json::as_str)
        }
        // Which activity types the snapshot speaks for.
        enum Owned {
            Undeclared,
            All,
            Types(HashSet<String>),
        }
        let owned = match e.base.metadata.as_ref().map(|m| self.tree(m)).transpose()? {
            Some(meta) => match meta.get("@ag-ui/client") {
                None => Owned::Undeclared,
                Some(v @ Json::Object(_)) => match v.get("authoritativeActivityTypes") {
                    None => Owned::Undeclared,
                    Some(Json::Null) => Owned::All,
                    Some(Json::Array(a)) if a.iter().all(|t| t.as_str().is_some()) => Owned::Types(
                        a.iter()
                            .filter_map(|t| t.as_str().map(str::to_owned))
                            .collect(),
                    ),
                    Some(_) => Owned::Types(HashSet::new()),
                },
                Some(_) => Owned::Types(HashSet::new()),
            },
            None => Owned::Undeclared,
        };
        let has_activity = incoming.iter().any(|m| role_of(m) == Some("activity"));
        let has_reasoning = incoming.iter().any(|m| role_of(m) == Some("reasoning"));
        let preserved = |m: &Json| match role_of(m) {
            Some("activity") => match &owned {
                Owned::Types(types) => {
                    let t = m.get("activityType").and_then(Json::as_str).unwrap_or("");
                    !types.contains(t)
                }
                Owned::All => false,
                Owned::Undeclared => !has_activity,
            },
            Some("reasoning") => !has_reasoning,
            _ => false,
        };
        // The snapshot's message for an id: the last one with that id.
        let mut last: HashMap<&str, usize> = HashMap::with_capacity(incoming.len());
        for (i, m) in incoming.iter().enumerate() {
            stats::tick(1);
            if let Some(id) = id_of(m) {
                last.insert(id, i);
            }
        }
        // Everything already there beyond what the snapshot carries is walked (kept or
        // dropped): drawn from the allowance before anything changes.
        let draw = self.list().len().saturating_sub(incoming.len()) as u64;
        if draw > allowance(self.opts.max_kept_per_event, self.seen, self.kept_credit) {
            return Err(ReduceErrorKind::KeptTooMuch {
                per_event: self.opts.max_kept_per_event,
            });
        }
        self.kept_credit = self.kept_credit.saturating_sub(draw as i64);
        let old = self.list().take_all();
        let mut kept = Vec::with_capacity(incoming.len());
        // The ids of the messages kept (replaced ones by their snapshot id, preserved ones
        // by their own), and whether one has no id.
        let mut replaced: HashSet<&str> = HashSet::new();
        let mut preserved_ids: HashSet<String> = HashSet::new();
        let mut kept_without_id = false;
        for m in old {
            stats::tick(1);
            match id_of(&m).and_then(|id| last.get_key_value(id)) {
                Some((&id, &i)) => {
                    replaced.insert(id);
                    kept.push(incoming[i].clone());
                }
                None if preserved(&m) => {
                    match id_of(&m) {
                        Some(id) => {
                            preserved_ids.insert(id.to_owned());
                        }
                        None => kept_without_id = true,
                    }
                    kept.push(m);
                }
                None => {}
            }
        }
        for m in &incoming {
            stats::tick(1);
            let known = match id_of(m) {
                Some(id) => replaced.contains(id) || preserved_ids.contains(id),
                None => kept_without_id,
            };
            if !known {
                kept.push(m.clone());
            }
        }
        // As @ag-ui/client 1.0.4: tool results the snapshot put after a later turn go back
        // to the message that called for them.
        self.list().set_all(super::pairing::repair(kept));
        self.activity_bytes = HashMap::new();
        Ok(())
    }

    fn activity_snapshot(
        &mut self,
        e: &ActivitySnapshotEvent<'_>,
        meta: Option<Json>,
        sub: Option<String>,
    ) -> Result<(), ReduceErrorKind> {
        let id = text(&e.message_id);
        let replace = e.replace.unwrap_or(true);
        let content = self.tree(&e.content)?;
        self.carry(e.content.as_bytes().len());
        let mut fresh = Json::from_members(vec![
            ("id".into(), Json::String(id.clone())),
            ("role".into(), Json::from("activity")),
            ("activityType".into(), Json::String(text(&e.activity_type))),
            ("content".into(), content.clone()),
        ]);
        if let Some(s) = &sub {
            fresh.set("subagentRunId", Json::String(s.clone()));
        }
        // The content is the event's own: measuring it costs what reading it did.
        let bytes = content.approx_size();
        let found = self.find(&id);
        if found.is_none() || replace {
            self.activity_bytes.insert(id.clone(), bytes);
        }
        let target = match found {
            None => Some(self.push(fresh)),
            Some(at) if self.list()[at].get("role").and_then(Json::as_str) == Some("activity") => {
                if replace {
                    let m = &mut self.list()[at];
                    m.set("activityType", Json::String(text(&e.activity_type)));
                    m.set("content", content);
                    match &sub {
                        Some(s) => m.set("subagentRunId", Json::String(s.clone())),
                        None => {
                            m.remove("subagentRunId");
                        }
                    }
                }
                Some(at)
            }
            Some(at) if replace => {
                self.list().replace(at, fresh);
                Some(at)
            }
            Some(_) => None,
        };
        if let Some(at) = target {
            Self::merge_metadata(&mut self.list()[at], meta);
        }
        Ok(())
    }
}

/// Appends `text` to the string member `key` of `target` (a missing or non-string member
/// counts as `""`, as in the client).
fn append(target: &mut Json, key: &str, text: &str) {
    match target.get_mut(key) {
        Some(Json::String(s)) => s.push_str(text),
        _ => target.set(key, Json::String(text.to_owned())),
    }
}
