//! The fast paths against their scalar twins, on the same bytes: every vector string kernel
//! (AVX2, SSE2, the dispatching entry points, the 16-byte short-string look) against the
//! portable scalar one at every position of the input (every 13th past the first 512
//! bytes) and the chunk-fed parser's scan-while-copying over the next 300 bytes, and the
//! short-string look of one-shot parsing against the general string scanner
//! there; every UTF-8 check of a string against std from the first 64 offsets; the message
//! and tool call readers' head templates against their general loops at
//! each `{`;
//! unescaping by runs against the byte-at-a-time unescaper; and
//! `RawJson::to_serde_value` (built iteratively) against serde_json wherever serde_json reads
//! the text (it stops at 128 levels; we go to 512). The whole parses run too, so their paths
//! are covered.
#![no_main]

use agui_wire::parser::differential::{
    message_paths_agree, short_string_agrees, string_kernels_agree, tool_call_paths_agree,
    unescape_fast, unescape_scalar, utf8_kernels_agree,
};
use agui_wire::{Bump, Event, RawJson, RunAgentInput};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let positions = (0..data.len().min(512)).chain((512..data.len()).step_by(13));
    for at in positions.chain([data.len()]) {
        if let Err(e) = string_kernels_agree(data, at) {
            panic!("kernels disagree: {e}");
        }
        if let Err(e) = short_string_agrees(data, at) {
            panic!("short-string look and string scanner disagree: {e}");
        }
    }
    // The UTF-8 checks against std from the first 64 offsets (every alignment to a chunk of
    // 32 or 64 bytes).
    for at in 0..data.len().min(64) {
        if let Err(e) = utf8_kernels_agree(data, at) {
            panic!("UTF-8 checks disagree: {e}");
        }
    }
    // The message and tool call readers with their head templates (`"id":"…","role":"…"`,
    // `"id":"…","type":"function","function":{"name":"…","arguments":` by byte compares) and
    // without, at each of the first 64 `{`: the same value or the same error.
    for at in data
        .iter()
        .enumerate()
        .filter(|(_, b)| **b == b'{')
        .map(|(at, _)| at)
        .take(64)
    {
        if let Err(e) = message_paths_agree(data, at) {
            panic!("message head template and general loop disagree: {e}");
        }
        if let Err(e) = tool_call_paths_agree(data, at) {
            panic!("tool call templates and general loops disagree: {e}");
        }
    }
    let arena = Bump::new();
    let _ = RunAgentInput::parse(data, &arena);
    let _ = Event::parse(data, &arena);

    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    assert_eq!(
        unescape_fast(text),
        unescape_scalar(text),
        "unescaping disagrees"
    );

    if let Ok(raw) = RawJson::from_text(text) {
        let ours = raw.to_serde_value();
        if let Ok(want) = serde_json::from_str::<serde_json::Value>(text) {
            assert_eq!(ours.expect("serde_json reads it, so must we"), want);
        }
    }
});
