//! Write-then-parse on structured models: a `RunAgentInput` or `AgentCapabilities` built from
//! the fuzz bytes with `arbitrary` (every role, part and source type, strings plain or already
//! escaped in any JSON spelling, unicode, nested raw JSON with whitespace and repeated keys,
//! unknown fields everywhere; see `agui_wire_fuzz::arb`) is written, and:
//! - the output is compact JSON that serde_json reads as exactly the model's JSON (`to_json`);
//! - `json_len`, `write_json_to` (io) and `to_io_slices` (vectored, any threshold) all agree
//!   with `to_json_vec`;
//! - parsing the output gives a model equal to the one written, and writing that again gives
//!   the same bytes.
#![no_main]

use std::fmt::Debug;

use agui_wire::writer::to_io_slices_with_threshold;
use agui_wire::{AgentCapabilities, Bump, Error, RunAgentInput, WriteJson};
use agui_wire_fuzz::arb::Gen;
use agui_wire_fuzz::to_json::{Conv, minify};
use arbitrary::Unstructured;
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

fn check<'a, D: WriteJson + PartialEq + Debug>(
    doc: &D,
    threshold: usize,
    arena: &'a Bump,
    want: Value,
    parse: impl Fn(&'a [u8], &'a Bump) -> Result<D, Error>,
    bytes: &'a mut Vec<u8>,
) {
    *bytes = doc.to_json_vec();
    let bytes: &'a [u8] = bytes;
    assert_eq!(doc.json_len(), bytes.len(), "json_len");
    let mut io = Vec::new();
    doc.write_json_to(&mut io).expect("writing to a Vec");
    assert_eq!(io, bytes, "write_json_to");
    let mut scratch = Vec::new();
    let joined: Vec<u8> = to_io_slices_with_threshold(doc, &mut scratch, threshold)
        .iter()
        .flat_map(|s| s.iter().copied())
        .collect();
    assert_eq!(joined, bytes, "to_io_slices, threshold {threshold}");
    assert_eq!(minify(bytes), bytes, "output is not compact");

    let seen: Value = serde_json::from_slice(bytes).unwrap_or_else(|e| {
        panic!(
            "serde_json rejects the output ({e}): {}",
            String::from_utf8_lossy(bytes)
        )
    });
    assert_eq!(
        seen, want,
        "serde_json reads something else than was written"
    );

    let back = parse(bytes, arena).unwrap_or_else(|e| {
        panic!(
            "output does not parse ({e}): {}",
            String::from_utf8_lossy(bytes)
        )
    });
    assert_eq!(&back, doc, "parse(write(model)) != model");
    assert_eq!(
        back.to_json_vec(),
        bytes,
        "write(parse(write(model))) != write(model)"
    );
}

fuzz_target!(|data: &[u8]| {
    let arena = Bump::new();
    let mut u = Unstructured::new(data);
    let capabilities = u.ratio(1, 4).unwrap_or(false);
    let threshold = u.int_in_range(0..=64).unwrap_or(0);
    let mut g = Gen::new(&mut u, &arena);
    let parsed = Bump::new();
    let mut bytes = Vec::new();
    if capabilities {
        let Ok(doc) = g.capabilities() else { return };
        let want = Conv::owned().capabilities(&doc);
        check(
            &doc,
            threshold,
            &parsed,
            want,
            AgentCapabilities::parse,
            &mut bytes,
        );
    } else {
        let Ok(doc) = g.input() else { return };
        let want = Conv::owned().input(&doc);
        check(
            &doc,
            threshold,
            &parsed,
            want,
            RunAgentInput::parse,
            &mut bytes,
        );
    }
});
