//! The language table: how each language is compiled and run, as data. Adding a language is
//! adding a row, not a code path.

use std::path::Path;

/// How one language is built and started. In commands, `{source}` is the source file and
/// `{exe}` the built program, both absolute.
#[derive(Debug)]
pub struct Language {
    pub name: &'static str,
    pub extensions: &'static [&'static str],
    /// `None` for interpreted languages.
    pub compile: Option<&'static [&'static str]>,
    pub run: &'static [&'static str],
    /// Prints the toolchain's version; part of the compile cache key.
    pub version: &'static [&'static str],
    /// What the runtime prints on stderr when an allocation fails: the run then counts as MLE.
    pub out_of_memory_markers: &'static [&'static str],
}

pub const LANGUAGES: &[Language] = &[Language {
    name: "Rust",
    extensions: &["rs"],
    // Exactly as Baekjoon and most judges build Rust.
    compile: Some(&[
        "rustc",
        "--edition",
        "2021",
        "-O",
        "-o",
        "{exe}",
        "{source}",
    ]),
    run: &["{exe}"],
    version: &["rustc", "--version"],
    out_of_memory_markers: &["memory allocation of "],
}];

impl Language {
    /// The language of a source file, by its extension.
    pub fn of(source: &Path) -> Option<&'static Language> {
        let extension = source.extension()?.to_str()?;
        LANGUAGES
            .iter()
            .find(|language| language.extensions.contains(&extension))
    }

    /// Whether a run's stderr shows that it died of a failed allocation.
    pub fn ran_out_of_memory(&self, stderr: &[u8]) -> bool {
        let stderr = String::from_utf8_lossy(stderr);
        self.out_of_memory_markers
            .iter()
            .any(|marker| stderr.contains(marker))
    }
}
