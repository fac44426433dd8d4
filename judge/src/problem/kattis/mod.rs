//! Kattis / ICPC problem packages in the format's three versions (legacy, 2023-07-draft,
//! 2025-09): `problem.yaml`, the output validator, the test data, constants and included
//! files, and the `submissions/<verdict>/` folders that `judge verify` checks.

pub(crate) mod constants;
mod flags;
pub(crate) mod includes;
mod package_yaml;
pub(crate) mod scoring;
mod test_data;
pub(crate) mod time_limit;
pub mod validation;

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::compare::CompareMode;
use crate::error::{Error, Result};
use crate::problem::cases::natural_cmp;
use crate::problem::layout::{DATA_DIR, PACKAGE_FILE};
use crate::problem::{Problem, TestCase};
use crate::toolchain::sources::is_program;

pub use package_yaml::parse_package;
pub use test_data::ValidatorArgs;

/// `problem_format_version`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FormatVersion {
    /// No `problem_format_version`, or `legacy` / `legacy-icpc`.
    Legacy,
    /// `2023-07-draft`: `type`, `output_validator/`, `testdata.yaml` with
    /// `output_validator_args`.
    Draft2023,
    /// `2025-09` (and `draft`): as 2023-07, with `test_group.yaml` and per-case `.yaml`.
    V2025,
}

impl FormatVersion {
    fn parse(text: &str) -> Option<FormatVersion> {
        match text {
            "legacy" | "legacy-icpc" => Some(FormatVersion::Legacy),
            "2023-07-draft" | "2023-07" => Some(FormatVersion::Draft2023),
            "2025-09" | "2025-09-draft" | "draft" => Some(FormatVersion::V2025),
            _ => None,
        }
    }

    /// As `problem_format_version` names it.
    pub fn name(self) -> &'static str {
        match self {
            FormatVersion::Legacy => "legacy",
            FormatVersion::Draft2023 => "2023-07-draft",
            FormatVersion::V2025 => "2025-09",
        }
    }
}

/// How the time limit is chosen when the package gives none: the slowest accepted
/// submission's CPU time times `ac_to_time_limit` (legacy `time_multiplier`), rounded up to
/// a whole multiple of `time_resolution` seconds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Timing {
    pub ac_to_time_limit: f64,
    /// A submission that must time out runs to the time limit times this.
    pub time_limit_to_tle: f64,
    pub time_resolution: f64,
}

impl Timing {
    /// Never below one resolution step.
    pub fn limit_from(&self, slowest: Duration) -> Duration {
        let exact = slowest.as_secs_f64() * self.ac_to_time_limit;
        let steps = (exact / self.time_resolution).ceil().max(1.0);
        Duration::from_secs_f64(steps * self.time_resolution)
    }
}

/// What a package adds to a problem.
#[derive(Debug, Clone)]
pub struct Package {
    pub version: FormatVersion,
    /// `type: scoring` (legacy also `validation: custom score`): scored by `scoring::ScoringPlan`.
    pub scoring: bool,
    /// Legacy `validation: custom score`: the validator must write `score.txt`.
    pub validator_must_score: bool,
    /// Legacy `grading:` keys.
    pub grading: scoring::LegacyGrading,
    /// `limits.time_limit` or legacy `.timelimit`; without it `verify` derives one with
    /// `timing`, and `run` uses the default until then.
    pub time_limit_given: bool,
    /// Given as `limits.time_limit`: a bound the accepted submissions must fit in, × its
    /// `ac_to_time_limit` (a legacy `.timelimit` file is a derived limit kept, not a bound).
    pub time_limit_fixed: bool,
    pub timing: Timing,
    /// Put into its programs, included files and `test_group.yaml`.
    pub constants: constants::Constants,
    pub includes: includes::Includes,
    /// What `submissions.yaml` names for the submission judged.
    pub choice: crate::toolchain::sources::Choice,
    /// What of `problem.yaml` the format does not allow but judging can read past (a legacy
    /// `name` given as a map): `verify` warns of each.
    pub notes: Vec<String>,
}

impl Package {
    /// A submission's files as built: with `choice`, the included files and the constants.
    pub fn submission(&self, path: &Path) -> Result<crate::toolchain::sources::Sources> {
        let sources = crate::toolchain::sources::Sources::read_as(path, &self.choice)?;
        Ok(self.constants.apply_to(self.includes.add_to(sources)))
    }
}

/// Every judged case of a loaded package, in the format's order, with its output validator
/// arguments (`set_compare`).
pub fn find_cases(problem: &Problem) -> Result<Vec<TestCase>> {
    let package = problem.package.as_ref().expect("a package's problem");
    let mut cases =
        test_data::find_package_cases(&problem.dir, package.version, &package.constants)?;
    for case in &mut cases {
        set_compare(problem, case)?;
    }
    Ok(cases)
}

/// For the default validator, the case's arguments (flags such as `float_tolerance 1e-6`),
/// checked, as the case's compare mode.
pub fn set_compare(problem: &Problem, case: &mut TestCase) -> Result<()> {
    if let (None, CompareMode::Kattis(flags)) = (&problem.checker, problem.compare) {
        if !case.validator_args.is_empty() {
            let group_file = problem.dir.join(DATA_DIR).join(&case.name);
            let flags = flags::parse_onto(flags, &case.validator_args, &group_file)?;
            case.compare = Some(CompareMode::Kattis(flags));
        }
    }
    Ok(())
}

/// How a loaded scoring package scores its cases; `None` for a pass-fail one.
pub fn scoring_plan(problem: &Problem) -> Result<Option<crate::problem::Scoring>> {
    let Some(package) = problem.package.as_ref().filter(|package| package.scoring) else {
        return Ok(None);
    };
    let names: Vec<String> = problem.cases.iter().map(|case| case.name.clone()).collect();
    let plan = scoring::plan(
        &problem.dir,
        package.version,
        &package.grading,
        package.validator_must_score,
        &names,
        &package.constants,
    )?;
    Ok(Some(crate::problem::Scoring::Package(plan)))
}

/// Loads a package's metadata (`cases` left empty).
pub fn load_package(dir: &Path, id: String) -> Result<Problem> {
    let path = dir.join(PACKAGE_FILE);
    let text = std::fs::read_to_string(&path).map_err(|error| Error::io(&path, error))?;
    parse_package(dir, id, &text)
}

/// The line of the first `key:`, for errors: serde_norway keeps no spans.
pub(crate) fn yaml_line(text: &str, key: &str) -> Option<usize> {
    let prefix = format!("{key}:");
    text.lines()
        .position(|line| line.trim_start().starts_with(&prefix))
        .map(|index| index + 1)
}

/// In natural order, without dot-files (`.gitkeep`).
pub fn entries_in(folder: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(folder)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|entry| !entry.file_name().to_string_lossy().starts_with('.'))
        .map(|entry| entry.path())
        .collect();
    files.sort_by(|a, b| natural_cmp(&a.to_string_lossy(), &b.to_string_lossy()));
    files
}

/// The programs in a folder of programs (validators, a verdict's submissions), in natural
/// order, by the one rule `sources::is_program`.
pub fn programs_in(folder: &Path) -> Vec<PathBuf> {
    let mut programs = entries_in(folder);
    programs.retain(|path| is_program(path));
    programs
}
