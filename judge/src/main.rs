//! The `judge` binary: argv → `cli::parse` → `app::main` → exit code. The same binary is the
//! run supervisor (`sandbox::supervisor`).

use std::process::ExitCode;

fn main() -> ExitCode {
    // Decided before anything else runs, so that the supervisor stays small.
    if std::env::args_os()
        .nth(1)
        .is_some_and(|arg| arg == judge::sandbox::supervisor::ARGUMENT)
    {
        judge::sandbox::supervisor::main();
    }
    let parsed = judge::cli::parse(std::env::args_os());
    // On cgroup v2 a judge that runs programs needs its own group: systemd starts a second
    // judge in it, whose end this one takes (before any thread or supervisor starts).
    if parsed.as_ref().is_ok_and(judge::cli::Cli::may_run_programs) {
        if let Some(code) = judge::sandbox::enter_scope() {
            return code;
        }
    }
    // Every run stops on Ctrl-C.
    let sandbox = std::sync::Arc::new(judge::sandbox::Sandbox::stopped_by(
        judge::runner::interrupt::wake_fd(),
    ));
    // Started now so that it overlaps with finding the problems.
    if parsed.as_ref().is_ok_and(judge::cli::Cli::may_run_programs) {
        // SAFETY: nothing has started a thread yet.
        unsafe { sandbox.prepare_by_fork() };
    }
    judge::runner::interrupt::install();
    // A closed stdout (`judge | head`) makes prints fail: end as quietly as the signal would.
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if let Some(signal) = judge::runner::interrupt::requested() {
            judge::runner::interrupt::finish();
            std::process::exit(128 + signal);
        }
        default_hook(info);
    }));
    let code = match parsed {
        Ok(cli) => judge::app::main(cli, sandbox),
        Err(error) => {
            // Help and version are not errors: they go to stdout and exit 0.
            let _ = error.print();
            if let Some(word) = judge::cli::unknown_command(&error) {
                eprintln!("\nto judge a problem, name it after `run`: judge run {word}");
            }
            ExitCode::from(if error.use_stderr() { 2 } else { 0 })
        }
    };
    // Asked to stop: end by the same signal, as a shell expects (128 + it if that fails).
    judge::runner::interrupt::finish();
    match judge::runner::interrupt::requested() {
        Some(signal) => ExitCode::from((128 + signal) as u8),
        None => code,
    }
}
