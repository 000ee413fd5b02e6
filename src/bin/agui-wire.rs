//! The `agui-wire` command line tool. (Placeholder dispatch in the `events` branch; the lead's
//! main replaces it and keeps the `events` arm.)

mod cmd_events;

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    match args.get(1).map(String::as_str) {
        Some("events") => cmd_events::run(args.get(2..).unwrap_or_default()),
        _ => {
            eprintln!("usage: agui-wire events [--reduce] [--lenient] FILE|-");
            ExitCode::from(2)
        }
    }
}
