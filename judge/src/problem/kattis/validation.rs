//! What a package's test data must satisfy, as the format, problemtools and BAPCtools say:
//! its input and answer validators accept every judged case, and the validation data of
//! `data/` is turned away where it must be. `runner::verify::validation` runs them.

use std::path::{Path, PathBuf};

use super::package_yaml::legacy_output_validators;
use super::test_data::{group_setting, GroupYaml, ValidatorArgs};
use super::{entries_in, Package};
use crate::error::Result;
use crate::problem::cases::natural_cmp;
use crate::problem::layout::{
    ANSWER_VALIDATORS_DIR, DATA_DIR, INPUT_VALIDATORS_DIRS, INVALID_ANSWER_DIR, INVALID_INPUT_DIR,
    INVALID_OUTPUT_DIR, VALID_OUTPUT_DIR,
};
use crate::problem::{Problem, TestCase};
use crate::toolchain::sources::is_program;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expect {
    /// A judged case (`sample/`, `secret/`): every input validator accepts its input and
    /// every answer validator its answer.
    Valid,
    /// `invalid_input/`: some input validator rejects it.
    InvalidInput,
    /// `invalid_answer/`: the input is valid, and some answer validator rejects the answer.
    InvalidAnswer,
    /// `invalid_output/`: input and answer valid, and the output validator rejects `.out`.
    InvalidOutput,
    /// `valid_output/`: input and answer valid, and the output validator accepts `.out`.
    ValidOutput,
}

/// One case the validators are run on.
#[derive(Debug, Clone)]
pub struct DataCase {
    /// As judged cases are named: `secret/02`, `invalid_input/too_big`.
    pub name: String,
    pub input: PathBuf,
    /// None in `invalid_input/`.
    pub answer: Option<PathBuf>,
    /// The `.out` of `invalid_output/` and `valid_output/`, and a judged case's example
    /// output (which the output validator must accept, as the format says).
    pub output: Option<PathBuf>,
    pub expect: Expect,
    /// Legacy `input_validator_flags` too.
    pub input_args: ValidatorArgs,
    pub answer_args: ValidatorArgs,
    /// For the output cases.
    pub output_args: Vec<String>,
}

#[derive(Debug, Clone, Default)]
pub struct ValidationPlan {
    /// Each a program (a file or a folder), or a `.ctd` / `.viva` script.
    pub input_validators: Vec<PathBuf>,
    /// Each called as `validator input_file [args] < answer`.
    pub answer_validators: Vec<PathBuf>,
    /// Some are in the deprecated `input_format_validators/`.
    pub deprecated_folder: bool,
    /// Every program of a legacy `output_validators/` that holds several, when the package
    /// is judged with the first (`package_yaml::legacy_output_validators`); else empty.
    pub several_output_validators: Vec<PathBuf>,
    /// The judged cases, then those of the validation folders.
    pub cases: Vec<DataCase>,
    /// Validation cases that lack a file their kind needs: package faults, reported with
    /// the others.
    pub incomplete: Vec<String>,
}

impl ValidationPlan {
    pub fn of(problem: &Problem) -> Result<ValidationPlan> {
        let package = problem.package.as_ref().expect("a package's problem");
        let (input_validators, deprecated_folder) = input_validators(&problem.dir);
        let answer_validators = answer_validators(&problem.dir);
        let mut cases = Vec::new();
        let mut incomplete = Vec::new();
        for case in &problem.cases {
            cases.push(data_case(problem, package, case, Expect::Valid)?);
        }
        for (folder, expect) in [
            (INVALID_INPUT_DIR, Expect::InvalidInput),
            (INVALID_ANSWER_DIR, Expect::InvalidAnswer),
            (INVALID_OUTPUT_DIR, Expect::InvalidOutput),
            (VALID_OUTPUT_DIR, Expect::ValidOutput),
        ] {
            cases.extend(validation_cases(
                problem,
                package,
                folder,
                expect,
                &mut incomplete,
            )?);
        }
        Ok(ValidationPlan {
            input_validators,
            answer_validators,
            deprecated_folder,
            several_output_validators: several_output_validators(problem),
            cases,
            incomplete,
        })
    }
}

/// The deprecated folder's after the current one's, and whether it holds any.
fn input_validators(dir: &Path) -> (Vec<PathBuf>, bool) {
    let [current, deprecated] = INPUT_VALIDATORS_DIRS;
    let mut validators = validators_in(&dir.join(current));
    let old = validators_in(&dir.join(deprecated));
    let deprecated_folder = !old.is_empty();
    validators.extend(old);
    (validators, deprecated_folder)
}

fn answer_validators(dir: &Path) -> Vec<PathBuf> {
    validators_in(&dir.join(ANSWER_VALIDATORS_DIR))
}

/// A validator folder's programs, and its checktestdata and Viva scripts, the format's two
/// other forms of an input validator ("Input validators"; problemtools'
/// `allow_validation_script`).
fn validators_in(folder: &Path) -> Vec<PathBuf> {
    let mut validators = entries_in(folder);
    validators.retain(|path| is_program(path) || is_validation_script(path));
    validators
}

fn is_validation_script(path: &Path) -> bool {
    path.is_file()
        && path
            .extension()
            .is_some_and(|extension| extension == "ctd" || extension == "viva")
}

fn several_output_validators(problem: &Problem) -> Vec<PathBuf> {
    let programs = legacy_output_validators(&problem.dir);
    let used = problem.checker.as_ref().map(|spec| &spec.source);
    match programs.first() {
        Some(first) if programs.len() > 1 && used == Some(first) => programs,
        _ => Vec::new(),
    }
}

/// Input validators first; reads no data.
pub fn validators(dir: &Path) -> Vec<PathBuf> {
    [input_validators(dir).0, answer_validators(dir)].concat()
}

fn data_case(
    problem: &Problem,
    package: &Package,
    case: &TestCase,
    expect: Expect,
) -> Result<DataCase> {
    let (input_args, answer_args) = validator_args(problem, package, &case.input)?;
    // A sample's example output, where the output validator reads outputs after the run.
    let plain = problem
        .checker
        .as_ref()
        .is_none_or(|spec| spec.mode.is_plain());
    let output = Some(case.input.with_extension("out")).filter(|out| plain && out.is_file());
    Ok(DataCase {
        name: case.name.clone(),
        input: case.input.clone(),
        answer: Some(case.expected.clone()),
        output,
        expect,
        input_args,
        answer_args,
        output_args: case.validator_args.clone(),
    })
}

fn validator_args(
    problem: &Problem,
    package: &Package,
    input: &Path,
) -> Result<(ValidatorArgs, ValidatorArgs)> {
    let data = problem.dir.join(DATA_DIR);
    let stem = input.with_extension("");
    let (version, constants) = (package.version, &package.constants);
    let of = |pick: fn(GroupYaml) -> Option<ValidatorArgs>| {
        group_setting(&data, &stem, version, constants, pick).map(Option::unwrap_or_default)
    };
    Ok((of(GroupYaml::input_args)?, of(GroupYaml::answer_args)?))
}

/// Each `.in` of one validation folder of `data/`, with the files its kind needs beside it
/// (`.ans`, and `.out` for outputs); one that lacks one goes to `incomplete` instead.
fn validation_cases(
    problem: &Problem,
    package: &Package,
    folder: &str,
    expect: Expect,
    incomplete: &mut Vec<String>,
) -> Result<Vec<DataCase>> {
    let data = problem.dir.join(DATA_DIR);
    let root = data.join(folder);
    if !root.is_dir() {
        return Ok(Vec::new());
    }
    let mut inputs: Vec<PathBuf> = Vec::new();
    for entry in super::test_data::walk_data(&root) {
        let entry = entry?;
        let path = entry.path();
        if entry.file_type().is_file() && path.extension().is_some_and(|e| e == "in") {
            inputs.push(path.to_path_buf());
        }
    }
    inputs.sort_by(|a, b| natural_cmp(&a.to_string_lossy(), &b.to_string_lossy()));
    let mut cases = Vec::new();
    for input in inputs {
        let needs = |extension: &str| match extension {
            "ans" => expect != Expect::InvalidInput,
            _ => matches!(expect, Expect::InvalidOutput | Expect::ValidOutput),
        };
        let beside =
            |extension: &str| Some(input.with_extension(extension)).filter(|_| needs(extension));
        let (answer, output) = (beside("ans"), beside("out"));
        let missing: Vec<String> = [&answer, &output]
            .into_iter()
            .flatten()
            .filter(|path| !path.is_file())
            .filter_map(|path| Some(path.file_name()?.to_string_lossy().into_owned()))
            .collect();
        if !missing.is_empty() {
            let shown = input.strip_prefix(&problem.dir).unwrap_or(&input);
            incomplete.push(format!(
                "{}: a case of data/{folder}/ needs {} beside it",
                shown.display(),
                missing.join(" and ")
            ));
            continue;
        }
        let name = input
            .with_extension("")
            .strip_prefix(&data)
            .unwrap_or(&input)
            .to_string_lossy()
            .into_owned();
        let (input_args, answer_args) = validator_args(problem, package, &input)?;
        let output_args = group_setting(
            &data,
            &input.with_extension(""),
            package.version,
            &package.constants,
            GroupYaml::output_args,
        )?
        .unwrap_or_default();
        cases.push(DataCase {
            name,
            input,
            answer,
            output,
            expect,
            input_args,
            answer_args,
            output_args,
        });
    }
    Ok(cases)
}
