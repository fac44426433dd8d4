//! What a program is made of: one source file, or a folder of files built together (2025-09
//! package format), with its language and entry point decided once, here.

use std::path::Path;
use std::sync::{Mutex, PoisonError};

use crate::error::{Error, LanguageFault, Result};
use crate::toolchain::handin;
use crate::toolchain::harness::{self, CallerPlacement};
use crate::toolchain::language::{
    how_to_install, java_main_class, missing_among, Language, LanguageId, MainClass,
};
use crate::toolchain::online_judges::{CallForm, Offered, OnlineJudge};
use crate::toolchain::signature::Signature;

/// Paths relative to a folder, with their bytes.
pub type Files = Vec<(String, Vec<u8>)>;

/// The files of one program, ready to be copied into a build folder.
#[derive(Debug, Clone)]
pub struct Sources {
    pub language: &'static Language,
    /// Paths relative to the build folder.
    pub files: Files,
    /// The entry point, relative to the build folder.
    pub main: String,
    /// Java's or Kotlin's main class.
    pub class: Option<String>,
    /// `None`: built and run as the language table says.
    pub judged_as: Option<JudgedAs>,
    /// The function the judge's caller (`harness`) calls once per input line, when the file
    /// is that function alone.
    pub called: Option<Signature>,
    /// A judge compiles this single Java file as `<class>.java` and runs `class`, whatever
    /// the file declares.
    pub class_is_required: bool,
    /// The language standard the problem names (`-std=c++11` for a Polygon source type
    /// `cpp.g++11`), in place of the build command's own.
    pub standard: Option<&'static str>,
}

/// A judge and the row of its languages a program follows.
#[derive(Debug, Clone, Copy)]
pub struct JudgedAs {
    pub judge: &'static OnlineJudge,
    pub offer: &'static Offered,
}

/// The language and entry point a package's `submissions.yaml` names for a submission,
/// instead of those its files imply.
#[derive(Debug, Clone, Default)]
pub struct Choice {
    pub language: Option<&'static Language>,
    /// A file of the program, or the main class of a language that has one.
    pub entrypoint: Option<String>,
}

impl Choice {
    pub fn language(language: &'static Language) -> Choice {
        Choice {
            language: Some(language),
            entrypoint: None,
        }
    }
}

impl Sources {
    pub fn read(source: &Path) -> Result<Sources> {
        Sources::read_as(source, &Choice::default())
    }

    /// The program at `source`, in the language and entry point `choice` names, if any.
    pub fn read_as(source: &Path, choice: &Choice) -> Result<Sources> {
        let sources = Sources::read_detected(source, choice.language)?;
        match &choice.entrypoint {
            Some(entrypoint) => sources.entered_at(source, entrypoint),
            None => Ok(sources),
        }
    }

    /// `entrypoint` is the main class of Java or Kotlin, else a file.
    fn entered_at(mut self, source: &Path, entrypoint: &str) -> Result<Sources> {
        if self.language.main_class != MainClass::None {
            self.class = Some(entrypoint.to_owned());
        } else if self.files.iter().any(|(name, _)| name == entrypoint) {
            self.main = entrypoint.to_owned();
        } else {
            return Err(Error::language(
                source,
                LanguageFault::NoEntrypoint {
                    entrypoint: entrypoint.to_owned(),
                },
            ));
        }
        Ok(self)
    }

    fn read_detected(source: &Path, forced: Option<&'static Language>) -> Result<Sources> {
        // BAPCtools' way of setting a submission aside without moving it.
        if source
            .extension()
            .is_some_and(|extension| extension == "disabled")
        {
            return Err(Error::language(source, LanguageFault::Disabled));
        }
        if source.is_dir() {
            return read_folder(source, forced);
        }
        let code = std::fs::read(source).map_err(|error| Error::io(source, error))?;
        let language = forced
            .or_else(|| Language::of_file(source, &code))
            .ok_or_else(|| {
                let fault = match super::language::not_run_here(source) {
                    Some(name) => LanguageFault::NotRunHere(name),
                    None => LanguageFault::UnknownExtension,
                };
                Error::language(source, fault)
            })?;
        let file_name = source
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let class = main_class(language, &file_name, &code);
        // javac wants a public class in a file of its name.
        let main = match (language.main_class, &class) {
            (MainClass::JavaClass, Some(class)) => format!("{class}.java"),
            _ => file_name,
        };
        Ok(Sources {
            files: vec![(main.clone(), code)],
            class,
            ..Sources::single(language, &main)
        })
    }

    /// A single file with no contents read, to show a command with.
    pub fn single(language: &'static Language, file_name: &str) -> Sources {
        Sources {
            language,
            files: vec![(file_name.to_owned(), Vec::new())],
            main: file_name.to_owned(),
            class: None,
            judged_as: None,
            called: None,
            class_is_required: false,
            standard: None,
        }
    }

    /// When the file is the function alone (no entry point of its own), the judge's caller
    /// is built beside it (in Rust, appended) and started.
    pub fn with_caller(mut self, signature: &Signature) -> Sources {
        let code = String::from_utf8_lossy(&self.files[0].1).into_owned();
        let single = self.files.len() == 1;
        if !single || !harness::needs_caller(self.language, &code, &signature.name) {
            return self;
        }
        let (Some(placement), Some(text)) = (
            harness::caller_placement(self.language),
            harness::source(self.language, signature, &self.files[0].0, &code),
        ) else {
            return self;
        };
        match placement {
            CallerPlacement::Appended => {
                let file = &mut self.files[0].1;
                if let Some(prelude) = harness::prelude(self.language, &code) {
                    file.splice(0..0, prelude.bytes());
                }
                if !file.ends_with(b"\n") {
                    file.push(b'\n');
                }
                file.extend_from_slice(text.as_bytes());
            }
            CallerPlacement::Beside { file, class } => {
                self.files.push((file.to_owned(), text.into_bytes()));
                self.main = file.to_owned();
                if let Some(class) = class {
                    self.class = Some(class.to_owned());
                }
            }
        }
        self.called = Some(signature.clone());
        self
    }

    /// The program as `judge` builds and runs it: with its first row for the language
    /// (unchanged where it offers none), and a Java file named after the class it runs.
    pub fn judged_by(self, judge: &'static OnlineJudge) -> Sources {
        match judge.offers(self.language.id).first() {
            Some(offer) => self.judged_as(judge, installed_row(judge, offer)),
            None => self,
        }
    }

    /// Judged with `judge`'s PyPy row where it offers one for the language (a Polygon source
    /// type `python.pypy3`); else as `judged_by` left it.
    pub fn on_pypy(self, judge: &'static OnlineJudge) -> Sources {
        match judge.pypy_row(self.language.id) {
            Some(offer) => self.judged_as(judge, installed_row(judge, offer)),
            None => self,
        }
    }

    pub fn judged_as(mut self, judge: &'static OnlineJudge, offer: &'static Offered) -> Sources {
        self.judged_as = Some(JudgedAs { judge, offer });
        match judge.java_class {
            Some(class) => self.run_as(class),
            None => self,
        }
    }

    /// A single Java program file staged and run as `class`, as a judge that names the class
    /// does (a problem may name its own: Google's `Solution`); other programs are left.
    pub fn run_as(mut self, class: &str) -> Sources {
        let runs_a_program = self
            .judged_as
            .is_none_or(|judged| judged.judge.entry == CallForm::Program);
        if self.language.main_class == MainClass::JavaClass
            && self.files.len() == 1
            && runs_a_program
        {
            self.main = format!("{class}.java");
            self.files[0].0.clone_from(&self.main);
            self.class = Some(class.to_owned());
            self.class_is_required = true;
        }
        self
    }

    /// The judge's, else the language table's.
    pub fn compile_command(&self) -> Option<&'static [&'static str]> {
        self.judged_as
            .and_then(|judged| judged.offer.compile)
            .or(self.language.compile)
    }

    /// `template` with the named `standard` in place of its `-std=` (after the compiler where
    /// it has none).
    pub fn with_standard(&self, mut template: Vec<&'static str>) -> Vec<&'static str> {
        if let Some(standard) = self.standard {
            match template.iter().position(|word| word.starts_with("-std=")) {
                Some(at) => template[at] = standard,
                None => template.insert(1.min(template.len()), standard),
            }
        }
        template
    }

    /// The judge's, else the language table's.
    pub fn run_command(&self) -> &'static [&'static str] {
        self.judged_as
            .and_then(|judged| judged.offer.run)
            .unwrap_or(self.language.run)
    }

    /// Why the judge refuses to build the program, as a compile error: a Java file that is
    /// not the class it runs, or has a `package` line; a function missing from its file.
    pub fn refused(&self) -> Option<String> {
        if let Some(signature) = &self.called {
            let code = String::from_utf8_lossy(&self.files[0].1);
            // The judge's caller names the class, as the site's does: a package line or
            // another class would leave it to a javac error in the caller's file.
            let class = (self.judged_as)
                .and_then(|judged| Some((judged.judge.java_class?, judged.judge.name)))
                .filter(|_| self.language.id == LanguageId::Java);
            if let Some((class, judge)) = class {
                let found = handin::java_file_problems(&code, class, judge, true);
                if !found.is_empty() {
                    return Some(found.join("\n"));
                }
            }
            return harness::missing_function(self.language, &code, signature);
        }
        let class = self.class.as_deref().filter(|_| self.class_is_required)?;
        let judge = self
            .judged_as
            .map_or("the judge", |judged| judged.judge.name);
        let code = String::from_utf8_lossy(&self.files[0].1);
        let found = handin::java_file_problems(&code, class, judge, false);
        (!found.is_empty()).then(|| found.join("\n"))
    }

    pub fn missing_tool(&self) -> Option<&'static str> {
        let language = self.language;
        missing_among(&[
            Some(language.version),
            self.compile_command(),
            Some(self.run_command()),
        ])
    }

    /// See `OnlineJudge::dev_in_run_folder`.
    pub fn dev_in_run_folder(&self) -> bool {
        self.judged_as
            .is_some_and(|judged| judged.judge.dev_in_run_folder)
    }

    /// A C or C++ program with the headers it includes by quotes (`#include "testlib.h"`)
    /// from `folder`, as a compiler run there finds them: the build copies only the
    /// program's files. Names that leave the folder are left.
    pub fn with_local_headers(mut self, folder: &Path) -> Result<Sources> {
        if !matches!(self.language.id, LanguageId::C | LanguageId::Cpp) {
            return Ok(self);
        }
        // Headers found are scanned in turn.
        let mut index = 0;
        while index < self.files.len() {
            let text = String::from_utf8_lossy(&self.files[index].1).into_owned();
            for name in quoted_includes(&text) {
                let inside = Path::new(name)
                    .components()
                    .all(|part| matches!(part, std::path::Component::Normal(_)));
                let path = folder.join(name);
                if inside && !self.files.iter().any(|(file, _)| file == name) && path.is_file() {
                    let code = std::fs::read(&path).map_err(|error| Error::io(&path, error))?;
                    self.files.push((name.to_owned(), code));
                }
            }
            index += 1;
        }
        Ok(self)
    }

    /// The files given to the compiler: those of the program's language (a folder's headers
    /// and data files are copied, not compiled).
    pub fn compiled_files(&self) -> Vec<&str> {
        let mut names: Vec<&str> = self
            .files
            .iter()
            .map(|(name, _)| name.as_str())
            .filter(|name| {
                Language::of(Path::new(name)).is_some_and(|found| found.id == self.language.id)
                    || (*name == self.main)
            })
            .collect();
        names.dedup();
        names
    }
}

fn quoted_includes(text: &str) -> impl Iterator<Item = &str> {
    text.lines().filter_map(|line| {
        let rest = line.trim_start().strip_prefix('#')?.trim_start();
        let rest = rest
            .strip_prefix("include")?
            .trim_start()
            .strip_prefix('"')?;
        rest.split_once('"').map(|(name, _)| name)
    })
}

pub(crate) fn main_class(language: &Language, file_name: &str, code: &[u8]) -> Option<String> {
    match language.main_class {
        MainClass::None => None,
        MainClass::JavaClass => {
            Some(java_main_class(&String::from_utf8_lossy(code)).unwrap_or_else(|| "Main".into()))
        }
        MainClass::KotlinFile => {
            let stem = Path::new(file_name).file_stem()?.to_string_lossy();
            let mut chars = stem.chars();
            let first = chars.next()?.to_uppercase();
            Some(format!("{first}{}Kt", chars.as_str()))
        }
    }
}

/// Whether an entry of a folder of programs (a package's validators, its submissions) is a
/// program: a folder, or a file whose extension names a language; not headers, READMEs or
/// dot-files. As the format's "Programs" section has it and problemtools'
/// `run.find_programs` applies it.
pub fn is_program(path: &Path) -> bool {
    let Some(name) = path.file_name() else {
        return false;
    };
    if name.to_string_lossy().starts_with('.') {
        return false;
    }
    path.is_dir() || Language::names_a_language(path)
}

/// Every file below `folder` but dot-files, in file-name order.
pub(crate) fn files_below(folder: &Path) -> Result<Files> {
    let mut files = Vec::new();
    for entry in walkdir::WalkDir::new(folder)
        // A file linked from elsewhere in the package is part of the program.
        .follow_links(true)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|entry| {
            entry.depth() == 0 || !entry.file_name().to_string_lossy().starts_with('.')
        })
    {
        // walkdir's error names its path.
        let entry = entry?;
        if !entry.file_type().is_file() {
            continue;
        }
        let relative = entry.path().strip_prefix(folder).unwrap_or(entry.path());
        let name = relative
            .to_str()
            .ok_or_else(|| Error::not_utf8(entry.path(), "file name"))?
            .to_owned();
        let code = std::fs::read(entry.path()).map_err(|error| Error::io(entry.path(), error))?;
        files.push((name, code));
    }
    Ok(files)
}

/// The one language of a folder program's files, unless `forced`.
fn folder_language(
    folder: &Path,
    files: &[(String, Vec<u8>)],
    forced: Option<&'static Language>,
) -> Result<&'static Language> {
    let mut languages: Vec<&'static Language> = forced.into_iter().collect();
    for (name, code) in files.iter().filter(|_| forced.is_none()) {
        if let Some(language) = Language::of_file(Path::new(name), code) {
            if !languages.iter().any(|known| known.id == language.id) {
                languages.push(language);
            }
        }
    }
    match languages.as_slice() {
        [language] => Ok(*language),
        [] => Err(Error::language(folder, LanguageFault::NoKnownFile)),
        several => {
            let names: Vec<&str> = several.iter().map(|language| language.name).collect();
            Err(Error::language(
                folder,
                LanguageFault::Mixed {
                    languages: names.join(" and "),
                },
            ))
        }
    }
}

/// Whether a file's name starts `main.` in any case (`main.py`, `Main.java`): the main file
/// of a program, as problemtools takes it where the format's entry point is not there.
pub fn is_main_file(name: &str) -> bool {
    let name = Path::new(name).file_name().unwrap_or_default();
    name.to_string_lossy().to_lowercase().starts_with("main.")
}

/// A folder program in one language, or run by its `build` or `run` script: an executable
/// `build` (a file not executable is no script, as problemtools reads it), or an executable
/// `run` without one (the 2025-09 format's other form).
fn read_folder(folder: &Path, forced: Option<&'static Language>) -> Result<Sources> {
    let files = files_below(folder)?;
    let executable = |name: &str| {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(folder.join(name)).map(|m| m.permissions().mode());
        mode.is_ok_and(|mode| mode & 0o111 != 0)
    };
    let has = |wanted: &str| files.iter().any(|(name, _)| name == wanted);
    if executable("build") || (!has("build") && executable("run")) {
        let language = Language::by_id(LanguageId::Scripts).expect("the table has scripts");
        return Ok(Sources {
            files,
            ..Sources::single(language, "run")
        });
    }
    let language = folder_language(folder, &files, forced)?;
    // Python 2 and 3 share `.py`: a language named for the folder takes both.
    let python = |id: LanguageId| matches!(id, LanguageId::Python2 | LanguageId::Python3);
    let of_language: Vec<&(String, Vec<u8>)> = files
        .iter()
        .filter(|(name, code)| {
            Language::of_file(Path::new(name), code).is_some_and(|found| {
                found.id == language.id
                    || (forced.is_some() && python(found.id) && python(language.id))
            })
        })
        .collect();
    if of_language.is_empty() {
        return Err(Error::language(
            folder,
            LanguageFault::NotIn {
                language: language.name,
            },
        ));
    }
    // The language table's entry point, else a `main.*` file, else the first file.
    let main = of_language
        .iter()
        .find(|(name, _)| language.entry_points.contains(&name.as_str()))
        .or_else(|| of_language.iter().find(|(name, _)| is_main_file(name)))
        .or_else(|| of_language.first())
        .expect("a language was found from a file");
    let class = match language.main_class {
        // The class with `main` in it, wherever it is.
        MainClass::JavaClass => of_language
            .iter()
            .map(|(_, code)| String::from_utf8_lossy(code))
            .find(|code| code.contains("static void main"))
            .and_then(|code| java_main_class(&code)),
        _ => main_class(language, &main.0, &main.1),
    };
    Ok(Sources {
        language,
        main: main.0.clone(),
        class,
        files,
        judged_as: None,
        called: None,
        class_is_required: false,
        standard: None,
    })
}

/// `offer`, or its stand-in where a program it names is not installed; warns once per row,
/// as the stand-in's times are not the judge's.
fn installed_row(judge: &OnlineJudge, offer: &'static Offered) -> &'static Offered {
    let (Some(stand_in), Some(tool)) = (offer.stand_in, missing_among(&[offer.compile, offer.run]))
    else {
        return offer;
    };
    static WARNED: Mutex<Vec<&'static str>> = Mutex::new(Vec::new());
    let mut warned = WARNED.lock().unwrap_or_else(PoisonError::into_inner);
    if !warned.contains(&offer.label) {
        warned.push(offer.label);
        eprintln!(
            "warning: {} runs {} with `{tool}`, which is not installed here, so {} runs it: \
             its times, and a time limit derived from them, are not the judge's (install it: {})",
            judge.name,
            offer.label,
            stand_in.label,
            how_to_install(tool).unwrap_or("see docs/languages-and-judges.md"),
        );
    }
    stand_in
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_row_whose_programs_are_not_installed_gives_way_to_its_stand_in() {
        use crate::toolchain::online_judges::KATTIS;
        static STAND_IN: Offered = Offered {
            label: "stand-in",
            ..Offered::NONE
        };
        static ABSENT: Offered = Offered {
            label: "absent",
            run: Some(&["no-such-program-here", "{source}"]),
            stand_in: Some(&STAND_IN),
            ..Offered::NONE
        };
        static PRESENT: Offered = Offered {
            label: "present",
            run: Some(&["sh", "{source}"]),
            stand_in: Some(&STAND_IN),
            ..Offered::NONE
        };
        assert_eq!(installed_row(&KATTIS, &ABSENT).label, "stand-in");
        assert_eq!(installed_row(&KATTIS, &PRESENT).label, "present");
        let python = KATTIS.offers(LanguageId::Python3)[0];
        assert_eq!(
            python.run.unwrap()[0],
            "pypy3",
            "problemtools runs Python 3 with PyPy"
        );
    }

    fn folder(files: &[(&str, &str)]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for (name, text) in files {
            let path = dir.path().join(name);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        dir
    }

    #[test]
    fn a_folder_is_one_program_in_one_language() {
        let dir = folder(&[
            ("validate.cc", "int main(){}"),
            ("validate.h", ""),
            (".hidden.py", ""),
        ]);
        let sources = Sources::read(dir.path()).unwrap();
        assert_eq!(sources.language.id, LanguageId::Cpp);
        assert_eq!(sources.files.len(), 2, "dot-files are left out");
        assert_eq!(sources.compiled_files(), ["validate.cc"]);

        let dir = folder(&[("a.py", ""), ("__main__.py", ""), ("z.py", "")]);
        assert_eq!(Sources::read(dir.path()).unwrap().main, "__main__.py");

        let dir = folder(&[("a.py", ""), ("b.cc", "")]);
        let error = Sources::read(dir.path()).unwrap_err().to_string();
        assert!(error.contains("Python 3 and C++"), "{error}");

        // Scripts when executable, as problemtools runs them; else the sources' language.
        let language = |files: &[(&str, &str)], executable: &[&str]| {
            let dir = folder(files);
            for name in executable {
                use std::os::unix::fs::PermissionsExt;
                let mode = std::fs::Permissions::from_mode(0o755);
                std::fs::set_permissions(dir.path().join(name), mode).unwrap();
            }
            Sources::read(dir.path()).unwrap().language.id
        };
        let scripts = [("build", "true"), ("run", ""), ("x.cc", "")];
        assert_eq!(language(&scripts, &["build"]), LanguageId::Scripts);
        assert_eq!(language(&scripts, &[]), LanguageId::Cpp);
        assert_eq!(language(&scripts, &["run"]), LanguageId::Cpp);
        assert_eq!(language(&scripts[1..], &["run"]), LanguageId::Scripts);
    }

    #[test]
    fn a_folder_of_programs_holds_programs_and_files_that_are_none() {
        let dir = folder(&[
            ("interactor.cpp", "int main(){}"),
            ("validate.py", ""),
            ("Check.C", ""),
            ("solve.rb", ""),
            ("several/main.cc", ""),
            ("several/README.md", ""),
            ("only_notes/README.txt", ""),
            ("testlib.h", ""),
            ("util.hpp", ""),
            ("common.hh", ""),
            ("README.txt", ""),
            ("README.md", ""),
            ("README", ""),
            ("notes.txt", ""),
            ("input.in", ""),
            (".hidden.py", ""),
            (".git/config", ""),
        ]);
        let mut programs: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|entry| entry.unwrap().path())
            .filter(|path| is_program(path))
            .map(|path| path.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        programs.sort();
        // A Ruby file is a program of the format's table that this judge does not run: it
        // is one, so that its row can say so. Any folder is one, whatever it holds.
        assert_eq!(
            programs,
            [
                "Check.C",
                "interactor.cpp",
                "only_notes",
                "several",
                "solve.rb",
                "validate.py"
            ]
        );
        assert!(!is_program(&dir.path().join("missing.txt")));
    }

    #[test]
    fn a_named_language_and_entry_point_replace_what_the_files_imply() {
        let dir = folder(&[
            ("script.txt", "print(1)"),
            (
                "java/Main.java",
                "class Main { public static void main(String[] a) {} }",
            ),
            (
                "java/Other.java",
                "class Other { public static void main(String[] a) {} }",
            ),
            ("py/main.py", ""),
            ("py/solve.py", ""),
        ]);
        let python = Choice {
            language: Language::by_code("python3"),
            entrypoint: None,
        };
        let script = Sources::read_as(&dir.path().join("script.txt"), &python).unwrap();
        assert_eq!(
            (script.language.id, script.main.as_str()),
            (LanguageId::Python3, "script.txt")
        );
        let enter = |at: &str, entrypoint: &str| {
            let choice = Choice {
                language: None,
                entrypoint: Some(entrypoint.into()),
            };
            Sources::read_as(&dir.path().join(at), &choice)
        };
        assert_eq!(
            enter("java", "Other").unwrap().class.as_deref(),
            Some("Other")
        );
        assert_eq!(enter("py", "solve.py").unwrap().main, "solve.py");
        let error = enter("py", "nope.py").unwrap_err().to_string();
        assert!(
            error.contains("its entrypoint `nope.py` (submissions.yaml) is not one of its files"),
            "{error}"
        );
        let python2 = Choice {
            language: Language::by_code("python2"),
            entrypoint: None,
        };
        assert_eq!(
            Sources::read_as(&dir.path().join("py"), &python2)
                .unwrap()
                .language
                .id,
            LanguageId::Python2
        );
        assert!(Language::by_code("ruby").is_none() && Language::by_code("").is_none());
    }

    #[test]
    fn entry_classes_and_python_versions() {
        let dir = folder(&[
            ("hello.kt", "fun main() {}"),
            (
                "Sol.java",
                "public class Sol { public static void main(String[] a) {} }",
            ),
            ("two.py", "#!/usr/bin/env python2\nprint 1\n"),
            ("three.py", "#!/usr/bin/env python3\nprint(1)\n"),
        ]);
        let read = |name: &str| Sources::read(&dir.path().join(name)).unwrap();
        assert_eq!(read("hello.kt").class.as_deref(), Some("HelloKt"));
        assert_eq!(read("Sol.java").main, "Sol.java");
        assert_eq!(read("two.py").language.id, LanguageId::Python2);
        assert_eq!(read("three.py").language.id, LanguageId::Python3);
    }
}
