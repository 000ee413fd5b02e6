//! `agui-wire validate`: exit 0 if a document is valid, 1 with the first error if not.

use crate::{Failure, InputArgs, Kind};

/// Check that FILE is a valid RunAgentInput (or AgentCapabilities)
///
/// Exits 0 if it is; 1 with `error: <what> at <json path> (byte <offset>)` if not.
#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  agui-wire validate samples/conversation.json
  agui-wire validate --kind capabilities samples/capabilities.json
  curl -s http://agent/last-request | agui-wire validate --strict -")]
pub(crate) struct Validate {
    /// Which document FILE holds
    #[arg(long, value_enum, default_value_t = Kind::Input)]
    kind: Kind,
    /// Also validate every inline media payload (base64, data: URLs) and warn when a declared
    /// mimeType does not match the bytes
    #[arg(long)]
    strict: bool,
    #[command(flatten)]
    input: InputArgs,
}

pub(crate) fn run(args: Validate) -> Result<(), Failure> {
    let bytes = args.input.read()?;
    let opts = args.input.options();
    let arena = agui_wire::Bump::new();
    match args.kind {
        Kind::Input => {
            let input = agui_wire::RunAgentInput::parse_with(&bytes, &arena, &opts)?;
            if args.strict {
                crate::cmd_media::strict_media(&input, &bytes)?;
            }
        }
        Kind::Capabilities => {
            agui_wire::AgentCapabilities::parse_with(&bytes, &arena, &opts)?;
        }
    }
    Ok(())
}
