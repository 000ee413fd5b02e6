//! `AgentCapabilities::parse_with` on any bytes, with the same four-way differential as
//! `parse_input`: serde_json's value must equal the model read back as JSON (booleans, the
//! 64-bit integers of `execution`, mime-type lists, subagents, `custom`, unknown fields).
#![no_main]

use agui_wire::{AgentCapabilities, Bump};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let arenas: [Bump; 4] = Default::default();
    agui_wire_fuzz::drive::check_document::<AgentCapabilities<'_>>(data, &arenas);
});
