//! The structural index against the byte-by-byte validator, on the same bytes: every stage-1
//! kernel (AVX2 where the CPU has it) against the portable one over the whole input, bit for
//! bit; then the value at the start of the input validated byte by byte, through
//! `skip_value` as parsing runs it (the index for large containers), and by the indexed walk
//! alone on every kernel: the same kind, end and whitespace count, or the same error kind and
//! offset (the walk may only give up where there is an error). Each input is also tried
//! wrapped in an array (so that a scalar becomes a container) and under a small depth limit
//! taken from its length, so the limit is met often. Last, the value is validated in passes
//! over a growing buffer, as the chunk-fed parser does (the walk keeps its state from pass to
//! pass), cut every `chunk` bytes (a chunk size taken from the input's length, 1 to 97) and at
//! two places taken from its first bytes: the same verdict as in one go, and the resumable walk
//! on the portable kernel and on AVX2 in the same state after every pass.
#![no_main]

use agui_wire::parser::differential::{
    index_kernels_agree, skip_in_passes_agrees, skip_paths_agree,
};
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
    let chunk = 1 + data.len() % 97;
    let at = |k: usize| data.get(k).map_or(0, |&b| b as usize * data.len() / 256);
    for (doc, limit) in [(data, 128), (&wrapped[..], 128), (&wrapped[..], small)] {
        let mut cuts: Vec<usize> = (1..doc.len()).step_by(chunk).collect();
        cuts.extend([at(0), at(1)]);
        if let Err(e) = skip_in_passes_agrees(doc, &cuts, 0, limit) {
            panic!("passes disagree with one go (limit {limit}): {e}");
        }
    }
});
