//! `RunAgentInput::parse_with` on any bytes: never panics; what it accepts serde_json accepts,
//! and the model read back as JSON is exactly serde_json's value of the same bytes (every
//! string unescaped the same, every raw field valid JSON and a slice of the input); strict,
//! lenient, tight-limit and default parses agree with each other (see `agui_wire_fuzz::drive`).
#![no_main]

use agui_wire::{Bump, RunAgentInput};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let arenas: [Bump; 4] = Default::default();
    agui_wire_fuzz::drive::check_document::<RunAgentInput<'_>>(data, &arenas);
});
