//! `agui-wire events`: read an AG-UI event stream (Server-Sent Events, or protobuf frames told
//! apart by their first byte) and print its events as compact JSON lines, or (`--reduce`) the
//! conversation and state they build.
//!
//! Invalid streams (an event that does not parse, or, with `--reduce`, an event order the
//! protocol forbids) fail with `error: event <index>: <what>` (exit 1), and so does input that
//! holds no event at all (not SSE, empty); usage and I/O errors exit 2. A last event that the
//! stream ends without a blank line after is read, as the official TypeScript client reads it;
//! with `--strict-sse` it is dropped, as the SSE standard says, with a warning. With `--reduce`,
//! each event is read as the client's enforcement stage reads it (a patch operation, message or
//! content part of a kind the protocol does not define is dropped with a warning), unless
//! `--strict-variants`. Reading is streamed: events are printed as they arrive, through one
//! reused arena, and the output is flushed whenever the input has no more bytes ready (before each read), so
//! on a live pipe each event line appears as soon as its frame is complete, and a file is still
//! written in large blocks.

use std::cell::RefCell;
use std::io::{self, BufWriter, Read, Write};

use std::rc::Rc;

use agui_wire::reducer::{ReduceOptions, Reducer};
use agui_wire::sse::{SseErrorKind, SseOptions, SseReadError, SseReader};
use agui_wire::{Bump, Event, ParseOptions, WriteJson};

use crate::Failure;
use crate::cmd_transcode::{self, Target};

/// Read an AG-UI event stream (SSE or protobuf) and print each event as one line of JSON
///
/// Each event is printed as compact JSON on its own line as soon as its frame is complete.
/// `--reduce` prints instead the final `{"messages": [...], "state": ...}` the events build,
/// as the TypeScript client would hold it. An invalid stream fails with
/// `error: event <index>: <what>` (exit 1).
#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  agui-wire events samples/run.sse
  agui-wire events --reduce samples/run.sse
  agui-wire events --strict-sse samples/run.sse
  agui-wire transcode --to proto samples/run.sse | agui-wire events -
  curl -sN -H 'Accept: text/event-stream' -d @samples/conversation.json http://agent/run \\
    | agui-wire events -")]
pub(crate) struct Events {
    /// Print the messages and state the events build instead of the events
    #[arg(long)]
    reduce: bool,
    /// Read `null` in optional fields as absent (as the Python SDK does)
    #[arg(long)]
    lenient: bool,
    /// With --reduce: an event holding a patch operation, message or content part of a kind the
    /// protocol does not define is an error. By default that item is dropped with a warning, as
    /// the official TypeScript client does
    #[arg(long)]
    strict_variants: bool,
    /// Read SSE as the standard does: a last event without a blank line after it is dropped
    /// (with a warning). By default it is read, as the official TypeScript client does
    #[arg(long)]
    strict_sse: bool,
    /// The event stream to read (SSE or protobuf frames), or `-` for standard input
    #[arg(value_name = "FILE")]
    file: String,
}

/// How many bytes one read of the input may bring.
const READ_BUFFER: usize = 64 * 1024;

/// Runs `agui-wire events`.
pub(crate) fn run(args: Events) -> Result<(), Failure> {
    let path = args.file.as_str();
    // A protobuf stream (detected from its first byte) is read as frames; SSE otherwise.
    let mut input = cmd_transcode::open(path)?;
    let proto = cmd_transcode::peek_kind(&mut input)? == Target::Proto;
    let out = Rc::new(RefCell::new(BufWriter::new(io::stdout().lock())));
    let input = FlushBeforeRead {
        inner: input,
        out: Rc::clone(&out),
        first_byte: None,
    };
    let options = crate::parse_options(args.lenient);
    let sse = SseOptions::new().with_strict_end(args.strict_sse);
    let mut reducer = Reducer::with_options(ReduceOptions {
        strict_variants: args.strict_variants,
        ..ReduceOptions::default()
    });
    let reduce = args.reduce.then_some(&mut reducer);
    let result = if proto {
        proto_events(input, reduce, &out)
    } else {
        events(input, sse, reduce, &options, &out)
    }
    .and_then(|()| out.borrow_mut().flush().map_err(write_failure));
    // Whatever was printed before a failure stays printed.
    let _ = out.borrow_mut().flush();
    match result {
        Ok(()) | Err(Stop::Closed) => Ok(()),
        Err(Stop::Fail(f)) => Err(f),
    }
}

/// The output the events are printed to.
type Out = Rc<RefCell<BufWriter<io::StdoutLock<'static>>>>;

/// The input, flushing the output before each read: the reader asks for more bytes only when
/// it has printed every event of the bytes it holds, so what is printed is never held back
/// while we wait for input. Remembers the first non-blank byte, for the error on input that
/// holds no event.
struct FlushBeforeRead {
    inner: io::BufReader<Box<dyn Read>>,
    out: Out,
    first_byte: Option<u8>,
}

impl Read for FlushBeforeRead {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        // A failed flush (a closed pipe) is reported by the next write of an event.
        let _ = self.out.borrow_mut().flush();
        let n = self.inner.read(buf)?;
        if self.first_byte.is_none() {
            self.first_byte = buf
                .get(..n)
                .unwrap_or_default()
                .iter()
                .copied()
                .find(|b| !b.is_ascii_whitespace());
        }
        Ok(n)
    }
}

/// Why reading stopped early.
enum Stop {
    Fail(Failure),
    /// The reader of our output went away (`| head`): stop quietly.
    Closed,
}

impl From<Failure> for Stop {
    fn from(f: Failure) -> Stop {
        Stop::Fail(f)
    }
}

fn write_failure(e: io::Error) -> Stop {
    if e.kind() == io::ErrorKind::BrokenPipe {
        Stop::Closed
    } else {
        Stop::Fail(Failure::Io(format!("cannot write the output: {e}")))
    }
}

/// The error for input that held no event, with a hint at what it held instead.
fn no_event(first_byte: Option<u8>) -> Failure {
    let hint = match first_byte {
        None => "the input is empty or blank".to_string(),
        Some(b'{' | b'[') => {
            "it looks like a JSON document; `agui-wire validate` and `inspect` read those"
                .to_string()
        }
        Some(_) => {
            "an SSE stream is `data: <event JSON>` lines, each event followed by a blank line"
                .to_string()
        }
    };
    Failure::Invalid(format!("no event in the input: {hint}"))
}

/// Reads an SSE stream: prints each event, or applies it to `reducer`.
fn events(
    input: FlushBeforeRead,
    sse: SseOptions,
    mut reducer: Option<&mut Reducer>,
    options: &ParseOptions,
    out: &Out,
) -> Result<(), Stop> {
    let mut reader = SseReader::with_options(input, sse, READ_BUFFER);
    let mut arena = Bump::new();
    let mut index = 0usize;
    let mut line = Vec::new();
    let mut cut = None;
    while let Some(frame) = reader.next() {
        let frame = match frame {
            Ok(frame) => frame,
            Err(SseReadError::Io(e)) => {
                return Err(Failure::Io(format!("cannot read the stream: {e}")).into());
            }
            Err(SseReadError::Sse(e)) if matches!(e.kind(), SseErrorKind::Incomplete { .. }) => {
                cut = Some(e);
                break;
            }
            Err(SseReadError::Sse(e)) => {
                return Err(Failure::Invalid(format!("event {index}: {e}")).into());
            }
        };
        if let Some(reducer) = reducer.as_deref_mut() {
            // Read as the client reads it: items of unknown kinds dropped with a warning.
            reducer
                .apply_json(frame.data, options)
                .map_err(|e| Failure::Invalid(e.to_string()))?;
        } else {
            arena.reset();
            let event = Event::parse_with(frame.data, &arena, options)
                .map_err(|e| Failure::Invalid(format!("event {index}: {e}")))?;
            print_event(&event, &mut line, out)?;
        }
        index += 1;
    }
    if index == 0 {
        return Err(no_event(reader.into_inner().first_byte).into());
    }
    if let Some(e) = cut {
        eprintln!("warning: {e}; that event is dropped");
    }
    finish(reducer, &mut line, out)
}

/// Reads a stream of protobuf frames: prints each event, or applies it to `reducer`.
fn proto_events(
    mut input: FlushBeforeRead,
    mut reducer: Option<&mut Reducer>,
    out: &Out,
) -> Result<(), Stop> {
    let mut line = Vec::new();
    let mut seen = 0usize;
    cmd_transcode::for_each_proto_event(
        &mut input,
        |_, event| {
            seen += 1;
            match reducer.as_deref_mut() {
                Some(reducer) => reducer
                    .apply(event)
                    .map_err(|e| Failure::Invalid(e.to_string()).into()),
                None => print_event(event, &mut line, out),
            }
        },
        |m| Stop::Fail(Failure::Invalid(m)),
    )?;
    if seen == 0 {
        return Err(no_event(input.first_byte).into());
    }
    finish(reducer, &mut line, out)
}

/// Prints one event as a line of compact JSON.
fn print_event(event: &Event<'_>, line: &mut Vec<u8>, out: &Out) -> Result<(), Stop> {
    line.clear();
    event.write_json(line);
    line.push(b'\n');
    out.borrow_mut().write_all(line).map_err(write_failure)
}

/// With `--reduce`, prints the warnings and what the events built.
fn finish(reducer: Option<&mut Reducer>, line: &mut Vec<u8>, out: &Out) -> Result<(), Stop> {
    if let Some(reducer) = reducer {
        for w in reducer.warnings() {
            eprintln!("warning: {w}");
        }
        if reducer.warnings_dropped() > 0 {
            eprintln!(
                "warning: {} more warnings not shown",
                reducer.warnings_dropped()
            );
        }
        line.clear();
        reducer.write_json(line);
        line.push(b'\n');
        out.borrow_mut().write_all(line).map_err(write_failure)?;
    }
    Ok(())
}
