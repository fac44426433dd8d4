//! The `judge` binary: argv → `cli::parse` → `app::main` → exit code.

use std::process::ExitCode;

fn main() -> ExitCode {
    // Die quietly when the reader goes away (`judge | head`), as command-line tools do,
    // instead of panicking on a failed print.
    // SAFETY: setting a signal's disposition to its default at startup, before any thread.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    match judge::cli::parse(std::env::args_os()) {
        Ok(cli) => judge::app::main(cli),
        Err(error) => {
            // Help and version are not errors: they go to stdout and exit 0.
            let _ = error.print();
            if let Some(word) = judge::cli::unknown_command(&error) {
                eprintln!("\nto judge a problem, name it after `run`: judge run {word}");
            }
            ExitCode::from(if error.use_stderr() { 2 } else { 0 })
        }
    }
}
