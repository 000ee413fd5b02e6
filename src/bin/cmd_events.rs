//! `agui-wire events`: read an AG-UI event stream (Server-Sent Events) and print its events as
//! compact JSON lines, or (`--reduce`) the conversation and state they build.
//!
//! Invalid streams (not SSE, an event that does not parse, or, with `--reduce`, an event order
//! the protocol forbids) fail with `error: event <index>: <what>` (exit 1); usage and I/O
//! errors exit 2. A stream that ends inside an event loses that event (as the SSE standard
//! says), with a warning, and still succeeds. Reading is streamed: events are printed as they
//! arrive, through one reused arena.

use std::io::{self, BufWriter, Read, Write};

use agui_wire::reducer::Reducer;
use agui_wire::sse::{SseErrorKind, SseReadError, SseReader};
use agui_wire::{Bump, Event, ParseOptions, WriteJson};

use crate::Failure;

/// Read an AG-UI event stream (Server-Sent Events) and print each event as one line of JSON
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
  curl -sN -H 'Accept: text/event-stream' -d @samples/conversation.json http://agent/run \\
    | agui-wire events -")]
pub(crate) struct Events {
    /// Print the messages and state the events build instead of the events
    #[arg(long)]
    reduce: bool,
    /// Read `null` in optional fields as absent (as the Python SDK does)
    #[arg(long)]
    lenient: bool,
    /// The SSE stream to read, or `-` for standard input
    #[arg(value_name = "FILE")]
    file: String,
}

/// Runs `agui-wire events`.
pub(crate) fn run(args: Events) -> Result<(), Failure> {
    let path = args.file.as_str();
    // A protobuf stream (detected from its first byte) is read as frames; SSE otherwise.
    let mut input = crate::cmd_transcode::open(path)?;
    let proto = crate::cmd_transcode::peek_kind(&mut input)? == crate::cmd_transcode::Target::Proto;
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let options = crate::parse_options(args.lenient);
    let result = events(input, proto, args.reduce, &options, &mut out)
        .and_then(|()| out.flush().map_err(write_failure));
    // Whatever was printed before a failure stays printed.
    let _ = out.flush();
    match result {
        Ok(()) | Err(Stop::Closed) => Ok(()),
        Err(Stop::Fail(f)) => Err(f),
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

fn events(
    mut input: impl Read,
    proto: bool,
    reduce: bool,
    options: &ParseOptions,
    out: &mut impl Write,
) -> Result<(), Stop> {
    let mut reducer = Reducer::new();
    let mut line = Vec::new();
    if proto {
        crate::cmd_transcode::for_each_proto_event(
            &mut input,
            |_, event| emit(event, reduce, &mut reducer, &mut line, out),
            |m| Stop::Fail(Failure::Invalid(m)),
        )?;
        return finish(reduce, &reducer, &mut line, out);
    }
    let mut reader = SseReader::new(input);
    let mut arena = Bump::new();
    let mut index = 0usize;
    while let Some(frame) = reader.next() {
        let frame = match frame {
            Ok(frame) => frame,
            Err(SseReadError::Io(e)) => {
                return Err(Failure::Io(format!("cannot read the stream: {e}")).into());
            }
            Err(SseReadError::Sse(e)) if matches!(e.kind(), SseErrorKind::Incomplete { .. }) => {
                eprintln!("warning: {e}; that event is dropped");
                break;
            }
            Err(SseReadError::Sse(e)) => {
                return Err(Failure::Invalid(format!("event {index}: {e}")).into());
            }
        };
        arena.reset();
        let event = Event::parse_with(frame.data, &arena, options)
            .map_err(|e| Failure::Invalid(format!("event {index}: {e}")))?;
        emit(&event, reduce, &mut reducer, &mut line, out)?;
        index += 1;
    }
    finish(reduce, &reducer, &mut line, out)
}

/// Prints one event, or (`--reduce`) applies it.
fn emit(
    event: &Event<'_>,
    reduce: bool,
    reducer: &mut Reducer,
    line: &mut Vec<u8>,
    out: &mut impl Write,
) -> Result<(), Stop> {
    if reduce {
        reducer
            .apply(event)
            .map_err(|e| Failure::Invalid(e.to_string()))?;
    } else {
        line.clear();
        event.write_json(line);
        line.push(b'\n');
        out.write_all(line).map_err(write_failure)?;
    }
    Ok(())
}

/// With `--reduce`, prints the warnings and what the events built.
fn finish(
    reduce: bool,
    reducer: &Reducer,
    line: &mut Vec<u8>,
    out: &mut impl Write,
) -> Result<(), Stop> {
    if reduce {
        for w in reducer.warnings() {
            eprintln!("warning: {w}");
        }
        line.clear();
        reducer.write_json(line);
        line.push(b'\n');
        out.write_all(line).map_err(write_failure)?;
    }
    Ok(())
}
