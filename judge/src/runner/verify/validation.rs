//! `judge verify`'s check of a package's test data, as problemtools' `verifyproblem` and
//! BAPCtools' `bt validate` make it: every judged input and answer through every validator
//! (exit 42 accepts), `data/`'s validation folders refused (or, `valid_output/`, taken) as
//! the format says, and junk inputs some validator should refuse (a warning if all accept,
//! as in problemtools). A validator that does not build or crashes is an error, never a pass.

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use super::plan::file_name;
use crate::error::{Error, Result};
use crate::judging::checker::{
    build_checker, build_own_program, check, first_error, first_line, last_line, with_colon,
    Judgement,
};
use crate::judging::verdict::{classify_run, Verdict};
use crate::problem::checker_spec::CHECKER_LIMITS;
use crate::problem::kattis::validation::{validators, DataCase, Expect, ValidationPlan};
use crate::problem::kattis::{set_compare, ValidatorArgs};
use crate::problem::layout::{DATA_DIR, DATA_DIRS, SAMPLE_DIR, SECRET_DIR};
use crate::problem::Scoring;
use crate::problem::{Problem, TestCase};
use crate::report::plural;
use crate::sandbox::{find_on_path, RunSpec, Sandbox, Termination};
use crate::toolchain::compiler::{Build, Compiler};
use crate::toolchain::{Program, RunOptions};

const ACCEPTS: i32 = 42;
/// A program validator's exit code for an input or answer it refuses.
const REFUSES: i32 = 43;

#[derive(Debug, Clone, Default)]
pub struct DataReport {
    /// How many validators ran, and on how many cases.
    pub validators: usize,
    pub cases: usize,
    /// A judged case a validator refuses, an invalid case all accept, a validator that does
    /// not build or crashes.
    pub errors: Vec<String>,
    /// What should hold but does not spoil judging: junk no validator refuses, the deprecated
    /// folder name, no input validator.
    pub warnings: Vec<String>,
    /// What was not checked on this machine, and why.
    pub notes: Vec<String>,
    /// A program that judges submissions (the output validator, the checker after an
    /// interactor, the grader) does not build: no submission can be judged.
    pub judges_unbuilt: bool,
}

struct PackageValidator {
    /// Inside the package: `input_validators/validate.py`.
    name: String,
    path: PathBuf,
    how: How,
}

enum How {
    /// Exit 42 accepts, any other refuses.
    Program(Program),
    /// A checktestdata (`.ctd`) or Viva (`.viva`) script with the package's constants put
    /// in: exit 0 accepts, 1 refuses. Viva takes the file as an argument.
    Script {
        tool: OsString,
        script: tempfile::TempPath,
        file_as_argument: bool,
    },
}

enum Said {
    Accepts,
    Refuses(String),
}

/// Each of the package's programs that judge a submission (its output validator or checker,
/// the checker after an interactor, its grader) that does not build, named with the
/// compiler's first error, as problemtools stops at one: without it nothing can be judged.
pub(super) fn unbuilt_judges(problem: &Problem, compiler: &Compiler) -> Vec<String> {
    let checker = match (problem.package.is_some(), problem.interaction().is_some()) {
        (true, _) => "output validator",
        (false, true) => "interactor",
        (false, false) => "checker",
    };
    let grader = problem.scoring.as_ref().and_then(Scoring::grader);
    let programs = (problem
        .checker
        .iter()
        .map(|spec| (spec.source.as_path(), checker)))
    .chain(
        problem
            .tout_checker
            .iter()
            .map(|spec| (spec.source.as_path(), "checker")),
    )
    .chain(grader.map(|path| (path, "grader")));
    programs
        .filter_map(|(path, what)| {
            let name = shown(problem, path);
            match build_own_program(compiler, problem, path) {
                Ok(_) => None,
                Err(Error::DoesNotCompile { message, .. }) => Some(format!(
                    "{name}: the {what} does not compile: {}",
                    first_error(&message)
                )),
                Err(error) => Some(format!("{name}: the {what} cannot be built: {error}")),
            }
        })
        .collect()
}

/// What the data check builds: the validators that are not scripts, and the checker.
pub(super) fn programs(problem: &Problem) -> Vec<PathBuf> {
    (validators(&problem.dir).into_iter())
        .filter(|path| script_tools(path).is_none())
        .chain(problem.checker.iter().map(|spec| spec.source.clone()))
        .collect()
}

/// `jobs` validator runs at a time.
pub fn check_data(problem: &Problem, compiler: &Compiler, jobs: usize) -> Result<DataReport> {
    let plan = ValidationPlan::of(problem)?;
    let mut report = layout_findings(problem, &plan);
    let mut build = |paths: &[PathBuf]| -> Vec<PackageValidator> {
        let mut built = Vec::new();
        for path in paths {
            match PackageValidator::build(problem, compiler, path) {
                Ok(Some(validator)) => built.push(validator),
                Ok(None) => report.notes.push(format!(
                    "{}: not run, as {} is not installed",
                    shown(problem, path),
                    script_tools(path).unwrap_or_default().join(" or ")
                )),
                // A build the stop ended is no fault of the validator.
                Err(_) if crate::runner::interrupt::pending() => {}
                Err(error) => report.errors.push(error),
            }
        }
        built
    };
    let inputs = build(&plan.input_validators);
    let answers = build(&plan.answer_validators);
    let unbuilt =
        plan.input_validators.len() + plan.answer_validators.len() - inputs.len() - answers.len();
    let judges = unbuilt_judges(problem, compiler);
    report.judges_unbuilt = !judges.is_empty();
    report.errors.extend(judges);
    // Only when some output is to be checked: a sample's `.out` or an output case's. One that
    // does not build is said above, once, and the outputs are not checked.
    let outputs = plan.cases.iter().any(|case| case.output.is_some());
    let checker = match outputs && !report.judges_unbuilt {
        true => build_checker(compiler, problem)?,
        false => None,
    };
    // A validator that cannot run makes "every validator accepts" unknowable.
    let complete = unbuilt == 0;
    let context = CaseChecks {
        problem,
        sandbox: compiler.sandbox(),
        inputs: &inputs,
        answers: &answers,
        checker: checker.as_ref(),
        complete,
        outputs_checked: !report.judges_unbuilt,
    };
    let (checked, warnings) = context.check_all(&plan.cases, jobs)?;
    if !inputs.is_empty() && !complete {
        report.notes.push(
            "no junk inputs were tried: not every validator could run, and the others' taking one proves nothing"
                .to_owned(),
        );
    }
    report.validators = inputs.len() + answers.len();
    report.cases = checked.iter().flatten().count();
    if let Some(signal) = crate::runner::interrupt::requested() {
        report.notes.push(format!(
            "stopped by {}: {} not checked",
            crate::sandbox::Termination::Signaled(signal),
            plural(plan.cases.len() - report.cases, "case")
        ));
    }
    report
        .errors
        .extend(checked.into_iter().flatten().flatten());
    report.warnings.extend(warnings);
    Ok(report)
}

/// What the package's files and their layout say before anything runs.
fn layout_findings(problem: &Problem, plan: &ValidationPlan) -> DataReport {
    let package_notes = problem.package.iter().flat_map(|package| &package.notes);
    let grading_notes = match &problem.scoring {
        Some(Scoring::Package(plan)) => plan.format_notes(),
        _ => Vec::new(),
    };
    DataReport {
        errors: (plan.incomplete.iter().cloned())
            .chain(data_layout_errors(&problem.dir))
            .collect(),
        warnings: (package_notes.cloned())
            .chain(grading_notes)
            .chain(layout_warnings(plan))
            .chain(no_samples(problem))
            .collect(),
        ..DataReport::default()
    }
}

/// problemtools warns of a package without samples: a statement shows none.
fn no_samples(problem: &Problem) -> Option<String> {
    let sample = format!("{SAMPLE_DIR}/");
    let any = (problem.cases.iter()).any(|case| case.name.starts_with(&sample));
    (!any).then(|| format!("no sample data: {DATA_DIR}/{SAMPLE_DIR}/ holds no case"))
}

fn layout_warnings(plan: &ValidationPlan) -> Vec<String> {
    let mut warnings = Vec::new();
    if plan.deprecated_folder {
        warnings.push(
            "input_format_validators/ is the deprecated name of input_validators/".to_owned(),
        );
    }
    if plan.input_validators.is_empty() {
        warnings.push(
            "no input validators (input_validators/): the format asks for one, and no input was checked"
                .to_owned(),
        );
    }
    if let [used, ..] = plan.several_output_validators.as_slice() {
        let names: Vec<String> = (plan.several_output_validators.iter())
            .map(|path| file_name(path))
            .collect();
        warnings.push(format!(
            "output_validators/ holds {} programs ({}): only {} is used, as problemtools uses the first (the legacy format would run them all)",
            names.len(),
            names.join(", "),
            file_name(used)
        ));
    }
    warnings
}

/// `data/secret/` missing, or a folder at the top of `data/` the format has no place for: the
/// format's rules (legacy: "exactly two groups: sample and secret", later versions the
/// validation folders too), which problemtools holds as errors ("No secret data provided").
fn data_layout_errors(package: &Path) -> Vec<String> {
    let data = package.join(DATA_DIR);
    let mut errors = Vec::new();
    if !data.join(SECRET_DIR).is_dir() {
        errors.push(format!(
            "{DATA_DIR}/{SECRET_DIR}/ is missing: the format requires secret data, and \
             without it every submission is judged on the samples alone"
        ));
    }
    let mut unknown: Vec<String> = (std::fs::read_dir(&data).into_iter().flatten().flatten())
        .filter(|entry| entry.path().is_dir())
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .filter(|name| !DATA_DIRS.contains(&name.as_str()))
        .collect();
    unknown.sort();
    errors.extend(unknown.into_iter().map(|name| {
        format!(
            "{DATA_DIR}/{name}/: the top of {DATA_DIR}/ holds only sample/, secret/ and the \
             validation folders; its cases are not judged"
        )
    }));
    errors
}

/// Inside the package, for messages.
fn shown(problem: &Problem, path: &Path) -> String {
    path.strip_prefix(&problem.dir)
        .unwrap_or(path)
        .display()
        .to_string()
}

/// Any one will do (pyctd: checktestdata's Python port, which problemtools installs).
fn script_tools(path: &Path) -> Option<&'static [&'static str]> {
    match path.extension()?.to_str()? {
        "ctd" => Some(&["checktestdata", "pyctd"]),
        "viva" => Some(&["viva"]),
        _ => None,
    }
}

impl PackageValidator {
    /// `Ok(None)` for a script whose tool is not installed; `Err` (a line) when it does not
    /// build.
    fn build(
        problem: &Problem,
        compiler: &Compiler,
        path: &Path,
    ) -> std::result::Result<Option<PackageValidator>, String> {
        let name = shown(problem, path);
        let how = if let Some(tools) = script_tools(path) {
            let found = tools
                .iter()
                .map(|tool| find_on_path(OsStr::new(tool)))
                .find(|found| Path::new(found).is_file());
            let Some(tool) = found else {
                return Ok(None);
            };
            let script = with_constants(problem, path)
                .map_err(|error| format!("{name}: cannot be read: {error}"))?;
            How::Script {
                tool,
                script,
                file_as_argument: tools[0] == "viva",
            }
        } else {
            let built = problem
                .own_program_sources(path)
                .and_then(|sources| compiler.build_from(path, sources));
            match built {
                Ok(Build::Ready(program)) => How::Program(program),
                Ok(Build::CompileError(message)) => {
                    return Err(format!(
                        "{name}: the validator does not compile: {}",
                        first_error(&message)
                    ))
                }
                Err(error) => {
                    return Err(format!("{name}: the validator cannot be built: {error}"))
                }
            }
        };
        let path = path.to_path_buf();
        Ok(Some(PackageValidator { name, path, how }))
    }

    /// `file` is an input (`input` `None`), or the answer to `input`. A run that crashes or
    /// passes its limits is the validator's own failure.
    fn run(
        &self,
        sandbox: &Sandbox,
        (file, input): (&Path, Option<&Path>),
        args: &ValidatorArgs,
        case_files: Option<&Path>,
    ) -> std::result::Result<Said, String> {
        let args = args.of(&self.path);
        let (run, accepts, refuses) = match &self.how {
            How::Program(program) => {
                let mut argv: Vec<String> = input
                    .map(|input| absolute(input).display().to_string())
                    .into_iter()
                    .collect();
                argv.extend(args.iter().cloned());
                let options = RunOptions {
                    case_files,
                    ..RunOptions::default()
                };
                let run = program.run_with(file, CHECKER_LIMITS, &argv, options);
                (run, ACCEPTS, None)
            }
            // A script is given the file alone, never the input beside an answer.
            How::Script {
                tool,
                script,
                file_as_argument,
            } => {
                let mut argv = vec![tool.clone(), script.as_os_str().to_owned()];
                let stdin = match file_as_argument {
                    true => {
                        argv.push(absolute(file).into_os_string());
                        Path::new("/dev/null")
                    }
                    false => file,
                };
                argv.extend(args.iter().map(OsString::from));
                let mut spec = RunSpec::new(&argv, stdin, CHECKER_LIMITS);
                spec.case_files = case_files;
                (sandbox.run(&spec), 0, Some(1))
            }
        };
        let run = run.map_err(|error| format!("{}: cannot run: {error}", self.name))?;
        let verdict = classify_run(&run, &CHECKER_LIMITS);
        let within_limits = matches!(verdict, None | Some(Verdict::RuntimeError(_)));
        match run.termination {
            Termination::Exited(code) if code == accepts => Ok(Said::Accepts),
            Termination::Exited(code) if within_limits && refuses.is_none_or(|r| r == code) => {
                // A program's refusal (43) says why first; any other exit is a failure, whose
                // last line says what failed (a Python traceback's exception).
                let line = match refuses.is_none() && code != REFUSES {
                    true => last_line,
                    false => first_line,
                };
                let said = [&run.stderr, &run.stdout]
                    .into_iter()
                    .map(|text| line(text))
                    .find(|line| !line.is_empty())
                    .unwrap_or_default();
                Ok(Said::Refuses(format!("exit {code}{}", with_colon(&said))))
            }
            _ => Err(format!(
                "{} failed: {}",
                self.name,
                verdict.map_or("no verdict".to_owned(), |v| v.to_string())
            )),
        }
    }
}

fn with_constants(problem: &Problem, path: &Path) -> std::io::Result<tempfile::TempPath> {
    let text = std::fs::read_to_string(path)?;
    let text = match &problem.package {
        Some(package) => package.constants.apply_text(&text).into_owned(),
        None => text,
    };
    let copy = tempfile::Builder::new()
        .prefix("judge-validator-")
        .tempfile()?;
    std::fs::write(copy.path(), text)?;
    Ok(copy.into_temp_path())
}

fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

/// A case's input through the input validators, or its answer through the answer ones.
struct Stage<'a> {
    what: &'static str,
    validators: &'a [PackageValidator],
    file: &'a Path,
    /// The input an answer answers, its validators' first argument.
    input: Option<&'a Path>,
    args: &'a ValidatorArgs,
    /// A case of this stage's invalid folder: some validator must refuse it.
    must_refuse: bool,
    /// The case's `.files`, which an input validator finds in its working folder.
    case_files: Option<&'a Path>,
}

/// A case's faults; `None` for one the stop left unchecked.
type CaseFaults = Option<Vec<String>>;

struct CaseChecks<'a> {
    problem: &'a Problem,
    sandbox: &'a Sandbox,
    inputs: &'a [PackageValidator],
    answers: &'a [PackageValidator],
    checker: Option<&'a Program>,
    /// Every validator was built (none is a script without its tool).
    complete: bool,
    /// The output validator was built, where the package has one.
    outputs_checked: bool,
}

impl CaseChecks<'_> {
    /// Each case's faults, and the junk inputs the validators take, `jobs` validator runs at
    /// a time.
    fn check_all(&self, cases: &[DataCase], jobs: usize) -> Result<(Vec<CaseFaults>, Vec<String>)> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(jobs.max(1))
            .build()
            .map_err(|error| Error::usage(format!("cannot start {jobs} workers: {error}")))?;
        // A case checked while the judge was asked to stop may have had its validators
        // killed: it counts as not checked, its faults unknown.
        let stopped = crate::runner::interrupt::pending;
        Ok(pool.install(|| {
            let checked = (cases.par_iter())
                .map(|case| match stopped() {
                    true => None,
                    false => Some(self.check_case(case)).filter(|_| !stopped()),
                })
                .collect();
            let warnings = match self.inputs.is_empty() || !self.complete || stopped() {
                true => Vec::new(),
                false => self.junk_accepted(cases),
            };
            (checked, warnings)
        }))
    }

    fn check_case(&self, case: &DataCase) -> Vec<String> {
        let mut errors = Vec::new();
        let files = case.input.with_extension("files");
        let input = Stage {
            what: "input",
            validators: self.inputs,
            file: &case.input,
            input: None,
            args: &case.input_args,
            must_refuse: case.expect == Expect::InvalidInput,
            case_files: files.is_dir().then_some(files.as_path()),
        };
        if !self.passes(case, input, &mut errors) {
            return errors;
        }
        let Some(answer) = &case.answer else {
            return errors;
        };
        let answers = Stage {
            what: "answer",
            validators: self.answers,
            file: answer,
            input: Some(&case.input),
            args: &case.answer_args,
            must_refuse: case.expect == Expect::InvalidAnswer,
            case_files: None,
        };
        if !self.passes(case, answers, &mut errors) {
            return errors;
        }
        if let Some(output) = case.output.as_ref().filter(|_| self.outputs_checked) {
            let must_accept = case.expect != Expect::InvalidOutput;
            match self.output_accepted(case, answer, output) {
                Ok(accepted) if accepted == must_accept => {}
                Ok(_) => errors.push(format!(
                    "data/{}.out: the output validator {} it, and it must {}",
                    case.name,
                    if must_accept { "refuses" } else { "accepts" },
                    if must_accept {
                        "accept it"
                    } else {
                        "be refused"
                    }
                )),
                Err(fault) => errors.push(format!("data/{}.out: {fault}", case.name)),
            }
        }
        errors
    }

    /// Notes faults in `errors`; whether the case goes on to the next stage (every validator
    /// took the file, and it is not this stage's invalid case).
    fn passes(&self, case: &DataCase, stage: Stage, errors: &mut Vec<String>) -> bool {
        let shown = shown(self.problem, stage.file);
        let what = stage.what;
        let faults = errors.len();
        let mut refused = Vec::new();
        for validator in stage.validators {
            let files = (stage.file, stage.input);
            match validator.run(self.sandbox, files, stage.args, stage.case_files) {
                Ok(Said::Accepts) => {}
                Ok(Said::Refuses(why)) => refused.push(format!("{} ({why})", validator.name)),
                Err(fault) => errors.push(format!("data/{}: {fault}", case.name)),
            }
        }
        if stage.must_refuse {
            if refused.is_empty() && errors.len() == faults && self.complete {
                errors.push(match stage.validators {
                    [] => format!("{shown}: no {what} validator to refuse it"),
                    _ => format!(
                        "{shown}: every {what} validator accepts it, and it must be refused"
                    ),
                });
            }
            return false;
        }
        if let Some(first) = refused.first() {
            errors.push(format!("{shown}: refused by {first}"));
        }
        refused.is_empty() && errors.len() == faults
    }

    /// By the output validator, or the default one.
    fn output_accepted(
        &self,
        case: &DataCase,
        answer: &Path,
        output: &Path,
    ) -> std::result::Result<bool, String> {
        let bytes = std::fs::read(output).map_err(|error| error.to_string())?;
        let mut judged = TestCase {
            validator_args: case.output_args.clone(),
            ..TestCase::new(case.name.clone(), case.input.clone(), answer.to_path_buf())
        };
        if let (Some(checker), Some(spec)) = (self.checker, &self.problem.checker) {
            return match check(checker, spec, &judged, &bytes) {
                Judgement::Accepted(_) => Ok(true),
                Judgement::Wrong(_) => Ok(false),
                Judgement::Fault(fault) => Err(fault),
            };
        }
        set_compare(self.problem, &mut judged).map_err(|error| error.to_string())?;
        let expected = std::fs::read(answer).map_err(|error| error.to_string())?;
        let mode = judged.compare.unwrap_or(self.problem.compare);
        Ok(crate::compare::compare(mode, &expected, &bytes).is_ok())
    }

    /// A warning for each junk every input validator accepts, under each set of arguments
    /// the judged cases give them.
    fn junk_accepted(&self, cases: &[DataCase]) -> Vec<String> {
        let judged: Vec<&DataCase> = cases.iter().filter(|c| c.expect == Expect::Valid).collect();
        let mut argument_sets: Vec<&ValidatorArgs> = judged.iter().map(|c| &c.input_args).collect();
        argument_sets.sort();
        argument_sets.dedup();
        let valid: Vec<Vec<u8>> = judged
            .iter()
            .filter_map(|case| std::fs::read(&case.input).ok())
            .collect();
        let tries: Vec<(&str, Vec<u8>, &ValidatorArgs)> = junk(&valid)
            .into_iter()
            .flat_map(|(what, bytes)| {
                argument_sets
                    .iter()
                    .map(move |args| (what, bytes.clone(), *args))
            })
            .collect();
        tries
            .par_iter()
            .filter_map(|(what, bytes, args)| {
                let file = match written(bytes) {
                    Ok(file) => file,
                    Err(error) => return Some(format!("{what} could not be tried: {error}")),
                };
                let all_accept = self.inputs.iter().all(|validator| {
                    matches!(
                        validator.run(self.sandbox, (file.path(), None), args, None),
                        Ok(Said::Accepts)
                    )
                });
                let with = match args {
                    ValidatorArgs::None => String::new(),
                    ValidatorArgs::All(all) => format!(" with the arguments `{}`", all.join(" ")),
                    ValidatorArgs::Each(each) => {
                        let each: Vec<String> = each
                            .iter()
                            .map(|(name, args)| format!("{name}: {}", args.join(" ")))
                            .collect();
                        format!(" with the arguments `{}`", each.join("; "))
                    }
                };
                all_accept.then(|| format!("no input validator refuses {what}{with}"))
            })
            .collect()
    }
}

fn written(bytes: &[u8]) -> std::io::Result<tempfile::NamedTempFile> {
    let file = tempfile::NamedTempFile::new()?;
    std::fs::write(file.path(), bytes)?;
    Ok(file)
}

/// Inputs no statement allows, made up or changed from the first valid input a change
/// applies to.
fn junk(inputs: &[Vec<u8>]) -> Vec<(&'static str, Vec<u8>)> {
    let mut state: u64 = 0x5eed;
    let mut next = move || {
        // splitmix64: the same junk on every run.
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        (z ^ (z >> 31)) as u8
    };
    let random: Vec<u8> = (0..1024).map(|_| next()).collect();
    let mut made = vec![
        ("an empty file", Vec::new()),
        ("1 KiB of random bytes", random),
        ("a line of every printable ASCII character", {
            let mut line: Vec<u8> = (b' '..=b'~').collect();
            line.push(b'\n');
            line
        }),
    ];
    type Change = fn(&[u8]) -> Option<Vec<u8>>;
    let changes: [(&'static str, Change); 6] = [
        ("an input cut in half", |input| {
            (input.len() > 1).then(|| input[..input.len() / 2].to_vec())
        }),
        ("an input whose first digit is a letter", |input| {
            let at = input.iter().position(u8::is_ascii_digit)?;
            let mut changed = input.to_vec();
            changed[at] = b'x';
            Some(changed)
        }),
        ("an input with every whitespace doubled", |input| {
            let mut changed = Vec::with_capacity(input.len() * 2);
            for &byte in input {
                changed.push(byte);
                if byte == b' ' || byte == b'\n' {
                    changed.push(byte);
                }
            }
            (changed.len() > input.len()).then_some(changed)
        }),
        ("an input with a space at the end of each line", |input| {
            let changed: Vec<u8> = input
                .iter()
                .flat_map(|&byte| match byte {
                    b'\n' => vec![b' ', b'\n'],
                    byte => vec![byte],
                })
                .collect();
            (changed.len() > input.len()).then_some(changed)
        }),
        ("an input with leading zeros on its integers", |input| {
            let mut changed = Vec::with_capacity(input.len() * 2);
            let mut previous: Option<u8> = None;
            for &byte in input {
                let starts_number = byte.is_ascii_digit()
                    && !previous.is_some_and(|p| p.is_ascii_digit() || p == b'.');
                if starts_number {
                    changed.extend_from_slice(b"000");
                }
                changed.push(byte);
                previous = Some(byte);
            }
            (changed.len() > input.len()).then_some(changed)
        }),
        ("an input with a line of junk at its end", |input| {
            let mut changed = input.to_vec();
            changed.extend_from_slice(b"#junk! 1 2 3\n");
            Some(changed)
        }),
    ];
    for (what, change) in changes {
        if let Some(changed) = inputs.iter().find_map(|input| change(input)) {
            made.push((what, changed));
        }
    }
    made
}
