fn main() -> std::process::ExitCode {
    // Die quietly when the reader goes away (`judge | head`), as command-line tools do,
    // instead of panicking on a failed print.
    // SAFETY: setting a signal's disposition to its default at startup, before any thread.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    judge::cli::run(std::env::args_os())
}
