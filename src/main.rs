//! The `scramble` binary: parse, install the Ctrl-C handler, run, map errors
//! to exit codes. Everything else lives in the library.

#![forbid(unsafe_code)]

use std::process::ExitCode;
use std::time::Instant;

use clap::Parser;
use scramble::cancel::{Interrupts, Request};
use scramble::commands::{self, Cli};
use scramble::solve::StopToken;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let stop = StopToken::new();
    let handler_token = stop.clone();
    let interrupts = Interrupts::new();
    // First Ctrl-C (or a burst of signals at once): stop the search and
    // report what was found. A second one later: quit.
    let _ = ctrlc::set_handler(move || match interrupts.request(Instant::now()) {
        Request::Stop => {
            eprintln!("\ninterrupted: stopping the search (Ctrl-C again to quit at once)");
            handler_token.stop();
        }
        Request::Same => {}
        Request::Quit => std::process::exit(commands::exit::INTERRUPTED.into()),
    });
    match commands::run(cli, stop) {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}
