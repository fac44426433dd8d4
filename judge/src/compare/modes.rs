//! The comparison modes, each a single pass over both outputs: exact bytes, lines, tokens,
//! floats within a tolerance, and the Kattis default validator's flags.

use std::io::Read;

use super::{CompareMode, KattisFlags, Mismatch, Reason};

pub fn compare(mode: CompareMode, expected: &[u8], actual: &[u8]) -> Result<(), Mismatch> {
    if expected == actual {
        return Ok(());
    }
    if is_blank(actual) && !is_blank(expected) {
        return Err(mismatch(expected, 1, Reason::EmptyOutput));
    }
    compare_rest(mode, expected, actual)
}

/// The comparison proper; also used on the rests of two outputs whose beginnings are
/// identical (where "empty output" cannot apply).
pub(super) fn compare_rest(
    mode: CompareMode,
    expected: &[u8],
    actual: &[u8],
) -> Result<(), Mismatch> {
    match mode {
        CompareMode::Exact => compare_exact(expected, actual),
        CompareMode::Lines => compare_lines(expected, actual),
        CompareMode::Baekjoon => compare_baekjoon(expected, actual),
        CompareMode::Tokens => compare_tokens(expected, actual, None, true),
        CompareMode::Float { abs, rel } => {
            let tolerance = Tolerance {
                abs,
                rel,
                relative_to: RelativeTo::Larger,
            };
            compare_tokens(expected, actual, Some(tolerance), true)
        }
        CompareMode::Kattis(flags) if flags.space_change_sensitive => {
            compare_spacing(expected, actual, flags)
        }
        CompareMode::Kattis(flags) => compare_tokens(
            expected,
            actual,
            kattis_tolerance(flags),
            flags.case_sensitive,
        ),
    }
}

pub(super) fn compare_exact(expected: &[u8], actual: &[u8]) -> Result<(), Mismatch> {
    if expected == actual {
        return Ok(());
    }
    compare_lines(expected, actual)?;
    let first_difference = expected
        .iter()
        .zip(actual)
        .position(|(e, a)| e != a)
        .unwrap_or(expected.len().min(actual.len()));
    let line = line_of(expected, first_difference.min(expected.len()));
    Err(mismatch(expected, line, Reason::LineEndingsOrTrailingSpace))
}

pub(super) fn compare_lines(expected: &[u8], actual: &[u8]) -> Result<(), Mismatch> {
    let mut expected_lines = trimmed_lines(expected);
    let mut actual_lines = trimmed_lines(actual);
    let counted = |line, reason: fn(usize, usize) -> Reason| {
        let reason = reason(count_lines(expected), count_lines(actual));
        Err(mismatch(expected, line, reason))
    };
    let missing = |line| {
        counted(line, |expected, actual| Reason::MissingLines {
            expected,
            actual,
        })
    };
    let extra = |line| {
        counted(line, |expected, actual| Reason::ExtraLines {
            expected,
            actual,
        })
    };
    let mut line = 0;
    loop {
        line += 1;
        match (expected_lines.next(), actual_lines.next()) {
            (None, None) => return Ok(()),
            (Some(e), Some(a)) if e == a => {}
            // One side has only blank lines left: it has ended, the other has more.
            (Some(_), Some(a)) if a.is_empty() && actual_lines.clone().all(<[u8]>::is_empty) => {
                return missing(line)
            }
            (Some(e), Some(_)) if e.is_empty() && expected_lines.clone().all(<[u8]>::is_empty) => {
                return extra(line)
            }
            (Some(e), Some(a)) => return Err(mismatch(expected, line, line_reason(e, a))),
            (Some(e), None) if e.is_empty() && expected_lines.all(<[u8]>::is_empty) => {
                return Ok(())
            }
            (None, Some(a)) if a.is_empty() && actual_lines.all(<[u8]>::is_empty) => return Ok(()),
            (Some(_), None) => return missing(line),
            (None, Some(_)) => return extra(line),
        }
    }
}

pub(super) fn line_reason(expected: &[u8], actual: &[u8]) -> Reason {
    if tokens(expected).eq(tokens(actual)) {
        Reason::WhitespaceOnly
    } else if expected.eq_ignore_ascii_case(actual) {
        Reason::LetterCaseOnly
    } else {
        Reason::DifferentLine {
            expected: shown(expected),
            actual: shown(actual),
        }
    }
}

#[derive(Debug, Clone, Copy)]
pub(super) struct Tolerance {
    abs: f64,
    rel: f64,
    relative_to: RelativeTo,
}

/// What the relative tolerance is a fraction of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum RelativeTo {
    /// The larger magnitude of the two (our `float` mode).
    Larger,
    /// The answer's magnitude, as the package format's default validator says: `|s-a| ≤ ε|a|`.
    Answer,
}

pub(super) fn kattis_tolerance(flags: KattisFlags) -> Option<Tolerance> {
    flags.tolerance.map(|(abs, rel)| Tolerance {
        abs,
        rel,
        relative_to: RelativeTo::Answer,
    })
}

/// Token comparison; with a tolerance, numeric tokens match within it.
pub(super) fn compare_tokens(
    expected: &[u8],
    actual: &[u8],
    tolerance: Option<Tolerance>,
    case_sensitive: bool,
) -> Result<(), Mismatch> {
    let mut expected_tokens = tokens_with_lines(expected);
    let mut actual_tokens = tokens_with_lines(actual);
    loop {
        let (line, reason) = match (expected_tokens.next(), actual_tokens.next()) {
            (None, None) => return Ok(()),
            (Some((line, e)), Some((_, a))) => {
                match token_reason(e, a, tolerance, case_sensitive) {
                    None => continue,
                    Some(reason) => (line, reason),
                }
            }
            (Some((line, e)), None) => (line, Reason::OutputEndsEarly { expected: shown(e) }),
            (None, Some((_, a))) => (
                count_lines(expected).max(1),
                Reason::ExtraToken { actual: shown(a) },
            ),
        };
        return Err(mismatch(expected, line, reason));
    }
}

/// Kattis' `space_change_sensitive`: tokens as usual, and every run of whitespace between
/// them exactly as expected.
pub(super) fn compare_spacing(
    expected: &[u8],
    actual: &[u8],
    flags: KattisFlags,
) -> Result<(), Mismatch> {
    compare_tokens(
        expected,
        actual,
        kattis_tolerance(flags),
        flags.case_sensitive,
    )?;
    let differing = whitespace_runs(expected)
        .into_iter()
        .zip(whitespace_runs(actual))
        .find(|((_, e), (_, a))| e != a);
    match differing {
        None => Ok(()),
        Some(((line, _), _)) => Err(mismatch(expected, line, Reason::WhitespaceOnly)),
    }
}

/// Baekjoon's rule (see `CompareMode::Baekjoon`); blank lines at the very end, and CRLF for
/// LF, are ignored too.
pub(super) fn compare_baekjoon(expected: &[u8], actual: &[u8]) -> Result<(), Mismatch> {
    if let Err(token) = compare_tokens(expected, actual, None, true) {
        // Shown as the line it is on, as a person reads it, where that line holds as many
        // tokens on both sides (else its spacing, not its token, may be what differs there).
        return Err(match compare_lines(expected, actual) {
            Err(line) if line.line == token.line && same_shape(&line.reason) => line,
            _ => token,
        });
    }
    let (expected_runs, actual_runs) = (whitespace_runs(expected), whitespace_runs(actual));
    let last = expected_runs.len() - 1;
    let differs = |at: usize, e: &[u8], a: &[u8]| match at == last {
        // After the last token, spaces and blank lines at the very end are free.
        true => without_final_spaces(e) != without_final_spaces(a),
        false => !baekjoon_spacing(e).eq(baekjoon_spacing(a)),
    };
    let differing = (expected_runs.iter().zip(&actual_runs).enumerate())
        .find(|(at, ((_, e), (_, a)))| differs(*at, e, a));
    match differing {
        None => Ok(()),
        Some((_, ((line, _), _))) => Err(mismatch(expected, *line, Reason::WhitespaceOnly)),
    }
}

/// Whether a differing line holds as many tokens in both outputs.
fn same_shape(reason: &Reason) -> bool {
    match reason {
        Reason::DifferentLine { expected, actual } => {
            expected.split_whitespace().count() == actual.split_whitespace().count()
        }
        _ => false,
    }
}

/// The run after an output's last token as Baekjoon reads it, its final spaces (and
/// newlines, read as spaces) left out.
fn without_final_spaces(run: &[u8]) -> Vec<u8> {
    let mut spacing: Vec<u8> = baekjoon_spacing(run).collect();
    while spacing.last() == Some(&b' ') {
        spacing.pop();
    }
    spacing
}

/// A run of whitespace as Baekjoon tells runs apart, byte by byte (no allocation: every
/// run of an output is read): a CR before a LF, and one space before each line's end,
/// dropped; a newline read as a space.
fn baekjoon_spacing(run: &[u8]) -> impl Iterator<Item = u8> + '_ {
    let at = |index: usize| run.get(index).copied();
    let line_ends_at = move |index: usize| match at(index) {
        Some(b'\n') => true,
        Some(b'\r') => at(index + 1) == Some(b'\n'),
        _ => false,
    };
    run.iter()
        .enumerate()
        .filter_map(move |(index, &byte)| match byte {
            b'\r' if at(index + 1) == Some(b'\n') => None,
            b' ' if line_ends_at(index + 1) => None,
            b'\n' => Some(b' '),
            other => Some(other),
        })
}

/// The runs of whitespace before, between and after the tokens (empty where there is none),
/// each with the line it starts on.
pub(super) fn whitespace_runs(text: &[u8]) -> Vec<(usize, &[u8])> {
    let mut runs = Vec::new();
    let (mut line, mut run_line, mut run_start) = (1, 1, Some(0));
    for (index, &byte) in text.iter().enumerate() {
        match (is_space(&byte), run_start) {
            (true, None) => (run_start, run_line) = (Some(index), line),
            (false, Some(start)) => {
                runs.push((run_line, &text[start..index]));
                run_start = None;
            }
            _ => {}
        }
        if byte == b'\n' {
            line += 1;
        }
    }
    runs.push(match run_start {
        Some(start) => (run_line, &text[start..]),
        None => (line, &text[text.len()..]),
    });
    runs
}

/// Why two tokens differ, or `None` when they match.
pub(super) fn token_reason(
    expected: &[u8],
    actual: &[u8],
    tolerance: Option<Tolerance>,
    case_sensitive: bool,
) -> Option<Reason> {
    if expected == actual || (!case_sensitive && expected.eq_ignore_ascii_case(actual)) {
        return None;
    }
    if let Some(Tolerance {
        abs,
        rel,
        relative_to,
    }) = tolerance
    {
        if let (Some(e), Some(a)) = (parse_float(expected), parse_float(actual)) {
            let delta = (e - a).abs();
            let magnitude = match relative_to {
                RelativeTo::Larger => e.abs().max(a.abs()),
                RelativeTo::Answer => e.abs(),
            };
            if delta <= abs || delta <= rel * magnitude {
                return None;
            }
            return Some(Reason::FloatOff {
                expected: shown(expected),
                actual: shown(actual),
                delta,
            });
        }
    }
    if expected.eq_ignore_ascii_case(actual) {
        return Some(Reason::LetterCaseOnly);
    }
    Some(Reason::DifferentToken {
        expected: shown(expected),
        actual: shown(actual),
    })
}

pub(super) fn parse_float(token: &[u8]) -> Option<f64> {
    let value: f64 = std::str::from_utf8(token).ok()?.parse().ok()?;
    value.is_finite().then_some(value)
}

pub(super) fn mismatch(expected: &[u8], line: usize, reason: Reason) -> Mismatch {
    Mismatch {
        line,
        case_label: case_label(expected, line),
        reason,
    }
}

/// Lines without their trailing whitespace (which takes a CR of a CRLF with it).
pub(super) fn trimmed_lines(text: &[u8]) -> impl Iterator<Item = &[u8]> + Clone {
    text.split(|&b| b == b'\n').map(<[u8]>::trim_ascii_end)
}

/// Whitespace between tokens: ASCII's, and the vertical tab, which the package format counts
/// and `u8::is_ascii_whitespace` does not.
pub(super) fn is_space(byte: &u8) -> bool {
    byte.is_ascii_whitespace() || *byte == 0x0b
}

pub(super) fn tokens(text: &[u8]) -> impl Iterator<Item = &[u8]> {
    text.split(is_space).filter(|t| !t.is_empty())
}

/// Tokens with the 1-based line each stands on.
pub(super) fn tokens_with_lines(text: &[u8]) -> impl Iterator<Item = (usize, &[u8])> {
    text.split(|&b| b == b'\n')
        .enumerate()
        .flat_map(|(index, line)| tokens(line).map(move |token| (index + 1, token)))
}

pub(super) fn is_blank(text: &[u8]) -> bool {
    text.iter().all(is_space)
}

/// Lines that count: trailing blank lines do not.
pub(super) fn count_lines(text: &[u8]) -> usize {
    let mut counter = LineCounter::default();
    counter.feed(text);
    counter.lines()
}

/// `count_lines` of what a reader holds, read a chunk at a time.
pub(super) fn count_lines_read(mut reader: impl Read) -> std::io::Result<usize> {
    let mut counter = LineCounter::default();
    let mut chunk = vec![0u8; 1 << 16];
    loop {
        match reader.read(&mut chunk) {
            Ok(0) => return Ok(counter.lines()),
            Ok(count) => counter.feed(&chunk[..count]),
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => {}
            Err(error) => return Err(error),
        }
    }
}

/// Counts lines up to the last one that is not blank, over text fed in pieces.
#[derive(Default)]
pub(super) struct LineCounter {
    /// Line breaks seen so far: the 0-based index of the current line.
    pub(super) breaks: usize,
    /// 1-based number of the last line seen with something other than whitespace.
    last_filled: usize,
}

impl LineCounter {
    pub(super) fn at(breaks: usize, last_filled: usize) -> LineCounter {
        LineCounter {
            breaks,
            last_filled,
        }
    }

    pub(super) fn feed(&mut self, text: &[u8]) {
        // Counted whole (vectorised), not byte by byte: outputs of many MiB are fed here.
        let breaks = count_breaks(text);
        if let Some(last) = text.iter().rposition(|byte| !is_space(byte)) {
            self.last_filled = self.breaks + breaks - count_breaks(&text[last..]) + 1;
        }
        self.breaks += breaks;
    }

    pub(super) fn lines(&self) -> usize {
        self.last_filled
    }
}

/// Line breaks in `text`, summed in a `u8` per block of 255 bytes, which the compiler
/// vectorises: every matched chunk of an output is counted as it streams (`bench/`'s `big`).
pub(super) fn count_breaks(text: &[u8]) -> usize {
    text.chunks(255)
        .map(|block| {
            block
                .iter()
                .fold(0u8, |count, &byte| count + u8::from(byte == b'\n')) as usize
        })
        .sum()
}

pub(super) fn line_of(text: &[u8], offset: usize) -> usize {
    text[..offset].iter().filter(|&&b| b == b'\n').count() + 1
}

/// The label of the sub-case that `line` belongs to, for outputs that number their cases
/// (`#3 ...` as SW Expert Academy prints, `Case #3: ...` as Code Jam and Kattis do).
pub(super) fn case_label(expected: &[u8], line: usize) -> Option<String> {
    trimmed_lines(expected)
        .take(line)
        .filter_map(|text| {
            let rest = text.strip_prefix(b"Case ").unwrap_or(text);
            let digits = rest.strip_prefix(b"#")?;
            let count = digits.iter().take_while(|b| b.is_ascii_digit()).count();
            (count > 0).then(|| String::from_utf8_lossy(&rest[..=count]).into_owned())
        })
        .last()
}

/// A bounded, printable rendering of a line or token for a one-line message.
pub(super) fn shown(text: &[u8]) -> String {
    const LIMIT: usize = 60;
    let text = String::from_utf8_lossy(text);
    match text.char_indices().nth(LIMIT) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.into_owned(),
    }
}
