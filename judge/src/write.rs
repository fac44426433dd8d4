//! Writing into the user's tree safely: every file is written to a temporary sibling and
//! renamed into place, a case's two files are put in place with interrupts held off, and
//! nothing is ever written over a file unless the caller has proved the judge wrote it.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

/// Writes `bytes` to `path` atomically: readers see the old file or the new one, never a part.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    let staged = stage(path, bytes)?;
    staged
        .persist(path)
        .map_err(|error| Error::io(path, error.error))?;
    Ok(())
}

/// A case's input and expected output, written as a pair.
pub struct CaseFiles<'a> {
    pub input: (&'a Path, &'a [u8]),
    pub expected: (&'a Path, &'a [u8]),
    /// Whether existing files may be replaced (the caller has proved the judge wrote them).
    pub overwrite: bool,
}

/// Writes both files of a case. Both are staged first; the two renames then happen with
/// SIGINT, SIGTERM and SIGHUP held off, so that an interrupted command never leaves an input
/// without its answer or the reverse.
pub fn write_case(files: CaseFiles) -> Result<()> {
    let input = stage(files.input.0, files.input.1)?;
    let expected = stage(files.expected.0, files.expected.1)?;
    let _held = InterruptsHeld::new();
    let place = |staged: tempfile::NamedTempFile, path: &Path| {
        let placed = if files.overwrite {
            staged.persist(path)
        } else {
            staged.persist_noclobber(path)
        };
        placed
            .map(drop)
            .map_err(|error| Error::io(path, error.error))
    };
    place(expected, files.expected.0)?;
    if let Err(error) = place(input, files.input.0) {
        if !files.overwrite {
            // The answer was placed just now by us: take it back rather than leave it alone.
            let _ = std::fs::remove_file(files.expected.0);
        }
        return Err(error);
    }
    Ok(())
}

/// Creates the file only if it does not exist yet (no race with another writer).
pub fn create_new(path: &Path, bytes: &[u8]) -> Result<()> {
    let staged = stage(path, bytes)?;
    staged
        .persist_noclobber(path)
        .map_err(|error| Error::io(path, error.error))?;
    Ok(())
}

fn stage(path: &Path, bytes: &[u8]) -> Result<tempfile::NamedTempFile> {
    let dir = parent(path);
    std::fs::create_dir_all(&dir).map_err(|error| Error::io(&dir, error))?;
    // A dot name without a case extension: discovery never mistakes it for a case.
    let mut file = tempfile::Builder::new()
        .prefix(".judge-")
        .suffix(".tmp")
        .tempfile_in(&dir)
        .map_err(|error| Error::io(&dir, error))?;
    file.write_all(bytes)
        .and_then(|()| file.as_file().sync_all())
        .map_err(|error| Error::io(path, error))?;
    Ok(file)
}

fn parent(path: &Path) -> PathBuf {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Blocks the interrupting signals for this thread while alive; pending ones are delivered
/// when it is dropped.
struct InterruptsHeld {
    previous: libc::sigset_t,
}

impl InterruptsHeld {
    fn new() -> Self {
        // SAFETY: sigset_t is plain data initialised by sigemptyset before use.
        unsafe {
            let mut set: libc::sigset_t = std::mem::zeroed();
            let mut previous: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut set);
            for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
                libc::sigaddset(&mut set, signal);
            }
            libc::pthread_sigmask(libc::SIG_BLOCK, &set, &mut previous);
            InterruptsHeld { previous }
        }
    }
}

impl Drop for InterruptsHeld {
    fn drop(&mut self) {
        // SAFETY: restores the mask saved in `new`.
        unsafe {
            libc::pthread_sigmask(libc::SIG_SETMASK, &self.previous, std::ptr::null_mut());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atomic_write_replaces_and_leaves_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a/b.out");
        write_atomically(&path, b"1\n").unwrap();
        write_atomically(&path, b"2\n").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"2\n");
        let names: Vec<_> = std::fs::read_dir(dir.path().join("a"))
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["b.out"]);
    }

    #[test]
    fn create_new_never_overwrites() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.in");
        create_new(&path, b"mine\n").unwrap();
        assert!(create_new(&path, b"other\n").is_err());
        assert_eq!(std::fs::read(&path).unwrap(), b"mine\n");
    }
}
