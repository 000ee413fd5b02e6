//! Tests of `agui_wire::sse`: the WHATWG interpretation rules, chunking independence (every
//! split point, 1-byte chunks, random chunkings, compared with a spec-literal reference decoder
//! written here), zero-copy, the size bound, the encoder round trip and the `Read` adapter.
//!
//! Most tests read the end of the stream strictly (the standard's reading, where an
//! unterminated last frame is an error); the default reading, which delivers that frame as the
//! official TypeScript client does, is checked against the reference run on the stream with its
//! line end and blank line supplied.

use std::io::{self, Read};

use agui_wire::sse::{
    SseDecoder, SseError, SseErrorKind, SseItem, SseOptions, SseReadError, SseReader,
    encode_comment, encode_event, encode_frame, encode_retry,
};

// ----- owned results ------------------------------------------------------------------------

#[derive(Clone, Debug, PartialEq, Eq)]
enum It {
    Frame {
        event: Option<String>,
        data: Vec<u8>,
        id: Option<String>,
        offset: u64,
    },
    Comment(Vec<u8>),
    Retry(u64),
    LastId(String),
    Err(SseError),
}

impl It {
    fn from_item(item: Result<SseItem<'_>, SseError>) -> It {
        match item {
            Ok(SseItem::Frame(f)) => It::Frame {
                event: f.event.map(str::to_owned),
                data: f.data.to_vec(),
                id: f.id.map(str::to_owned),
                offset: f.data_offset,
            },
            Ok(SseItem::Comment(c)) => It::Comment(c.to_vec()),
            Ok(SseItem::Retry(r)) => It::Retry(r),
            Ok(SseItem::LastEventId(id)) => It::LastId(id.to_owned()),
            Err(e) => It::Err(e),
        }
    }

    fn is_frame_or_err(&self) -> bool {
        matches!(self, It::Frame { .. } | It::Err(_))
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Outcome {
    items: Vec<It>,
    finish: Result<Option<It>, SseError>,
    last_id: String,
    retry: Option<u64>,
}

impl Outcome {
    /// `items`, with what `decoder` holds once they were read and it is finished.
    fn after(decoder: &mut SseDecoder, items: Vec<It>) -> Outcome {
        let finish = decoder
            .finish()
            .map(|f| f.map(|f| It::from_item(Ok(SseItem::Frame(f)))));
        let last_id = decoder.last_event_id().to_owned();
        let retry = decoder.retry();
        Outcome {
            items,
            finish,
            last_id,
            retry,
        }
    }
}

/// The standard's reading of the end of the stream.
fn strict() -> SseOptions {
    SseOptions::new().with_strict_end(true)
}

fn opts(max: usize) -> SseOptions {
    strict().with_max_frame_bytes(max)
}

/// Decodes `chunks` with `next_item`.
fn decode_items(chunks: &[&[u8]], options: SseOptions) -> Outcome {
    let mut decoder = SseDecoder::new(options);
    let mut items = Vec::new();
    for chunk in chunks {
        let mut feed = decoder.feed(chunk);
        while let Some(item) = feed.next_item() {
            items.push(It::from_item(item));
        }
    }
    Outcome::after(&mut decoder, items)
}

/// Decodes `chunks` with `next` (frames and errors only).
fn decode_frames(chunks: &[&[u8]], options: SseOptions) -> Outcome {
    let mut decoder = SseDecoder::new(options);
    let mut items = Vec::new();
    for chunk in chunks {
        let mut feed = decoder.feed(chunk);
        while let Some(frame) = feed.next() {
            items.push(It::from_item(frame.map(SseItem::Frame)));
        }
    }
    Outcome::after(&mut decoder, items)
}

fn one_shot(input: &[u8]) -> Outcome {
    decode_items(&[input], strict())
}

fn frame(data: &str, offset: u64) -> It {
    It::Frame {
        event: None,
        data: data.as_bytes().to_vec(),
        id: None,
        offset,
    }
}

fn datas(out: &Outcome) -> Vec<String> {
    out.items
        .iter()
        .filter_map(|it| match it {
            It::Frame { data, .. } => Some(String::from_utf8_lossy(data).into_owned()),
            _ => None,
        })
        .collect()
}

// ----- a spec-literal reference decoder (whole input at once) --------------------------------

fn reference(input: &[u8], max: usize) -> Outcome {
    const BOM: &[u8] = b"\xEF\xBB\xBF";
    let mut items = Vec::new();
    let mut last_id = String::new();
    let mut retry = None;
    if !input.is_empty() && input.len() < 3 && BOM.starts_with(input) {
        // Held as a possible BOM until the end.
        let finish = Err(incomplete(input.len() as u64, 0));
        return Outcome {
            items,
            finish,
            last_id,
            retry,
        };
    }
    let mut pos = if input.starts_with(BOM) { 3 } else { 0 };
    // (start, content end, terminated)
    let mut lines = Vec::new();
    while pos < input.len() {
        let start = pos;
        let mut end = pos;
        while end < input.len() && input[end] != b'\n' && input[end] != b'\r' {
            end += 1;
        }
        if end == input.len() {
            lines.push((start, end, false));
            break;
        }
        let term = if input[end] == b'\r' && input.get(end + 1) == Some(&b'\n') {
            2
        } else {
            1
        };
        lines.push((start, end, true));
        pos = end + term;
    }

    let mut frame_start: Option<usize> = None;
    let mut skipping = false;
    let mut data: Vec<u8> = Vec::new();
    let mut data_offset = 0u64;
    let mut event = String::new();
    let mut id: Option<String> = None;
    for (start, end, terminated) in lines {
        let line = &input[start..end];
        if line.is_empty() {
            if frame_start.is_some() && !skipping {
                if let Some(id) = &id {
                    last_id = id.clone();
                }
                if data.is_empty() {
                    if id.is_some() {
                        items.push(It::LastId(last_id.clone()));
                    }
                } else {
                    data.pop();
                    items.push(It::Frame {
                        event: (!event.is_empty()).then(|| event.clone()),
                        data: data.clone(),
                        id: id.is_some().then(|| last_id.clone()),
                        offset: data_offset,
                    });
                }
            }
            frame_start = None;
            skipping = false;
            data.clear();
            event.clear();
            id = None;
            continue;
        }
        let fs = *frame_start.get_or_insert(start);
        if skipping {
            continue;
        }
        if end - fs > max {
            items.push(It::Err(too_long(max, fs as u64)));
            skipping = true;
            continue;
        }
        if !terminated {
            break;
        }
        if line[0] == b':' {
            let mut text = &line[1..];
            if text.first() == Some(&b' ') {
                text = &text[1..];
            }
            items.push(It::Comment(text.to_vec()));
            continue;
        }
        let (name, mut value, mut value_at) = match line.iter().position(|&b| b == b':') {
            Some(i) => (&line[..i], &line[i + 1..], start + i + 1),
            None => (line, &line[line.len()..], end),
        };
        if value.first() == Some(&b' ') {
            value = &value[1..];
            value_at += 1;
        }
        match name {
            b"data" => {
                if data.is_empty() {
                    data_offset = value_at as u64;
                }
                data.extend_from_slice(value);
                data.push(b'\n');
            }
            b"event" => match std::str::from_utf8(value) {
                Ok(v) => event = v.to_owned(),
                Err(e) => {
                    items.push(It::Err(bad_utf8(
                        "event",
                        (value_at + e.valid_up_to()) as u64,
                    )));
                    skipping = true;
                }
            },
            b"id" if !value.contains(&0) => match std::str::from_utf8(value) {
                Ok(v) => id = Some(v.to_owned()),
                Err(e) => {
                    items.push(It::Err(bad_utf8("id", (value_at + e.valid_up_to()) as u64)));
                    skipping = true;
                }
            },
            b"retry" if !value.is_empty() && value.iter().all(u8::is_ascii_digit) => {
                let ms = value.iter().fold(0u64, |acc, &d| {
                    acc.saturating_mul(10).saturating_add(u64::from(d - b'0'))
                });
                retry = Some(ms);
                items.push(It::Retry(ms));
            }
            _ => {}
        }
    }
    let finish = match frame_start {
        Some(fs) => Err(incomplete((input.len() - fs) as u64, fs as u64)),
        None => Ok(None),
    };
    Outcome {
        items,
        finish,
        last_id,
        retry,
    }
}

/// The default reading of the end of the stream: the reference run on the stream with the
/// missing line end and blank line supplied (each a lone CR, as the decoder does). What those
/// complete is what `finish` gives: the first frame or error.
fn reference_lenient(input: &[u8], max: usize) -> Outcome {
    let strict = reference(input, max);
    if strict.finish.is_ok() {
        return strict;
    }
    let mut closed = input.to_vec();
    if !matches!(input.last(), Some(b'\n' | b'\r')) {
        closed.push(b'\r');
    }
    closed.push(b'\r');
    let mut full = reference(&closed, max);
    assert_eq!(full.finish, Ok(None), "{closed:?}");
    let tail = full.items.split_off(strict.items.len());
    assert_eq!(full.items, strict.items, "{closed:?}");
    full.finish = match tail.into_iter().find(It::is_frame_or_err) {
        Some(It::Err(e)) => Err(e),
        other => Ok(other),
    };
    full
}

// Errors are compared through their kind and offset; build expected ones by decoding.
fn too_long(max: usize, at: u64) -> SseError {
    let input = format!("{}\n", "x".repeat(max + 1));
    let mut pad = vec![b'\n'; 0];
    // Place a too-long frame at offset `at` behind blank lines.
    pad.resize(at as usize, b'\n');
    pad.extend_from_slice(input.as_bytes());
    let out = decode_items(&[&pad], opts(max));
    match out.items.first() {
        Some(It::Err(e)) => {
            assert_eq!(
                e.kind(),
                &SseErrorKind::FrameTooLong {
                    max_frame_bytes: max
                }
            );
            assert_eq!(e.offset(), at);
            e.clone()
        }
        other => panic!("{other:?}"),
    }
}

fn bad_utf8(field: &str, at: u64) -> SseError {
    let mut input = vec![b'\n'; at as usize - field.len() - 1];
    input.extend_from_slice(field.as_bytes());
    input.extend_from_slice(b":\xFF\n");
    let out = one_shot(&input);
    match out.items.first() {
        Some(It::Err(e)) => {
            assert!(matches!(e.kind(), SseErrorKind::InvalidUtf8 { field: f } if *f == field));
            assert_eq!(e.offset(), at);
            e.clone()
        }
        other => panic!("{other:?}"),
    }
}

fn incomplete(discarded: u64, at: u64) -> SseError {
    let mut input = vec![b'\n'; at as usize];
    input.resize((at + discarded) as usize, b'x');
    match one_shot(&input).finish {
        Err(e) => {
            assert_eq!(e.kind(), &SseErrorKind::Incomplete { discarded });
            assert_eq!(e.offset(), at);
            e
        }
        Ok(_) => panic!("no incomplete error"),
    }
}

// ----- chunking helpers ---------------------------------------------------------------------

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn random_chunks<'a>(input: &'a [u8], rng: &mut Rng, max_len: usize) -> Vec<&'a [u8]> {
    let mut chunks = Vec::new();
    let mut rest = input;
    while !rest.is_empty() {
        // Empty chunks too, now and then.
        let n = rng.below(max_len + 1).min(rest.len());
        let (a, b) = rest.split_at(n);
        chunks.push(a);
        rest = b;
    }
    chunks
}

/// Checks that every chunking of `input` decodes like the whole input, and like the reference.
fn check_all_chunkings(input: &[u8], max: usize, rng: &mut Rng) {
    check_chunkings(input, max, true, rng);
    check_chunkings(input, max, false, rng);
}

fn check_chunkings(input: &[u8], max: usize, strict_end: bool, rng: &mut Rng) {
    let options = opts(max).with_strict_end(strict_end);
    let whole = decode_items(&[input], options);
    let expected = if strict_end {
        reference(input, max)
    } else {
        reference_lenient(input, max)
    };
    assert_eq!(
        whole,
        expected,
        "one-shot vs reference for {:?}",
        String::from_utf8_lossy(input)
    );
    let frames_only = Outcome {
        items: whole
            .items
            .iter()
            .filter(|i| i.is_frame_or_err())
            .cloned()
            .collect(),
        ..whole.clone()
    };
    assert_eq!(decode_frames(&[input], options), frames_only);
    for split in 0..=input.len() {
        let (a, b) = input.split_at(split);
        assert_eq!(
            decode_items(&[a, b], options),
            whole,
            "split at {split} of {input:?}"
        );
    }
    let bytes: Vec<&[u8]> = input.chunks(1).collect();
    assert_eq!(
        decode_items(&bytes, options),
        whole,
        "1-byte chunks of {input:?}"
    );
    assert_eq!(
        decode_frames(&bytes, options),
        frames_only,
        "1-byte chunks, frames only"
    );
    for _ in 0..8 {
        let chunks = random_chunks(input, rng, 7);
        assert_eq!(decode_items(&chunks, options), whole, "chunks {chunks:?}");
    }
    let mut reader = SseReader::with_options(input, options, 1 + rng.below(5));
    let mut items = Vec::new();
    while let Some(item) = reader.next_item() {
        items.push(It::from_item(item.map_err(|e| match e {
            SseReadError::Sse(e) => e,
            SseReadError::Io(e) => panic!("{e}"),
        })));
    }
    let mut expected_items = whole.items.clone();
    match &whole.finish {
        Err(e) => expected_items.push(It::Err(e.clone())),
        Ok(Some(it)) => expected_items.push(it.clone()),
        Ok(None) => {}
    }
    assert_eq!(items, expected_items, "reader over {input:?}");
}

const SAMPLES: &[&[u8]] = &[
    b"data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\ndata: {\"type\":\"RUN_FINISHED\"}\n\n",
    b"\xEF\xBB\xBFdata: a\r\n\r\n: keep-alive\r\n\r\ndata: b\r\n\r\n",
    b"event: agui\rid: 1\rdata: x\rdata: y\r\rretry: 1500\r\r",
    b": c\nevent:e\nid\ndata\ndata:\ndata:  two spaces\n\nid: 7\n\ndata: tail",
    b"data:a\r\ndata:b\rdata:c\n\r\n\r\r\n\nretry: 12x\nretry:99\nfoo: bar\nunknownfield\n:\n\n",
    b"id: a\0b\ndata: n\n\nid: \ndata: empty-id\n\n\xEF\xBB\xBFdata: bom-inside\n\n",
];

#[test]
fn samples_every_split_point() {
    let mut rng = Rng(0x5EED_0001);
    for sample in SAMPLES {
        check_all_chunkings(sample, usize::MAX, &mut rng);
        check_all_chunkings(sample, 12, &mut rng);
    }
}

#[test]
fn random_streams_match_reference_under_any_chunking() {
    const TOKENS: &[&[u8]] = &[
        b"data:",
        b"data: ",
        b"data",
        b"dat",
        b"a",
        b"a:",
        b"event:",
        b"event: ",
        b"ev",
        b"ent",
        b"id:",
        b"id: ",
        b"retry:",
        b"retry: ",
        b":",
        b": ",
        b"x",
        b"{\"a\":1}",
        b" ",
        b"\n",
        b"\r",
        b"\r\n",
        b"\n\n",
        b"\r\n\r\n",
        b"\r\r",
        b"123",
        b"\0",
        b"\xFF",
        b"\xC3\xA9",
        b"\xEF\xBB\xBF",
        b"\xEF",
        b"\xEF\xBB",
        b"unknown: v",
        b"datax:",
        b"99999999999999999999999",
        b"retryy:1",
    ];
    let mut rng = Rng(0xC0FF_EE00_1234_5678);
    for round in 0..600 {
        let mut input = Vec::new();
        if rng.below(4) == 0 {
            input.extend_from_slice(b"\xEF\xBB\xBF");
        }
        for _ in 0..rng.below(30) {
            input.extend_from_slice(TOKENS[rng.below(TOKENS.len())]);
        }
        let max = match round % 3 {
            0 => usize::MAX,
            1 => rng.below(40),
            _ => 4 + rng.below(12),
        };
        check_all_chunkings(&input, max, &mut rng);
    }
}

// ----- the interpretation rules ---------------------------------------------------------------

#[test]
fn line_endings_lf_crlf_cr_mixed() {
    for input in [
        &b"data: a\n\ndata: b\n\n"[..],
        b"data: a\r\n\r\ndata: b\r\n\r\n",
        b"data: a\r\rdata: b\r\r",
        b"data: a\r\n\rdata: b\n\r\n",
    ] {
        let out = one_shot(input);
        assert_eq!(datas(&out), ["a", "b"], "{input:?}");
        assert_eq!(out.finish, Ok(None));
    }
}

#[test]
fn cr_lf_split_across_chunks_is_one_line_end() {
    // If the LF after a chunk-final CR were a line of its own it would be a blank line and
    // dispatch `a` early, before `data: b` joins it.
    let out = decode_items(&[b"data: a\r", b"\ndata: b\r", b"\n\r", b"\n"], strict());
    assert_eq!(out.items, [frame("a\nb", 6)]);
    assert_eq!(out.finish, Ok(None));
    // A lone CR at a chunk end followed by something else.
    let out = decode_items(&[b"data: a\r", b"data: b\r", b"\r"], strict());
    assert_eq!(datas(&out), ["a\nb"]);
}

#[test]
fn multi_line_data_is_joined_with_lf() {
    let out = one_shot(b"data: {\"a\":\ndata: 1}\ndata:\n\n");
    assert_eq!(out.items, [frame("{\"a\":\n1}\n", 6)]);
}

#[test]
fn empty_data_line_is_an_empty_event() {
    assert_eq!(one_shot(b"data:\n\n").items, [frame("", 5)]);
    assert_eq!(one_shot(b"data: \n\n").items, [frame("", 6)]);
    // A frame without data lines is not an event.
    assert_eq!(one_shot(b"event: x\n\n").items, []);
}

#[test]
fn field_without_colon_has_empty_value() {
    assert_eq!(one_shot(b"data\n\n").items, [frame("", 4)]);
    let out = one_shot(b"data: a\ndata\n\n");
    assert_eq!(datas(&out), ["a\n"]);
    // `id` alone sets an empty id.
    let out = one_shot(b"id: 5\n\nid\ndata: x\n\n");
    assert_eq!(out.items[0], It::LastId("5".into()));
    assert!(matches!(&out.items[1], It::Frame { id: Some(id), .. } if id.is_empty()));
    assert_eq!(out.last_id, "");
}

#[test]
fn only_one_space_after_colon_is_stripped() {
    assert_eq!(datas(&one_shot(b"data:  x \n\n")), [" x "]);
    assert_eq!(datas(&one_shot(b"data:x\n\n")), ["x"]);
    assert_eq!(datas(&one_shot(b"data:\tx\n\n")), ["\tx"]);
}

#[test]
fn comments_are_reported_and_skipped_by_next() {
    let input = b": keep-alive\n\n:\n:  two\ndata: x\n: inside\n\n";
    let out = one_shot(input);
    assert_eq!(
        out.items,
        [
            It::Comment(b"keep-alive".to_vec()),
            It::Comment(Vec::new()),
            It::Comment(b" two".to_vec()),
            It::Comment(b"inside".to_vec()),
            frame("x", 29),
        ]
    );
    assert_eq!(decode_frames(&[input], strict()).items, [frame("x", 29)]);
}

#[test]
fn event_id_retry_fields() {
    let out = one_shot(b"event: TEXT\nid: 42\nretry: 3000\ndata: {}\n\ndata: 2\n\n");
    assert_eq!(
        out.items,
        [
            It::Retry(3000),
            It::Frame {
                event: Some("TEXT".into()),
                data: b"{}".to_vec(),
                id: Some("42".into()),
                offset: 37
            },
            frame("2", 47),
        ]
    );
    assert_eq!(out.last_id, "42");
    assert_eq!(out.retry, Some(3000));
    // The last of several lines wins; the event type does not outlive its frame.
    let out = one_shot(b"event: a\nevent: b\nid: 1\nid: 2\ndata: x\n\ndata: y\n\n");
    assert!(
        matches!(&out.items[0], It::Frame { event: Some(e), id: Some(i), .. } if e == "b" && i == "2")
    );
    assert!(matches!(
        &out.items[1],
        It::Frame {
            event: None,
            id: None,
            ..
        }
    ));
    // An empty event type is the default type.
    assert!(matches!(
        &one_shot(b"event:\ndata: x\n\n").items[0],
        It::Frame { event: None, .. }
    ));
}

#[test]
fn retry_needs_only_ascii_digits() {
    for (input, expected) in [
        (&b"retry: 10\n\n"[..], Some(10)),
        (b"retry:10\n\n", Some(10)),
        (b"retry: 1 0\n\n", None),
        (b"retry:  10\n\n", None),
        (b"retry: -1\n\n", None),
        (b"retry: 1.5\n\n", None),
        (b"retry:\n\n", None),
        (b"retry\n\n", None),
        (b"retry: 99999999999999999999999\n\n", Some(u64::MAX)),
    ] {
        assert_eq!(one_shot(input).retry, expected, "{input:?}");
    }
    // An invalid line keeps the previous value; retry takes effect without a blank line.
    let out = one_shot(b"retry: 5\n\nretry: x\n");
    assert_eq!(out.retry, Some(5));
}

#[test]
fn id_with_nul_is_ignored() {
    let out = one_shot(b"id: 1\ndata: a\n\nid: 2\0\ndata: b\n\n");
    assert!(matches!(&out.items[1], It::Frame { id: None, .. }));
    assert_eq!(out.last_id, "1");
}

#[test]
fn id_persists_and_commits_at_the_blank_line() {
    let out = one_shot(b"id: 1\ndata: a\n\ndata: b\n\nid: 2\n\nid: 3\ndata: c\n");
    assert_eq!(out.last_id, "2");
    assert_eq!(out.items.last(), Some(&It::LastId("2".into())));
    assert!(out.finish.is_err());
}

#[test]
fn unknown_fields_are_ignored() {
    let out = one_shot(b"foo: bar\nDATA: no\ndata : no\nevents: no\ndata: yes\n\n");
    assert_eq!(out.items, [frame("yes", 45)]);
}

#[test]
fn bom_is_stripped_only_at_the_start() {
    let out = one_shot(b"\xEF\xBB\xBFdata: a\n\n\xEF\xBB\xBFdata: b\n\n");
    assert_eq!(datas(&out), ["a"]); // the second BOM makes an unknown field name
    assert_eq!(out.items, [frame("a", 9)]);
    // Split BOM.
    let out = decode_items(&[b"\xEF", b"\xBB", b"\xBFdata: a\n\n"], strict());
    assert_eq!(out.items, [frame("a", 9)]);
    // Two BOMs at the start: only one is stripped.
    assert_eq!(one_shot(b"\xEF\xBB\xBF\xEF\xBB\xBFdata: a\n\n").items, []);
    // A BOM prefix that is not a BOM is content.
    let out = decode_items(&[b"\xEF", b"\xBBx\n\ndata: a\n\n"], strict());
    assert_eq!(out.items, [frame("a", 11)]);
    // A stream that is a BOM prefix only.
    let out = decode_items(&[b"\xEF\xBB"], strict());
    assert_eq!(
        out.finish.unwrap_err().kind(),
        &SseErrorKind::Incomplete { discarded: 2 }
    );
}

#[test]
fn invalid_utf8_in_data_is_handed_out() {
    let mut decoder = SseDecoder::default();
    let mut feed = decoder.feed(b"data: \xFF\xFE\n\n");
    let frame = feed.next().unwrap().unwrap();
    assert_eq!(frame.data, b"\xFF\xFE");
    assert!(frame.data_str().is_err());
}

#[test]
fn invalid_utf8_in_event_or_id_is_an_error_and_skips_the_frame() {
    let out = one_shot(b"event: a\xFFb\ndata: 1\n\ndata: 2\n\n");
    assert_eq!(out.items[0], It::Err(bad_utf8("event", 8)));
    assert_eq!(out.items[1], frame("2", 26));
    let out = one_shot(b"id: 1\ndata: 1\n\nid: \xC3\ndata: 2\n\n");
    assert!(matches!(out.items[1], It::Err(ref e) if e.offset() == 19));
    assert_eq!(out.last_id, "1");
}

// ----- zero-copy ------------------------------------------------------------------------------

#[test]
fn whole_single_line_frame_borrows_the_chunk() {
    let chunk =
        b": hi\n\nevent: e\ndata: {\"type\":\"RUN_STARTED\"}\r\n\r\ndata: two\ndata: lines\n\n";
    let mut decoder = SseDecoder::default();
    let mut feed = decoder.feed(chunk);
    let first = feed.next().unwrap().unwrap();
    let range = chunk.as_ptr_range();
    assert!(range.contains(&first.data.as_ptr()));
    assert_eq!(first.data_range_in(chunk), Some(21..43));
    assert_eq!(first.data_offset, 21);
    let second = feed.next().unwrap().unwrap();
    assert_eq!(second.data, b"two\nlines");
    assert!(!range.contains(&second.data.as_ptr()));
    assert_eq!(second.data_range_in(chunk), None);
}

#[test]
fn frame_whose_data_line_is_whole_in_the_chunk_is_borrowed_even_if_it_started_earlier() {
    let mut decoder = SseDecoder::default();
    drop(decoder.feed(b"event: e\nid: 1\n"));
    let chunk = b"data: x\n\n";
    let mut feed = decoder.feed(chunk);
    let frame = feed.next().unwrap().unwrap();
    assert_eq!(frame.data_range_in(chunk), Some(6..7));
    assert_eq!(frame.event, Some("e"));
    assert_eq!(frame.data_offset, 21);
}

#[test]
fn split_frame_is_gathered() {
    let mut decoder = SseDecoder::default();
    assert!(decoder.feed(b"data: {\"a\"").next().is_none());
    let chunk = b":1}\n\n";
    let mut feed = decoder.feed(chunk);
    let frame = feed.next().unwrap().unwrap();
    assert_eq!(frame.data, b"{\"a\":1}");
    assert_eq!(frame.data_range_in(chunk), None);
    assert_eq!(frame.data_offset, 6);
}

// ----- the size bound -------------------------------------------------------------------------

#[test]
fn over_long_frame_is_an_error_with_its_offset_and_is_skipped() {
    let mut input = b"data: ok\n\n".to_vec();
    input.extend_from_slice(b"data: ");
    input.extend(std::iter::repeat_n(b'x', 100));
    input.extend_from_slice(b"\ndata: more\n\ndata: after\n\n");
    for chunk_len in [1, 7, 64, input.len()] {
        let chunks: Vec<&[u8]> = input.chunks(chunk_len).collect();
        let out = decode_items(&chunks, opts(50));
        assert_eq!(out.items.len(), 3);
        assert_eq!(out.items[0], frame("ok", 6));
        match &out.items[1] {
            It::Err(e) => {
                assert_eq!(
                    e.kind(),
                    &SseErrorKind::FrameTooLong {
                        max_frame_bytes: 50
                    }
                );
                assert_eq!(e.offset(), 10);
                assert_eq!(
                    e.to_string(),
                    "SSE frame starting at byte 10 is longer than max_frame_bytes (50)"
                );
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(&out.items[2], It::Frame { data, .. } if data == b"after"));
        assert_eq!(out.finish, Ok(None));
    }
}

#[test]
fn frame_exactly_at_the_limit_is_accepted() {
    // `data: 1234` is 10 bytes; the LF after it is not checked until another line follows.
    let out = one_shot_with(b"data: 1234\n\n", 10);
    assert_eq!(datas(&out), ["1234"]);
    let out = one_shot_with(b"data: 12345\n\n", 10);
    assert!(matches!(out.items[0], It::Err(_)));
    let out = one_shot_with(b"data: 1234\ndata: 5\n\n", 10);
    assert!(matches!(out.items[0], It::Err(_)));
}

fn one_shot_with(input: &[u8], max: usize) -> Outcome {
    decode_items(&[input], opts(max))
}

#[test]
fn endless_frame_uses_bounded_memory_and_is_reported_once() {
    let mut decoder = SseDecoder::new(opts(1000));
    let chunk = vec![b'x'; 4096];
    let mut errors = 0;
    drop(decoder.feed(b"data: "));
    for _ in 0..1000 {
        let mut feed = decoder.feed(&chunk);
        while let Some(item) = feed.next() {
            assert_eq!(item.unwrap_err().offset(), 0);
            errors += 1;
        }
    }
    assert_eq!(errors, 1);
    let err = decoder.finish().unwrap_err();
    assert_eq!(
        err.kind(),
        &SseErrorKind::Incomplete {
            discarded: 6 + 4096 * 1000
        }
    );
}

// ----- finish ---------------------------------------------------------------------------------

#[test]
fn finish_reports_a_truncated_stream() {
    assert_eq!(one_shot(b"data: a\n\n").finish, Ok(None));
    assert_eq!(one_shot(b"").finish, Ok(None));
    assert_eq!(one_shot(b"\n\n\r").finish, Ok(None));
    let err = one_shot(b"data: a\n\ndata: b\n").finish.unwrap_err();
    assert_eq!(err.kind(), &SseErrorKind::Incomplete { discarded: 8 });
    assert_eq!(err.offset(), 9);
    let err = one_shot(b"data: a\n\ndata: {\"b").finish.unwrap_err();
    assert_eq!(err.kind(), &SseErrorKind::Incomplete { discarded: 9 });
    let err = one_shot(b"data: a\r").finish.unwrap_err();
    assert_eq!(err.kind(), &SseErrorKind::Incomplete { discarded: 8 });
    // A trailing comment without its blank line counts too.
    assert!(one_shot(b": bye\n").finish.is_err());
}

/// The default end of stream, as `@ag-ui/client`'s `parseSSEStream` reads it: at the end of the
/// input, a buffer without its blank line is still split into lines and its `data` lines
/// delivered.
#[test]
fn finish_delivers_an_unterminated_last_frame_by_default() {
    let end = |input: &[u8]| {
        let mut decoder = SseDecoder::default();
        drop(decoder.feed(input));
        let finish = decoder
            .finish()
            .map(|f| f.map(|f| It::from_item(Ok(SseItem::Frame(f)))));
        (finish, decoder.last_event_id().to_owned())
    };
    for (input, data, offset) in [
        (&b"data: a\n\ndata: b"[..], "b", 15),
        (b"data: a\n\ndata: b\n", "b", 15),
        (b"data: a\n\ndata: b\r", "b", 15),
        (b"data: a\n\ndata: b\r\n", "b", 15),
        (b"data: x\ndata: y", "x\ny", 6),
        (b"data: {\"cut", "{\"cut", 6),
        (b"data", "", 4),
    ] {
        assert_eq!(end(input).0, Ok(Some(frame(data, offset))), "{input:?}");
    }
    let (finish, last_id) = end(b"event: agui\nid: 9\ndata: x");
    assert_eq!(
        finish,
        Ok(Some(It::Frame {
            event: Some("agui".into()),
            data: b"x".to_vec(),
            id: Some("9".into()),
            offset: 24,
        }))
    );
    assert_eq!(last_id, "9");
    // Tails without data dispatch nothing, and are no error.
    for input in [
        &b"data: a\n\n: bye"[..],
        b"id: 4\n",
        b"\xEF\xBB",
        b"retry: 5",
        b"",
    ] {
        assert_eq!(end(input).0, Ok(None), "{input:?}");
    }
    assert_eq!(end(b"id: 4").1, "4");
    // A tail the blank line would reject is rejected.
    let err = end(b"event: \xFF").0.unwrap_err();
    assert_eq!(err.kind(), &SseErrorKind::InvalidUtf8 { field: "event" });
    // The decoder is ready for the next stream; the delivered frame's buffers were kept for it.
    let mut decoder = SseDecoder::default();
    drop(decoder.feed(b"data: first"));
    assert_eq!(decoder.finish().unwrap().unwrap().data, b"first");
    let mut feed = decoder.feed(b"data: second\n\n");
    assert_eq!(feed.next().unwrap().unwrap().data, b"second");
    drop(feed);
    assert_eq!(decoder.finish(), Ok(None));
    // The reader ends its input the same way.
    let mut reader = SseReader::new(&b"data: a\n\ndata: {\"type\":\"STATE_SNAPSHOT\"}"[..]);
    assert_eq!(reader.next().unwrap().unwrap().data, b"a");
    assert_eq!(
        reader.next().unwrap().unwrap().data,
        b"{\"type\":\"STATE_SNAPSHOT\"}"
    );
    assert!(reader.next().is_none());
}

#[test]
fn finish_readies_the_decoder_for_the_next_stream() {
    let mut decoder = SseDecoder::new(strict());
    drop(decoder.feed(b"retry: 7\nid: 3\ndata: a\n\ndata: cut"));
    assert!(decoder.finish().is_err());
    assert_eq!(decoder.offset(), 0);
    let mut feed = decoder.feed(b"\xEF\xBB\xBFdata: b\n\n");
    let frame = feed.next().unwrap().unwrap();
    assert_eq!(frame.data, b"b");
    assert_eq!(frame.data_offset, 9);
    assert_eq!(feed.last_event_id(), "3");
    assert_eq!(feed.retry(), Some(7));
    drop(feed);
    assert_eq!(decoder.finish(), Ok(None));
}

#[test]
fn dropping_a_feed_early_keeps_the_decoder_in_step() {
    let mut decoder = SseDecoder::default();
    {
        let mut feed = decoder.feed(b"data: 1\n\ndata: 2\n\ndata: 3");
        assert_eq!(feed.next().unwrap().unwrap().data, b"1");
    }
    let mut feed = decoder.feed(b"4\n\n");
    let frame = feed.next().unwrap().unwrap();
    assert_eq!(frame.data, b"34");
    assert_eq!(frame.data_offset, 24);
    assert!(feed.next().is_none());
    assert!(feed.next().is_none());
    assert_eq!(feed.offset(), 28);
}

// ----- the encoder ----------------------------------------------------------------------------

#[test]
fn encoder_round_trips_data_with_newlines() {
    let mut rng = Rng(77);
    let alphabet = b"ab \n:{}\"\xFF";
    for _ in 0..500 {
        let data: Vec<u8> = (0..rng.below(20))
            .map(|_| alphabet[rng.below(alphabet.len())])
            .collect();
        let mut out = Vec::new();
        encode_frame(&mut out, &data);
        encode_event(&mut out, Some("ev"), Some(" id"), &data).unwrap();
        let decoded = one_shot(&out);
        assert_eq!(decoded.finish, Ok(None));
        assert_eq!(decoded.items.len(), 2, "{out:?}");
        assert!(
            matches!(&decoded.items[0], It::Frame { data: d, event: None, id: None, .. } if *d == data)
        );
        assert!(
            matches!(&decoded.items[1], It::Frame { data: d, event: Some(e), id: Some(i), .. } if *d == data && e == "ev" && i == " id")
        );
    }
}

#[test]
fn encoder_normalises_cr_to_lf() {
    let mut out = Vec::new();
    encode_frame(&mut out, b"a\r\nb\rc\n");
    assert_eq!(out, b"data: a\ndata: b\ndata: c\ndata: \n\n");
    assert_eq!(datas(&one_shot(&out)), ["a\nb\nc\n"]);
}

#[test]
fn encoder_output_forms() {
    let mut out = Vec::new();
    encode_frame(&mut out, b"");
    assert_eq!(out, b"data: \n\n");
    out.clear();
    encode_comment(&mut out, b"one\ntwo");
    encode_retry(&mut out, 0);
    encode_retry(&mut out, u64::MAX);
    assert_eq!(
        out,
        b": one\n: two\n\nretry: 0\n\nretry: 18446744073709551615\n\n"
    );
    let decoded = one_shot(&out);
    assert_eq!(
        decoded.items,
        [
            It::Comment(b"one".to_vec()),
            It::Comment(b"two".to_vec()),
            It::Retry(0),
            It::Retry(u64::MAX)
        ]
    );
}

#[test]
fn encoder_rejects_fields_that_would_break_framing() {
    let mut out = b"keep".to_vec();
    let err = encode_event(&mut out, Some("ok"), Some("a\0"), b"{}").unwrap_err();
    assert_eq!(err.kind(), &SseErrorKind::InvalidField { field: "id" });
    assert_eq!(err.offset(), 1);
    assert!(encode_event(&mut out, Some("a\rb"), None, b"{}").is_err());
    assert!(encode_event(&mut out, None, Some("\n"), b"{}").is_err());
    assert_eq!(out, b"keep");
}

#[test]
fn decoded_frames_re_encode_to_the_same_frames() {
    let input = b"event: e\r\nid: 9\r\ndata: a\r\ndata: b\r\n\r\ndata: c\n\n";
    let mut decoder = SseDecoder::default();
    let mut feed = decoder.feed(input);
    let mut out = Vec::new();
    while let Some(frame) = feed.next() {
        frame.unwrap().encode(&mut out).unwrap();
    }
    assert_eq!(out, b"event: e\nid: 9\ndata: a\ndata: b\n\ndata: c\n\n");
}

// ----- the reader -----------------------------------------------------------------------------

/// Hands out its input in random small reads, with `Interrupted` errors in between.
struct Trickle<'a> {
    input: &'a [u8],
    rng: Rng,
}

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.rng.below(5) == 0 {
            return Err(io::Error::new(io::ErrorKind::Interrupted, "again"));
        }
        let n = self.rng.below(9).min(buf.len()).min(self.input.len());
        let (a, b) = self.input.split_at(n);
        buf[..n].copy_from_slice(a);
        self.input = b;
        if n == 0 && !self.input.is_empty() {
            return self.read(buf);
        }
        Ok(n)
    }
}

#[test]
fn reader_decodes_like_the_decoder() {
    let mut input = Vec::new();
    for i in 0..200 {
        let data = format!("{{\"type\":\"TEXT_MESSAGE_CONTENT\",\"delta\":\"{i}\"}}");
        if i % 7 == 0 {
            encode_comment(&mut input, b"keep-alive");
        }
        encode_event(
            &mut input,
            (i % 3 == 0).then_some("agui"),
            None,
            data.as_bytes(),
        )
        .unwrap();
    }
    let expected = datas(&one_shot(&input));
    assert_eq!(expected.len(), 200);
    for buffer in [1, 3, 64, 1 << 16] {
        let trickle = Trickle {
            input: &input,
            rng: Rng(buffer as u64 + 1),
        };
        let mut reader = SseReader::with_options(trickle, strict(), buffer);
        let mut got = Vec::new();
        while let Some(frame) = reader.next() {
            got.push(frame.unwrap().data_str().unwrap().to_owned());
        }
        assert_eq!(got, expected);
        assert!(reader.next().is_none());
    }
}

#[test]
fn reader_reports_truncation_and_io_errors() {
    let mut reader = SseReader::with_options(&b"data: a\n\ndata: b"[..], strict(), 64);
    assert_eq!(reader.next().unwrap().unwrap().data, b"a");
    match reader.next() {
        Some(Err(SseReadError::Sse(e))) => {
            assert_eq!(e.kind(), &SseErrorKind::Incomplete { discarded: 7 })
        }
        other => panic!("{other:?}"),
    }
    assert!(reader.next().is_none());

    struct Broken;
    impl Read for Broken {
        fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
            Err(io::Error::other("boom"))
        }
    }
    let mut reader = SseReader::new(Broken);
    match reader.next() {
        Some(Err(SseReadError::Io(e))) => assert_eq!(e.to_string(), "boom"),
        other => panic!("{other:?}"),
    }
}

// ----- cost -----------------------------------------------------------------------------------

#[test]
fn large_frame_in_many_chunks_decodes_in_linear_time() {
    // 8 MiB of data in 1-byte .. 16-byte chunks: quadratic rescanning would take minutes.
    let mut input = b"data: ".to_vec();
    input.extend(std::iter::repeat_n(b'x', 8 << 20));
    input.extend_from_slice(b"\n\n");
    let mut decoder = SseDecoder::default();
    let mut seen = 0;
    for (i, chunk) in input.chunks(4096).enumerate() {
        // Split each 4 KiB piece further into small chunks on a few of them.
        if i % 64 == 0 {
            for small in chunk.chunks(1 + i % 16) {
                let mut feed = decoder.feed(small);
                while let Some(frame) = feed.next() {
                    seen += frame.unwrap().data.len();
                }
            }
        } else {
            let mut feed = decoder.feed(chunk);
            while let Some(frame) = feed.next() {
                seen += frame.unwrap().data.len();
            }
        }
    }
    assert_eq!(seen, 8 << 20);
    assert_eq!(decoder.finish(), Ok(None));
}

// ----- allocation-free steady state -----------------------------------------------------------

mod counting {
    use std::alloc::{GlobalAlloc, Layout, System};
    use std::cell::Cell;

    thread_local! {
        static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
    }

    /// The system allocator, counting allocations per thread.
    pub struct Counting;

    // SAFETY: every call is forwarded unchanged to `System`, which upholds the `GlobalAlloc`
    // contract; the counter neither allocates nor touches the memory.
    unsafe impl GlobalAlloc for Counting {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
            // SAFETY: the caller's contract for `alloc` is passed on as is.
            unsafe { System.alloc(layout) }
        }

        unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
            // SAFETY: `ptr` came from `System.alloc` with this `layout` (see `alloc`).
            unsafe { System.dealloc(ptr, layout) }
        }

        unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
            let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
            // SAFETY: the caller's contract for `realloc` is passed on as is.
            unsafe { System.realloc(ptr, layout, new_size) }
        }
    }

    pub fn allocations() -> usize {
        ALLOCATIONS.with(Cell::get)
    }
}

#[global_allocator]
static ALLOCATOR: counting::Counting = counting::Counting;

#[test]
fn steady_state_decoding_does_not_allocate() {
    let mut stream = Vec::new();
    for i in 0..50 {
        let data = format!("{{\"type\":\"TEXT_MESSAGE_CONTENT\",\"delta\":\"{i:04}\"}}");
        encode_event(
            &mut stream,
            Some("agui"),
            Some(&format!("{i:04}")),
            data.as_bytes(),
        )
        .unwrap();
        encode_frame(&mut stream, data.as_bytes());
        encode_frame(&mut stream, b"two\nlines");
        encode_comment(&mut stream, b"keep-alive");
        encode_retry(&mut stream, 1000);
    }
    let mut decoder = SseDecoder::default();
    let pass = |decoder: &mut SseDecoder| {
        let mut frames = 0;
        // Odd-sized chunks split frames everywhere, so the buffers are used.
        for chunk in stream.chunks(37) {
            let mut feed = decoder.feed(chunk);
            while let Some(item) = feed.next_item() {
                if let Ok(SseItem::Frame(_)) = item {
                    frames += 1;
                }
            }
        }
        frames
    };
    let start = counting::allocations();
    assert_eq!(pass(&mut decoder), 150); // warms the buffers up
    let before = counting::allocations();
    assert!(
        before > start,
        "the counter sees the first pass grow the buffers"
    );
    assert_eq!(pass(&mut decoder), 150);
    assert_eq!(counting::allocations() - before, 0);
}
