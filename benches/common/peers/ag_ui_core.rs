//! `ag-ui-core` 0.1.0, the AG-UI project's own Rust crate: owned serde types with
//! `serde_json::Value` for state and forwarded props, read with `serde_json::from_slice`.
//!
//! It follows an older protocol: thread, run and message ids must be UUIDs, `state`,
//! `tools`, `context` and `forwardedProps` are required, user content is a plain string,
//! and there are no `activity`/`reasoning` roles nor content parts. It therefore only reads
//! the corpora generated for it ([`Dialect::AgUiCore`](crate::common::corpus::Dialect)).

use ag_ui_core::types::input::RunAgentInput;
use ag_ui_core::types::message::Message;
use serde_json::Value;

use crate::common::corpus::Summary;

/// Parses with ag-ui-core's types.
pub fn parse(input: &[u8]) -> serde_json::Result<RunAgentInput> {
    serde_json::from_slice(input)
}

fn keys(v: &Value) -> Option<usize> {
    Some(v.as_object().map_or(0, |o| o.len()))
}

/// What its model saw, in the generator's terms (it has no `resume`).
pub fn summary(r: &RunAgentInput) -> Summary {
    let mut s = Summary {
        messages: r.messages.len(),
        tools: r.tools.len(),
        context: r.context.len(),
        state_keys: keys(&r.state),
        forwarded_keys: keys(&r.forwarded_props),
        ..Summary::default()
    };
    for m in &r.messages {
        s.text_bytes += m.content().map_or(0, str::len);
        if let Message::Assistant { tool_calls, .. } = m {
            for c in tool_calls.iter().flatten() {
                s.tool_calls += 1;
                s.args_bytes += c.function.arguments.len();
            }
        }
    }
    s
}
