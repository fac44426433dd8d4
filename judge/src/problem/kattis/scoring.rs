//! How a scoring package turns its cases' verdicts into a score, in two models:
//!
//! - `Graded`: the legacy format (and 2023-07-draft as problemtools reads it): every folder of
//!   `data/` is a group whose default grader combines its items' verdicts and scores
//!   (`testdata.yaml`: `on_reject`, `grading`, `grader_flags`, `accept_score`, `reject_score`,
//!   `range`, inherited by the groups below; legacy `problem.yaml` `grading:` overrides).
//! - `Bounded`: 2025-09 (`test_group.yaml`: `max_score`, `score_aggregation`) and the
//!   2023-07-draft's `scoring: {score, aggregation}` maps: the score of `secret`, made of its
//!   groups (the folders directly in it that have the file) or of its cases.
//!
//! The plan is read and checked once, at load; `judging::scorecard` scores a submission
//! with it.

use std::path::{Path, PathBuf};

use serde_norway::Value;

use super::constants::Constants;
use super::{yaml_line, FormatVersion};
use crate::error::{if_exists, Error, Result};
use crate::problem::layout::{DATA_DIR, SAMPLE_DIR, SECRET_DIR, TESTDATA_FILE, TEST_GROUP_FILE};
use crate::problem::Aggregation;

#[derive(Debug, Clone, PartialEq)]
pub enum ScoringPlan {
    Graded {
        root: GradedGroup,
        /// The best score the range allows (its top, or its bottom with `objective: min`),
        /// when finite: `partially_accepted/` must not reach it.
        best: Option<f64>,
        /// Legacy `validation: custom score`: the validator must write `score.txt`.
        validator_must_score: bool,
        /// The program in `graders/`, when a group has `grading: custom`.
        grader: Option<PathBuf>,
    },
    Bounded(BoundedGroup),
}

/// A folder of `data/` under the legacy default grader.
#[derive(Debug, Clone, PartialEq)]
pub struct GradedGroup {
    /// Below `data/` (`secret/group1`); empty for `data/` itself.
    pub(crate) name: String,
    pub(crate) config: GraderConfig,
    pub(crate) items: Vec<GradedItem>,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum GradedItem {
    Case(String),
    Group(GradedGroup),
}

/// A group's grading keys, after inheritance.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct GraderConfig {
    /// `on_reject: break`: items after the first rejected one do not count.
    pub(crate) stop_at_rejection: bool,
    pub(crate) verdicts: VerdictMode,
    pub(crate) aggregation: Aggregation,
    pub(crate) ignore_sample: bool,
    pub(crate) accept_if_any_accepted: bool,
    pub(crate) accept_score: f64,
    pub(crate) reject_score: f64,
    pub(crate) range: (f64, f64),
    /// `grading: custom`: the package's grader (`graders/`) combines the items.
    pub(crate) custom: bool,
    /// `grader_flags`: the custom grader's arguments.
    pub(crate) flags: Vec<String>,
}

impl Default for GraderConfig {
    fn default() -> Self {
        GraderConfig {
            stop_at_rejection: true,
            verdicts: VerdictMode::WorstError,
            aggregation: Aggregation::Sum,
            ignore_sample: false,
            accept_if_any_accepted: false,
            accept_score: 1.0,
            reject_score: 0.0,
            range: (f64::NEG_INFINITY, f64::INFINITY),
            custom: false,
            flags: Vec::new(),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum VerdictMode {
    WorstError,
    FirstError,
    AlwaysAccept,
}

/// `secret` or one of its groups, in the 2025-09 model.
#[derive(Debug, Clone, PartialEq)]
pub struct BoundedGroup {
    pub(crate) name: String,
    pub(crate) aggregation: Aggregation,
    /// `None`: unbounded.
    pub(crate) max_score: Option<f64>,
    pub(crate) items: BoundedItems,
    /// `require_pass`: `sample` or earlier pass-fail groups (`secret/g1`) all of whose cases
    /// must be accepted for this group to score.
    pub(crate) require_pass: Vec<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum BoundedItems {
    Cases(Vec<String>),
    Groups(Vec<BoundedGroup>),
}

/// The legacy `problem.yaml` `grading:` keys that change judging.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LegacyGrading {
    pub objective_min: bool,
    /// `on_reject`: `first_error` is `break`, `grade` is `continue`, for every group.
    pub stop_at_rejection: Option<bool>,
    pub accept_score: Option<f64>,
    pub reject_score: Option<f64>,
    pub range: Option<(f64, f64)>,
}

pub fn legacy_grading(value: &Value, path: &Path, text: &str) -> Result<LegacyGrading> {
    let file = YamlFile { path, text };
    let Value::Mapping(map) = value else {
        return Err(file.error("grading", "expected a map"));
    };
    let mut grading = LegacyGrading::default();
    for (key, value) in map {
        let key = key.as_str().unwrap_or_default();
        match key {
            "objective" => {
                grading.objective_min = match value.as_str() {
                    Some("min") => true,
                    Some("max") => false,
                    _ => return Err(file.error(key, "expected `min` or `max`")),
                }
            }
            "on_reject" => {
                grading.stop_at_rejection = match value.as_str() {
                    Some("first_error") => Some(true),
                    Some("grade") => Some(false),
                    // problemtools keeps each group's own policy for it.
                    Some("worst_error") => None,
                    _ => {
                        return Err(
                            file.error(key, "expected `first_error`, `worst_error` or `grade`")
                        )
                    }
                }
            }
            "accept_score" => grading.accept_score = Some(file.number(key, value)?),
            "reject_score" => grading.reject_score = Some(file.number(key, value)?),
            "range" => grading.range = Some(file.range(key, value)?),
            // What the scoreboard shows, not what the score is.
            "show_test_data_groups" => {}
            other => {
                return Err(file.error(
                    other,
                    "unknown `grading` key (expected objective, on_reject, accept_score, reject_score, range, show_test_data_groups)",
                ))
            }
        }
    }
    Ok(grading)
}

/// `cases`: the judged cases' names below `data/`, in judging order.
pub fn plan(
    dir: &Path,
    version: FormatVersion,
    grading: &LegacyGrading,
    validator_must_score: bool,
    cases: &[String],
    constants: &Constants,
) -> Result<ScoringPlan> {
    let data = dir.join(DATA_DIR);
    match version {
        FormatVersion::V2025 => bounded(&data, TEST_GROUP_FILE, Keys::V2025, cases, constants),
        FormatVersion::Draft2023 if uses_scoring_maps(&data)? => {
            bounded(&data, TESTDATA_FILE, Keys::Draft2023, cases, constants)
        }
        _ => graded(&data, grading, validator_must_score, cases),
    }
}

/// The legacy tree: a group per folder of `data/`, in judging order.
fn graded(
    data: &Path,
    grading: &LegacyGrading,
    validator_must_score: bool,
    cases: &[String],
) -> Result<ScoringPlan> {
    let mut config = GraderConfig::default();
    let root_file = data.join(TESTDATA_FILE);
    apply_graded_file(&mut config, &root_file, grading)?;
    let mut root = GradedGroup {
        name: String::new(),
        config,
        items: Vec::new(),
    };
    for name in cases {
        let folders: Vec<&str> = name.split('/').collect();
        let mut group = &mut root;
        let mut path = String::new();
        for folder in &folders[..folders.len() - 1] {
            if !path.is_empty() {
                path.push('/');
            }
            path.push_str(folder);
            let known = group
                .items
                .iter()
                .position(|item| matches!(item, GradedItem::Group(g) if g.name == path));
            let index = match known {
                Some(index) => index,
                None => {
                    let mut config = group.config.clone();
                    apply_graded_file(&mut config, &data.join(&path).join(TESTDATA_FILE), grading)?;
                    group.items.push(GradedItem::Group(GradedGroup {
                        name: path.clone(),
                        config,
                        items: Vec::new(),
                    }));
                    group.items.len() - 1
                }
            };
            let GradedItem::Group(child) = &mut group.items[index] else {
                unreachable!("the index is of a group")
            };
            group = child;
        }
        group.items.push(GradedItem::Case(name.clone()));
    }
    let (low, high) = root.config.range;
    let best = if grading.objective_min { low } else { high };
    let grader = match root.uses_custom_grading() {
        Some(group) => Some(the_grader(data, &group)?),
        None => None,
    };
    Ok(ScoringPlan::Graded {
        root,
        best: best.is_finite().then_some(best),
        validator_must_score,
        grader,
    })
}

impl ScoringPlan {
    /// What problemtools refuses in the legacy grading keys, though grading reads past it:
    /// the default grader's `ignore_sample` below the top level (a group without its own
    /// `grader_flags` inherits its parent's), or at the top with `on_reject: break`.
    pub fn format_notes(&self) -> Vec<String> {
        let ScoringPlan::Graded { root, .. } = self else {
            return Vec::new();
        };
        let mut notes = Vec::new();
        if root.ignores_sample() && root.config.stop_at_rejection {
            notes.push(format!(
                "{}: `grader_flags: ignore_sample` with `on_reject: break` may leave secret \
                 unjudged, and problemtools refuses it",
                root.file()
            ));
        }
        root.notes_below(&mut notes);
        notes
    }
}

/// The `testdata.yaml` of the group `name` (below `data/`; empty for `data/` itself).
fn testdata_file(name: &str) -> String {
    let file = Path::new(DATA_DIR).join(name).join(TESTDATA_FILE);
    file.display().to_string()
}

impl GradedGroup {
    fn ignores_sample(&self) -> bool {
        self.config.ignore_sample && !self.config.custom
    }

    /// Its `testdata.yaml`, below the package.
    fn file(&self) -> String {
        testdata_file(&self.name)
    }

    fn notes_below(&self, notes: &mut Vec<String>) {
        for item in &self.items {
            let GradedItem::Group(group) = item else {
                continue;
            };
            if group.ignores_sample() {
                notes.push(format!(
                    "{}: `grader_flags: ignore_sample`, its own or inherited (a group without \
                     `grader_flags` takes its parent's), is allowed only in {}, and \
                     problemtools refuses it below",
                    group.file(),
                    testdata_file("")
                ));
            }
            group.notes_below(notes);
        }
    }

    /// The first group (by its name below `data/`) with `grading: custom`, if one has it.
    fn uses_custom_grading(&self) -> Option<String> {
        if self.config.custom {
            return Some(self.name.clone());
        }
        self.items.iter().find_map(|item| match item {
            GradedItem::Group(group) => group.uses_custom_grading(),
            GradedItem::Case(_) => None,
        })
    }
}

/// The one program of `graders/` (legacy "Graders"), which `group`'s `grading: custom`
/// needs; as in problemtools, none or several is a fault.
fn the_grader(data: &Path, group: &str) -> Result<PathBuf> {
    let folder = data.parent().unwrap_or(data).join("graders");
    let file = data.join(group).join(TESTDATA_FILE);
    let mut programs = super::programs_in(&folder);
    let fault = |message: String| Error::PackageData {
        package: folder.parent().unwrap_or(&folder).to_path_buf(),
        message,
    };
    match programs.len() {
        1 => Ok(programs.remove(0)),
        0 => Err(fault(format!(
            "{}: `grading: custom`, but graders/ holds no grader program",
            file.display()
        ))),
        _ => Err(fault(format!(
            "graders/ holds {} programs: a package has one custom grader",
            programs.len()
        ))),
    }
}

/// `config` (the parent's) with the keys of the group file `path`, if any; then the
/// `problem.yaml` grading keys, which override every group's, as in problemtools.
fn apply_graded_file(
    config: &mut GraderConfig,
    path: &Path,
    grading: &LegacyGrading,
) -> Result<()> {
    // Legacy packages have no constants.
    if let Some((text, map)) = read_map(path, &Constants::default())? {
        let file = YamlFile { path, text: &text };
        // First: it decides how `grader_flags` is read, wherever it stands.
        match map.get("grading").map(|value| value.as_str()) {
            Some(Some("custom")) => config.custom = true,
            Some(Some("default")) => config.custom = false,
            _ => {}
        }
        for (key, value) in &map {
            let key = key.as_str().unwrap_or_default();
            match key {
                "on_reject" => {
                    config.stop_at_rejection = match value.as_str() {
                        Some("break") => true,
                        Some("continue") => false,
                        _ => return Err(file.error(key, "expected `break` or `continue`")),
                    }
                }
                "grading" => match value.as_str() {
                    Some("default") => config.custom = false,
                    Some("custom") => config.custom = true,
                    _ => return Err(file.error(key, "expected `default` or `custom`")),
                },
                "grader_flags" => {
                    let flags = value.as_str().unwrap_or_default().to_owned();
                    config.flags = flags.split_whitespace().map(str::to_owned).collect();
                    // A custom grader takes any flags it likes.
                    if config.custom {
                        continue;
                    }
                    // problemtools hands the flags down whole: a group's replace its parent's.
                    config.verdicts = VerdictMode::WorstError;
                    config.aggregation = Aggregation::Sum;
                    config.ignore_sample = false;
                    config.accept_if_any_accepted = false;
                    for flag in flags.split_whitespace() {
                        match flag {
                            "worst_error" | "no_errors" => config.verdicts = VerdictMode::WorstError,
                            "first_error" => config.verdicts = VerdictMode::FirstError,
                            "always_accept" => config.verdicts = VerdictMode::AlwaysAccept,
                            "sum" => config.aggregation = Aggregation::Sum,
                            "min" => config.aggregation = Aggregation::Min,
                            "max" => config.aggregation = Aggregation::Max,
                            "avg" => config.aggregation = Aggregation::Average,
                            "ignore_sample" => config.ignore_sample = true,
                            "accept_if_any_accepted" => config.accept_if_any_accepted = true,
                            other => {
                                return Err(file.error(
                                    key,
                                    &format!("unknown grader flag `{other}` (expected worst_error, first_error, always_accept, sum, avg, min, max, ignore_sample, accept_if_any_accepted)"),
                                ))
                            }
                        }
                    }
                }
                "accept_score" => config.accept_score = file.number(key, value)?,
                "reject_score" => config.reject_score = file.number(key, value)?,
                "range" => config.range = file.range(key, value)?,
                // Keys of validators and of the model below, not of the legacy grader.
                _ => {}
            }
        }
    }
    if let Some(stop) = grading.stop_at_rejection {
        config.stop_at_rejection = stop;
    }
    config.accept_score = grading.accept_score.unwrap_or(config.accept_score);
    config.reject_score = grading.reject_score.unwrap_or(config.reject_score);
    config.range = grading.range.unwrap_or(config.range);
    Ok(())
}

/// The bounded model's keys, spelled differently by 2025-09 and the 2023-07 draft.
#[derive(Clone, Copy)]
enum Keys {
    /// `max_score`, `score_aggregation` at the top of `test_group.yaml`.
    V2025,
    /// `scoring: {score, aggregation}` in `testdata.yaml`.
    Draft2023,
}

/// A 2023-07-draft package uses the bounded model when `secret` or one of its groups has a
/// `scoring:` map; else its `testdata.yaml` files are read as problemtools reads them.
fn uses_scoring_maps(data: &Path) -> Result<bool> {
    let secret = data.join(SECRET_DIR);
    let mut files = vec![secret.join(TESTDATA_FILE)];
    files.extend(
        subfolders(&secret)
            .into_iter()
            .map(|dir| dir.join(TESTDATA_FILE)),
    );
    for file in files {
        if read_map(&file, &Constants::default())?
            .is_some_and(|(_, map)| map.contains_key("scoring"))
        {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Sorted by name.
fn subfolders(dir: &Path) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| path.is_dir())
        .collect();
    found.sort();
    found
}

#[derive(Default)]
struct BoundedKeys {
    max_score: Option<Option<f64>>,
    aggregation: Option<Aggregation>,
    require_pass: Vec<String>,
    /// For errors about `require_pass`'s names.
    require_pass_line: Option<usize>,
}

fn read_bounded(path: &Path, keys: Keys, constants: &Constants) -> Result<Option<BoundedKeys>> {
    let Some((text, map)) = read_map(path, constants)? else {
        return Ok(None);
    };
    let file = YamlFile { path, text: &text };
    let (map, score_key, aggregation_key) = match keys {
        Keys::V2025 => (map, "max_score", "score_aggregation"),
        Keys::Draft2023 => match map.get("scoring") {
            None => return Ok(None),
            Some(Value::Mapping(scoring)) => (scoring.clone(), "score", "aggregation"),
            Some(_) => return Err(file.error("scoring", "expected a map")),
        },
    };
    if map.contains_key("static_validation_score") {
        return Err(file.error(
            "static_validation_score",
            "is not supported yet, so the package is not judged",
        ));
    }
    let names = |value: &Value| value.as_str().map(str::to_owned);
    let require_pass = match map.get("require_pass") {
        None => Some(Vec::new()),
        Some(Value::Sequence(list)) => list.iter().map(names).collect::<Option<_>>(),
        Some(value) => names(value).map(|name| vec![name]),
    }
    .ok_or_else(|| file.error("require_pass", "expected a group's name or a list of them"))?;
    let max_score = match map.get(score_key) {
        None => None,
        Some(Value::String(word)) if word == "unbounded" => Some(None),
        Some(value) => match value.as_u64() {
            Some(max) => Some(Some(max as f64)),
            None => {
                return Err(file.error(score_key, "expected a non-negative integer or `unbounded`"))
            }
        },
    };
    let aggregation = match map.get(aggregation_key) {
        None => None,
        Some(value) => Some(match value.as_str() {
            Some("pass-fail") => Aggregation::PassFail,
            Some("sum") => Aggregation::Sum,
            Some("min") => Aggregation::Min,
            _ => return Err(file.error(aggregation_key, "expected `pass-fail`, `sum` or `min`")),
        }),
    };
    Ok(Some(BoundedKeys {
        max_score,
        aggregation,
        require_pass,
        require_pass_line: yaml_line(&text, "require_pass"),
    }))
}

/// `secret`'s own keys, checked: it may require `sample` alone, and `sample` has none.
fn secret_keys(
    data: &Path,
    file_name: &str,
    keys: Keys,
    constants: &Constants,
) -> Result<BoundedKeys> {
    let sample_file = data.join(SAMPLE_DIR).join(file_name);
    if read_bounded(&sample_file, keys, constants)?.is_some_and(|k| {
        k.max_score.is_some() || k.aggregation.is_some() || !k.require_pass.is_empty()
    }) {
        return Err(Error::parse(
            &sample_file,
            None,
            "samples are not scored: no maximum score, aggregation or require_pass here",
        ));
    }
    let secret_file = data.join(SECRET_DIR).join(file_name);
    let own = read_bounded(&secret_file, keys, constants)?.unwrap_or_default();
    if let Some(name) = own.require_pass.iter().find(|name| *name != SAMPLE_DIR) {
        let message =
            format!("`require_pass` names `{name}`: `secret` may depend on `sample` alone");
        return Err(Error::parse(&secret_file, own.require_pass_line, message));
    }
    Ok(own)
}

/// The 2025-09 model: `secret` with its groups, checked as the format requires.
fn bounded(
    data: &Path,
    file_name: &str,
    keys: Keys,
    cases: &[String],
    constants: &Constants,
) -> Result<ScoringPlan> {
    let secret_dir = data.join(SECRET_DIR);
    let secret_file = secret_dir.join(file_name);
    let own = secret_keys(data, file_name, keys, constants)?;
    let secret_requires = own.require_pass;
    let secret_max = own.max_score.unwrap_or(Some(100.0));
    let secret_aggregation = own.aggregation.unwrap_or(Aggregation::Sum);
    let in_secret: Vec<&String> = cases
        .iter()
        .filter(|name| name.starts_with("secret/"))
        .collect();
    let mut groups = Vec::new();
    for dir in subfolders(&secret_dir) {
        let group_file = dir.join(file_name);
        if group_file.is_file() {
            let secret = (secret_max, secret_aggregation);
            let group = bounded_group(
                &dir,
                (&group_file, keys, constants),
                secret,
                &in_secret,
                &groups,
            )?;
            groups.push(group);
        }
    }
    if secret_max.is_none() && secret_aggregation == Aggregation::PassFail {
        return Err(Error::parse(
            &secret_file,
            None,
            "a pass-fail `secret` needs a `max_score`",
        ));
    }
    let items = if groups.is_empty() {
        BoundedItems::Cases(in_secret.into_iter().cloned().collect())
    } else {
        let grouped = |case: &&String| {
            groups
                .iter()
                .any(|g| case.starts_with(&format!("{}/", g.name)))
        };
        if let Some(stray) = in_secret.iter().find(|case| !grouped(case)) {
            return Err(Error::parse(
                data.join(stray.as_str()),
                None,
                format!("a case of `secret` outside its test data groups (the folders with a {file_name})"),
            ));
        }
        BoundedItems::Groups(groups)
    };
    Ok(ScoringPlan::Bounded(BoundedGroup {
        name: SECRET_DIR.into(),
        aggregation: secret_aggregation,
        max_score: secret_max,
        items,
        require_pass: secret_requires,
    }))
}

/// A group of `secret` and its cases, checked against `secret`'s maximum and aggregation,
/// and the `earlier` groups it requires, as the format requires.
fn bounded_group(
    dir: &Path,
    (group_file, keys, constants): (&Path, Keys, &Constants),
    (secret_max, secret_aggregation): (Option<f64>, Aggregation),
    in_secret: &[&String],
    earlier: &[BoundedGroup],
) -> Result<BoundedGroup> {
    let keys = read_bounded(group_file, keys, constants)?.unwrap_or_default();
    let name = format!(
        "{SECRET_DIR}/{}",
        dir.file_name().unwrap_or_default().to_string_lossy()
    );
    let max_score = keys.max_score.unwrap_or(None);
    let aggregation = keys.aggregation.unwrap_or(Aggregation::PassFail);
    let problem = if max_score.is_none() && secret_max.is_some() {
        Some("needs a `max_score`: `secret` has a maximum, so each of its groups must have one")
    } else if max_score.is_none() && aggregation == Aggregation::PassFail {
        Some("a pass-fail group needs a `max_score`")
    } else if secret_aggregation == Aggregation::PassFail && aggregation != Aggregation::PassFail {
        Some("`secret` is pass-fail, so its groups must be too")
    } else {
        None
    };
    if let Some(message) = problem {
        return Err(Error::parse(group_file, None, message));
    }
    for required in &keys.require_pass {
        let found = earlier.iter().find(|group| group.name == *required);
        let message = match found {
            _ if required == SAMPLE_DIR => continue,
            Some(group) if group.aggregation == Aggregation::PassFail => continue,
            Some(_) => "is not pass-fail: only a pass-fail group can be required",
            None => "is neither `sample` nor a test data group before this one",
        };
        let message = format!("`require_pass` names `{required}`, which {message}");
        return Err(Error::parse(group_file, keys.require_pass_line, message));
    }
    let prefix = format!("{name}/");
    let members: Vec<String> = in_secret
        .iter()
        .filter(|case| case.starts_with(&prefix))
        .map(|case| (*case).clone())
        .collect();
    Ok(BoundedGroup {
        name,
        aggregation,
        max_score,
        items: BoundedItems::Cases(members),
        require_pass: keys.require_pass,
    })
}

/// A YAML file's text (constants put in) and top-level map; `None` when there is no file.
fn read_map(path: &Path, constants: &Constants) -> Result<Option<(String, serde_norway::Mapping)>> {
    let Some(text) = if_exists(path, std::fs::read_to_string)? else {
        return Ok(None);
    };
    let text = constants.apply_text(&text).into_owned();
    let value: Value = serde_norway::from_str(&text).map_err(|error| {
        Error::parse(path, error.location().map(|l| l.line()), error.to_string())
    })?;
    match value {
        Value::Mapping(map) => Ok(Some((text, map))),
        Value::Null => Ok(Some((text, serde_norway::Mapping::new()))),
        _ => Err(Error::parse(path, None, "expected a map of keys")),
    }
}

/// For errors that name file, line and key.
struct YamlFile<'a> {
    path: &'a Path,
    text: &'a str,
}

impl YamlFile<'_> {
    fn error(&self, key: &str, message: &str) -> Error {
        Error::parse(
            self.path,
            yaml_line(self.text, key),
            format!("`{key}` {message}"),
        )
    }

    fn number(&self, key: &str, value: &Value) -> Result<f64> {
        value
            .as_f64()
            .filter(|number| number.is_finite())
            .ok_or_else(|| self.error(key, "expected a number"))
    }

    /// `range: 0 100` (`inf`, `-inf` and `+inf` allowed), low not above high.
    fn range(&self, key: &str, value: &Value) -> Result<(f64, f64)> {
        let text = match value {
            Value::String(text) => text.clone(),
            Value::Number(number) => number.to_string(),
            _ => String::new(),
        };
        let bounds: Vec<f64> = text
            .split_whitespace()
            .filter_map(|word| word.parse::<f64>().ok())
            .collect();
        match bounds[..] {
            [low, high] if text.split_whitespace().count() == 2 && low <= high => Ok((low, high)),
            _ => Err(self.error(
                key,
                "expected two numbers, the lowest and highest score (`0 100`)",
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::problem::test_files::write;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    /// problemtools' checks of `ignore_sample`: top level only, and not with `break` there.
    #[test]
    fn ignore_sample_below_the_top_or_with_break_is_noted() {
        let notes = |files: &[(&str, &str)]| {
            let dir = tempfile::tempdir().unwrap();
            for (path, text) in files {
                write(dir.path(), path, text);
            }
            let cases = names(&["sample/1", "secret/a/1"]);
            let legacy = FormatVersion::Legacy;
            let grading = LegacyGrading::default();
            let constants = Constants::default();
            let plan = plan(dir.path(), legacy, &grading, false, &cases, &constants);
            plan.unwrap().format_notes()
        };
        let top = (
            "data/testdata.yaml",
            "grader_flags: ignore_sample\non_reject: continue\n",
        );
        let own = |group: &'static str| (group, "grader_flags: sum\n");
        // oddecho's way: every group below gives its own flags.
        let given = [
            top,
            own("data/sample/testdata.yaml"),
            own("data/secret/testdata.yaml"),
            own("data/secret/a/testdata.yaml"),
        ];
        assert_eq!(notes(&given), Vec::<String>::new());
        // secret/a inherits secret's; sample and secret the top's.
        let inherited = notes(&[top, own("data/secret/a/testdata.yaml")]);
        assert_eq!(inherited.len(), 2, "{inherited:?}");
        assert!(
            inherited[0].starts_with(
                "data/sample/testdata.yaml: `grader_flags: ignore_sample`, its own or inherited"
            ),
            "{inherited:?}"
        );
        assert!(
            inherited[1].starts_with("data/secret/testdata.yaml: "),
            "{inherited:?}"
        );
        let breaking = notes(&[
            ("data/testdata.yaml", "grader_flags: ignore_sample\n"),
            own("data/sample/testdata.yaml"),
            own("data/secret/testdata.yaml"),
        ]);
        assert_eq!(
            breaking,
            [
                "data/testdata.yaml: `grader_flags: ignore_sample` with `on_reject: break` may \
              leave secret unjudged, and problemtools refuses it"
            ]
        );
    }

    #[test]
    fn bad_group_files_are_errors_naming_file_and_line() {
        let dir = tempfile::tempdir().unwrap();
        write(
            dir.path(),
            "data/secret/g1/test_group.yaml",
            "score_aggregation: sum\n",
        );
        let cases = names(&["secret/g1/1"]);
        let error = plan(
            dir.path(),
            FormatVersion::V2025,
            &LegacyGrading::default(),
            false,
            &cases,
            &Constants::default(),
        )
        .unwrap_err();
        assert!(error.to_string().contains("needs a `max_score`"), "{error}");
        write(
            dir.path(),
            "data/secret/g1/test_group.yaml",
            "max_score: 10\nscore_aggregation: avg\n",
        );
        let error = plan(
            dir.path(),
            FormatVersion::V2025,
            &LegacyGrading::default(),
            false,
            &cases,
            &Constants::default(),
        )
        .unwrap_err();
        assert!(
            error.to_string().ends_with(
                "test_group.yaml: line 2: `score_aggregation` expected `pass-fail`, `sum` or `min`"
            ),
            "{error}"
        );
        write(dir.path(), "data/testdata.yaml", "\ngrader_flags: median\n");
        let error = plan(
            dir.path(),
            FormatVersion::Legacy,
            &LegacyGrading::default(),
            false,
            &cases,
            &Constants::default(),
        )
        .unwrap_err();
        assert!(
            error
                .to_string()
                .contains("testdata.yaml: line 2: `grader_flags` unknown grader flag `median`"),
            "{error}"
        );
    }

    /// `require_pass` may name `sample` and earlier pass-fail groups only (`secret`: `sample`
    /// alone), and is not allowed in `sample`: anything else names file and line.
    #[test]
    fn require_pass_names_only_what_the_format_allows() {
        let dir = tempfile::tempdir().unwrap();
        let cases = names(&["sample/1", "secret/a/1", "secret/b/1"]);
        let error = |file: &str, keys: &str| {
            write(
                dir.path(),
                "data/secret/a/test_group.yaml",
                "max_score: 40\nscore_aggregation: sum\n",
            );
            write(
                dir.path(),
                "data/secret/b/test_group.yaml",
                "max_score: 60\n",
            );
            write(dir.path(), file, keys);
            let grading = LegacyGrading::default();
            let planned = plan(
                dir.path(),
                FormatVersion::V2025,
                &grading,
                false,
                &cases,
                &Constants::default(),
            );
            let _ = std::fs::remove_file(dir.path().join(file));
            planned.err().map(|error| error.to_string())
        };
        let b = "data/secret/b/test_group.yaml";
        assert_eq!(error(b, "max_score: 60\nrequire_pass: [sample]\n"), None);
        let said = error(b, "max_score: 60\nrequire_pass: secret/a\n").unwrap();
        assert!(said.ends_with("b/test_group.yaml: line 2: `require_pass` names `secret/a`, which is not pass-fail: only a pass-fail group can be required"), "{said}");
        let a = "data/secret/a/test_group.yaml";
        let said = error(a, "max_score: 40\nrequire_pass: [secret/b]\n").unwrap();
        assert!(
            said.contains(
                "names `secret/b`, which is neither `sample` nor a test data group before this one"
            ),
            "{said}"
        );
        let said = error(b, "max_score: 60\nrequire_pass: {a: 1}\n").unwrap();
        assert!(
            said.contains("`require_pass` expected a group's name or a list of them"),
            "{said}"
        );
        let said = error("data/secret/test_group.yaml", "require_pass: secret/a\n").unwrap();
        assert!(said.ends_with("secret/test_group.yaml: line 1: `require_pass` names `secret/a`: `secret` may depend on `sample` alone"), "{said}");
        let said = error("data/sample/test_group.yaml", "require_pass: sample\n").unwrap();
        assert!(
            said.contains("sample/test_group.yaml: samples are not scored"),
            "{said}"
        );
    }
}
