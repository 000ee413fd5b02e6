//! Hooks for the differential fuzz targets `fast_vs_scalar` and `skip_index` (`fuzz/fuzz_targets`): the fast
//! paths and their scalar twins, reachable from outside the crate. (A run-time switch to the
//! scalar kernel for whole parses was tried and dropped: it cost 4% of the instructions of
//! a chat parse, by callgrind.) Hidden from the docs and
//! not part of the API: they may change or go away in any release.

/// Runs every string kernel this CPU has (AVX2, SSE2, the dispatching entry points) and the
/// portable scalar one at byte `at` of `bytes`, and says where they disagree: the end of the
/// plain run found from `at`, and the masks of special and non-ASCII bytes of the 64-byte
/// block at `at`. (A vector kernel may report non-ASCII bytes just past the run; missing
/// one is an error.)
///
/// ```
/// use agui_wire::parser::differential::string_kernels_agree;
/// let doc = r#"{"text":"café \"quoted\" and plain text past one vector"}"#.as_bytes();
/// for at in 0..doc.len() {
///     string_kernels_agree(doc, at).unwrap();
/// }
/// ```
pub fn string_kernels_agree(bytes: &[u8], at: usize) -> Result<(), String> {
    crate::scanner::simd::kernels_agree(bytes, at)
}

/// Runs every stage-1 kernel of the structural index this CPU has (AVX2) and the portable one
/// over `bytes` (64-byte blocks from offset 0, with the state carried across block edges) and
/// says where their masks differ.
///
/// ```
/// use agui_wire::parser::differential::index_kernels_agree;
/// index_kernels_agree(br#"{"a":"b\\\"c","d":[1,true]}"#).unwrap();
/// ```
pub fn index_kernels_agree(bytes: &[u8]) -> Result<(), String> {
    crate::scanner::index::kernels_agree(bytes)
}

/// Validates the JSON value at the start of `bytes` (after whitespace; what follows it is not
/// looked at) with the byte-by-byte validator, with the validator as parsing runs it (the
/// structural index for large containers), and with the indexed walk alone on every kernel,
/// and says where they differ: kind, end, whitespace count, or error kind and offset.
/// `depth` is the nesting depth of the value's container, `max_depth` the limit.
///
/// ```
/// use agui_wire::parser::differential::skip_paths_agree;
/// skip_paths_agree(br#" {"a": [1, 2.5, "x\u00e9"], "b": null} tail"#, 0, 128).unwrap();
/// skip_paths_agree(b"[1, 2,]", 0, 128).unwrap(); // the same error every way
/// ```
pub fn skip_paths_agree(bytes: &[u8], depth: usize, max_depth: usize) -> Result<(), String> {
    crate::scanner::index::skip_paths_agree(bytes, depth, max_depth)
}

/// Unescapes JSON string content the fast way (runs between backslashes copied whole), as
/// [`Str::unescaped`](crate::Str::unescaped) and [`Str::in_arena`](crate::Str::in_arena) do.
///
/// ```
/// assert_eq!(agui_wire::parser::differential::unescape_fast(r"a\nb"), "a\nb");
/// ```
pub fn unescape_fast(raw: &str) -> String {
    crate::model::unescape_fast(raw)
}

/// Unescapes JSON string content one byte at a time: the scalar twin of [`unescape_fast`].
///
/// ```
/// assert_eq!(agui_wire::parser::differential::unescape_scalar(r"\u00e9"), "é");
/// ```
pub fn unescape_scalar(raw: &str) -> String {
    crate::model::unescape_scalar(raw)
}
