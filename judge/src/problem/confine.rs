//! Paths read from a problem's own files (`provenance.toml`, `generators.toml`,
//! `problem.toml`, a corpus journal) are confined to the problem folder: relative, without
//! `..`, not through a symlinked folder that leads out. A hostile file must never make the
//! judge read, write or remove anything elsewhere.

use std::path::{Component, Path, PathBuf};

/// Why a path read from a problem's file may not be used; the caller names the file, line
/// and key.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PathFault {
    #[error("is empty: expected a path relative to the problem folder")]
    Empty,
    #[error("`{0}` holds a NUL byte")]
    Nul(String),
    #[error("`{0}` has `..`: paths must stay inside the problem folder")]
    ParentDir(String),
    #[error("`{0}` is absolute: expected a path relative to the problem folder")]
    Absolute(String),
    #[error("`{path}` goes through `{through}`, a symlink leading out of the problem folder")]
    LeadsOut {
        path: String,
        /// Relative to the problem folder.
        through: String,
    },
    #[error("`{0}`: a case name is a relative path below tests/ without empty, `.` or `..` parts")]
    NotACaseName(String),
}

/// `dir` joined with `relative` when that stays inside `dir`.
pub fn inside(dir: &Path, relative: &str) -> Result<PathBuf, PathFault> {
    let path = self::relative(relative)?;
    // Every folder on the way must be the problem's own. The file itself may be a symlink:
    // read through, but replaced or removed as a link, never followed for a write.
    let mut folder = dir.to_path_buf();
    let components: Vec<Component> = path.components().collect();
    let mut root: Option<PathBuf> = None;
    for component in &components[..components.len().saturating_sub(1)] {
        folder.push(component);
        match std::fs::symlink_metadata(&folder) {
            Ok(metadata) if metadata.file_type().is_symlink() => {
                let root = match &root {
                    Some(root) => root,
                    None => root.insert(dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf())),
                };
                let leads_in = folder
                    .canonicalize()
                    .is_ok_and(|target| target.starts_with(root.as_path()));
                if !leads_in {
                    let shown = folder.strip_prefix(dir).unwrap_or(&folder);
                    return Err(PathFault::LeadsOut {
                        path: relative.to_owned(),
                        through: shown.display().to_string(),
                    });
                }
            }
            Ok(_) => {}
            // Nothing exists further down: folders the judge makes are its own.
            Err(_) => break,
        }
    }
    Ok(dir.join(path))
}

/// `relative` when not empty, not absolute, without `..`; looks at no file (`inside` also
/// checks symlinked folders).
pub fn relative(relative: &str) -> Result<&Path, PathFault> {
    let path = Path::new(relative);
    if relative.is_empty() {
        return Err(PathFault::Empty);
    }
    if relative.contains('\0') {
        return Err(PathFault::Nul(relative.to_owned()));
    }
    for component in path.components() {
        match component {
            Component::Normal(_) | Component::CurDir => {}
            Component::ParentDir => return Err(PathFault::ParentDir(relative.to_owned())),
            Component::RootDir | Component::Prefix(_) => {
                return Err(PathFault::Absolute(relative.to_owned()))
            }
        }
    }
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths_inside_are_accepted() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(
            inside(dir.path(), "tests/random/r-1.in").unwrap(),
            dir.path().join("tests/random/r-1.in")
        );
        assert!(inside(dir.path(), "./sol.rs").is_ok());
    }

    #[test]
    fn escapes_are_refused_with_the_reason() {
        let dir = tempfile::tempdir().unwrap();
        let reason = |relative: &str| inside(dir.path(), relative).unwrap_err().to_string();
        assert!(reason("../x").contains("has `..`"));
        assert!(reason("tests/../../x").contains("has `..`"));
        assert!(reason("/etc/passwd").contains("is absolute"));
        assert!(reason("").contains("is empty"));
    }

    #[test]
    fn symlinked_folders_may_not_lead_out() {
        let outside = tempfile::tempdir().unwrap();
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("tests")).unwrap();
        std::os::unix::fs::symlink(outside.path(), dir.path().join("tests/random")).unwrap();
        std::fs::create_dir(dir.path().join("real")).unwrap();
        std::os::unix::fs::symlink(dir.path().join("real"), dir.path().join("tests/alias"))
            .unwrap();
        let reason = inside(dir.path(), "tests/random/r-1.in")
            .unwrap_err()
            .to_string();
        assert!(
            reason.contains("goes through `tests/random`, a symlink leading out"),
            "{reason}"
        );
        assert!(
            inside(dir.path(), "tests/alias/r-1.in").is_ok(),
            "a link inside is fine"
        );
    }
}
