//! Paths read from a problem's own files (`provenance.toml`, `generators.toml`,
//! `problem.toml`, a corpus journal) are confined to the problem folder: relative, without
//! `..`, and not reached through a symlinked folder that leads out. A hand-edited or hostile
//! file must never make the judge read, write or remove anything elsewhere.

use std::path::{Component, Path, PathBuf};

/// `dir` joined with `relative` when `relative` stays inside `dir`; otherwise why not (the
/// caller adds the file, line and key).
pub fn inside(dir: &Path, relative: &str) -> Result<PathBuf, String> {
    let path = self::relative(relative)?;
    // Every folder on the way must be the problem's own: a symlinked folder may point
    // anywhere. The file itself may be a symlink: it is read through, but replaced or
    // removed as a link, never followed for a write.
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
                    return Err(format!(
                        "`{relative}` goes through `{}`, a symlink leading out of the problem folder",
                        shown.display()
                    ));
                }
            }
            Ok(_) => {}
            // Nothing exists further down: folders the judge makes are its own.
            Err(_) => break,
        }
    }
    Ok(dir.join(path))
}

/// `relative` as a path when it is one: not empty, not absolute, without `..`. This alone
/// looks at no file; `inside` adds the check of symlinked folders.
pub fn relative(relative: &str) -> Result<&Path, String> {
    let path = Path::new(relative);
    if relative.is_empty() {
        return Err("is empty: expected a path relative to the problem folder".into());
    }
    if relative.contains('\0') {
        return Err(format!("`{relative}` holds a NUL byte"));
    }
    for component in path.components() {
        match component {
            Component::Normal(_) | Component::CurDir => {}
            Component::ParentDir => {
                return Err(format!(
                    "`{relative}` has `..`: paths must stay inside the problem folder"
                ))
            }
            Component::RootDir | Component::Prefix(_) => {
                return Err(format!(
                    "`{relative}` is absolute: expected a path relative to the problem folder"
                ))
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
        let reason = |relative: &str| inside(dir.path(), relative).unwrap_err();
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
        let reason = inside(dir.path(), "tests/random/r-1.in").unwrap_err();
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
