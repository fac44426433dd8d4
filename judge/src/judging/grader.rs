//! A legacy package's custom grader (`graders/`, `grading: custom`), run as problemtools runs
//! it: stdin one line per item of the group (`AC 10`: verdict and score), arguments the
//! group's `grader_flags`; it exits 0 and prints the group's verdict and score on one line.
//! Anything else is a judge error.

use crate::judging::verdict::VerdictKind;
use crate::toolchain::{Limits, Program};

/// The grader's verdict codes, as problemtools writes and reads them.
const CODES: [(VerdictKind, &str); 8] = [
    (VerdictKind::Accepted, "AC"),
    (VerdictKind::WrongAnswer, "WA"),
    (VerdictKind::TimeLimitExceeded, "TLE"),
    (VerdictKind::RuntimeError, "RTE"),
    (VerdictKind::MemoryLimitExceeded, "MLE"),
    (VerdictKind::OutputLimitExceeded, "OLE"),
    (VerdictKind::JudgeError, "JE"),
    // A case never has it; a group's item then is rejected as a run-time error would be.
    (VerdictKind::CompileError, "RTE"),
];

fn code_of(kind: VerdictKind) -> &'static str {
    CODES
        .iter()
        .find(|(k, _)| *k == kind)
        .map_or("JE", |(_, code)| code)
}

/// The group's verdict and score as `grader` gives them for `items`, or why it failed.
pub fn grade(
    grader: &Program,
    limits: Limits,
    items: &[(VerdictKind, f64)],
    flags: &[String],
) -> Result<(VerdictKind, f64), String> {
    let input: String = items
        .iter()
        .map(|(kind, score)| format!("{} {score}\n", code_of(*kind)))
        .collect();
    let scratch = tempfile::tempdir().map_err(|error| error.to_string())?;
    let file = scratch.path().join("grader_in");
    std::fs::write(&file, &input).map_err(|error| error.to_string())?;
    let run = grader
        .run(&file, limits, flags)
        .map_err(|error| format!("could not run: {error}"))?;
    if run.termination != crate::sandbox::Termination::Exited(0) {
        let stderr = String::from_utf8_lossy(&run.stderr);
        return Err(format!(
            "{}, expected exit 0: {}",
            run.termination,
            stderr.trim()
        ));
    }
    parse(&String::from_utf8_lossy(&run.stdout))
}

/// `AC 10`: a verdict code and a number, alone on the output.
fn parse(output: &str) -> Result<(VerdictKind, f64), String> {
    let words: Vec<&str> = output.split_whitespace().collect();
    let invalid = || format!("printed {output:?}, not a verdict and a score (`AC 10`)");
    let [code, score] = words[..] else {
        return Err(invalid());
    };
    let kind = (CODES.iter().take(7))
        .find(|(_, c)| *c == code)
        .map(|(kind, _)| *kind)
        .ok_or_else(invalid)?;
    let numeric = score
        .trim_start_matches('-')
        .chars()
        .all(|c| c.is_ascii_digit() || c == '.');
    match score.parse::<f64>() {
        // As problemtools' pattern: from the first character, and digits without exponent.
        Ok(score) if numeric && !output.starts_with(char::is_whitespace) => Ok((kind, score)),
        _ => Err(invalid()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_grader_answers_one_verdict_and_one_number() {
        assert_eq!(parse("AC 10\n"), Ok((VerdictKind::Accepted, 10.0)));
        assert_eq!(parse("RTE -2.5"), Ok((VerdictKind::RuntimeError, -2.5)));
        for bad in ["", "AC", "AC ten", "OK 1", "AC 1 2", "AC 1e3", " AC 1"] {
            assert!(parse(bad).is_err(), "{bad:?}");
        }
    }
}
