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
//! The plan is read and checked once, when the package is loaded; `Plan::score` is pure.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde_norway::Value;

use super::programs::Constants;
use super::{yaml_line, FormatVersion};
use crate::error::{Error, Result};
use crate::judging::score::{Aggregation, CaseScore, Part, Scorecard, Scored, ValidatorScore};
use crate::judging::verdict::VerdictKind;

/// A score above its maximum by less than this is rounding, not a fault.
const EPSILON: f64 = 1e-6;

/// A scoring package's rules, ready to score a submission's cases.
#[derive(Debug, Clone, PartialEq)]
pub enum Plan {
    Graded {
        root: GradedGroup,
        /// The best score the range allows (its top, or its bottom with `objective: min`),
        /// when finite: `partially_accepted/` must not reach it.
        best: Option<f64>,
        /// Legacy `validation: custom score`: the validator must write `score.txt`.
        validator_must_score: bool,
    },
    Bounded(BoundedGroup),
}

/// A folder of `data/` under the legacy default grader.
#[derive(Debug, Clone, PartialEq)]
pub struct GradedGroup {
    /// Its path below `data/` (`secret/group1`); empty for `data/` itself.
    name: String,
    config: GraderConfig,
    items: Vec<GradedItem>,
}

#[derive(Debug, Clone, PartialEq)]
enum GradedItem {
    Case(String),
    Group(GradedGroup),
}

/// A group's grading keys, after inheritance.
#[derive(Debug, Clone, PartialEq)]
struct GraderConfig {
    /// `on_reject: break`: the group's items after its first rejected one do not count.
    stop_at_rejection: bool,
    verdicts: VerdictMode,
    aggregation: Aggregation,
    ignore_sample: bool,
    accept_if_any_accepted: bool,
    accept_score: f64,
    reject_score: f64,
    range: (f64, f64),
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
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum VerdictMode {
    WorstError,
    FirstError,
    AlwaysAccept,
}

/// `secret` or one of its groups, in the 2025-09 model.
#[derive(Debug, Clone, PartialEq)]
pub struct BoundedGroup {
    name: String,
    aggregation: Aggregation,
    /// `None`: unbounded.
    max_score: Option<f64>,
    items: BoundedItems,
}

#[derive(Debug, Clone, PartialEq)]
enum BoundedItems {
    Cases(Vec<String>),
    Groups(Vec<BoundedGroup>),
}

/// The legacy `problem.yaml` `grading:` keys that change judging.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LegacyGrading {
    pub objective_min: bool,
    /// `on_reject` there: `first_error` is `break`, `grade` is `continue`, for every group.
    pub stop_at_rejection: Option<bool>,
    pub accept_score: Option<f64>,
    pub reject_score: Option<f64>,
    pub range: Option<(f64, f64)>,
}

/// Reads the legacy `grading:` map of `problem.yaml` (at `path`, whose text is `text`).
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

/// The plan of the scoring package at `dir`, whose judged cases are named `cases` (below
/// `data/`, in judging order).
pub fn plan(
    dir: &Path,
    version: FormatVersion,
    grading: &LegacyGrading,
    validator_must_score: bool,
    cases: &[String],
    constants: &Constants,
) -> Result<Plan> {
    let data = dir.join("data");
    match version {
        FormatVersion::V2025 => bounded(&data, "test_group.yaml", Keys::V2025, cases, constants),
        FormatVersion::Draft2023 if uses_scoring_maps(&data)? => {
            bounded(&data, "testdata.yaml", Keys::Draft2023, cases, constants)
        }
        _ => graded(&data, grading, validator_must_score, cases),
    }
}

impl Plan {
    /// The score of a submission's judged cases; `Err` is a judge error.
    pub fn score(&self, cases: &[CaseScore]) -> std::result::Result<Scorecard, String> {
        let judged: HashMap<&str, &CaseScore> = cases
            .iter()
            .map(|case| (case.name.as_str(), case))
            .collect();
        match self {
            Plan::Graded {
                root,
                best,
                validator_must_score,
            } => {
                let mut parts = Vec::new();
                let result = root
                    .grade(&judged, *validator_must_score, &mut parts)?
                    .unwrap_or((VerdictKind::Accepted, 0.0));
                Ok(Scorecard {
                    score: result.1,
                    max_score: *best,
                    verdict: Some(result.0),
                    parts,
                })
            }
            Plan::Bounded(secret) => {
                let mut parts = Vec::new();
                let result = secret.score(&judged, &mut parts)?;
                // `secret` is the whole, not one of its parts.
                parts.retain(|part| part.name != secret.name);
                Ok(Scorecard {
                    score: result.score,
                    max_score: secret.max_score,
                    verdict: None,
                    parts,
                })
            }
        }
    }

    /// Whether `card` is the best score there is (for `partially_accepted/`, which must not
    /// reach it).
    pub fn is_best(&self, card: &Scorecard) -> bool {
        match self {
            Plan::Graded { best, .. } => {
                best.is_some_and(|best| (card.score - best).abs() <= EPSILON)
            }
            Plan::Bounded(secret) => secret
                .max_score
                .is_some_and(|max| card.score >= max - EPSILON),
        }
    }
}

impl GradedGroup {
    /// The group's verdict and score, as the default grader gives them; `None` when none of
    /// its cases was judged (left out by `--case`), as problemtools leaves such a group out.
    fn grade(
        &self,
        judged: &HashMap<&str, &CaseScore>,
        validator_must_score: bool,
        parts: &mut Vec<Part>,
    ) -> std::result::Result<Option<(VerdictKind, f64)>, String> {
        let config = &self.config;
        let mut results = Vec::new();
        for item in &self.items {
            let result = match item {
                GradedItem::Case(name) => {
                    let Some(case) = judged.get(name.as_str()) else {
                        continue;
                    };
                    (
                        case.verdict,
                        case_score(case, config, validator_must_score)?,
                    )
                }
                GradedItem::Group(group) => {
                    match group.grade(judged, validator_must_score, parts)? {
                        Some(result) => result,
                        None => continue,
                    }
                }
            };
            results.push(result);
            if result.0 != VerdictKind::Accepted && config.stop_at_rejection {
                break;
            }
        }
        if results.is_empty() {
            return Ok(None);
        }
        let result = config.combine(&results);
        if !self.name.is_empty() {
            parts.push(Part {
                name: self.name.clone(),
                score: result.1,
                max_score: Some(config.range.1).filter(|max| max.is_finite()),
            });
        }
        Ok(Some(result))
    }
}

/// A case's score under the legacy rules: the validator's `score.txt` when accepted, else
/// the group's `accept_score` or `reject_score`.
fn case_score(
    case: &CaseScore,
    config: &GraderConfig,
    validator_must_score: bool,
) -> std::result::Result<f64, String> {
    match (case.verdict, case.validator) {
        (VerdictKind::Accepted, Some(ValidatorScore::Score(score))) => Ok(score),
        (VerdictKind::Accepted, Some(ValidatorScore::Multiplier(_))) => Err(format!(
            "{}: the validator wrote score_multiplier.txt, which this format version does not have",
            case.name
        )),
        (VerdictKind::Accepted, None) if validator_must_score => Err(format!(
            "{}: the problem has `validation: custom score`, but the validator wrote no score.txt",
            case.name
        )),
        (VerdictKind::Accepted, None) => Ok(config.accept_score),
        _ => Ok(config.reject_score),
    }
}

impl GraderConfig {
    /// The default grader: its verdict mode and flags on the verdicts, its score mode on the
    /// scores. A judge error anywhere below is the group's.
    fn combine(&self, results: &[(VerdictKind, f64)]) -> (VerdictKind, f64) {
        if results.iter().any(|r| r.0 == VerdictKind::JudgeError) {
            return (VerdictKind::JudgeError, 0.0);
        }
        // `ignore_sample`: of the root's two items (sample, secret), only the last counts.
        let results = if self.ignore_sample {
            &results[results.len() - 1..]
        } else {
            results
        };
        let accepted = |kind: &VerdictKind| *kind == VerdictKind::Accepted;
        let verdict = if self.accept_if_any_accepted && results.iter().any(|r| accepted(&r.0)) {
            VerdictKind::Accepted
        } else {
            match self.verdicts {
                VerdictMode::AlwaysAccept => VerdictKind::Accepted,
                VerdictMode::FirstError => results
                    .iter()
                    .map(|r| r.0)
                    .find(|kind| !accepted(kind))
                    .unwrap_or(VerdictKind::Accepted),
                VerdictMode::WorstError => results
                    .iter()
                    .map(|r| r.0)
                    .min_by_key(|kind| severity(*kind))
                    .unwrap_or(VerdictKind::Accepted),
            }
        };
        let items: Vec<Scored> = results
            .iter()
            .map(|&(kind, score)| Scored {
                accepted: accepted(&kind),
                score,
            })
            .collect();
        (verdict, self.aggregation.apply(None, &items))
    }
}

/// The default grader's order of errors, worst first: JE, RTE, MLE, TLE, OLE, WA, then AC.
fn severity(kind: VerdictKind) -> usize {
    use VerdictKind::*;
    [
        JudgeError,
        RuntimeError,
        MemoryLimitExceeded,
        TimeLimitExceeded,
        OutputLimitExceeded,
        WrongAnswer,
        CompileError,
        Accepted,
    ]
    .iter()
    .position(|k| *k == kind)
    .unwrap_or(0)
}

impl BoundedGroup {
    /// The group's score, and whether every case in it was accepted.
    fn score(
        &self,
        judged: &HashMap<&str, &CaseScore>,
        parts: &mut Vec<Part>,
    ) -> std::result::Result<Scored, String> {
        let items: Vec<Scored> = match &self.items {
            BoundedItems::Cases(names) => {
                let case_max = match self.aggregation {
                    Aggregation::Sum => self.max_score.map(|max| max / names.len() as f64),
                    _ => self.max_score,
                };
                names
                    .iter()
                    .map(|name| match judged.get(name.as_str()) {
                        Some(case) => self.case_score(case, case_max),
                        // Not judged: not accepted.
                        None => Ok(Scored {
                            accepted: false,
                            score: 0.0,
                        }),
                    })
                    .collect::<std::result::Result<_, _>>()?
            }
            BoundedItems::Groups(groups) => groups
                .iter()
                .map(|group| group.score(judged, parts))
                .collect::<std::result::Result<_, _>>()?,
        };
        let score = self.aggregation.apply(self.max_score, &items);
        if let Some(max) = self.max_score.filter(|max| score > max + EPSILON) {
            return Err(format!(
                "{}: score {} is over its max_score {}",
                self.name,
                crate::judging::score::format_score(score),
                crate::judging::score::format_score(max)
            ));
        }
        parts.push(Part {
            name: self.name.clone(),
            score,
            max_score: self.max_score,
        });
        Ok(Scored {
            accepted: items.iter().all(|item| item.accepted),
            score,
        })
    }

    /// A case's score under the 2025-09 rules (its maximum `case_max`, `None` unbounded).
    fn case_score(
        &self,
        case: &CaseScore,
        case_max: Option<f64>,
    ) -> std::result::Result<Scored, String> {
        let name = &case.name;
        if case.verdict != VerdictKind::Accepted {
            return Ok(Scored {
                accepted: false,
                score: 0.0,
            });
        }
        let score = match (self.aggregation, case.validator, case_max) {
            (Aggregation::PassFail, Some(_), _) => {
                return Err(format!(
                    "{name}: the validator gave a score in a pass-fail group"
                ))
            }
            (Aggregation::PassFail, None, _) => 0.0,
            (_, Some(ValidatorScore::Score(score)), max) => {
                if let Some(max) = max.filter(|max| score > max + EPSILON) {
                    return Err(format!(
                        "{name}: score.txt says {}, over the case's maximum {}",
                        crate::judging::score::format_score(score),
                        crate::judging::score::format_score(max)
                    ));
                }
                score
            }
            (_, Some(ValidatorScore::Multiplier(multiplier)), Some(max)) => {
                if !(0.0..=1.0).contains(&multiplier) {
                    return Err(format!(
                        "{name}: score_multiplier.txt says {multiplier}, outside 0 to 1"
                    ));
                }
                multiplier * max
            }
            (_, Some(ValidatorScore::Multiplier(_)), None) => {
                return Err(format!(
                    "{name}: score_multiplier.txt in an unbounded group (it needs score.txt)"
                ))
            }
            (_, None, Some(max)) => max,
            (_, None, None) => {
                return Err(format!(
                    "{name}: accepted in an unbounded group, but the validator wrote no score.txt"
                ))
            }
        };
        Ok(Scored {
            accepted: true,
            score,
        })
    }
}

/// The legacy tree: a group per folder of `data/`, in judging order.
fn graded(
    data: &Path,
    grading: &LegacyGrading,
    validator_must_score: bool,
    cases: &[String],
) -> Result<Plan> {
    let mut config = GraderConfig::default();
    let root_file = data.join("testdata.yaml");
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
                    apply_graded_file(
                        &mut config,
                        &data.join(&path).join("testdata.yaml"),
                        grading,
                    )?;
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
    Ok(Plan::Graded {
        root,
        best: best.is_finite().then_some(best),
        validator_must_score,
    })
}

/// `config` (the parent's) with the keys of the group file `path`, if there is one; then the
/// `problem.yaml` grading keys, which override every group's, as problemtools has them.
fn apply_graded_file(
    config: &mut GraderConfig,
    path: &Path,
    grading: &LegacyGrading,
) -> Result<()> {
    // Legacy packages have no constants.
    if let Some((text, map)) = read_map(path, &Constants::default())? {
        let file = YamlFile { path, text: &text };
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
                    Some("default") => {}
                    Some("custom") => {
                        return Err(file.error(
                            key,
                            "custom graders (`graders/`) are not supported, so the package is not judged",
                        ))
                    }
                    _ => return Err(file.error(key, "expected `default` or `custom`")),
                },
                "grader_flags" => {
                    let flags = value.as_str().unwrap_or_default().to_owned();
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

/// The names of the keys of the bounded model, which 2025-09 and the 2023-07 draft spell
/// differently.
#[derive(Clone, Copy)]
enum Keys {
    /// `max_score`, `score_aggregation` at the top of `test_group.yaml`.
    V2025,
    /// `scoring: {score, aggregation}` in `testdata.yaml`.
    Draft2023,
}

/// A 2023-07-draft package uses the bounded model when `secret` or a group of it has a
/// `scoring:` map; else its `testdata.yaml` files are read as problemtools reads them.
fn uses_scoring_maps(data: &Path) -> Result<bool> {
    let secret = data.join("secret");
    let mut files = vec![secret.join("testdata.yaml")];
    files.extend(
        subfolders(&secret)
            .into_iter()
            .map(|dir| dir.join("testdata.yaml")),
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

/// The folders directly in `dir`, sorted by name.
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

/// One group's scoring keys in the bounded model.
struct BoundedKeys {
    max_score: Option<Option<f64>>,
    aggregation: Option<Aggregation>,
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
    for unsupported in ["require_pass", "static_validation_score"] {
        if map.contains_key(unsupported) {
            return Err(file.error(
                unsupported,
                "is not supported yet, so the package is not judged",
            ));
        }
    }
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
    }))
}

/// The 2025-09 model: `secret` with its groups, checked as the format requires.
fn bounded(
    data: &Path,
    file_name: &str,
    keys: Keys,
    cases: &[String],
    constants: &Constants,
) -> Result<Plan> {
    let secret_dir = data.join("secret");
    let secret_file = secret_dir.join(file_name);
    let sample_file = data.join("sample").join(file_name);
    if read_bounded(&sample_file, keys, constants)?
        .is_some_and(|k| k.max_score.is_some() || k.aggregation.is_some())
    {
        return Err(Error::parse(
            &sample_file,
            None,
            "samples are not scored: no maximum score or aggregation here",
        ));
    }
    let own = read_bounded(&secret_file, keys, constants)?;
    let secret_max = own
        .as_ref()
        .and_then(|k| k.max_score)
        .unwrap_or(Some(100.0));
    let secret_aggregation = own
        .as_ref()
        .and_then(|k| k.aggregation)
        .unwrap_or(Aggregation::Sum);
    let in_secret: Vec<&String> = cases
        .iter()
        .filter(|name| name.starts_with("secret/"))
        .collect();
    let mut groups = Vec::new();
    for dir in subfolders(&secret_dir) {
        let group_file = dir.join(file_name);
        if !group_file.is_file() {
            continue;
        }
        let keys = read_bounded(&group_file, keys, constants)?.unwrap_or(BoundedKeys {
            max_score: None,
            aggregation: None,
        });
        let name = format!(
            "secret/{}",
            dir.file_name().unwrap_or_default().to_string_lossy()
        );
        let max_score = keys.max_score.unwrap_or(None);
        let aggregation = keys.aggregation.unwrap_or(Aggregation::PassFail);
        let problem = if max_score.is_none() && secret_max.is_some() {
            Some("needs a `max_score`: `secret` has a maximum, so each of its groups must have one")
        } else if max_score.is_none() && aggregation == Aggregation::PassFail {
            Some("a pass-fail group needs a `max_score`")
        } else if secret_aggregation == Aggregation::PassFail
            && aggregation != Aggregation::PassFail
        {
            Some("`secret` is pass-fail, so its groups must be too")
        } else {
            None
        };
        if let Some(message) = problem {
            return Err(Error::parse(&group_file, None, message));
        }
        let prefix = format!("{name}/");
        let members: Vec<String> = in_secret
            .iter()
            .filter(|case| case.starts_with(&prefix))
            .map(|case| (*case).clone())
            .collect();
        groups.push(BoundedGroup {
            name,
            aggregation,
            max_score,
            items: BoundedItems::Cases(members),
        });
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
    Ok(Plan::Bounded(BoundedGroup {
        name: "secret".into(),
        aggregation: secret_aggregation,
        max_score: secret_max,
        items,
    }))
}

/// A YAML file's text (its constants put in) and top-level map; `None` when there is no
/// such file.
fn read_map(path: &Path, constants: &Constants) -> Result<Option<(String, serde_norway::Mapping)>> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => constants.apply_text(&text).into_owned(),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(error) => return Err(Error::io(path, error)),
    };
    let value: Value = serde_norway::from_str(&text).map_err(|error| {
        Error::parse(path, error.location().map(|l| l.line()), error.to_string())
    })?;
    match value {
        Value::Mapping(map) => Ok(Some((text, map))),
        Value::Null => Ok(Some((text, serde_norway::Mapping::new()))),
        _ => Err(Error::parse(path, None, "expected a map of keys")),
    }
}

/// A YAML file being validated, for errors that name file, line and key.
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
    use VerdictKind::*;

    fn case(name: &str, verdict: VerdictKind, validator: Option<f64>) -> CaseScore {
        CaseScore {
            name: name.into(),
            verdict,
            validator: validator.map(ValidatorScore::Score),
        }
    }

    fn write(dir: &Path, relative: &str, text: &str) {
        let path = dir.join(relative);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn the_legacy_grader_sums_by_default_and_stops_a_group_at_its_first_rejection() {
        let dir = tempfile::tempdir().unwrap();
        write(
            dir.path(),
            "data/secret/testdata.yaml",
            "accept_score: 10\n",
        );
        let cases = names(&["sample/1", "secret/1", "secret/2", "secret/3"]);
        let plan = plan(
            dir.path(),
            FormatVersion::Legacy,
            &LegacyGrading::default(),
            false,
            &cases,
            &Constants::default(),
        )
        .unwrap();
        let judged = [
            case("sample/1", Accepted, None),
            case("secret/1", Accepted, None),
            case("secret/2", WrongAnswer, None),
            case("secret/3", Accepted, None),
        ];
        let card = plan.score(&judged).unwrap();
        // sample 1 (accept_score 1) + secret: 10, then WA (0) and `break`: 3 does not count.
        assert_eq!(card.score, 11.0);
        assert_eq!(card.verdict, Some(WrongAnswer));
        assert_eq!(card.max_score, None, "the default range has no top");
    }

    #[test]
    fn grader_flags_choose_min_first_error_and_ignore_sample() {
        let dir = tempfile::tempdir().unwrap();
        write(
            dir.path(),
            "data/testdata.yaml",
            "grader_flags: ignore_sample\nrange: 0 100\non_reject: continue\n",
        );
        write(
            dir.path(),
            "data/secret/testdata.yaml",
            "grader_flags: first_error accept_if_any_accepted\n",
        );
        write(
            dir.path(),
            "data/secret/a/testdata.yaml",
            "accept_score: 40\ngrader_flags: min\n",
        );
        write(
            dir.path(),
            "data/secret/b/testdata.yaml",
            "accept_score: 60\ngrader_flags: min\n",
        );
        let cases = names(&["sample/1", "secret/a/1", "secret/a/2", "secret/b/1"]);
        let plan = plan(
            dir.path(),
            FormatVersion::Draft2023,
            &LegacyGrading::default(),
            false,
            &cases,
            &Constants::default(),
        )
        .unwrap();
        let judged = [
            case("sample/1", WrongAnswer, None),
            case("secret/a/1", Accepted, None),
            case("secret/a/2", TimeLimitExceeded, None),
            case("secret/b/1", Accepted, None),
        ];
        let card = plan.score(&judged).unwrap();
        // a: min(40, 0) = 0 (TLE); b: 60; secret: sum 60, accepted as one group is; the
        // sample's WA is ignored.
        assert_eq!(card.score, 60.0);
        assert_eq!(card.verdict, Some(Accepted));
        assert!(!plan.is_best(&card));
        let parts: Vec<(&str, f64)> = card
            .parts
            .iter()
            .map(|p| (p.name.as_str(), p.score))
            .collect();
        assert_eq!(
            parts,
            [
                ("sample", 0.0),
                ("secret/a", 0.0),
                ("secret/b", 60.0),
                ("secret", 60.0)
            ]
        );
    }

    #[test]
    fn score_txt_replaces_accept_score_and_worst_error_orders_verdicts() {
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), "data/testdata.yaml", "on_reject: continue\n");
        let cases = names(&["secret/1", "secret/2", "secret/3"]);
        let plan = plan(
            dir.path(),
            FormatVersion::Legacy,
            &LegacyGrading::default(),
            true,
            &cases,
            &Constants::default(),
        )
        .unwrap();
        let judged = [
            case("secret/1", Accepted, Some(2.5)),
            case("secret/2", WrongAnswer, None),
            case("secret/3", RuntimeError, None),
        ];
        let card = plan.score(&judged).unwrap();
        assert_eq!(card.score, 2.5);
        assert_eq!(card.verdict, Some(RuntimeError), "RTE is worse than WA");
        let missing = [case("secret/1", Accepted, None)];
        assert!(plan.score(&missing).unwrap_err().contains("no score.txt"));
    }

    #[test]
    fn bounded_groups_follow_the_2025_rules() {
        let dir = tempfile::tempdir().unwrap();
        write(
            dir.path(),
            "data/secret/g1/test_group.yaml",
            "max_score: 20\n",
        );
        write(
            dir.path(),
            "data/secret/g2/test_group.yaml",
            "max_score: 30\nscore_aggregation: sum\n",
        );
        write(
            dir.path(),
            "data/secret/g3/test_group.yaml",
            "max_score: 50\nscore_aggregation: min\n",
        );
        let cases = names(&[
            "sample/1",
            "secret/g1/1",
            "secret/g2/1",
            "secret/g2/2",
            "secret/g3/1",
            "secret/g3/2",
        ]);
        let plan = plan(
            dir.path(),
            FormatVersion::V2025,
            &LegacyGrading::default(),
            false,
            &cases,
            &Constants::default(),
        )
        .unwrap();
        let judged = [
            case("sample/1", WrongAnswer, None),
            case("secret/g1/1", Accepted, None),
            case("secret/g2/1", Accepted, None),
            case("secret/g2/2", WrongAnswer, None),
            case("secret/g3/1", Accepted, Some(20.0)),
            case("secret/g3/2", Accepted, None),
        ];
        let card = plan.score(&judged).unwrap();
        // g1 pass-fail 20; g2 sum: 15 + 0; g3 min(20, 50) = 20; samples do not count.
        assert_eq!(card.score, 55.0);
        assert_eq!(card.max_score, Some(100.0));
        let over = [case("secret/g2/1", Accepted, Some(16.0))];
        assert!(plan
            .score(&over)
            .unwrap_err()
            .contains("over the case's maximum 15"));
        let in_pass_fail = [case("secret/g1/1", Accepted, Some(1.0))];
        assert!(plan
            .score(&in_pass_fail)
            .unwrap_err()
            .contains("pass-fail group"));
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

    #[test]
    fn the_2023_draft_reads_scoring_maps() {
        let dir = tempfile::tempdir().unwrap();
        write(
            dir.path(),
            "data/secret/testdata.yaml",
            "scoring:\n  score: 10\n  aggregation: min\n",
        );
        let cases = names(&["secret/1", "secret/2"]);
        let plan = plan(
            dir.path(),
            FormatVersion::Draft2023,
            &LegacyGrading::default(),
            false,
            &cases,
            &Constants::default(),
        )
        .unwrap();
        let judged = [
            case("secret/1", Accepted, Some(4.0)),
            case("secret/2", Accepted, None),
        ];
        assert_eq!(plan.score(&judged).unwrap().score, 4.0);
    }
}
