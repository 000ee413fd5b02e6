//! Parse-then-write on any bytes (the proxy's path): whatever `RunAgentInput::parse` (or
//! `AgentCapabilities::parse`) accepts is written as compact JSON that serde_json reads as the
//! same value as the original bytes; it parses back to an equal model, and writing is a fixed
//! point (writing the re-parsed model gives the same bytes). Inputs that are already in the
//! writer's form come out byte for byte.
#![no_main]

use agui_wire::{AgentCapabilities, Bump, RunAgentInput, WriteJson};
use agui_wire_fuzz::oracle::{self, Verdict};
use agui_wire_fuzz::to_json::minify;
use libfuzzer_sys::fuzz_target;

/// Integral numbers as integers: typed integer fields (`maxExecutionTime`, `maxIterations`)
/// accept any integral spelling (`10.0`, `1e1`) and are written as plain integers, which
/// serde_json reads as a different `Value` (a float against an integer) of the same meaning.
/// `-0` is such a spelling too: written `0`, which `arbitrary_precision` keeps apart from `-0`
/// (it is not a float there, having no `.` or exponent). (serde_json's values nest at most 128
/// deep, so the recursion is bounded.)
fn integral(v: serde_json::Value) -> serde_json::Value {
    use serde_json::Value;
    match v {
        Value::Number(n) => match n.as_f64() {
            Some(f)
                if (n.is_f64() || n.as_str() == "-0")
                    && f.fract() == 0.0
                    && f.abs() < 9_007_199_254_740_992.0 =>
            {
                Value::from(f as i64)
            }
            _ => Value::Number(n),
        },
        Value::Array(a) => Value::Array(a.into_iter().map(integral).collect()),
        Value::Object(o) => Value::Object(o.into_iter().map(|(k, v)| (k, integral(v))).collect()),
        other => other,
    }
}

fn same_value(original: &[u8], written: &[u8]) {
    if let Verdict::Accept(want) = oracle::serde(original) {
        let got: serde_json::Value = serde_json::from_slice(written).expect("written JSON");
        assert_eq!(
            integral(got),
            integral(want),
            "the written document means something else"
        );
    }
}

fuzz_target!(|data: &[u8]| {
    let arena = Bump::new();
    if let Ok(doc) = RunAgentInput::parse(data, &arena) {
        let w1 = doc.to_json_vec();
        assert_eq!(minify(&w1), w1, "not compact");
        same_value(data, &w1);
        let back = RunAgentInput::parse(&w1, &arena).expect("written input parses");
        assert_eq!(back, doc);
        let w2 = back.to_json_vec();
        assert_eq!(w2, w1, "writing is not a fixed point");
        if minify(data) == data && !data.contains(&b'\\') {
            assert_eq!(
                w1, data,
                "a compact, unescaped input is not written byte for byte"
            );
        }
    }
    if let Ok(caps) = AgentCapabilities::parse(data, &arena) {
        let w1 = caps.to_json_vec();
        same_value(data, &w1);
        let back = AgentCapabilities::parse(&w1, &arena).expect("written capabilities parse");
        assert_eq!(back, caps);
        assert_eq!(back.to_json_vec(), w1, "writing is not a fixed point");
    }
});
