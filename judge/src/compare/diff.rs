//! A line diff around the first difference, whitespace made visible. Only a small window of
//! lines is diffed, so that a wrong answer in a huge output costs no more than in a small one.

use similar::{Algorithm, DiffTag};

/// Lines of context kept before the first difference, and lines of each side diffed.
const CONTEXT_LINES: usize = 3;
const WINDOW_LINES: usize = 12;
/// Characters shown of one line.
const LINE_CHARS: usize = 120;

/// Reports write it in lowercase: `both`, `expected`, `actual`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    Both,
    Expected,
    Actual,
}

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct DiffLine {
    pub side: Side,
    /// 1-based line number in its own output (the expected one for `Both`); `line` in the
    /// JSON report.
    #[serde(rename = "line")]
    pub number: usize,
    pub text: String,
}

/// The diff of the lines of `expected` and `actual` around `line` (1-based).
pub fn window(expected: &[u8], actual: &[u8], line: usize) -> Vec<DiffLine> {
    let first = line.saturating_sub(1 + CONTEXT_LINES);
    let expected_lines = lines_from(expected, first);
    let actual_lines = lines_from(actual, first);
    let mut rendered = Vec::new();
    // One answer per line on both sides (the usual multi-case output): line k answers case k,
    // so lines are paired by position. A diff would pair equal answers of different cases.
    if line_count(expected) == line_count(actual) {
        for (index, (&old, &new)) in expected_lines.iter().zip(&actual_lines).enumerate() {
            if old == new {
                rendered.push(line_of(Side::Both, first + index, old));
            } else {
                rendered.push(line_of(Side::Expected, first + index, old));
                rendered.push(line_of(Side::Actual, first + index, new));
            }
        }
        return rendered;
    }
    for op in similar::capture_diff_slices(Algorithm::Myers, &expected_lines, &actual_lines) {
        let (tag, old, new) = op.as_tag_tuple();
        if tag == DiffTag::Equal {
            for index in old {
                rendered.push(line_of(Side::Both, first + index, expected_lines[index]));
            }
            continue;
        }
        for index in old {
            rendered.push(line_of(
                Side::Expected,
                first + index,
                expected_lines[index],
            ));
        }
        for index in new {
            rendered.push(line_of(Side::Actual, first + index, actual_lines[index]));
        }
    }
    rendered
}

/// The first line (1-based) that `window` shows for a difference at `line`.
pub fn first_line_shown(line: usize) -> usize {
    line.saturating_sub(1 + CONTEXT_LINES) + 1
}

/// The part of `text` that `window` can show from its line `first` (1-based) on: enough to
/// keep for a diff, however long `text` is.
pub fn lines_shown(text: &[u8], first: usize) -> &[u8] {
    let mut breaks = text
        .iter()
        .enumerate()
        .filter(|(_, &byte)| byte == b'\n')
        .map(|(at, _)| at + 1);
    let start = match first {
        0 | 1 => 0,
        first => breaks.nth(first - 2).unwrap_or(text.len()),
    };
    let end = breaks.nth(WINDOW_LINES - 1).unwrap_or(text.len());
    &text[start..end]
}

/// Lines in `text`, a final newline ending the last one rather than starting another.
fn line_count(text: &[u8]) -> usize {
    let newlines = text.iter().filter(|&&b| b == b'\n').count();
    newlines + usize::from(!text.is_empty() && !text.ends_with(b"\n"))
}

fn lines_from(text: &[u8], first: usize) -> Vec<&[u8]> {
    let mut lines: Vec<&[u8]> = text
        .split(|&b| b == b'\n')
        .skip(first)
        .take(WINDOW_LINES)
        .collect();
    // A final newline ends the last line; it does not start another one.
    if lines.last() == Some(&&b""[..]) && text.ends_with(b"\n") {
        lines.pop();
    }
    lines
}

fn line_of(side: Side, index: usize, text: &[u8]) -> DiffLine {
    DiffLine {
        side,
        number: index + 1,
        text: visible(text),
    }
}

/// The line with whitespace shown: `·` for a space, `→` for a tab, `␍` for a carriage
/// return; bytes that are not UTF-8 are shown as `�`.
pub fn visible(text: &[u8]) -> String {
    let text = String::from_utf8_lossy(text);
    let mut shown = String::with_capacity(text.len());
    for (count, c) in text.chars().enumerate() {
        if count == LINE_CHARS {
            shown.push('…');
            break;
        }
        shown.push(match c {
            ' ' => '·',
            '\t' => '→',
            '\r' => '␍',
            c if c.is_control() => '�',
            c => c,
        });
    }
    shown
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rendered(lines: &[DiffLine]) -> Vec<String> {
        lines
            .iter()
            .map(|line| {
                let sign = match line.side {
                    Side::Both => ' ',
                    Side::Expected => '-',
                    Side::Actual => '+',
                };
                format!("{sign}{} {}", line.number, line.text)
            })
            .collect()
    }

    #[test]
    fn shows_context_and_the_changed_line() {
        let expected = b"1\n2\n3\n4\n5\n6\n";
        let actual = b"1\n2\n3\n4\nfive\n6\n";
        assert_eq!(
            rendered(&window(expected, actual, 5)),
            [" 2 2", " 3 3", " 4 4", "-5 5", "+5 five", " 6 6"]
        );
    }

    #[test]
    fn equal_line_counts_are_paired_by_position() {
        // One answer per case: a diff would pair case 2's `invalid` with case 3's.
        let expected = b"valid\ninvalid\nvalid\ninvalid\n";
        let actual = b"valid\nvalid\ninvalid\ninvalid\n";
        assert_eq!(
            rendered(&window(expected, actual, 2)),
            [
                " 1 valid",
                "-2 invalid",
                "+2 valid",
                "-3 valid",
                "+3 invalid",
                " 4 invalid"
            ]
        );
    }

    #[test]
    fn whitespace_is_visible() {
        let lines = window(b"a b\n", b"a  b\t\r\n", 1);
        assert_eq!(rendered(&lines), ["-1 a·b", "+1 a··b→␍"]);
    }

    #[test]
    fn window_is_bounded_for_huge_outputs() {
        let expected: Vec<u8> = (0..100_000)
            .flat_map(|i| format!("{i}\n").into_bytes())
            .collect();
        let actual: Vec<u8> = (0..50_000)
            .flat_map(|i| format!("{i}\n").into_bytes())
            .collect();
        let lines = window(&expected, &actual, 50_001);
        assert!(lines.len() <= 2 * WINDOW_LINES, "{}", lines.len());
        assert!(lines.iter().any(|line| line.side == Side::Expected));
    }

    #[test]
    fn the_lines_shown_are_all_a_window_needs() {
        let text: Vec<u8> = (1..=100)
            .flat_map(|i| format!("{i}\n").into_bytes())
            .collect();
        let first = first_line_shown(50);
        assert_eq!(first, 47);
        let shown = lines_shown(&text, first);
        let expected: Vec<u8> = (47..47 + WINDOW_LINES)
            .flat_map(|i| format!("{i}\n").into_bytes())
            .collect();
        assert_eq!(shown, expected);
        assert_eq!(
            lines_shown(&text, 1),
            b"1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n"
        );
        assert_eq!(lines_shown(b"a\nb", 2), b"b");
        assert_eq!(lines_shown(b"a\n", 5), b"");
    }

    #[test]
    fn missing_output_shows_expected_lines_only() {
        let lines = window(b"1\n2\n", b"1\n", 2);
        assert_eq!(rendered(&lines), [" 1 1", "-2 2"]);
    }
}
