fn main() -> std::process::ExitCode {
    judge::cli::run(std::env::args_os())
}
