//! Interactive and multi-pass problems: the submission runs with the problem's output
//! validator (Kattis) or interactor (testlib), their streams crossed. A multi-pass problem
//! runs the submission again on the `nextpass.in` the validator left in its feedback folder,
//! up to `validation_passes` times.
//!
//! One pass is decided in this order, as problemtools and BAPCtools decide it:
//! 1. the validator failed (crashed, passed its limits, or an exit its protocol does not know):
//!    a judge error;
//! 2. the validator ended first and rejected: wrong answer, whatever the submission did after
//!    (it is stopped then). First is told by the validator's output: it ended (the validator
//!    exited, or closed it to end the interaction) while the submission still ran;
//! 3. the submission's own run: TLE (its CPU time; or it waited past the wall-clock backstop,
//!    as one that does not flush leaves both waiting), memory, run-time error;
//! 4. the validator's judgement.

use std::os::fd::{AsFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::judging::checker::{self, Judgement};
use crate::judging::verdict::classify_run;
use crate::problem::checker_spec::RunTwice;
use crate::problem::CheckerSpec;
use crate::problem::TestCase;
use crate::sandbox::{RunOutput, Streams};
use crate::toolchain::Limits;
use crate::toolchain::{Program, RunOptions};

/// How long a validator may wait, beyond the submission's own backstop, before it is stopped:
/// it sees its input end when the submission does, and should end right after.
const VALIDATOR_GRACE: Duration = Duration::from_secs(5);

/// The file an interactor writes as its output argument (testlib's `tout`).
const INTERACTOR_OUTPUT: &str = "interactor-output";

/// What the checker of a run-twice problem without an interactor printed after the first
/// run: the second run's input.
const CHECKER_OUTPUT: &str = "checker-output";

#[derive(Debug)]
pub struct Interaction {
    /// The submission's run in the last pass, with the slowest pass's CPU time and the
    /// largest peak memory of all passes (the limits hold per pass).
    pub run: RunOutput,
    /// The validator's judgement; `None` when it did not look (the run had already failed).
    pub judgement: Option<Judgement>,
    /// The judgement decides whatever the run says (rules 1 and 2 above).
    pub validator_decides: bool,
    /// The pass that decided (1 for problems of one pass).
    pub pass: u32,
}

/// Judges `case`: one pass or several, interactive or not, as `spec.mode` says. `after`, with
/// an interactor, is the checker that then reads what the interactor wrote (testlib's
/// `tout`): an accepted interaction is then its to judge.
pub fn judge(
    program: &Program,
    limits: Limits,
    (validator, after): (&Program, Option<(&Program, &CheckerSpec)>),
    spec: &CheckerSpec,
    case: &TestCase,
) -> std::io::Result<Interaction> {
    let scratch = Scratch::new()?;
    let nextpass = scratch.feedback.join("nextpass.in");
    let mut input: PathBuf = case.input.clone();
    let (mut slowest, mut peak) = (Duration::ZERO, 0);
    let mut pass = 1;
    loop {
        let work = scratch.work(limits, (validator, spec), case, &input);
        let mut outcome = work.pass(program, pass, after)?;
        slowest = slowest.max(outcome.run.cpu_time);
        peak = peak.max(outcome.run.peak_memory_bytes);
        outcome.run.cpu_time = slowest;
        outcome.run.peak_memory_bytes = peak;
        outcome.pass = pass;
        if spec.mode.passes == 1 {
            return Ok(outcome);
        }
        if !outcome.stands(&limits) {
            let accepted = matches!(outcome.judgement, Some(Judgement::Accepted(_)));
            if spec.mode.twice.is_none() && !accepted && nextpass.exists() {
                return Ok(outcome.fault(
                    "the output validator wrote nextpass.in but did not accept (exit 42)".into(),
                ));
            }
            return Ok(outcome);
        }
        if let Some(twice) = spec.mode.twice {
            if pass == 2 {
                return Ok(outcome);
            }
            pass = 2;
            input = scratch.second_input(twice)?;
            continue;
        }
        if !nextpass.is_file() {
            return Ok(outcome);
        }
        if pass == spec.mode.passes {
            return Ok(outcome.fault(format!(
                "the output validator asked for pass {} (it wrote nextpass.in), but `validation_passes` is {}",
                pass + 1,
                spec.mode.passes
            )));
        }
        // The next pass reads it from elsewhere: the feedback folder holds none at its start.
        pass += 1;
        input = scratch.dir.path().join(format!("pass{pass}.in"));
        std::fs::rename(&nextpass, &input)?;
    }
}

/// The answer the main solution makes for `case`, whose answer file is empty meanwhile, as
/// Polygon makes a missing answer of an interactive or run-twice problem: the file the last
/// check would read (what the interactor wrote, or the last run's output), that check left
/// out. `Err` says why there is none: a run or judgement that does not stand.
pub fn answer(
    program: &Program,
    limits: Limits,
    (validator, after): (&Program, Option<(&Program, &CheckerSpec)>),
    spec: &CheckerSpec,
    case: &TestCase,
) -> std::io::Result<Result<Vec<u8>, String>> {
    let scratch = Scratch::new()?;
    let mut input = case.input.clone();
    if let Some(twice) = spec.mode.twice {
        let work = scratch.work(limits, (validator, spec), case, &input);
        let first = work.pass(program, 1, after)?;
        if !first.stands(&limits) {
            return Ok(Err(format!("its first run: {}", first.why(&limits))));
        }
        input = scratch.second_input(twice)?;
    }
    let work = scratch.work(limits, (validator, spec), case, &input);
    if work.talks(spec.mode.passes) {
        let outcome = work.interact(program)?;
        if !outcome.stands(&limits) {
            return Ok(Err(outcome.why(&limits)));
        }
        return Ok(Ok(std::fs::read(
            scratch.dir.path().join(INTERACTOR_OUTPUT),
        )?));
    }
    let run = program.run(&input, limits, &case.args)?;
    Ok(match classify_run(&run, &limits) {
        Some(verdict) => Err(verdict.to_string()),
        None => Ok(run.stdout),
    })
}

/// A case's scratch folder: the programs' output files, later passes' inputs, and the
/// feedback folder, kept over every pass (a validator may add to its judge message pass after
/// pass).
struct Scratch {
    dir: tempfile::TempDir,
    feedback: PathBuf,
}

impl Scratch {
    fn new() -> std::io::Result<Scratch> {
        let dir = tempfile::Builder::new()
            .prefix("judge-interact-")
            .tempdir()?;
        let feedback = dir.path().join("feedback");
        std::fs::create_dir(&feedback)?;
        Ok(Scratch { dir, feedback })
    }

    fn work<'a>(
        &'a self,
        limits: Limits,
        (validator, spec): (&'a Program, &'a CheckerSpec),
        case: &'a TestCase,
        input: &'a Path,
    ) -> Work<'a> {
        Work {
            limits,
            validator,
            spec,
            case,
            input,
            scratch: self.dir.path(),
            feedback: &self.feedback,
        }
    }

    /// The second run's input of a run-twice problem, as the first pass left it.
    fn second_input(&self, twice: RunTwice) -> std::io::Result<PathBuf> {
        let written = match twice {
            RunTwice::Checked => CHECKER_OUTPUT,
            RunTwice::FirstInteractive | RunTwice::BothInteractive => INTERACTOR_OUTPUT,
        };
        // Moved: the second pass's programs write theirs where the first wrote.
        let input = self.dir.path().join("pass2.in");
        std::fs::rename(self.dir.path().join(written), &input)?;
        Ok(input)
    }
}

impl Interaction {
    /// Accepted, its run within its limits and not cut short: the next pass may start.
    fn stands(&self, limits: &Limits) -> bool {
        matches!(self.judgement, Some(Judgement::Accepted(_)))
            && !self.validator_decides
            && classify_run(&self.run, limits).is_none()
    }

    /// Why it does not stand: the run's verdict, or the judgement.
    fn why(&self, limits: &Limits) -> String {
        match (classify_run(&self.run, limits), &self.judgement) {
            (Some(verdict), _) => verdict.to_string(),
            (None, Some(Judgement::Wrong(message) | Judgement::Fault(message))) => message.clone(),
            (None, _) => "not accepted".to_owned(),
        }
    }

    fn fault(self, message: String) -> Interaction {
        Interaction {
            judgement: Some(Judgement::Fault(message)),
            validator_decides: true,
            ..self
        }
    }
}

/// One pass: what it runs and where.
#[derive(Clone, Copy)]
struct Work<'a> {
    limits: Limits,
    validator: &'a Program,
    spec: &'a CheckerSpec,
    case: &'a TestCase,
    input: &'a Path,
    scratch: &'a Path,
    feedback: &'a Path,
}

impl Work<'_> {
    /// Whether pass `pass` talks with the interactor: every pass of an interactive problem
    /// but the second run of a run-twice problem whose interactor talks only with the first.
    fn talks(&self, pass: u32) -> bool {
        self.spec.mode.interactive
            && !(pass == 2 && self.spec.mode.twice == Some(RunTwice::FirstInteractive))
    }

    /// Pass `pass`, as the mode says. The checker of what an interactor wrote reads it after
    /// the last interaction only (in a run-twice problem, the first pass's is the second run's
    /// input); the second run that talks with no interactor is that checker's to judge.
    fn pass(
        &self,
        program: &Program,
        pass: u32,
        after: Option<(&Program, &CheckerSpec)>,
    ) -> std::io::Result<Interaction> {
        if !self.talks(pass) {
            return match after.filter(|_| self.spec.mode.interactive) {
                Some((checker, spec)) => Work {
                    validator: checker,
                    spec,
                    ..*self
                }
                .run_then_check(program),
                None => self.run_then_check(program),
            };
        }
        let mut outcome = self.interact(program)?;
        let last = self.spec.mode.twice.is_none() || pass == 2;
        if let Some((checker, spec)) = after.filter(|_| last) {
            self.check_what_the_interactor_wrote(&mut outcome, checker, spec);
        }
        Ok(outcome)
    }

    /// A pass of a multi-pass problem that is not interactive: run, then check the output.
    fn run_then_check(&self, program: &Program) -> std::io::Result<Interaction> {
        let run = program.run(self.input, self.limits, &self.case.args)?;
        let judgement = if classify_run(&run, &self.limits).is_none() {
            let output = self.scratch.join("output");
            std::fs::write(&output, &run.stdout)?;
            let (spec, case) = (self.spec, self.case);
            let checked = checker::check_file(
                self.validator,
                spec,
                case,
                self.input,
                &output,
                self.feedback,
            );
            Some(match checked {
                Ok((judgement, printed)) => {
                    if spec.mode.twice == Some(RunTwice::Checked) {
                        std::fs::write(self.scratch.join(CHECKER_OUTPUT), printed)?;
                    }
                    judgement
                }
                Err(error) => Judgement::Fault(format!("checker could not run: {error}")),
            })
        } else {
            None
        };
        let validator_decides = matches!(judgement, Some(Judgement::Fault(_)));
        Ok(Interaction {
            run,
            judgement,
            validator_decides,
            pass: 1,
        })
    }

    /// After an accepted interaction whose run stands, the checker's judgement of what the
    /// interactor wrote (`checker input tout answer`) replaces the interactor's.
    fn check_what_the_interactor_wrote(
        &self,
        outcome: &mut Interaction,
        checker: &Program,
        spec: &CheckerSpec,
    ) {
        let accepted = matches!(outcome.judgement, Some(Judgement::Accepted(_)));
        if !accepted || classify_run(&outcome.run, &self.limits).is_some() {
            return;
        }
        let tout = self.scratch.join(INTERACTOR_OUTPUT);
        let judgement =
            checker::check_file(checker, spec, self.case, self.input, &tout, self.feedback)
                .map_or_else(
                    |error| Judgement::Fault(format!("checker could not run: {error}")),
                    |(judgement, _)| judgement,
                );
        outcome.validator_decides = matches!(judgement, Judgement::Fault(_));
        outcome.judgement = Some(judgement);
    }

    /// An interactive pass: both programs at once, their streams crossed.
    ///
    /// The validator's output goes through a relay so that who ended first is known before
    /// the submission sees its input end *because* the validator ended (else a submission
    /// that crashes on that end races the validator's exit; problemtools holds the pipe open
    /// for the same reason), yet a validator that only closes its output gives that end at
    /// once (BAPCtools' `pseudointeraction`).
    fn interact(&self, program: &Program) -> std::io::Result<Interaction> {
        let (relay_in, to_relay) = pipe()?;
        let (submission_in, relay_out) = pipe()?;
        let (from_submission, submission_out) = pipe()?;
        // A reading end of the submission's output, kept until the validator has ended: it
        // hangs up only when the submission has closed its output, that is, ended.
        let probe = from_submission.try_clone()?;
        let relay_probe = from_submission.try_clone()?;
        // Set by the relay when the validator's output ends while the submission still runs.
        let validator_first = AtomicBool::new(false);
        let (stop, stop_trigger) = pipe()?;
        let (ended, validator_ended) = std::sync::mpsc::channel::<()>();
        let output_file = self.scratch.join(INTERACTOR_OUTPUT);
        let args = checker::arguments(
            self.spec,
            self.case,
            self.input,
            &output_file,
            self.feedback,
        );
        let submission_wall = crate::sandbox::wall_backstop(&self.limits);
        std::thread::scope(|scope| {
            let validator_first = &validator_first;
            scope.spawn(move || {
                relay(
                    (relay_in, relay_out),
                    validator_ended,
                    (relay_probe, validator_first),
                )
            });
            let validator = scope.spawn(|| {
                let streams = (from_submission, to_relay);
                self.run_validator(
                    streams,
                    &args,
                    submission_wall,
                    (probe, validator_first),
                    (&stop_trigger, &ended),
                )
            });
            let streams = Streams {
                stdin: Some(submission_in),
                stdout: Some(submission_out),
                stop: Some(stop.as_fd()),
                ..Streams::default()
            };
            let run = program.run_with(
                Path::new("/dev/null"),
                self.limits,
                &self.case.args,
                RunOptions {
                    streams,
                    wall_timeout: Some(submission_wall),
                    run_past_output_limit: false,
                    judged: true,
                    case_files: self.case.files.as_deref(),
                    ..RunOptions::default()
                },
            );
            let (judgement, validator_decides) = validator
                .join()
                .map_err(|_| std::io::Error::other("the validator's thread panicked"))?;
            Ok(Interaction {
                run: run?,
                judgement: Some(judgement),
                validator_decides,
                pass: 1,
            })
        })
    }

    /// Its judgement, and whether it decides the verdict (then the submission is stopped
    /// through `stop_trigger`); after an acceptance, once the submission's output ends. `stop_trigger` is
    /// borrowed: the submission's supervisor takes its hang-up for a stop, so it must outlive
    /// the submission's run.
    fn run_validator(
        &self,
        (from_submission, to_relay): (OwnedFd, OwnedFd),
        args: &[String],
        submission_wall: Duration,
        (probe, relay_saw_it_first): (OwnedFd, &AtomicBool),
        (stop_trigger, ended): (&OwnedFd, &std::sync::mpsc::Sender<()>),
    ) -> (Judgement, bool) {
        let streams = Streams {
            stdin: Some(from_submission),
            stdout: Some(to_relay),
            ..Streams::default()
        };
        let run = self.validator.run_with(
            Path::new("/dev/null"),
            self.spec.limits,
            args,
            RunOptions {
                streams,
                wall_timeout: Some(submission_wall + VALIDATOR_GRACE),
                run_past_output_limit: false,
                judged: false,
                ..RunOptions::default()
            },
        );
        // Ended first: the submission still runs now, or it still ran when the validator's
        // output ended (then it may have ended since, on that end of its input).
        let first = !hung_up(&probe) || relay_saw_it_first.load(Ordering::SeqCst);
        let judgement = match &run {
            Ok(run) => checker::judgement(self.spec, run, self.feedback),
            Err(error) => Judgement::Fault(format!("checker could not run: {error}")),
        };
        // Ended first and did not accept (or failed): the submission's verdict is
        // decided, so it is stopped instead of waiting for input that never comes.
        let decides = matches!(judgement, Judgement::Fault(_))
            || (first && !matches!(judgement, Judgement::Accepted(_)));
        if decides {
            let _ = rustix::io::write(stop_trigger, b"x");
        }
        let _ = ended.send(());
        if matches!(judgement, Judgement::Accepted(_)) {
            // After an acceptance the submission's verdict is its run's: what it writes
            // still is read, and dropped, so that it neither breaks by SIGPIPE (depending on
            // when the validator ended) nor waits on a full pipe until its backstop.
            let mut dropped = vec![0u8; 64 * 1024];
            loop {
                match rustix::io::read(&probe, &mut dropped) {
                    Ok(0) => break,
                    Ok(_) | Err(rustix::io::Errno::INTR) => {}
                    Err(_) => break,
                }
            }
        }
        (judgement, decides)
    }
}

/// How long the relay waits, at the end of the validator's output, to hear that the validator
/// ended (its supervisor's report) before it takes the end for a closed output.
const END_WAIT: Duration = Duration::from_millis(250);

/// Copies the validator's output to the submission's input. What comes after the submission
/// has ended is dropped, so that the validator is neither broken by SIGPIPE (a submission may
/// end as soon as it has its answer) nor blocked on a full pipe.
fn relay(
    (from, to): (OwnedFd, OwnedFd),
    validator_ended: std::sync::mpsc::Receiver<()>,
    (submission_output, validator_first): (OwnedFd, &AtomicBool),
) {
    // The judge stops on SIGPIPE (its own output's reader gone); writing to a submission that
    // has ended must only fail with EPIPE, so this thread blocks the signal.
    // SAFETY: changes this thread's signal mask only, with a set built here.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, libc::SIGPIPE);
        libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut());
    }
    let mut to = Some(to);
    let mut buffer = vec![0u8; 64 * 1024];
    loop {
        let count = match rustix::io::read(&from, &mut buffer) {
            Ok(0) => break,
            Ok(count) => count,
            Err(rustix::io::Errno::INTR) => continue,
            Err(_) => break,
        };
        if let Some(pipe) = &to {
            if write_all(pipe, &buffer[..count]).is_err() {
                to = None;
            }
        }
    }
    // Told before the submission can see its input end (below), so that a submission that
    // ends on that end is never taken for one that ended first.
    validator_first.store(!hung_up(&submission_output), Ordering::SeqCst);
    drop(submission_output);
    let _ = validator_ended.recv_timeout(END_WAIT);
    drop(to);
}

fn write_all(to: &OwnedFd, mut bytes: &[u8]) -> rustix::io::Result<()> {
    while !bytes.is_empty() {
        match rustix::io::write(to, bytes) {
            Ok(written) => bytes = &bytes[written..],
            Err(rustix::io::Errno::INTR) => {}
            Err(error) => return Err(error),
        }
    }
    Ok(())
}

/// A pipe whose ends close on exec: (reading end, writing end).
fn pipe() -> std::io::Result<(OwnedFd, OwnedFd)> {
    Ok(rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC)?)
}

/// Whether every writer of the pipe `reader` reads from has closed it.
fn hung_up(reader: &OwnedFd) -> bool {
    use rustix::event::{PollFd, PollFlags};
    let mut fds = [PollFd::new(reader, PollFlags::IN)];
    let timeout = rustix::time::Timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    match rustix::event::poll(&mut fds, Some(&timeout)) {
        Ok(_) => fds[0].revents().contains(PollFlags::HUP),
        Err(_) => false,
    }
}
