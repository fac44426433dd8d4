//! Comparing an output with an expected file too large to read at once: the file is read
//! in windows from where the output starts to differ, and only what decides is kept.

use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

use super::*;
use super::{CompareMode, MatchedStart, Mismatch, Reason};

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
pub(super) const WINDOW_BYTES: usize = 1 << 20;

/// Bytes read from a file at a time: small enough to stay in the CPU's cache.
pub(super) const CHUNK_BYTES: usize = 1 << 16;

/// Compares an output with an expected file without reading the file whole: chunks are
/// compared byte for byte (identical outputs match in every mode), and only from the line of
/// the first different byte is the rest compared under `mode`, a window at a time. A window
/// decides when what follows cannot undo its difference; else a larger one is read. So a
/// window only grows as far as the output goes on matching, which the held output bounds.
///
/// The output is `held` preceded by the expected file's first `start.bytes` bytes: a run that
/// compared its output while it arrived kept only what followed the matching part.
pub fn compare_file(
    mode: CompareMode,
    expected: &Path,
    held: &[u8],
    start: MatchedStart,
) -> std::io::Result<Result<(), FileMismatch>> {
    compare_file_in_windows(mode, expected, held, start, WINDOW_BYTES)
}

pub(super) fn compare_file_in_windows(
    mode: CompareMode,
    expected: &Path,
    held: &[u8],
    start: MatchedStart,
    first_window_bytes: usize,
) -> std::io::Result<Result<(), FileMismatch>> {
    let offset = start.bytes;
    let mut output = Output {
        file: std::fs::File::open(expected)?,
        held,
        start,
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
    let rests = (line_start, &actual_rest[..]);
    let Some((expected_rest, read_whole, mut mismatch)) =
        mismatch_in_windows(mode, &mut output.file, rests, first_window_bytes)?
    else {
        return Ok(Ok(()));
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

/// The mismatch of the expected file's rest from `line_start` with `actual_rest`, read in
/// windows from `first_window_bytes` on, each four times the last, until one decides it:
/// the window read, whether it was the whole rest, and the mismatch; `None` when they match.
fn mismatch_in_windows(
    mode: CompareMode,
    file: &mut std::fs::File,
    (line_start, actual_rest): (usize, &[u8]),
    first_window_bytes: usize,
) -> std::io::Result<Option<(Vec<u8>, bool, Mismatch)>> {
    let mut window_bytes = first_window_bytes;
    loop {
        let (window, read_whole) = read_window(file, line_start as u64, window_bytes)?;
        // When the difference is on the first line, the whole outputs decide (an empty
        // output is named as such).
        let outcome = if line_start == 0 {
            compare(mode, &window, actual_rest)
        } else {
            compare_rest(mode, &window, actual_rest)
        };
        match outcome {
            Ok(()) if read_whole => return Ok(None),
            Err(mismatch) if read_whole || decided_in_window(mode, &mismatch, &window) => {
                return Ok(Some((window, read_whole, mismatch)));
            }
            _ => window_bytes = window_bytes.saturating_mul(4),
        }
    }
}

/// An output as `compare_file` has it: the expected file's first `start.bytes` bytes, then
/// `held`. Its start is read from the file near the difference only: what the report needs
/// of the rest was counted (`start`).
pub(super) struct Output<'a> {
    file: std::fs::File,
    held: &'a [u8],
    start: MatchedStart,
}

impl<'a> Output<'a> {
    /// Where `held` starts.
    fn offset(&self) -> usize {
        self.start.bytes
    }

    /// The bytes `[start, end)`, read from the file (which must hold them).
    fn read(&mut self, start: usize, end: usize) -> std::io::Result<Vec<u8>> {
        let mut bytes = vec![0; end - start];
        self.file.seek(SeekFrom::Start(start as u64))?;
        self.file.read_exact(&mut bytes)?;
        Ok(bytes)
    }

    /// The output from `start` on: borrowed when the run kept it all.
    fn from(&mut self, start: usize) -> std::io::Result<std::borrow::Cow<'a, [u8]>> {
        if start >= self.offset() {
            return Ok(std::borrow::Cow::Borrowed(
                &self.held[start - self.offset()..],
            ));
        }
        let mut bytes = self.read(start, self.offset())?;
        bytes.extend_from_slice(self.held);
        Ok(std::borrow::Cow::Owned(bytes))
    }

    /// The last position before `end` whose byte matches.
    fn rfind(
        &mut self,
        end: usize,
        matches: impl Fn(&u8) -> bool,
    ) -> std::io::Result<Option<usize>> {
        self.rfind_in(end, self.offset(), &matches, |_| true)
    }

    /// `rfind` of one byte: a part without it is passed over at the speed of a byte search.
    fn rfind_byte(&mut self, end: usize, byte: u8) -> std::io::Result<Option<usize>> {
        self.rfind_in(end, self.offset(), &|&b| b == byte, |part| {
            part.contains(&byte)
        })
    }

    /// `rfind_byte` of `#`, reading none of the matched start after its last `#`, which was
    /// noted as it passed.
    fn rfind_hash(&mut self, end: usize) -> std::io::Result<Option<usize>> {
        let read_below = self.start.last_hash.map_or(0, |last| last + 1);
        self.rfind_in(end, read_below, &|&b| b == b'#', |part| {
            part.contains(&b'#')
        })
    }

    /// `rfind`, looking only into parts that `may_hold` lets through, and into the matched
    /// start only below `read_below`.
    fn rfind_in(
        &mut self,
        end: usize,
        read_below: usize,
        matches: &dyn Fn(&u8) -> bool,
        may_hold: impl Fn(&[u8]) -> bool,
    ) -> std::io::Result<Option<usize>> {
        let offset = self.offset();
        if end > offset {
            let part = &self.held[..end - offset];
            if may_hold(part) {
                if let Some(at) = part.iter().rposition(matches) {
                    return Ok(Some(offset + at));
                }
            }
        }
        let mut end = end.min(offset).min(read_below);
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

    /// The line breaks of the output before `at`: the matched start's, counted as it passed,
    /// and those between its end and `at`.
    fn breaks_before(&mut self, at: usize) -> std::io::Result<usize> {
        let offset = self.offset();
        Ok(if at >= offset {
            self.start.line_breaks + count_breaks(&self.held[..at - offset])
        } else {
            self.start.line_breaks - count_breaks(&self.range(at, offset)?)
        })
    }

    /// The lines of the output before `end`, a line start, the last filled one found from
    /// `end` backwards.
    fn lines_before(&mut self, end: usize) -> std::io::Result<LineCounter> {
        let breaks = self.breaks_before(end)?;
        let last_filled = match self.rfind(end, |b| !is_space(b))? {
            Some(at) => self.breaks_before(at)? + 1,
            None => 0,
        };
        Ok(LineCounter::at(breaks, last_filled))
    }

    /// `case_label` of the output's lines before `end` (a line start): the last line that
    /// starts with `#` and digits, or `Case #` and digits, found from the end backwards. A
    /// part with no `#` at all is passed over at the speed of a byte search.
    fn last_case_label(&mut self, end: usize) -> std::io::Result<Option<String>> {
        let mut search_end = end;
        while let Some(hash) = self.rfind_hash(search_end)? {
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
        let mut bytes = if start < self.offset() {
            self.read(start, end.min(self.offset()))?
        } else {
            Vec::new()
        };
        if end > self.offset() {
            bytes.extend_from_slice(
                &self.held[start.max(self.offset()) - self.offset()..end - self.offset()],
            );
        }
        Ok(bytes)
    }
}

/// The offset of the first byte at which the file, read from where it stands, and `actual`
/// differ (one of them ending early counts), or `None` when they are identical.
pub(super) fn first_difference(
    file: &mut std::fs::File,
    actual: &[u8],
) -> std::io::Result<Option<usize>> {
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
pub(super) fn read_window(
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
pub(super) fn decided_in_window(mode: CompareMode, mismatch: &Mismatch, window: &[u8]) -> bool {
    match mismatch.reason {
        Reason::EmptyOutput | Reason::MissingLines { .. } | Reason::OutputEndsEarly { .. } => {
            !is_blank(window)
        }
        // The window ended where the file may go on.
        Reason::ExtraLines { .. } | Reason::ExtraToken { .. } => false,
        Reason::LineEndingsOrTrailingSpace => false,
        // Spacing is compared once every token matched, which only the whole file can tell.
        Reason::WhitespaceOnly
            if matches!(mode, CompareMode::Kattis(flags) if flags.space_change_sensitive)
                || mode == CompareMode::Baekjoon =>
        {
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
