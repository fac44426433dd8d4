//! The command that judges a problem (or one case of it) again, as a person types it.

use std::path::Path;

use crate::problem::{Problem, Repository};

/// As typed where the judge was run: an id works anywhere inside the repository, and from
/// outside it with `--root`; paths are from the current folder.
pub fn rerun_command(
    repository: &Repository,
    problem: &Problem,
    solution: &Path,
    case: Option<&str>,
) -> String {
    let current = std::env::current_dir().and_then(std::fs::canonicalize);
    let here = |path: &Path| match &current {
        Ok(current) => from(current, path),
        Err(_) => path.display().to_string(),
    };
    let by_id = repository.problems_dir().join(&problem.id) == problem.dir;
    let target = match by_id {
        true => problem.id.clone(),
        false => here(&problem.dir),
    };
    let mut words = vec!["judge".to_owned()];
    let inside = (current.as_ref()).is_ok_and(|current| current.starts_with(&repository.root));
    if !inside && !repository.standalone {
        words.push("--root".into());
        words.push(shell_word(&repository.root.display().to_string()));
    }
    words.extend(["run".to_owned(), shell_word(&target)]);
    if solution != problem.solution {
        words.push("--solution".into());
        words.push(shell_word(&here(solution)));
    }
    if let Some(case) = case {
        words.push("--case".into());
        words.push(shell_word(case));
    }
    words.join(" ")
}

/// `path` as typed from `current`: below it plainly, near it by `..`, else whole; `.` for
/// the folder itself.
fn from(current: &Path, path: &Path) -> String {
    let path = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    let shared = current.ancestors().find(|above| path.starts_with(above));
    let Some(shared) = shared.filter(|shared| shared.parent().is_some()) else {
        return path.display().to_string();
    };
    let ups = current
        .strip_prefix(shared)
        .map_or(0, |rest| rest.components().count());
    let mut relative = std::path::PathBuf::from_iter(std::iter::repeat_n("..", ups));
    relative.push(path.strip_prefix(shared).unwrap_or(&path));
    match relative.as_os_str().is_empty() {
        true => ".".to_owned(),
        false => relative.display().to_string(),
    }
}

/// `text` as one shell word: quoted only when it has to be.
fn shell_word(text: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "-_./:=+@%,".contains(c);
    if !text.is_empty() && text.chars().all(plain) {
        text.to_owned()
    } else {
        format!("'{}'", text.replace('\'', "'\\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::from;
    use std::path::Path;

    #[test]
    fn a_path_is_told_from_the_current_folder() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        for folder in ["a/b", "c"] {
            std::fs::create_dir_all(root.join(folder)).unwrap();
        }
        assert_eq!(from(&root, &root.join("a/b")), "a/b");
        assert_eq!(from(&root.join("a/b"), &root.join("c")), "../../c");
        assert_eq!(from(&root.join("c"), &root.join("c")), ".");
        // Nothing shared below `/`: the whole path.
        assert_eq!(from(&root, Path::new("/")), "/");
    }
}
