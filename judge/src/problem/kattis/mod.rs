//! Kattis / ICPC problem packages, in the three versions of the format (legacy, 2023-07-draft,
//! 2025-09): `problem.yaml` (format version, type, limits, timing, validation), the output
//! validator (`output_validator/` or legacy `output_validators/`), and the
//! `submissions/<verdict>/` folders that `judge verify` checks. The test data is `cases`.

mod cases;
pub mod programs;
pub mod scoring;

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;

use crate::compare::{CompareMode, KattisFlags};
use crate::error::{Error, Result};
use crate::problem::checker_spec::{CheckerSpec, Mode, Protocol, CHECKER_LIMITS};
use crate::problem::layout::{METADATA_FILE, PACKAGE_FILE, SUBMISSIONS_DIR};
use crate::problem::natural_order::natural_cmp;
use crate::problem::profile::{Profile, SIZE_LIMIT_MIB, TIME_LIMIT_MS};
use crate::problem::Problem;

/// `validation_passes` when a multi-pass problem gives none, and the most we run.
const DEFAULT_PASSES: u32 = 2;
const MAX_PASSES: u64 = 100;

/// The version of the package format a package is written in (`problem_format_version`).
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
}

/// How the time limit is chosen when the package gives none: from the slowest accepted
/// submission's CPU time, times `ac_to_time_limit` (legacy `time_multiplier`), rounded up to
/// a whole multiple of `time_resolution`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Timing {
    pub ac_to_time_limit: f64,
    pub time_limit_to_tle: f64,
    pub time_resolution: f64,
}

impl Timing {
    /// The time limit the slowest accepted run `slowest` implies: never below one resolution
    /// step.
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
    /// `type: scoring` (legacy also `validation: custom score`): scored by `scoring::Plan`.
    pub scoring: bool,
    /// Legacy `validation: custom score`: the validator must write `score.txt`.
    pub validator_must_score: bool,
    /// Legacy `problem.yaml` `grading:` keys.
    pub grading: scoring::LegacyGrading,
    /// The package states its time limit (`limits.time_limit`, legacy `.timelimit`); when it
    /// does not, `verify` derives one with `timing` and `run` uses the default until then.
    pub time_limit_given: bool,
    pub timing: Timing,
    /// 2025-09 `constants`, put into its programs, included files and `test_group.yaml`.
    pub constants: programs::Constants,
    /// `include/`: files added to every submission.
    pub includes: programs::Includes,
    /// The language and entry point `submissions.yaml` names for the submission judged.
    pub choice: crate::toolchain::sources::Choice,
}

impl Package {
    /// A submission's files as they are built: in the language and from the entry point
    /// `choice` names, with the included files and the constants.
    pub fn submission(&self, path: &Path) -> Result<crate::toolchain::sources::Sources> {
        let sources = crate::toolchain::sources::Sources::read_as(path, &self.choice)?;
        Ok(self.constants.apply_to(self.includes.add_to(sources)))
    }
}

/// The parts of `problem.yaml` the judge uses; the format has many more keys (author,
/// license, ...), which are not the judge's business and are left alone.
#[derive(Debug, Default, Deserialize)]
struct PackageYaml {
    problem_format_version: Option<String>,
    #[serde(rename = "type")]
    problem_type: Option<OneOrMany>,
    name: Option<serde_norway::Value>,
    validation: Option<String>,
    /// Legacy scoring keys (`objective`, `on_reject`, ...).
    grading: Option<serde_norway::Value>,
    validator_flags: Option<String>,
    limits: Option<LimitsYaml>,
    /// 2025-09: values substituted for `{{name}}` in the package's programs and files.
    constants: Option<serde_norway::Value>,
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum OneOrMany {
    One(String),
    Many(Vec<String>),
}

#[derive(Debug, Default, Deserialize)]
struct LimitsYaml {
    /// Seconds (2023-07 format); older packages keep it in `.timelimit`.
    time_limit: Option<f64>,
    /// MiB.
    memory: Option<u64>,
    /// MiB.
    output: Option<u64>,
    time_multipliers: Option<TimeMultipliersYaml>,
    time_resolution: Option<f64>,
    /// Legacy names of `ac_to_time_limit` and `time_limit_to_tle`.
    time_multiplier: Option<f64>,
    time_safety_margin: Option<f64>,
    /// The output validator's limits: seconds, MiB.
    validation_time: Option<u64>,
    validation_memory: Option<u64>,
    /// How many passes a multi-pass problem may run.
    validation_passes: Option<u64>,
}

#[derive(Debug, Default, Deserialize)]
struct TimeMultipliersYaml {
    ac_to_time_limit: Option<f64>,
    time_limit_to_tle: Option<f64>,
}

/// Every judged case of a loaded package, in the format's order, each with its output
/// validator arguments; for the default validator, those arguments (flags such as
/// `float_tolerance 1e-6`) are checked here and become the case's compare mode.
pub fn find_cases(problem: &Problem) -> Result<Vec<crate::problem::TestCase>> {
    let package = problem.package.as_ref().expect("a package's problem");
    let mut cases = cases::find_package_cases(&problem.dir, package.version, &package.constants)?;
    if let (None, CompareMode::Kattis(flags)) = (&problem.checker, problem.compare) {
        for case in cases
            .iter_mut()
            .filter(|case| !case.validator_args.is_empty())
        {
            let group_file = problem.dir.join("data").join(&case.name);
            let flags = parse_flags_onto(flags, &case.validator_args, &group_file)?;
            case.compare = Some(CompareMode::Kattis(flags));
        }
    }
    Ok(cases)
}

/// How a loaded scoring package scores its cases; `None` for a pass-fail one.
pub fn scoring_plan(problem: &Problem) -> Result<Option<crate::problem::scoring::Scoring>> {
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
    Ok(Some(crate::problem::scoring::Scoring::Package(plan)))
}

/// Where `verify` keeps the time limit it derived for the package at `dir`, so that `run`
/// can use it: a file in the build cache named by the package's absolute path.
fn derived_limit_file(cache_dir: &Path, dir: &Path) -> PathBuf {
    let absolute = std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf());
    let key = blake3::hash(absolute.as_os_str().as_encoded_bytes());
    cache_dir.join("time-limits").join(&key.to_hex()[..32])
}

/// Keeps the time limit `verify` derived; only a convenience for `run`, so a failure to
/// write it is not an error.
pub fn remember_time_limit(cache_dir: &Path, dir: &Path, limit: Duration) {
    let file = derived_limit_file(cache_dir, dir);
    if let Some(parent) = file.parent() {
        let _ = std::fs::create_dir_all(parent);
    }
    let _ = crate::atomic_write::write_cache(&file, limit.as_millis().to_string().as_bytes());
}

/// The time limit the last `verify` derived for the package at `dir`, if any.
pub fn remembered_time_limit(cache_dir: &Path, dir: &Path) -> Option<Duration> {
    let text = std::fs::read_to_string(derived_limit_file(cache_dir, dir)).ok()?;
    let millis: u64 = text.trim().parse().ok()?;
    TIME_LIMIT_MS
        .contains(&millis)
        .then(|| Duration::from_millis(millis))
}

/// For `run`: a package that states no time limit runs under the one `verify` derived, else
/// the default; either way the user is told which, on stderr.
pub fn apply_time_limit(problem: &mut Problem, cache_dir: &Path) {
    if problem.package.as_ref().is_none_or(|p| p.time_limit_given) {
        return;
    }
    match remembered_time_limit(cache_dir, &problem.dir) {
        Some(limit) => {
            problem.limits.cpu_time = limit;
            eprintln!(
                "note: {}: the package states no time limit: {} s, as the last `judge verify` derived it",
                problem.id,
                limit.as_secs_f64()
            );
        }
        None => eprintln!(
            "note: {}: the package states no time limit: the default {} s (run `judge verify` to derive one from its accepted submissions)",
            problem.id,
            problem.limits.cpu_time.as_secs_f64()
        ),
    }
}

/// Whether `dir` is a Kattis package rather than one of our problem folders.
pub fn is_package(dir: &Path) -> bool {
    dir.join(PACKAGE_FILE).is_file() && !dir.join(METADATA_FILE).is_file()
}

/// Loads a package's metadata (`cases` left empty).
pub fn load_package(dir: &Path, id: String) -> Result<Problem> {
    let path = dir.join(PACKAGE_FILE);
    let text = std::fs::read_to_string(&path).map_err(|error| Error::io(&path, error))?;
    parse_package(dir, id, &text)
}

/// The problem's kinds, from `type` (2023-07 and later) or legacy `validation`.
#[derive(Debug, Default, PartialEq)]
struct Kinds {
    scoring: bool,
    /// Legacy `validation: custom score`.
    validator_scores: bool,
    interactive: bool,
    multi_pass: bool,
    /// `submit-answer`: not judged (yet), as named.
    unsupported: Vec<String>,
    custom_validator: bool,
}

fn kinds(yaml: &PackageYaml, version: FormatVersion, dir: &Path, text: &str) -> Result<Kinds> {
    let path = dir.join(PACKAGE_FILE);
    // The line a key of problem.yaml stands on, for an error's location.
    let at = |key: &str| yaml_line(text, key);
    let mut kinds = Kinds::default();
    if version == FormatVersion::Legacy {
        let validation = yaml.validation.as_deref().unwrap_or("default");
        let words: Vec<&str> = validation.split_whitespace().collect();
        match words.split_first() {
            Some((&"default", [])) => {}
            Some((&"custom", rest)) => {
                kinds.custom_validator = true;
                for word in rest {
                    match *word {
                        "score" => {
                            kinds.scoring = true;
                            kinds.validator_scores = true;
                        }
                        "interactive" => kinds.interactive = true,
                        other => {
                            return Err(Error::parse(
                                &path,
                                at("validation"),
                                format!("`validation: {validation}`: unknown word `{other}` (expected `custom`, then `interactive` and/or `score`)"),
                            ))
                        }
                    }
                }
            }
            _ => {
                return Err(Error::parse(
                    &path,
                    at("validation"),
                    format!("`validation: {validation}`: expected `default` or `custom` (then `interactive` and/or `score`)"),
                ))
            }
        }
        // The legacy format has `type` too, a single word.
        match &yaml.problem_type {
            None => {}
            Some(OneOrMany::One(kind)) if kind == "pass-fail" => {}
            Some(OneOrMany::One(kind)) if kind == "scoring" => kinds.scoring = true,
            Some(_) => {
                return Err(Error::parse(
                    &path,
                    at("type"),
                    "`type`: expected `pass-fail` or `scoring`",
                ))
            }
        }
        return Ok(kinds);
    }
    let types = match &yaml.problem_type {
        None => vec!["pass-fail".to_owned()],
        // Several types in one string, space-separated, as the format's own example packages
        // write them (`pass-fail interactive`) and BAPCtools reads them.
        Some(OneOrMany::One(one)) => one.split_whitespace().map(str::to_owned).collect(),
        Some(OneOrMany::Many(many)) => many.clone(),
    };
    if types.is_empty() {
        return Err(Error::parse(&path, at("type"), "`type` is an empty list"));
    }
    for kind in &types {
        match kind.as_str() {
            "pass-fail" => {}
            "scoring" => kinds.scoring = true,
            "interactive" => kinds.interactive = true,
            "multi-pass" => kinds.multi_pass = true,
            "submit-answer" => kinds.unsupported.push(kind.clone()),
            other => {
                return Err(Error::parse(
                    &path,
                    at("type"),
                    format!("unknown `type` `{other}` (expected pass-fail, scoring, interactive, multi-pass or submit-answer)"),
                ))
            }
        }
    }
    if kinds.scoring && types.iter().any(|kind| kind == "pass-fail") {
        return Err(Error::parse(
            &path,
            at("type"),
            "`type` has both pass-fail and scoring",
        ));
    }
    // Since 2023-07 a custom validator is there or not; there is no `validation` key.
    kinds.custom_validator = dir.join("output_validator").exists();
    Ok(kinds)
}

/// A package's metadata from the text of its `problem.yaml` (`cases` left empty).
pub fn parse_package(dir: &Path, id: String, text: &str) -> Result<Problem> {
    let path = dir.join(PACKAGE_FILE);
    let yaml: PackageYaml = serde_norway::from_str::<Option<PackageYaml>>(text)
        .map_err(|error| {
            let line = error.location().map(|l| l.line());
            Error::parse(&path, line, error.to_string())
        })?
        .unwrap_or_default();
    // The line a key of problem.yaml stands on, for an error's location.
    let at = |key: &str| yaml_line(text, key);
    let version = match &yaml.problem_format_version {
        None => FormatVersion::Legacy,
        Some(text) => FormatVersion::parse(text).ok_or_else(|| {
            Error::parse(
                &path,
                at("problem_format_version"),
                format!("unknown `problem_format_version` `{text}` (expected legacy, 2023-07-draft or 2025-09)"),
            )
        })?,
    };
    let kinds = kinds(&yaml, version, dir, text)?;
    if let Some(kind) = kinds.unsupported.first() {
        // Judging it as a plain problem would give wrong verdicts without a word.
        return Err(Error::parse(
            &path,
            at(if version == FormatVersion::Legacy { "validation" } else { "type" }),
            format!(
                "the problem is {kind}: {kind} problems are not supported yet (the submission is the answers, not a program), so it is not judged"
            ),
        ));
    }
    let constants = match &yaml.constants {
        Some(value) => programs::Constants::parse(value, &path, at("constants"))?,
        None => programs::Constants::default(),
    };
    let grading = match &yaml.grading {
        Some(value) if kinds.scoring => scoring::legacy_grading(value, &path, text)?,
        // Meaningless in a pass-fail problem, and harmless: left alone.
        _ => scoring::LegacyGrading::default(),
    };
    let profile = Profile::Kattis;
    let mut limits = profile.limits();
    let limits_yaml = yaml.limits.unwrap_or_default();
    let time_limit = match limits_yaml.time_limit {
        Some(seconds) => Some(seconds),
        None => read_timelimit_file(dir)?,
    };
    let out_of_range = |key: &str, value: String, range: String| {
        Error::parse(
            &path,
            at(key),
            format!("`limits.{key}` = {value} is out of range: expected {range}"),
        )
    };
    if let Some(seconds) = time_limit {
        let (low, high) = (*TIME_LIMIT_MS.start(), *TIME_LIMIT_MS.end());
        limits.cpu_time = Duration::try_from_secs_f64(seconds)
            .ok()
            .filter(|t| (low..=high).contains(&(t.as_millis() as u64)))
            .ok_or_else(|| {
                out_of_range(
                    "time_limit",
                    seconds.to_string(),
                    format!("{} to {} seconds", low as f64 / 1000.0, high / 1000),
                )
            })?;
    }
    let mib = |value: u64, key: &str| {
        if SIZE_LIMIT_MIB.contains(&value) {
            Ok(value << 20)
        } else {
            let range = format!("{} to {} MiB", SIZE_LIMIT_MIB.start(), SIZE_LIMIT_MIB.end());
            Err(out_of_range(key, value.to_string(), range))
        }
    };
    if let Some(value) = limits_yaml.memory {
        limits.memory_bytes = mib(value, "memory")?;
        limits.stack_bytes = profile.stack_bytes(limits.memory_bytes);
    }
    if let Some(value) = limits_yaml.output {
        limits.output_bytes = mib(value, "output")?;
    }
    let factor = |value: Option<f64>, key: &str, default: f64| match value {
        None => Ok(default),
        Some(value) if value.is_finite() && value >= 1.0 => Ok(value),
        Some(value) => Err(out_of_range(
            key,
            value.to_string(),
            "a number of at least 1".into(),
        )),
    };
    let multipliers = limits_yaml.time_multipliers.unwrap_or_default();
    let legacy = version == FormatVersion::Legacy;
    let timing = Timing {
        // The legacy defaults are 5 and 2; since 2023-07, 2 and 1.5.
        ac_to_time_limit: if legacy {
            factor(limits_yaml.time_multiplier, "time_multiplier", 5.0)?
        } else {
            factor(multipliers.ac_to_time_limit, "ac_to_time_limit", 2.0)?
        },
        time_limit_to_tle: if legacy {
            factor(limits_yaml.time_safety_margin, "time_safety_margin", 2.0)?
        } else {
            factor(multipliers.time_limit_to_tle, "time_limit_to_tle", 1.5)?
        },
        time_resolution: match limits_yaml.time_resolution {
            None => 1.0,
            Some(value) if value.is_finite() && value > 0.0 => value,
            Some(value) => {
                return Err(out_of_range(
                    "time_resolution",
                    value.to_string(),
                    "a positive number of seconds".into(),
                ))
            }
        },
    };
    let flags: Vec<String> = yaml
        .validator_flags
        .unwrap_or_default()
        .split_whitespace()
        .map(str::to_owned)
        .collect();
    let mode = Mode {
        interactive: kinds.interactive,
        passes: match limits_yaml.validation_passes {
            None if kinds.multi_pass => DEFAULT_PASSES,
            None => 1,
            Some(passes) if kinds.multi_pass && (2..=MAX_PASSES).contains(&passes) => passes as u32,
            Some(passes) if kinds.multi_pass => {
                return Err(out_of_range(
                    "validation_passes",
                    passes.to_string(),
                    format!("2 to {MAX_PASSES}"),
                ))
            }
            Some(_) => {
                return Err(Error::parse(
                    &path,
                    at("validation_passes"),
                    "`limits.validation_passes` is only for multi-pass problems",
                ))
            }
        },
    };
    if !mode.is_plain() && !kinds.custom_validator {
        // The default validator cannot talk to a submission nor write `nextpass.in`.
        return Err(Error::parse(
            &path,
            at(if legacy { "validation" } else { "type" }),
            format!(
                "{} problem needs an output validator ({}), and the package has none",
                if mode.interactive {
                    "an interactive"
                } else {
                    "a multi-pass"
                },
                if legacy {
                    "output_validators/"
                } else {
                    "output_validator/"
                }
            ),
        ));
    }
    // The spec's typical system defaults (60 s, 2048 MiB) unless the package says.
    let mut validator_limits = CHECKER_LIMITS;
    validator_limits.cpu_time = Duration::from_secs(60);
    validator_limits.memory_bytes = 2048 << 20;
    if let Some(seconds) = limits_yaml.validation_time {
        if !(1..=3600).contains(&seconds) {
            return Err(out_of_range(
                "validation_time",
                seconds.to_string(),
                "1 to 3600 seconds".into(),
            ));
        }
        validator_limits.cpu_time = Duration::from_secs(seconds);
    }
    if let Some(value) = limits_yaml.validation_memory {
        validator_limits.memory_bytes = mib(value, "validation_memory")?;
    }
    let (compare, checker) = if kinds.custom_validator {
        let source = find_validator(dir)?;
        let checker = CheckerSpec {
            source,
            protocol: Protocol::Kattis,
            flags,
            reads_scores: kinds.scoring,
            limits: validator_limits,
            mode,
        };
        (CompareMode::Kattis(KattisFlags::default()), Some(checker))
    } else {
        (CompareMode::Kattis(parse_flags(&flags, &path)?), None)
    };
    Ok(Problem {
        name: yaml
            .name
            .as_ref()
            .and_then(name_of)
            .unwrap_or_else(|| id.clone()),
        source_url: None,
        profile,
        solution: default_submission(dir),
        limits,
        compare,
        checker,
        cases: Vec::new(),
        subtasks: Vec::new(),
        scoring: None,
        dir: dir.to_path_buf(),
        id,
        package: Some(Package {
            version,
            scoring: kinds.scoring,
            validator_must_score: kinds.validator_scores,
            grading,
            time_limit_given: time_limit.is_some(),
            timing,
            constants,
            includes: programs::Includes::read(dir)?,
            choice: crate::toolchain::sources::Choice::default(),
        }),
    })
}

/// The line of the first `key:` in a YAML text (for errors: serde_norway keeps no spans).
pub(crate) fn yaml_line(text: &str, key: &str) -> Option<usize> {
    let prefix = format!("{key}:");
    text.lines()
        .position(|line| line.trim_start().starts_with(&prefix))
        .map(|index| index + 1)
}

/// `name: Mean`, or the 2023 format's `name: {en: Mean, ...}`.
fn name_of(value: &serde_norway::Value) -> Option<String> {
    match value {
        serde_norway::Value::String(name) => Some(name.clone()),
        serde_norway::Value::Mapping(names) => names
            .get("en")
            .or_else(|| names.values().next())
            .and_then(|name| name.as_str().map(str::to_owned)),
        _ => None,
    }
}

fn read_timelimit_file(dir: &Path) -> Result<Option<f64>> {
    let path = dir.join(".timelimit");
    match std::fs::read_to_string(&path) {
        Ok(text) => text
            .trim()
            .parse()
            .map(Some)
            .map_err(|_| Error::parse(&path, None, "expected a number of seconds")),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(error) => Err(Error::io(&path, error)),
    }
}

/// The default output validator's flags.
fn parse_flags(flags: &[String], path: &Path) -> Result<KattisFlags> {
    parse_flags_onto(KattisFlags::default(), flags, path)
}

/// `flags` added to those already `given` (the problem's, then a test group's).
fn parse_flags_onto(given: KattisFlags, flags: &[String], path: &Path) -> Result<KattisFlags> {
    let mut parsed = given;
    let (mut abs, mut rel) = match given.tolerance {
        Some((abs, rel)) => (Some(abs), Some(rel)),
        None => (None, None),
    };
    let mut words = flags.iter();
    while let Some(flag) = words.next() {
        let mut value = || -> Result<f64> {
            words
                .next()
                .and_then(|v| v.parse::<f64>().ok())
                .filter(|v| v.is_finite() && *v >= 0.0)
                .ok_or_else(|| {
                    Error::parse(
                        path,
                        None,
                        format!("validator flag `{flag}` needs a non-negative number"),
                    )
                })
        };
        match flag.as_str() {
            "case_sensitive" => parsed.case_sensitive = true,
            "space_change_sensitive" => parsed.space_change_sensitive = true,
            "float_tolerance" => {
                let tolerance = value()?;
                (abs, rel) = (Some(tolerance), Some(tolerance));
            }
            "float_absolute_tolerance" => abs = Some(value()?),
            "float_relative_tolerance" => rel = Some(value()?),
            other => {
                return Err(Error::parse(
                    path,
                    None,
                    format!("unknown validator flag `{other}`"),
                ))
            }
        }
    }
    if abs.is_some() || rel.is_some() {
        parsed.tolerance = Some((abs.unwrap_or(0.0), rel.unwrap_or(0.0)));
    }
    Ok(parsed)
}

/// The package's output validator: the program `output_validator/` (2023-07 and later), or
/// the one program in legacy `output_validators/` (a file directly in it, or a folder). A
/// folder is built as one program from all its files, or by its own `build`/`run` scripts.
fn find_validator(dir: &Path) -> Result<PathBuf> {
    let single = dir.join("output_validator");
    if single.is_dir() {
        return Ok(single);
    }
    let folder = dir.join("output_validators");
    // Each file or folder in it is a program, as each is a submission in a verdict folder.
    let programs = submissions_in(&folder);
    match programs.as_slice() {
        [program] => Ok(program.clone()),
        [] => Err(Error::corpus(
            dir,
            "the package has a custom output validator, but neither output_validator/ nor output_validators/ holds one",
        )),
        _ => Err(Error::corpus(
            folder,
            format!("{} output validators: only one is supported (all of them would have to accept)", programs.len()),
        )),
    }
}

/// The solution judged when none is named: the first accepted submission that this machine
/// can build (a language the judge knows, its toolchain present, not set aside as
/// `*.disabled`); else the first, whose row then says why it cannot be judged.
fn default_submission(dir: &Path) -> PathBuf {
    let accepted = dir.join(SUBMISSIONS_DIR).join("accepted");
    let submissions = submissions_in(&accepted);
    let buildable = submissions.iter().find(|submission| {
        crate::toolchain::sources::Sources::read(submission)
            .is_ok_and(|sources| sources.language.missing_tool().is_none())
    });
    buildable
        .or(submissions.first())
        .cloned()
        .unwrap_or(accepted)
}

/// The submissions in one verdict folder, in natural order; dot-files (`.gitkeep`) are no
/// submissions.
pub fn submissions_in(folder: &Path) -> Vec<PathBuf> {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn flags(text: &str) -> Result<KattisFlags> {
        let words: Vec<String> = text.split_whitespace().map(str::to_owned).collect();
        parse_flags(&words, Path::new("problem.yaml"))
    }

    #[test]
    fn a_wrong_value_in_problem_yaml_is_an_error_at_its_line() {
        let dir = Path::new("pkg");
        let text = "problem_format_version: 2025-09\nname: x\ntype: multiple-choice\n";
        match parse_package(dir, "x".into(), text) {
            Err(Error::Parse { line, message, .. }) => {
                assert_eq!(line, Some(3), "{message}");
                assert!(
                    !message.contains("line 3"),
                    "the line is a field: {message}"
                );
            }
            other => panic!("expected a parse error, got {other:?}"),
        }
    }

    #[test]
    fn several_types_may_be_one_space_separated_string() {
        let dir = Path::new("pkg");
        let yaml =
            |types: &str| format!("problem_format_version: 2025-09\nname: x\ntype: {types}\n");
        for types in ["pass-fail interactive", "[pass-fail, interactive]"] {
            let text = yaml(types);
            let parsed: PackageYaml = serde_norway::from_str(&text).unwrap();
            let kinds = kinds(&parsed, FormatVersion::V2025, dir, &text).unwrap();
            assert!(kinds.interactive && !kinds.scoring, "{types}");
        }
        let text = yaml("scoring  multi-pass");
        let parsed: PackageYaml = serde_norway::from_str(&text).unwrap();
        let kinds = kinds(&parsed, FormatVersion::V2025, dir, &text).unwrap();
        assert!(kinds.scoring && kinds.multi_pass && !kinds.interactive);
    }

    #[test]
    fn validator_flags_map_to_the_default_validator() {
        assert_eq!(flags("").unwrap(), KattisFlags::default());
        let parsed = flags("case_sensitive float_tolerance 1e-6").unwrap();
        assert!(parsed.case_sensitive && !parsed.space_change_sensitive);
        assert_eq!(parsed.tolerance, Some((1e-6, 1e-6)));
        assert_eq!(
            flags("float_relative_tolerance 0.01").unwrap().tolerance,
            Some((0.0, 0.01))
        );
        assert!(flags("float_tolerance")
            .unwrap_err()
            .to_string()
            .contains("needs a non-negative number"));
        assert!(flags("ignore_everything")
            .unwrap_err()
            .to_string()
            .contains("unknown validator flag `ignore_everything`"));
    }
}
