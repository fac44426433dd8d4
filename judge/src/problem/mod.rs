//! A problem: its model and its cases, and everything read from a problem folder, a
//! Kattis package or a Polygon package to make one: `problem.toml` (every key optional, defaults from the judge
//! profile), the cases found on disk, the recipe and provenance of generated cases, and the
//! names of it all (`layout`).

pub(crate) mod case_patterns;
pub(crate) mod cases;
pub(crate) mod checker_spec;
pub(crate) mod confine;
pub mod kattis;
pub(crate) mod layout;
mod metadata;
pub(crate) mod natural_order;
pub mod polygon;
pub(crate) mod profile;
pub mod provenance;
pub mod recipe;
pub(crate) mod repository;
pub(crate) mod scoring;
pub(crate) mod toml_file;

use std::path::{Path, PathBuf};

pub use crate::toolchain::program::FileIo;
pub use case_patterns::CasePatterns;
pub use checker_spec::{CheckerSpec, Protocol};
pub use profile::Profile;
pub use repository::Repository;

use crate::compare::CompareMode;
use crate::error::Result;
use crate::toolchain::language::Language;
use crate::toolchain::sources::Sources;
use crate::toolchain::Limits;

/// One problem, ready to judge.
#[derive(Debug, Clone)]
pub struct Problem {
    /// The folder's name: `boj_7682`.
    pub id: String,
    /// The problem folder (or the package).
    pub dir: PathBuf,
    /// The problem's name for people; its id when the metadata gives none.
    pub name: String,
    /// Where the problem is published, when the metadata says.
    pub source_url: Option<String>,
    /// The judge's page to submit it on, when `problem.toml` says (`submit`).
    pub submit_url: Option<String>,
    /// The online judge the problem is judged as: its limits, compare mode and rules.
    pub profile: Profile,
    /// The solution judged by default.
    pub solution: PathBuf,
    /// The limits a solution runs under (before the judge's allowance for its language).
    pub limits: Limits,
    /// How an output is compared with the expected one, when there is no checker.
    pub compare: CompareMode,
    /// A custom checker, used instead of `compare` when present.
    pub checker: Option<CheckerSpec>,
    /// Every case, samples first, in the order they are judged.
    pub cases: Vec<TestCase>,
    /// `[[subtasks]]` of `problem.toml`, as written; `resolve_subtasks` turns them into
    /// `scoring` once the cases are known.
    pub subtasks: Vec<scoring::SubtaskSpec>,
    /// How a submission is scored, when it is (subtasks, a scoring package); `None` for a
    /// problem that is only pass-fail.
    pub scoring: Option<scoring::Scoring>,
    /// What a Kattis package adds: its format version, type and timing rules; `None` for
    /// our problems.
    pub package: Option<kattis::Package>,
    /// The function the judge calls, for a function-form problem (Programmers): each case
    /// line is one call's arguments, each expected line its result.
    pub function: Option<crate::toolchain::signature::Signature>,
    /// `problem.toml`'s `validator_args`: each group's arguments for the validator, `"*"`
    /// for the others (a package's validators take theirs from its test groups).
    pub validator_args: std::collections::BTreeMap<String, Vec<String>>,
    /// The files the program reads and writes instead of its standard streams.
    pub files: FileIo,
    /// `[picture]` of `problem.toml`: how the HTML report draws its inputs' boards.
    pub picture: Picture,
    /// The class the problem's judge runs a Java solution as, where it is not the judge's
    /// usual one (Google's `Solution`, USACO training's task id).
    pub java_class: Option<String>,
    /// With an interactor: the checker that then reads what the interactor wrote (testlib's
    /// `tout`), as `checker input tout answer`, as Polygon judges an interactive problem.
    pub tout_checker: Option<CheckerSpec>,
}

/// How the HTML report draws a problem's boards, where it cannot tell alone.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Picture {
    /// The shape (rows, columns) of boards written flat, one per line.
    pub flat: Option<(usize, usize)>,
    /// The answer's line (1-based) that names a cell as `row col`, marked on the board for
    /// the expected answer and the one given.
    pub answer_cell: Option<usize>,
}

impl Problem {
    /// The checker that talks with the solution while it runs (an interactive or multi-pass
    /// problem's validator), if the problem has one.
    pub fn interaction(&self) -> Option<&CheckerSpec> {
        self.checker.as_ref().filter(|spec| !spec.mode.is_plain())
    }

    /// The files a solution of this problem is built from: a package's adds its included
    /// files and constants (see `Package::submission`).
    pub fn solution_sources(&self, solution: &Path) -> Result<Sources> {
        let sources = match &self.package {
            Some(package) => package.submission(solution)?,
            None => Sources::read(solution)?,
        };
        let mut sources = sources.judged_by(self.profile.online_judge());
        if let Some(class) = &self.java_class {
            sources = sources.run_as(class);
        }
        Ok(match &self.function {
            Some(signature) => sources.with_caller(signature),
            None => sources,
        })
    }

    /// The files of a program of the problem itself (its checker, validator, interactor,
    /// reference or generator): with the headers a C or C++ file includes from beside it
    /// (`testlib.h`), and a package's with its constants.
    pub fn own_program_sources(&self, program: &Path) -> Result<Sources> {
        let mut sources = Sources::read(program)?;
        if let Some(folder) = program.parent().filter(|_| program.is_file()) {
            sources = sources.with_local_headers(folder)?;
        }
        if polygon::is_package(&self.dir) {
            // A Polygon package keeps its `testlib.h` in `files/`, wherever the program is.
            sources = sources.with_local_headers(&self.dir.join(layout::POLYGON_FILES_DIR))?;
        }
        Ok(match &self.package {
            Some(package) => package.constants.apply_to(sources),
            None => sources,
        })
    }

    /// The validator's arguments for a case of `group` (the first folder of its name), or
    /// for an input of no group yet (`stress`): the group's, else those of `"*"`.
    pub fn validator_args(&self, group: Option<&str>) -> &[String] {
        group
            .and_then(|group| self.validator_args.get(group))
            .or_else(|| self.validator_args.get(ANY_GROUP))
            .map_or(&[], Vec::as_slice)
    }

    /// The limits a program in `language` runs under: the problem's, plus what the profile's
    /// judge grants that language.
    pub fn limits_for(&self, language: &Language) -> Limits {
        self.profile.allowance(language.id).apply(self.limits)
    }
}

/// The key of `validator_args` for every group it does not name.
pub const ANY_GROUP: &str = "*";

/// One input and its expected output.
#[derive(Debug, Clone, PartialEq)]
pub struct TestCase {
    /// Path below the tests folder, without extension: `sample/1`.
    pub name: String,
    /// The input file.
    pub input: PathBuf,
    /// The expected output (`.out`, or a package's `.ans`).
    pub expected: PathBuf,
    /// Arguments for the output validator on this case, after the problem's own (a Kattis
    /// package's `output_validator_args`); empty for our problems.
    pub validator_args: Vec<String>,
    /// The default validator's mode for this case when its arguments change it (a package's
    /// `output_validator_args: [float_tolerance, ...]`); else the problem's.
    pub compare: Option<CompareMode>,
}

/// Files for the tests of the modules that read problem folders.
#[cfg(test)]
pub(crate) mod test_files {
    use std::path::Path;

    /// Writes `text` to `dir/relative`, making the folders on the way.
    pub(crate) fn write(dir: &Path, relative: &str, text: &str) {
        let path = dir.join(relative);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    /// A file of one line at `dir/relative`, for tests that need only its name.
    pub(crate) fn touch(dir: &Path, relative: &str) {
        write(dir, relative, "x\n");
    }
}
