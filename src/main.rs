//! The `scramble` binary: parse, install the Ctrl-C handler, run, map errors
//! to exit codes. Everything else lives in the library.

#![forbid(unsafe_code)]

use std::process::ExitCode;

use clap::Parser;
use scramble::commands::{self, Cli};
use scramble::solve::StopToken;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let stop = StopToken::new();
    let handler_token = stop.clone();
    // First Ctrl-C: stop the search and report what was found. Second: quit.
    let _ = ctrlc::set_handler(move || {
        if handler_token.is_stopped() {
            std::process::exit(commands::exit::INTERRUPTED.into());
        }
        eprintln!("\ninterrupted: stopping the search (Ctrl-C again to quit at once)");
        handler_token.stop();
    });
    match commands::run(cli, stop) {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}
