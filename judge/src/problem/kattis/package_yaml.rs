//! `problem.yaml`: a package's format version, type, limits, timing and validation, read
//! into a `Problem` without its cases. Other keys (author, license, ...) are not read.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;

use super::{constants, flags, includes, programs_in, scoring, yaml_line};
use super::{FormatVersion, Package, Timing};
use crate::compare::{CompareMode, KattisFlags};
use crate::error::{if_exists, CorpusFault, Error, Result};
use crate::problem::checker_spec::{CheckerSpec, Mode, Protocol, CHECKER_LIMITS};
use crate::problem::layout::{
    ACCEPTED_DIR, LEGACY_OUTPUT_VALIDATORS_DIR, OUTPUT_VALIDATOR_DIR, PACKAGE_FILE,
    SUBMISSIONS_DIR, TIMELIMIT_FILE,
};
use crate::problem::Problem;
use crate::problem::{Profile, SIZE_LIMIT_MIB, TIME_LIMIT_MS};
use crate::toolchain::Limits;

/// `validation_passes` when a multi-pass problem gives none, and the most we run.
const DEFAULT_PASSES: u32 = 2;
const MAX_PASSES: u64 = 100;

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
    /// 2025-09.
    constants: Option<serde_norway::Value>,
}

#[derive(Debug, Deserialize)]
#[serde(
    untagged,
    expecting = "`type`: a problem type (pass-fail, scoring, interactive, multi-pass, submit-answer) or a list of them"
)]
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
    validation_passes: Option<u64>,
}

#[derive(Debug, Default, Deserialize)]
struct TimeMultipliersYaml {
    ac_to_time_limit: Option<f64>,
    time_limit_to_tle: Option<f64>,
}

/// For errors that name the file and the key's line.
struct YamlText<'a> {
    path: &'a Path,
    text: &'a str,
}

impl YamlText<'_> {
    fn at(&self, key: &str) -> Option<usize> {
        yaml_line(self.text, key)
    }

    /// ` line N`, or nothing where the key is not found.
    fn line_shown(&self, key: &str) -> String {
        self.at(key)
            .map_or(String::new(), |line| format!(" line {line}"))
    }

    fn out_of_range(&self, key: &str, value: String, range: String) -> Error {
        Error::parse(
            self.path,
            self.at(key),
            format!("`limits.{key}` = {value} is out of range: expected {range}"),
        )
    }

    /// MiB to bytes, when in range.
    fn mib(&self, value: u64, key: &str) -> Result<u64> {
        if SIZE_LIMIT_MIB.contains(&value) {
            Ok(value << 20)
        } else {
            let range = format!("{} to {} MiB", SIZE_LIMIT_MIB.start(), SIZE_LIMIT_MIB.end());
            Err(self.out_of_range(key, value.to_string(), range))
        }
    }
}

/// From `type` (2023-07 and later) or legacy `validation`.
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
    let at = |key: &str| yaml_line(text, key);
    if version == FormatVersion::Legacy {
        return legacy_kinds(yaml, &path, at);
    }
    let mut kinds = Kinds::default();
    let types = match &yaml.problem_type {
        None => vec!["pass-fail".to_owned()],
        // Space-separated in one string, as the format's example packages write them
        // (`pass-fail interactive`) and BAPCtools reads them.
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
    kinds.custom_validator = dir.join(OUTPUT_VALIDATOR_DIR).exists();
    Ok(kinds)
}

/// From `validation` words and a one-word `type`.
fn legacy_kinds(
    yaml: &PackageYaml,
    path: &Path,
    at: impl Fn(&str) -> Option<usize>,
) -> Result<Kinds> {
    let mut kinds = Kinds::default();
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
                            path,
                            at("validation"),
                            format!("`validation: {validation}`: unknown word `{other}` (expected `custom`, then `interactive` and/or `score`)"),
                        ))
                    }
                }
            }
        }
        _ => {
            return Err(Error::parse(
                path,
                at("validation"),
                format!("`validation: {validation}`: expected `default` or `custom` (then `interactive` and/or `score`)"),
            ))
        }
    }
    match &yaml.problem_type {
        None => {}
        Some(OneOrMany::One(kind)) if kind == "pass-fail" => {}
        Some(OneOrMany::One(kind)) if kind == "scoring" => kinds.scoring = true,
        Some(_) => {
            return Err(Error::parse(
                path,
                at("type"),
                "`type`: expected `pass-fail` or `scoring`",
            ))
        }
    }
    Ok(kinds)
}

/// `cases` are left empty.
pub fn parse_package(dir: &Path, id: String, text: &str) -> Result<Problem> {
    let path = dir.join(PACKAGE_FILE);
    let yaml: PackageYaml = serde_norway::from_str::<Option<PackageYaml>>(text)
        .map_err(|error| {
            let line = error.location().map(|l| l.line());
            Error::parse(&path, line, error.to_string())
        })?
        .unwrap_or_default();
    let file = YamlText { path: &path, text };
    let version = format_version(&yaml, &file)?;
    let notes = format_notes(&yaml, version, &file);
    let kinds = kinds(&yaml, version, dir, text)?;
    refuse_unsupported(&kinds, version, &file)?;
    let constants = match &yaml.constants {
        Some(value) => constants::Constants::parse(value, &path, file.at("constants"))?,
        None => constants::Constants::default(),
    };
    let grading = match &yaml.grading {
        Some(value) if kinds.scoring => scoring::legacy_grading(value, &path, text)?,
        // Meaningless in a pass-fail problem, and harmless: left alone.
        _ => scoring::LegacyGrading::default(),
    };
    let profile = Profile::Kattis;
    let limits_yaml = yaml.limits.unwrap_or_default();
    let time_limit = (limits_yaml.time_limit)
        .map_or_else(|| read_timelimit_file(dir), |seconds| Ok(Some(seconds)))?;
    let limits = limits(&limits_yaml, time_limit, profile, &file)?;
    let timing = timing(&limits_yaml, version, &file)?;
    let validator_flags = yaml.validator_flags.unwrap_or_default();
    let (compare, checker) = compare_and_checker(
        dir,
        &kinds,
        &validator_flags,
        (&limits_yaml, version, &file),
    )?;
    Ok(Problem {
        name: yaml
            .name
            .as_ref()
            .and_then(name_of)
            .unwrap_or_else(|| id.clone()),
        source_url: None,
        submit_url: None,
        picture: Default::default(),
        java_class: None,
        tout_checker: None,
        solution_languages: Default::default(),
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
        function: None,
        validator_args: Default::default(),
        files: Default::default(),
        package: Some(Package {
            version,
            scoring: kinds.scoring,
            validator_must_score: kinds.validator_scores,
            grading,
            time_limit_given: time_limit.is_some(),
            time_limit_fixed: limits_yaml.time_limit.is_some(),
            timing,
            constants,
            includes: includes::Includes::read(dir)?,
            choice: crate::toolchain::sources::Choice::default(),
            notes,
        }),
    })
}

/// By its output validator, with `validator_flags`, or by the default one, whose flags are
/// then read here.
fn compare_and_checker(
    dir: &Path,
    kinds: &Kinds,
    validator_flags: &str,
    (limits_yaml, version, file): (&LimitsYaml, FormatVersion, &YamlText),
) -> Result<(CompareMode, Option<CheckerSpec>)> {
    // Both read, and their faults reported, whichever judges the output.
    let mode = validation_mode(limits_yaml, kinds, version, file)?;
    let limits = validator_limits(limits_yaml, file)?;
    let flags: Vec<String> = validator_flags
        .split_whitespace()
        .map(str::to_owned)
        .collect();
    if !kinds.custom_validator {
        return Ok((CompareMode::Kattis(flags::parse(&flags, file.path)?), None));
    }
    let checker = CheckerSpec {
        source: find_validator(dir)?,
        protocol: Protocol::Kattis,
        flags,
        reads_scores: kinds.scoring,
        appes: false,
        limits,
        mode,
    };
    Ok((CompareMode::Kattis(KattisFlags::default()), Some(checker)))
}

fn format_version(yaml: &PackageYaml, file: &YamlText) -> Result<FormatVersion> {
    match &yaml.problem_format_version {
        None => Ok(FormatVersion::Legacy),
        Some(text) => FormatVersion::parse(text).ok_or_else(|| {
            Error::parse(
                file.path,
                file.at("problem_format_version"),
                format!("unknown `problem_format_version` `{text}` (expected legacy, 2023-07-draft or 2025-09)"),
            )
        }),
    }
}

/// The Kattis profile's, with the package's time limit, memory and output.
fn limits(
    limits_yaml: &LimitsYaml,
    time_limit: Option<f64>,
    profile: Profile,
    file: &YamlText,
) -> Result<Limits> {
    let mut limits = profile.online_judge().limits();
    if let Some(seconds) = time_limit {
        let (low, high) = (*TIME_LIMIT_MS.start(), *TIME_LIMIT_MS.end());
        limits.cpu_time = Duration::try_from_secs_f64(seconds)
            .ok()
            .filter(|t| (low..=high).contains(&(t.as_millis() as u64)))
            .ok_or_else(|| {
                file.out_of_range(
                    "time_limit",
                    seconds.to_string(),
                    format!("{} to {} seconds", low as f64 / 1000.0, high / 1000),
                )
            })?;
    }
    if let Some(value) = limits_yaml.memory {
        limits.memory_bytes = file.mib(value, "memory")?;
        limits.stack_bytes = profile.online_judge().stack_bytes(limits.memory_bytes);
    }
    if let Some(value) = limits_yaml.output {
        limits.output_bytes = file.mib(value, "output")?;
    }
    Ok(limits)
}

/// The format version's defaults unless the package says.
fn timing(limits_yaml: &LimitsYaml, version: FormatVersion, file: &YamlText) -> Result<Timing> {
    let factor = |value: Option<f64>, key: &str, default: f64| match value {
        None => Ok(default),
        Some(value) if value.is_finite() && value >= 1.0 => Ok(value),
        Some(value) => {
            Err(file.out_of_range(key, value.to_string(), "a number of at least 1".into()))
        }
    };
    let multipliers = limits_yaml.time_multipliers.as_ref();
    let legacy = version == FormatVersion::Legacy;
    Ok(Timing {
        ac_to_time_limit: if legacy {
            factor(limits_yaml.time_multiplier, "time_multiplier", 5.0)?
        } else {
            factor(
                multipliers.and_then(|m| m.ac_to_time_limit),
                "ac_to_time_limit",
                2.0,
            )?
        },
        time_limit_to_tle: if legacy {
            factor(limits_yaml.time_safety_margin, "time_safety_margin", 2.0)?
        } else {
            factor(
                multipliers.and_then(|m| m.time_limit_to_tle),
                "time_limit_to_tle",
                1.5,
            )?
        },
        time_resolution: match limits_yaml.time_resolution {
            None => 1.0,
            Some(value) if value.is_finite() && value > 0.0 => value,
            Some(value) => {
                return Err(file.out_of_range(
                    "time_resolution",
                    value.to_string(),
                    "a positive number of seconds".into(),
                ))
            }
        },
    })
}

/// Interactive or multi-pass needs an output validator of the package's own.
fn validation_mode(
    limits_yaml: &LimitsYaml,
    kinds: &Kinds,
    version: FormatVersion,
    file: &YamlText,
) -> Result<Mode> {
    let mode = Mode {
        interactive: kinds.interactive,
        passes: match limits_yaml.validation_passes {
            None if kinds.multi_pass => DEFAULT_PASSES,
            None => 1,
            Some(passes) if kinds.multi_pass && (2..=MAX_PASSES).contains(&passes) => passes as u32,
            Some(passes) if kinds.multi_pass => {
                return Err(file.out_of_range(
                    "validation_passes",
                    passes.to_string(),
                    format!("2 to {MAX_PASSES}"),
                ))
            }
            Some(_) => {
                return Err(Error::parse(
                    file.path,
                    file.at("validation_passes"),
                    "`limits.validation_passes` is only for multi-pass problems",
                ))
            }
        },
        twice: None,
    };
    let legacy = version == FormatVersion::Legacy;
    if !mode.is_plain() && !kinds.custom_validator {
        // The default validator cannot talk to a submission nor write `nextpass.in`.
        return Err(Error::parse(
            file.path,
            file.at(if legacy { "validation" } else { "type" }),
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
    Ok(mode)
}

/// The system's defaults (problemtools' `config/problem.yaml`: 60 s, 1024 MiB) unless the
/// package says.
fn validator_limits(limits_yaml: &LimitsYaml, file: &YamlText) -> Result<Limits> {
    let mut limits = CHECKER_LIMITS;
    limits.cpu_time = Duration::from_secs(60);
    limits.memory_bytes = 1024 << 20;
    if let Some(seconds) = limits_yaml.validation_time {
        if !(1..=3600).contains(&seconds) {
            return Err(file.out_of_range(
                "validation_time",
                seconds.to_string(),
                "1 to 3600 seconds".into(),
            ));
        }
        limits.cpu_time = Duration::from_secs(seconds);
    }
    if let Some(value) = limits_yaml.validation_memory {
        limits.memory_bytes = file.mib(value, "validation_memory")?;
    }
    Ok(limits)
}

/// Judging a problem of a kind not supported as a plain one would give wrong verdicts
/// without a word.
fn refuse_unsupported(kinds: &Kinds, version: FormatVersion, file: &YamlText) -> Result<()> {
    let Some(kind) = kinds.unsupported.first() else {
        return Ok(());
    };
    Err(Error::parse(
        file.path,
        file.at(if version == FormatVersion::Legacy { "validation" } else { "type" }),
        format!(
            "the problem is {kind}: {kind} problems are not supported yet (the submission is the answers, not a program), so it is not judged"
        ),
    ))
}

/// The keys of `problem.yaml`, of its `limits` and of `limits.time_multipliers` in each
/// version (the spec's tables; problemtools' metadata models refuse any other). In legacy
/// `limits`, `time_limit` is the later versions' key, read there too.
const LEGACY_KEYS: [&str; 3] = [
    "problem_format_version type name uuid author source source_url license rights_owner \
     limits validation validator_flags grading keywords",
    "time_limit time_multiplier time_safety_margin memory output code compilation_time \
     compilation_memory validation_time validation_memory validation_output",
    "",
];
const KEYS: [&str; 3] = [
    "problem_format_version type name uuid version credits source license rights_owner \
     embargo_until limits keywords languages allow_file_writing constants",
    "time_multipliers time_limit time_resolution memory output code compilation_time \
     compilation_memory validation_time validation_memory validation_output validation_passes",
    "ac_to_time_limit time_limit_to_tle",
];

/// A key the version does not have: a typo, or another version's, and not read.
fn unknown_keys(version: FormatVersion, file: &YamlText) -> Vec<String> {
    use serde_norway::Value;
    let known = match version {
        FormatVersion::Legacy => LEGACY_KEYS,
        FormatVersion::Draft2023 | FormatVersion::V2025 => KEYS,
    };
    let Ok(root) = serde_norway::from_str::<Value>(file.text) else {
        return Vec::new();
    };
    let limits = root.get("limits");
    let levels = [
        ("", Some(&root)),
        ("limits.", limits),
        (
            "limits.time_multipliers.",
            limits.and_then(|l| l.get("time_multipliers")),
        ),
    ];
    let mut notes = Vec::new();
    for ((prefix, map), known) in levels.into_iter().zip(known) {
        let Some(Value::Mapping(map)) = map else {
            continue;
        };
        let keys = map.keys().filter_map(Value::as_str);
        for key in keys.filter(|key| !known.split_whitespace().any(|k| k == *key)) {
            // problemtools' models refuse unknown keys at the top only.
            let refused = match prefix {
                "" => "problemtools refuses the package",
                _ => "the format calls it an error",
            };
            // The legacy format's, which the judge still reads.
            let read = match ["validator_flags", "grading"].contains(&key) {
                true => "read as the legacy format's",
                false => "not read",
            };
            notes.push(format!(
                "problem.yaml{}: `{prefix}{key}` is not a key of the {} format, and is \
                 {read} ({refused})",
                file.line_shown(key),
                version.name()
            ));
        }
    }
    notes
}

/// What the format does not allow in `yaml` that judging reads past.
fn format_notes(yaml: &PackageYaml, version: FormatVersion, file: &YamlText) -> Vec<String> {
    let mut notes = unknown_keys(version, file);
    if let Some(limits) = (yaml.limits.as_ref()).filter(|_| version != FormatVersion::Legacy) {
        let resolution = limits.time_resolution.unwrap_or(1.0);
        let steps = limits.time_limit.map(|limit| limit / resolution);
        if steps.is_some_and(|steps| (steps - steps.round()).abs() > 1e-9) {
            notes.push(format!(
                "problem.yaml{}: `limits.time_limit` is not a whole multiple of \
                 `time_resolution` ({resolution} s), which the format calls an error; it is \
                 used as it is",
                file.line_shown("time_limit")
            ));
        }
    }
    if version == FormatVersion::Legacy && yaml.name.as_ref().is_some_and(|name| name.is_mapping())
    {
        let line = file.line_shown("name");
        notes.push(format!(
            "problem.yaml{line}: `name` is a map of languages, which the legacy format does not \
             take (its `name` is a string; the 2023-07 format takes a map), and problemtools \
             refuses the package"
        ));
    }
    notes
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
    let path = dir.join(TIMELIMIT_FILE);
    let Some(text) = if_exists(&path, std::fs::read_to_string)? else {
        return Ok(None);
    };
    text.trim()
        .parse()
        .map(Some)
        .map_err(|_| Error::parse(&path, None, "expected a number of seconds"))
}

/// `output_validator/` (2023-07 and later), or the first program in legacy
/// `output_validators/` (see `legacy_output_validators`).
fn find_validator(dir: &Path) -> Result<PathBuf> {
    let single = dir.join(OUTPUT_VALIDATOR_DIR);
    if single.is_dir() {
        return Ok(single);
    }
    let programs = legacy_output_validators(dir);
    programs
        .first()
        .cloned()
        .ok_or_else(|| Error::corpus(dir, CorpusFault::NoValidator))
}

/// The programs in legacy `output_validators/`, the one used first. The legacy format would
/// run them all, but problemtools (`OutputValidators.output_validator`) judges with the first
/// of `find_programs` in sorted name order and warns of the others ("Support for multiple
/// output validators has been dropped"); so do we, and `verify` warns as it does.
pub(crate) fn legacy_output_validators(dir: &Path) -> Vec<PathBuf> {
    let mut programs = programs_in(&dir.join(LEGACY_OUTPUT_VALIDATORS_DIR));
    // Python's `sorted`, by code point: the bytes' order, not the natural order of names.
    programs.sort_by(|a, b| a.file_name().cmp(&b.file_name()));
    programs
}

/// The first accepted submission this machine can build (known language, toolchain present,
/// not `*.disabled`); else the first, whose row then says why it cannot be judged.
fn default_submission(dir: &Path) -> PathBuf {
    let accepted = dir.join(SUBMISSIONS_DIR).join(ACCEPTED_DIR);
    let submissions = programs_in(&accepted);
    let buildable = submissions.iter().find(|submission| {
        crate::toolchain::sources::Sources::read(submission)
            .is_ok_and(|sources| sources.language.missing_tool().is_none())
    });
    buildable
        .or(submissions.first())
        .cloned()
        .unwrap_or(accepted)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_legacy_name_given_as_a_map_is_read_and_noted() {
        let dir = tempfile::tempdir().unwrap();
        let notes = |text: &str| {
            let problem = parse_package(dir.path(), "x".into(), text).unwrap();
            (problem.name, problem.package.unwrap().notes)
        };
        let (name, noted) = notes("source: x\nname:\n  sv: Multationer\n");
        assert_eq!(name, "Multationer");
        assert_eq!(noted.len(), 1, "{noted:?}");
        assert!(
            noted[0].starts_with("problem.yaml line 2: `name` is a map of languages"),
            "{noted:?}"
        );
        // A string in the legacy format, and a map in the 2023-07 one, are as the format says.
        assert_eq!(notes("name: Multationer\n").1, Vec::<String>::new());
        let draft = "problem_format_version: 2023-07-draft\nname:\n  en: Mean\n";
        assert_eq!(notes(draft).1, Vec::<String>::new());
        // A key the version does not have: another version's, or a typo, at any depth.
        let later = "problem_format_version: 2025-09\nname: x\nvalidation: custom interactive\n\
                     limits:\n  memory_limit: 16\n  time_multipliers:\n    ac_to_time_limt: 3\n";
        assert_eq!(
            notes(later).1,
            [
                "problem.yaml line 3: `validation` is not a key of the 2025-09 format, and is not \
                 read (problemtools refuses the package)",
                "problem.yaml line 5: `limits.memory_limit` is not a key of the 2025-09 format, \
                 and is not read (the format calls it an error)",
                "problem.yaml line 7: `limits.time_multipliers.ac_to_time_limt` is not a key of \
                 the 2025-09 format, and is not read (the format calls it an error)",
            ]
        );
        let legacy = "name: x\nproblem_format_version: legacy\nvalidation: default\nlimits:\n  time_limit: 2\n";
        assert_eq!(notes(legacy).1, Vec::<String>::new());
        let limit = |limits: &str| {
            notes(&format!(
                "problem_format_version: 2025-09\nname: x\nlimits:\n{limits}"
            ))
            .1
        };
        assert_eq!(
            limit("  time_limit: 1.5\n"),
            ["problem.yaml line 4: `limits.time_limit` is not a whole multiple of `time_resolution` \
              (1 s), which the format calls an error; it is used as it is"]
        );
        assert!(limit("  time_limit: 1.5\n  time_resolution: 0.5\n").is_empty());
        assert!(limit("  time_limit: 3\n").is_empty());
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
        // Named as the format names it, not as serde names our type.
        let map = parse_package(dir, "x".into(), &yaml("{a: 1}"))
            .unwrap_err()
            .to_string();
        assert!(
            map.contains("`type`: a problem type (pass-fail, scoring,"),
            "{map}"
        );
    }
}
