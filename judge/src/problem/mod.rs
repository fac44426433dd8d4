//! A problem and its cases, read from a problem folder (`problem.toml`, every key optional
//! with defaults from the judge profile), a Kattis package or a Polygon package; `layout`
//! names their files.
//!
//! A problem that gives points is scored by `Scoring`: Baekjoon-style subtasks (`[[subtasks]]` of
//! `problem.toml`) or a Kattis scoring package's plan (`kattis::scoring`). In every format a
//! group's score comes from its items' by one `Aggregation`; `judging::scorecard` scores a
//! submission.

pub(crate) mod cases;
pub(crate) mod checker_spec;
pub(crate) mod confine;
pub mod kattis;
pub(crate) mod layout;
mod metadata;
pub mod polygon;
pub mod provenance;
pub mod recipe;
pub(crate) mod repository;

use std::path::{Path, PathBuf};

pub use crate::toolchain::online_judges::Profile;
pub use crate::toolchain::program::FileIo;
pub use cases::CasePatterns;
pub use checker_spec::{CheckerSpec, Protocol};
pub(crate) use metadata::{line_at, parse_toml, Located};
pub use repository::Repository;

use crate::compare::CompareMode;
use crate::error::{Error, Result};
use crate::toolchain::language::{Language, LanguageId};
use crate::toolchain::sources::{Choice, Sources};
use crate::toolchain::Limits;
use layout::METADATA_FILE;

#[derive(Debug, Clone)]
pub struct Problem {
    /// The folder's name: `boj_7682`.
    pub id: String,
    /// The problem folder or package.
    pub dir: PathBuf,
    /// The id when the metadata gives none.
    pub name: String,
    pub source_url: Option<String>,
    /// `problem.toml`'s `submit`.
    pub submit_url: Option<String>,
    pub profile: Profile,
    /// Judged by default.
    pub solution: PathBuf,
    /// Before the judge's allowance for a language.
    pub limits: Limits,
    /// When there is no checker.
    pub compare: CompareMode,
    pub checker: Option<CheckerSpec>,
    /// Samples first, in the order they are judged.
    pub cases: Vec<TestCase>,
    /// `[[subtasks]]` as written; `resolve_subtasks` turns them into `scoring` once the cases
    /// are known.
    pub subtasks: Vec<SubtaskSpec>,
    /// `None` for a pass-fail problem.
    pub scoring: Option<Scoring>,
    /// A Kattis package's format version, type and timing rules.
    pub package: Option<kattis::Package>,
    /// For a function-form problem (Programmers): each case line is one call's arguments,
    /// each expected line its result.
    pub function: Option<crate::toolchain::signature::Signature>,
    /// Each group's validator arguments, `"*"` for the others (a package's validators take
    /// theirs from its test groups).
    pub validator_args: std::collections::BTreeMap<String, Vec<String>>,
    pub files: FileIo,
    pub picture: Picture,
    /// Where the judge runs Java as another class than usual (Google's `Solution`, USACO
    /// training's task id).
    pub java_class: Option<String>,
    /// With an interactor: the checker of what the interactor wrote (testlib's `tout`), run
    /// as `checker input tout answer`, as Polygon judges an interactive problem.
    pub tout_checker: Option<CheckerSpec>,
    /// Solutions whose language the problem names, where their extension would say another:
    /// Polygon's source types (a `.py` of type `python.2`).
    pub solution_languages: std::collections::BTreeMap<PathBuf, NamedLanguage>,
}

/// A language a problem names for a solution (a Polygon source type).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NamedLanguage {
    pub id: LanguageId,
    /// The least `(major, minor)` version the name asks for (`kotlin17`: Kotlin 1.7).
    pub least: Option<(u32, u32)>,
    /// Run on PyPy (`python.pypy3`), where the judge offers it.
    pub pypy: bool,
    /// The C++ standard's compiler flag (`cpp.g++11`: `-std=c++11`).
    pub standard: Option<&'static str>,
}

/// The ranges a problem's files may give the limits in (docs/problems.md, "A problem
/// folder"): wide enough for any real judge, narrow enough that nothing the judge computes
/// from them (bytes, allowances, the wall-clock backstop, `-Xmx`) can overflow.
pub const TIME_LIMIT_MS: std::ops::RangeInclusive<u64> = 1..=3_600_000;
/// Memory, stack and output limits, in MiB.
pub const SIZE_LIMIT_MIB: std::ops::RangeInclusive<u64> = 1..=1 << 20;

/// `[picture]` of `problem.toml`: how the HTML report draws boards where it cannot tell.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Picture {
    /// (rows, columns) of boards written flat, one per line.
    pub flat: Option<(usize, usize)>,
    /// The answer's line (from 1) that names a cell as `row col`, marked on the board.
    pub answer_cell: Option<usize>,
}

impl Problem {
    /// The checker that talks with the solution while it runs (an interactive or multi-pass
    /// problem's validator).
    pub fn interaction(&self) -> Option<&CheckerSpec> {
        self.checker.as_ref().filter(|spec| !spec.mode.is_plain())
    }

    /// The language the problem names for `solution` (`solution_languages`), if any.
    pub fn solution_choice(&self, solution: &Path) -> Choice {
        let named = self.solution_languages.get(solution);
        match named.and_then(|named| Language::by_id(named.id)) {
            Some(language) => Choice::language(language),
            None => Choice::default(),
        }
    }

    /// A package adds its included files and constants (`Package::submission`).
    pub fn solution_sources(&self, solution: &Path) -> Result<Sources> {
        let sources = match &self.package {
            Some(package) => package.submission(solution)?,
            None => Sources::read_as(solution, &self.solution_choice(solution))?,
        };
        let judge = self.profile.online_judge();
        let mut sources = sources.judged_by(judge);
        if let Some(named) = self.solution_languages.get(solution) {
            if named.pypy {
                sources = sources.on_pypy(judge);
            }
            sources.standard = named.standard;
        }
        if let Some(class) = &self.java_class {
            sources = sources.run_as(class);
        }
        Ok(match &self.function {
            Some(signature) => sources.with_caller(signature),
            None => sources,
        })
    }

    /// A program of the problem itself (checker, validator, generator, ...), with the headers
    /// a C or C++ file includes from beside it (`testlib.h`); a package's with its constants,
    /// built and run as its submissions are (Python 3 on PyPy), as problemtools builds every
    /// program of a package by its languages table.
    pub fn own_program_sources(&self, program: &Path) -> Result<Sources> {
        let mut sources = Sources::read(program)?;
        if let Some(folder) = program.parent().filter(|_| program.is_file()) {
            sources = sources.with_local_headers(folder)?;
        }
        if layout::ProblemFormat::of(&self.dir) == layout::ProblemFormat::Polygon {
            // A Polygon package keeps its `testlib.h` in `files/`, wherever the program is.
            sources = sources.with_local_headers(&self.dir.join(layout::POLYGON_FILES_DIR))?;
        }
        Ok(match &self.package {
            Some(package) => {
                (package.constants.apply_to(sources)).judged_by(self.profile.online_judge())
            }
            None => sources,
        })
    }

    /// The validator's arguments for a case of `group` (the first folder of its name; `None`
    /// for `stress`'s inputs): the group's, else those of `"*"`.
    pub fn validator_args(&self, group: Option<&str>) -> &[String] {
        group
            .and_then(|group| self.validator_args.get(group))
            .or_else(|| self.validator_args.get(ANY_GROUP))
            .map_or(&[], Vec::as_slice)
    }

    /// The problem's limits plus the judge's allowance for `language`.
    pub fn limits_for(&self, language: &Language) -> Limits {
        self.profile
            .online_judge()
            .allowance(language.id)
            .apply(self.limits)
    }
}

/// The key of `validator_args` for every group it does not name.
pub const ANY_GROUP: &str = "*";

#[derive(Debug, Clone, PartialEq)]
pub struct TestCase {
    /// Path below the tests folder, without extension: `sample/1`.
    pub name: String,
    pub input: PathBuf,
    /// `.out`, or a package's `.ans`.
    pub expected: PathBuf,
    /// The output validator's arguments after the problem's own (a Kattis package's
    /// `output_validator_args`).
    pub validator_args: Vec<String>,
    /// The submission's command-line arguments (a 2025-09 package's `args`).
    pub args: Vec<String>,
    /// Where this case's validator arguments change the default validator's mode
    /// (`[float_tolerance, ...]`); else the problem's.
    pub compare: Option<CompareMode>,
    /// A folder whose files the submission finds in its working folder (a Kattis case's
    /// `NAME.files`).
    pub files: Option<PathBuf>,
}

impl TestCase {
    /// A case with no arguments of its own for the submission or the output validator.
    pub fn new(name: String, input: PathBuf, expected: PathBuf) -> TestCase {
        TestCase {
            name,
            input,
            expected,
            validator_args: Vec::new(),
            args: Vec::new(),
            compare: None,
            files: None,
        }
    }
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

/// How a group's score follows from its items' (cases or groups).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Aggregation {
    /// The group's maximum when every item is accepted, else 0 (Baekjoon's subtasks, the
    /// 2025-09 format's default for a group).
    PassFail,
    Sum,
    Min,
    /// Legacy Kattis grader modes.
    Max,
    Average,
}

/// One item's result, as its group sees it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Scored {
    pub accepted: bool,
    pub score: f64,
}

impl Scored {
    /// A case rejected or not judged, or a group not run.
    pub const FAILED: Scored = Scored {
        accepted: false,
        score: 0.0,
    };
}

impl Aggregation {
    /// The group's score from its items'; `max_score` is what pass-fail awards.
    pub fn apply(self, max_score: Option<f64>, items: &[Scored]) -> f64 {
        let scores = items.iter().map(|item| item.score);
        match self {
            Aggregation::PassFail if items.iter().all(|item| item.accepted) => {
                max_score.unwrap_or(0.0)
            }
            Aggregation::PassFail => 0.0,
            Aggregation::Sum => scores.sum(),
            // An empty group scores nothing.
            Aggregation::Min => scores.reduce(f64::min).unwrap_or(0.0),
            Aggregation::Max => scores.reduce(f64::max).unwrap_or(0.0),
            Aggregation::Average if items.is_empty() => 0.0,
            Aggregation::Average => scores.sum::<f64>() / items.len() as f64,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum Scoring {
    Subtasks(Vec<Subtask>),
    /// A Kattis package of type `scoring`.
    Package(kattis::scoring::ScoringPlan),
}

/// A Baekjoon subtask: its points are won when every one of its cases is accepted.
#[derive(Debug, Clone, PartialEq)]
pub struct Subtask {
    pub name: String,
    pub points: f64,
    /// Case names its patterns matched at load.
    pub cases: Vec<String>,
    /// Subtasks that must be wholly accepted for this one to score (a Polygon group's
    /// dependencies).
    pub dependencies: Vec<String>,
    /// A Polygon test scored by itself: what one point of a testlib checker (exit 7) is worth
    /// (1, or the test's points / 100 with `treat-points-from-checker-as-percent`); `None`
    /// where the checker's points are not the score.
    pub checker_points: Option<f64>,
}

/// A subtask as `problem.toml` gives it, before its patterns are matched.
#[derive(Debug, Clone, PartialEq)]
pub struct SubtaskSpec {
    pub name: String,
    pub points: f64,
    /// Each pattern with its line in `problem.toml`, for the error when it matches nothing.
    pub patterns: Vec<(String, usize)>,
}

impl Problem {
    /// Matches each subtask's patterns to the cases as `--case` does; a pattern that matches
    /// none is an error naming its line.
    pub fn resolve_subtasks(&self) -> Result<Option<Scoring>> {
        if self.subtasks.is_empty() {
            return Ok(None);
        }
        let path = self.dir.join(METADATA_FILE);
        let mut resolved = Vec::new();
        for spec in &self.subtasks {
            let mut cases: Vec<String> = Vec::new();
            for (pattern, line) in &spec.patterns {
                let patterns = CasePatterns::new(std::slice::from_ref(pattern))?;
                let matched: Vec<&TestCase> = self
                    .cases
                    .iter()
                    .filter(|case| patterns.matches(&case.name))
                    .collect();
                if matched.is_empty() {
                    return Err(Error::parse(
                        &path,
                        Some(*line),
                        format!(
                            "subtask `{}`: case pattern `{pattern}` matches no case",
                            spec.name
                        ),
                    ));
                }
                for case in matched {
                    if !cases.contains(&case.name) {
                        cases.push(case.name.clone());
                    }
                }
            }
            resolved.push(Subtask {
                name: spec.name.clone(),
                points: spec.points,
                cases,
                dependencies: Vec::new(),
                checker_points: None,
            });
        }
        Ok(Some(Scoring::Subtasks(resolved)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn items(list: &[(bool, f64)]) -> Vec<Scored> {
        list.iter()
            .map(|&(accepted, score)| Scored { accepted, score })
            .collect()
    }

    #[test]
    fn aggregations_combine_item_scores() {
        let mixed = items(&[(true, 30.0), (false, 0.0), (true, 12.5)]);
        assert_eq!(Aggregation::Sum.apply(None, &mixed), 42.5);
        assert_eq!(Aggregation::Min.apply(None, &mixed), 0.0);
        assert_eq!(Aggregation::Max.apply(None, &mixed), 30.0);
        assert_eq!(Aggregation::Average.apply(None, &mixed), 42.5 / 3.0);
        assert_eq!(Aggregation::PassFail.apply(Some(25.0), &mixed), 0.0);
        let all = items(&[(true, 0.0), (true, 0.0)]);
        assert_eq!(Aggregation::PassFail.apply(Some(25.0), &all), 25.0);
        assert_eq!(Aggregation::Min.apply(None, &[]), 0.0);
        assert_eq!(Aggregation::Average.apply(None, &[]), 0.0);
    }
}
