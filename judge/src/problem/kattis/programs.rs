//! What a package adds to the programs built from it, before they are built: the values of
//! `constants` (2025-09) in place of `{{name}}`, and the files of `include/` beside each
//! submission.

use std::borrow::Cow;
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use serde_norway::Value;

use crate::error::{Error, Result};
use crate::toolchain::language::{Language, MainClass};
use crate::toolchain::sources::{Files, Sources};

/// `constants` of `problem.yaml`: `name` and `name.variant` to the text they stand for.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Constants(HashMap<String, String>);

impl Constants {
    /// The `constants` map; an error names `path` and `line` (where `constants:` stands).
    pub fn parse(value: &Value, path: &Path, line: Option<usize>) -> Result<Constants> {
        let fail = |message: String| Error::parse(path, line, message);
        let Value::Mapping(map) = value else {
            return Err(fail("`constants` must be a map of names to values".into()));
        };
        let mut values = HashMap::new();
        for (name, constant) in map {
            let name = match name {
                Value::String(name) if is_name(name) => name,
                other => {
                    return Err(fail(format!(
                        "constant name {} must match [a-zA-Z_][a-zA-Z0-9_]*",
                        scalar(other).unwrap_or_else(|| "(not a scalar)".into())
                    )))
                }
            };
            // A scalar is a map holding only `value`.
            let variants = match constant {
                Value::Mapping(variants) => variants.clone(),
                scalar => [(Value::String("value".into()), scalar.clone())]
                    .into_iter()
                    .collect(),
            };
            if !variants.contains_key("value") {
                return Err(fail(format!("constant `{name}` has no `value`")));
            }
            for (variant, text) in &variants {
                let variant = match variant {
                    Value::String(variant) if is_name(variant) => variant,
                    _ => {
                        return Err(fail(format!(
                            "constant `{name}`: a variant's name must match [a-zA-Z_][a-zA-Z0-9_]*"
                        )))
                    }
                };
                let Some(text) = scalar(text) else {
                    return Err(fail(format!(
                        "constant `{name}.{variant}` must be an integer, a float or a string"
                    )));
                };
                if variant == "value" {
                    values.insert(name.clone(), text.clone());
                }
                values.insert(format!("{name}.{variant}"), text);
            }
        }
        Ok(Constants(values))
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// `text` with every `{{name}}` and `{{name.variant}}` of a known constant replaced; an
    /// unknown one is left as it is, as the format says.
    pub fn apply<'a>(&self, text: &'a [u8]) -> Cow<'a, [u8]> {
        if self.is_empty() || !text.windows(2).any(|pair| pair == b"{{") {
            return Cow::Borrowed(text);
        }
        let mut out = Vec::with_capacity(text.len());
        let mut rest = text;
        while let Some(start) = rest.windows(2).position(|pair| pair == b"{{") {
            out.extend_from_slice(&rest[..start]);
            let after = &rest[start + 2..];
            // A name is short: a `{{` with no `}}` soon after is text, however long the file.
            let known = after[..after.len().min(256)]
                .windows(2)
                .position(|pair| pair == b"}}")
                .and_then(|end| {
                    let key = std::str::from_utf8(&after[..end]).ok()?;
                    Some((end, self.0.get(key)?))
                });
            match known {
                Some((end, value)) => {
                    out.extend_from_slice(value.as_bytes());
                    rest = &after[end + 2..];
                }
                None => {
                    out.push(b'{');
                    rest = &rest[start + 1..];
                }
            }
        }
        out.extend_from_slice(rest);
        Cow::Owned(out)
    }

    /// `apply` on text: what it puts in is text, and it cuts only at ASCII braces.
    pub fn apply_text<'a>(&self, text: &'a str) -> Cow<'a, str> {
        match self.apply(text.as_bytes()) {
            Cow::Borrowed(_) => Cow::Borrowed(text),
            Cow::Owned(bytes) => Cow::Owned(String::from_utf8(bytes).expect("text in, text out")),
        }
    }

    /// Every file of `sources` with the constants put in.
    pub fn apply_to(&self, mut sources: Sources) -> Sources {
        for (_, code) in &mut sources.files {
            if let Cow::Owned(replaced) = self.apply(code) {
                *code = replaced;
            }
        }
        sources
    }
}

fn is_name(text: &str) -> bool {
    let mut chars = text.chars();
    chars
        .next()
        .is_some_and(|first| first.is_ascii_alphabetic() || first == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// A scalar's text as the YAML gave it (`5`, `1e-6`, `five`).
fn scalar(value: &Value) -> Option<String> {
    match value {
        Value::String(text) => Some(text.clone()),
        Value::Number(number) => Some(number.to_string()),
        _ => None,
    }
}

/// `include/`: files added to every submission, `include/default/` for every language and
/// `include/<code>/` for one (its code in the format's language table), that folder's files
/// replacing the default's of the same name, as problemtools adds them.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Includes {
    /// Folder name (`default`, `cpp`, ...) to its files, relative to it, with their bytes;
    /// shared, as the problem is copied for every submission judged.
    folders: Arc<HashMap<String, Files>>,
}

impl Includes {
    /// The `include/` folder of the package at `dir`, if it has one.
    pub fn read(dir: &Path) -> Result<Includes> {
        let root = dir.join("include");
        let mut folders = HashMap::new();
        let entries = match std::fs::read_dir(&root) {
            Ok(entries) => entries,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
                return Ok(Includes::default())
            }
            Err(error) => return Err(Error::io(&root, error)),
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

    /// `sources` with the included files of its language beside (and over) its own; an
    /// included file with the language's entry-point name (a driver) becomes the main file.
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
        let driver = own
            .into_iter()
            .flatten()
            .find(|(name, _)| is_entry_point(language, name));
        if let Some((name, code)) = driver {
            sources.main = name.clone();
            sources.class = crate::toolchain::sources::main_class(language, name, code);
        }
        sources
    }
}

/// A file named as the language table's default entry point: `__main__.py`, `main.js`,
/// Java's `Main` class, Kotlin's `MainKt`.
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

    fn constants(yaml: &str) -> Result<Constants> {
        let value: Value = serde_norway::from_str(yaml).unwrap();
        Constants::parse(&value, Path::new("problem.yaml"), Some(7))
    }

    #[test]
    fn constants_and_their_variants_replace_their_sequences_and_nothing_else() {
        let table =
            constants("n: 5\nk: {value: 5000000, tex: '5,000,000'}\neps: 1e-6\nw: five\n").unwrap();
        let text = "{{n}} {{n.value}} {{k}} {{k.tex}} {{eps}} {{w}} {{missing}} {{k.nope}} {n} {{{n}}} {{n";
        assert_eq!(
            table.apply_text(text),
            "5 5 5000000 5,000,000 1e-6 five {{missing}} {{k.nope}} {n} {5} {{n"
        );
        assert!(matches!(table.apply_text("no braces"), Cow::Borrowed(_)));
    }

    #[test]
    fn bad_constants_are_errors_at_their_line() {
        for (yaml, message) in [
            ("1x: 5\n", "constant name 1x must match"),
            ("k: {tex: '5'}\n", "constant `k` has no `value`"),
            (
                "k: [1, 2]\n",
                "constant `k.value` must be an integer, a float or a string",
            ),
            ("- 5\n", "`constants` must be a map"),
        ] {
            let error = constants(yaml).unwrap_err().to_string();
            assert!(
                error.contains("problem.yaml: line 7: ") && error.contains(message),
                "{error}"
            );
        }
    }

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
        // Unreadable is not absent: an `include` that is no folder is named, not skipped.
        let odd = tempfile::tempdir().unwrap();
        std::fs::write(odd.path().join("include"), "").unwrap();
        let error = Includes::read(odd.path()).unwrap_err().to_string();
        assert!(error.contains("include"), "{error}");
    }
}
