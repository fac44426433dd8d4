//! Keeping the supervisor's own memory out of the programs' figures.
//!
//! At `execve` the kernel folds the high-water mark of the memory being left (with
//! `CLONE_VM`, the supervisor's) into the new program's `ru_maxrss`. As its last steps before
//! `execve`, the child (still in the supervisor's memory) therefore lets go of the pages that
//! can be read back from their files for free (code and read-only data, nothing written) and
//! resets the mark to what is left (`clear_refs` 5), a few hundred KiB: the program's peak is
//! then its own. Done in the child, so that no code runs between that and the exec.

/// The supervisor's regions that can be dropped and read back from their files.
pub struct Footprint {
    regions: Vec<(usize, usize)>,
    clear_refs: Option<std::fs::File>,
}

impl Footprint {
    /// Reads the supervisor's mappings once: after start-up, read-only mappings never gain
    /// written pages.
    pub fn new() -> Footprint {
        let smaps = std::fs::read_to_string("/proc/self/smaps").unwrap_or_default();
        let mut regions = Vec::new();
        let mut current: Option<(usize, usize)> = None;
        for line in smaps.lines() {
            if let Some(region) = mapping(line) {
                current = region;
            } else if let Some(anonymous) = line.strip_prefix("Anonymous:") {
                // A read-only mapping with written pages (relocations made at load time)
                // would lose them: only untouched ones are dropped.
                if let (Some(region), Some("0")) =
                    (current.take(), anonymous.split_whitespace().next())
                {
                    regions.push(region);
                }
            }
        }
        Footprint {
            regions,
            clear_refs: std::fs::OpenOptions::new()
                .write(true)
                .open("/proc/self/clear_refs")
                .ok(),
        }
    }

    /// The regions to drop: (start address, length).
    pub fn regions(&self) -> &[(usize, usize)] {
        &self.regions
    }

    /// `/proc/self/clear_refs`, open for writing, if the kernel has it.
    pub fn clear_refs(&self) -> Option<std::os::fd::BorrowedFd<'_>> {
        use std::os::fd::AsFd;
        self.clear_refs.as_ref().map(|file| file.as_fd())
    }
}

/// For a mapping's header line in `smaps`: `Some(Some(region))` when it is a read-only private
/// mapping of a file, `Some(None)` for any other mapping; `None` for the other lines.
fn mapping(line: &str) -> Option<Option<(usize, usize)>> {
    let mut fields = line.split_whitespace();
    let (range, permissions) = (fields.next()?, fields.next()?);
    let (start, end) = range.split_once('-')?;
    let (start, end) = (
        usize::from_str_radix(start, 16).ok()?,
        usize::from_str_radix(end, 16).ok()?,
    );
    if permissions.len() != 4 {
        return None;
    }
    let path = fields.nth(3).unwrap_or("");
    let droppable =
        !permissions.contains('w') && permissions.ends_with('p') && path.starts_with('/');
    Some(droppable.then_some((start, end - start)))
}
