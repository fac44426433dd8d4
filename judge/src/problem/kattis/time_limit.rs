//! A package that states no time limit: `judge verify` derives one from its accepted
//! submissions and keeps it in the build cache, where `judge run` and `judge watch` find it.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::problem::Problem;
use crate::problem::TIME_LIMIT_MS;

/// Named by the package's absolute path.
fn derived_limit_file(cache_dir: &Path, dir: &Path) -> PathBuf {
    let absolute = std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf());
    let key = blake3::hash(absolute.as_os_str().as_encoded_bytes());
    cache_dir.join("time-limits").join(&key.to_hex()[..32])
}

/// Only a convenience for `run`: failing to write it is not an error.
pub fn remember_time_limit(cache_dir: &Path, dir: &Path, limit: Duration) {
    let file = derived_limit_file(cache_dir, dir);
    if let Some(parent) = file.parent() {
        let _ = std::fs::create_dir_all(parent);
    }
    let _ = crate::atomic_write::write_cache(&file, limit.as_millis().to_string().as_bytes());
}

pub fn remembered_time_limit(cache_dir: &Path, dir: &Path) -> Option<Duration> {
    let text = std::fs::read_to_string(derived_limit_file(cache_dir, dir)).ok()?;
    let millis: u64 = text.trim().parse().ok()?;
    TIME_LIMIT_MS
        .contains(&millis)
        .then(|| Duration::from_millis(millis))
}

/// For `run` and `watch`, of a package that states no time limit: it runs under the one
/// `verify` derived, else the default, and says which.
pub fn apply_time_limit(problem: &mut Problem, cache_dir: &Path) {
    match remembered_time_limit(cache_dir, &problem.dir) {
        Some(limit) => {
            problem.limits.cpu_time = limit;
            eprintln!(
                "note: {}: the package states no time limit: {} s, as the last `judge verify` derived it",
                problem.id,
                limit.as_secs_f64()
            );
        }
        None => eprintln!(
            "note: {}: the package states no time limit: the default {} s (run `judge verify` to derive one from its accepted submissions)",
            problem.id,
            problem.limits.cpu_time.as_secs_f64()
        ),
    }
}
