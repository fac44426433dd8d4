//! Reading a run's output pipes into capped buffers, comparing stdout with the expected file
//! as it arrives: a chunk compared on arrival stays in the CPU's cache, and nothing of a
//! matching output is kept. After a difference only what follows the matched start is kept;
//! the comparison reads that start from the file (`compare_file`).

use std::cell::RefCell;
use std::fs::File;
use std::io;
use std::os::fd::{AsRawFd, BorrowedFd, RawFd};
use std::path::Path;

use crate::compare::MatchedStart;

/// The default pipe capacity, small enough for the cache.
const CHUNK: usize = 64 * 1024;

/// Larger buffers are given back to the system, not kept for the next run.
const RECYCLED_MAX_BYTES: usize = 16 << 20;

thread_local! {
    static SPARE_OUTPUT: std::cell::Cell<Vec<u8>> = const { std::cell::Cell::new(Vec::new()) };
    /// A chunk of output and the same range of the expected file, made once per thread, not
    /// zeroed and faulted in per run.
    static CHUNKS: RefCell<(Vec<u8>, Vec<u8>)> = RefCell::new((vec![0; CHUNK], vec![0; CHUNK]));
}

/// Keeps a run's output buffer for this thread's next run: its pages are already faulted in.
pub fn recycle(mut buffer: Vec<u8>) {
    if buffer.capacity() <= RECYCLED_MAX_BYTES {
        buffer.clear();
        SPARE_OUTPUT.set(buffer);
    }
}

/// One of the slot's output pipes and the bytes kept from it.
pub(super) struct Capture<'a> {
    pipe: Option<BorrowedFd<'a>>,
    buffer: Vec<u8>,
    cap: usize,
    /// While the output matches the expected file so far: the file and what matched. The
    /// buffer stays empty then.
    matching: Option<(File, MatchedStart)>,
    /// The output was the expected file's bytes exactly; nothing of it was kept.
    pub matched_expected: bool,
    /// The buffer holds the output from `matched.bytes` on; the bytes before matched and
    /// were not kept.
    pub matched: MatchedStart,
    /// Past the cap, the last bytes too (`Capture::with_tail`).
    tail: Option<Tail>,
}

/// The last `cap` bytes of an output past its cap, and how many before them were left out.
#[derive(Default)]
struct Tail {
    bytes: Vec<u8>,
    left_out: u64,
}

impl Tail {
    fn keep(&mut self, more: &[u8], cap: usize) {
        self.bytes.extend_from_slice(more);
        // Cut once it holds twice the cap, so each byte is moved at most once.
        if self.bytes.len() > 2 * cap {
            self.cut(cap);
        }
    }

    fn cut(&mut self, cap: usize) {
        let cut = self.bytes.len().saturating_sub(cap);
        self.bytes.drain(..cut);
        self.left_out += cut as u64;
    }
}

impl<'a> Capture<'a> {
    pub(super) fn new(fd: BorrowedFd<'a>, cap: usize) -> Self {
        Capture {
            pipe: Some(fd),
            buffer: Vec::new(),
            cap,
            matching: None,
            matched_expected: false,
            matched: MatchedStart::default(),
            tail: None,
        }
    }

    /// Keeps the first `cap` bytes and the last `cap`, as a long stderr has its first
    /// compiler error at the start and a program's last words (a panic, a function-form
    /// caller's call times) at the end.
    pub(super) fn with_tail(fd: BorrowedFd<'a>, cap: usize) -> Self {
        Capture {
            tail: Some(Tail::default()),
            ..Capture::new(fd, cap)
        }
    }

    /// Stdout, in the recycled buffer, compared with `expected` as it arrives (one that
    /// cannot be opened leaves the comparison to the caller).
    pub(super) fn output(fd: BorrowedFd<'a>, cap: usize, expected: Option<&Path>) -> Self {
        let mut capture = Capture::new(fd, cap);
        capture.buffer = SPARE_OUTPUT.take();
        capture.matching = expected
            .and_then(|path| File::open(path).ok())
            .map(|file| (file, MatchedStart::default()));
        capture
    }

    /// The stream was lent to the program.
    pub(super) fn closed() -> Self {
        Capture {
            pipe: None,
            buffer: Vec::new(),
            cap: 0,
            matching: None,
            matched_expected: false,
            matched: MatchedStart::default(),
            tail: None,
        }
    }

    pub(super) fn is_open(&self) -> bool {
        self.pipe.is_some()
    }

    pub(super) fn fd(&self) -> Option<BorrowedFd<'a>> {
        self.pipe
    }

    pub(super) fn raw_fd(&self) -> Option<RawFd> {
        self.pipe.as_ref().map(AsRawFd::as_raw_fd)
    }

    /// The bytes kept; with a tail, a line between the first and the last says how many
    /// were left out.
    pub(super) fn into_buffer(mut self) -> Vec<u8> {
        if let Some(mut tail) = self.tail.take().filter(|tail| !tail.bytes.is_empty()) {
            tail.cut(self.cap);
            if tail.left_out > 0 {
                let gap = format!("\n[... {} bytes left out ...]\n", tail.left_out);
                self.buffer.extend_from_slice(gap.as_bytes());
            }
            self.buffer.extend_from_slice(&tail.bytes);
        }
        self.buffer
    }

    /// Reads what is ready; true when the cap was passed.
    pub(super) fn read_some(&mut self) -> io::Result<bool> {
        self.read_step(false)
    }

    /// Once every writer has gone: an empty pipe is the end. True when the cap was passed.
    pub(super) fn read_to_end(&mut self) -> io::Result<bool> {
        let mut passed = false;
        while self.is_open() {
            passed |= self.read_step(true)?;
        }
        Ok(passed)
    }

    /// One read; with `empty_is_end`, a pipe with nothing in it has ended.
    fn read_step(&mut self, empty_is_end: bool) -> io::Result<bool> {
        if self.matching.is_some() {
            return CHUNKS
                .with_borrow_mut(|(got, want)| self.read_matching(got, want, empty_is_end));
        }
        let Some(pipe) = self.pipe else {
            return Ok(false);
        };
        let room = self.cap - self.matched.bytes - self.buffer.len();
        let result = if room > 0 {
            // Grows by doubling (at least a chunk), never past the cap.
            let want = CHUNK.max(self.buffer.len()).min(room);
            if self.buffer.capacity() - self.buffer.len() < want.min(CHUNK) {
                self.buffer.reserve(want);
            }
            let before = self.buffer.len();
            let read = rustix::io::read(pipe, rustix::buffer::spare_capacity(&mut self.buffer));
            // The spare room may exceed the cap.
            self.buffer.truncate(before + room);
            read
        } else {
            // Past the cap: read to discard, or to keep the last bytes.
            let mut sink = [0u8; 16 * 1024];
            let read = rustix::io::read(pipe, &mut sink);
            if let (Ok(count), Some(tail)) = (&read, &mut self.tail) {
                tail.keep(&sink[..*count], self.cap);
            }
            read
        };
        let Some(count) = read_count(result, empty_is_end)? else {
            return Ok(false);
        };
        if count == 0 {
            self.pipe = None;
        }
        Ok(count > room)
    }

    /// `read_step` while the output matches the expected file.
    fn read_matching(
        &mut self,
        got: &mut [u8],
        want: &mut [u8],
        empty_is_end: bool,
    ) -> io::Result<bool> {
        let pipe = self.pipe.expect("matching only while the pipe is open");
        let Some(count) = read_count(rustix::io::read(pipe, &mut *got), empty_is_end)? else {
            return Ok(false);
        };
        let (file, matched) = self.matching.as_mut().expect("checked by the caller");
        if count == 0 {
            self.pipe = None;
            // The output ended: it is the expected file only if that ends here too.
            self.matched_expected = !fill_from(file, &mut want[..1])?;
            self.stop_matching();
            return Ok(false);
        }
        let chunk = &got[..count];
        if matched.bytes + count <= self.cap
            && fill_from(file, &mut want[..count])?
            && want[..count] == *chunk
        {
            matched.feed(chunk);
            return Ok(false);
        }
        // A difference (or the cap): from here on the output is kept.
        self.stop_matching();
        let room = self.cap - self.matched.bytes;
        self.buffer.extend_from_slice(&chunk[..count.min(room)]);
        Ok(count > room)
    }

    fn stop_matching(&mut self) {
        if let Some((_, matched)) = self.matching.take() {
            self.matched = matched;
        }
    }
}

/// False when the file ends first.
fn fill_from(file: &mut File, buffer: &mut [u8]) -> io::Result<bool> {
    match io::Read::read_exact(file, buffer) {
        Ok(()) => Ok(true),
        Err(error) if error.kind() == io::ErrorKind::UnexpectedEof => Ok(false),
        Err(error) => Err(error),
    }
}

/// How many bytes a read gave (0 at the end), or `None` for none now.
fn read_count(result: rustix::io::Result<usize>, empty_is_end: bool) -> io::Result<Option<usize>> {
    match result {
        Ok(count) => Ok(Some(count)),
        Err(rustix::io::Errno::AGAIN) if empty_is_end => Ok(Some(0)),
        Err(rustix::io::Errno::INTR) | Err(rustix::io::Errno::AGAIN) => Ok(None),
        Err(error) => Err(error.into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::fd::AsFd;

    /// What a capture of `output`, compared with a file holding `expected`, keeps: (the
    /// output from the byte it kept first on, whether it matched, whether the cap was
    /// passed). The bytes it did not keep must be the expected ones.
    fn capture(output: &[u8], expected: &[u8], cap: usize) -> (Vec<u8>, bool, bool) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("expected");
        std::fs::write(&path, expected).unwrap();
        let (reader, writer) = rustix::pipe::pipe().unwrap();
        rustix::fs::fcntl_setfl(&reader, rustix::fs::OFlags::NONBLOCK).unwrap();
        // The supervisor keeps a writing end open: the output ends when the run does, not
        // when the pipe does.
        let _held = writer.try_clone().unwrap();
        let output = output.to_vec();
        let writing = std::thread::spawn(move || {
            let mut writer = File::from(writer);
            // Small writes, so that chunks end at odd places.
            for piece in output.chunks(7_777) {
                std::io::Write::write_all(&mut writer, piece).unwrap();
            }
        });
        let mut capture = Capture::output(reader.as_fd(), cap, Some(&path));
        let mut passed = false;
        while !writing.is_finished() {
            let mut fds = [rustix::event::PollFd::new(
                &reader,
                rustix::event::PollFlags::IN,
            )];
            let wait = rustix::time::Timespec {
                tv_sec: 0,
                tv_nsec: 10_000_000,
            };
            let _ = rustix::event::poll(&mut fds, Some(&wait));
            passed |= capture.read_some().unwrap();
        }
        writing.join().unwrap();
        passed |= capture.read_to_end().unwrap();
        let (matched, offset) = (capture.matched_expected, capture.matched.bytes);
        // What the report needs of the part not kept, counted as it streamed.
        let start = &expected[..offset];
        assert_eq!(
            (capture.matched.line_breaks, capture.matched.last_hash),
            (
                start.iter().filter(|&&b| b == b'\n').count(),
                start.iter().rposition(|&b| b == b'#')
            )
        );
        let mut whole = expected[..offset].to_vec();
        whole.extend(capture.into_buffer());
        (if matched { Vec::new() } else { whole }, matched, passed)
    }

    fn text(length: usize) -> Vec<u8> {
        (0..length).map(|i| b"ab#defgh\n"[i % 9]).collect()
    }

    #[test]
    fn a_long_stderr_keeps_its_start_and_its_end_and_says_how_much_is_left_out() {
        let (reader, writer) = rustix::pipe::pipe().unwrap();
        rustix::fs::fcntl_setfl(&reader, rustix::fs::OFlags::NONBLOCK).unwrap();
        let output = text(300_000);
        let sent = output.clone();
        let writing = std::thread::spawn(move || {
            std::io::Write::write_all(&mut File::from(writer), &sent).unwrap();
        });
        let mut capture = Capture::with_tail(reader.as_fd(), 1000);
        while !writing.is_finished() {
            capture.read_some().unwrap();
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        writing.join().unwrap();
        capture.read_to_end().unwrap();
        let gap = format!("\n[... {} bytes left out ...]\n", 300_000 - 2 * 1000);
        let expected = [&output[..1000], gap.as_bytes(), &output[300_000 - 1000..]].concat();
        assert_eq!(capture.into_buffer(), expected);
    }

    #[test]
    fn an_output_that_matches_is_not_kept() {
        let output = text(300_000);
        assert_eq!(
            capture(&output, &output, 1 << 20),
            (Vec::new(), true, false)
        );
        assert_eq!(capture(b"", b"", 1 << 20), (Vec::new(), true, false));
    }

    #[test]
    fn an_output_that_differs_late_is_kept_whole() {
        let expected = text(300_000);
        let mut output = expected.clone();
        output[200_001] = b'X';
        assert_eq!(capture(&output, &expected, 1 << 20), (output, false, false));
    }

    #[test]
    fn an_output_that_ends_early_or_goes_on_is_kept_whole() {
        let expected = text(300_000);
        let short = expected[..150_000].to_vec();
        assert_eq!(
            capture(&short, &expected, 1 << 20),
            (short.clone(), false, false)
        );
        assert_eq!(
            capture(&expected, &short, 1 << 20),
            (expected, false, false)
        );
    }

    #[test]
    fn an_output_that_matches_past_the_cap_is_kept_up_to_it() {
        let output = text(300_000);
        assert_eq!(
            capture(&output, &output, 100_000),
            (output[..100_000].to_vec(), false, true)
        );
    }
}
