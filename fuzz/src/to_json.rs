//! The parsed model as a `serde_json::Value`, for comparison with serde_json's reading of the
//! same bytes.
//!
//! The conversion is written from the protocol's field list, independently of the parser: a
//! field the parser puts in the wrong slot, a string it unescapes wrongly, an unknown field it
//! drops or a raw value it cuts short all show up as a difference. On the way, [`Conv`] checks
//! the zero-copy promises when it is given the input: every string is the exact text between
//! two quotes of the input, every raw value a trimmed slice of it that serde_json accepts, with
//! the kind and compactness agui-wire claims.

use agui_wire::{
    AgentCapabilities, Content, Extra, InputContent, InputContentSource, List, Message, RawJson,
    RunAgentInput, Str, Tool, ToolCall, offset_in,
};
use serde_json::{Map, Value};

use crate::oracle;

/// Where a leaf lies in the input: its offset, or `None` when it is not a slice of it.
pub type Locate<'i> = &'i dyn Fn(&[u8]) -> Option<usize>;

/// Converts model values, checking each leaf against `input` when there is one.
#[derive(Clone, Copy)]
pub struct Conv<'i> {
    input: Option<&'i [u8]>,
    locate: Option<Locate<'i>>,
}

impl<'i> Conv<'i> {
    /// A converter for a model parsed from `input`: every leaf must borrow from it.
    pub fn borrowed_from(input: &'i [u8]) -> Conv<'i> {
        Conv {
            input: Some(input),
            locate: None,
        }
    }

    /// Like [`Conv::borrowed_from`] for an input that is not one slice (a buffer that grew in
    /// blocks): `locate` finds a leaf's offset, `input` holds the same bytes in one piece.
    pub fn borrowed_via(input: &'i [u8], locate: Locate<'i>) -> Conv<'i> {
        Conv {
            input: Some(input),
            locate: Some(locate),
        }
    }

    /// A converter for a model built by hand (leaves may live anywhere).
    pub fn owned() -> Conv<'static> {
        Conv {
            input: None,
            locate: None,
        }
    }

    fn offset(&self, input: &[u8], part: &[u8]) -> Option<usize> {
        match self.locate {
            Some(f) => f(part),
            None => offset_in(input, part),
        }
    }

    /// A string leaf.
    pub fn str(&self, s: &Str<'_>, what: &str) -> Value {
        let raw = s.raw();
        assert_eq!(
            s.is_escaped(),
            raw.contains('\\'),
            "{what}: escape flag wrong for {raw:?}"
        );
        if let Some(input) = self.input {
            let off = self
                .offset(input, raw.as_bytes())
                .unwrap_or_else(|| panic!("{what}: string {raw:?} is not a slice of the input"));
            assert_eq!(
                off.checked_sub(1).and_then(|i| input.get(i)),
                Some(&b'"'),
                "{what}: string at {off} does not follow a quote"
            );
            assert_eq!(
                input.get(off + raw.len()),
                Some(&b'"'),
                "{what}: string at {off} does not end at a quote"
            );
        }
        let text = s.unescaped().into_owned();
        assert!(s.eq_text(&text), "{what}: eq_text disagrees with unescaped");
        Value::String(text)
    }

    /// A raw JSON leaf: serde_json must accept its text, with the same kind.
    pub fn raw(&self, r: &RawJson<'_>, what: &str) -> Value {
        let text = r.text();
        if let Some(input) = self.input {
            let off = self.offset(input, text.as_bytes()).unwrap_or_else(|| {
                panic!("{what}: raw value {text:?} is not a slice of the input")
            });
            assert_eq!(
                input.get(off..off + text.len()),
                Some(text.as_bytes()),
                "{what}: raw value at {off}"
            );
        }
        let ws = |b: u8| matches!(b, b' ' | b'\t' | b'\n' | b'\r');
        assert!(
            !text.is_empty() && !ws(text.as_bytes()[0]) && !ws(text.as_bytes()[text.len() - 1]),
            "{what}: raw value {text:?} is empty or not trimmed"
        );
        assert_eq!(
            r.is_compact(),
            minify(text.as_bytes()) == text.as_bytes(),
            "{what}: compact flag wrong for {text:?}"
        );
        let v = oracle::must_parse(text, what);
        if !oracle::has_private_token(text.as_bytes()) {
            assert_eq!(oracle::kind(&v), r.kind(), "{what}: kind of {text:?}");
        }
        v
    }

    fn opt_str(&self, m: &mut Map<String, Value>, key: &str, s: &Option<Str<'_>>) {
        if let Some(s) = s {
            m.insert(key.into(), self.str(s, key));
        }
    }

    fn opt_raw(&self, m: &mut Map<String, Value>, key: &str, r: &Option<RawJson<'_>>) {
        if let Some(r) = r {
            m.insert(key.into(), self.raw(r, key));
        }
    }

    fn opt_bool(m: &mut Map<String, Value>, key: &str, b: Option<bool>) {
        if let Some(b) = b {
            m.insert(key.into(), Value::Bool(b));
        }
    }

    fn opt_list<T>(
        &self,
        m: &mut Map<String, Value>,
        key: &str,
        l: &Option<List<'_, T>>,
        f: impl Fn(&T) -> Value,
    ) {
        if let Some(l) = l {
            m.insert(key.into(), list(l, f));
        }
    }

    /// Unknown fields, inserted in wire order (so a repeated key keeps its last value, as
    /// serde_json does).
    fn extra(&self, m: &mut Map<String, Value>, e: &Extra<'_>) {
        for f in e.fields() {
            let key = match self.str(&f.key, "extra key") {
                Value::String(k) => k,
                _ => unreachable!(),
            };
            let value = self.raw(&f.value, &key);
            m.insert(key, value);
        }
    }

    /// A whole `RunAgentInput`.
    pub fn input(&self, d: &RunAgentInput<'_>) -> Value {
        let mut m = Map::new();
        m.insert("threadId".into(), self.str(&d.thread_id, "threadId"));
        m.insert("runId".into(), self.str(&d.run_id, "runId"));
        self.opt_str(&mut m, "protocolVersion", &d.protocol_version);
        self.opt_str(&mut m, "parentRunId", &d.parent_run_id);
        self.opt_raw(&mut m, "state", &d.state);
        m.insert("messages".into(), list(&d.messages, |x| self.message(x)));
        self.opt_list(&mut m, "tools", &d.tools, |t| self.tool(t));
        self.opt_list(&mut m, "context", &d.context, |c| {
            let mut o = Map::new();
            o.insert(
                "description".into(),
                self.str(&c.description, "description"),
            );
            o.insert("value".into(), self.str(&c.value, "value"));
            self.extra(&mut o, &c.extra);
            Value::Object(o)
        });
        self.opt_raw(&mut m, "forwardedProps", &d.forwarded_props);
        self.opt_list(&mut m, "resume", &d.resume, |r| {
            let mut o = Map::new();
            o.insert(
                "interruptId".into(),
                self.str(&r.interrupt_id, "interruptId"),
            );
            o.insert("status".into(), Value::String(r.status.as_str().into()));
            self.opt_raw(&mut o, "payload", &r.payload);
            self.opt_raw(&mut o, "metadata", &r.metadata);
            self.extra(&mut o, &r.extra);
            Value::Object(o)
        });
        self.extra(&mut m, &d.extra);
        Value::Object(m)
    }

    /// One message, with its `role`.
    pub fn message(&self, msg: &Message<'_>) -> Value {
        let mut m = Map::new();
        m.insert("role".into(), Value::String(msg.role().as_str().into()));
        m.insert("id".into(), self.str(msg.id(), "id"));
        match msg {
            Message::Developer(x) => {
                m.insert("content".into(), self.str(&x.content, "content"));
                self.opt_str(&mut m, "name", &x.name);
                self.opt_str(&mut m, "encryptedValue", &x.encrypted_value);
                self.opt_raw(&mut m, "metadata", &x.metadata);
                self.opt_str(&mut m, "subagentRunId", &x.subagent_run_id);
            }
            Message::System(x) => {
                m.insert("content".into(), self.str(&x.content, "content"));
                self.opt_str(&mut m, "name", &x.name);
                self.opt_str(&mut m, "encryptedValue", &x.encrypted_value);
                self.opt_raw(&mut m, "metadata", &x.metadata);
                self.opt_str(&mut m, "subagentRunId", &x.subagent_run_id);
            }
            Message::Assistant(x) => {
                self.opt_str(&mut m, "content", &x.content);
                self.opt_list(&mut m, "toolCalls", &x.tool_calls, |c| self.tool_call(c));
                self.opt_str(&mut m, "name", &x.name);
                self.opt_str(&mut m, "encryptedValue", &x.encrypted_value);
                self.opt_raw(&mut m, "metadata", &x.metadata);
                self.opt_str(&mut m, "subagentRunId", &x.subagent_run_id);
            }
            Message::User(x) => {
                m.insert("content".into(), self.content(&x.content));
                self.opt_str(&mut m, "name", &x.name);
                self.opt_str(&mut m, "encryptedValue", &x.encrypted_value);
                self.opt_raw(&mut m, "metadata", &x.metadata);
                self.opt_str(&mut m, "subagentRunId", &x.subagent_run_id);
            }
            Message::Tool(x) => {
                m.insert("content".into(), self.content(&x.content));
                m.insert("toolCallId".into(), self.str(&x.tool_call_id, "toolCallId"));
                self.opt_str(&mut m, "error", &x.error);
                self.opt_str(&mut m, "encryptedValue", &x.encrypted_value);
                self.opt_raw(&mut m, "metadata", &x.metadata);
                self.opt_str(&mut m, "subagentRunId", &x.subagent_run_id);
            }
            Message::Activity(x) => {
                m.insert(
                    "activityType".into(),
                    self.str(&x.activity_type, "activityType"),
                );
                m.insert("content".into(), self.raw(&x.content, "content"));
                self.opt_raw(&mut m, "metadata", &x.metadata);
                self.opt_str(&mut m, "subagentRunId", &x.subagent_run_id);
            }
            Message::Reasoning(x) => {
                m.insert("content".into(), self.str(&x.content, "content"));
                self.opt_str(&mut m, "encryptedValue", &x.encrypted_value);
                self.opt_raw(&mut m, "metadata", &x.metadata);
                self.opt_str(&mut m, "subagentRunId", &x.subagent_run_id);
            }
        }
        self.extra(&mut m, msg.extra());
        Value::Object(m)
    }

    fn content(&self, c: &Content<'_>) -> Value {
        match c {
            Content::Text(s) => self.str(s, "content"),
            Content::Parts(parts) => list(parts, |p| self.part(p)),
        }
    }

    /// One content part, with its `type`.
    pub fn part(&self, p: &InputContent<'_>) -> Value {
        let mut m = Map::new();
        m.insert("type".into(), Value::String(p.kind().as_str().into()));
        match p {
            InputContent::Text(t) => {
                self.opt_str(&mut m, "id", &t.id);
                m.insert("text".into(), self.str(&t.text, "text"));
                self.opt_raw(&mut m, "metadata", &t.metadata);
                self.extra(&mut m, &t.extra);
            }
            InputContent::Image(x)
            | InputContent::Audio(x)
            | InputContent::Video(x)
            | InputContent::Document(x) => {
                self.opt_str(&mut m, "id", &x.id);
                m.insert("source".into(), self.source(&x.source));
                self.opt_raw(&mut m, "metadata", &x.metadata);
                self.extra(&mut m, &x.extra);
            }
            InputContent::Binary(b) => {
                m.insert("mimeType".into(), self.str(&b.mime_type, "mimeType"));
                self.opt_str(&mut m, "id", &b.id);
                self.opt_str(&mut m, "url", &b.url);
                self.opt_str(&mut m, "data", &b.data);
                self.opt_str(&mut m, "filename", &b.filename);
                self.extra(&mut m, &b.extra);
            }
        }
        Value::Object(m)
    }

    fn source(&self, s: &InputContentSource<'_>) -> Value {
        let mut m = Map::new();
        m.insert("type".into(), Value::String(s.type_name().into()));
        m.insert("value".into(), self.str(s.value(), "value"));
        match s {
            InputContentSource::Data(d) => {
                m.insert("mimeType".into(), self.str(&d.mime_type, "mimeType"));
                self.extra(&mut m, &d.extra);
            }
            InputContentSource::Url(u) => {
                self.opt_str(&mut m, "mimeType", &u.mime_type);
                self.extra(&mut m, &u.extra);
            }
            InputContentSource::File(f) => {
                self.opt_str(&mut m, "provider", &f.provider);
                self.opt_str(&mut m, "mimeType", &f.mime_type);
                self.extra(&mut m, &f.extra);
            }
        }
        Value::Object(m)
    }

    fn tool_call(&self, c: &ToolCall<'_>) -> Value {
        let mut m = Map::new();
        m.insert("id".into(), self.str(&c.id, "id"));
        self.opt_str(&mut m, "type", &c.r#type);
        let mut f = Map::new();
        f.insert("name".into(), self.str(&c.function.name, "name"));
        f.insert(
            "arguments".into(),
            self.str(&c.function.arguments, "arguments"),
        );
        self.extra(&mut f, &c.function.extra);
        m.insert("function".into(), Value::Object(f));
        self.opt_str(&mut m, "encryptedValue", &c.encrypted_value);
        self.opt_raw(&mut m, "metadata", &c.metadata);
        self.extra(&mut m, &c.extra);
        Value::Object(m)
    }

    fn tool(&self, t: &Tool<'_>) -> Value {
        let mut m = Map::new();
        m.insert("name".into(), self.str(&t.name, "name"));
        self.opt_str(&mut m, "description", &t.description);
        self.opt_raw(&mut m, "parameters", &t.parameters);
        self.opt_raw(&mut m, "metadata", &t.metadata);
        self.extra(&mut m, &t.extra);
        Value::Object(m)
    }

    /// A whole `AgentCapabilities` document.
    pub fn capabilities(&self, c: &AgentCapabilities<'_>) -> Value {
        let mut m = Map::new();
        let group = |pairs: &[(&str, Option<bool>)], extra: &Extra<'_>| {
            let mut g = Map::new();
            for (k, v) in pairs {
                Self::opt_bool(&mut g, k, *v);
            }
            self.extra(&mut g, extra);
            Value::Object(g)
        };
        if let Some(g) = &c.identity {
            let mut o = Map::new();
            self.opt_str(&mut o, "name", &g.name);
            self.opt_str(&mut o, "type", &g.r#type);
            self.opt_str(&mut o, "description", &g.description);
            self.opt_str(&mut o, "version", &g.version);
            self.opt_str(&mut o, "provider", &g.provider);
            self.opt_str(&mut o, "documentationUrl", &g.documentation_url);
            self.opt_raw(&mut o, "metadata", &g.metadata);
            self.extra(&mut o, &g.extra);
            m.insert("identity".into(), Value::Object(o));
        }
        if let Some(g) = &c.transport {
            let pairs = [
                ("streaming", g.streaming),
                ("websocket", g.websocket),
                ("httpBinary", g.http_binary),
                ("pushNotifications", g.push_notifications),
                ("resumable", g.resumable),
            ];
            m.insert("transport".into(), group(&pairs, &g.extra));
        }
        if let Some(g) = &c.tools {
            let mut o = Map::new();
            Self::opt_bool(&mut o, "supported", g.supported);
            self.opt_list(&mut o, "items", &g.items, |t| self.tool(t));
            Self::opt_bool(&mut o, "parallelCalls", g.parallel_calls);
            Self::opt_bool(&mut o, "clientProvided", g.client_provided);
            self.extra(&mut o, &g.extra);
            m.insert("tools".into(), Value::Object(o));
        }
        if let Some(g) = &c.output {
            let mut o = Map::new();
            Self::opt_bool(&mut o, "structuredOutput", g.structured_output);
            self.opt_list(&mut o, "supportedMimeTypes", &g.supported_mime_types, |s| {
                self.str(s, "supportedMimeTypes")
            });
            self.extra(&mut o, &g.extra);
            m.insert("output".into(), Value::Object(o));
        }
        if let Some(g) = &c.state {
            let pairs = [
                ("snapshots", g.snapshots),
                ("deltas", g.deltas),
                ("memory", g.memory),
                ("persistentState", g.persistent_state),
            ];
            m.insert("state".into(), group(&pairs, &g.extra));
        }
        if let Some(g) = &c.multi_agent {
            let mut o = Map::new();
            Self::opt_bool(&mut o, "supported", g.supported);
            Self::opt_bool(&mut o, "delegation", g.delegation);
            Self::opt_bool(&mut o, "handoffs", g.handoffs);
            self.opt_list(&mut o, "subagents", &g.subagents, |s| {
                let mut a = Map::new();
                a.insert("name".into(), self.str(&s.name, "name"));
                self.opt_str(&mut a, "description", &s.description);
                self.extra(&mut a, &s.extra);
                Value::Object(a)
            });
            self.extra(&mut o, &g.extra);
            m.insert("multiAgent".into(), Value::Object(o));
        }
        if let Some(g) = &c.reasoning {
            let pairs = [
                ("supported", g.supported),
                ("streaming", g.streaming),
                ("encrypted", g.encrypted),
            ];
            m.insert("reasoning".into(), group(&pairs, &g.extra));
        }
        if let Some(g) = &c.multimodal {
            let mut o = Map::new();
            if let Some(i) = &g.input {
                let pairs = [
                    ("image", i.image),
                    ("audio", i.audio),
                    ("video", i.video),
                    ("pdf", i.pdf),
                    ("file", i.file),
                ];
                o.insert("input".into(), group(&pairs, &i.extra));
            }
            if let Some(x) = &g.output {
                let pairs = [("image", x.image), ("audio", x.audio)];
                o.insert("output".into(), group(&pairs, &x.extra));
            }
            self.extra(&mut o, &g.extra);
            m.insert("multimodal".into(), Value::Object(o));
        }
        if let Some(g) = &c.execution {
            let mut o = Map::new();
            Self::opt_bool(&mut o, "codeExecution", g.code_execution);
            Self::opt_bool(&mut o, "sandboxed", g.sandboxed);
            if let Some(n) = g.max_iterations {
                o.insert("maxIterations".into(), Value::from(n));
            }
            if let Some(n) = g.max_execution_time {
                o.insert("maxExecutionTime".into(), Value::from(n));
            }
            self.extra(&mut o, &g.extra);
            m.insert("execution".into(), Value::Object(o));
        }
        if let Some(g) = &c.human_in_the_loop {
            let pairs = [
                ("supported", g.supported),
                ("approvals", g.approvals),
                ("interventions", g.interventions),
                ("feedback", g.feedback),
                ("interrupts", g.interrupts),
                ("approveWithEdits", g.approve_with_edits),
            ];
            m.insert("humanInTheLoop".into(), group(&pairs, &g.extra));
        }
        self.opt_raw(&mut m, "custom", &c.custom);
        self.extra(&mut m, &c.extra);
        Value::Object(m)
    }
}

fn list<T>(l: &[T], f: impl Fn(&T) -> Value) -> Value {
    Value::Array(l.iter().map(f).collect())
}

/// `text` (a valid JSON text) without the whitespace outside strings.
pub fn minify(text: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    let (mut in_str, mut esc) = (false, false);
    for &b in text {
        if in_str {
            out.push(b);
            if esc {
                esc = false;
            } else if b == b'\\' {
                esc = true;
            } else if b == b'"' {
                in_str = false;
            }
        } else if !matches!(b, b' ' | b'\t' | b'\n' | b'\r') {
            in_str = b == b'"';
            out.push(b);
        }
    }
    out
}
