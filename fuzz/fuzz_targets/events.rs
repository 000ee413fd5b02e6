//! AG-UI events (`agui_wire::Event`) on any bytes, one event per line (so a corpus file is an
//! event stream). For each line:
//! - what `Event::parse_with` accepts, serde_json accepts;
//! - written back (`WriteJson`), it is compact JSON that serde_json reads as the same value as
//!   the line (integral numbers compared by value: `1.0` is written `1`), that parses to an
//!   equal event, and that writes to the same bytes again;
//! - the lenient parse accepts whatever the strict one does, with the same event;
//! - errors point inside the line, with the path of their offset;
//! - the fast path of `Event::parse_with` reads what the general parser reads, wherever it
//!   reads anything (`event_paths_agree`);
//! - the compact JSON Patch reader reads what the general list of operations reads, from
//!   each of the line's first eight `[` (`compact_patch_agrees`).
//!
//! The events that parse are applied in order to a `Reducer`, which must not panic and whose
//! messages and state must stay valid JSON.
#![no_main]

use agui_wire::parser::differential::{compact_patch_agrees, event_paths_agree};
use agui_wire::reducer::Reducer;
use agui_wire::{Bump, Event, ParseOptions, WriteJson};
use agui_wire_fuzz::drive::check_error;
use agui_wire_fuzz::oracle::{self, Verdict};
use agui_wire_fuzz::to_json::minify;
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

/// Integral numbers as plain integers, everywhere in `v`.
fn integral_numbers(v: &mut Value) {
    match v {
        Value::Number(n) => {
            if let Some(i) = oracle::integral(&n.to_string()).filter(|&i| i < 1 << 53) {
                *v = Value::from(i as u64);
            }
        }
        Value::Array(a) => a.iter_mut().for_each(integral_numbers),
        Value::Object(o) => o.values_mut().for_each(integral_numbers),
        _ => {}
    }
}

fuzz_target!(|data: &[u8]| {
    let arena = Bump::new();
    let mut parsed = Vec::new();
    for line in data.split(|&b| b == b'\n') {
        if let Err(e) = event_paths_agree(line) {
            panic!("fast and general event parsers disagree: {e}");
        }
        let tight = ParseOptions {
            max_depth: 4,
            max_list_items: 2,
            ..ParseOptions::default()
        };
        let opens = line.iter().enumerate().filter(|&(_, &b)| b == b'[');
        for (at, _) in opens.take(8) {
            for opts in [&ParseOptions::default(), &tight] {
                if let Err(e) = compact_patch_agrees(line, at, 1, opts) {
                    panic!("compact and general patch readers disagree: {e}");
                }
            }
        }
        let strict = Event::parse_with(line, &arena, &ParseOptions::default());
        let lenient = Event::parse_with(line, &arena, &ParseOptions::lenient());
        match (&strict, &lenient) {
            (Ok(s), Ok(l)) => assert_eq!(s, l, "lenient reads a strict event differently"),
            (Ok(_), Err(e)) => panic!("lenient rejects a strict event: {e}"),
            (Err(e), _) => check_error(line, e),
        }
        let Ok(event) = lenient else { continue };
        let verdict = oracle::serde(line);
        assert!(
            !matches!(verdict, Verdict::Reject(_) | Verdict::TooDeep),
            "an event serde_json rejects: {verdict:?}"
        );
        let written = event.to_json_vec();
        assert_eq!(event.json_len(), written.len());
        assert_eq!(minify(&written), written, "not compact");
        let back = Event::parse(&written, &arena).unwrap_or_else(|e| {
            panic!(
                "written event does not parse ({e}): {}",
                String::from_utf8_lossy(&written)
            )
        });
        assert_eq!(back, event, "parse(write(event)) != event");
        assert_eq!(back.to_json_vec(), written, "writing is not a fixed point");
        if let (Ok(_), Verdict::Accept(mut want)) = (&strict, verdict) {
            let mut got: Value = serde_json::from_slice(&written).expect("written JSON");
            integral_numbers(&mut want);
            integral_numbers(&mut got);
            assert_eq!(got, want, "the written event means something else");
        }
        parsed.push(event);
    }
    let mut reducer = Reducer::new();
    for event in &parsed {
        if reducer.apply(event).is_err() {
            break;
        }
    }
    let snapshot = reducer.to_json();
    if let Verdict::Reject(e) = oracle::serde(snapshot.as_bytes()) {
        panic!("the reducer's snapshot is not JSON ({e}): {snapshot}");
    }
});
