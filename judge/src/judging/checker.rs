//! Custom checkers, for problems where more than one output is right: an output validator in
//! the Kattis protocol, or a checker in the testlib protocol. A checker that crashes or
//! answers outside its protocol is a judge error, never a wrong answer.

use std::path::{Path, PathBuf};

use crate::judging::scorecard::ValidatorScore;
use crate::judging::verdict::classify_run;
use crate::problem::{CheckerSpec, Protocol, TestCase};
use crate::sandbox::{RunOutput, Termination};
use crate::toolchain::Program;

/// The file a testlib checker called with `-appes` writes its result to, in the feedback
/// folder.
const APPES_REPORT: &str = "appes.xml";

/// How a wrong answer that a testlib checker calls a presentation error begins.
pub const PRESENTATION_ERROR: &str = "presentation error";

/// What a checker made of an output.
#[derive(Debug, Clone, PartialEq)]
pub enum Judgement {
    /// With the score a Kattis validator wrote to its feedback folder, if any.
    Accepted(Option<ValidatorScore>),
    Wrong(String),
    /// The checker itself failed: a judge error.
    Fault(String),
}

pub fn check(checker: &Program, spec: &CheckerSpec, case: &TestCase, output: &[u8]) -> Judgement {
    let judged = || -> std::io::Result<Judgement> {
        let scratch = tempfile::Builder::new().prefix("judge-check-").tempdir()?;
        let output_file = scratch.path().join("output");
        std::fs::write(&output_file, output)?;
        let feedback = scratch.path().join("feedback");
        std::fs::create_dir(&feedback)?;
        check_file(checker, spec, case, &case.input, &output_file, &feedback)
            .map(|(judgement, _)| judgement)
    };
    judged().unwrap_or_else(|error| Judgement::Fault(format!("checker could not run: {error}")))
}

/// Runs `checker` on the output in `output_file` of a run on `input` (the case's, or a later
/// pass's), with `feedback` as the Kattis feedback folder; with what it printed (a run-twice
/// problem's second input).
pub fn check_file(
    checker: &Program,
    spec: &CheckerSpec,
    case: &TestCase,
    input: &Path,
    output_file: &Path,
    feedback: &Path,
) -> std::io::Result<(Judgement, Vec<u8>)> {
    let args = arguments(spec, case, input, output_file, feedback);
    let stdin = match spec.protocol {
        Protocol::Testlib => Path::new("/dev/null"),
        Protocol::Kattis => output_file,
    };
    let mut run = checker.run(stdin, spec.limits, &args)?;
    let silent = spec.appes && !feedback.join(APPES_REPORT).exists();
    if silent && run.termination != Termination::Exited(0) {
        // testlib writes its report whatever the outcome: a checker that wrote none and did
        // not accept is not testlib's, and gets the three files alone, Polygon's documented
        // call (`checker input output answer`), which may be the only one it takes.
        run = checker.run(stdin, spec.limits, &args[..3])?;
    }
    Ok((judgement(spec, &run, feedback), run.stdout))
}

/// What the `<result outcome [points]>message</result>` a testlib checker wrote with
/// `-appes` says; `None` (the exit code decides) where it wrote none, or an outcome it does
/// not define, or a failure (exit 3 in every build of testlib).
fn appes_judgement(report: &Path) -> Option<Judgement> {
    let bytes = std::fs::read(report).ok()?;
    let text = String::from_utf8_lossy(&bytes);
    let document = roxmltree::Document::parse(&text).ok()?;
    let result = document.root_element();
    let message = result.text().unwrap_or_default().trim().to_owned();
    let or = |default: &str| match message.is_empty() {
        true => default.to_owned(),
        false => message.clone(),
    };
    let number = |name: &str| points(result.attribute(name)?);
    Some(match result.attribute("outcome")? {
        "accepted" => Judgement::Accepted(None),
        "wrong-answer" => Judgement::Wrong(or("wrong answer")),
        "presentation-error" | "unexpected-eof" => {
            Judgement::Wrong(format!("{PRESENTATION_ERROR}: {}", or("bad format")))
        }
        "points" => Judgement::Accepted(Some(ValidatorScore::Score(number("points")?))),
        "partially-correct" => Judgement::Accepted(Some(ValidatorScore::Score(number("pctype")?))),
        _ => return None,
    })
}

/// The checker's command-line arguments: testlib's `input output answer`, or Kattis'
/// `input answer feedback_dir/` then the problem's flags and the case's (its test group's
/// `output_validator_args`). An interactor gets the same, `output` being where it may write.
pub fn arguments(
    spec: &CheckerSpec,
    case: &TestCase,
    input: &Path,
    output_file: &Path,
    feedback: &Path,
) -> Vec<String> {
    let path = |p: &Path| {
        std::path::absolute(p)
            .unwrap_or_else(|_| p.to_path_buf())
            .display()
            .to_string()
    };
    let answer = case.expected.as_path();
    match spec.protocol {
        Protocol::Testlib => {
            let mut args = vec![path(input), path(output_file), path(answer)];
            if spec.appes {
                args.extend([path(&feedback.join(APPES_REPORT)), "-appes".to_owned()]);
            }
            args
        }
        Protocol::Kattis => {
            let mut args = vec![path(input), path(answer), format!("{}/", path(feedback))];
            args.extend(spec.flags.iter().chain(&case.validator_args).cloned());
            args
        }
    }
}

/// What a checker's run says, by its protocol; over its limits, or an exit its protocol
/// does not know, is the checker's fault.
pub fn judgement(spec: &CheckerSpec, run: &RunOutput, feedback: &Path) -> Judgement {
    if let Some(verdict) = classify_run(run, &spec.limits)
        .filter(|v| !matches!(v, crate::judging::verdict::Verdict::RuntimeError(_)))
    {
        return Judgement::Fault(format!("checker {verdict}"));
    }
    let stderr = first_line(&run.stderr);
    // For a checker that failed (not on an accepted answer's path): its message, or a
    // traceback's last line, which says what went wrong.
    let stderr_note = || match stderr.starts_with("Traceback (most recent call last)") {
        true => with_colon(&last_line(&run.stderr)),
        false => with_colon(&stderr),
    };
    if spec.appes {
        // Read once and gone: the next program that shares the feedback folder (the checker
        // after an interactor, the next pass) must not find this one's result as its own.
        let report = feedback.join(APPES_REPORT);
        let appes = appes_judgement(&report);
        let _ = std::fs::remove_file(&report);
        if let Some(judgement) = appes {
            return judgement;
        }
    }
    match (spec.protocol, run.termination) {
        (Protocol::Testlib, Termination::Exited(0)) => Judgement::Accepted(None),
        (Protocol::Testlib, Termination::Exited(1)) => {
            Judgement::Wrong(with_default(stderr, "wrong answer"))
        }
        // testlib's `_pe`, `_dirt` (extra output after an accepted answer, which testlib
        // itself reports as a presentation error) and `_unexpected_eof` where testlib is built
        // to tell it apart (`ENABLE_UNEXPECTED_EOF`): all wrong answers here.
        (Protocol::Testlib, Termination::Exited(2 | 4 | 8)) => Judgement::Wrong(format!(
            "{PRESENTATION_ERROR}: {}",
            with_default(stderr, "bad format")
        )),
        (Protocol::Testlib, Termination::Exited(3)) => {
            Judgement::Fault(format!("checker failed (exit 3){}", stderr_note()))
        }
        // `_points`: accepted, its points kept as the case's score.
        (Protocol::Testlib, Termination::Exited(7)) => {
            Judgement::Accepted(testlib_points(&stderr).map(ValidatorScore::Score))
        }
        (Protocol::Kattis, Termination::Exited(42)) if spec.reads_scores => {
            match validator_score(feedback) {
                Ok(score) => Judgement::Accepted(score),
                Err(fault) => Judgement::Fault(fault.to_string()),
            }
        }
        (Protocol::Kattis, Termination::Exited(42)) => Judgement::Accepted(None),
        (Protocol::Kattis, Termination::Exited(43))
            if spec.reads_scores
                && let Some(file) = [SCORE_FILE, MULTIPLIER_FILE]
                    .into_iter()
                    .find(|file| feedback.join(file).exists()) =>
        {
            // A score is for an accepted output: the format makes this a judge error. Named
            // by its folder and file (`output_validators/validator.cpp`).
            let parts: Vec<_> = spec.source.iter().rev().take(2).collect();
            let validator: PathBuf = parts.into_iter().rev().collect();
            Judgement::Fault(format!(
                "{} rejected the output (exit 43) but wrote {file}: a score is for an \
                 accepted output, so the format makes this a judge error",
                validator.display()
            ))
        }
        (Protocol::Kattis, Termination::Exited(43)) => {
            let message = std::fs::read(feedback.join("judgemessage.txt"))
                .map(|m| first_line(&m))
                .unwrap_or_default();
            Judgement::Wrong(with_default(message, "wrong answer"))
        }
        (_, termination) => Judgement::Fault(format!(
            "checker ended with {termination}, which its protocol does not allow{}",
            stderr_note()
        )),
    }
}

/// A program's message as a verdict shows it: its first line that says something.
pub(crate) fn first_line(text: &[u8]) -> String {
    let text = String::from_utf8_lossy(text);
    (text.lines().map(str::trim))
        .find(|line| !line.is_empty())
        .unwrap_or_default()
        .to_owned()
}

/// Its last line that says something: where a traceback says what went wrong.
pub(crate) fn last_line(text: &[u8]) -> String {
    let text = String::from_utf8_lossy(text);
    (text.lines().map(str::trim))
        .rfind(|line| !line.is_empty())
        .unwrap_or_default()
        .to_owned()
}

/// A compiler's first error (after the `In file included from` lines that lead to it, or
/// the warnings before it): gcc's and javac's `error:` line, rustc's `error[E...]`; else its
/// first line.
pub(crate) fn first_error(message: &str) -> String {
    let lines = || message.lines().map(str::trim);
    let error = |line: &&str| line.contains("error:") || line.starts_with("error[");
    if let Some(error) = lines().find(error) {
        return error.to_owned();
    }
    // Python's: where (`File "v.py", line 2`), then what, on its last line (`SyntaxError: ...`).
    let what = lines().rfind(|line| {
        line.split_once(':').is_some_and(|(name, _)| {
            !name.contains(' ') && (name.ends_with("Error") || name.ends_with("Exception"))
        })
    });
    match (lines().find(|line| line.starts_with("File \"")), what) {
        (Some(at), Some(what)) => format!("{at}: {what}"),
        (None, Some(what)) => what.to_owned(),
        _ => first_line(message.as_bytes()),
    }
}

/// `: said`, or nothing when nothing was said: a message's tail.
pub(crate) fn with_colon(said: &str) -> String {
    match said {
        "" => String::new(),
        said => format!(": {said}"),
    }
}

/// The points a testlib checker's `quitp` gave: the number after `points` in its message.
fn testlib_points(message: &str) -> Option<f64> {
    let rest = message.strip_prefix("points").unwrap_or(message);
    points(rest.split_whitespace().next()?)
}

/// A number of points as a checker writes it: finite, not below 0.
fn points(text: &str) -> Option<f64> {
    (text.trim().parse::<f64>().ok()).filter(|points| points.is_finite() && *points >= 0.0)
}

const SCORE_FILE: &str = "score.txt";
const MULTIPLIER_FILE: &str = "score_multiplier.txt";

/// The score an accepting validator wrote (`score.txt`, or 2025-09's
/// `score_multiplier.txt`); both, or one that is no number, is the validator's fault.
fn validator_score(feedback: &Path) -> Result<Option<ValidatorScore>, ScoreFileFault> {
    let read = |name: &'static str| -> Result<Option<f64>, ScoreFileFault> {
        match std::fs::read_to_string(feedback.join(name)) {
            Ok(text) => text
                .trim()
                .parse::<f64>()
                .ok()
                .filter(|value| value.is_finite() && *value >= 0.0)
                .map(Some)
                .ok_or_else(|| ScoreFileFault::NotANumber {
                    file: name,
                    text: text.trim().to_owned(),
                }),
            Err(_) => Ok(None),
        }
    };
    match (read(SCORE_FILE)?, read(MULTIPLIER_FILE)?) {
        (Some(_), Some(_)) => Err(ScoreFileFault::Both),
        (Some(score), None) => Ok(Some(ValidatorScore::Score(score))),
        (None, Some(multiplier)) => Ok(Some(ValidatorScore::Multiplier(multiplier))),
        (None, None) => Ok(None),
    }
}

/// A validator's score file that breaks the format's rules: the validator's fault.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
enum ScoreFileFault {
    #[error("the validator's {file} holds `{text}`, not a non-negative number")]
    NotANumber { file: &'static str, text: String },
    #[error("the validator wrote both {SCORE_FILE} and {MULTIPLIER_FILE}")]
    Both,
}

fn with_default(message: String, default: &str) -> String {
    if message.is_empty() {
        default.to_owned()
    } else {
        message
    }
}

pub fn build_checker(
    compiler: &crate::toolchain::compiler::Compiler,
    problem: &crate::problem::Problem,
) -> crate::error::Result<Option<Program>> {
    match &problem.checker {
        // Named before it is written: an imported interactive problem's interactor.
        Some(spec) if spec.source.symlink_metadata().is_err() => {
            let role = match spec.mode.interactive {
                true => "interactor",
                false => "checker",
            };
            Err(crate::error::Error::corpus(
                &spec.source,
                crate::error::CorpusFault::NotWritten { role },
            ))
        }
        Some(spec) => build_own_program(compiler, problem, &spec.source).map(Some),
        None => Ok(None),
    }
}

/// One of the problem's own programs (its checker, a package's grader), built; a compile
/// error is the problem's fault, naming the file.
pub fn build_own_program(
    compiler: &crate::toolchain::compiler::Compiler,
    problem: &crate::problem::Problem,
    source: &Path,
) -> crate::error::Result<Program> {
    match compiler.build_from(source, problem.own_program_sources(source)?)? {
        crate::toolchain::compiler::Build::Ready(program) => Ok(program),
        crate::toolchain::compiler::Build::CompileError(message) => {
            Err(crate::error::Error::DoesNotCompile {
                path: source.to_path_buf(),
                message,
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_appes_report_is_read_as_testlib_writes_it() {
        let dir = tempfile::tempdir().unwrap();
        let report = dir.path().join("appes.xml");
        let read = |xml: &str| {
            std::fs::write(&report, xml).unwrap();
            appes_judgement(&report)
        };
        let head = "<?xml version=\"1.0\" encoding=\"windows-1251\"?>";
        assert_eq!(
            read(&format!(
                "{head}<result outcome = \"points\" points = \"2.5\">2.5 of 10</result>\n"
            )),
            Some(Judgement::Accepted(Some(ValidatorScore::Score(2.5))))
        );
        // Exit code 3 in the default build, which the exit code alone reads as a failure.
        assert_eq!(
            read(&format!(
                "{head}<result outcome = \"partially-correct\" pctype = \"3\">close</result>"
            )),
            Some(Judgement::Accepted(Some(ValidatorScore::Score(3.0))))
        );
        assert_eq!(
            read(&format!("{head}<result outcome = \"wrong-answer\">1st numbers differ - expected: &apos;6&apos;</result>")),
            Some(Judgement::Wrong("1st numbers differ - expected: '6'".into()))
        );
        assert_eq!(
            read(&format!(
                "{head}<result outcome = \"presentation-error\"></result>"
            )),
            Some(Judgement::Wrong("presentation error: bad format".into()))
        );
        // A failure is exit 3 in every build: the exit code says it, with its code.
        assert_eq!(
            read(&format!("{head}<result outcome = \"fail\">no</result>")),
            None
        );
        // Points no checker can give: the exit code decides.
        assert_eq!(
            read(&format!(
                "{head}<result outcome = \"points\" points = \"-1\">x</result>"
            )),
            None
        );
        assert_eq!(read("not xml"), None);
        assert_eq!(
            read(&format!("{head}<result outcome = \"reserved\"/>")),
            None
        );
    }

    #[test]
    fn testlib_points_are_the_number_its_message_starts_with() {
        assert_eq!(testlib_points("points 7.5 most of it"), Some(7.5));
        assert_eq!(testlib_points("12"), Some(12.0));
        assert_eq!(testlib_points("points well done"), None);
        assert_eq!(testlib_points(""), None);
    }

    #[test]
    fn a_validator_score_is_one_non_negative_number_in_one_file() {
        let dir = tempfile::tempdir().unwrap();
        let feedback = dir.path();
        assert_eq!(validator_score(feedback), Ok(None));
        std::fs::write(feedback.join(SCORE_FILE), "12.5\n").unwrap();
        assert_eq!(
            validator_score(feedback),
            Ok(Some(ValidatorScore::Score(12.5)))
        );
        std::fs::write(feedback.join(MULTIPLIER_FILE), "0.5").unwrap();
        assert!(validator_score(feedback)
            .unwrap_err()
            .to_string()
            .contains("both"));
        std::fs::remove_file(feedback.join(SCORE_FILE)).unwrap();
        assert_eq!(
            validator_score(feedback),
            Ok(Some(ValidatorScore::Multiplier(0.5)))
        );
        std::fs::write(feedback.join(MULTIPLIER_FILE), "-1").unwrap();
        assert!(validator_score(feedback)
            .unwrap_err()
            .to_string()
            .contains("score_multiplier.txt holds `-1`"));
    }
}
