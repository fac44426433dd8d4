//! The sub-case of a multi-case input that a wrong answer belongs to, so that the report can
//! show its own input lines beside the expected and actual answer.
//!
//! Two layouts are known: the recipe's `[stress] layout` (one answer line per case), and the
//! `T` + `#k` convention (a count on the first line, answers labelled `#k` or `Case #k:`),
//! where each case has the same number of input lines.

use std::path::Path;

use crate::judging::WrongAt;
use crate::problem::recipe::{Layout, Recipe};

/// Inputs larger than this are not read again for the report.
const INPUT_BYTES: u64 = 16 << 20;
/// Lines of a sub-case shown.
const SHOWN_LINES: usize = 20;

/// One case of a multi-case input.
#[derive(Debug, PartialEq, Eq)]
pub struct SubCase {
    /// 1-based, in the input's order.
    pub number: usize,
    /// 1-based line in the input file of its first line.
    pub first_line: usize,
    pub lines: Vec<String>,
}

/// The sub-case of `input` that `mismatch` is in, where the layout says how to find it.
pub fn locate(problem_dir: &Path, input: &Path, mismatch: &WrongAt) -> Option<SubCase> {
    let layout = Recipe::load(problem_dir)
        .ok()
        .flatten()
        .and_then(|recipe| recipe.stress)
        .map(|stress| (stress.layout, stress.terminator, stress.lines_per_case));
    let labelled = mismatch.case_label.as_deref().and_then(label_number);
    let number = match (&layout, labelled) {
        (_, Some(number)) => number,
        (Some((layout, _, _)), None) if *layout != Layout::Single => mismatch.line,
        _ => return None,
    };
    if std::fs::metadata(input).ok()?.len() > INPUT_BYTES {
        return None;
    }
    let text = std::fs::read_to_string(input).ok()?;
    match layout {
        Some((Layout::Single, ..)) => None,
        Some((Layout::Lines | Layout::Terminated, terminator, _)) => {
            one_per_line(&text, terminator.as_deref(), number)
        }
        Some((Layout::Counted, _, per_case)) => counted(&text, per_case, number),
        None => counted(&text, None, number),
    }
}

/// `#5` or `Case #5:` → 5.
fn label_number(label: &str) -> Option<usize> {
    let digits: String = label
        .chars()
        .skip_while(|c| !c.is_ascii_digit())
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

/// The input's non-blank lines with their 1-based line numbers.
fn content_lines(text: &str) -> Vec<(usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(index, line)| (index + 1, line.trim_end()))
        .filter(|(_, line)| !line.is_empty())
        .collect()
}

fn one_per_line(text: &str, terminator: Option<&str>, number: usize) -> Option<SubCase> {
    let lines = content_lines(text);
    let (line, content) = lines
        .into_iter()
        .take_while(|(_, line)| Some(line.trim()) != terminator)
        .nth(number.checked_sub(1)?)?;
    Some(SubCase {
        number,
        first_line: line,
        lines: vec![content.to_owned()],
    })
}

/// A count line, then blocks of `per_case` lines (when not given: the rest divided evenly by
/// the count).
fn counted(text: &str, per_case: Option<usize>, number: usize) -> Option<SubCase> {
    let lines = content_lines(text);
    let (_, count) = lines.first()?;
    let count: usize = count.trim().parse().ok()?;
    let rest = &lines[1..];
    let per_case = match per_case {
        Some(per_case) => per_case,
        None if count > 0 && rest.len().is_multiple_of(count) => rest.len() / count,
        None => return None,
    };
    let block = rest.chunks(per_case.max(1)).nth(number.checked_sub(1)?)?;
    Some(SubCase {
        number,
        first_line: block.first()?.0,
        lines: block
            .iter()
            .take(SHOWN_LINES)
            .map(|(_, line)| line.to_string())
            .collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_give_their_number() {
        assert_eq!(label_number("#5"), Some(5));
        assert_eq!(label_number("Case #12:"), Some(12));
        assert_eq!(label_number("x"), None);
    }

    #[test]
    fn a_counted_input_is_cut_into_equal_blocks() {
        let input = "3\nA1\nA2\n\nB1\nB2\n\nC1\nC2\n";
        let case = counted(input, None, 2).unwrap();
        assert_eq!(case.lines, ["B1", "B2"]);
        assert_eq!(case.first_line, 5);
        assert_eq!(counted(input, Some(2), 3).unwrap().lines, ["C1", "C2"]);
        assert_eq!(counted(input, None, 4), None);
        assert_eq!(counted("2\na\nb\nc\n", None, 1), None, "uneven blocks");
    }

    #[test]
    fn one_case_per_line_stops_at_the_terminator() {
        let input = "x..\n\nooo\nend\nzzz\n";
        let case = one_per_line(input, Some("end"), 2).unwrap();
        assert_eq!((case.first_line, case.lines), (3, vec!["ooo".to_owned()]));
        assert_eq!(one_per_line(input, Some("end"), 3), None);
    }
}
