//! `agui-wire`: validate, inspect and rewrite AG-UI payloads from the command line.
//!
//! Exit codes: 0 success, 1 invalid input (the error on stderr as
//! `error: <what> at <json path> (byte <offset>)`), 2 usage or I/O errors.

mod cmd_events;
mod cmd_inspect;
mod cmd_media;
mod cmd_write;

use std::io::Read;
use std::process::ExitCode;

const USAGE: &str = "\
usage: agui-wire <command> [options] FILE|-

commands:
  validate [--kind input|capabilities] [--strict] [--lenient] FILE|-
        exit 0 if FILE is a valid RunAgentInput (or AgentCapabilities), 1 if not;
        --strict also validates every inline media payload and warns when a declared
        mimeType does not match the bytes
  inspect [--json] [--lenient] FILE|-
        summarise a RunAgentInput: ids, messages per role, tools, content parts (with decoded
        size and detected format of inline media), raw field sizes
  extract --out DIR [--lenient] FILE|-
        write every inline media part to DIR, one file per part named after its JSON path
  offload --out DIR --base-url URL [--lenient] FILE|-
        write every inline media part to DIR and print the document with those parts turned
        into url sources pointing at URL/<file name>
  write [--kind input|capabilities] [--lenient] FILE|-
        parse FILE and write it to stdout as compact JSON (byte for byte if already compact)
  events [--reduce] [--lenient] FILE|-
        read an AG-UI event stream (SSE) and print each event as one line of compact JSON;
        --reduce prints instead the final {\"messages\": [...], \"state\": ...} the events build

FILE may be `-` for standard input. --lenient reads `null` in optional fields as absent
(as the Python SDK does); by default it is an error, as the protocol and the TypeScript SDK say.";

/// A failure of a command: invalid input (exit 1) or a usage / I/O problem (exit 2).
pub(crate) enum Failure {
    Invalid(String),
    Usage(String),
}

impl From<agui_wire::Error> for Failure {
    fn from(e: agui_wire::Error) -> Self {
        Failure::Invalid(e.to_string())
    }
}

/// Command-line arguments split into flags (with optional values) and positionals.
pub(crate) struct Args {
    pub(crate) flags: Vec<(String, Option<String>)>,
    pub(crate) positional: Vec<String>,
}

impl Args {
    /// Parses `args`; `with_value` lists the flags that take a value.
    pub(crate) fn parse(
        args: &[String],
        with_value: &[&str],
        known: &[&str],
    ) -> Result<Args, Failure> {
        let mut flags = Vec::new();
        let mut positional = Vec::new();
        let mut it = args.iter();
        while let Some(a) = it.next() {
            if a == "-" || !a.starts_with('-') {
                positional.push(a.clone());
                continue;
            }
            let (name, inline) = match a.split_once('=') {
                Some((n, v)) => (n.to_string(), Some(v.to_string())),
                None => (a.clone(), None),
            };
            if !known.contains(&name.as_str()) && !with_value.contains(&name.as_str()) {
                return Err(Failure::Usage(format!("unknown option {name}")));
            }
            if with_value.contains(&name.as_str()) {
                let v = match inline {
                    Some(v) => v,
                    None => it
                        .next()
                        .cloned()
                        .ok_or_else(|| Failure::Usage(format!("{name} needs a value")))?,
                };
                flags.push((name, Some(v)));
            } else {
                flags.push((name, None));
            }
        }
        Ok(Args { flags, positional })
    }

    pub(crate) fn has(&self, name: &str) -> bool {
        self.flags.iter().any(|(n, _)| n == name)
    }

    pub(crate) fn value(&self, name: &str) -> Option<&str> {
        self.flags
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .and_then(|(_, v)| v.as_deref())
    }

    /// The single FILE|- argument.
    pub(crate) fn file(&self) -> Result<&str, Failure> {
        match self.positional.as_slice() {
            [f] => Ok(f),
            [] => Err(Failure::Usage(
                "missing FILE (or - for standard input)".into(),
            )),
            _ => Err(Failure::Usage("expected exactly one FILE".into())),
        }
    }

    pub(crate) fn options(&self) -> agui_wire::ParseOptions {
        if self.has("--lenient") {
            agui_wire::ParseOptions::lenient()
        } else {
            agui_wire::ParseOptions::default()
        }
    }
}

/// Reads FILE, or standard input for `-`.
pub(crate) fn read_input(path: &str) -> Result<Vec<u8>, Failure> {
    if path == "-" {
        let mut buf = Vec::new();
        std::io::stdin()
            .read_to_end(&mut buf)
            .map_err(|e| Failure::Usage(format!("cannot read standard input: {e}")))?;
        Ok(buf)
    } else {
        std::fs::read(path).map_err(|e| Failure::Usage(format!("cannot read {path}: {e}")))
    }
}

fn validate(args: &[String]) -> Result<(), Failure> {
    let args = Args::parse(args, &["--kind"], &["--lenient", "--strict"])?;
    let bytes = read_input(args.file()?)?;
    let opts = args.options();
    let arena = agui_wire::Bump::new();
    match args.value("--kind").unwrap_or("input") {
        "input" | "run-agent-input" => {
            let input = agui_wire::RunAgentInput::parse_with(&bytes, &arena, &opts)?;
            if args.has("--strict") {
                cmd_media::strict_media(&input, &bytes)?;
            }
        }
        "capabilities" => {
            agui_wire::AgentCapabilities::parse_with(&bytes, &arena, &opts)?;
        }
        other => {
            return Err(Failure::Usage(format!(
                "unknown --kind {other:?} (expected input or capabilities)"
            )));
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((cmd, rest)) = args.split_first() else {
        eprintln!("{USAGE}");
        return ExitCode::from(2);
    };
    let result = match cmd.as_str() {
        "validate" => validate(rest),
        "inspect" => cmd_inspect::run(rest),
        "write" => cmd_write::write(rest),
        "offload" => cmd_write::offload(rest, cmd_media::decode_source),
        "extract" => cmd_media::extract(rest),
        "events" => cmd_events::run(rest),
        "-h" | "--help" | "help" => {
            println!("{USAGE}");
            Ok(())
        }
        other => Err(Failure::Usage(format!("unknown command {other:?}"))),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Invalid(msg)) => {
            eprintln!("error: {msg}");
            ExitCode::from(1)
        }
        Err(Failure::Usage(msg)) => {
            eprintln!("agui-wire: {msg}\n\n{USAGE}");
            ExitCode::from(2)
        }
    }
}
