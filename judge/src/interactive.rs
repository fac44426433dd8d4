//! Interactive and multi-pass problems. The submission runs together with the problem's
//! output validator (Kattis) or interactor (testlib), each on a supervisor of its own, the
//! submission's stdout piped to the validator's stdin and the validator's stdout to the
//! submission's stdin. A multi-pass problem runs the submission again on the `nextpass.in` the
//! validator left in its feedback folder, up to `validation_passes` times.
//!
//! One pass is decided in this order, as the package format's tools (problemtools, BAPCtools)
//! decide it:
//! 1. the validator failed (crashed, passed its limits, or an exit its protocol does not know):
//!    a judge error;
//! 2. the validator ended first and rejected: wrong answer, whatever the submission did after
//!    (it is stopped then);
//! 3. the submission's own run: TLE (its CPU time; or it waited past the wall-clock backstop,
//!    as one that does not flush leaves both waiting), memory, run-time error;
//! 4. the validator's judgement.

use std::os::fd::{AsFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::checker::{self, CheckerSpec, Judgement};
use crate::compile::Program;
use crate::problem::TestCase;
use crate::profile::Limits;
use crate::sandbox::{RunOutput, Streams};
use crate::verdict::classify_run;

/// How long a validator may wait, beyond the submission's own backstop, before it is stopped:
/// it sees its input end when the submission does, and should end right after.
const VALIDATOR_GRACE: Duration = Duration::from_secs(5);

/// What judging a case came to.
#[derive(Debug)]
pub struct Outcome {
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

/// Judges `case`: one pass or several, interactive or not, as `spec.mode` says.
pub fn judge(
    program: &Program,
    limits: Limits,
    validator: &Program,
    spec: &CheckerSpec,
    case: &TestCase,
) -> std::io::Result<Outcome> {
    let scratch = tempfile::Builder::new()
        .prefix("judge-interact-")
        .tempdir()?;
    // Kept over every pass: the validator may add to its judge message pass after pass.
    let feedback = scratch.path().join("feedback");
    std::fs::create_dir(&feedback)?;
    let nextpass = feedback.join("nextpass.in");
    let mut input: PathBuf = case.input.clone();
    let (mut slowest, mut peak) = (Duration::ZERO, 0);
    let mut pass = 1;
    loop {
        let work = Work {
            limits,
            validator,
            spec,
            case,
            input: &input,
            scratch: scratch.path(),
            feedback: &feedback,
        };
        let mut outcome = if spec.mode.interactive {
            work.interact(program)?
        } else {
            work.run_then_check(program)?
        };
        slowest = slowest.max(outcome.run.cpu_time);
        peak = peak.max(outcome.run.peak_memory_bytes);
        outcome.run.cpu_time = slowest;
        outcome.run.peak_memory_bytes = peak;
        outcome.pass = pass;
        if spec.mode.passes == 1 {
            return Ok(outcome);
        }
        let accepted = outcome.judgement == Some(Judgement::Accepted);
        if !accepted || outcome.validator_decides || classify_run(&outcome.run, &limits).is_some() {
            if !accepted && nextpass.exists() {
                return Ok(outcome.fault(
                    "the output validator wrote nextpass.in but did not accept (exit 42)".into(),
                ));
            }
            return Ok(outcome);
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
        input = scratch.path().join(format!("pass{pass}.in"));
        std::fs::rename(&nextpass, &input)?;
    }
}

impl Outcome {
    fn fault(self, message: String) -> Outcome {
        Outcome {
            judgement: Some(Judgement::Fault(message)),
            validator_decides: true,
            ..self
        }
    }
}

/// One pass: what it runs and where.
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
    /// A pass of a multi-pass problem that is not interactive: run, then check the output.
    fn run_then_check(&self, program: &Program) -> std::io::Result<Outcome> {
        let run = program.run(self.input, self.limits, &[])?;
        let judgement = if classify_run(&run, &self.limits).is_none() {
            let output = self.scratch.join("output");
            std::fs::write(&output, &run.stdout)?;
            let (spec, case) = (self.spec, self.case);
            let judgement = checker::check_file(
                self.validator,
                spec,
                case,
                self.input,
                &output,
                self.feedback,
            )
            .unwrap_or_else(|error| Judgement::Fault(format!("checker could not run: {error}")));
            Some(judgement)
        } else {
            None
        };
        let validator_decides = matches!(judgement, Some(Judgement::Fault(_)));
        Ok(Outcome {
            run,
            judgement,
            validator_decides,
            pass: 1,
        })
    }

    /// An interactive pass: both programs at once, their streams crossed.
    fn interact(&self, program: &Program) -> std::io::Result<Outcome> {
        let (submission_in, to_submission) = pipe()?;
        let (from_submission, submission_out) = pipe()?;
        // Copies the judge keeps until the validator has ended and who ended first is known:
        // till then the submission neither sees its input end nor loses its reader, so it
        // cannot have ended *because* the validator did; and while the submission lives, the
        // probe (a reading end of its output) does not hang up.
        let held_input = to_submission.try_clone()?;
        let probe = from_submission.try_clone()?;
        // A reader of the validator's output, kept to the end as problemtools keeps one: a
        // validator that writes to a submission that has ended is not broken by SIGPIPE (a
        // submission may end as soon as it has its answer). Drained once the submission has
        // ended, so that such a validator does not block on a full pipe either.
        let reader = submission_in.try_clone()?;
        let (stop, stop_trigger) = pipe()?;
        let output_file = self.scratch.join("interactor-output");
        let args = checker::arguments(
            self.spec,
            self.case,
            self.input,
            &output_file,
            self.feedback,
        );
        let submission_wall = self.limits.cpu_time * 2 + Duration::from_secs(1);
        std::thread::scope(|scope| {
            let validator = scope.spawn(|| {
                let streams = Streams {
                    stdin: Some(from_submission),
                    stdout: Some(to_submission),
                    stop: None,
                };
                let run = self.validator.run_with(
                    Path::new("/dev/null"),
                    self.spec.limits,
                    &args,
                    Some(submission_wall + VALIDATOR_GRACE),
                    streams,
                );
                let first = !hung_up(&probe);
                let judgement = match &run {
                    Ok(run) => checker::judgement(self.spec, run, self.feedback),
                    Err(error) => Judgement::Fault(format!("checker could not run: {error}")),
                };
                // Ended first and did not accept (or failed): the submission's verdict is
                // decided, so it is stopped instead of waiting for input that never comes.
                let decides = matches!(judgement, Judgement::Fault(_))
                    || (first && judgement != Judgement::Accepted);
                if decides {
                    let _ = rustix::io::write(&stop_trigger, b"x");
                }
                drop(held_input);
                // After an acceptance the submission's verdict is its run's: writing more
                // must not break it by SIGPIPE, depending on when the validator ended.
                let probe = (judgement == Judgement::Accepted).then_some(probe);
                (judgement, decides, probe)
            });
            let streams = Streams {
                stdin: Some(submission_in),
                stdout: Some(submission_out),
                stop: Some(stop.as_fd()),
            };
            let run = program.run_with(
                Path::new("/dev/null"),
                self.limits,
                &[],
                Some(submission_wall),
                streams,
            );
            drain(&reader);
            let (judgement, validator_decides, _probe) = validator
                .join()
                .map_err(|_| std::io::Error::other("the validator's thread panicked"))?;
            Ok(Outcome {
                run: run?,
                judgement: Some(judgement),
                validator_decides,
                pass: 1,
            })
        })
    }
}

/// A pipe whose ends close on exec: (reading end, writing end).
fn pipe() -> std::io::Result<(OwnedFd, OwnedFd)> {
    Ok(rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC)?)
}

/// Reads and drops what is in the pipe `reader` until every writer has closed it.
fn drain(reader: &OwnedFd) {
    let mut sink = [0u8; 16 * 1024];
    loop {
        match rustix::io::read(reader, &mut sink) {
            Ok(0) => return,
            Ok(_) | Err(rustix::io::Errno::INTR) => {}
            Err(_) => return,
        }
    }
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
