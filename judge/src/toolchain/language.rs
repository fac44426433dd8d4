//! The language table: how each language is built and run, as data. Adding a language is
//! adding a row, not a code path.

use std::path::Path;

use crate::error::{Error, LanguageFault, Result};

/// What per-language rules are keyed by (Baekjoon's allowances, `judge check`'s advice),
/// never the display name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LanguageId {
    Rust,
    C,
    Cpp,
    Java,
    Python3,
    Python2,
    JavaScript,
    Kotlin,
    Go,
    CSharp,
    Bash,
    /// A package's validator folder with `build` and/or `run` scripts (2025-09 "programs").
    Scripts,
}

impl LanguageId {
    /// The code in the package format's language table (the `include/` folder's name, the
    /// `language` of `submissions.yaml`).
    pub fn code(self) -> &'static str {
        match self {
            LanguageId::Rust => "rust",
            LanguageId::C => "c",
            LanguageId::Cpp => "cpp",
            LanguageId::Java => "java",
            LanguageId::Python3 => "python3",
            LanguageId::Python2 => "python2",
            LanguageId::JavaScript => "javascript",
            LanguageId::Kotlin => "kotlin",
            LanguageId::Go => "go",
            LanguageId::CSharp => "csharp",
            LanguageId::Bash => "bash",
            // Not a submission language.
            LanguageId::Scripts => "",
        }
    }
}

/// How a JVM language finds the program's entry point.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MainClass {
    /// Started by its path (or a built executable).
    None,
    /// Java: the public class (else the first class) of the main file, which is named after it.
    JavaClass,
    /// Kotlin: the file's stem, capitalised, with `Kt` after it (`hello.kt` → `HelloKt`).
    KotlinFile,
}

/// How one language is built and started.
///
/// In commands: `{source}` is the main source file in the build folder, `{sources}` every
/// source file of the language there (several arguments), `{dir}` that folder, `{exe}` the
/// built program, `{class}` the main class (Java, Kotlin), `{crate}` a Rust crate name made
/// from the file's name, `{memory_mib}` and `{stack_mib}` the run's limits. An online judge's
/// row (`online_judges::Offered`) may replace `compile` and `run`.
#[derive(Debug)]
pub struct Language {
    pub id: LanguageId,
    pub name: &'static str,
    pub extensions: &'static [&'static str],
    /// `None` for languages that need no build step.
    pub compile: Option<&'static [&'static str]>,
    pub run: &'static [&'static str],
    /// Added after every compile command, the judge's too; nothing the program does can
    /// tell them: the build's destination, a crate name valid for any file name, and the
    /// source's folder (`{origin}`, see `program::ORIGIN`) in place of the build folder.
    pub local_compile_args: &'static [&'static str],
    /// Put after the first word of every run command: where the built classes are.
    pub local_run_args: &'static [&'static str],
    /// Prints the toolchain's version; part of the compile cache key.
    pub version: &'static [&'static str],
    /// Prints the executable that the tool (`version`'s first word) starts when that is a
    /// version manager's proxy or shim (rustup's `rustc`; pyenv's `python3`, whose CPU time
    /// at every start would count as the program's): builds and runs then start it directly.
    pub real_executable: Option<&'static [&'static str]>,
    /// Printed on stderr when an allocation fails: the run then counts as MLE.
    pub out_of_memory_markers: &'static [&'static str],
    /// The runtime reserves far more address space than it uses: its own flags limit its
    /// memory instead of an address-space cap.
    pub manages_own_memory: bool,
    pub main_class: MainClass,
    /// A folder's entry point, as the package format's language table says (`__main__.py`,
    /// `main.js`); otherwise the folder's only file of the language.
    pub entry_points: &'static [&'static str],
}

const JVM_RUN: &[&str] = &[
    "java",
    "-Xmx{memory_mib}m",
    "-Xss{stack_mib}m",
    "-XX:+UseSerialGC",
    "-Dfile.encoding=UTF-8",
    "{class}",
];

const fn language(id: LanguageId, name: &'static str) -> Language {
    Language {
        id,
        name,
        extensions: &[],
        compile: None,
        run: &["{exe}"],
        local_compile_args: &[],
        local_run_args: &[],
        version: &[],
        real_executable: None,
        out_of_memory_markers: &[],
        manages_own_memory: false,
        main_class: MainClass::None,
        entry_points: &[],
    }
}

/// Languages of the package format's table (and of the judges) that this judge does not
/// build, by file extension: a submission in one is not judged, and says which.
const NOT_RUN_HERE: &[(&str, &str)] = &[
    ("adb", "Ada"),
    ("cbl", "COBOL"),
    ("lisp", "Common Lisp"),
    ("cr", "Crystal"),
    ("dart", "Dart"),
    ("ex", "Elixir"),
    ("erl", "Erlang"),
    ("fs", "F#"),
    ("f90", "Fortran"),
    ("hs", "Haskell"),
    ("jl", "Julia"),
    ("lua", "Lua"),
    ("nim", "Nim"),
    ("m", "Objective-C"),
    ("ml", "OCaml"),
    ("pas", "Pascal"),
    ("pl", "Perl or Prolog"),
    ("php", "PHP"),
    ("rb", "Ruby"),
    ("scala", "Scala"),
    ("swift", "Swift"),
    ("ts", "TypeScript"),
    ("vb", "Visual Basic"),
    ("zig", "Zig"),
];

/// The name of the language of `source`, when it is one this judge knows of but does not run.
pub fn not_run_here(source: &Path) -> Option<&'static str> {
    let extension = source.extension()?.to_str()?;
    (NOT_RUN_HERE.iter())
        .find(|(known, _)| *known == extension)
        .map(|(_, name)| *name)
}

/// The codes of the package format's languages table (its `appendix/languages.md`), by which
/// `submissions.yaml` names a language: any other is a fault of the package.
const FORMAT_CODES: &str = "\
    ada algol68 apl bash c cgmp cobol cpp cppgmp crystal csharp d dart elixir erlang forth \
    fortran fsharp gerbil go haskell java javaalgs4 javascript julia kotlin lisp lua modula2 \
    nim objectivec ocaml octave odin pascal perl php prolog python2 python3 python3numpy \
    racket ruby rust scala simula smalltalk snobol swift typescript visualbasic zig";

/// Whether `code` is one of the package format's language codes, run here or not.
pub fn is_format_code(code: &str) -> bool {
    FORMAT_CODES.split_whitespace().any(|known| known == code)
}

/// The commands are Baekjoon's, which most judges share; file endings and entry points
/// follow the Kattis language table.
pub const LANGUAGES: &[Language] = &[
    Language {
        extensions: &["rs"],
        compile: Some(&[
            "rustc",
            "--edition",
            "2021",
            "-O",
            "-o",
            "{exe}",
            "{source}",
        ]),
        // A file name need not be a crate name (`my sol.rs`, `a+b.rs`).
        local_compile_args: &[
            "--crate-name",
            "{crate}",
            "--remap-path-prefix={dir}={origin}",
        ],
        version: &["rustc", "--version"],
        real_executable: Some(&["rustup", "which", "rustc"]),
        out_of_memory_markers: &["memory allocation of "],
        entry_points: &["main.rs"],
        ..language(LanguageId::Rust, "Rust")
    },
    Language {
        extensions: &["c"],
        compile: Some(&[
            "gcc",
            "-O2",
            "-std=gnu11",
            "-o",
            "{exe}",
            "{sources}",
            "-lm",
        ]),
        local_compile_args: &["-ffile-prefix-map={dir}={origin}"],
        version: &["gcc", "--version"],
        ..language(LanguageId::C, "C")
    },
    Language {
        extensions: &["cpp", "cc", "cxx", "c++", "C"],
        compile: Some(&["g++", "-O2", "-std=gnu++17", "-o", "{exe}", "{sources}"]),
        local_compile_args: &["-ffile-prefix-map={dir}={origin}"],
        version: &["g++", "--version"],
        out_of_memory_markers: &["std::bad_alloc"],
        ..language(LanguageId::Cpp, "C++")
    },
    Language {
        extensions: &["java"],
        compile: Some(&["javac", "-encoding", "UTF-8", "{sources}"]),
        local_compile_args: &["-d", "{dir}"],
        run: JVM_RUN,
        local_run_args: &["-cp", "{dir}"],
        version: &["javac", "-version"],
        out_of_memory_markers: &["java.lang.OutOfMemoryError"],
        manages_own_memory: true,
        main_class: MainClass::JavaClass,
        ..language(LanguageId::Java, "Java")
    },
    Language {
        extensions: &["py", "py3"],
        // A syntax error is a compile error, as on the judges.
        compile: Some(&["python3", "-m", "py_compile", "{sources}"]),
        run: &["python3", "{source}"],
        version: &["python3", "--version"],
        // `-S`: `sys.executable` is set before `site` is imported, the slowest part of a start.
        real_executable: Some(&["python3", "-S", "-c", "import sys; print(sys.executable)"]),
        out_of_memory_markers: &["MemoryError"],
        entry_points: &["__main__.py"],
        ..language(LanguageId::Python3, "Python 3")
    },
    Language {
        // A `.py` file whose first line names Python 2 is Python 2 too (`Language::of_file`).
        extensions: &["py2"],
        compile: Some(&["python2", "-m", "py_compile", "{sources}"]),
        run: &["python2", "{source}"],
        version: &["python2", "--version"],
        real_executable: Some(&["python2", "-S", "-c", "import sys; print(sys.executable)"]),
        out_of_memory_markers: &["MemoryError"],
        entry_points: &["__main__.py"],
        ..language(LanguageId::Python2, "Python 2")
    },
    Language {
        extensions: &["js"],
        compile: Some(&["node", "--check", "{source}"]),
        run: &["node", "{source}"],
        version: &["node", "--version"],
        out_of_memory_markers: &["JavaScript heap out of memory"],
        entry_points: &["main.js"],
        ..language(LanguageId::JavaScript, "JavaScript")
    },
    Language {
        extensions: &["kt"],
        compile: Some(&["kotlinc", "-d", "{dir}", "{sources}"]),
        run: &["kotlin", "-J-Xss{stack_mib}m", "-cp", "{dir}", "{class}"],
        version: &["kotlinc", "-version"],
        out_of_memory_markers: &["java.lang.OutOfMemoryError"],
        manages_own_memory: true,
        main_class: MainClass::KotlinFile,
        ..language(LanguageId::Kotlin, "Kotlin")
    },
    Language {
        extensions: &["go"],
        compile: Some(&["go", "build", "-o", "{exe}", "{sources}"]),
        version: &["go", "version"],
        manages_own_memory: true,
        ..language(LanguageId::Go, "Go")
    },
    Language {
        extensions: &["cs"],
        compile: Some(&["mcs", "-optimize+", "-out:{exe}", "{sources}"]),
        run: &["mono", "{exe}"],
        version: &["mcs", "--version"],
        out_of_memory_markers: &["System.OutOfMemoryException"],
        manages_own_memory: true,
        ..language(LanguageId::CSharp, "C#")
    },
    Language {
        // `.sh` is Bash in the package format's language table; BAPCtools also runs `.bash`.
        extensions: &["sh", "bash"],
        // A syntax error is a compile error, as for Python.
        compile: Some(&["bash", "-n", "{source}"]),
        run: &["bash", "{source}"],
        version: &["bash", "--version"],
        ..language(LanguageId::Bash, "Bash")
    },
    // Last, and found by no extension: a validator folder with its own `build` and `run`
    // scripts, run in a copy of that folder; `build` by its own interpreter line.
    Language {
        compile: Some(&[
            "sh",
            "-c",
            "cd \"$0\" && if [ -x build ]; then ./build; fi && test -x run",
            "{dir}",
        ]),
        run: &["sh", "-c", "cd \"$0\" && exec ./run \"$@\"", "{dir}"],
        version: &["sh", "-c", "echo sh"],
        ..language(LanguageId::Scripts, "build/run scripts")
    },
];

/// File endings of the package format's languages table that no row above runs (Ada,
/// Haskell, Ruby, ...): such a file is a program this judge cannot build, not a stray file.
const OTHER_FORMAT_EXTENSIONS: &[&str] = &[
    "adb", "ads", "a68", "apl", "cob", "cr", "d", "dart", "ex", "erl", "fth", "4th", "forth",
    "frt", "f90", "fs", "ss", "hs", "jl", "lisp", "cl", "lua", "mod", "def", "nim", "m", "ml",
    "odin", "pas", "pm", "php", "pl", "rkt", "rb", "scala", "sim", "st", "sno", "swift", "ts",
    "vb", "zig",
];

impl Language {
    pub fn of(source: &Path) -> Option<&'static Language> {
        let extension = source.extension()?.to_str()?;
        LANGUAGES
            .iter()
            .find(|language| language.extensions.contains(&extension))
    }

    /// Whether `source`'s extension names a language of this table or of the package
    /// format's; headers (`.h`, `.hpp`) name none.
    pub fn names_a_language(source: &Path) -> bool {
        let known = |extension: &str| OTHER_FORMAT_EXTENSIONS.contains(&extension);
        Language::of(source).is_some()
            || source
                .extension()
                .and_then(|e| e.to_str())
                .is_some_and(known)
    }

    /// The language of a single-file source, or what is wrong with it.
    pub fn for_source(source: &Path) -> Result<&'static Language> {
        if source.is_dir() {
            return Err(Error::language(source, LanguageFault::Folder));
        }
        Language::of(source).ok_or_else(|| {
            let known: Vec<&str> = LANGUAGES
                .iter()
                .flat_map(|language| language.extensions)
                .copied()
                .collect();
            Error::language(
                source,
                LanguageFault::UnknownExtensionAmong {
                    known: known.join(", ."),
                },
            )
        })
    }

    /// As `of`, except that a `.py` file whose shebang names `python2` is Python 2, as
    /// Kattis decides.
    pub fn of_file(source: &Path, code: &[u8]) -> Option<&'static Language> {
        let language = Language::of(source)?;
        let first_line = code.split(|&b| b == b'\n').next().unwrap_or_default();
        let python2 = first_line.starts_with(b"#!")
            && String::from_utf8_lossy(first_line).contains("python2");
        if language.id == LanguageId::Python3 && python2 {
            return Language::by_id(LanguageId::Python2);
        }
        Some(language)
    }

    /// By its code in the package format's table (`python3`, `cpp`).
    pub fn by_code(code: &str) -> Option<&'static Language> {
        LANGUAGES
            .iter()
            .find(|language| !code.is_empty() && language.id.code() == code)
    }

    pub fn by_id(id: LanguageId) -> Option<&'static Language> {
        LANGUAGES.iter().find(|language| language.id == id)
    }

    /// The first program this language needs (compiler, runtime) that is not on `PATH`.
    pub fn missing_tool(&self) -> Option<&'static str> {
        missing_among(&[Some(self.version), self.compile, Some(self.run)])
    }

    pub fn ran_out_of_memory(&self, stderr: &[u8]) -> bool {
        let stderr = String::from_utf8_lossy(stderr);
        self.out_of_memory_markers
            .iter()
            .any(|marker| stderr.contains(marker))
    }
}

/// The first of these commands' programs that is not on `PATH`.
pub fn missing_among(commands: &[Option<&'static [&'static str]>]) -> Option<&'static str> {
    commands
        .iter()
        .flatten()
        .filter_map(|command| command.first().copied())
        // `{exe}` is the built program itself.
        .filter(|tool| !tool.starts_with('{'))
        .find(|tool| {
            let found = crate::sandbox::find_on_path(std::ffi::OsStr::new(tool));
            !Path::new(&found).is_file()
        })
}

/// How to install a missing tool: the Debian/Ubuntu package (what CI and the Rust image
/// run), or where the toolchain comes from.
pub fn how_to_install(tool: &str) -> Option<&'static str> {
    let how = match tool {
        "gcc" => "apt-get install gcc",
        "g++" => "apt-get install g++",
        "javac" | "java" => "apt-get install default-jdk-headless",
        "python3" => "apt-get install python3",
        "pypy3" => "apt-get install pypy3",
        "python2" => "pyenv install 2.7 (Debian 12 has no Python 2)",
        "node" => "apt-get install nodejs",
        "kotlinc" | "kotlinc-jvm" | "kotlin" => "apt-get install kotlin, or sdk install kotlin",
        "go" => "apt-get install golang-go",
        "mcs" | "mono" => "apt-get install mono-mcs",
        "rustc" => "rustup, from https://rustup.rs",
        _ => return None,
    };
    Some(how)
}

/// A Java class name without a package.
pub fn is_java_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_alphanumeric() || c == '_' || c == '$')
}

/// The class a Java source's `main` is in: the public class, else the first class, comments
/// aside.
pub fn java_main_class(source: &str) -> Option<String> {
    let source = without_comments(source);
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

/// The source with `//` and `/* */` comments blanked; strings are not parsed, which is good
/// enough for finding declarations.
pub fn without_comments(source: &str) -> String {
    let mut kept = String::with_capacity(source.len());
    let mut rest = source;
    while let Some(start) = rest.find("//").into_iter().chain(rest.find("/*")).min() {
        kept.push_str(&rest[..start]);
        let end = if rest[start..].starts_with("//") {
            rest[start..].find('\n').map_or(rest.len(), |n| start + n)
        } else {
            rest[start..]
                .find("*/")
                .map_or(rest.len(), |n| start + n + 2)
        };
        kept.push(' ');
        rest = &rest[end..];
    }
    kept.push_str(rest);
    kept
}

/// A valid crate name from any file name: the stem, other characters made `_`, and `_`
/// before a leading digit.
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
        let commented = "/* the public class names must match */\npublic class hello {}\n";
        assert_eq!(java_main_class(commented).as_deref(), Some("hello"));
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
