//! The seeded SSE stream of typical AG-UI events shared by `benches/events.rs` and
//! `benches/icount.rs`: `RUN_STARTED`, a `STATE_SNAPSHOT`, turns of text messages (deltas with
//! escapes and non-ASCII text), tool calls with JSON argument fragments, `STATE_DELTA`
//! patches, `RUN_FINISHED`; every frame `data: <json>\n\n`.

use agui_wire::sse::{SseDecoder, SseOptions};
use agui_wire::{Bump, Event, EventSlot, ParseOptions};

/// The simple SSE split a serde_json user writes, the peers' frame loop: the JSON of each
/// `data: ` line of `input` (one line a frame in these streams).
pub fn data_lines(input: &[u8]) -> impl Iterator<Item = &[u8]> {
    input
        .split(|&b| b == b'\n')
        .filter_map(|l| l.strip_prefix(b"data: "))
}

/// agui-wire over an SSE stream as a proxy reads it: `SseDecoder`, `EventSlot::parse` on each
/// frame (the event built where it stays), `seen` called on each event, the arena reset after
/// each. Returns the number of events.
#[inline(always)]
pub fn each_event(input: &[u8], arena: &mut Bump, mut seen: impl FnMut(&Event<'_>)) -> usize {
    let options = ParseOptions::default();
    let mut n = 0;
    let mut decoder = SseDecoder::new(SseOptions::default());
    let mut feed = decoder.feed(input);
    while let Some(frame) = feed.next() {
        let frame = frame.expect("SSE frame");
        {
            let mut slot = EventSlot::new();
            seen(slot.parse(frame.data, arena, &options).expect("event"));
        }
        n += 1;
        arena.reset();
    }
    drop(feed);
    decoder.finish().expect("stream ends on a frame boundary");
    n
}

// ------------------------------------------------------------------------------------------
// The stream
// ------------------------------------------------------------------------------------------

/// xorshift64*: deterministic, no dependency.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    pub fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

/// What the generator wrote, for the checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Counts {
    pub events: usize,
    pub text_content: usize,
    pub tool_args: usize,
    pub state_deltas: usize,
}

pub struct Stream {
    pub bytes: Vec<u8>,
    pub counts: Counts,
}

/// Text pieces of the model's answers: plain words, punctuation, newlines, quotes, a
/// backslash, accented and CJK text and emoji.
pub const WORDS: &[&str] = &[
    "The",
    " weather",
    " in",
    " Paris",
    " is",
    " sunny",
    ",",
    " with",
    " a",
    " high",
    " of",
    " 21",
    "°C",
    ".",
    "\n\n",
    " café",
    " naïve",
    " résumé",
    " 東京",
    "は晴れ",
    " 🚀",
    " \"quoted\"",
    " C:\\path",
    "\t",
    " - item",
    "\n",
    " **bold**",
    " `code`",
    " Größe",
    " façade",
    " the",
    " and",
    " tool",
    " result",
];

pub const TOOLS: &[&str] = &["get_weather", "search_docs", "run_query", "send_email"];
pub const CITIES: &[&str] = &["Paris", "Zürich", "São Paulo", "東京", "New York"];

/// JSON string body of `s` (no quotes); with `ascii`, non-ASCII as `\uXXXX` escapes (as
/// Python's `json.dumps` writes them by default).
pub fn esc(out: &mut String, s: &str, ascii: bool) {
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c if ascii && !c.is_ascii() => {
                let mut buf = [0u16; 2];
                for u in c.encode_utf16(&mut buf) {
                    out.push_str(&format!("\\u{u:04x}"));
                }
            }
            c => out.push(c),
        }
    }
}

pub fn gen_stream(target: usize, seed: u64) -> Stream {
    gen_stream_with(target, seed, Ids::Short)
}

/// How the generator spells thread, run and message ids.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ids {
    /// `thread-7f3a`, `run-0001`, `msg-000042`, `res-000042`: what most servers send.
    Short,
    /// UUIDs (`00000000-0000-4000-8000-000000000042`), for peers that accept nothing else
    /// (`ag-ui-core` types thread, run and message ids as `Uuid`). Tool-call ids stay
    /// `call-000042` either way. The text is the same; only the ids are longer.
    Uuid,
}

/// [`gen_stream`] with the id spelling chosen.
pub fn gen_stream_with(target: usize, seed: u64, ids: Ids) -> Stream {
    let id = |kind: u8, n: usize| -> String {
        match (ids, kind) {
            (Ids::Short, b't') => "thread-7f3a".to_string(),
            (Ids::Short, b'r') => "run-0001".to_string(),
            (Ids::Short, b'm') => format!("msg-{n:06}"),
            (Ids::Short, _) => format!("res-{n:06}"),
            (Ids::Uuid, b't') => "7f3a0000-0000-4000-8000-000000000000".to_string(),
            (Ids::Uuid, b'r') => "00000001-0000-4000-8000-000000000000".to_string(),
            (Ids::Uuid, b'm') => format!("00000000-0000-4000-8000-{n:012}"),
            (Ids::Uuid, _) => format!("00000000-0000-4000-9000-{n:012}"),
        }
    };
    let (thread, run) = (id(b't', 0), id(b'r', 0));
    let mut r = Rng(seed);
    let mut out = String::with_capacity(target * 110);
    let mut c = Counts::default();
    let frame = |out: &mut String, c: &mut Counts, json: &str| {
        out.push_str("data: ");
        out.push_str(json);
        out.push_str("\n\n");
        c.events += 1;
    };
    frame(
        &mut out,
        &mut c,
        &format!(
            r#"{{"type":"RUN_STARTED","threadId":"{thread}","runId":"{run}","timestamp":1767312000000}}"#
        ),
    );
    let mut snap = String::from(
        r#"{"type":"STATE_SNAPSHOT","snapshot":{"status":"working","progress":0,"steps":{"#,
    );
    for k in 0..8 {
        if k > 0 {
            snap.push(',');
        }
        snap.push_str(&format!(r#""s{k}":{{"done":false,"note":"step {k}"}}"#));
    }
    snap.push_str(r#"},"user":{"name":"Zoë","locale":"fr-FR"}}}"#);
    frame(&mut out, &mut c, &snap);

    let mut turn = 0usize;
    let mut j = String::new();
    // Leave room for the longest turn and RUN_FINISHED.
    while c.events + 120 < target {
        turn += 1;
        let mid = id(b'm', turn);
        j.clear();
        j.push_str(&format!(
            r#"{{"type":"TEXT_MESSAGE_START","messageId":"{mid}","role":"assistant"}}"#
        ));
        frame(&mut out, &mut c, &j);
        for _ in 0..20 + r.below(40) {
            let ascii = r.below(4) == 0;
            j.clear();
            j.push_str(r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":""#);
            j.push_str(&mid);
            j.push_str(r#"","delta":""#);
            for _ in 0..1 + r.below(3) {
                let w = r.pick(WORDS);
                esc(&mut j, w, ascii);
            }
            j.push_str("\"}");
            frame(&mut out, &mut c, &j);
            c.text_content += 1;
        }
        j.clear();
        j.push_str(&format!(
            r#"{{"type":"TEXT_MESSAGE_END","messageId":"{mid}"}}"#
        ));
        frame(&mut out, &mut c, &j);

        if r.below(3) == 0 {
            let tc = format!("call-{turn:06}");
            let tool = r.pick(TOOLS);
            j.clear();
            j.push_str(&format!(
                r#"{{"type":"TOOL_CALL_START","toolCallId":"{tc}","toolCallName":"{tool}","parentMessageId":"{mid}"}}"#
            ));
            frame(&mut out, &mut c, &j);
            // The arguments, as the model streams them: JSON text cut in pieces, each piece a
            // JSON string (so the quotes inside are escaped).
            let args = format!(
                r#"{{"city": "{}", "days": {}, "units": "metric", "query": "forecast \"hourly\"\n"}}"#,
                r.pick(CITIES),
                1 + r.below(7)
            );
            let chars: Vec<char> = args.chars().collect();
            let mut at = 0;
            while at < chars.len() {
                let n = (3 + r.below(8)).min(chars.len() - at);
                let piece: String = chars[at..at + n].iter().collect();
                at += n;
                j.clear();
                j.push_str(r#"{"type":"TOOL_CALL_ARGS","toolCallId":""#);
                j.push_str(&tc);
                j.push_str(r#"","delta":""#);
                esc(&mut j, &piece, false);
                j.push_str("\"}");
                frame(&mut out, &mut c, &j);
                c.tool_args += 1;
            }
            j.clear();
            j.push_str(&format!(
                r#"{{"type":"TOOL_CALL_END","toolCallId":"{tc}"}}"#
            ));
            frame(&mut out, &mut c, &j);
            j.clear();
            j.push_str(&format!(
                r#"{{"type":"TOOL_CALL_RESULT","messageId":"{res}","toolCallId":"{tc}","role":"tool","content":""#,
                res = id(b'x', turn)
            ));
            esc(
                &mut j,
                &format!(
                    "{{\"temperature\": {}, \"conditions\": \"partly cloudy\", \"city\": \"{}\"}}",
                    10 + r.below(20),
                    r.pick(CITIES)
                ),
                r.below(2) == 0,
            );
            j.push_str("\"}");
            frame(&mut out, &mut c, &j);
        }

        j.clear();
        let k = r.below(8);
        j.push_str(&format!(
            r#"{{"type":"STATE_DELTA","delta":[{{"op":"replace","path":"/progress","value":{turn}}},{{"op":"replace","path":"/steps/s{k}","value":{{"done":true,"note":"turn {turn} — ok"}}}}]}}"#
        ));
        frame(&mut out, &mut c, &j);
        c.state_deltas += 1;
    }
    while c.events + 1 < target {
        // Pad to the exact count: STEP pairs, and one state patch if one slot is left.
        if target - 1 - c.events >= 2 {
            frame(
                &mut out,
                &mut c,
                r#"{"type":"STEP_STARTED","stepName":"wrap-up"}"#,
            );
            frame(
                &mut out,
                &mut c,
                r#"{"type":"STEP_FINISHED","stepName":"wrap-up"}"#,
            );
        } else {
            frame(
                &mut out,
                &mut c,
                r#"{"type":"STATE_DELTA","delta":[{"op":"replace","path":"/status","value":"done"}]}"#,
            );
            c.state_deltas += 1;
        }
    }
    frame(
        &mut out,
        &mut c,
        &format!(
            r#"{{"type":"RUN_FINISHED","threadId":"{thread}","runId":"{run}","result":{{"ok":true}}}}"#
        ),
    );
    Stream {
        bytes: out.into_bytes(),
        counts: c,
    }
}

#[allow(dead_code)] // not every bench uses it
/// `input`'s frames with every object's keys in alphabetical order (serde_json's `Value`
/// sorts them; the bench does not turn on its `preserve_order`).
pub fn sorted_stream(input: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(input.len());
    for json in input
        .split(|&b| b == b'\n')
        .filter_map(|l| l.strip_prefix(b"data: "))
    {
        let v: serde_json::Value = serde_json::from_slice(json).expect("the generator's JSON");
        out.extend_from_slice(b"data: ");
        serde_json::to_writer(&mut out, &v).expect("writing to a Vec");
        out.extend_from_slice(b"\n\n");
    }
    out
}
