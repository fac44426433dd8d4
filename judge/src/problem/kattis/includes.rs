//! `include/`: the files a package adds beside each submission, before it is built.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use crate::error::{if_exists, Error, Result};
use crate::problem::layout::INCLUDE_DIR;
use crate::toolchain::language::{Language, MainClass};
use crate::toolchain::sources::{is_main_file, Files, Sources};

/// `include/default/` for every language and `include/<code>/` for one, whose files replace
/// the default's of the same name, as problemtools adds them.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Includes {
    /// By folder name (`default`, `cpp`, ...); shared, as the problem is copied for every
    /// submission judged.
    folders: Arc<BTreeMap<String, Files>>,
}

impl Includes {
    pub fn read(dir: &Path) -> Result<Includes> {
        let root = dir.join(INCLUDE_DIR);
        let mut folders = BTreeMap::new();
        let Some(entries) = if_exists(&root, std::fs::read_dir)? else {
            return Ok(Includes::default());
        };
        for entry in entries {
            let entry = entry.map_err(|error| Error::io(&root, error))?;
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') || !entry.path().is_dir() {
                continue;
            }
            folders.insert(name, crate::toolchain::sources::files_below(&entry.path())?);
        }
        Ok(Includes {
            folders: Arc::new(folders),
        })
    }

    /// Included files go beside (and over) the submission's own; one of the language's own
    /// folder with its entry-point name, else a source file named `main.*` (a driver, as
    /// problemtools takes it), becomes the main file.
    pub fn add_to(&self, mut sources: Sources) -> Sources {
        let language = sources.language;
        let own = self.folders.get(language.id.code());
        let added = self.folders.get("default").into_iter().chain(own).flatten();
        for (name, code) in added {
            match sources.files.iter_mut().find(|(file, _)| file == name) {
                Some(file) => file.1 = code.clone(),
                None => sources.files.push((name.clone(), code.clone())),
            }
        }
        let own = own.map_or(&[][..], Vec::as_slice);
        let is_source =
            |name: &str| Language::of(Path::new(name)).is_some_and(|l| l.id == language.id);
        let driver = (own.iter().find(|(name, _)| is_entry_point(language, name)))
            .or_else(|| (own.iter()).find(|(name, _)| is_main_file(name) && is_source(name)));
        if let Some((name, code)) = driver {
            sources.main = name.clone();
            sources.class = crate::toolchain::sources::main_class(language, name, code);
        }
        sources
    }
}

/// The language's default entry point: `__main__.py`, `main.js`, Java's `Main`, ...
fn is_entry_point(language: &Language, name: &str) -> bool {
    language.entry_points.contains(&name)
        || match language.main_class {
            MainClass::JavaClass => name == "Main.java",
            MainClass::KotlinFile => name == "Main.kt",
            MainClass::None => false,
        }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn included_files_join_a_submission_and_a_driver_becomes_its_main_file() {
        let package = tempfile::tempdir().unwrap();
        for (file, text) in [
            ("include/default/data.txt", "default"),
            ("include/default/shared.txt", "default"),
            ("include/python3/shared.txt", "python"),
            ("include/python3/__main__.py", "import solution"),
            ("include/cpp/grader.h", "int solve();"),
        ] {
            let path = package.path().join(file);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        let includes = Includes::read(package.path()).unwrap();
        let solution = package.path().join("solution.py");
        std::fs::write(&solution, "def f(): pass").unwrap();
        let sources = includes.add_to(Sources::read(&solution).unwrap());
        let mut names: Vec<(&str, &[u8])> = sources
            .files
            .iter()
            .map(|(name, code)| (name.as_str(), code.as_slice()))
            .collect();
        names.sort();
        assert_eq!(
            names,
            [
                ("__main__.py", &b"import solution"[..]),
                ("data.txt", b"default"),
                ("shared.txt", b"python"),
                ("solution.py", b"def f(): pass"),
            ]
        );
        assert_eq!(sources.main, "__main__.py");

        let solution = package.path().join("solve.cpp");
        std::fs::write(&solution, "int solve() { return 1; }").unwrap();
        let sources = includes.add_to(Sources::read(&solution).unwrap());
        assert_eq!(sources.main, "solve.cpp", "a header is no driver");
        assert_eq!(sources.files.len(), 4);
        assert_eq!(
            Includes::read(&package.path().join("none")).unwrap(),
            Includes::default()
        );
        // A source file named `main.*` is the driver where the entry point's name is not
        // there, as problemtools takes it (a Swedish olympiad package's include/python3/main.py).
        std::fs::remove_file(package.path().join("include/python3/__main__.py")).unwrap();
        std::fs::write(package.path().join("include/python3/main.py"), "").unwrap();
        std::fs::write(package.path().join("include/python3/main.txt"), "").unwrap();
        let includes = Includes::read(package.path()).unwrap();
        let solution = package.path().join("solution.py");
        assert_eq!(
            includes.add_to(Sources::read(&solution).unwrap()).main,
            "main.py"
        );
        // Unreadable is not absent: an `include` that is no folder is named, not skipped.
        let odd = tempfile::tempdir().unwrap();
        std::fs::write(odd.path().join("include"), "").unwrap();
        let error = Includes::read(odd.path()).unwrap_err().to_string();
        assert!(error.contains("include"), "{error}");
    }
}
