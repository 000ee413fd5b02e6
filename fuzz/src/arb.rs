//! Structured inputs: whole `RunAgentInput` and `AgentCapabilities` models built from fuzz bytes
//! with `arbitrary`, for the write-then-parse targets.
//!
//! Every role, content part and source type can come out, with every optional field present or
//! not; strings mix plain text, quotes, backslashes, control characters, non-ASCII and astral
//! characters, and are stored either plain (the writer escapes them) or already escaped in one
//! of JSON's several spellings (`\u00e9`, `\u00E9`, surrogate pairs, `\/`), which the writer
//! must copy verbatim; JSON-valued fields are nested JSON texts with random whitespace, number
//! spellings and repeated keys; unknown fields are sprinkled over every object. The protocol's
//! rules are respected (metadata is an object, `forwardedProps` is not `null`, a binary part
//! has an `id`, `url` or `data`, ...), so every generated model is one the parser must accept.
//! Everything borrows from one arena.

use agui_wire::{
    ActivityMessage, AgentCapabilities, AssistantMessage, BinaryInputContent, Bump, Content,
    Context, DataSource, DeveloperMessage, ExecutionCapabilities, Extra, FileSource, FunctionCall,
    HumanInTheLoopCapabilities, IdentityCapabilities, InputContent, InputContentSource, List,
    MediaInputContent, Message, MultiAgentCapabilities, MultimodalCapabilities,
    MultimodalInputCapabilities, MultimodalOutputCapabilities, OutputCapabilities, RawJson,
    ReasoningCapabilities, ReasoningMessage, ResumeEntry, ResumeStatus, RunAgentInput,
    StateCapabilities, Str, SubagentInfo, SystemMessage, TextInputContent, Tool, ToolCall,
    ToolMessage, ToolsCapabilities, TransportCapabilities, UrlSource, UserMessage,
};
use arbitrary::{Result, Unstructured};

/// Pieces strings are made of.
const PIECES: &[&str] = &[
    "a",
    "Z",
    "id-1",
    " ",
    "\"",
    "\\",
    "/",
    "\n",
    "\r",
    "\t",
    "\u{0}",
    "\u{1}",
    "\u{1f}",
    "\u{7f}",
    "é",
    "ß",
    "☕",
    "€",
    "\u{2028}",
    "\u{feff}",
    "😀",
    "𝄞",
    "{",
    "}",
    "[",
    "]",
    ":",
    ",",
    "null",
    "iVBORw0KGgo=",
    "data:image/png;base64,",
    "</script>",
];

/// Number spellings for raw JSON.
const NUMBERS: &[&str] = &[
    "0",
    "-0",
    "1",
    "-1",
    "0.5",
    "1e3",
    "1E+3",
    "-2.5e-7",
    "123456789012345678901234567890",
    "1e400",
    "-0.0e-0",
    "18446744073709551616",
    "9007199254740993",
];

/// Whitespace between tokens of raw JSON.
const SPACES: &[&str] = &["", "", "", " ", "\n", "\t", "\r\n", "  "];

/// Builds model values from fuzz bytes into an arena.
pub struct Gen<'a, 'u, 'd> {
    u: &'u mut Unstructured<'d>,
    arena: &'a Bump,
    /// Nodes left before everything is cut short (keeps inputs small and fast).
    budget: usize,
}

impl<'a, 'u, 'd> Gen<'a, 'u, 'd> {
    /// A generator drawing from `u`, allocating in `arena`.
    pub fn new(u: &'u mut Unstructured<'d>, arena: &'a Bump) -> Self {
        Gen {
            u,
            arena,
            budget: 400,
        }
    }

    fn spend(&mut self) -> bool {
        if self.budget == 0 {
            return false;
        }
        self.budget -= 1;
        true
    }

    fn flip(&mut self) -> Result<bool> {
        if self.budget == 0 {
            return Ok(false);
        }
        self.u.arbitrary()
    }

    fn pick<T: Copy>(&mut self, from: &[T]) -> Result<T> {
        self.u.choose(from).copied()
    }

    /// How many items a list gets (0..=max, fewer when the budget runs low).
    fn count(&mut self, max: usize) -> Result<usize> {
        let n = self.u.int_in_range(0..=max)?;
        Ok(if self.budget < 20 { n.min(1) } else { n })
    }

    /// Some text: pieces, arbitrary characters and long plain runs (to cross SIMD blocks).
    pub fn text(&mut self) -> Result<&'a str> {
        let mut s = String::new();
        let n = self.u.int_in_range(0..=8)?;
        for _ in 0..n {
            match self.u.int_in_range(0..=9)? {
                0 => s.push(self.u.arbitrary::<char>()?),
                1 => {
                    let len = self.u.int_in_range(1..=100)?;
                    s.extend(std::iter::repeat_n('A', len));
                }
                _ => s.push_str(self.pick(PIECES)?),
            }
        }
        Ok(self.arena.alloc_str(&s))
    }

    /// `text` in one of JSON's spellings, as raw string content.
    fn spell(&mut self, text: &str) -> Result<String> {
        let mut out = String::new();
        for c in text.chars() {
            let style = self.u.int_in_range(0..=5)?;
            match c {
                '"' => out.push_str(if style < 3 { "\\\"" } else { "\\u0022" }),
                '\\' => out.push_str(if style < 3 { "\\\\" } else { "\\u005C" }),
                '\n' if style < 3 => out.push_str("\\n"),
                '\r' if style < 3 => out.push_str("\\r"),
                '\t' if style < 3 => out.push_str("\\t"),
                '\u{8}' if style < 3 => out.push_str("\\b"),
                '\u{c}' if style < 3 => out.push_str("\\f"),
                '/' if style == 0 => out.push_str("\\/"),
                c if (c as u32) < 0x20 || style == 5 => {
                    let mut units = [0u16; 2];
                    for unit in c.encode_utf16(&mut units) {
                        if self.u.arbitrary()? {
                            out.push_str(&format!("\\u{unit:04x}"));
                        } else {
                            out.push_str(&format!("\\u{unit:04X}"));
                        }
                    }
                }
                c => out.push(c),
            }
        }
        Ok(out)
    }

    /// A string value: plain text for the writer to escape, or text already escaped.
    pub fn str(&mut self) -> Result<Str<'a>> {
        let text = self.text()?;
        if self.u.arbitrary()? {
            return Ok(Str::new_in(text, self.arena));
        }
        let raw = self.spell(text)?;
        let raw = self.arena.alloc_str(&raw);
        Ok(Str::from_raw(raw).expect("generated escapes are valid"))
    }

    fn opt_str(&mut self) -> Result<Option<Str<'a>>> {
        Ok(if self.flip()? {
            Some(self.str()?)
        } else {
            None
        })
    }

    fn ws(&mut self, out: &mut String) -> Result<()> {
        out.push_str(self.pick(SPACES)?);
        Ok(())
    }

    /// A JSON text, nested at most `depth` deep (`object` forces an object at the top).
    fn json_text(&mut self, out: &mut String, depth: usize, object: bool) -> Result<()> {
        let choice = if object {
            6
        } else if depth == 0 || !self.spend() {
            self.u.int_in_range(0..=4)?
        } else {
            self.u.int_in_range(0..=6)?
        };
        match choice {
            0 => out.push_str("null"),
            1 => out.push_str(if self.u.arbitrary()? { "true" } else { "false" }),
            2 => out.push_str(self.pick(NUMBERS)?),
            3 | 4 => {
                let text = self.text()?;
                let raw = self.spell(text)?;
                out.push('"');
                out.push_str(&raw);
                out.push('"');
            }
            5 => {
                out.push('[');
                let n = self.count(4)?;
                for i in 0..n {
                    if i > 0 {
                        out.push(',');
                    }
                    self.ws(out)?;
                    self.json_text(out, depth.saturating_sub(1), false)?;
                    self.ws(out)?;
                }
                out.push(']');
            }
            _ => {
                out.push('{');
                let n = self.count(4)?;
                let mut keys: Vec<String> = Vec::new();
                for i in 0..n {
                    if i > 0 {
                        out.push(',');
                    }
                    self.ws(out)?;
                    // Now and then a key repeats: the grammar allows it, raw JSON keeps it.
                    let key = match keys.last() {
                        Some(k) if self.u.ratio(1, 8)? => k.clone(),
                        _ => {
                            let text = self.text()?;
                            self.spell(text)?
                        }
                    };
                    out.push('"');
                    out.push_str(&key);
                    out.push('"');
                    keys.push(key);
                    self.ws(out)?;
                    out.push(':');
                    self.ws(out)?;
                    self.json_text(out, depth.saturating_sub(1), false)?;
                    self.ws(out)?;
                }
                out.push('}');
            }
        }
        Ok(())
    }

    fn raw_text(&mut self, object: bool, null: bool) -> Result<RawJson<'a>> {
        let mut s = String::new();
        self.ws(&mut s)?;
        let depth = self.u.int_in_range(0..=6)?;
        self.json_text(&mut s, depth, object)?;
        if !null && s.trim() == "null" {
            s = "{}".into();
        }
        self.ws(&mut s)?;
        let text = self.arena.alloc_str(&s);
        Ok(RawJson::from_text(text).expect("generated JSON is valid"))
    }

    /// Any JSON value, `null` included.
    pub fn raw(&mut self) -> Result<RawJson<'a>> {
        self.raw_text(false, true)
    }

    /// Any JSON value but `null` (optional "any" fields may be absent, not null).
    fn raw_non_null(&mut self) -> Result<Option<RawJson<'a>>> {
        Ok(if self.flip()? {
            Some(self.raw_text(false, false)?)
        } else {
            None
        })
    }

    /// A JSON object (metadata, activity content, capabilities' `custom`).
    fn object(&mut self) -> Result<RawJson<'a>> {
        self.raw_text(true, false)
    }

    fn metadata(&mut self) -> Result<Option<RawJson<'a>>> {
        Ok(if self.flip()? {
            Some(self.object()?)
        } else {
            None
        })
    }

    /// Unknown fields: keys that are never one of the protocol's (an `x-` prefix).
    pub fn extra(&mut self) -> Result<Extra<'a>> {
        let mut e = Extra::default();
        if !self.u.ratio(1, 4)? {
            return Ok(e);
        }
        for _ in 0..self.count(3)? {
            let text = self.text()?;
            let key = format!("x-{text}");
            let key = if self.u.arbitrary()? {
                Str::new_in(self.arena.alloc_str(&key), self.arena)
            } else {
                let raw = format!("x-{}", self.spell(text)?);
                Str::from_raw(self.arena.alloc_str(&raw)).expect("valid escapes")
            };
            let value = self.raw()?;
            e.push(key, value);
        }
        Ok(e)
    }

    fn list<T>(
        &mut self,
        max: usize,
        mut f: impl FnMut(&mut Self) -> Result<T>,
    ) -> Result<List<'a, T>> {
        let mut v = Vec::new();
        for _ in 0..self.count(max)? {
            if !self.spend() {
                break;
            }
            v.push(f(self)?);
        }
        Ok(List::from(v))
    }

    fn opt_list<T>(
        &mut self,
        max: usize,
        f: impl FnMut(&mut Self) -> Result<T>,
    ) -> Result<Option<List<'a, T>>> {
        Ok(if self.flip()? {
            Some(self.list(max, f)?)
        } else {
            None
        })
    }

    fn source(&mut self) -> Result<InputContentSource<'a>> {
        Ok(match self.u.int_in_range(0..=2)? {
            0 => InputContentSource::Data(DataSource {
                value: self.str()?,
                mime_type: self.str()?,
                extra: self.extra()?,
            }),
            1 => InputContentSource::Url(UrlSource {
                value: self.str()?,
                mime_type: self.opt_str()?,
                extra: self.extra()?,
            }),
            _ => InputContentSource::File(FileSource {
                value: self.str()?,
                provider: self.opt_str()?,
                mime_type: self.opt_str()?,
                extra: self.extra()?,
            }),
        })
    }

    fn media(&mut self) -> Result<MediaInputContent<'a>> {
        Ok(MediaInputContent {
            id: self.opt_str()?,
            source: self.source()?,
            metadata: self.raw_non_null()?,
            extra: self.extra()?,
        })
    }

    /// One content part of any type.
    pub fn part(&mut self) -> Result<InputContent<'a>> {
        Ok(match self.u.int_in_range(0..=5)? {
            0 => InputContent::Text(TextInputContent {
                id: self.opt_str()?,
                text: self.str()?,
                metadata: self.raw_non_null()?,
                extra: self.extra()?,
            }),
            1 => InputContent::Image(self.media()?),
            2 => InputContent::Audio(self.media()?),
            3 => InputContent::Video(self.media()?),
            4 => InputContent::Document(self.media()?),
            _ => {
                let mut b = BinaryInputContent {
                    mime_type: self.str()?,
                    id: self.opt_str()?,
                    url: self.opt_str()?,
                    data: self.opt_str()?,
                    filename: self.opt_str()?,
                    extra: self.extra()?,
                };
                if b.id.is_none() && b.url.is_none() && b.data.is_none() {
                    b.data = Some(self.str()?);
                }
                InputContent::Binary(b)
            }
        })
    }

    fn content(&mut self) -> Result<Content<'a>> {
        Ok(if self.u.arbitrary()? {
            Content::Text(self.str()?)
        } else {
            Content::Parts(self.list(4, |g| g.part())?)
        })
    }

    fn tool_call(&mut self) -> Result<ToolCall<'a>> {
        Ok(ToolCall {
            id: self.str()?,
            r#type: if self.flip()? {
                Some(Str::new("function"))
            } else {
                None
            },
            function: FunctionCall {
                name: self.str()?,
                arguments: self.str()?,
                extra: self.extra()?,
            },
            encrypted_value: self.opt_str()?,
            metadata: self.metadata()?,
            extra: self.extra()?,
        })
    }

    /// One message of any role.
    pub fn message(&mut self) -> Result<Message<'a>> {
        Ok(match self.u.int_in_range(0..=6)? {
            0 => Message::Developer(DeveloperMessage {
                id: self.str()?,
                content: self.str()?,
                name: self.opt_str()?,
                encrypted_value: self.opt_str()?,
                metadata: self.metadata()?,
                subagent_run_id: self.opt_str()?,
                extra: self.extra()?,
            }),
            1 => Message::System(SystemMessage {
                id: self.str()?,
                content: self.str()?,
                name: self.opt_str()?,
                encrypted_value: self.opt_str()?,
                metadata: self.metadata()?,
                subagent_run_id: self.opt_str()?,
                extra: self.extra()?,
            }),
            2 => Message::Assistant(AssistantMessage {
                id: self.str()?,
                content: self.opt_str()?,
                tool_calls: self.opt_list(3, |g| g.tool_call())?,
                name: self.opt_str()?,
                encrypted_value: self.opt_str()?,
                metadata: self.metadata()?,
                subagent_run_id: self.opt_str()?,
                extra: self.extra()?,
            }),
            3 => Message::User(UserMessage {
                id: self.str()?,
                content: self.content()?,
                name: self.opt_str()?,
                encrypted_value: self.opt_str()?,
                metadata: self.metadata()?,
                subagent_run_id: self.opt_str()?,
                extra: self.extra()?,
            }),
            4 => Message::Tool(ToolMessage {
                id: self.str()?,
                content: self.content()?,
                tool_call_id: self.str()?,
                error: self.opt_str()?,
                encrypted_value: self.opt_str()?,
                metadata: self.metadata()?,
                subagent_run_id: self.opt_str()?,
                extra: self.extra()?,
            }),
            5 => Message::Activity(ActivityMessage {
                id: self.str()?,
                activity_type: self.str()?,
                content: self.object()?,
                metadata: self.metadata()?,
                subagent_run_id: self.opt_str()?,
                extra: self.extra()?,
            }),
            _ => Message::Reasoning(ReasoningMessage {
                id: self.str()?,
                content: self.str()?,
                encrypted_value: self.opt_str()?,
                metadata: self.metadata()?,
                subagent_run_id: self.opt_str()?,
                extra: self.extra()?,
            }),
        })
    }

    fn tool(&mut self) -> Result<Tool<'a>> {
        Ok(Tool {
            name: self.str()?,
            description: self.opt_str()?,
            parameters: self.raw_non_null()?,
            metadata: self.metadata()?,
            extra: self.extra()?,
        })
    }

    /// A whole request body.
    pub fn input(&mut self) -> Result<RunAgentInput<'a>> {
        Ok(RunAgentInput {
            thread_id: self.str()?,
            run_id: self.str()?,
            protocol_version: self.opt_str()?,
            parent_run_id: self.opt_str()?,
            state: if self.flip()? {
                Some(self.raw()?)
            } else {
                None
            },
            messages: self.list(8, |g| g.message())?,
            tools: self.opt_list(3, |g| g.tool())?,
            context: self.opt_list(3, |g| {
                Ok(Context {
                    description: g.str()?,
                    value: g.str()?,
                    extra: g.extra()?,
                })
            })?,
            forwarded_props: self.raw_non_null()?,
            resume: self.opt_list(3, |g| {
                Ok(ResumeEntry {
                    interrupt_id: g.str()?,
                    status: if g.u.arbitrary()? {
                        ResumeStatus::Resolved
                    } else {
                        ResumeStatus::Cancelled
                    },
                    payload: g.raw_non_null()?,
                    metadata: g.metadata()?,
                    extra: g.extra()?,
                })
            })?,
            extra: self.extra()?,
        })
    }

    /// A count as the protocol allows it: 0 ..= 2^53 - 1.
    fn safe_int(&mut self) -> Result<u64> {
        Ok(self.u.arbitrary::<u64>()? & ((1 << 53) - 1))
    }

    fn flag(&mut self) -> Result<Option<bool>> {
        Ok(if self.flip()? {
            Some(self.u.arbitrary()?)
        } else {
            None
        })
    }

    fn group<T>(&mut self, f: impl FnOnce(&mut Self) -> Result<T>) -> Result<Option<T>> {
        Ok(if self.flip()? { Some(f(self)?) } else { None })
    }

    /// A whole capabilities document.
    pub fn capabilities(&mut self) -> Result<AgentCapabilities<'a>> {
        Ok(AgentCapabilities {
            identity: self.group(|g| {
                Ok(IdentityCapabilities {
                    name: g.opt_str()?,
                    r#type: g.opt_str()?,
                    description: g.opt_str()?,
                    version: g.opt_str()?,
                    provider: g.opt_str()?,
                    documentation_url: g.opt_str()?,
                    metadata: g.metadata()?,
                    extra: g.extra()?,
                })
            })?,
            transport: self.group(|g| {
                Ok(TransportCapabilities {
                    streaming: g.flag()?,
                    websocket: g.flag()?,
                    http_binary: g.flag()?,
                    push_notifications: g.flag()?,
                    resumable: g.flag()?,
                    extra: g.extra()?,
                })
            })?,
            tools: self.group(|g| {
                Ok(ToolsCapabilities {
                    supported: g.flag()?,
                    items: g.opt_list(3, |g| g.tool())?,
                    parallel_calls: g.flag()?,
                    client_provided: g.flag()?,
                    extra: g.extra()?,
                })
            })?,
            output: self.group(|g| {
                Ok(OutputCapabilities {
                    structured_output: g.flag()?,
                    supported_mime_types: g.opt_list(3, |g| g.str())?,
                    extra: g.extra()?,
                })
            })?,
            state: self.group(|g| {
                Ok(StateCapabilities {
                    snapshots: g.flag()?,
                    deltas: g.flag()?,
                    memory: g.flag()?,
                    persistent_state: g.flag()?,
                    extra: g.extra()?,
                })
            })?,
            multi_agent: self.group(|g| {
                Ok(MultiAgentCapabilities {
                    supported: g.flag()?,
                    delegation: g.flag()?,
                    handoffs: g.flag()?,
                    subagents: g.opt_list(3, |g| {
                        Ok(SubagentInfo {
                            name: g.str()?,
                            description: g.opt_str()?,
                            extra: g.extra()?,
                        })
                    })?,
                    extra: g.extra()?,
                })
            })?,
            reasoning: self.group(|g| {
                Ok(ReasoningCapabilities {
                    supported: g.flag()?,
                    streaming: g.flag()?,
                    encrypted: g.flag()?,
                    extra: g.extra()?,
                })
            })?,
            multimodal: self.group(|g| {
                Ok(MultimodalCapabilities {
                    input: g.group(|g| {
                        Ok(MultimodalInputCapabilities {
                            image: g.flag()?,
                            audio: g.flag()?,
                            video: g.flag()?,
                            pdf: g.flag()?,
                            file: g.flag()?,
                            extra: g.extra()?,
                        })
                    })?,
                    output: g.group(|g| {
                        Ok(MultimodalOutputCapabilities {
                            image: g.flag()?,
                            audio: g.flag()?,
                            extra: g.extra()?,
                        })
                    })?,
                    extra: g.extra()?,
                })
            })?,
            execution: self.group(|g| {
                Ok(ExecutionCapabilities {
                    code_execution: g.flag()?,
                    sandboxed: g.flag()?,
                    max_iterations: if g.flip()? { Some(g.safe_int()?) } else { None },
                    max_execution_time: if g.flip()? { Some(g.safe_int()?) } else { None },
                    extra: g.extra()?,
                })
            })?,
            human_in_the_loop: self.group(|g| {
                Ok(HumanInTheLoopCapabilities {
                    supported: g.flag()?,
                    approvals: g.flag()?,
                    interventions: g.flag()?,
                    feedback: g.flag()?,
                    interrupts: g.flag()?,
                    approve_with_edits: g.flag()?,
                    extra: g.extra()?,
                })
            })?,
            custom: if self.flip()? {
                Some(self.object()?)
            } else {
                None
            },
            extra: self.extra()?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::to_json::Conv;

    /// Generated models are what the parser accepts: written by serde_json from their JSON
    /// reading, they parse back to the same JSON.
    #[test]
    fn generated_models_are_valid() {
        let mut seed = 1u64;
        for _ in 0..300 {
            let bytes: Vec<u8> = (0..2000)
                .map(|_| {
                    seed = seed
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    (seed >> 33) as u8
                })
                .collect();
            let arena = Bump::new();
            let mut u = Unstructured::new(&bytes);
            let mut g = Gen::new(&mut u, &arena);
            let Ok(doc) = g.input() else { continue };
            let want = Conv::owned().input(&doc);
            let text = serde_json::to_vec(&want).unwrap();
            let parsed = RunAgentInput::parse(&text, &arena)
                .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&text)));
            assert_eq!(Conv::owned().input(&parsed), want);

            let mut u = Unstructured::new(&bytes);
            let mut g = Gen::new(&mut u, &arena);
            let Ok(caps) = g.capabilities() else { continue };
            let want = Conv::owned().capabilities(&caps);
            let text = serde_json::to_vec(&want).unwrap();
            let parsed = AgentCapabilities::parse(&text, &arena)
                .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&text)));
            assert_eq!(Conv::owned().capabilities(&parsed), want);
        }
    }
}
