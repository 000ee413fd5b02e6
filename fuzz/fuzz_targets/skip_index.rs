//! The structural index against the byte-by-byte validator, on the same bytes: every stage-1
//! kernel (AVX2 where the CPU has it) against the portable one over the whole input, bit for
//! bit; then the value at the start of the input validated byte by byte, through
//! `skip_value` as parsing runs it (the index for large containers), and by the indexed walk
//! alone on every kernel: the same kind, end and whitespace count, or the same error kind and
//! offset (the walk may only give up where there is an error). Each input is also tried
//! wrapped in an array (so that a scalar becomes a container) and under a small depth limit
//! taken from its length, so the limit is met often.
#![no_main]

use agui_wire::parser::differential::{index_kernels_agree, skip_paths_agree};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = index_kernels_agree(data) {
        panic!("index kernels disagree: {e}");
    }
    let wrapped = [&b"["[..], data, b"]"].concat();
    let small = 1 + data.len() % 9;
    for (doc, depth, limit) in [
        (data, 0, 128),
        (data, 1, small),
        (&wrapped[..], 0, 128),
        (&wrapped[..], 0, small),
    ] {
        if let Err(e) = skip_paths_agree(doc, depth, limit) {
            panic!("skip paths disagree (depth {depth}, limit {limit}): {e}");
        }
    }
});
