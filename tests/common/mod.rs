//! Shared helpers for the writer, edit, serde and SDK tests: a small deterministic generator of
//! AG-UI documents (compact JSON text, every role, part and source type, escapes, unicode,
//! nested raw JSON, unknown fields at random positions, random key order), a whitespace
//! sprinkler, and the sample and corpus files.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// splitmix64: small, deterministic, good enough to pick shapes.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    pub fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
    pub fn pick<'x, T>(&mut self, items: &'x [T]) -> &'x T {
        &items[self.below(items.len())]
    }
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }
}

/// What the generator may produce.
#[derive(Clone, Copy)]
pub struct Mode {
    /// Only canonical escapes in strings (what serde_json writes), so `Serialize` must give
    /// the writer's bytes.
    pub canonical: bool,
    /// Only what the 1.0.0 SDKs accept: no `binary` part, `type` on tool calls, `description`
    /// on tools.
    pub sdk: bool,
    /// Shuffle keys and put unknown fields anywhere.
    pub shuffle: bool,
}

pub struct Gen {
    pub rng: Rng,
    pub mode: Mode,
    n: usize,
}

/// String contents (raw, escaped) the generator draws from.
const CANONICAL_PIECES: &[&str] = &[
    "hello",
    "What is shown here?",
    r#"quote \" inside"#,
    r"back\\slash",
    r"line\nbreak",
    r"tab\there",
    r"\u0001\u001f",
    r"\b\f\r",
    "café ☕",
    "日本語",
    "😀",
    "",
    " spaces  ",
    r#"{\"city\":\"Seattle\"}"#,
];
const EXTRA_PIECES: &[&str] = &[
    r"\/",
    r"\u0041\u0062",
    r"caf\u00e9",
    r"\ud83d\ude00",
    r"\uD83D\uDE00",
    r"\u20AC",
];

impl Gen {
    pub fn new(seed: u64, mode: Mode) -> Gen {
        Gen {
            rng: Rng(seed),
            mode,
            n: 0,
        }
    }

    fn id(&mut self, prefix: &str) -> String {
        self.n += 1;
        format!("\"{prefix}-{}\"", self.n)
    }

    /// A JSON string literal with escapes and unicode.
    pub fn string(&mut self) -> String {
        let mut s = String::from("\"");
        for _ in 0..self.rng.below(4) {
            let piece = if !self.mode.canonical && self.rng.chance(30) {
                *self.rng.pick(EXTRA_PIECES)
            } else {
                *self.rng.pick(CANONICAL_PIECES)
            };
            s.push_str(piece);
        }
        s.push('"');
        s
    }

    fn number(&mut self) -> String {
        self.rng
            .pick(&[
                "0",
                "-1",
                "42",
                "3.25",
                "-0.5",
                "1e5",
                "2.5E-3",
                "-7e+2",
                "1.0",
                "123456789012",
            ])
            .to_string()
    }

    /// Any JSON value, nested up to `depth`.
    pub fn value(&mut self, depth: usize) -> String {
        let k = self.rng.below(if depth == 0 { 5 } else { 7 });
        match k {
            0 => "null".into(),
            1 => if self.rng.chance(50) { "true" } else { "false" }.into(),
            2 => self.number(),
            3 | 4 => self.string(),
            5 => {
                let items: Vec<String> = (0..self.rng.below(4))
                    .map(|_| self.value(depth - 1))
                    .collect();
                format!("[{}]", items.join(","))
            }
            _ => self.object_value(depth),
        }
    }

    /// A JSON object with random keys.
    pub fn object_value(&mut self, depth: usize) -> String {
        let items: Vec<String> = (0..self.rng.below(4))
            .map(|i| {
                let v = self.value(depth.saturating_sub(1));
                format!("\"k{i}{}\":{v}", if self.rng.chance(20) { "é" } else { "" })
            })
            .collect();
        format!("{{{}}}", items.join(","))
    }

    fn non_null(&mut self, depth: usize) -> String {
        loop {
            let v = self.value(depth);
            if v != "null" {
                return v;
            }
        }
    }

    /// Joins fields (key, value text) into an object, with unknown fields and shuffling.
    fn object(&mut self, mut fields: Vec<(String, String)>) -> String {
        if self.rng.chance(30) {
            for i in 0..1 + self.rng.below(2) {
                let key = if !self.mode.canonical && self.rng.chance(30) {
                    format!("x-\\u0065xtra{i}")
                } else {
                    format!("x-extra-{i}")
                };
                let value = self.value(2);
                let at = if self.mode.shuffle {
                    self.rng.below(fields.len() + 1)
                } else {
                    fields.len()
                };
                fields.insert(at, (key, value));
            }
        }
        if self.mode.shuffle && self.rng.chance(40) {
            self.rng.shuffle(&mut fields);
        }
        let body: Vec<String> = fields
            .into_iter()
            .map(|(k, v)| format!("\"{k}\":{v}"))
            .collect();
        format!("{{{}}}", body.join(","))
    }

    fn opt(&mut self, fields: &mut Vec<(String, String)>, key: &str, value: String) {
        if self.rng.chance(50) {
            fields.push((key.into(), value));
        }
    }

    fn metadata(&mut self) -> String {
        self.object_value(2)
    }

    fn source(&mut self) -> String {
        let mut f = Vec::new();
        match self.rng.below(3) {
            0 => {
                f.push(("type".into(), "\"data\"".into()));
                f.push(("value".into(), "\"iVBORw0KGgoAAAANSUhEUgAAAAE=\"".into()));
                f.push(("mimeType".into(), "\"image/png\"".into()));
            }
            1 => {
                f.push(("type".into(), "\"url\"".into()));
                let url = if self.rng.chance(30) {
                    "\"data:image/png;base64,iVBORw0KGgo=\""
                } else if self.mode.canonical {
                    "\"https://example.com/a.png?x=1&y=é\""
                } else {
                    "\"https://example.com/a.png?x=1&y=\\u00e9\""
                };
                f.push(("value".into(), url.into()));
                let m = "\"audio/wav\"".to_string();
                self.opt(&mut f, "mimeType", m);
            }
            _ => {
                f.push(("type".into(), "\"file\"".into()));
                f.push(("value".into(), self.id("file")));
                let p = self.string();
                self.opt(&mut f, "provider", p);
                let m = "\"application/pdf\"".to_string();
                self.opt(&mut f, "mimeType", m);
            }
        }
        self.object(f)
    }

    fn part(&mut self) -> String {
        let kinds: &[&str] = if self.mode.sdk {
            &["text", "image", "audio", "video", "document"]
        } else {
            &["text", "image", "audio", "video", "document", "binary"]
        };
        let kind = *self.rng.pick(kinds);
        let mut f = vec![("type".to_string(), format!("\"{kind}\""))];
        match kind {
            "text" => {
                let id = self.id("part");
                self.opt(&mut f, "id", id);
                f.push(("text".into(), self.string()));
                let m = self.non_null(2);
                self.opt(&mut f, "metadata", m);
            }
            "binary" => {
                f.push(("mimeType".into(), "\"application/octet-stream\"".into()));
                f.push(("data".into(), "\"AAECAwQ=\"".into()));
                let u = "\"https://example.com/b.bin\"".to_string();
                self.opt(&mut f, "url", u);
                let n = "\"payload.bin\"".to_string();
                self.opt(&mut f, "filename", n);
            }
            _ => {
                let id = self.id("part");
                self.opt(&mut f, "id", id);
                f.push(("source".into(), self.source()));
                let m = self.non_null(2);
                self.opt(&mut f, "metadata", m);
            }
        }
        self.object(f)
    }

    fn content(&mut self) -> String {
        if self.rng.chance(40) {
            self.string()
        } else {
            let parts: Vec<String> = (0..self.rng.below(4)).map(|_| self.part()).collect();
            format!("[{}]", parts.join(","))
        }
    }

    fn tool_call(&mut self) -> String {
        let mut f = vec![("id".to_string(), self.id("call"))];
        if self.mode.sdk || self.rng.chance(70) {
            f.push(("type".into(), "\"function\"".into()));
        }
        let args = self.string();
        let func = self.object(vec![
            ("name".into(), "\"get_weather\"".into()),
            ("arguments".into(), args),
        ]);
        f.push(("function".into(), func));
        let e = self.string();
        self.opt(&mut f, "encryptedValue", e);
        let m = self.metadata();
        self.opt(&mut f, "metadata", m);
        self.object(f)
    }

    pub fn message(&mut self) -> String {
        let role = *self.rng.pick(&[
            "developer",
            "system",
            "assistant",
            "user",
            "tool",
            "activity",
            "reasoning",
        ]);
        let mut f = Vec::new();
        let s = self.id("sub");
        self.opt(&mut f, "subagentRunId", s);
        f.push(("id".to_string(), self.id("msg")));
        f.push(("role".to_string(), format!("\"{role}\"")));
        let with_common = |g: &mut Gen, f: &mut Vec<(String, String)>, encrypted: bool| {
            let n = g.string();
            g.opt(f, "name", n);
            if encrypted {
                let e = g.string();
                g.opt(f, "encryptedValue", e);
            }
            let m = g.metadata();
            g.opt(f, "metadata", m);
        };
        match role {
            "developer" | "system" => {
                with_common(self, &mut f, true);
                f.push(("content".into(), self.string()));
            }
            "assistant" => {
                with_common(self, &mut f, true);
                let c = self.string();
                self.opt(&mut f, "content", c);
                if self.rng.chance(60) {
                    let calls: Vec<String> =
                        (0..self.rng.below(3)).map(|_| self.tool_call()).collect();
                    f.push(("toolCalls".into(), format!("[{}]", calls.join(","))));
                }
            }
            "user" => {
                with_common(self, &mut f, true);
                f.push(("content".into(), self.content()));
            }
            "tool" => {
                f.push(("content".into(), self.content()));
                f.push(("toolCallId".into(), self.id("call")));
                let e = self.string();
                self.opt(&mut f, "error", e);
                let e = self.string();
                self.opt(&mut f, "encryptedValue", e);
                let m = self.metadata();
                self.opt(&mut f, "metadata", m);
            }
            "activity" => {
                f.push(("activityType".into(), "\"PLAN\"".into()));
                f.push(("content".into(), self.object_value(3)));
                let m = self.metadata();
                self.opt(&mut f, "metadata", m);
            }
            _ => {
                f.push(("content".into(), self.string()));
                let e = self.string();
                self.opt(&mut f, "encryptedValue", e);
                let m = self.metadata();
                self.opt(&mut f, "metadata", m);
            }
        }
        self.object(f)
    }

    /// A whole `RunAgentInput`, compact.
    pub fn document(&mut self) -> String {
        let mut f = vec![
            ("threadId".to_string(), self.id("thread")),
            ("runId".to_string(), self.id("run")),
        ];
        let pv = "\"1.0\"".to_string();
        self.opt(&mut f, "protocolVersion", pv);
        let p = self.id("run");
        self.opt(&mut f, "parentRunId", p);
        let s = self.value(4);
        self.opt(&mut f, "state", s);
        let messages: Vec<String> = (0..self.rng.below(8)).map(|_| self.message()).collect();
        f.push(("messages".into(), format!("[{}]", messages.join(","))));
        if self.rng.chance(60) {
            let tools: Vec<String> = (0..self.rng.below(3))
                .map(|_| {
                    let mut t = vec![("name".to_string(), "\"search\"".to_string())];
                    if self.mode.sdk || self.rng.chance(70) {
                        t.push(("description".into(), self.string()));
                    }
                    let p = self.non_null(3);
                    self.opt(&mut t, "parameters", p);
                    let m = self.metadata();
                    self.opt(&mut t, "metadata", m);
                    self.object(t)
                })
                .collect();
            f.push(("tools".into(), format!("[{}]", tools.join(","))));
        }
        if self.rng.chance(60) {
            let ctx: Vec<String> = (0..self.rng.below(3))
                .map(|_| {
                    let d = self.string();
                    let v = self.string();
                    self.object(vec![("description".into(), d), ("value".into(), v)])
                })
                .collect();
            f.push(("context".into(), format!("[{}]", ctx.join(","))));
        }
        let fp = self.non_null(3);
        self.opt(&mut f, "forwardedProps", fp);
        if self.rng.chance(40) {
            let entries: Vec<String> = (0..self.rng.below(3))
                .map(|_| {
                    let status = if self.rng.chance(50) {
                        "\"resolved\""
                    } else {
                        "\"cancelled\""
                    };
                    let mut e = vec![
                        ("interruptId".to_string(), self.id("int")),
                        ("status".to_string(), status.to_string()),
                    ];
                    let p = self.non_null(2);
                    self.opt(&mut e, "payload", p);
                    let m = self.metadata();
                    self.opt(&mut e, "metadata", m);
                    self.object(e)
                })
                .collect();
            f.push(("resume".into(), format!("[{}]", entries.join(","))));
        }
        self.object(f)
    }
}

/// Puts random whitespace between the tokens of compact JSON text (outside strings).
pub fn sprinkle(text: &str, rng: &mut Rng) -> String {
    let ws = [" ", "\n", "\t", "\r\n", "  "];
    let mut out = String::with_capacity(text.len() * 2);
    let mut in_str = false;
    let mut escape = false;
    for c in text.chars() {
        if in_str {
            out.push(c);
            if escape {
                escape = false;
            } else if c == '\\' {
                escape = true;
            } else if c == '"' {
                in_str = false;
            }
            continue;
        }
        if matches!(c, '}' | ']' | ',' | ':') && rng.chance(30) {
            let w: &&str = rng.pick(&ws[..]);
            out.push_str(w);
        }
        out.push(c);
        if c == '"' {
            in_str = true;
        } else if matches!(c, '{' | '[' | ',' | ':') && rng.chance(30) {
            let w: &&str = rng.pick(&ws[..]);
            out.push_str(w);
        }
    }
    out
}

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub fn read(rel: &str) -> Vec<u8> {
    let p = root().join(rel);
    std::fs::read(&p).unwrap_or_else(|e| panic!("reading {}: {e}", p.display()))
}

/// The accepted documents of the conformance corpus (`tests/conformance/accept/*.json`,
/// without the `.expected.json` files), sorted; empty when the corpus is not there.
pub fn corpus() -> Vec<(String, Vec<u8>)> {
    let dir = root().join("tests/conformance/accept");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!("note: no conformance corpus at {}", dir.display());
        return Vec::new();
    };
    let mut names: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            let n = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            n.ends_with(".json") && !n.ends_with(".expected.json")
        })
        .collect();
    names.sort();
    names
        .into_iter()
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&p).unwrap())
        })
        .collect()
}

/// Whether a corpus document is an `AgentCapabilities` document.
pub fn is_capabilities(name: &str) -> bool {
    name.starts_with("capabilities")
}

/// Whether `text` has whitespace outside strings.
pub fn has_ws(text: &[u8]) -> bool {
    let mut in_str = false;
    let mut escape = false;
    for &c in text {
        if in_str {
            if escape {
                escape = false;
            } else if c == b'\\' {
                escape = true;
            } else if c == b'"' {
                in_str = false;
            }
        } else if c == b'"' {
            in_str = true;
        } else if matches!(c, b' ' | b'\n' | b'\t' | b'\r') {
            return true;
        }
    }
    false
}

pub fn path_exists(p: &Path) -> bool {
    p.exists()
}
