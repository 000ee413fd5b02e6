//! `agui-wire`: validate, inspect and rewrite AG-UI payloads from the command line.
//!
//! Exit codes: 0 success, 1 invalid input (the error on stderr as
//! `error: <what> at <json path> (byte <offset>)`), 2 usage or I/O errors.
//!
//! Each command group lives in its own file (`cmd_*.rs`) with its clap arguments struct and a
//! `run` function; adding a command is adding a file and a variant of [`Command`].

mod cmd_completions;
mod cmd_events;
mod cmd_inspect;
mod cmd_media;
mod cmd_transcode;
mod cmd_validate;
mod cmd_write;

use std::io::Read;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

const AFTER_HELP: &str = "\
FILE may be `-` for standard input. --lenient reads `null` in optional fields as absent (as the
Python SDK does); by default it is an error, as the protocol and the TypeScript SDK say.

Exit codes: 0 success, 1 invalid input (`error: <what> at <json path> (byte <offset>)`),
2 usage or I/O errors.

Examples:
  agui-wire inspect samples/conversation.json
  agui-wire validate --strict samples/conversation.json
  curl -sN http://agent/run | agui-wire events -";

/// Validate, inspect and rewrite AG-UI payloads (RunAgentInput, AgentCapabilities, event
/// streams).
#[derive(Parser)]
#[command(
    name = "agui-wire",
    version,
    propagate_version = true,
    arg_required_else_help = true,
    after_help = AFTER_HELP
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    Validate(cmd_validate::Validate),
    Inspect(cmd_inspect::Inspect),
    Write(cmd_write::Write),
    Extract(cmd_media::Extract),
    Offload(cmd_write::Offload),
    Events(cmd_events::Events),
    Transcode(cmd_transcode::Transcode),
    Completions(cmd_completions::Completions),
}

/// The input document and how strictly to read it, shared by the document commands.
#[derive(clap::Args)]
pub(crate) struct InputArgs {
    /// The JSON document to read, or `-` for standard input
    #[arg(value_name = "FILE")]
    pub(crate) file: String,
    /// Read `null` in optional fields as absent (as the Python SDK does)
    #[arg(long)]
    pub(crate) lenient: bool,
}

impl InputArgs {
    pub(crate) fn options(&self) -> agui_wire::ParseOptions {
        parse_options(self.lenient)
    }

    pub(crate) fn read(&self) -> Result<Vec<u8>, Failure> {
        read_input(&self.file)
    }
}

/// `ParseOptions` for `--lenient` or not.
pub(crate) fn parse_options(lenient: bool) -> agui_wire::ParseOptions {
    if lenient {
        agui_wire::ParseOptions::lenient()
    } else {
        agui_wire::ParseOptions::default()
    }
}

/// Which document a JSON file holds.
#[derive(Clone, Copy, PartialEq, Eq, Debug, ValueEnum)]
pub(crate) enum Kind {
    /// A RunAgentInput (the body of a run request)
    #[value(alias = "run-agent-input")]
    Input,
    /// An AgentCapabilities document
    Capabilities,
}

impl Kind {
    /// The kind given, or else the kind FILE's top-level keys show: a key only a
    /// RunAgentInput has (`threadId`, `runId`, `messages`, ...) makes it an input, else a key
    /// only AgentCapabilities has (`identity`, `transport`, ...) makes it capabilities; the
    /// default (no telling key, or not a JSON object) is an input, whose parser then says
    /// what is wrong.
    pub(crate) fn of(given: Option<Kind>, bytes: &[u8]) -> Kind {
        const INPUT: &[&str] = &[
            "threadId",
            "runId",
            "parentRunId",
            "messages",
            "context",
            "forwardedProps",
            "resume",
            "protocolVersion",
        ];
        const CAPABILITIES: &[&str] = &[
            "identity",
            "transport",
            "output",
            "multiAgent",
            "reasoning",
            "multimodal",
            "execution",
            "humanInTheLoop",
            "custom",
        ];
        if let Some(kind) = given {
            return kind;
        }
        type Keys = std::collections::BTreeMap<String, serde::de::IgnoredAny>;
        let Ok(keys) = serde_json::from_slice::<Keys>(bytes) else {
            return Kind::Input;
        };
        let has = |names: &[&str]| names.iter().any(|k| keys.contains_key(*k));
        if !has(INPUT) && has(CAPABILITIES) {
            Kind::Capabilities
        } else {
            Kind::Input
        }
    }
}

/// A failure of a command: invalid input (exit 1) or an I/O problem (exit 2).
pub(crate) enum Failure {
    /// A document that does not parse, with its offset and path.
    Parse(agui_wire::Error),
    /// Other invalid input.
    Invalid(String),
    Io(String),
}

impl From<agui_wire::Error> for Failure {
    fn from(e: agui_wire::Error) -> Self {
        Failure::Parse(e)
    }
}

impl Failure {
    /// The exit code: 1 for invalid input, 2 for I/O problems.
    pub(crate) fn code(&self) -> u8 {
        match self {
            Failure::Parse(_) | Failure::Invalid(_) => 1,
            Failure::Io(_) => 2,
        }
    }

    /// The error as one line, without the `error: ` prefix.
    pub(crate) fn message(&self) -> String {
        match self {
            Failure::Parse(e) => e.to_string(),
            Failure::Invalid(m) | Failure::Io(m) => m.clone(),
        }
    }

    /// The error as a JSON object, for `--json` output:
    /// `{"error": {"message", "exitCode"[, "what", "path", "offset"]}}`.
    pub(crate) fn to_json(&self) -> serde_json::Value {
        let mut error = serde_json::json!({
            "message": self.message(),
            "exitCode": self.code(),
        });
        if let Failure::Parse(e) = self {
            error["what"] = e.kind().to_string().into();
            error["path"] = e.path().into();
            error["offset"] = e.offset().into();
        }
        serde_json::json!({ "error": error })
    }
}

/// Reads FILE, or standard input for `-`.
pub(crate) fn read_input(path: &str) -> Result<Vec<u8>, Failure> {
    if path == "-" {
        let mut buf = Vec::new();
        std::io::stdin()
            .read_to_end(&mut buf)
            .map_err(|e| Failure::Io(format!("cannot read standard input: {e}")))?;
        Ok(buf)
    } else {
        std::fs::read(path).map_err(|e| Failure::Io(format!("cannot read {path}: {e}")))
    }
}

/// A usage error from clap, made short: one `error:` line, then one `hint:` line (clap's tip,
/// or the command's usage line) that says where the full help is.
fn short_usage_error(e: &clap::Error) -> String {
    let text = e.render().to_string();
    let mut error = String::new();
    let mut tip = None;
    let mut usage = None;
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        if let Some(rest) = line.strip_prefix("error: ") {
            error = rest.to_string();
        } else if let Some(rest) = line.strip_prefix("tip: ") {
            // "to pass '--x' as a value, use '-- --x'" helps nobody here.
            if !rest.starts_with("to pass ") {
                tip.get_or_insert_with(|| rest.to_string());
            }
        } else if let Some(rest) = line.strip_prefix("Usage: ") {
            usage.get_or_insert_with(|| rest.to_string());
        } else if usage.is_none() && !line.starts_with("For more information") {
            // `[possible values: ...]`, or the missing arguments listed under the error.
            if line.starts_with('[') || error.ends_with(':') {
                error.push(' ');
            } else {
                error.push_str(", ");
            }
            error.push_str(line);
        }
    }
    let help = format!("`{} --help`", command_path());
    let hint = match (tip, usage) {
        (Some(tip), _) => format!("{tip} (more with {help})"),
        (None, Some(usage)) => format!("usage: {usage} (more with {help})"),
        (None, None) => format!("{help} lists the options"),
    };
    format!("error: {error}\nhint: {hint}")
}

/// `agui-wire` and the subcommand named on the command line, if any.
fn command_path() -> String {
    use clap::CommandFactory;
    let cli = Cli::command();
    let sub = std::env::args()
        .skip(1)
        .find(|a| cli.get_subcommands().any(|c| c.get_name() == a));
    match sub {
        Some(sub) => format!("agui-wire {sub}"),
        None => "agui-wire".to_string(),
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind;
            match e.kind() {
                ErrorKind::DisplayHelp
                | ErrorKind::DisplayVersion
                | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => e.exit(),
                _ => {
                    eprintln!("{}", short_usage_error(&e));
                    return ExitCode::from(2);
                }
            }
        }
    };
    let result = match cli.command {
        Command::Validate(a) => cmd_validate::run(a),
        Command::Inspect(a) => cmd_inspect::run(a),
        Command::Write(a) => cmd_write::write(a),
        Command::Extract(a) => cmd_media::extract(a),
        Command::Offload(a) => cmd_write::offload(a, cmd_media::decode_source),
        Command::Events(a) => cmd_events::run(a),
        Command::Transcode(a) => cmd_transcode::run(a),
        Command::Completions(a) => cmd_completions::run::<Cli>(a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => {
            eprintln!("error: {}", f.message());
            ExitCode::from(f.code())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_line_definition_is_consistent() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }
}
