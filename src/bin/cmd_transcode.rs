//! `agui-wire transcode`: an AG-UI event stream from SSE to protobuf frames or back; and the
//! protobuf reading behind `agui-wire events`.
//!
//! The input kind is detected from its first byte: a protobuf stream starts with the high
//! byte of a 4-byte big-endian length, 0 for any frame under 16 MiB, which no SSE stream
//! starts with.

use std::io::{self, BufRead, BufReader, Read, Write};

use agui_wire::proto::{
    DecodeOptions, EncodeOptions, FrameDecoder, OnLoss, ProtoEvent, ProtoToSse, SseToProto,
};
use agui_wire::{Bump, Event};

use crate::Failure;

/// Transcode an AG-UI event stream between SSE and protobuf
///
/// Reads Server-Sent Events (`data: {json}`) or protobuf frames (`application/vnd.ag-ui.event+proto`:
/// a 4-byte big-endian length and an `ag_ui.Event`), detected from the first byte, and writes
/// the other. Streamed: output is written as input arrives. A value protobuf cannot carry
/// exactly (an integer beyond 2^53, `1e400`, an unknown field) fails the run unless `--lossy`,
/// which sends what it can and warns. Input already in the target form is copied unchanged.
#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  agui-wire transcode --to proto samples/run.sse > run.bin
  agui-wire transcode --to sse run.bin
  curl -sN -H 'Accept: application/vnd.ag-ui.event+proto' -d @body.json http://agent/run \\
    | agui-wire transcode --to sse -")]
pub(crate) struct Transcode {
    /// The form to write
    #[arg(long, value_enum)]
    to: Target,
    /// Send what protobuf can carry and warn about the rest, instead of failing
    #[arg(long)]
    lossy: bool,
    /// The largest protobuf frame accepted, in bytes
    #[arg(long, value_name = "BYTES", default_value_t = 16 << 20)]
    max_frame: usize,
    /// The stream to read, or `-` for standard input
    #[arg(value_name = "FILE")]
    file: String,
}

/// The two forms of an event stream.
#[derive(Clone, Copy, PartialEq, Eq, Debug, clap::ValueEnum)]
pub(crate) enum Target {
    /// Protobuf frames
    Proto,
    /// Server-Sent Events
    Sse,
}

/// Which form a stream is in, from its first bytes (an empty stream reads as SSE).
pub(crate) fn detect(first: &[u8]) -> Target {
    match first.first() {
        Some(0) => Target::Proto,
        _ => Target::Sse,
    }
}

/// Opens FILE or standard input, buffered so that its first bytes can be looked at.
pub(crate) fn open(path: &str) -> Result<BufReader<Box<dyn Read>>, Failure> {
    let input: Box<dyn Read> = if path == "-" {
        Box::new(io::stdin().lock())
    } else {
        Box::new(
            std::fs::File::open(path)
                .map_err(|e| Failure::Io(format!("cannot read {path}: {e}")))?,
        )
    };
    Ok(BufReader::with_capacity(64 << 10, input))
}

/// Looks at the first bytes of a buffered stream without consuming them.
pub(crate) fn peek_kind(input: &mut impl BufRead) -> Result<Target, Failure> {
    let first = input
        .fill_buf()
        .map_err(|e| Failure::Io(format!("cannot read the stream: {e}")))?;
    Ok(detect(first))
}

/// Runs `agui-wire transcode`.
pub(crate) fn run(args: Transcode) -> Result<(), Failure> {
    let mut input = open(&args.file)?;
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let result = transcode(&mut input, args.to, args.lossy, args.max_frame, &mut out);
    let flushed = out.flush();
    match result {
        Err(Failure::Io(m)) if m.contains("Broken pipe") => Ok(()),
        Err(f) => Err(f),
        Ok(()) => flushed.map_err(|e| Failure::Io(format!("cannot write the output: {e}"))),
    }
}

/// Transcodes `input` into `to`, chunk by chunk.
pub(crate) fn transcode(
    input: &mut impl BufRead,
    to: Target,
    lossy: bool,
    max_frame: usize,
    out: &mut impl Write,
) -> Result<(), Failure> {
    let from = peek_kind(input)?;
    let write = |out: &mut dyn Write, b: &[u8]| {
        out.write_all(b)
            .map_err(|e| Failure::Io(format!("cannot write the output: {e}")))
    };
    let mut buf = Vec::new();
    let mut chunk = vec![0u8; 64 << 10];
    let decode = DecodeOptions {
        max_frame,
        ..DecodeOptions::default()
    };
    let encode = EncodeOptions {
        on_loss: if lossy { OnLoss::Report } else { OnLoss::Error },
        ..EncodeOptions::default()
    };
    let mut up = SseToProto::new(encode);
    let mut down = ProtoToSse::new(decode);
    loop {
        let n = match input.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(Failure::Io(format!("cannot read the stream: {e}"))),
        };
        buf.clear();
        match (from, to) {
            (a, b) if a == b => buf.extend_from_slice(&chunk[..n]),
            (Target::Sse, _) => {
                let losses = up
                    .feed(&chunk[..n], &mut buf)
                    .map_err(|e| Failure::Invalid(format!("event {}: {e}", up.events())))?;
                for l in losses {
                    eprintln!("warning: at {}: {}", l.path, l.kind);
                }
            }
            (Target::Proto, _) => down
                .feed(&chunk[..n], &mut buf)
                .map_err(|e| Failure::Invalid(format!("event {}: {e}", down.events())))?,
        }
        write(out, &buf)?;
    }
    match (from, to) {
        (a, b) if a == b => Ok(()),
        (Target::Sse, _) => {
            buf.clear();
            let losses = up
                .finish(&mut buf)
                .map_err(|e| Failure::Invalid(format!("event {}: {e}", up.events())))?;
            for l in losses {
                eprintln!("warning: at {}: {}", l.path, l.kind);
            }
            write(out, &buf)
        }
        (Target::Proto, _) => down.finish().map_err(|e| Failure::Invalid(e.to_string())),
    }
}

/// Reads a protobuf event stream and hands each event, in the crate's model, to `each`
/// (with its index). The event lives in an arena reset between events.
pub(crate) fn for_each_proto_event<E>(
    input: &mut impl Read,
    mut each: impl FnMut(usize, &Event<'_>) -> Result<(), E>,
    fail: impl Fn(String) -> E,
) -> Result<(), E> {
    let opts = DecodeOptions::default();
    let mut frames = FrameDecoder::new(opts);
    let mut chunk = vec![0u8; 64 << 10];
    let mut arena = Bump::new();
    let mut index = 0usize;
    loop {
        let n = match input.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(fail(format!("cannot read the stream: {e}"))),
        };
        let mut feed = frames.feed(&chunk[..n]);
        while let Some(frame) = feed.next() {
            let frame = frame.map_err(|e| fail(format!("event {index}: {e}")))?;
            arena.reset();
            let event = ProtoEvent::decode(frame)
                .and_then(|ev| ev.to_event(&arena, &opts))
                .map_err(|e| fail(format!("event {index}: {e}")))?;
            each(index, &event)?;
            index += 1;
        }
    }
    frames
        .finish()
        .map_err(|e| fail(format!("event {index}: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_by_first_byte() {
        assert_eq!(detect(b"data: {}\n\n"), Target::Sse);
        assert_eq!(detect(b":keep-alive\n"), Target::Sse);
        assert_eq!(detect(b""), Target::Sse);
        assert_eq!(detect(&[0, 0, 0, 4]), Target::Proto);
    }
}
