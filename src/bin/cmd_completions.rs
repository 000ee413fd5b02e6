//! `agui-wire completions SHELL`: a completion script for the shell, on standard output.

use clap::CommandFactory;
use clap_complete::Shell;

use crate::Failure;

/// Print a shell completion script to standard output
#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  agui-wire completions bash > ~/.local/share/bash-completion/completions/agui-wire
  agui-wire completions zsh > \"${fpath[1]}/_agui-wire\"
  agui-wire completions fish > ~/.config/fish/completions/agui-wire.fish")]
pub(crate) struct Completions {
    /// The shell to write the script for
    #[arg(value_enum)]
    shell: Shell,
}

/// Writes the completion script of the command line `C` for the chosen shell.
pub(crate) fn run<C: CommandFactory>(args: Completions) -> Result<(), Failure> {
    let mut cmd = C::command();
    let name = cmd.get_name().to_string();
    clap_complete::generate(args.shell, &mut cmd, name, &mut std::io::stdout());
    Ok(())
}
