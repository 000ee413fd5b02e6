//! The SSE decoder on any byte stream. Oracles: the stream fed in one chunk against the same
//! stream cut into chunks in many ways (one byte at a time, every single cut point, random
//! lengths) and read through `SseReader` with odd read sizes and interrupted reads: the same
//! items, errors, offsets, last event ID and retry; every frame whose data borrows the chunk is
//! the right slice at the right offset; every frame, comment and retry re-encoded decodes back
//! to itself; and `SseFeed::next` (a quick path for one-line frames) hands out the frames and
//! errors `next_item` does, under every chunking. Both readings of the end of the stream (the
//! default, which delivers an unterminated last frame, and the strict one) are checked, and
//! compared with each other.
#![no_main]

use std::io::{self, Read};

use agui_wire::sse::{
    SseDecoder, SseError, SseItem, SseOptions, SseReadError, SseReader, encode_comment,
    encode_event, encode_retry,
};
use agui_wire_fuzz::split::{self, Rng};
use libfuzzer_sys::fuzz_target;

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
    fn of(item: Result<SseItem<'_>, SseError>) -> It {
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
}

#[derive(Debug, PartialEq, Eq)]
struct Outcome {
    items: Vec<It>,
    finish: Result<Option<It>, SseError>,
    last_id: String,
    retry: Option<u64>,
    offset: u64,
}

fn decode(chunks: &[&[u8]], options: SseOptions, check_borrow: bool) -> Outcome {
    let mut d = SseDecoder::new(options);
    let mut items = Vec::new();
    let mut fed = 0u64;
    for chunk in chunks {
        let mut feed = d.feed(chunk);
        while let Some(item) = feed.next_item() {
            if let (true, Ok(SseItem::Frame(f))) = (check_borrow, &item)
                && let Some(r) = f.data_range_in(chunk)
            {
                assert_eq!(&chunk[r.clone()], f.data, "borrowed range");
                assert_eq!(fed + r.start as u64, f.data_offset, "borrowed offset");
            }
            items.push(It::of(item));
        }
        drop(feed);
        fed += chunk.len() as u64;
        assert_eq!(d.offset(), fed, "decoder offset after a chunk");
    }
    Outcome::at_end(d, items)
}

impl Outcome {
    /// The outcome once every chunk is fed: `items`, then what `finish` and the decoder say.
    fn at_end(mut d: SseDecoder, items: Vec<It>) -> Outcome {
        let finish = d.finish().map(|f| f.map(|f| It::of(Ok(SseItem::Frame(f)))));
        Outcome {
            items,
            finish,
            last_id: d.last_event_id().to_owned(),
            retry: d.retry(),
            offset: d.offset(),
        }
    }
}

/// [`decode`] through `SseFeed::next`, which hands out frames and errors only: its quick path
/// for a frame of one `data:` line, the line machine for the rest.
fn decode_frames(chunks: &[&[u8]], options: SseOptions) -> Outcome {
    let mut d = SseDecoder::new(options);
    let mut items = Vec::new();
    for chunk in chunks {
        let mut feed = d.feed(chunk);
        while let Some(item) = feed.next() {
            items.push(It::of(item.map(SseItem::Frame)));
        }
    }
    Outcome::at_end(d, items)
}

/// What [`decode_frames`] must give for `whole`: its frames and errors, the rest the same.
fn frames_of(whole: &Outcome) -> Outcome {
    Outcome {
        items: whole
            .items
            .iter()
            .filter(|i| matches!(i, It::Frame { .. } | It::Err(_)))
            .cloned()
            .collect(),
        finish: whole.finish.clone(),
        last_id: whole.last_id.clone(),
        retry: whole.retry,
        offset: whole.offset,
    }
}

/// A reader that returns the stream in the given read sizes, failing with `Interrupted` now
/// and then (which `SseReader` must retry).
struct Trickle<'a> {
    data: &'a [u8],
    sizes: Vec<usize>,
    turn: usize,
}

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.turn += 1;
        if self.turn % 5 == 3 {
            return Err(io::Error::from(io::ErrorKind::Interrupted));
        }
        let want = self
            .sizes
            .get(self.turn % self.sizes.len().max(1))
            .copied()
            .unwrap_or(1);
        let n = want.min(buf.len()).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

fn read_all(data: &[u8], options: SseOptions, buffer: usize, sizes: Vec<usize>) -> Vec<It> {
    let mut r = SseReader::with_options(
        Trickle {
            data,
            sizes,
            turn: 0,
        },
        options,
        buffer,
    );
    let mut out = Vec::new();
    while let Some(item) = r.next_item() {
        out.push(match item {
            Ok(i) => It::of(Ok(i)),
            Err(SseReadError::Sse(e)) => It::of(Err(e)),
            Err(SseReadError::Io(e)) => panic!("io error from an infallible reader: {e}"),
        });
    }
    out
}

/// Decodes `stream` alone and expects exactly `want` and a clean end.
fn round_trip(stream: &[u8], want: &[It]) {
    let got = decode(&[stream], SseOptions::default(), false);
    let strip = |items: &[It]| -> Vec<It> {
        items
            .iter()
            .map(|i| match i {
                It::Frame {
                    event, data, id, ..
                } => It::Frame {
                    event: event.clone(),
                    data: data.clone(),
                    id: id.clone(),
                    offset: 0,
                },
                other => other.clone(),
            })
            .collect()
    };
    assert_eq!(strip(&got.items), strip(want), "re-encoded {stream:?}");
    assert_eq!(got.finish, Ok(None), "re-encoded {stream:?}");
}

fuzz_target!(|data: &[u8]| {
    let mut rng = Rng::for_input(data, 0x55e);
    // The default bound, and one small enough for the input to cross it; the default end of
    // stream (an unterminated last frame delivered) and the strict one.
    let small = SseOptions::new().with_max_frame_bytes(1 + data.len() % 64);
    let strict = SseOptions::new().with_strict_end(true);
    let strict_small = small.with_strict_end(true);
    for options in [SseOptions::default(), small, strict, strict_small] {
        let whole = decode(&[data], options, true);
        let frames = frames_of(&whole);
        assert_eq!(decode_frames(&[data], options), frames, "frames by next");
        for lengths in split::chunkings(data.len(), &mut rng) {
            let chunks = split::cut(data, &lengths);
            assert_eq!(decode(&chunks, options, true), whole, "chunks {lengths:?}");
            assert_eq!(
                decode_frames(&chunks, options),
                frames,
                "frames by next, chunks {lengths:?}"
            );
        }
        let mut from_reader = whole.items.clone();
        match &whole.finish {
            Err(e) => from_reader.push(It::Err(e.clone())),
            Ok(Some(it)) => from_reader.push(it.clone()),
            Ok(None) => {}
        }
        let buffer = rng.range(1, 70);
        let sizes = split::lengths(data.len().max(1), &mut rng);
        assert_eq!(
            read_all(data, options, buffer, sizes),
            from_reader,
            "SseReader, buffer {buffer}"
        );

        for item in &whole.items {
            let mut out = Vec::new();
            match item {
                It::Frame {
                    event, data, id, ..
                } => {
                    encode_event(&mut out, event.as_deref(), id.as_deref(), data)
                        .expect("a decoded frame encodes");
                    round_trip(&out, std::slice::from_ref(item));
                }
                It::Comment(c) => {
                    encode_comment(&mut out, c);
                    out.push(b'\n');
                    round_trip(&out, std::slice::from_ref(item));
                }
                It::Retry(r) => {
                    encode_retry(&mut out, *r);
                    out.push(b'\n');
                    round_trip(&out, std::slice::from_ref(item));
                }
                It::LastId(_) | It::Err(_) => {}
            }
        }
    }
    // The two readings of the end differ only in what `finish` says, and only when the stream
    // ends inside a frame.
    let lenient = decode(&[data], SseOptions::default(), false);
    let standard = decode(&[data], strict, false);
    assert_eq!(
        lenient.items, standard.items,
        "items under both end readings"
    );
    if standard.finish == Ok(None) {
        assert_eq!(
            lenient.finish,
            Ok(None),
            "a clean end is clean under both readings"
        );
    }
});
