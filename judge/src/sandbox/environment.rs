//! What a program gets from the judge's environment, and where a bare command name is found.

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

/// The variables a program gets from the judge's environment; toolchains need these.
const INHERITED_ENV: [&str; 4] = ["PATH", "HOME", "LANG", "JAVA_HOME"];

/// The variables a program gets from the judge's environment (read once: it does not change
/// while the judge runs).
pub fn inherited_env() -> impl Iterator<Item = (&'static str, &'static OsStr)> {
    static INHERITED: OnceLock<Vec<(&'static str, OsString)>> = OnceLock::new();
    INHERITED
        .get_or_init(|| {
            INHERITED_ENV
                .iter()
                .filter_map(|&key| Some((key, std::env::var_os(key)?)))
                .collect()
        })
        .iter()
        .map(|(key, value)| (*key, value.as_os_str()))
}

/// A bare command name found on PATH: `execve` does not search. Searched once per name and
/// judge run (a search is a file status per folder of PATH, and PATH does not change).
pub fn find_on_path(program: &OsStr) -> OsString {
    let path = Path::new(program);
    if path.components().count() > 1 {
        return program.to_owned();
    }
    static FOUND: Mutex<Vec<(OsString, OsString)>> = Mutex::new(Vec::new());
    let mut found = FOUND
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some((_, full)) = found.iter().find(|(name, _)| name == program) {
        return full.clone();
    }
    let full = std::env::var_os("PATH")
        .and_then(|paths| {
            std::env::split_paths(&paths)
                .map(|dir| dir.join(path))
                .find(|candidate| candidate.is_file())
        })
        .map_or_else(|| program.to_owned(), PathBuf::into_os_string);
    found.push((program.to_owned(), full.clone()));
    full
}
