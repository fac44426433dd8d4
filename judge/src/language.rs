//! The language table: how each language is built and run, as data. Adding a language is
//! adding a row, not a code path.

use std::path::Path;

/// How one language is built and started.
///
/// In commands: `{source}` is the source file copied into the build folder, `{dir}` that
/// folder, `{exe}` the built program in it, `{class}` Java's main class, `{crate}` a Rust crate
/// name made from the file's name, and `{memory_mib}` and `{stack_mib}` the run's limits (for
/// runtimes that manage their own memory).
#[derive(Debug)]
pub struct Language {
    pub name: &'static str,
    pub extensions: &'static [&'static str],
    /// `None` for languages that need no build step.
    pub compile: Option<&'static [&'static str]>,
    pub run: &'static [&'static str],
    /// Prints the toolchain's version; part of the compile cache key.
    pub version: &'static [&'static str],
    /// What the runtime prints on stderr when an allocation fails: the run then counts as MLE.
    pub out_of_memory_markers: &'static [&'static str],
    /// The runtime reserves far more address space than it uses, so memory is limited by its
    /// own flags instead of an address-space cap.
    pub manages_own_memory: bool,
    /// The source must be named after its main class (Java).
    pub named_after_class: bool,
}

/// The commands are Baekjoon's, which most judges share.
pub const LANGUAGES: &[Language] = &[
    Language {
        name: "Rust",
        extensions: &["rs"],
        compile: Some(&[
            "rustc",
            "--edition",
            "2021",
            "-O",
            // rustc would take the crate name from the file name, which need not be one
            // (`my sol.rs`, `a+b.rs`).
            "--crate-name",
            "{crate}",
            "-o",
            "{exe}",
            "{source}",
        ]),
        run: &["{exe}"],
        version: &["rustc", "--version"],
        out_of_memory_markers: &["memory allocation of "],
        manages_own_memory: false,
        named_after_class: false,
    },
    Language {
        name: "C",
        extensions: &["c"],
        compile: Some(&["gcc", "-O2", "-std=gnu11", "-o", "{exe}", "{source}", "-lm"]),
        run: &["{exe}"],
        version: &["gcc", "--version"],
        out_of_memory_markers: &[],
        manages_own_memory: false,
        named_after_class: false,
    },
    Language {
        name: "C++",
        extensions: &["cpp", "cc", "cxx"],
        compile: Some(&["g++", "-O2", "-std=gnu++17", "-o", "{exe}", "{source}"]),
        run: &["{exe}"],
        version: &["g++", "--version"],
        out_of_memory_markers: &["std::bad_alloc"],
        manages_own_memory: false,
        named_after_class: false,
    },
    Language {
        name: "Java",
        extensions: &["java"],
        compile: Some(&["javac", "-encoding", "UTF-8", "-d", "{dir}", "{source}"]),
        run: &[
            "java",
            "-Xmx{memory_mib}m",
            "-Xss{stack_mib}m",
            "-XX:+UseSerialGC",
            "-Dfile.encoding=UTF-8",
            "-cp",
            "{dir}",
            "{class}",
        ],
        version: &["javac", "-version"],
        out_of_memory_markers: &["java.lang.OutOfMemoryError"],
        manages_own_memory: true,
        named_after_class: true,
    },
    Language {
        name: "Python 3",
        extensions: &["py"],
        // A syntax error is a compile error, as on the judges.
        compile: Some(&["python3", "-m", "py_compile", "{source}"]),
        run: &["python3", "{source}"],
        version: &["python3", "--version"],
        out_of_memory_markers: &["MemoryError"],
        manages_own_memory: false,
        named_after_class: false,
    },
];

impl Language {
    /// The language of a source file, by its extension.
    pub fn of(source: &Path) -> Option<&'static Language> {
        let extension = source.extension()?.to_str()?;
        LANGUAGES
            .iter()
            .find(|language| language.extensions.contains(&extension))
    }

    /// The first program this language needs (compiler, runtime) that is not on `PATH`, named
    /// as a person would install it: `kotlinc`.
    pub fn missing_tool(&self) -> Option<&'static str> {
        let commands = [Some(self.version), self.compile, Some(self.run)];
        commands
            .into_iter()
            .flatten()
            .filter_map(|command| command.first().copied())
            // `{exe}` is the built program itself.
            .filter(|tool| !tool.starts_with('{'))
            .find(|tool| {
                let found = crate::sandbox::resolve(std::ffi::OsStr::new(tool));
                !Path::new(&found).is_file()
            })
    }

    /// Whether a run's stderr shows that it died of a failed allocation.
    pub fn ran_out_of_memory(&self, stderr: &[u8]) -> bool {
        let stderr = String::from_utf8_lossy(stderr);
        self.out_of_memory_markers
            .iter()
            .any(|marker| stderr.contains(marker))
    }
}

/// The class a Java source's `main` is in: the public class, else the first class declared.
pub fn java_main_class(source: &str) -> Option<String> {
    let words: Vec<&str> = source
        .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
        .filter(|word| !word.is_empty())
        .collect();
    let class_after = |index: usize| words.get(index + 1).map(|name| name.to_string());
    let public_class = words
        .windows(2)
        .position(|pair| pair[0] == "public" && pair[1] == "class")
        .and_then(|index| class_after(index + 1));
    public_class.or_else(|| {
        words
            .iter()
            .position(|word| *word == "class")
            .and_then(class_after)
    })
}

/// A crate name for a source file: its stem with every character that may not stand in a
/// crate name made `_`, and `_` before a leading digit, so that any file name builds.
pub fn crate_name(file_name: &str) -> String {
    let stem = Path::new(file_name)
        .file_stem()
        .map(|stem| stem.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut name: String = stem
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
        name.insert(0, '_');
    }
    name
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn languages_by_extension() {
        let name = |file: &str| Language::of(Path::new(file)).map(|l| l.name);
        assert_eq!(name("a.rs"), Some("Rust"));
        assert_eq!(name("a.cc"), Some("C++"));
        assert_eq!(name("Main.java"), Some("Java"));
        assert_eq!(name("x.py"), Some("Python 3"));
        assert_eq!(name("x.c"), Some("C"));
        assert_eq!(name("notes.txt"), None);
        assert_eq!(name("Makefile"), None);
    }

    #[test]
    fn java_main_class_is_the_public_one() {
        let source = "import java.util.*;\nclass Helper {}\npublic class Solution {\n public static void main(String[] a) {}\n}\n";
        assert_eq!(java_main_class(source).as_deref(), Some("Solution"));
        assert_eq!(java_main_class("class Main { }").as_deref(), Some("Main"));
        assert_eq!(java_main_class("// nothing here"), None);
    }

    #[test]
    fn crate_names_are_made_from_any_file_name() {
        assert_eq!(crate_name("boj_7682.rs"), "boj_7682");
        assert_eq!(crate_name("my sol.rs"), "my_sol");
        assert_eq!(crate_name("sol.v2.rs"), "sol_v2");
        assert_eq!(crate_name("a+b.rs"), "a_b");
        assert_eq!(crate_name("2048.rs"), "_2048");
        assert_eq!(crate_name("é.rs"), "_");
    }
}
