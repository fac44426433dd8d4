//! Writing into the user's tree safely: every file is written to a temporary sibling
//! (`.judge-*.tmp`) and renamed into place, so a reader never sees a part. A new file gets
//! the mode the umask gives; a rewritten one keeps its mode. Multi-file changes are
//! `corpus::transaction`'s business.

use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use rustix::fs::RenameFlags;
use rustix::io::Errno;

use crate::error::{if_exists, Error, Result};

/// Every temporary file beside a user's files: a dot name without a case extension, so that
/// discovery never takes it for a case and a later command can sweep it.
pub const TEMP_PREFIX: &str = ".judge-";
pub const TEMP_SUFFIX: &str = ".tmp";

pub fn is_temp_name(name: &str) -> bool {
    name.starts_with(TEMP_PREFIX) && name.ends_with(TEMP_SUFFIX)
}

pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    stage_and_place(path, bytes, Replace::Yes)
}

/// Creates the file only if it does not exist yet (no race with another writer).
pub fn create_new(path: &Path, bytes: &[u8]) -> Result<()> {
    stage_and_place(path, bytes, Replace::No)
}

fn stage_and_place(path: &Path, bytes: &[u8], replace: Replace) -> Result<()> {
    let staged = stage(path, bytes)?;
    let (_, temp) = staged.into_parts();
    place(&temp, path, replace)?;
    temp.keep().map_err(|error| Error::io(path, error.error))?;
    Ok(())
}

/// For the judge's own cache: left out of the interruption tests' rename count (below), so
/// that a cold cache shifts no count.
pub fn write_cache(path: &Path, bytes: &[u8]) -> Result<()> {
    persist(stage(path, bytes)?, path)
}

/// `staged` renamed to `path`, without counting as a change in the user's tree.
fn persist(staged: tempfile::NamedTempFile, path: &Path) -> Result<()> {
    staged
        .persist(path)
        .map(drop)
        .map_err(|error| Error::io(path, error.error))
}

/// For a report (the last run's, a shard's `--json`): atomic but not synced, as a power cut
/// costs only a re-run. An existing report is swapped with the new one, not renamed over:
/// ext4 writes out a file renamed over another at the rename (`auto_da_alloc`), which every
/// run's end would wait for (docs/performance.md).
pub fn write_record(path: &Path, bytes: &[u8]) -> Result<()> {
    let staged = staged(path, bytes, false)?;
    let is_file = std::fs::symlink_metadata(path).is_ok_and(|metadata| metadata.is_file());
    let swapped = is_file.then(|| rename_with(staged.path(), path, RenameFlags::EXCHANGE));
    match swapped {
        // Dropping `staged` removes the old report, now under the temporary name.
        Some(Ok(())) => Ok(()),
        // No report yet, not a file (a folder there stays an error), or a file system that
        // cannot swap: a plain rename.
        _ => persist(staged, path),
    }
}

/// For the judge's cached last report: the bytes go in place into a spare kept beside it
/// (`.NAME.spare`), and the two are swapped, since on ext4 making a temporary file and freeing
/// the old one's blocks cost more (docs/performance.md). Writers hold the spare's lock and
/// readers the record's (`read_locked`), so nobody reads a file another judge writes. Falls
/// back to `write_record`.
pub fn write_cache_record(path: &Path, bytes: &[u8]) -> Result<()> {
    write_through_spare(path, bytes).or_else(|_| write_record(path, bytes))
}

fn write_through_spare(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::os::unix::fs::{FileExt, MetadataExt, OpenOptionsExt};
    let name = path.file_name().ok_or(std::io::ErrorKind::InvalidInput)?;
    let mut spare_name = std::ffi::OsString::from(".");
    spare_name.push(name);
    spare_name.push(".spare");
    let spare = path.with_file_name(spare_name);
    let same =
        |a: &std::fs::Metadata, b: &std::fs::Metadata| (a.dev(), a.ino()) == (b.dev(), b.ino());
    let file = loop {
        let file = std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .mode(0o666)
            .custom_flags(libc::O_NOFOLLOW)
            .open(&spare)?;
        rustix::fs::flock(&file, rustix::fs::FlockOperation::LockExclusive)?;
        // Another judge may have swapped this file in as the record while this one waited.
        match std::fs::symlink_metadata(&spare) {
            Ok(named) if same(&file.metadata()?, &named) => break file,
            Ok(_) => {}
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {}
            Err(error) => return Err(error),
        }
    };
    file.write_all_at(bytes, 0)?;
    file.set_len(bytes.len() as u64)?;
    match std::fs::symlink_metadata(path) {
        Ok(record) if record.is_file() => rename_with(&spare, path, RenameFlags::EXCHANGE)?,
        // The first record: the spare becomes it, and the next write makes a spare anew.
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            std::fs::rename(&spare, path)?
        }
        Ok(_) => return Err(std::io::ErrorKind::InvalidInput.into()),
        Err(error) => return Err(error),
    }
    Ok(())
}

/// Reads a record whole, holding its lock: a file `write_cache_record` swapped out is not
/// written again while it is being read.
pub fn read_locked(path: &Path) -> std::io::Result<String> {
    use std::io::Read;
    let mut file = std::fs::File::open(path)?;
    let _ = rustix::fs::flock(&file, rustix::fs::FlockOperation::LockShared);
    let mut text = String::new();
    file.read_to_string(&mut text)?;
    Ok(text)
}

/// Writes `bytes` to a new temporary sibling of `path`, synced to disk, with the mode `path`
/// has (when it exists) or the umask gives. Dropping the result removes the file.
pub fn stage(path: &Path, bytes: &[u8]) -> Result<tempfile::NamedTempFile> {
    staged(path, bytes, true)
}

fn staged(path: &Path, bytes: &[u8], sync: bool) -> Result<tempfile::NamedTempFile> {
    let dir = parent(path);
    std::fs::create_dir_all(&dir).map_err(|error| Error::io(&dir, error))?;
    let existing = match std::fs::metadata(path) {
        Ok(metadata) if metadata.is_file() => Some(metadata.permissions()),
        _ => None,
    };
    // 0666 and the umask, as for any file a program creates (tempfile's default is 0600).
    let mut file = tempfile::Builder::new()
        .prefix(TEMP_PREFIX)
        .suffix(TEMP_SUFFIX)
        .permissions(std::fs::Permissions::from_mode(0o666))
        .tempfile_in(&dir)
        .map_err(|error| Error::io(&dir, error))?;
    if let Some(permissions) = existing {
        // Set exactly, umask aside: a rewrite must not change who may read the file.
        file.as_file()
            .set_permissions(permissions)
            .map_err(|error| Error::io(path, error))?;
    }
    file.write_all(bytes)
        .and_then(|()| match sync {
            true => file.as_file().sync_all(),
            false => Ok(()),
        })
        .map_err(|error| Error::io(path, error))?;
    Ok(file)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Replace {
    Yes,
    No,
}

/// Renames `from` to `to` (same folder or at least the same file system). With `Replace::No`
/// an existing `to` is an error and is left as it is.
pub fn place(from: &Path, to: &Path, replace: Replace) -> Result<()> {
    let renamed = match replace {
        Replace::Yes => std::fs::rename(from, to),
        Replace::No => rename_noreplace(from, to),
    };
    renamed.map_err(|error| Error::io(to, error))?;
    after_change();
    Ok(())
}

/// Removes a file the caller has proved is the judge's; one already gone is no error.
pub fn remove(path: &Path) -> Result<()> {
    if_exists(path, std::fs::remove_file)?;
    after_change();
    Ok(())
}

fn rename_noreplace(from: &Path, to: &Path) -> std::io::Result<()> {
    match rename_with(from, to, RenameFlags::NOREPLACE) {
        // File systems without RENAME_NOREPLACE: a hard link fails as well on an existing name.
        Err(error) if error == Errno::INVAL || error == Errno::NOSYS => {
            std::fs::hard_link(from, to)?;
            std::fs::remove_file(from)
        }
        renamed => Ok(renamed?),
    }
}

/// `renameat2`: `EXCHANGE` swaps the two names, `NOREPLACE` refuses an existing `to`.
fn rename_with(from: &Path, to: &Path, flags: RenameFlags) -> rustix::io::Result<()> {
    rustix::fs::renameat_with(rustix::fs::CWD, from, rustix::fs::CWD, to, flags)
}

fn parent(path: &Path) -> PathBuf {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// For interruption tests only: `JUDGE_TEST_STOP_AFTER_RENAMES=K` signals the judge right
/// after its K-th rename or removal in the user's tree; `SIGINT` unless
/// `JUDGE_TEST_STOP_SIGNAL` is `SIGKILL` (a death no handler sees, as a power cut) or `SIGTERM`.
pub const TEST_STOP_AFTER_RENAMES: &str = "JUDGE_TEST_STOP_AFTER_RENAMES";
pub const TEST_STOP_SIGNAL: &str = "JUDGE_TEST_STOP_SIGNAL";

static CHANGES: AtomicU64 = AtomicU64::new(0);

fn after_change() {
    let count = CHANGES.fetch_add(1, Ordering::SeqCst) + 1;
    let stop_at = std::env::var(TEST_STOP_AFTER_RENAMES)
        .ok()
        .and_then(|k| k.parse::<u64>().ok());
    if stop_at != Some(count) {
        return;
    }
    let signal = match std::env::var(TEST_STOP_SIGNAL).as_deref() {
        Ok("SIGKILL") => libc::SIGKILL,
        Ok("SIGTERM") => libc::SIGTERM,
        _ => libc::SIGINT,
    };
    // Process-directed, as a Ctrl-C from the terminal is: any thread may receive it.
    // SAFETY: kill has no memory-safety preconditions.
    unsafe {
        libc::kill(libc::getpid(), signal);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn mode(path: &Path) -> u32 {
        std::fs::metadata(path).unwrap().permissions().mode() & 0o777
    }

    fn names_in(dir: &Path) -> Vec<std::ffi::OsString> {
        std::fs::read_dir(dir)
            .unwrap()
            .map(|entry| entry.unwrap().file_name())
            .collect()
    }

    /// Writes `path` twice with `write`: the second content is there, and nothing else is.
    fn assert_rewritten(write: fn(&Path, &[u8]) -> Result<()>, path: &Path) {
        write(path, b"1\n").unwrap();
        write(path, b"2\n").unwrap();
        assert_eq!(std::fs::read(path).unwrap(), b"2\n");
        let name = path.file_name().unwrap();
        assert_eq!(
            names_in(path.parent().unwrap()),
            [name],
            "no temporary file is left"
        );
    }

    #[test]
    fn atomic_write_replaces_and_leaves_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        assert_rewritten(write_atomically, &dir.path().join("a/b.out"));
    }

    #[test]
    fn a_record_rewritten_is_swapped_in_and_a_folder_in_its_place_is_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        assert_rewritten(write_record, &dir.path().join("last-run.json"));
        let folder = dir.path().join("report.json");
        std::fs::create_dir(&folder).unwrap();
        std::fs::write(folder.join("mine"), b"kept").unwrap();
        assert!(write_record(&folder, b"x").is_err());
        assert_eq!(std::fs::read(folder.join("mine")).unwrap(), b"kept");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
    }

    /// A cache record `last-run.json` in a new folder, written with each of `contents` in turn.
    fn cache_record_written(contents: &[&[u8]]) -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let record = dir.path().join("last-run.json");
        for bytes in contents {
            write_cache_record(&record, bytes).unwrap();
        }
        (dir, record)
    }

    #[test]
    fn a_cache_record_is_swapped_with_its_spare_and_never_read_in_part() {
        let (dir, record) = cache_record_written(&[b"first\n", b"second, longer\n", b"3\n"]);
        assert_eq!(std::fs::read(&record).unwrap(), b"3\n");
        let mut names = names_in(dir.path());
        names.sort();
        assert_eq!(names, [".last-run.json.spare", "last-run.json"]);
        // Writers at once, and a reader: every read is one writer's record, whole.
        let records: Vec<Vec<u8>> = (0..4u8)
            .map(|k| vec![b'a' + k; 1 + 5000 * k as usize])
            .collect();
        std::thread::scope(|scope| {
            for bytes in &records {
                let record = &record;
                scope.spawn(move || {
                    for _ in 0..100 {
                        write_cache_record(record, bytes).unwrap();
                    }
                });
            }
            for _ in 0..400 {
                let text = read_locked(&record).unwrap().into_bytes();
                assert!(
                    records.contains(&text) || text == b"3\n",
                    "a record read in part: {} bytes",
                    text.len()
                );
            }
        });
        assert_eq!(names_in(dir.path()).len(), 2, "no temporary file is left");
    }

    #[test]
    fn a_record_being_read_is_not_written_again_until_it_is_read() {
        let (_dir, record) = cache_record_written(&[b"A", b"B"]);
        // A reader holds B; the next write swaps B out, and the one after would write into it.
        let held = std::fs::File::open(&record).unwrap();
        rustix::fs::flock(&held, rustix::fs::FlockOperation::LockShared).unwrap();
        std::thread::scope(|scope| {
            let writer = scope.spawn(|| {
                write_cache_record(&record, b"C").unwrap();
                write_cache_record(&record, b"D").unwrap();
            });
            std::thread::sleep(std::time::Duration::from_millis(100));
            assert_eq!(
                std::fs::read_to_string(format!(
                    "/proc/self/fd/{}",
                    std::os::fd::AsRawFd::as_raw_fd(&held)
                ))
                .unwrap(),
                "B"
            );
            rustix::fs::flock(&held, rustix::fs::FlockOperation::Unlock).unwrap();
            writer.join().unwrap();
        });
        assert_eq!(std::fs::read(&record).unwrap(), b"D");
    }

    #[test]
    fn create_new_never_overwrites() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.in");
        create_new(&path, b"mine\n").unwrap();
        assert!(create_new(&path, b"other\n").is_err());
        assert_eq!(std::fs::read(&path).unwrap(), b"mine\n");
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 1, "the refused file's temporary is gone");
    }

    #[test]
    fn new_files_follow_the_umask_and_rewrites_keep_their_mode() {
        // The umask is the process's: read it without changing it for long.
        // SAFETY: umask has no preconditions; the old value is put back at once.
        let umask = unsafe {
            let old = libc::umask(0o022);
            libc::umask(old);
            old
        } as u32;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("new.out");
        write_atomically(&path, b"1\n").unwrap();
        assert_eq!(mode(&path), 0o666 & !umask);
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o664)).unwrap();
        write_atomically(&path, b"2\n").unwrap();
        assert_eq!(mode(&path), 0o664, "a rewrite keeps the mode");
        let created = dir.path().join("created.in");
        create_new(&created, b"x\n").unwrap();
        assert_eq!(mode(&created), 0o666 & !umask);
    }
}
