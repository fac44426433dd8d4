use std::process::ExitCode;

fn main() -> ExitCode {
    // The judge's binary is also its run supervisor: decided before anything else runs, so
    // that the supervisor stays small.
    if std::env::args_os()
        .nth(1)
        .is_some_and(|arg| arg == judge::sandbox::supervisor::ARGUMENT)
    {
        judge::sandbox::supervisor::main();
    }
    judge::interrupt::install();
    // A closed stdout (`judge | head`) makes prints fail: end as quietly as the signal would.
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if let Some(signal) = judge::interrupt::requested() {
            judge::sandbox::shutdown();
            judge::interrupt::finish();
            std::process::exit(128 + signal);
        }
        default_hook(info);
    }));
    let code = judge::cli::run(std::env::args_os());
    judge::sandbox::shutdown();
    // Asked to stop: end by the same signal, as a shell expects (it then reports 128 + it).
    judge::interrupt::finish();
    match judge::interrupt::requested() {
        Some(signal) => ExitCode::from((128 + signal) as u8),
        None => code,
    }
}
