//! `agui-wire events`: read an AG-UI event stream (Server-Sent Events) and print its events as
//! compact JSON lines, or (`--reduce`) the conversation and state they build.
//!
//! Exit status: 0 on success, 1 when the stream is invalid (not SSE, an event that does not
//! parse, or an event order the protocol forbids; the message names the event's index), 2 on
//! a usage or I/O error. A stream that ends inside an event loses that event (as the SSE
//! standard says) with a warning, and still succeeds.

use std::io::{self, BufWriter, Read, Write};
use std::process::ExitCode;

use agui_wire::reducer::Reducer;
use agui_wire::sse::{SseErrorKind, SseReadError, SseReader};
use agui_wire::{Bump, Event, ParseOptions};

/// The command's help text.
pub const USAGE: &str = "\
usage: agui-wire events [--reduce] [--lenient] FILE|-

Reads an AG-UI event stream (text/event-stream) from FILE, or stdin for `-`.

  (default)   print each event as one line of compact JSON
  --reduce    print instead the final {\"messages\": [...], \"state\": ...} the events build,
              as the TypeScript client (@ag-ui/client) builds it; warnings go to stderr
  --lenient   read `null` in optional fields as absent (the Python SDK's habit)

Exit status: 0 ok, 1 invalid stream (`error: event <index>: ...`), 2 usage or I/O error.
";

enum Failure {
    /// The stream is invalid: exit 1.
    Invalid(String),
    /// Reading or writing failed: exit 2.
    Io(String),
    /// The reader of our output went away: stop quietly.
    Closed,
}

fn write_err(e: io::Error) -> Failure {
    if e.kind() == io::ErrorKind::BrokenPipe {
        Failure::Closed
    } else {
        Failure::Io(format!("writing the output failed: {e}"))
    }
}

/// Runs `agui-wire events` with the arguments that follow `events`.
pub fn run(args: &[String]) -> ExitCode {
    let mut reduce = false;
    let mut lenient = false;
    let mut path: Option<&str> = None;
    for arg in args {
        match arg.as_str() {
            "--reduce" => reduce = true,
            "--lenient" => lenient = true,
            "-h" | "--help" => {
                print!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            "-" => path = path.map_or(Some("-"), |_| Some("")),
            a if a.starts_with('-') => {
                eprintln!("error: unknown option {a}\n\n{USAGE}");
                return ExitCode::from(2);
            }
            a => path = path.map_or(Some(a), |_| Some("")),
        }
    }
    let path = match path {
        Some("") => {
            eprintln!("error: give one FILE (or - for stdin)\n\n{USAGE}");
            return ExitCode::from(2);
        }
        Some(p) => p,
        None => {
            eprintln!("error: missing FILE (or - for stdin)\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let input: Box<dyn Read> = if path == "-" {
        Box::new(io::stdin().lock())
    } else {
        match std::fs::File::open(path) {
            Ok(f) => Box::new(f),
            Err(e) => {
                eprintln!("error: cannot open {path}: {e}");
                return ExitCode::from(2);
            }
        }
    };
    let options = if lenient {
        ParseOptions::lenient()
    } else {
        ParseOptions::default()
    };
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let result =
        events(input, reduce, &options, &mut out).and_then(|()| out.flush().map_err(write_err));
    match result {
        Ok(()) | Err(Failure::Closed) => ExitCode::SUCCESS,
        Err(Failure::Invalid(msg)) => {
            let _ = out.flush();
            eprintln!("error: {msg}");
            ExitCode::from(1)
        }
        Err(Failure::Io(msg)) => {
            let _ = out.flush();
            eprintln!("error: {msg}");
            ExitCode::from(2)
        }
    }
}

fn events(
    input: Box<dyn Read>,
    reduce: bool,
    options: &ParseOptions,
    out: &mut impl Write,
) -> Result<(), Failure> {
    let mut reader = SseReader::new(input);
    let mut reducer = Reducer::new();
    let mut arena = Bump::new();
    let mut index = 0usize;
    let mut line = Vec::new();
    while let Some(frame) = reader.next() {
        let frame = match frame {
            Ok(frame) => frame,
            Err(SseReadError::Io(e)) => return Err(Failure::Io(format!("reading failed: {e}"))),
            Err(SseReadError::Sse(e)) if matches!(e.kind(), SseErrorKind::Incomplete { .. }) => {
                eprintln!("warning: {e}; that event is dropped");
                break;
            }
            Err(SseReadError::Sse(e)) => {
                return Err(Failure::Invalid(format!("event {index}: {e}")));
            }
        };
        arena.reset();
        let event = Event::parse_with(frame.data, &arena, options)
            .map_err(|e| Failure::Invalid(format!("event {index}: {e}")))?;
        if reduce {
            reducer
                .apply(&event)
                .map_err(|e| Failure::Invalid(e.to_string()))?;
        } else {
            line.clear();
            event.write_json(&mut line);
            line.push(b'\n');
            out.write_all(&line).map_err(write_err)?;
        }
        index += 1;
    }
    if reduce {
        for w in reducer.warnings() {
            eprintln!("warning: {w}");
        }
        line.clear();
        reducer.write_json(&mut line);
        line.push(b'\n');
        out.write_all(&line).map_err(write_err)?;
    }
    Ok(())
}
