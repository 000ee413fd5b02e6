//! Hooks for the differential fuzz targets (`fast_vs_scalar`, `events`, `skip_index` in
//! `fuzz/fuzz_targets`): the fast paths and their scalar twins or general paths, reachable
//! from outside the crate. (A run-time switch to the
//! scalar kernel for whole parses was tried and dropped: it cost 4% of the instructions of
//! a chat parse, by callgrind.) Hidden from the docs and
//! not part of the API: they may change or go away in any release.

use super::ParseOptions;

/// Runs every string kernel this CPU has (AVX2, SSE2, the dispatching entry points) and the
/// portable scalar one at byte `at` of `bytes`, and says where they disagree: the end of the
/// plain run found from `at`, the masks of special and non-ASCII bytes of the 64-byte block
/// at `at`, and the first line end (`\n` or `\r`) from `at`, which the SSE decoder looks for.
/// (A vector kernel may report non-ASCII bytes just past the run; missing one is an error.)
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

/// Checks the UTF-8 of the bytes from `at` with every check a string's UTF-8 may take on this
/// CPU (the dispatching entry point, and the AVX2 kernel where the CPU has it) against std, on
/// ranges that end on and around each 32-byte chunk edge and at `at + 300` (or the end), and
/// says where they disagree.
///
/// ```
/// use agui_wire::parser::differential::utf8_kernels_agree;
/// let text = "naïve café, 字符, 😀 and a cut sequence: ".repeat(4);
/// let mut bytes = text.into_bytes();
/// bytes.push(0xE2);
/// for at in 0..bytes.len() {
///     utf8_kernels_agree(&bytes, at).unwrap();
/// }
/// ```
pub fn utf8_kernels_agree(bytes: &[u8], at: usize) -> Result<(), String> {
    crate::scanner::simd::utf8_agrees(bytes, at)
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

/// Validates the JSON value at the start of `bytes` as the chunk-fed parser does, in passes
/// over a growing buffer (its prefixes ending at each of `cuts`, then the whole; the
/// structural index keeps its state from pass to pass), and in one go, and says where they
/// differ: kind, end, whitespace count, or error kind and offset.
///
/// ```
/// use agui_wire::parser::differential::skip_in_passes_agrees;
/// let doc = format!(r#"[{}"x\u00e9"]"#, "1.5, true, ".repeat(20));
/// skip_in_passes_agrees(doc.as_bytes(), &[1, 40, 41, 100], 0, 128).unwrap();
/// skip_in_passes_agrees(b"[1, 2,]", &[3], 0, 128).unwrap(); // the same error
/// ```
pub fn skip_in_passes_agrees(
    bytes: &[u8],
    cuts: &[usize],
    depth: usize,
    max_depth: usize,
) -> Result<(), String> {
    crate::scanner::index::passes_agree(bytes, cuts, depth, max_depth)
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

/// Runs [`Event::parse_with`](crate::Event::parse_with)'s fast paths (the compact templates
/// and the one-pass reader) and the general parser on `input`, with the default and the
/// lenient options, and says where they disagree: what a template reads, the one-pass reader
/// must read the same when it reads the event at all (it does not cover `TOOL_CALL_RESULT`,
/// nor a field out of the canonical order); when either reads an event, the general parser
/// must read the same one (equal, same debug form, same written JSON). Returns whether a fast
/// path read it (with the default options).
///
/// ```
/// use agui_wire::parser::differential::event_paths_agree;
/// assert_eq!(event_paths_agree(br#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"hi"}"#), Ok(true));
/// assert_eq!(event_paths_agree(br#"{"messageId":"m","type":"TEXT_MESSAGE_CONTENT","delta":"hi"}"#), Ok(false));
/// ```
pub fn event_paths_agree(input: &[u8]) -> Result<bool, String> {
    use crate::WriteJson;
    use crate::events::fast;
    let arena = bumpalo::Bump::new();
    let mut read = false;
    for (k, opts) in [ParseOptions::default(), ParseOptions::lenient()]
        .iter()
        .enumerate()
    {
        let mut fields = fast::Fields::new();
        let templated = fast::template(input, &arena, opts)
            .map(fast::build_templated)
            .or_else(|| fast::tool_result(input, &arena, opts));
        let one_pass = fast::read(input, &arena, opts, &mut fields).then(|| fast::build(fields));
        if let (Some(t), Some(q)) = (&templated, &one_pass)
            && (t != q || format!("{t:?}") != format!("{q:?}"))
        {
            return Err(format!("template {t:?}, fast path {q:?}"));
        }
        let Some(quick) = templated.or(one_pass) else {
            continue;
        };
        read |= k == 0;
        let general = crate::Event::parse_general(input, &arena, opts)
            .map_err(|e| format!("the fast path reads {quick:?}, the general parser fails: {e}"))?;
        if quick != general || format!("{quick:?}") != format!("{general:?}") {
            return Err(format!("fast {quick:?}, general {general:?}"));
        }
        if quick.to_json_vec() != general.to_json_vec() {
            return Err(format!("written differently: {quick:?}"));
        }
    }
    Ok(read)
}

/// Whether one of [`Event::parse_with`](crate::Event::parse_with)'s compact templates (a
/// `TEXT_MESSAGE_CONTENT` or `TOOL_CALL_ARGS` of exactly `type`, id, `delta`; an assistant's
/// `TEXT_MESSAGE_START`; a `TEXT_MESSAGE_END` or `TOOL_CALL_END` of `type` and id; a
/// `STATE_DELTA` of `type` and `delta`; a `TOOL_CALL_RESULT` of `type`, `messageId`,
/// `toolCallId` and a string `content` with or without `"role":"tool"` before or after it;
/// no whitespace around the fields) reads `input`, with the default options. (What it reads, [`event_paths_agree`] checks.)
///
/// ```
/// use agui_wire::parser::differential::event_template_reads;
/// assert!(event_template_reads(br#"{"type":"TOOL_CALL_ARGS","toolCallId":"c","delta":"{"}"#));
/// assert!(!event_template_reads(br#"{"type":"TOOL_CALL_ARGS", "toolCallId":"c","delta":"{"}"#));
/// ```
pub fn event_template_reads(input: &[u8]) -> bool {
    let arena = bumpalo::Bump::new();
    let opts = ParseOptions::default();
    crate::events::fast::template(input, &arena, &opts).is_some()
        || crate::events::fast::tool_result(input, &arena, &opts).is_some()
}

/// Runs the scanner's short-string look and its general string scanner on the string whose
/// opening quote is at `at`: when the short look reads it, the general scanner must read the
/// same token and stop at the same place. Returns whether the short look read it.
///
/// ```
/// use agui_wire::parser::differential::short_string_agrees;
/// assert_eq!(short_string_agrees(br#""a \"quoted\" word", "#, 0), Ok(true));
/// // Left to the general scanner: a `\u` escape, an input shorter than the 16-byte look.
/// assert_eq!(short_string_agrees(br#""\u00e9 is e with an accent""#, 0), Ok(false));
/// assert_eq!(short_string_agrees(br#""short""#, 0), Ok(false));
/// ```
pub fn short_string_agrees(bytes: &[u8], at: usize) -> Result<bool, String> {
    use crate::scanner::Cursor;
    if bytes.get(at) != Some(&b'"') {
        return Ok(false);
    }
    let mut short = Cursor::new(bytes);
    short.pos = at;
    let Some(s) = short.short_string() else {
        if short.pos != at {
            return Err(format!(
                "the short look moved the cursor at {at} and gave up"
            ));
        }
        return Ok(false);
    };
    let mut general = Cursor::new(bytes);
    general.pos = at;
    match general.string() {
        Ok(g)
            if (g.raw, g.start, g.escaped, general.pos)
                == (s.raw, s.start, s.escaped, short.pos) =>
        {
            Ok(true)
        }
        Ok(g) => Err(format!(
            "at {at}: short ({:?}, {}, {}) to {}, general ({:?}, {}, {}) to {}",
            s.raw, s.start, s.escaped, short.pos, g.raw, g.start, g.escaped, general.pos
        )),
        Err(e) => Err(format!(
            "at {at}: short reads {:?}, general fails: {e:?}",
            s.raw
        )),
    }
}

/// Runs the quick validator of patch values (`events::small`) and the scanner's general skip
/// on the value at `at`, `depth` containers deep with the limit `max_depth`: when the quick
/// one reads it, the general skip must read it too, to the same place and over no
/// whitespace; when it does not, it must leave the cursor where it was (the general skip then
/// runs from there, so errors, offsets and paths are the general skip's). Returns whether the
/// quick one read it.
///
/// ```
/// use agui_wire::parser::differential::small_value_agrees;
/// let v = r#"{"done":true,"note":"turn 3 — ok","n":[-1.5e3,null,{}]}"#.as_bytes();
/// assert_eq!(small_value_agrees(v, 0, 1, 64), Ok(true));
/// // Left to the general skip: whitespace, a depth past the limit, a bad value.
/// assert_eq!(small_value_agrees(br#"{"a": 1}"#, 0, 1, 64), Ok(false));
/// assert_eq!(small_value_agrees(br#"[[[]]]"#, 0, 1, 3), Ok(false));
/// assert_eq!(small_value_agrees(br#"{"a":01}"#, 0, 1, 64), Ok(false));
/// ```
pub fn small_value_agrees(
    bytes: &[u8],
    at: usize,
    depth: usize,
    max_depth: usize,
) -> Result<bool, String> {
    use crate::scanner::Cursor;
    let mut quick = Cursor::new(bytes);
    quick.pos = at;
    let read = crate::events::small::small_value(&mut quick, depth, max_depth);
    if !read {
        return gave_up_in_place(&quick, at, "the quick validator");
    }
    let mut general = Cursor::new(bytes);
    general.pos = at;
    match general.skip_value(depth, max_depth) {
        Ok(_) if (general.pos, general.ws) == (quick.pos, 0) && quick.ws == 0 => Ok(true),
        Ok(_) => Err(format!(
            "at {at}: quick to {} (ws {}), general to {} (ws {})",
            quick.pos, quick.ws, general.pos, general.ws
        )),
        Err(e) => Err(format!(
            "at {at}: quick reads to {}, general fails: {e:?}",
            quick.pos
        )),
    }
}

/// Runs the compact JSON Patch reader (`events::small::compact_patch`) and the general one
/// (the list of operations `Parser::json_patch` reads otherwise) on the patch at byte `at` of
/// `bytes` (what follows it is not looked at), `depth` levels deep, under `options`
/// (`max_depth`, `max_list_items`): when the compact reader takes the patch, the general one
/// must read it too and end at the same byte with the same whitespace count; when it gives
/// up, the cursor must be where it was. Returns whether the compact reader took it.
///
/// ```
/// use agui_wire::ParseOptions;
/// use agui_wire::parser::differential::compact_patch_agrees;
/// let o = ParseOptions::default();
/// let p = br#"[{"op":"replace","path":"/a","value":{"b":[1,"c"]}},{"op":"remove","path":"/d"}]"#;
/// assert_eq!(compact_patch_agrees(p, 0, 1, &o), Ok(true));
/// assert_eq!(compact_patch_agrees(br#"[{"path":"/a","op":"remove"}]"#, 0, 1, &o), Ok(false));
/// assert_eq!(compact_patch_agrees(br#"[{"op":"remove","path":"a"}]"#, 0, 1, &o), Ok(false));
/// ```
pub fn compact_patch_agrees(
    bytes: &[u8],
    at: usize,
    depth: usize,
    options: &ParseOptions,
) -> Result<bool, String> {
    use super::Parser;
    let arena = bumpalo::Bump::new();
    let mut quick = crate::scanner::Cursor::new(bytes);
    quick.pos = at;
    let read = crate::events::small::compact_patch(
        &mut quick,
        depth,
        options.max_depth,
        options.max_list_items,
    );
    if !read {
        return gave_up_in_place(&quick, at, "the compact reader");
    }
    let mut general = Parser::new(bytes, &arena, options);
    general.cur.pos = at;
    general.depth = depth;
    match general.json_patch_general("delta") {
        Ok(()) if (general.cur.pos, general.cur.ws) == (quick.pos, quick.ws) => Ok(true),
        Ok(()) => Err(format!(
            "at {at}: compact to {} (ws {}), general to {} (ws {})",
            quick.pos, quick.ws, general.cur.pos, general.cur.ws
        )),
        Err(e) => Err(format!(
            "at {at}: compact reads to {}, general fails: {e:?}",
            quick.pos
        )),
    }
}

/// A fast reader that gave up must leave the cursor where it found it (byte `at`, no whitespace
/// counted), so that the general reader starts from the same place: `Ok(false)` if it did.
fn gave_up_in_place(
    cur: &crate::scanner::Cursor<'_>,
    at: usize,
    who: &str,
) -> Result<bool, String> {
    if (cur.pos, cur.ws) == (at, 0) {
        Ok(false)
    } else {
        Err(format!("at {at}: {who} moved the cursor and gave up"))
    }
}

/// Reads the message object at byte `at` of `bytes` (what follows it is not looked at) with the
/// template of its first fields (`"id":"…","role":"…"` read by byte compares, then a string
/// `,"content":"…"`) and without it, with the default and the lenient options, and says where they differ: the
/// message, where the cursor ends and the whitespace it counted, or the error's kind and
/// offset. Returns whether the template read the head (with the default options).
///
/// ```
/// use agui_wire::parser::differential::message_paths_agree;
/// assert_eq!(message_paths_agree(br#"{"id":"m1","role":"user","content":"hi"}"#, 0), Ok(true));
/// // Left to the general loop: whitespace, a key before `id`, an escaped role.
/// assert_eq!(message_paths_agree(br#"{ "id":"m1","role":"user","content":"hi"}"#, 0), Ok(false));
/// assert_eq!(message_paths_agree(br#"{"name":"a","id":"m1","role":"user","content":"hi"}"#, 0), Ok(false));
/// assert_eq!(message_paths_agree(br#"{"id":"m1","role":"us\u0065r","content":"hi"}"#, 0), Ok(false));
/// // The same error either way.
/// assert_eq!(message_paths_agree(br#"{"id":"m1","role":"user","id":"m2","content":"hi"}"#, 0), Ok(true));
/// // Sorted keys: `content`, `id`, `role`; the content alone when another key follows it.
/// assert_eq!(message_paths_agree(br#"{"content":"hi","id":"m1","role":"user"}"#, 0), Ok(true));
/// assert_eq!(message_paths_agree(br#"{"content":"hi","name":"a","id":"m1","role":"user"}"#, 0), Ok(true));
/// assert_eq!(message_paths_agree(br#"{"content":{},"id":"m1","role":"user"}"#, 0), Ok(true));
/// assert_eq!(message_paths_agree(br#"{"content":5,"id":"m1","role":"user"}"#, 0), Ok(false));
/// ```
pub fn message_paths_agree(bytes: &[u8], at: usize) -> Result<bool, String> {
    template_agrees(
        bytes,
        at,
        "the template",
        |probe| {
            let mut obj = probe.open().map_err(|e| format!("{e:?}"))?;
            let mut parts = super::input::MessageParts::default();
            // (An error reading the content comes after the head matched.)
            let (mut role, mut early) = (None, None);
            let read = probe.message_head(&mut obj, &mut parts, &mut role, &mut early);
            Ok(read.is_err() || role.is_some() || early.is_some())
        },
        |p, head| {
            let r = if head {
                p.message_in::<true, _>(|m| m)
            } else {
                p.message_in::<false, _>(|m| m)
            };
            // The written form too: it follows the wire order the reader recorded.
            r.map(|m| format!("{m:?} {}", written(&m)))
        },
    )
}

/// Reads the tool call object at byte `at` of `bytes` (what follows it is not looked at) with
/// the templates of its first fields (`"id":"…","type":"function","function":{`) and of its
/// function's (`"name":"…","arguments":`) and without them, with the default and the lenient
/// options, and says where they differ: the call, where the cursor ends and the whitespace
/// it counted, or the error's kind and offset. Returns whether the call's template matched
/// (with the default options).
///
/// ```
/// use agui_wire::parser::differential::tool_call_paths_agree;
/// let call = br#"{"id":"c1","type":"function","function":{"name":"f","arguments":"{}"}}"#;
/// assert_eq!(tool_call_paths_agree(call, 0), Ok(true));
/// let spaced = br#"{"id":"c1", "type":"function","function":{"name":"f","arguments":"{}"}}"#;
/// assert_eq!(tool_call_paths_agree(spaced, 0), Ok(false));
/// // The same error either way.
/// let bad = br#"{"id":"c1","type":"function","function":{"name":"f","arguments":5}}"#;
/// assert_eq!(tool_call_paths_agree(bad, 0), Ok(true));
/// ```
pub fn tool_call_paths_agree(bytes: &[u8], at: usize) -> Result<bool, String> {
    template_agrees(
        bytes,
        at,
        "the templates",
        |probe| {
            let mut obj = probe.open().map_err(|e| format!("{e:?}"))?;
            let (mut id, mut call) = (None, crate::model::ToolCall::default());
            Ok(probe.tool_call_head(&mut obj, &mut id, &mut call)
                || !matches!(
                    probe.tool_call_head_sorted(&mut obj, &mut id, &mut call),
                    Ok(None)
                ))
        },
        |p, head| {
            let r = if head {
                p.tool_call_in::<true, _>(|c| c)
            } else {
                p.tool_call_in::<false, _>(|c| c)
            };
            r.map(|c| format!("{c:?} {}", written(&c)))
        },
    )
}

/// The driver of [`message_paths_agree`] and [`tool_call_paths_agree`]: with the default and
/// the lenient options, `probe` says whether the template matches the object at `at` (a
/// parser at its `{`), and `read` reads the object from there with the template (`true`) and
/// without it; the two reads must agree ([`same_read`]). Returns whether the template matched
/// with the default options; `what` names the template in the report of a disagreement.
fn template_agrees(
    bytes: &[u8],
    at: usize,
    what: &str,
    probe: impl Fn(&mut super::Parser<'_, '_>) -> Result<bool, String>,
    read: impl Fn(&mut super::Parser<'_, '_>, bool) -> Result<String, crate::error::RawError>,
) -> Result<bool, String> {
    use super::Parser;
    if bytes.get(at) != Some(&b'{') {
        return Ok(false);
    }
    let arena = bumpalo::Bump::new();
    let mut matched = false;
    for (k, opts) in [ParseOptions::default(), ParseOptions::lenient()]
        .iter()
        .enumerate()
    {
        let mut p = Parser::new(bytes, &arena, opts);
        p.cur.pos = at;
        let head = probe(&mut p)?;
        matched |= head && k == 0;
        let run = |head: bool| {
            let mut p = Parser::new(bytes, &arena, opts);
            p.cur.pos = at;
            let r = read(&mut p, head);
            (r, p.cur.pos, p.cur.ws, p.depth)
        };
        let (fast, general) = (run(true), run(false));
        if !same_read(&fast, &general) {
            return Err(format!(
                "at {at} (head read: {head}): with {what} {fast:?}, without {general:?}"
            ));
        }
    }
    Ok(matched)
}

/// `value` written back ([`crate::writer::to_vec`]), which follows the wire order recorded
/// when it was read: two reads that recorded different orders write different bytes.
fn written<T: crate::writer::WriteJson + ?Sized>(value: &T) -> String {
    String::from_utf8_lossy(&crate::writer::to_vec(value)).into_owned()
}

/// What one reader of an object gave, for the agreement functions of the templates: the value
/// (its debug form) or the error, then the cursor, the whitespace it counted and the depth.
type Read = (Result<String, crate::error::RawError>, usize, usize, usize);

/// Whether a template's read and the general loop's agree: the same value and the cursor,
/// whitespace count and depth after it, or an error of the same kind at the same offset.
fn same_read(fast: &Read, general: &Read) -> bool {
    match (&fast.0, &general.0) {
        (Ok(a), Ok(b)) => a == b && (fast.1, fast.2, fast.3) == (general.1, general.2, general.3),
        (Err(a), Err(b)) => a.kind == b.kind && a.offset == b.offset,
        _ => false,
    }
}
