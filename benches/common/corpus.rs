//! Deterministic AG-UI 1.0 `RunAgentInput` corpora for the benches.
//!
//! Every corpus is compact JSON, as the SDKs emit it (fields in the Python models' order,
//! optional fields left out rather than written as `null`), produced from a fixed seed by
//! a tiny PRNG, so every run and every machine parses the same bytes. While writing, the
//! generator records what a correct parser must find ([`Summary`]), and each peer's result
//! is compared with it before it is timed.
//!
//! Three families, each at several sizes:
//! - [`media_heavy`]: a few messages whose user content parts carry base64 `data` sources
//!   (image/png, audio/wav, application/pdf) adding up to the requested size;
//! - [`chat_heavy`]: N messages of every role, with escapes, non-ASCII, emoji, tool calls
//!   whose `arguments` is a JSON-encoded string, tools with JSON-schema parameters, context;
//!   [`Dialect::AgUiCore`] gives the variant the `ag-ui-core` crate can read (UUID ids,
//!   string content only, none of the roles it lacks);
//! - [`state_heavy`]: a large nested `state` and `forwardedProps` (readable by `ag-ui-core`).

use std::fmt::Write as _;

/// What a parser must report for a corpus; peers fill in what their model can see.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// `messages.len()`.
    pub messages: usize,
    /// Tool calls over all assistant messages.
    pub tool_calls: usize,
    /// Decoded UTF-8 bytes of every string message content and every text part.
    pub text_bytes: usize,
    /// Bytes of every `data` source `value` (base64 text, as on the wire).
    pub media_bytes: usize,
    /// Decoded bytes of every tool call's `function.arguments`.
    pub args_bytes: usize,
    /// `tools.len()`.
    pub tools: usize,
    /// `context.len()`.
    pub context: usize,
    /// `resume.len()`.
    pub resume: usize,
    /// Top-level keys of `state` (peers with a parsed value fill this in).
    pub state_keys: Option<usize>,
    /// Raw JSON length of `state` (peers holding raw JSON fill this in).
    pub state_raw_len: Option<usize>,
    /// Top-level keys of `forwardedProps`.
    pub forwarded_keys: Option<usize>,
    /// Raw JSON length of `forwardedProps`.
    pub forwarded_raw_len: Option<usize>,
}

impl Summary {
    /// This summary with the raw lengths of `state` and `forwardedProps` read from `bytes`:
    /// for a document rewritten from the one summarised (other spacing, other key order),
    /// whose raw values keep their meaning but not their bytes.
    pub fn with_raw_lens_of(&self, bytes: &[u8]) -> Summary {
        #[derive(serde::Deserialize)]
        #[serde(rename_all = "camelCase")]
        struct Raw<'a> {
            #[serde(borrow)]
            state: Option<&'a serde_json::value::RawValue>,
            #[serde(borrow)]
            forwarded_props: Option<&'a serde_json::value::RawValue>,
        }
        let raw: Raw<'_> = serde_json::from_slice(bytes).expect("valid JSON");
        let len = |r: Option<&serde_json::value::RawValue>| r.map_or(0, |r| r.get().len());
        Summary {
            state_raw_len: Some(len(raw.state)),
            forwarded_raw_len: Some(len(raw.forwarded_props)),
            ..self.clone()
        }
    }

    /// Compares a peer's summary with the expected one; `None` fields of the peer are
    /// not compared (its model does not see them).
    pub fn check(&self, got: &Summary) -> Result<(), String> {
        let mut diffs = Vec::new();
        macro_rules! same {
            ($($f:ident),*) => {$(
                if self.$f != got.$f {
                    diffs.push(format!("{}: expected {}, got {}", stringify!($f), self.$f, got.$f));
                }
            )*};
        }
        same!(
            messages,
            tool_calls,
            text_bytes,
            media_bytes,
            args_bytes,
            tools,
            context,
            resume
        );
        macro_rules! same_opt {
            ($($f:ident),*) => {$(
                if got.$f.is_some() && self.$f != got.$f {
                    diffs.push(format!("{}: expected {:?}, got {:?}", stringify!($f), self.$f, got.$f));
                }
            )*};
        }
        same_opt!(state_keys, state_raw_len, forwarded_keys, forwarded_raw_len);
        if diffs.is_empty() {
            Ok(())
        } else {
            Err(diffs.join("; "))
        }
    }
}

/// One generated document.
pub struct Corpus {
    /// Family name, used as the criterion group prefix (`chat_heavy`).
    pub family: &'static str,
    /// Size label, the criterion group suffix (`1000`, `8MB`).
    pub label: String,
    /// The JSON bytes.
    pub bytes: Vec<u8>,
    /// What a correct parse finds.
    pub expect: Summary,
    /// Whether the `ag-ui-core` 0.1 model can read it (UUID ids, string content, ...).
    pub ag_ui_core_readable: bool,
}

impl Corpus {
    /// `chat_heavy/1000`.
    pub fn group_name(&self) -> String {
        format!("{}/{}", self.family, self.label)
    }
}

/// Which protocol shape a chat corpus follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// AG-UI 1.0 as the current SDKs emit it: every role, content parts, metadata, resume.
    Modern,
    /// The subset the `ag-ui-core` 0.1 crate reads: UUID thread/run/message ids, string
    /// content only, roles developer/system/assistant/user/tool, state/tools/context/
    /// forwardedProps always present. Still valid AG-UI 1.0.
    AgUiCore,
}

// ---------------------------------------------------------------------------------------
// PRNG

/// splitmix64: tiny, fast, and good enough to make varied documents from a seed.
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    /// Next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n > 0`; the tiny modulo bias does not matter here).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// Uniform in `lo..=hi`.
    pub fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + self.below(hi - lo + 1)
    }

    /// True with probability `pct`%.
    pub fn chance(&mut self, pct: u64) -> bool {
        self.next_u64() % 100 < pct
    }

    /// A uniformly chosen element.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    /// A uniformly chosen string.
    pub fn pick_str(&mut self, items: &[&'static str]) -> &'static str {
        items[self.below(items.len())]
    }

    /// A float in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Fills `out` with random bytes.
    pub fn fill(&mut self, out: &mut [u8]) {
        let mut chunks = out.chunks_exact_mut(8);
        for c in &mut chunks {
            c.copy_from_slice(&self.next_u64().to_le_bytes());
        }
        let rest = chunks.into_remainder();
        let last = self.next_u64().to_le_bytes();
        rest.copy_from_slice(&last[..rest.len()]);
    }
}

// ---------------------------------------------------------------------------------------
// JSON writing

/// Compact JSON writer with the string escaping the SDKs use.
struct W {
    out: Vec<u8>,
}

impl W {
    fn with_capacity(n: usize) -> Self {
        W {
            out: Vec::with_capacity(n),
        }
    }

    fn raw(&mut self, s: &str) {
        self.out.extend_from_slice(s.as_bytes());
    }

    fn byte(&mut self, b: u8) {
        self.out.push(b);
    }

    /// A JSON string. With `ascii` set, non-ASCII is written as `\uXXXX` (surrogate pairs
    /// above the BMP), as Python's `json.dumps` does by default; otherwise it stays UTF-8,
    /// as pydantic and `JSON.stringify` write it.
    fn string(&mut self, s: &str, ascii: bool) {
        self.byte(b'"');
        let bytes = s.as_bytes();
        let mut start = 0;
        for (i, c) in s.char_indices() {
            let esc: Option<&str> = match c {
                '"' => Some("\\\""),
                '\\' => Some("\\\\"),
                '\n' => Some("\\n"),
                '\r' => Some("\\r"),
                '\t' => Some("\\t"),
                '\u{8}' => Some("\\b"),
                '\u{c}' => Some("\\f"),
                _ => None,
            };
            let needs_u = (c as u32) < 0x20 || (ascii && !c.is_ascii());
            if esc.is_none() && !needs_u {
                continue;
            }
            self.out.extend_from_slice(&bytes[start..i]);
            start = i + c.len_utf8();
            if let Some(e) = esc {
                self.raw(e);
            } else {
                let mut units = [0u16; 2];
                for u in c.encode_utf16(&mut units) {
                    let _ = write!(Hex(&mut self.out), "\\u{:04x}", u);
                }
            }
        }
        self.out.extend_from_slice(&bytes[start..]);
        self.byte(b'"');
    }

    fn key(&mut self, k: &str) {
        self.string(k, false);
        self.byte(b':');
    }

    /// `"key":"value",` pieces are assembled by the callers with explicit commas.
    fn kv_str(&mut self, k: &str, v: &str, ascii: bool) {
        self.key(k);
        self.string(v, ascii);
    }

    fn len(&self) -> usize {
        self.out.len()
    }
}

/// `fmt::Write` into a byte vector.
struct Hex<'a>(&'a mut Vec<u8>);

impl std::fmt::Write for Hex<'_> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.0.extend_from_slice(s.as_bytes());
        Ok(())
    }
}

/// Standard base64 with padding, written straight into `out`.
fn base64_into(out: &mut Vec<u8>, data: &[u8]) {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    out.reserve(data.len().div_ceil(3) * 4);
    let mut chunks = data.chunks_exact(3);
    for c in &mut chunks {
        let n = (u32::from(c[0]) << 16) | (u32::from(c[1]) << 8) | u32::from(c[2]);
        out.extend_from_slice(&[
            A[(n >> 18) as usize & 63],
            A[(n >> 12) as usize & 63],
            A[(n >> 6) as usize & 63],
            A[n as usize & 63],
        ]);
    }
    match *chunks.remainder() {
        [a] => {
            let n = u32::from(a) << 16;
            out.extend_from_slice(&[A[(n >> 18) as usize & 63], A[(n >> 12) as usize & 63]]);
            out.extend_from_slice(b"==");
        }
        [a, b] => {
            let n = (u32::from(a) << 16) | (u32::from(b) << 8);
            out.extend_from_slice(&[
                A[(n >> 18) as usize & 63],
                A[(n >> 12) as usize & 63],
                A[(n >> 6) as usize & 63],
                b'=',
            ]);
        }
        _ => {}
    }
}

// ---------------------------------------------------------------------------------------
// Text material

const SENTENCES: &[&str] = &[
    "Can you check the weather in Paris for tomorrow morning?",
    "Here is the summary you asked for, with the three main points first.",
    "The build failed on CI because the lockfile was out of date.",
    "I found 3 flights under $400; the cheapest leaves at 06:45.",
    "Let me look that up in the knowledge base before I answer.",
    "He said \"ship it\" and then the deploy went out at 5 p.m.",
    "The path is C:\\Users\\anna\\Documents\\report.docx on her laptop.",
    "Please keep the answer short: two sentences at most.",
    "Revenue grew 12.5% quarter over quarter, mostly from the EU region.",
    "Pourquoi le café est-il fermé à midi ? Voilà la réponse détaillée.",
    "Die Größe der Datei überschreitet das Limit; bitte prüfe die Einstellungen.",
    "¿Puedes resumir el informe del año pasado? Gracias, señor Muñoz.",
    "Ça marche très bien, merci beaucoup ! À bientôt.",
    "東京の天気を教えてください。明日は雨が降りますか？",
    "请帮我总结这份文件的主要内容，并列出三个要点。",
    "이 코드를 리팩터링해 주세요. 테스트도 추가해 주세요.",
    "Отличная работа, всё готово к релизу.",
    "Great news 🎉 the migration finished without errors ✅",
    "Thanks! 👍🏽 I'll review it after lunch 🍜",
    "Our family plan 👨‍👩‍👧 covers up to five devices 🚀",
    "Step 1:\tinstall the CLI\nStep 2:\trun `agent init`\nStep 3:\tdeploy",
    "Quote from the docs: \"tools are declared by the frontend\".",
    "The regex is ^[a-z]+\\d{2,4}$ and it matches \"abc123\".",
    "Use the naïve approach first, then optimise the hot path.",
];

const CODE_BLOCKS: &[&str] = &[
    "```rust\nfn main() {\n    let name = \"world\";\n    println!(\"hello, {}\", name);\n}\n```",
    "```python\ndef greet(name: str) -> str:\n    return f\"Hello, {name}!\"\n\nprint(greet(\"Zoë\"))\n```",
    "```json\n{\n  \"city\": \"Zürich\",\n  \"units\": \"metric\"\n}\n```",
    "```ts\nconst res = await fetch(\"/api/run\", { method: \"POST\" });\nif (!res.ok) throw new Error(`status ${res.status}`);\n```",
];

const WORDS: &[&str] = &[
    "alpha", "beta", "gamma", "delta", "ticket", "order", "invoice", "café", "naïve", "Zürich",
    "東京", "数据", "résumé", "élan", "plan", "draft", "final", "🚀", "report", "metric",
    "session", "user", "node", "edge", "value", "score",
];

const CITIES: &[&str] = &[
    "Paris",
    "Zürich",
    "São Paulo",
    "Kraków",
    "東京",
    "Montréal",
    "Reykjavík",
    "New York",
];

/// Random prose: 1..=6 sentences, sometimes with a list, a code block or a long tail.
fn prose(rng: &mut Rng, long: bool) -> String {
    let mut s = String::new();
    let n = if long {
        rng.range(12, 40)
    } else {
        rng.range(1, 6)
    };
    for i in 0..n {
        if i > 0 {
            s.push_str(if rng.chance(20) { "\n\n" } else { " " });
        }
        if rng.chance(6) {
            s.push_str(rng.pick_str(CODE_BLOCKS));
        } else if rng.chance(5) {
            for k in 0..rng.range(2, 5) {
                let _ = write!(s, "\n- item {}: {}", k + 1, rng.pick(WORDS));
            }
        } else {
            s.push_str(rng.pick_str(SENTENCES));
        }
    }
    s
}

fn hex_id(rng: &mut Rng, prefix: &str, n: usize) -> String {
    let mut s = String::from(prefix);
    while s.len() < prefix.len() + n {
        let _ = write!(s, "{:016x}", rng.next_u64());
    }
    s.truncate(prefix.len() + n);
    s
}

/// A version-4 UUID string from the PRNG.
fn uuid(rng: &mut Rng) -> String {
    let a = rng.next_u64();
    let b = rng.next_u64();
    let b = (b & 0x3fff_ffff_ffff_ffff) | 0x8000_0000_0000_0000;
    format!(
        "{:08x}-{:04x}-4{:03x}-{:04x}-{:012x}",
        a >> 32,
        (a >> 16) & 0xffff,
        a & 0xfff,
        b >> 48,
        b & 0xffff_ffff_ffff
    )
}

/// Ids in the shape of the dialect: UUIDs for ag-ui-core, SDK-ish prefixed ids otherwise.
fn msg_id(rng: &mut Rng, d: Dialect) -> String {
    match d {
        Dialect::AgUiCore => uuid(rng),
        Dialect::Modern => hex_id(rng, "msg_", 20),
    }
}

// ---------------------------------------------------------------------------------------
// Shared document pieces

const TOOL_NAMES: &[(&str, &str)] = &[
    (
        "get_weather",
        "Get the current weather and a 3-day forecast for a city.",
    ),
    (
        "search_flights",
        "Search flights between two airports on a date.",
    ),
    (
        "create_ticket",
        "Open a support ticket with a title, body and priority.",
    ),
    (
        "query_database",
        "Run a read-only SQL query against the analytics warehouse.",
    ),
    (
        "send_email",
        "Send an email on the user's behalf (requires confirmation).",
    ),
    (
        "render_chart",
        "Render a chart in the UI from a series of points.",
    ),
];

fn write_tool(w: &mut W, name: &str, description: &str, rng: &mut Rng) {
    w.raw("{");
    w.kv_str("name", name, false);
    w.raw(",");
    w.kv_str("description", description, false);
    w.raw(",\"parameters\":{\"type\":\"object\",\"properties\":{");
    let n = rng.range(2, 5);
    let mut required = Vec::new();
    for i in 0..n {
        if i > 0 {
            w.raw(",");
        }
        let field = format!("{}_{}", rng.pick(WORDS).replace(' ', "_"), i);
        w.key(&field);
        match rng.below(4) {
            0 => w.raw("{\"type\":\"string\",\"description\":\"Free text, e.g. \\\"Zürich\\\"\"}"),
            1 => w.raw("{\"type\":\"integer\",\"minimum\":0,\"maximum\":1000}"),
            2 => w.raw(
                "{\"type\":\"string\",\"enum\":[\"low\",\"medium\",\"high\"],\"default\":\"medium\"}",
            ),
            _ => w.raw(
                "{\"type\":\"array\",\"items\":{\"type\":\"number\"},\"minItems\":1,\"maxItems\":50}",
            ),
        }
        if rng.chance(60) {
            required.push(field);
        }
    }
    w.raw("},\"required\":[");
    for (i, r) in required.iter().enumerate() {
        if i > 0 {
            w.raw(",");
        }
        w.string(r, false);
    }
    w.raw("],\"additionalProperties\":false}}");
}

/// `"tools":[...],"context":[...]`, returning (tools, context) counts.
fn write_tools_and_context(w: &mut W, rng: &mut Rng) -> (usize, usize) {
    w.raw("\"tools\":[");
    for (i, (name, desc)) in TOOL_NAMES.iter().enumerate() {
        if i > 0 {
            w.raw(",");
        }
        write_tool(w, name, desc, rng);
    }
    w.raw("],\"context\":[");
    let ctx = [
        ("The user's locale", "fr-CH"),
        ("Current page", "/dashboard/reports?tab=\"q3\""),
        (
            "User profile",
            "{\"name\":\"Zoë Müller\",\"plan\":\"pro\",\"tz\":\"Europe/Zurich\"}",
        ),
    ];
    for (i, (d, v)) in ctx.iter().enumerate() {
        if i > 0 {
            w.raw(",");
        }
        w.raw("{");
        w.kv_str("description", d, false);
        w.raw(",");
        w.kv_str("value", v, false);
        w.raw("}");
    }
    w.raw("]");
    (TOOL_NAMES.len(), ctx.len())
}

/// A small object, written and measured: returns (top-level keys, raw length).
fn write_small_state(w: &mut W, rng: &mut Rng) -> (usize, usize) {
    let start = w.len();
    w.raw("{\"step\":");
    w.raw(&rng.range(1, 9).to_string());
    w.raw(",\"preferences\":{\"units\":\"metric\",\"language\":\"fr\",\"darkMode\":true},");
    w.raw("\"cart\":[{\"sku\":\"A-1\",\"qty\":2,\"price\":19.99},{\"sku\":\"B-7\",\"qty\":1,\"price\":5.5e2}],");
    w.raw("\"lastError\":null}");
    (4, w.len() - start)
}

fn write_small_forwarded(w: &mut W) -> (usize, usize) {
    let start = w.len();
    w.raw("{\"model\":\"gpt-4.1\",\"temperature\":0.7,\"stream\":true,\"client\":{\"name\":\"web\",\"version\":\"2.3.1\"}}");
    (4, w.len() - start)
}

/// A tool call's arguments: a compact JSON object, to be embedded as a string.
fn tool_args(rng: &mut Rng) -> String {
    let mut a = String::from("{");
    let _ = write!(a, "\"city\":\"{}\"", rng.pick(CITIES));
    let _ = write!(a, ",\"days\":{}", rng.range(1, 7));
    if rng.chance(50) {
        a.push_str(",\"query\":\"");
        // A user phrase inside the JSON: its own quotes are escaped once here, and the
        // whole string is escaped again when embedded (so `\\\"` shows up on the wire).
        for c in rng.pick(SENTENCES).chars() {
            match c {
                '"' => a.push_str("\\\""),
                '\\' => a.push_str("\\\\"),
                '\n' => a.push_str("\\n"),
                '\t' => a.push_str("\\t"),
                _ => a.push(c),
            }
        }
        a.push('"');
    }
    if rng.chance(40) {
        let _ = write!(
            a,
            ",\"filters\":{{\"priceMax\":{},\"open\":true,\"tags\":[\"{}\",\"{}\"]}}",
            rng.range(10, 999),
            rng.pick(WORDS),
            rng.pick(WORDS)
        );
    }
    a.push('}');
    a
}

fn tool_result(rng: &mut Rng) -> String {
    if rng.chance(50) {
        format!(
            "{{\"temperature\":{:.1},\"conditions\":\"{}\",\"forecast\":[{},{},{}],\"source\":\"météo\"}}",
            rng.unit() * 35.0 - 5.0,
            rng.pick(&["sunny", "cloudy", "rain", "snow ❄️"]),
            rng.range(0, 30),
            rng.range(0, 30),
            rng.range(0, 30)
        )
    } else {
        prose(rng, false)
    }
}

// ---------------------------------------------------------------------------------------
// Message writers (each returns nothing; they add to the expected summary)

struct Doc {
    w: W,
    e: Summary,
    rng: Rng,
    d: Dialect,
    first_msg: bool,
}

impl Doc {
    fn new(seed: u64, cap: usize, d: Dialect) -> Self {
        Doc {
            w: W::with_capacity(cap),
            e: Summary::default(),
            rng: Rng::new(seed),
            d,
            first_msg: true,
        }
    }

    fn ascii(&mut self) -> bool {
        self.rng.chance(15)
    }

    /// `"threadId":...,"runId":...[,"parentRunId"]` and the opening brace.
    fn open(&mut self) {
        let (t, r) = match self.d {
            Dialect::AgUiCore => (uuid(&mut self.rng), uuid(&mut self.rng)),
            Dialect::Modern => (
                hex_id(&mut self.rng, "thread_", 24),
                hex_id(&mut self.rng, "run_", 24),
            ),
        };
        self.w.raw("{");
        self.w.kv_str("threadId", &t, false);
        self.w.raw(",");
        self.w.kv_str("runId", &r, false);
        if self.d == Dialect::Modern {
            let p = hex_id(&mut self.rng, "run_", 24);
            self.w.raw(",");
            self.w.kv_str("parentRunId", &p, false);
        }
    }

    fn small_state(&mut self) {
        self.w.raw(",\"state\":");
        let (k, l) = write_small_state(&mut self.w, &mut self.rng);
        self.e.state_keys = Some(k);
        self.e.state_raw_len = Some(l);
    }

    fn small_forwarded(&mut self) {
        self.w.raw(",\"forwardedProps\":");
        let (k, l) = write_small_forwarded(&mut self.w);
        self.e.forwarded_keys = Some(k);
        self.e.forwarded_raw_len = Some(l);
    }

    fn tools_context(&mut self) {
        self.w.raw(",");
        let (t, c) = write_tools_and_context(&mut self.w, &mut self.rng);
        self.e.tools = t;
        self.e.context = c;
    }

    fn begin_messages(&mut self) {
        self.w.raw(",\"messages\":[");
        self.first_msg = true;
    }

    fn end_messages(&mut self) {
        self.w.raw("]");
    }

    /// `{"id":..,"role":..` plus the optional common fields of the modern dialect.
    fn msg_head(&mut self, role: &str) {
        if !self.first_msg {
            self.w.raw(",");
        }
        self.first_msg = false;
        self.e.messages += 1;
        self.w.raw("{");
        if self.d == Dialect::Modern && self.rng.chance(3) {
            let s = hex_id(&mut self.rng, "sub_", 12);
            self.w.kv_str("subagentRunId", &s, false);
            self.w.raw(",");
        }
        let id = msg_id(&mut self.rng, self.d);
        self.w.kv_str("id", &id, false);
        self.w.raw(",");
        self.w.kv_str("role", role, false);
        if self.d == Dialect::Modern && self.rng.chance(10) {
            self.w.raw(",\"metadata\":{\"source\":\"web\",\"ts\":");
            let ts = 1_712_000_000_000u64 + self.rng.below(10_000_000) as u64;
            self.w.raw(&ts.to_string());
            self.w.raw(",\"ag-ui\":{\"trace\":null}}");
        }
    }

    fn content_str(&mut self, text: &str) {
        let a = self.ascii();
        self.w.raw(",");
        self.w.kv_str("content", text, a);
        self.e.text_bytes += text.len();
    }

    fn text_msg(&mut self, role: &str, long: bool) {
        self.msg_head(role);
        if role != "reasoning" && self.rng.chance(5) {
            self.w.raw(",\"name\":\"agent-");
            self.w.raw(&self.rng.below(9).to_string());
            self.w.raw("\"");
        }
        let t = prose(&mut self.rng, long);
        self.content_str(&t);
        if role == "reasoning" && self.rng.chance(30) {
            self.w.raw(",\"encryptedValue\":\"");
            let mut b = vec![0u8; 96];
            self.rng.fill(&mut b);
            base64_into(&mut self.w.out, &b);
            self.w.raw("\"");
        }
        self.w.raw("}");
    }

    fn part_text(&mut self, text: &str) {
        let a = self.ascii();
        self.w.raw("{\"type\":\"text\",");
        self.w.kv_str("text", text, a);
        self.w.raw("}");
        self.e.text_bytes += text.len();
    }

    /// A media part with a `data` source of `b64_len` base64 characters whose decoded
    /// bytes start with `magic`.
    fn part_data(&mut self, kind: &str, mime: &str, magic: &[u8], b64_len: usize) {
        self.w.raw("{\"type\":\"");
        self.w.raw(kind);
        self.w.raw("\",\"source\":{\"type\":\"data\",\"value\":\"");
        let n = b64_len / 4 * 3;
        let mut raw = vec![0u8; n];
        self.rng.fill(&mut raw);
        let m = magic.len().min(n);
        raw[..m].copy_from_slice(&magic[..m]);
        let before = self.w.len();
        base64_into(&mut self.w.out, &raw);
        self.e.media_bytes += self.w.len() - before;
        self.w.raw("\",");
        self.w.kv_str("mimeType", mime, false);
        self.w.raw("}}");
    }

    fn part_url(&mut self, kind: &str, url: &str, mime: Option<&str>) {
        self.w.raw("{\"type\":\"");
        self.w.raw(kind);
        self.w.raw("\",\"source\":{\"type\":\"url\",");
        self.w.kv_str("value", url, false);
        if let Some(m) = mime {
            self.w.raw(",");
            self.w.kv_str("mimeType", m, false);
        }
        self.w.raw("}}");
    }

    fn part_file(&mut self, kind: &str) {
        self.w.raw("{\"type\":\"");
        self.w.raw(kind);
        self.w.raw("\",\"source\":{\"type\":\"file\",");
        let f = hex_id(&mut self.rng, "file-", 24);
        self.w.kv_str("value", &f, false);
        self.w
            .raw(",\"provider\":\"openai\",\"mimeType\":\"application/pdf\"}}");
    }

    /// A modern user message with parts: text plus a small image (url, data or file).
    fn user_parts(&mut self) {
        self.msg_head("user");
        self.w.raw(",\"content\":[");
        let t = prose(&mut self.rng, false);
        self.part_text(&t);
        self.w.raw(",");
        match self.rng.below(3) {
            0 => self.part_url(
                "image",
                "https://cdn.example.com/img/cat%20photo.png?w=512",
                Some("image/png"),
            ),
            1 => {
                let len = self.rng.range(50, 500) * 4;
                self.part_data("image", "image/png", PNG_MAGIC, len);
            }
            _ => self.part_file("document"),
        }
        self.w.raw("]}");
    }

    /// An assistant message with 1..=3 tool calls; returns their ids.
    fn assistant_calls(&mut self) -> Vec<String> {
        self.msg_head("assistant");
        if self.rng.chance(40) {
            let t = prose(&mut self.rng, false);
            self.content_str(&t);
        }
        self.w.raw(",\"toolCalls\":[");
        let n = self.rng.range(1, 3);
        let mut ids = Vec::new();
        for i in 0..n {
            if i > 0 {
                self.w.raw(",");
            }
            let id = hex_id(&mut self.rng, "call_", 24);
            self.w.raw("{");
            self.w.kv_str("id", &id, false);
            self.w.raw(",\"type\":\"function\",\"function\":{");
            let (name, _) = *self.rng.pick(TOOL_NAMES);
            self.w.kv_str("name", name, false);
            self.w.raw(",");
            let args = tool_args(&mut self.rng);
            let a = self.ascii();
            self.w.kv_str("arguments", &args, a);
            self.w.raw("}}");
            self.e.tool_calls += 1;
            self.e.args_bytes += args.len();
            ids.push(id);
        }
        self.w.raw("]}");
        ids
    }

    fn tool_msg(&mut self, call_id: &str) {
        self.msg_head("tool");
        if self.d == Dialect::Modern && self.rng.chance(5) {
            self.w.raw(",\"content\":[");
            let t = tool_result(&mut self.rng);
            self.part_text(&t);
            self.w.raw("]");
        } else {
            let t = tool_result(&mut self.rng);
            self.content_str(&t);
        }
        self.w.raw(",");
        self.w.kv_str("toolCallId", call_id, false);
        if self.rng.chance(5) {
            self.w.raw(
                ",\"error\":\"timeout after 30s: upstream \\\"weather-api\\\" did not answer\"",
            );
        }
        self.w.raw("}");
    }

    fn activity_msg(&mut self) {
        self.msg_head("activity");
        self.w.raw(",\"activityType\":\"progress\",\"content\":{\"title\":\"Indexing documents…\",\"done\":");
        self.w.raw(&self.rng.below(100).to_string());
        self.w
            .raw(",\"total\":100,\"steps\":[\"fetch\",\"parse\",\"embed\"]}}");
    }

    fn finish(mut self) -> (Vec<u8>, Summary) {
        self.w.raw("}");
        (self.w.out, self.e)
    }
}

const PNG_MAGIC: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR";
const WAV_MAGIC: &[u8] = b"RIFF\x24\x08\0\0WAVEfmt ";
const PDF_MAGIC: &[u8] = b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n";

// ---------------------------------------------------------------------------------------
// Families

/// Megabytes as a label: `8MB`.
fn mb_label(mb: usize) -> String {
    format!("{mb}MB")
}

/// Media-heavy: `mb` MiB of base64 over image/png, audio/wav and application/pdf data
/// sources in two user messages, with a little text around them.
pub fn media_heavy(mb: usize) -> Corpus {
    let total = mb << 20;
    let mut d = Doc::new(
        0x6d65_6469_6100 ^ mb as u64,
        total + 16 * 1024,
        Dialect::Modern,
    );
    d.open();
    d.small_state();
    d.begin_messages();
    d.text_msg("system", false);
    // user: text + image (1/2) + audio (1/4)
    d.msg_head("user");
    d.w.raw(",\"content\":[");
    d.part_text("What is in this picture, and what does the recording say? Réponds en français 🙂");
    d.w.raw(",");
    d.part_data("image", "image/png", PNG_MAGIC, total / 2);
    d.w.raw(",");
    d.part_data("audio", "audio/wav", WAV_MAGIC, total / 4);
    d.w.raw("]}");
    d.text_msg("assistant", false);
    // user: text + pdf (1/4) + an image by url
    d.msg_head("user");
    d.w.raw(",\"content\":[");
    d.part_text("Now summarise the attached contract, section by section.");
    d.w.raw(",");
    d.part_data("document", "application/pdf", PDF_MAGIC, total / 4);
    d.w.raw(",");
    d.part_url("image", "https://cdn.example.com/scan-page-2.png", None);
    d.w.raw("]}");
    let ids = d.assistant_calls();
    for id in &ids {
        d.tool_msg(id);
    }
    d.text_msg("assistant", false);
    d.end_messages();
    d.tools_context();
    d.small_forwarded();
    let (bytes, expect) = d.finish();
    Corpus {
        family: "media_heavy",
        label: mb_label(mb),
        bytes,
        expect,
        ag_ui_core_readable: false,
    }
}

/// [`media_heavy`] with every object's keys in alphabetical order, as serde_json's `Value`,
/// Go's maps and Python's `sort_keys=True` write them: a message's `content` then comes
/// before its `role`, and a part's `source` before its `type`, so a parser that needs the
/// kind first meets the media before it knows what holds it.
pub fn media_heavy_sorted(mb: usize) -> Corpus {
    sorted(media_heavy(mb), "media_heavy_sorted")
}

/// [`chat_heavy_variant`] with every object's keys in alphabetical order (see
/// [`media_heavy_sorted`]): `content` before `role`, `function` before `id` in a tool call.
#[allow(dead_code)] // the parse bench takes it
pub fn chat_heavy_sorted(count: usize, variant: u64) -> Corpus {
    sorted(
        chat_heavy_variant(count, Dialect::Modern, variant),
        "chat_heavy_sorted",
    )
}

/// `c` rewritten through serde_json's `Value`, which sorts every object's keys.
fn sorted(c: Corpus, family: &'static str) -> Corpus {
    let value: serde_json::Value = serde_json::from_slice(&c.bytes).expect("valid JSON");
    let bytes = serde_json::to_vec(&value).expect("serialisable");
    let at = |key: &[u8]| bytes.windows(key.len()).position(|w| w == key);
    assert!(
        at(b"\"content\"") < at(b"\"role\""),
        "serde_json's Value keeps keys in order here (its `preserve_order` feature is on)"
    );
    let expect = c.expect.with_raw_lens_of(&bytes);
    Corpus {
        family,
        bytes,
        expect,
        ..c
    }
}

/// Chat-heavy: exactly `count` messages in conversational turns.
#[allow(dead_code)] // the parse bench takes its variants
pub fn chat_heavy(count: usize, dialect: Dialect) -> Corpus {
    chat_heavy_variant(count, dialect, 0)
}

/// [`chat_heavy`] from another seed: a different document of the same shape and about the
/// same size (variant 0 is [`chat_heavy`] itself).
pub fn chat_heavy_variant(count: usize, dialect: Dialect, variant: u64) -> Corpus {
    let seed = 0x6368_6174 ^ (count as u64) << 8 ^ dialect as u64 ^ variant << 40;
    let mut d = Doc::new(seed, count * 700 + 16 * 1024, dialect);
    d.open();
    d.small_state();
    d.begin_messages();
    let modern = dialect == Dialect::Modern;
    // Writes one message of a turn unless the count is reached; returns false when full.
    let mut pending_calls: Vec<String> = Vec::new();
    let mut step = 0usize;
    while d.e.messages < count {
        let left = count - d.e.messages;
        if !pending_calls.is_empty() {
            let id = pending_calls.remove(0);
            d.tool_msg(&id);
            continue;
        }
        if d.e.messages == 0 {
            d.text_msg("system", true);
            continue;
        }
        if d.e.messages == 1 && left > 1 {
            d.text_msg("developer", false);
            continue;
        }
        // A turn: user, [reasoning], [assistant+calls, tool results], assistant.
        match step % 4 {
            0 => {
                if modern && d.rng.chance(15) {
                    d.user_parts();
                } else {
                    d.text_msg("user", false);
                }
            }
            1 => {
                if modern && d.rng.chance(30) {
                    d.text_msg("reasoning", false);
                } else if modern && d.rng.chance(4) {
                    d.activity_msg();
                } else {
                    {
                        let long = d.rng.chance(10);
                        d.text_msg("assistant", long);
                    }
                }
            }
            2 => {
                if (d.e.tool_calls == 0 || d.rng.chance(50)) && left > 1 {
                    let mut ids = d.assistant_calls();
                    ids.truncate(left - 1);
                    pending_calls = ids;
                } else {
                    d.text_msg("user", false);
                }
            }
            _ => {
                let long = d.rng.chance(15);
                d.text_msg("assistant", long);
            }
        }
        step += 1;
    }
    // A call whose results did not fit is fine: tool results may come in a later run.
    d.end_messages();
    d.tools_context();
    d.small_forwarded();
    if modern {
        d.w.raw(",\"resume\":[{\"interruptId\":\"int_01\",\"status\":\"resolved\",\"payload\":{\"approved\":true,\"note\":\"ok 👍\"}}]");
        d.e.resume = 1;
    }
    let (bytes, expect) = d.finish();
    Corpus {
        family: if modern {
            "chat_heavy"
        } else {
            "chat_heavy_uuid"
        },
        label: count.to_string(),
        bytes,
        expect,
        ag_ui_core_readable: !modern,
    }
}

/// [`chat_heavy_variant`] written as Python's `json.dumps` writes it with its defaults (what
/// `requests.post(url, json=...)` sends): a space after every `:` and `,`, and every character
/// outside ASCII as a `\uXXXX` escape (a surrogate pair above U+FFFF). The same messages and
/// text: the summary is unchanged.
pub fn chat_heavy_python(count: usize, variant: u64) -> Corpus {
    let c = chat_heavy_variant(count, Dialect::Modern, variant);
    let bytes = python_style(&c.bytes);
    // The raw values' lengths grow by their spaces.
    let expect = c.expect.with_raw_lens_of(&bytes);
    Corpus {
        family: "chat_heavy_py",
        bytes,
        expect,
        ..c
    }
}

/// Rewrites compact JSON in `json.dumps`' default style (see [`chat_heavy_python`]).
fn python_style(compact: &[u8]) -> Vec<u8> {
    let text = std::str::from_utf8(compact).expect("the generator writes UTF-8");
    let mut out = String::with_capacity(compact.len() * 5 / 4);
    let (mut in_string, mut escaped) = (false, false);
    for ch in text.chars() {
        if in_string {
            if escaped {
                escaped = false;
            } else if ch == '\\' {
                escaped = true;
            } else if ch == '"' {
                in_string = false;
            }
            if ch.is_ascii() {
                out.push(ch);
            } else {
                let mut units = [0u16; 2];
                for u in ch.encode_utf16(&mut units) {
                    write!(out, "\\u{u:04x}").expect("writing to a String");
                }
            }
            continue;
        }
        out.push(ch);
        match ch {
            '"' => in_string = true,
            ':' | ',' => out.push(' '),
            _ => {}
        }
    }
    out.into_bytes()
}

const KEYS: &[&str] = &[
    "id",
    "name",
    "title",
    "status",
    "createdAt",
    "updatedAt",
    "owner",
    "score",
    "ratio",
    "tags",
    "children",
    "attributes",
    "enabled",
    "priority",
    "coords",
    "history",
    "notes",
    "price",
    "currency",
    "locale",
    "version",
    "parentId",
    "weight",
    "label",
];

/// A JSON number in one of the shapes real state holds.
fn number(rng: &mut Rng, w: &mut W) {
    let s = match rng.below(6) {
        0 => rng.range(0, 1000).to_string(),
        1 => (rng.next_u64() as i64 >> 20).to_string(),
        2 => format!("{}", (rng.unit() * 2000.0 - 1000.0)),
        3 => format!("{:.2}", rng.unit() * 500.0),
        4 => format!("{:e}", rng.unit() * 1e23 + 1.0),
        _ => format!("{:E}", (rng.unit() + 0.01) * 1e-7),
    };
    w.raw(&s);
}

fn scalar(rng: &mut Rng, w: &mut W) {
    match rng.below(10) {
        0..=2 => number(rng, w),
        3..=5 => {
            let s = if rng.chance(20) {
                rng.pick(SENTENCES).to_string()
            } else {
                format!("{}-{}", rng.pick(WORDS), rng.below(10_000))
            };
            let a = rng.chance(10);
            w.string(&s, a);
        }
        6 | 7 => w.raw(if rng.chance(50) { "true" } else { "false" }),
        _ => w.raw("null"),
    }
}

/// A flat record: 4..=9 fields of scalars, a small array and a small object.
fn record(rng: &mut Rng, w: &mut W) {
    w.raw("{");
    let n = rng.range(4, 9);
    for i in 0..n {
        if i > 0 {
            w.raw(",");
        }
        w.key(KEYS[(i * 7 + rng.below(3)) % KEYS.len()]);
        match rng.below(8) {
            0 => {
                w.raw("[");
                for j in 0..rng.range(0, 5) {
                    if j > 0 {
                        w.raw(",");
                    }
                    scalar(rng, w);
                }
                w.raw("]");
            }
            1 => {
                w.raw("{\"lat\":");
                number(rng, w);
                w.raw(",\"lng\":");
                number(rng, w);
                w.raw("}");
            }
            _ => scalar(rng, w),
        }
    }
    w.raw("}");
}

/// A node of a deep tree: `levels` more nested levels below it along one spine (each level
/// is an object inside an array), with a few leaf siblings on the way.
fn tree(rng: &mut Rng, w: &mut W, levels: usize) {
    w.raw("{\"kind\":");
    w.string(rng.pick_str(&["section", "group", "item", "ref"]), false);
    w.raw(",\"value\":");
    scalar(rng, w);
    w.raw(",\"children\":[");
    if levels > 0 {
        tree(rng, w, levels - 1);
        for _ in 0..rng.below(3) {
            w.raw(",");
            record(rng, w);
        }
    }
    w.raw("]}");
}

/// A big object of about `target` bytes: sections of records, numeric matrices, deep trees
/// (nesting 10..=20 levels from the document root) and string maps. Returns its top-level
/// key count.
fn big_object(rng: &mut Rng, w: &mut W, target: usize) -> usize {
    let end = w.len() + target.saturating_sub(2);
    w.raw("{");
    let mut keys = 0;
    while w.len() < end {
        if keys > 0 {
            w.raw(",");
        }
        let kind = rng.below(4);
        let name = format!("{}{}", ["records", "matrix", "tree", "labels"][kind], keys);
        w.key(&name);
        let budget = rng.range(4, 48) * 1024;
        let stop = (w.len() + budget).min(end);
        match kind {
            0 => {
                w.raw("[");
                let mut first = true;
                while w.len() < stop {
                    if !first {
                        w.raw(",");
                    }
                    first = false;
                    record(rng, w);
                }
                w.raw("]");
            }
            1 => {
                w.raw("[");
                let mut first = true;
                while w.len() < stop {
                    if !first {
                        w.raw(",");
                    }
                    first = false;
                    w.raw("[");
                    for j in 0..8 {
                        if j > 0 {
                            w.raw(",");
                        }
                        number(rng, w);
                    }
                    w.raw("]");
                }
                w.raw("]");
            }
            2 => {
                w.raw("[");
                let mut first = true;
                while w.len() < stop {
                    if !first {
                        w.raw(",");
                    }
                    first = false;
                    // root(1) + state(2) + section array(3) + 2 per level
                    let levels = rng.range(3, 8);
                    tree(rng, w, levels);
                }
                w.raw("]");
            }
            _ => {
                w.raw("{");
                let mut i = 0;
                while w.len() < stop {
                    if i > 0 {
                        w.raw(",");
                    }
                    let k = format!("{}.{}", rng.pick(WORDS), i);
                    w.key(&k);
                    let v = prose(rng, false);
                    let a = rng.chance(10);
                    w.string(&v, a);
                    i += 1;
                }
                w.raw("}");
            }
        }
        keys += 1;
    }
    w.raw("}");
    keys
}

/// State-heavy: `state` of about 3/4 and `forwardedProps` of about 1/4 of `mb` MiB, with a
/// few plain messages; readable by `ag-ui-core` (UUID ids, string content).
#[allow(dead_code)] // the parse bench takes its variants
pub fn state_heavy(mb: usize) -> Corpus {
    state_heavy_variant(mb, 0)
}

/// [`state_heavy`] from another seed (variant 0 is [`state_heavy`] itself).
pub fn state_heavy_variant(mb: usize, variant: u64) -> Corpus {
    let total = mb << 20;
    let mut d = Doc::new(
        0x0073_7461_7465 ^ mb as u64 ^ variant << 40,
        total + 16 * 1024,
        Dialect::AgUiCore,
    );
    d.open();
    d.w.raw(",\"state\":");
    let start = d.w.len();
    let k = big_object(&mut d.rng, &mut d.w, total * 3 / 4);
    d.e.state_keys = Some(k);
    d.e.state_raw_len = Some(d.w.len() - start);
    d.begin_messages();
    d.text_msg("system", false);
    d.text_msg("user", false);
    let ids = d.assistant_calls();
    for id in &ids {
        d.tool_msg(id);
    }
    d.text_msg("assistant", false);
    d.end_messages();
    d.tools_context();
    d.w.raw(",\"forwardedProps\":");
    let start = d.w.len();
    let k = big_object(&mut d.rng, &mut d.w, total / 4);
    d.e.forwarded_keys = Some(k);
    d.e.forwarded_raw_len = Some(d.w.len() - start);
    let (bytes, expect) = d.finish();
    Corpus {
        family: "state_heavy",
        label: mb_label(mb),
        bytes,
        expect,
        ag_ui_core_readable: true,
    }
}
