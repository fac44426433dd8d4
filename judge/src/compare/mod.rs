//! Output comparison: pure functions over bytes that decide whether an output matches the
//! expected one and, when it does not, say where and why in one line.
//!
//! Every mode is a single pass over both outputs; nothing is converted to UTF-8 or split into
//! a vector of lines unless a mismatch has been found.

pub mod diff;

use std::fmt;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

use serde::Deserialize;

/// How an output is compared with the expected one.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
pub enum CompareMode {
    /// Byte for byte.
    Exact,
    /// Line by line, ignoring trailing whitespace on each line, trailing blank lines and
    /// CRLF versus LF: what Baekjoon accepts.
    Lines,
    /// Whitespace-separated tokens; the amount and kind of whitespace does not matter.
    Tokens,
    /// Tokens, where two numbers match when within `abs` or within `rel` of the larger one.
    Float { abs: f64, rel: f64 },
    /// The Kattis default output validator: tokens, letter case ignored unless
    /// `case_sensitive`, whitespace ignored unless `space_change_sensitive`, numbers within the
    /// tolerance when one is given.
    Kattis(KattisFlags),
}

/// The flags of the Kattis default output validator.
#[derive(Debug, Clone, Copy, PartialEq, Default, Deserialize)]
pub struct KattisFlags {
    pub case_sensitive: bool,
    pub space_change_sensitive: bool,
    /// `(absolute, relative)`; `None` compares numbers as text.
    pub tolerance: Option<(f64, f64)>,
}

impl CompareMode {
    pub fn name(self) -> &'static str {
        match self {
            CompareMode::Exact => "exact",
            CompareMode::Lines => "lines",
            CompareMode::Tokens => "tokens",
            CompareMode::Float { .. } => "float",
            CompareMode::Kattis(_) => "kattis",
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

/// Where and why an output differs from the expected one.
#[derive(Debug, Clone, PartialEq)]
pub struct Mismatch {
    /// 1-based line of the expected output at which the difference starts.
    pub line: usize,
    /// The sub-case of a multi-case output (`#3`, `Case #3:`) that the line belongs to.
    pub case_label: Option<String>,
    pub reason: Reason,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Reason {
    EmptyOutput,
    MissingLines {
        expected: usize,
        actual: usize,
    },
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
    FloatOff {
        expected: String,
        actual: String,
        delta: f64,
    },
    OutputEndsEarly {
        expected: String,
    },
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

/// A mismatch found by `compare_file`, with excerpts of both outputs around it for a diff:
/// each starts at line `first_line` (1-based) and holds no more lines than a diff shows, so
/// that what a wrong answer keeps is small however large the outputs are.
#[derive(Debug)]
pub struct FileMismatch {
    pub mismatch: Mismatch,
    pub first_line: usize,
    pub expected_excerpt: Vec<u8>,
    pub actual_excerpt: Vec<u8>,
}

impl FileMismatch {
    /// The diff of both outputs around the mismatch, numbered as lines of the whole outputs.
    pub fn diff(&self) -> Vec<crate::compare::diff::DiffLine> {
        let offset = self.first_line - 1;
        let mut diff = crate::compare::diff::window(
            &self.expected_excerpt,
            &self.actual_excerpt,
            self.mismatch.line.saturating_sub(offset),
        );
        for line in &mut diff {
            line.number += offset;
        }
        diff
    }
}

/// How much of the expected output's rest is read at first; a window that cannot decide is
/// made four times larger.
const WINDOW_BYTES: usize = 1 << 20;

/// Bytes read from a file at a time: small enough to stay in the CPU's cache.
const CHUNK_BYTES: usize = 1 << 16;

/// Compares an output with the expected output in a file without reading that file whole:
/// chunks are compared byte for byte (identical outputs match in every mode), and only from
/// the start of the line holding the first different byte is the rest compared under `mode`,
/// a window at a time. A window of whole lines decides when the difference it shows cannot be
/// undone by what follows it (a different line or token before its last line, an output that
/// ends early); else a larger one is read. Then a wrong first line of a huge expected file
/// costs one window of memory, and a window only grows as far as the output goes on matching,
/// which the output's own size (held anyway) bounds.
///
/// The output is `held` preceded by the expected file's first `offset` bytes: a run that
/// compared its output while it arrived kept only what follows the part that matched.
pub fn compare_file(
    mode: CompareMode,
    expected: &Path,
    held: &[u8],
    offset: usize,
) -> std::io::Result<Result<(), FileMismatch>> {
    compare_file_in_windows(mode, expected, held, offset, WINDOW_BYTES)
}

fn compare_file_in_windows(
    mode: CompareMode,
    expected: &Path,
    held: &[u8],
    offset: usize,
    first_window_bytes: usize,
) -> std::io::Result<Result<(), FileMismatch>> {
    let mut output = Output {
        file: std::fs::File::open(expected)?,
        held,
        offset,
    };
    output.file.seek(SeekFrom::Start(offset as u64))?;
    let Some(first_difference) = first_difference(&mut output.file, held)? else {
        return Ok(Ok(()));
    };
    let first_difference = offset + first_difference;
    // Everything before the first difference is identical in both. The rests start at the
    // line of the last token before it, so that no token, line or run of whitespace is split.
    let line_start = match output.rfind(first_difference, |b| !is_space(b))? {
        Some(last_token) => output.rfind_byte(last_token, b'\n')?.map_or(0, |at| at + 1),
        None => 0,
    };
    let actual_rest = output.from(line_start)?;
    let mut window_bytes = first_window_bytes;
    let (expected_rest, read_whole, mut mismatch) = loop {
        let (window, read_whole) = read_window(&mut output.file, line_start as u64, window_bytes)?;
        // When the difference is on the first line, the whole outputs decide (an empty
        // output is named as such).
        let outcome = if line_start == 0 {
            compare(mode, &window, &actual_rest)
        } else {
            compare_rest(mode, &window, &actual_rest)
        };
        match outcome {
            Ok(()) if read_whole => return Ok(Ok(())),
            Err(mismatch) if read_whole || decided_in_window(mode, &mismatch, &window) => {
                break (window, read_whole, mismatch);
            }
            _ => window_bytes = window_bytes.saturating_mul(4),
        }
    };
    if let (Reason::MissingLines { expected, .. }, false) = (&mut mismatch.reason, read_whole) {
        // The window's count of lines is not the file's.
        output.file.seek(SeekFrom::Start(line_start as u64))?;
        *expected = count_lines_read(&mut output.file)?;
    }
    let prefix = output.lines_before(line_start)?;
    let lines_before = prefix.breaks;
    if line_start > 0 {
        // Line counts of the rests become counts of the whole outputs.
        let whole = |count: usize| {
            if count == 0 {
                prefix.lines()
            } else {
                count + lines_before
            }
        };
        mismatch.line = match mismatch.reason {
            // Told at the expected output's last line, which may lie in the prefix.
            Reason::ExtraToken { .. } => whole(count_lines(&expected_rest)).max(1),
            _ => mismatch.line + lines_before,
        };
        if let Reason::MissingLines { expected, actual } | Reason::ExtraLines { expected, actual } =
            &mut mismatch.reason
        {
            (*expected, *actual) = (whole(*expected), whole(*actual));
        }
        if mismatch.case_label.is_none() {
            mismatch.case_label = output.last_case_label(line_start)?;
        }
    }
    // The excerpts a diff of the mismatch's line shows, counted in lines of the rests.
    let first = crate::compare::diff::first_line_shown(mismatch.line.saturating_sub(lines_before));
    Ok(Err(FileMismatch {
        first_line: lines_before + first,
        expected_excerpt: crate::compare::diff::lines_shown(&expected_rest, first).to_vec(),
        actual_excerpt: crate::compare::diff::lines_shown(&actual_rest, first).to_vec(),
        mismatch,
    }))
}

/// An output as `compare_file` has it: the expected file's first `offset` bytes, then `held`.
/// Its start is read from the file a chunk at a time, never whole.
struct Output<'a> {
    file: std::fs::File,
    held: &'a [u8],
    offset: usize,
}

impl<'a> Output<'a> {
    /// The bytes `[start, end)`, read from the file (which must hold them).
    fn read(&mut self, start: usize, end: usize) -> std::io::Result<Vec<u8>> {
        let mut bytes = vec![0; end - start];
        self.file.seek(SeekFrom::Start(start as u64))?;
        self.file.read_exact(&mut bytes)?;
        Ok(bytes)
    }

    /// The output from `start` on: borrowed when the run kept it all.
    fn from(&mut self, start: usize) -> std::io::Result<std::borrow::Cow<'a, [u8]>> {
        if start >= self.offset {
            return Ok(std::borrow::Cow::Borrowed(
                &self.held[start - self.offset..],
            ));
        }
        let mut bytes = self.read(start, self.offset)?;
        bytes.extend_from_slice(self.held);
        Ok(std::borrow::Cow::Owned(bytes))
    }

    /// The last position before `end` whose byte matches.
    fn rfind(
        &mut self,
        end: usize,
        matches: impl Fn(&u8) -> bool,
    ) -> std::io::Result<Option<usize>> {
        self.rfind_in(end, &matches, |_| true)
    }

    /// `rfind` of one byte: a part without it is passed over at the speed of a byte search.
    fn rfind_byte(&mut self, end: usize, byte: u8) -> std::io::Result<Option<usize>> {
        self.rfind_in(end, &|&b| b == byte, |part| part.contains(&byte))
    }

    /// `rfind`, looking only into parts that `may_hold` lets through.
    fn rfind_in(
        &mut self,
        end: usize,
        matches: &dyn Fn(&u8) -> bool,
        may_hold: impl Fn(&[u8]) -> bool,
    ) -> std::io::Result<Option<usize>> {
        if end > self.offset {
            let part = &self.held[..end - self.offset];
            if may_hold(part) {
                if let Some(at) = part.iter().rposition(matches) {
                    return Ok(Some(self.offset + at));
                }
            }
        }
        let mut end = end.min(self.offset);
        while end > 0 {
            let start = end.saturating_sub(CHUNK_BYTES);
            let part = self.read(start, end)?;
            if may_hold(&part) {
                if let Some(at) = part.iter().rposition(matches) {
                    return Ok(Some(start + at));
                }
            }
            end = start;
        }
        Ok(None)
    }

    /// The lines of the output before `end`, a chunk at a time.
    fn lines_before(&mut self, end: usize) -> std::io::Result<LineCounter> {
        let mut counter = LineCounter::default();
        self.file.seek(SeekFrom::Start(0))?;
        let mut chunk = vec![0u8; CHUNK_BYTES];
        let mut done = 0;
        while done < end.min(self.offset) {
            let count = (end.min(self.offset) - done).min(CHUNK_BYTES);
            self.file.read_exact(&mut chunk[..count])?;
            counter.feed(&chunk[..count]);
            done += count;
        }
        if end > self.offset {
            counter.feed(&self.held[..end - self.offset]);
        }
        Ok(counter)
    }

    /// `case_label` of the output's lines before `end` (a line start): the last line that
    /// starts with `#` and digits, or `Case #` and digits, found from the end backwards. A
    /// part with no `#` at all is passed over at the speed of a byte search.
    fn last_case_label(&mut self, end: usize) -> std::io::Result<Option<String>> {
        let mut search_end = end;
        while let Some(hash) = self.rfind_byte(search_end, b'#')? {
            let start = hash.saturating_sub(6);
            let context = self.range(start, (hash + 24).min(end))?;
            let at = hash - start;
            let line_start = |at: usize| at == 0 || context[at - 1] == b'\n';
            let labelled = line_start(at)
                || (at >= 5 && &context[at - 5..at] == b"Case " && line_start(at - 5));
            let digits = context[at + 1..]
                .iter()
                .take_while(|b| b.is_ascii_digit())
                .count();
            if labelled && digits > 0 {
                return Ok(Some(
                    String::from_utf8_lossy(&context[at..=at + digits]).into_owned(),
                ));
            }
            search_end = hash;
        }
        Ok(None)
    }

    /// The bytes `[start, end)` wherever they are.
    fn range(&mut self, start: usize, end: usize) -> std::io::Result<Vec<u8>> {
        let mut bytes = if start < self.offset {
            self.read(start, end.min(self.offset))?
        } else {
            Vec::new()
        };
        if end > self.offset {
            bytes.extend_from_slice(
                &self.held[start.max(self.offset) - self.offset..end - self.offset],
            );
        }
        Ok(bytes)
    }
}

/// The offset of the first byte at which the file, read from where it stands, and `actual`
/// differ (one of them ending early counts), or `None` when they are identical.
fn first_difference(file: &mut std::fs::File, actual: &[u8]) -> std::io::Result<Option<usize>> {
    // One buffer per thread, made once (a fresh one per case would be zeroed and faulted in
    // every time), and small: each chunk is compared while it is still in the CPU's cache.
    thread_local! {
        static CHUNK: std::cell::RefCell<Vec<u8>> = std::cell::RefCell::new(vec![0u8; CHUNK_BYTES]);
    }
    CHUNK.with_borrow_mut(|chunk| {
        let mut offset = 0;
        loop {
            let count = read_full(file, chunk)?;
            let theirs = &actual[offset.min(actual.len())..(offset + count).min(actual.len())];
            let ours = &chunk[..theirs.len()];
            // memcmp first; the position only where they differ.
            if ours != theirs {
                let at = ours.iter().zip(theirs).position(|(e, a)| e != a);
                return Ok(Some(offset + at.unwrap_or(theirs.len())));
            }
            if theirs.len() < count || count == 0 {
                // One of them ended: equal if both did.
                if count == 0 && offset == actual.len() {
                    return Ok(None);
                }
                return Ok(Some(offset + theirs.len()));
            }
            offset += count;
        }
    })
}

/// At most `bytes` of the file from `start`, cut after the last whole line when the file goes
/// on; `true` when it holds the rest of the file.
fn read_window(
    file: &mut std::fs::File,
    start: u64,
    bytes: usize,
) -> std::io::Result<(Vec<u8>, bool)> {
    file.seek(SeekFrom::Start(start))?;
    let mut window = Vec::new();
    file.take(bytes as u64 + 1).read_to_end(&mut window)?;
    if window.len() <= bytes {
        return Ok((window, true));
    }
    let whole_lines = window[..bytes]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |at| at + 1);
    window.truncate(whole_lines);
    Ok((window, false))
}

/// Whether a mismatch found in a window of whole lines holds whatever the file goes on with:
/// the output ended where the window has more, or a line or token differs before the
/// window's last line that holds a token (a run of whitespace after it may go on in the file).
fn decided_in_window(mode: CompareMode, mismatch: &Mismatch, window: &[u8]) -> bool {
    match mismatch.reason {
        Reason::EmptyOutput | Reason::MissingLines { .. } | Reason::OutputEndsEarly { .. } => {
            !is_blank(window)
        }
        // The window ended where the file may go on.
        Reason::ExtraLines { .. } | Reason::ExtraToken { .. } => false,
        Reason::LineEndingsOrTrailingSpace => false,
        // Spacing is compared once every token matched, which only the whole file can tell.
        Reason::WhitespaceOnly if matches!(mode, CompareMode::Kattis(flags) if flags.space_change_sensitive) => {
            false
        }
        Reason::WhitespaceOnly
        | Reason::LetterCaseOnly
        | Reason::DifferentLine { .. }
        | Reason::DifferentToken { .. }
        | Reason::FloatOff { .. } => mismatch.line < count_lines(window),
    }
}

/// Reads until `buffer` is full or the file ends.
pub(crate) fn read_full(file: &mut std::fs::File, buffer: &mut [u8]) -> std::io::Result<usize> {
    let mut filled = 0;
    while filled < buffer.len() {
        match file.read(&mut buffer[filled..]) {
            Ok(0) => break,
            Ok(count) => filled += count,
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => {}
            Err(error) => return Err(error),
        }
    }
    Ok(filled)
}

/// Compares `actual` with `expected` under `mode`.
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
    let mut line = 0;
    loop {
        line += 1;
        match (expected_lines.next(), actual_lines.next()) {
            (None, None) => return Ok(()),
            (Some(e), Some(a)) if e == a => {}
            // One side has only blank lines left: it has ended, the other has more.
            (Some(_), Some(a)) if a.is_empty() && actual_lines.clone().all(<[u8]>::is_empty) => {
                let reason = Reason::MissingLines {
                    expected: count_lines(expected),
                    actual: count_lines(actual),
                };
                return Err(mismatch(expected, line, reason));
            }
            (Some(e), Some(_)) if e.is_empty() && expected_lines.clone().all(<[u8]>::is_empty) => {
                let reason = Reason::ExtraLines {
                    expected: count_lines(expected),
                    actual: count_lines(actual),
                };
                return Err(mismatch(expected, line, reason));
            }
            (Some(e), Some(a)) => return Err(mismatch(expected, line, line_reason(e, a))),
            (Some(e), None) if e.is_empty() && expected_lines.all(<[u8]>::is_empty) => {
                return Ok(())
            }
            (None, Some(a)) if a.is_empty() && actual_lines.all(<[u8]>::is_empty) => return Ok(()),
            (Some(_), None) => {
                let reason = Reason::MissingLines {
                    expected: count_lines(expected),
                    actual: count_lines(actual),
                };
                return Err(mismatch(expected, line, reason));
            }
            (None, Some(_)) => {
                let reason = Reason::ExtraLines {
                    expected: count_lines(expected),
                    actual: count_lines(actual),
                };
                return Err(mismatch(expected, line, reason));
            }
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

/// How far apart two numbers may be.
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
    fn feed(&mut self, text: &[u8]) {
        // Counted whole, which the compiler turns into vector instructions, rather than byte
        // by byte: outputs of many MiB are fed here.
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

fn count_breaks(text: &[u8]) -> usize {
    text.iter().filter(|&&b| b == b'\n').count()
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
                    offset,
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
        ];
        for (expected, actual) in pairs {
            for mode in [
                CompareMode::Exact,
                CompareMode::Lines,
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
        let found = compare_file(CompareMode::Lines, &path, actual, 0)
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
        let found = compare_file(CompareMode::Lines, &path, b"1\n", 0)
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
