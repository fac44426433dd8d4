//! Output comparison: pure functions over bytes that decide whether an output matches the
//! expected one and, when it does not, say where and why in one line. The modes: exact bytes,
//! lines, tokens, floats within a tolerance, and the Kattis default validator's flags.
//!
//! Every mode is a single pass over both outputs; nothing is converted to UTF-8 or split into
//! lines unless a mismatch has been found. A large expected output is read in windows
//! (`windows`); a mismatch is shown as a diff of the lines around it (`diff`).

pub(crate) mod diff;
mod windows;

use std::fmt;
use std::io::Read;

use serde::Deserialize;

pub use windows::{compare_file, FileMismatch};

/// The start of an output that matched the expected file's start while it arrived and was
/// not kept, with what a wrong answer's report needs of it, so that the report never reads
/// that start again.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MatchedStart {
    pub bytes: usize,
    pub line_breaks: usize,
    /// Where its last `#` is: a sub-case label (`#3`, `Case #3:`) starts with one.
    pub last_hash: Option<usize>,
}

impl MatchedStart {
    /// Grows the start by `chunk`, the bytes that follow it.
    pub fn feed(&mut self, chunk: &[u8]) {
        if let Some(at) = memchr::memrchr(b'#', chunk) {
            self.last_hash = Some(self.bytes + at);
        }
        self.line_breaks += count_breaks(chunk);
        self.bytes += chunk.len();
    }

    pub fn of(text: &[u8]) -> MatchedStart {
        let mut start = MatchedStart::default();
        start.feed(text);
        start
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
pub enum CompareMode {
    /// Byte for byte.
    Exact,
    /// Line by line, ignoring trailing whitespace on each line, trailing blank lines and
    /// CRLF versus LF.
    Lines,
    /// Baekjoon's rule: the tokens exactly, and the whitespace between them as expected but
    /// for a newline written for a space or a space for a newline, and one space at the end
    /// of a line; any other whitespace difference is its presentation error.
    Baekjoon,
    /// Whitespace-separated tokens; the amount and kind of whitespace does not matter.
    Tokens,
    /// Tokens, where two numbers match when within `abs` or within `rel` of the larger one.
    Float { abs: f64, rel: f64 },
    /// The Kattis default output validator: tokens, letter case ignored unless
    /// `case_sensitive`, whitespace ignored unless `space_change_sensitive`, numbers within the
    /// tolerance when one is given.
    Kattis(KattisFlags),
    /// A function's results as its callers print them, one value a line: brackets, commas
    /// and spacing between values do not matter, numbers match as numbers (`5` and `5.0`;
    /// two integers exactly, others within `tolerance` where given), strings and words as
    /// written. Programmers compares the values returned, not their text.
    Values { tolerance: Option<(f64, f64)> },
}

#[derive(Debug, Clone, Copy, PartialEq, Default, Deserialize)]
pub struct KattisFlags {
    pub case_sensitive: bool,
    pub space_change_sensitive: bool,
    /// `(absolute, relative)`; `None` compares numbers as text.
    pub tolerance: Option<(f64, f64)>,
}

impl CompareMode {
    /// As `problem.toml` spells it: `exact`, `lines`, `baekjoon`, `tokens`, `float`; `kattis` for
    /// a package.
    pub fn name(self) -> &'static str {
        match self {
            CompareMode::Exact => "exact",
            CompareMode::Lines => "lines",
            CompareMode::Baekjoon => "baekjoon",
            CompareMode::Tokens => "tokens",
            CompareMode::Float { .. } => "float",
            CompareMode::Kattis(_) => "kattis",
            CompareMode::Values { .. } => "values",
        }
    }
}

impl fmt::Display for CompareMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CompareMode::Float { abs, rel } => write!(f, "float (abs {abs:e}, rel {rel:e})"),
            mode => f.write_str(mode.name()),
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Mismatch {
    /// 1-based line of the expected output at which the difference starts.
    pub line: usize,
    /// The sub-case of a multi-case output (`#3`, `Case #3:`) that the line belongs to.
    pub case_label: Option<String>,
    pub reason: Reason,
}

/// What differs at a mismatch's line; `expected` and `actual` are line counts, or the texts
/// as shown.
#[derive(Debug, Clone, PartialEq)]
pub enum Reason {
    EmptyOutput,
    /// Fewer lines than expected, the lines before being right.
    MissingLines {
        expected: usize,
        actual: usize,
    },
    /// More lines than expected, the lines before being right.
    ExtraLines {
        expected: usize,
        actual: usize,
    },
    /// Exact mode only: the texts match once line endings and trailing whitespace are ignored.
    LineEndingsOrTrailingSpace,
    WhitespaceOnly,
    LetterCaseOnly,
    DifferentLine {
        expected: String,
        actual: String,
    },
    DifferentToken {
        expected: String,
        actual: String,
    },
    /// A number is off by more than the tolerance.
    FloatOff {
        expected: String,
        actual: String,
        delta: f64,
    },
    /// The output ends where the token `expected` was expected.
    OutputEndsEarly {
        expected: String,
    },
    /// The output has a token where the expected output ends.
    ExtraToken {
        actual: String,
    },
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}", self.line)?;
        if let Some(label) = &self.case_label {
            write!(f, " (case {label})")?;
        }
        f.write_str(": ")?;
        match &self.reason {
            Reason::EmptyOutput => f.write_str("empty output"),
            Reason::MissingLines { expected, actual } => {
                write!(f, "missing lines: expected {expected} lines, got {actual}")
            }
            Reason::ExtraLines { expected, actual } => {
                write!(f, "extra lines: expected {expected} lines, got {actual}")
            }
            Reason::LineEndingsOrTrailingSpace => {
                f.write_str("only line endings or trailing whitespace differ")
            }
            Reason::WhitespaceOnly => f.write_str("whitespace differs"),
            Reason::LetterCaseOnly => f.write_str("letter case differs"),
            Reason::DifferentLine { expected, actual } => {
                write!(f, "expected `{expected}`, got `{actual}`")
            }
            Reason::DifferentToken { expected, actual } => {
                write!(f, "different token: expected `{expected}`, got `{actual}`")
            }
            Reason::FloatOff {
                expected,
                actual,
                delta,
            } => write!(
                f,
                "expected `{expected}`, got `{actual}` (off by {delta:.2e})"
            ),
            Reason::OutputEndsEarly { expected } => {
                write!(f, "output ends early: expected `{expected}` next")
            }
            Reason::ExtraToken { actual } => {
                write!(f, "extra output after the expected end: `{actual}`")
            }
        }
    }
}

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
fn compare_rest(mode: CompareMode, expected: &[u8], actual: &[u8]) -> Result<(), Mismatch> {
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
        CompareMode::Values { tolerance } => {
            let reason = |e: &[u8], a: &[u8]| value_reason(e, a, tolerance);
            compare_streams(
                expected,
                (value_tokens(expected), value_tokens(actual)),
                reason,
            )
        }
    }
}

fn compare_exact(expected: &[u8], actual: &[u8]) -> Result<(), Mismatch> {
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

fn compare_lines(expected: &[u8], actual: &[u8]) -> Result<(), Mismatch> {
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

fn line_reason(expected: &[u8], actual: &[u8]) -> Reason {
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
struct Tolerance {
    abs: f64,
    rel: f64,
    relative_to: RelativeTo,
}

/// What the relative tolerance is a fraction of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum RelativeTo {
    /// The larger magnitude of the two (our `float` mode).
    Larger,
    /// The answer's magnitude, as the package format's default validator says: `|s-a| ≤ ε|a|`.
    Answer,
}

fn kattis_tolerance(flags: KattisFlags) -> Option<Tolerance> {
    flags.tolerance.map(|(abs, rel)| Tolerance {
        abs,
        rel,
        relative_to: RelativeTo::Answer,
    })
}

/// Token comparison; with a tolerance, numeric tokens match within it.
fn compare_tokens(
    expected: &[u8],
    actual: &[u8],
    tolerance: Option<Tolerance>,
    case_sensitive: bool,
) -> Result<(), Mismatch> {
    let streams = (tokens_with_lines(expected), tokens_with_lines(actual));
    let reason = |e: &[u8], a: &[u8]| token_reason(e, a, tolerance, case_sensitive);
    compare_streams(expected, streams, reason)
}

/// Two outputs' tokens (with their lines) side by side; `reason` says why two differ.
fn compare_streams<'t>(
    expected: &[u8],
    (mut expected_tokens, mut actual_tokens): (
        impl Iterator<Item = (usize, &'t [u8])>,
        impl Iterator<Item = (usize, &'t [u8])>,
    ),
    reason_of: impl Fn(&[u8], &[u8]) -> Option<Reason>,
) -> Result<(), Mismatch> {
    loop {
        let (line, reason) = match (expected_tokens.next(), actual_tokens.next()) {
            (None, None) => return Ok(()),
            (Some((line, e)), Some((_, a))) => match reason_of(e, a) {
                None => continue,
                Some(reason) => (line, reason),
            },
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
fn compare_spacing(expected: &[u8], actual: &[u8], flags: KattisFlags) -> Result<(), Mismatch> {
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
fn compare_baekjoon(expected: &[u8], actual: &[u8]) -> Result<(), Mismatch> {
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
fn whitespace_runs(text: &[u8]) -> Vec<(usize, &[u8])> {
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
fn token_reason(
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

/// `Values`' rule for two tokens.
fn value_reason(expected: &[u8], actual: &[u8], tolerance: Option<(f64, f64)>) -> Option<Reason> {
    let integer = |token: &[u8]| std::str::from_utf8(token).ok()?.parse::<i128>().ok();
    let differs = match (integer(expected), integer(actual)) {
        (Some(e), Some(a)) => e != a,
        _ => match (parse_float(expected), parse_float(actual), tolerance) {
            (Some(_), Some(_), Some((abs, rel))) => {
                let tolerance = Tolerance {
                    abs,
                    rel,
                    relative_to: RelativeTo::Larger,
                };
                return token_reason(expected, actual, Some(tolerance), true);
            }
            (Some(e), Some(a), None) => e != a,
            _ => expected != actual,
        },
    };
    differs.then(|| Reason::DifferentToken {
        expected: shown(expected),
        actual: shown(actual),
    })
}

/// A function's results as tokens with their lines: `[` and `]` each, a string literal
/// whole (its escapes and spaces in it), and each word between commas and spaces.
fn value_tokens(text: &[u8]) -> impl Iterator<Item = (usize, &[u8])> {
    let mut line = 1;
    let mut at = 0;
    std::iter::from_fn(move || loop {
        let byte = *text.get(at)?;
        let start = at;
        at += 1;
        match byte {
            b'\n' => line += 1,
            b',' => {}
            _ if is_space(&byte) => {}
            b'[' | b']' => return Some((line, &text[start..at])),
            b'"' => {
                while let Some(&next) = text.get(at).filter(|&&b| b != b'\n') {
                    at += 1 + usize::from(next == b'\\');
                    if next == b'"' {
                        break;
                    }
                }
                return Some((line, &text[start..at.min(text.len())]));
            }
            _ => {
                let word = |b: &u8| !(is_space(b) || matches!(b, b',' | b'[' | b']' | b'"'));
                at += text[at..].iter().take_while(|b| word(b)).count();
                return Some((line, &text[start..at]));
            }
        }
    })
}

fn parse_float(token: &[u8]) -> Option<f64> {
    let value: f64 = std::str::from_utf8(token).ok()?.parse().ok()?;
    value.is_finite().then_some(value)
}

fn mismatch(expected: &[u8], line: usize, reason: Reason) -> Mismatch {
    Mismatch {
        line,
        case_label: case_label(expected, line),
        reason,
    }
}

/// Lines without their trailing whitespace (which takes a CR of a CRLF with it).
fn trimmed_lines(text: &[u8]) -> impl Iterator<Item = &[u8]> + Clone {
    text.split(|&b| b == b'\n').map(<[u8]>::trim_ascii_end)
}

/// Whitespace between tokens: ASCII's, and the vertical tab, which the package format counts
/// and `u8::is_ascii_whitespace` does not.
fn is_space(byte: &u8) -> bool {
    byte.is_ascii_whitespace() || *byte == 0x0b
}

fn tokens(text: &[u8]) -> impl Iterator<Item = &[u8]> {
    text.split(is_space).filter(|t| !t.is_empty())
}

/// Tokens with the 1-based line each stands on.
fn tokens_with_lines(text: &[u8]) -> impl Iterator<Item = (usize, &[u8])> {
    text.split(|&b| b == b'\n')
        .enumerate()
        .flat_map(|(index, line)| tokens(line).map(move |token| (index + 1, token)))
}

fn is_blank(text: &[u8]) -> bool {
    text.iter().all(is_space)
}

/// Lines that count: trailing blank lines do not.
fn count_lines(text: &[u8]) -> usize {
    let mut counter = LineCounter::default();
    counter.feed(text);
    counter.lines()
}

/// `count_lines` of what a reader holds, read a chunk at a time.
fn count_lines_read(mut reader: impl Read) -> std::io::Result<usize> {
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
struct LineCounter {
    /// Line breaks seen so far: the 0-based index of the current line.
    breaks: usize,
    /// 1-based number of the last line seen with something other than whitespace.
    last_filled: usize,
}

impl LineCounter {
    fn at(breaks: usize, last_filled: usize) -> LineCounter {
        LineCounter {
            breaks,
            last_filled,
        }
    }

    fn feed(&mut self, text: &[u8]) {
        // Counted whole (vectorised), not byte by byte: outputs of many MiB are fed here.
        let breaks = count_breaks(text);
        if let Some(last) = text.iter().rposition(|byte| !is_space(byte)) {
            self.last_filled = self.breaks + breaks - count_breaks(&text[last..]) + 1;
        }
        self.breaks += breaks;
    }

    fn lines(&self) -> usize {
        self.last_filled
    }
}

/// Line breaks in `text`, summed in a `u8` per block of 255 bytes, which the compiler
/// vectorises: every matched chunk of an output is counted as it streams (`bench/`'s `big`).
fn count_breaks(text: &[u8]) -> usize {
    text.chunks(255)
        .map(|block| {
            block
                .iter()
                .fold(0u8, |count, &byte| count + u8::from(byte == b'\n')) as usize
        })
        .sum()
}

fn line_of(text: &[u8], offset: usize) -> usize {
    text[..offset].iter().filter(|&&b| b == b'\n').count() + 1
}

/// The label of the sub-case that `line` belongs to, for outputs that number their cases
/// (`#3 ...` as SW Expert Academy prints, `Case #3: ...` as Code Jam and Kattis do).
fn case_label(expected: &[u8], line: usize) -> Option<String> {
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
fn shown(text: &[u8]) -> String {
    const LIMIT: usize = 60;
    let text = String::from_utf8_lossy(text);
    match text.char_indices().nth(LIMIT) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.into_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::windows::*;
    use super::*;

    const FLOAT: CompareMode = CompareMode::Float {
        abs: 1e-6,
        rel: 1e-6,
    };

    fn why(mode: CompareMode, expected: &str, actual: &str) -> String {
        compare(mode, expected.as_bytes(), actual.as_bytes())
            .expect_err("outputs should differ")
            .to_string()
    }

    fn matches(mode: CompareMode, expected: &str, actual: &str) -> bool {
        compare(mode, expected.as_bytes(), actual.as_bytes()).is_ok()
    }

    #[test]
    fn lines_ignores_trailing_space_crlf_and_trailing_blank_lines() {
        assert!(matches(
            CompareMode::Lines,
            "1\n2\n",
            "1  \r\n2\t\r\n\r\n\n"
        ));
        assert!(matches(CompareMode::Lines, "1\n2", "1\n2\n"));
        assert!(matches(CompareMode::Lines, "1\n2\n\n", "1\n2"));
    }

    #[test]
    fn lines_keeps_leading_and_inner_whitespace_and_blank_lines_between() {
        assert_eq!(
            why(CompareMode::Lines, "1 2\n", " 1 2\n"),
            "line 1: whitespace differs"
        );
        assert_eq!(
            why(CompareMode::Lines, "1 2\n", "1  2\n"),
            "line 1: whitespace differs"
        );
        assert_eq!(
            why(CompareMode::Lines, "1\n2\n", "1\n\n2\n"),
            "line 2: expected `2`, got ``"
        );
    }

    #[test]
    fn baekjoon_takes_a_newline_for_a_space_and_one_space_at_a_line_end() {
        const B: CompareMode = CompareMode::Baekjoon;
        // A published answer to BOJ 2615, accepted there, prints its two lines as one.
        assert!(matches(B, "1\n3 2\n", "1 3 2\n"));
        assert!(matches(B, "1 3 2\n", "1\n3\n2"));
        assert!(matches(B, "1\n2\n", "1 \n2 \n"));
        assert!(matches(B, "1\n2\n", "1 \r\n2\n"));
        assert!(matches(B, "1\n2\n", "1\r\n2\r\n\n\n"));
        assert!(matches(B, "1\n2\n", "1\n2"));
        // Anything more is its presentation error, not accepted.
        for actual in ["1  \n2\n", "1\n\n2\n", " 1\n2\n", "1\t\n2\n"] {
            assert_eq!(
                why(B, "1\n2\n", actual),
                "line 1: whitespace differs",
                "{actual:?}"
            );
        }
        assert_eq!(why(B, "1 2\n", "1  2\n"), "line 1: whitespace differs");
        // Tokens are told first, in letter case too.
        assert_eq!(
            why(B, "1 2\n", "1\n3\n"),
            "line 1: different token: expected `2`, got `3`"
        );
        assert_eq!(why(B, "valid\n", "Valid\n"), "line 1: letter case differs");
    }

    #[test]
    fn lines_names_missing_and_extra_lines() {
        assert_eq!(
            why(CompareMode::Lines, "a\nb\nc\n", "a\n"),
            "line 2: missing lines: expected 3 lines, got 1"
        );
        assert_eq!(
            why(CompareMode::Lines, "a\n", "a\nb\n\n"),
            "line 2: extra lines: expected 1 lines, got 2"
        );
    }

    /// Each caller prints a value its language's way; the values are what is compared.
    #[test]
    fn values_are_compared_as_values_not_as_text() {
        const EXACT: CompareMode = CompareMode::Values { tolerance: None };
        const NEAR: CompareMode = CompareMode::Values {
            tolerance: Some((1e-6, 1e-6)),
        };
        for (expected, actual) in [
            ("5\n2.5\n", "5.0\n2.5\n"),
            ("[33.0, 31.5]\n", "[33,31.5]\n"),
            ("144\n", "144.0\n"),
            ("[\"a  b\", \"c,d\"]\n", "[\"a  b\",\"c,d\"]\n"),
            ("[[1, 2], []]\n", "[[1,2],[]]\n"),
            ("true\n", "true\n"),
        ] {
            assert!(matches(EXACT, expected, actual), "{expected} {actual}");
        }
        assert_eq!(
            why(EXACT, "9007199254740993\n", "9007199254740992\n"),
            "line 1: different token: expected `9007199254740993`, got `9007199254740992`"
        );
        assert!(!matches(EXACT, "\"a  b\"\n", "\"a b\"\n"));
        assert!(!matches(EXACT, "\"a,b\"\n", "\"a b\"\n"));
        assert!(!matches(EXACT, "[1, 2]\n", "[[1, 2]]\n"));
        assert!(!matches(EXACT, "[1, 2]\n", "[1, 2, 3]\n"));
        assert!(!matches(EXACT, "0.3\n", "0.30000000000000004\n"));
        assert!(matches(NEAR, "0.3\n", "0.30000000000000004\n"));
        assert_eq!(
            why(NEAR, "[2.5]\n", "[2.0]\n"),
            "line 1: expected `2.5`, got `2.0` (off by 5.00e-1)"
        );
    }

    #[test]
    fn empty_output_is_named_whatever_the_mode() {
        for mode in [
            CompareMode::Exact,
            CompareMode::Lines,
            CompareMode::Tokens,
            FLOAT,
        ] {
            assert_eq!(why(mode, "1\n", ""), "line 1: empty output");
            assert_eq!(why(mode, "1\n", " \n\n"), "line 1: empty output");
        }
        assert!(matches(CompareMode::Lines, "\n", ""));
    }

    #[test]
    fn letter_case_is_told_apart() {
        assert_eq!(
            why(CompareMode::Lines, "valid\n", "Valid\n"),
            "line 1: letter case differs"
        );
        assert_eq!(
            why(CompareMode::Tokens, "a valid\n", "a VALID\n"),
            "line 1: letter case differs"
        );
    }

    #[test]
    fn multi_case_outputs_name_the_case() {
        let expected = "#1 X won\n#2 Draw\n#3 O won\n";
        let actual = "#1 X won\n#2 Draw\n#3 X won\n";
        assert_eq!(
            why(CompareMode::Lines, expected, actual),
            "line 3 (case #3): expected `#3 O won`, got `#3 X won`"
        );
        let code_jam = "Case #1: 5\nCase #2:\n7\n8\n";
        assert_eq!(
            why(CompareMode::Lines, code_jam, "Case #1: 5\nCase #2:\n7\n9\n"),
            "line 4 (case #2): expected `8`, got `9`"
        );
        assert_eq!(
            why(CompareMode::Lines, "1\n2\n", "1\n3\n"),
            "line 2: expected `2`, got `3`"
        );
    }

    #[test]
    fn exact_tells_line_endings_from_content() {
        assert!(matches(CompareMode::Exact, "a\nb\n", "a\nb\n"));
        assert_eq!(
            why(CompareMode::Exact, "a\nb\n", "a\r\nb\r\n"),
            "line 1: only line endings or trailing whitespace differ"
        );
        assert_eq!(
            why(CompareMode::Exact, "a\nb\n", "a\nb"),
            "line 2: only line endings or trailing whitespace differ"
        );
        assert_eq!(
            why(CompareMode::Exact, "a\nb\n", "a\nc\n"),
            "line 2: expected `b`, got `c`"
        );
    }

    #[test]
    fn tokens_ignore_layout_and_name_the_token() {
        assert!(matches(CompareMode::Tokens, "1 2\n3\n", "1\n2 3"));
        assert_eq!(
            why(CompareMode::Tokens, "1 2\n3\n", "1 2 4\n"),
            "line 2: different token: expected `3`, got `4`"
        );
        assert_eq!(
            why(CompareMode::Tokens, "1 2\n3\n", "1 2\n"),
            "line 2: output ends early: expected `3` next"
        );
        assert_eq!(
            why(CompareMode::Tokens, "1\n", "1 2\n"),
            "line 1: extra output after the expected end: `2`"
        );
    }

    #[test]
    fn float_accepts_within_absolute_or_relative_tolerance() {
        assert!(matches(FLOAT, "0.5\n", "0.5000004\n"));
        assert!(matches(FLOAT, "1000000\n", "1000000.9\n"));
        assert!(matches(FLOAT, "1\n", "1.0000\n"));
        assert!(matches(FLOAT, "1e3 x\n", "1000 x\n"));
        assert_eq!(
            why(FLOAT, "0.5\n", "0.51\n"),
            "line 1: expected `0.5`, got `0.51` (off by 1.00e-2)"
        );
        assert_eq!(why(FLOAT, "nan\n", "NaN\n"), "line 1: letter case differs");
        assert_eq!(
            why(FLOAT, "x\n", "0.5\n"),
            "line 1: different token: expected `x`, got `0.5`"
        );
    }

    fn kattis(tolerance: Option<(f64, f64)>) -> CompareMode {
        CompareMode::Kattis(KattisFlags {
            tolerance,
            ..KattisFlags::default()
        })
    }

    #[test]
    fn the_default_validators_relative_tolerance_is_against_the_answer() {
        // |2.5 - 1| = 1.5 > 0.6 × |1|: within 0.6 of the output's magnitude, not the answer's.
        assert!(!matches(kattis(Some((0.0, 0.6))), "1\n", "2.5\n"));
        assert!(matches(kattis(Some((0.0, 0.6))), "1\n", "1.5\n"));
        assert!(matches(kattis(Some((0.0, 0.6))), "2.5\n", "1.1\n"));
        // Our own float mode keeps its documented rule: relative to the larger.
        assert!(matches(
            CompareMode::Float { abs: 0.0, rel: 0.6 },
            "1\n",
            "2.5\n"
        ));
    }

    #[test]
    fn float_tolerance_alone_is_absolute_or_relative() {
        // `float_tolerance 0.1`: 100 vs 105 is within 10% of the answer, not within 0.1.
        let both = kattis(Some((0.1, 0.1)));
        assert!(matches(both, "100\n", "105\n"));
        // 0 vs 0.05: no relative room around 0, but within 0.1 absolutely.
        assert!(matches(both, "0\n", "0.05\n"));
        assert!(!matches(both, "0\n", "0.2\n"));
    }

    #[test]
    fn vertical_tab_separates_tokens() {
        assert!(matches(kattis(None), "1 2\n", "1\x0b2\n"));
        assert!(matches(CompareMode::Tokens, "1 2\n", "1\x0b2\x0b\n"));
        file_agrees(kattis(None), "1 2\n", "1\x0b2\n");
    }

    /// `compare_file` must agree with `compare` on the whole texts, line numbers included.
    fn file_agrees(mode: CompareMode, expected: &str, actual: &str) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("expected");
        std::fs::write(&path, expected).unwrap();
        let whole = compare(mode, expected.as_bytes(), actual.as_bytes());
        // Windows far smaller than the outputs must decide as one window of the whole does.
        // So must one of an output whose common start with the expected one was not kept.
        let common = expected
            .bytes()
            .zip(actual.bytes())
            .take_while(|(e, a)| e == a)
            .count();
        for window_bytes in [1, 2, 3, 5, 8, 64, WINDOW_BYTES] {
            for offset in [0, common / 2, common] {
                let from_file = compare_file_in_windows(
                    mode,
                    &path,
                    &actual.as_bytes()[offset..],
                    MatchedStart::of(&expected.as_bytes()[..offset]),
                    window_bytes,
                )
                .unwrap()
                .map_err(|m| m.mismatch);
                assert_eq!(
                    from_file, whole,
                    "{mode}, window {window_bytes}, {offset} not kept: {expected:?} vs {actual:?}"
                );
            }
        }
    }

    #[test]
    fn comparing_against_a_file_matches_comparing_whole_texts() {
        let pairs = [
            ("1\n2\n3\n", "1\n2\n3\n"),
            ("1\n2\n3\n", "1\n2\n4\n"),
            ("1\n2\n3\n", "1\n2\n3  \r\n\n"),
            ("1\n2\n3\n", "1\n2\n"),
            ("1\n2\n", "1\n2\n3\n"),
            ("#1 X won\n#2 Draw\n", "#1 X won\n#2 O won\n"),
            ("\n\n5\n", "\n\n"),
            ("", "x\n"),
            ("a b\n", "a  b\n"),
            ("1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n\n", "1\n2\n"),
            ("1\n2\n3\n4\n5\n6\n7\n\n\n", "1\n2\n3\n4\n5\n6\n7\n8\n"),
            ("1 2\n3  4\n5 6\n7 8\n", "1 2\n3 4\n5 6\n7 8\n"),
            ("1\r\n2\r\n3\r\n4\r\n", "1\n2\n3\n4\n"),
            ("1\n2\n3\n4\n", "1\r\n2\r\n3\r\n5\r\n"),
            ("1\n2\n3\n4   \n5\n", "1\n2\n3\n4\n5 6\n"),
            ("1\n2\n3 4\n5 6\n", "1\n2\n3 4 5\n"),
            ("a\n\nb\n", "a\n"),
            ("a  b\nc\nd\ne\n", "a b\nc\n"),
            ("a  b\nc\nd\ne\n", "a b\nc\nd\ne\n"),
            ("1\n3 2\n", "1 3 2\n"),
            ("1\n2\n3\n4\n", "1 \n2  \n3\n4\n"),
        ];
        for (expected, actual) in pairs {
            for mode in [
                CompareMode::Exact,
                CompareMode::Lines,
                CompareMode::Baekjoon,
                CompareMode::Tokens,
                CompareMode::Kattis(KattisFlags::default()),
                CompareMode::Kattis(KattisFlags {
                    space_change_sensitive: true,
                    ..KattisFlags::default()
                }),
            ] {
                file_agrees(mode, expected, actual);
            }
        }
        let big: String = (0..300_000).map(|i| format!("{i}\n")).collect();
        let mut changed = big.clone();
        changed.replace_range(big.len() - 8.., "changed\n");
        file_agrees(CompareMode::Lines, &big, &changed);
        file_agrees(CompareMode::Lines, &big, &big);
        // A labelled output, its label far behind the difference in the part not kept.
        let labelled: String = (0..100_000)
            .map(|i| format!("Case #{i}: {}\n", i % 7))
            .collect();
        let mut changed = labelled.clone();
        changed.replace_range(labelled.len() - 2.., "9\n");
        file_agrees(CompareMode::Lines, &labelled, &changed);
    }

    #[test]
    fn a_wrong_first_line_of_a_huge_expected_file_keeps_little() {
        const MIB: usize = 1 << 20;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("expected");
        let block = "123456789\n".repeat(MIB / 10);
        let mut file = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
        std::io::Write::write_all(&mut file, b"1\n").unwrap();
        for _ in 0..64 {
            std::io::Write::write_all(&mut file, block.as_bytes()).unwrap();
        }
        drop(file);
        let actual = b"2\n123456789\n";
        let found = compare_file(CompareMode::Lines, &path, actual, MatchedStart::default())
            .unwrap()
            .expect_err("the first line differs");
        assert_eq!(found.mismatch.to_string(), "line 1: expected `1`, got `2`");
        assert!(
            found.expected_excerpt.len() <= 1024,
            "kept {} bytes of the expected output",
            found.expected_excerpt.len()
        );
        assert_eq!(found.diff().len(), 13, "{:?}", found.diff());

        // Missing lines are counted in the whole file, still without keeping it.
        let found = compare_file(CompareMode::Lines, &path, b"1\n", MatchedStart::default())
            .unwrap()
            .expect_err("lines are missing");
        assert_eq!(
            found.mismatch.to_string(),
            format!(
                "line 2: missing lines: expected {} lines, got 1",
                1 + 64 * (MIB / 10)
            )
        );
        assert!(found.expected_excerpt.len() <= 1024);
    }

    #[test]
    fn kattis_default_validator_flags() {
        let default = CompareMode::Kattis(KattisFlags::default());
        assert!(matches(default, "Yes 1\n", "yes\n\n1"));
        let case_sensitive = CompareMode::Kattis(KattisFlags {
            case_sensitive: true,
            ..KattisFlags::default()
        });
        assert_eq!(
            why(case_sensitive, "Yes\n", "yes\n"),
            "line 1: letter case differs"
        );
        let spacing = CompareMode::Kattis(KattisFlags {
            space_change_sensitive: true,
            ..KattisFlags::default()
        });
        assert!(matches(spacing, "a b\nc\n", "A b\nc\n"));
        assert_eq!(
            why(spacing, "a b\nc\n", "a  b\nc\n"),
            "line 1: whitespace differs"
        );
        assert_eq!(
            why(spacing, "a b\nc\n", "a b\nc"),
            "line 2: whitespace differs"
        );
        assert_eq!(
            why(spacing, "a b\nc\n", "a b c\n"),
            "line 1: whitespace differs"
        );
        let float = CompareMode::Kattis(KattisFlags {
            tolerance: Some((1e-6, 1e-6)),
            ..KattisFlags::default()
        });
        assert!(matches(float, "0.5 NaN\n", "0.5000001 nan\n"));
        assert!(
            !matches(default, "0.5\n", "0.5000001\n"),
            "no tolerance: numbers compare as text"
        );
    }

    #[test]
    fn long_and_invalid_utf8_lines_are_shown_bounded_and_lossy() {
        let long = "x".repeat(100);
        let message = why(CompareMode::Lines, "y\n", &long);
        assert!(
            message.ends_with(&format!("got `{}…`", "x".repeat(60))),
            "{message}"
        );
        let message = compare(CompareMode::Lines, b"a\n", b"\xff\xfe\n").unwrap_err();
        assert_eq!(
            message.to_string(),
            "line 1: expected `a`, got `\u{fffd}\u{fffd}`"
        );
    }
}
