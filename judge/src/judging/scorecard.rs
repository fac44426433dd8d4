//! Scoring a submission's judged cases, for problems that give points instead of one
//! verdict: Baekjoon-style subtasks and Kattis scoring packages, whose plans are problem data
//! (`problem::scoring`, `problem::kattis::scoring`). A plan that the validator's scores break
//! is a judge error, `ScoreError`.

use std::collections::{HashMap, HashSet};

use crate::judging::verdict::VerdictKind;
use crate::problem::kattis::scoring::{
    BoundedGroup, BoundedItems, GradedGroup, GradedItem, GraderConfig, ScoringPlan, VerdictMode,
};
use crate::problem::layout::SAMPLE_DIR;
use crate::problem::{Aggregation, Scored, Scoring, Subtask};

/// What an output validator said of an accepted case's score, in its feedback folder. The
/// JSON report writes it `{"kind": "score", "value": 40.0}`.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "kind", content = "value", rename_all = "lowercase")]
pub enum ValidatorScore {
    /// `score.txt`: the case's score.
    Score(f64),
    /// `score_multiplier.txt` (2025-09): a fraction of the case's maximum.
    Multiplier(f64),
}

/// What scoring needs of one judged case.
#[derive(Debug, Clone, PartialEq)]
pub struct CaseScore {
    pub name: String,
    pub verdict: VerdictKind,
    pub validator: Option<ValidatorScore>,
}

impl CaseScore {
    pub fn of(result: &crate::judging::CaseResult) -> Self {
        CaseScore {
            name: result.name.clone(),
            verdict: result.verdict.kind(),
            validator: result.score,
        }
    }

    /// As a run stopped at `limit` would have been scored: too slow, it is rejected with no
    /// validator score, as problemtools grades a submission under the limit.
    pub fn at_limit(result: &crate::judging::CaseResult, limit: std::time::Duration) -> Self {
        match result.cpu_time > limit {
            true => CaseScore {
                name: result.name.clone(),
                verdict: VerdictKind::TimeLimitExceeded,
                validator: None,
            },
            false => Self::of(result),
        }
    }
}

/// One part of a score (a subtask, a test data group), for the reports.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ScorePart {
    pub name: String,
    pub score: f64,
    /// `None` when the part has no bound (an unbounded Kattis group).
    pub max_score: Option<f64>,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Scorecard {
    pub score: f64,
    pub max_score: Option<f64>,
    /// The verdict the legacy Kattis grader gives the whole submission (what
    /// `partially_accepted/` is checked against); `None` where the format has none.
    pub verdict: Option<VerdictKind>,
    pub parts: Vec<ScorePart>,
}

/// A score the rules do not allow: a judge error of the package, naming the case or group.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ScoreError {
    #[error(
        "{0}: the validator wrote score_multiplier.txt, which this format version does not have"
    )]
    MultiplierNotInFormat(String),
    #[error(
        "{0}: the problem has `validation: custom score`, but the validator wrote no score.txt"
    )]
    NoScoreFile(String),
    #[error("{group}: score {} is over its max_score {}", format_score(*score), format_score(*max))]
    GroupOverMax { group: String, score: f64, max: f64 },
    #[error("{0}: the validator gave a score in a pass-fail group")]
    ScoreInPassFail(String),
    #[error("{case}: score.txt says {}, over the case's maximum {}", format_score(*score), format_score(*max))]
    CaseOverMax { case: String, score: f64, max: f64 },
    #[error("{case}: score_multiplier.txt says {multiplier}, outside 0 to 1")]
    MultiplierOutOfRange { case: String, multiplier: f64 },
    #[error("{0}: score_multiplier.txt in an unbounded group (it needs score.txt)")]
    MultiplierUnbounded(String),
    #[error("{0}: accepted in an unbounded group, but the validator wrote no score.txt")]
    UnboundedWithoutScore(String),
    #[error("the custom grader, for {0}")]
    Grader(String),
}

/// A custom grader's run: it is given a group's items (verdict, score) and the group's
/// `grader_flags`, and gives the group's verdict and score, or why it failed (a judge error).
pub type Grade<'a> =
    dyn FnMut(&[(VerdictKind, f64)], &[String]) -> Result<(VerdictKind, f64), String> + 'a;

impl Scoring {
    pub fn score(&self, cases: &[CaseScore]) -> Result<Scorecard, ScoreError> {
        self.score_with(cases, &mut |_, _| Err("no custom grader was built".into()))
    }

    /// `score`, with `grade` running the custom grader for the groups of `grading: custom`.
    pub fn score_with(
        &self,
        cases: &[CaseScore],
        grade: &mut Grade<'_>,
    ) -> Result<Scorecard, ScoreError> {
        match self {
            Scoring::Subtasks(subtasks) => Ok(score_subtasks(subtasks, cases)),
            Scoring::Package(plan) => plan.score_with(cases, grade),
        }
    }

    /// The custom grader the package needs built, if it has one.
    pub fn grader(&self) -> Option<&std::path::Path> {
        match self {
            Scoring::Package(ScoringPlan::Graded { grader, .. }) => grader.as_deref(),
            _ => None,
        }
    }
}

/// Baekjoon's rule: each subtask scores its points when all its cases are accepted (a case
/// not judged, after a failure with `--fail-fast` or left out by `--case`, is not), and the
/// total is their sum.
pub fn score_subtasks(subtasks: &[Subtask], cases: &[CaseScore]) -> Scorecard {
    let verdicts: HashMap<&str, VerdictKind> = cases
        .iter()
        .map(|case| (case.name.as_str(), case.verdict))
        .collect();
    let accepted = |name: &String| verdicts.get(name.as_str()) == Some(&VerdictKind::Accepted);
    let scores: HashMap<&str, f64> = (cases.iter())
        .filter_map(|case| match case.validator {
            Some(ValidatorScore::Score(points)) => Some((case.name.as_str(), points)),
            _ => None,
        })
        .collect();
    let passed = passed_groups(subtasks, accepted);
    let parts: Vec<ScorePart> = subtasks
        .iter()
        .map(|subtask| {
            let dependencies_passed = (subtask.dependencies.iter())
                .all(|dependency| passed.contains(dependency.as_str()));
            let items: Vec<Scored> = (subtask.cases.iter())
                .map(|name| Scored {
                    accepted: accepted(name) && dependencies_passed,
                    score: 0.0,
                })
                .collect();
            // A checker's points (testlib's exit 7) on a test scored by itself.
            let given = match (subtask.checker_points, subtask.cases.as_slice()) {
                (Some(worth), [case]) => scores.get(case.as_str()).map(|points| points * worth),
                _ => None,
            };
            let score = match given {
                Some(points) if dependencies_passed && accepted(&subtask.cases[0]) => points,
                _ => Aggregation::PassFail.apply(Some(subtask.points), &items),
            };
            ScorePart {
                name: subtask.name.clone(),
                score,
                max_score: Some(subtask.points),
            }
        })
        .collect();
    let items: Vec<Scored> = parts
        .iter()
        .map(|part| Scored {
            accepted: Some(part.score) == part.max_score,
            score: part.score,
        })
        .collect();
    Scorecard {
        score: Aggregation::Sum.apply(None, &items),
        max_score: Some(subtasks.iter().map(|subtask| subtask.points).sum()),
        verdict: None,
        parts: one_per_name(parts),
    }
}

/// The names of the groups that pass: every test of theirs accepted, and every group they
/// depend on passing, through any chain (Polygon ignores the tests of a group behind a failed
/// one, so that group fails too: problem-xml-specs §6.6).
fn passed_groups(subtasks: &[Subtask], accepted: impl Fn(&String) -> bool) -> HashSet<&str> {
    let mut passed: HashSet<&str> = subtasks
        .iter()
        .map(|subtask| subtask.name.as_str())
        .collect();
    for subtask in subtasks {
        if !subtask.cases.iter().all(&accepted) {
            passed.remove(subtask.name.as_str());
        }
    }
    loop {
        let behind_a_failure: Vec<&str> = (subtasks.iter())
            .filter(|subtask| passed.contains(subtask.name.as_str()))
            .filter(|subtask| !(subtask.dependencies.iter()).all(|d| passed.contains(d.as_str())))
            .map(|subtask| subtask.name.as_str())
            .collect();
        if behind_a_failure.is_empty() {
            return passed;
        }
        for name in behind_a_failure {
            passed.remove(name);
        }
    }
}

/// A group whose tests score by themselves (Polygon's `each-test`) is one subtask a test, all
/// of one name: shown once, with their sum.
fn one_per_name(parts: Vec<ScorePart>) -> Vec<ScorePart> {
    let mut merged: Vec<ScorePart> = Vec::with_capacity(parts.len());
    for part in parts {
        match merged.iter_mut().find(|seen| seen.name == part.name) {
            Some(seen) => {
                seen.score += part.score;
                seen.max_score = seen.max_score.zip(part.max_score).map(|(a, b)| a + b);
            }
            None => merged.push(part),
        }
    }
    merged
}

/// A score as people read it: `25`, `12.5`, `33.333333`.
pub fn format_score(score: f64) -> String {
    let text = format!("{score:.6}");
    text.trim_end_matches('0').trim_end_matches('.').to_owned()
}

/// A score above its maximum by less than this is rounding, not a fault.
pub const EPSILON: f64 = 1e-6;

impl ScoringPlan {
    /// `grade` runs the custom grader.
    pub fn score_with(
        &self,
        cases: &[CaseScore],
        grade: &mut Grade<'_>,
    ) -> Result<Scorecard, ScoreError> {
        let judged: HashMap<&str, &CaseScore> = cases
            .iter()
            .map(|case| (case.name.as_str(), case))
            .collect();
        match self {
            ScoringPlan::Graded {
                root,
                best,
                validator_must_score,
                ..
            } => {
                let mut parts = Vec::new();
                let result = root
                    .grade(&judged, (*validator_must_score, grade), &mut parts)?
                    .unwrap_or((VerdictKind::Accepted, 0.0));
                Ok(Scorecard {
                    score: result.1,
                    max_score: *best,
                    verdict: Some(result.0),
                    parts,
                })
            }
            ScoringPlan::Bounded(secret) => {
                let mut parts = Vec::new();
                // `sample` passes when none of its judged cases failed.
                let sample = format!("{SAMPLE_DIR}/");
                let mut passed = HashSet::new();
                if (cases.iter().filter(|case| case.name.starts_with(&sample)))
                    .all(|case| case.verdict == VerdictKind::Accepted)
                {
                    passed.insert(SAMPLE_DIR.to_owned());
                }
                let result = secret.score(&judged, (&mut passed, false), &mut parts)?;
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

    /// Whether the score has a finite best, and `card` falls short of it.
    pub fn short_of_best(&self, card: &Scorecard) -> bool {
        let bounded = match self {
            ScoringPlan::Graded { best, .. } => best.is_some(),
            ScoringPlan::Bounded(secret) => secret.max_score.is_some(),
        };
        bounded && !self.is_best(card)
    }

    /// Whether `card` is the best score there is (for `partially_accepted/`, which must not
    /// reach it).
    pub fn is_best(&self, card: &Scorecard) -> bool {
        match self {
            ScoringPlan::Graded { best, .. } => {
                best.is_some_and(|best| (card.score - best).abs() <= EPSILON)
            }
            ScoringPlan::Bounded(secret) => secret
                .max_score
                .is_some_and(|max| card.score >= max - EPSILON),
        }
    }
}

impl Scoring {
    /// For each of `cases` (a task's, in order), the ranges of earlier cases any of whose
    /// rejection makes it count for nothing: a legacy group's `on_reject: break` (the
    /// default) ends the group at its first rejected item, as problemtools stops judging it.
    pub fn blockers(&self, cases: &[String]) -> Vec<Vec<std::ops::Range<usize>>> {
        let mut blockers = vec![Vec::new(); cases.len()];
        if let Scoring::Package(ScoringPlan::Graded { root, .. }) = self {
            let index: HashMap<&str, usize> = (cases.iter().enumerate())
                .map(|(at, name)| (name.as_str(), at))
                .collect();
            root.block(&index, &mut blockers);
        }
        blockers
    }
}

impl GradedGroup {
    /// Whether a rejected case anywhere below surely makes this group rejected: no flag of
    /// its own or of a group between accepts it anyway, and no custom grader decides.
    fn rejects_with_any_case(&self) -> bool {
        !self.config.custom
            && !self.config.accept_if_any_accepted
            && self.config.verdicts != VerdictMode::AlwaysAccept
    }

    /// The indices of the cases below `item` whose rejection surely rejects it.
    fn rejecting_cases(item: &GradedItem, index: &HashMap<&str, usize>, into: &mut Vec<usize>) {
        match item {
            GradedItem::Case(name) => into.extend(index.get(name.as_str())),
            GradedItem::Group(group) if group.rejects_with_any_case() => {
                for item in &group.items {
                    Self::rejecting_cases(item, index, into);
                }
            }
            GradedItem::Group(_) => {}
        }
    }

    /// Adds, for each case below this group, the cases of its earlier items that end it
    /// (when it stops at a rejection), then does the same in its subgroups.
    fn block(&self, index: &HashMap<&str, usize>, blockers: &mut [Vec<std::ops::Range<usize>>]) {
        let mut earlier: Vec<usize> = Vec::new();
        for item in &self.items {
            if self.config.stop_at_rejection && !earlier.is_empty() {
                let ranges = runs_of(&earlier);
                let mut below = Vec::new();
                Self::cases_below(item, index, &mut below);
                for case in below {
                    blockers[case].extend(ranges.iter().cloned());
                }
            }
            Self::rejecting_cases(item, index, &mut earlier);
            if let GradedItem::Group(group) = item {
                group.block(index, blockers);
            }
        }
    }

    fn cases_below(item: &GradedItem, index: &HashMap<&str, usize>, into: &mut Vec<usize>) {
        match item {
            GradedItem::Case(name) => into.extend(index.get(name.as_str())),
            GradedItem::Group(group) => {
                for item in &group.items {
                    Self::cases_below(item, index, into);
                }
            }
        }
    }
}

/// `indices` as the fewest ranges that hold them.
fn runs_of(indices: &[usize]) -> Vec<std::ops::Range<usize>> {
    let mut sorted = indices.to_vec();
    sorted.sort_unstable();
    let mut runs: Vec<std::ops::Range<usize>> = Vec::new();
    for at in sorted {
        match runs.last_mut() {
            Some(run) if run.end == at => run.end += 1,
            _ => runs.push(at..at + 1),
        }
    }
    runs
}

impl GradedGroup {
    /// The group's verdict and score, as the default grader gives them; `None` when none of
    /// its cases was judged (left out by `--case`), as problemtools leaves such a group out.
    fn grade(
        &self,
        judged: &HashMap<&str, &CaseScore>,
        (validator_must_score, grade): (bool, &mut Grade<'_>),
        parts: &mut Vec<ScorePart>,
    ) -> Result<Option<(VerdictKind, f64)>, ScoreError> {
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
                    match group.grade(judged, (validator_must_score, &mut *grade), parts)? {
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
        // A judge error below is the group's, before any grader sees it (as problemtools).
        let judge_error = results.iter().any(|r| r.0 == VerdictKind::JudgeError);
        let result = if config.custom && !judge_error {
            let group = if self.name.is_empty() {
                "data"
            } else {
                &self.name
            };
            grade(&results, &config.flags)
                .map_err(|why| ScoreError::Grader(format!("{group}: {why}")))?
        } else {
            config.combine(&results)
        };
        if !self.name.is_empty() {
            parts.push(ScorePart {
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
) -> Result<f64, ScoreError> {
    match (case.verdict, case.validator) {
        (VerdictKind::Accepted, Some(ValidatorScore::Score(score))) => Ok(score),
        (VerdictKind::Accepted, Some(ValidatorScore::Multiplier(_))) => {
            Err(ScoreError::MultiplierNotInFormat(case.name.clone()))
        }
        (VerdictKind::Accepted, None) if validator_must_score => {
            Err(ScoreError::NoScoreFile(case.name.clone()))
        }
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

/// The default grader's order of errors, worst first.
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
    /// The group's score, and whether every case in it was accepted. A group whose
    /// `require_pass` is not all in `passed`, or inside one such (`blocked`), is not run: it
    /// scores 0 and none of its cases counts as accepted. One all accepted joins `passed`.
    fn score(
        &self,
        judged: &HashMap<&str, &CaseScore>,
        (passed, blocked): (&mut HashSet<String>, bool),
        parts: &mut Vec<ScorePart>,
    ) -> Result<Scored, ScoreError> {
        let blocked = blocked || !self.require_pass.iter().all(|name| passed.contains(name));
        let items: Vec<Scored> = match &self.items {
            BoundedItems::Cases(names) if blocked => vec![Scored::FAILED; names.len()],
            BoundedItems::Cases(names) => {
                let case_max = match self.aggregation {
                    Aggregation::Sum => self.max_score.map(|max| max / names.len() as f64),
                    _ => self.max_score,
                };
                names
                    .iter()
                    .map(|name| match judged.get(name.as_str()) {
                        Some(case) => self.case_score(case, case_max),
                        None => Ok(Scored::FAILED),
                    })
                    .collect::<Result<_, _>>()?
            }
            BoundedItems::Groups(groups) => groups
                .iter()
                .map(|group| group.score(judged, (&mut *passed, blocked), parts))
                .collect::<Result<_, _>>()?,
        };
        let score = self.aggregation.apply(self.max_score, &items);
        if let Some(max) = self.max_score.filter(|max| score > max + EPSILON) {
            return Err(ScoreError::GroupOverMax {
                group: self.name.clone(),
                score,
                max,
            });
        }
        parts.push(ScorePart {
            name: self.name.clone(),
            score,
            max_score: self.max_score,
        });
        let accepted = !blocked && items.iter().all(|item| item.accepted);
        if accepted {
            passed.insert(self.name.clone());
        }
        Ok(Scored { accepted, score })
    }

    /// A case's score under the 2025-09 rules (its maximum `case_max`, `None` unbounded).
    fn case_score(&self, case: &CaseScore, case_max: Option<f64>) -> Result<Scored, ScoreError> {
        let name = &case.name;
        if case.verdict != VerdictKind::Accepted {
            return Ok(Scored::FAILED);
        }
        let score = match (self.aggregation, case.validator, case_max) {
            (Aggregation::PassFail, Some(_), _) => {
                return Err(ScoreError::ScoreInPassFail(name.clone()))
            }
            (Aggregation::PassFail, None, _) => 0.0,
            (_, Some(ValidatorScore::Score(score)), max) => {
                if let Some(max) = max.filter(|max| score > max + EPSILON) {
                    return Err(ScoreError::CaseOverMax {
                        case: name.clone(),
                        score,
                        max,
                    });
                }
                score
            }
            (_, Some(ValidatorScore::Multiplier(multiplier)), Some(max)) => {
                if !(0.0..=1.0).contains(&multiplier) {
                    return Err(ScoreError::MultiplierOutOfRange {
                        case: name.clone(),
                        multiplier,
                    });
                }
                multiplier * max
            }
            (_, Some(ValidatorScore::Multiplier(_)), None) => {
                return Err(ScoreError::MultiplierUnbounded(name.clone()))
            }
            (_, None, Some(max)) => max,
            (_, None, None) => return Err(ScoreError::UnboundedWithoutScore(name.clone())),
        };
        Ok(Scored {
            accepted: true,
            score,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    impl ScoringPlan {
        /// With no custom grader.
        fn score(&self, cases: &[CaseScore]) -> Result<Scorecard, ScoreError> {
            self.score_with(cases, &mut |_, _| Err("no custom grader was built".into()))
        }
    }

    fn case(name: &str, verdict: VerdictKind) -> CaseScore {
        CaseScore {
            name: name.into(),
            verdict,
            validator: None,
        }
    }

    #[test]
    fn a_subtask_scores_its_points_only_when_all_its_cases_are_accepted() {
        let subtasks = vec![
            Subtask {
                name: "small".into(),
                points: 30.0,
                cases: vec!["sample/1".into(), "small/1".into()],
                dependencies: Vec::new(),
                checker_points: None,
            },
            Subtask {
                name: "large".into(),
                points: 70.0,
                cases: vec!["small/1".into(), "large/1".into(), "large/2".into()],
                dependencies: Vec::new(),
                checker_points: None,
            },
        ];
        let judged = [
            case("sample/1", VerdictKind::Accepted),
            case("small/1", VerdictKind::Accepted),
            case("large/1", VerdictKind::Accepted),
            case("large/2", VerdictKind::TimeLimitExceeded),
        ];
        let card = score_subtasks(&subtasks, &judged);
        assert_eq!(card.score, 30.0);
        assert_eq!(card.max_score, Some(100.0));
        let parts: Vec<(&str, f64)> = card
            .parts
            .iter()
            .map(|p| (p.name.as_str(), p.score))
            .collect();
        assert_eq!(parts, [("small", 30.0), ("large", 0.0)]);
        // A case that was not judged is not accepted.
        let card = score_subtasks(&subtasks, &judged[..3]);
        assert_eq!(card.score, 30.0);
        let all: Vec<CaseScore> = ["sample/1", "small/1", "large/1", "large/2"]
            .iter()
            .map(|name| case(name, VerdictKind::Accepted))
            .collect();
        assert_eq!(score_subtasks(&subtasks, &all).score, 100.0);
    }

    #[test]
    fn a_subtask_counts_only_when_the_ones_it_depends_on_pass_whole() {
        let subtask = |name: &str, points, cases: &[&str], dependencies: &[&str]| Subtask {
            name: name.into(),
            points,
            cases: cases.iter().map(|case| case.to_string()).collect(),
            dependencies: dependencies.iter().map(|d| d.to_string()).collect(),
            checker_points: None,
        };
        // Polygon's each-test groups are one subtask a test, sharing the group's name.
        let subtasks = vec![
            subtask("example", 0.0, &["sample/1"], &[]),
            subtask("easy", 10.0, &["1"], &[]),
            subtask("easy", 10.0, &["2"], &[]),
            subtask("hard", 80.0, &["3"], &["example", "easy"]),
        ];
        let scored = |verdicts: [VerdictKind; 4]| {
            let names = ["sample/1", "1", "2", "3"];
            let judged: Vec<CaseScore> = names
                .iter()
                .zip(verdicts)
                .map(|(n, v)| case(n, v))
                .collect();
            score_subtasks(&subtasks, &judged).score
        };
        use VerdictKind::{Accepted as AC, WrongAnswer as WA};
        assert_eq!(scored([AC, AC, AC, AC]), 100.0);
        assert_eq!(scored([AC, AC, WA, AC]), 10.0, "hard needs all of easy");
        assert_eq!(
            scored([WA, AC, AC, AC]),
            20.0,
            "a group of no points still gates"
        );
        // A chain: what depends on a group behind a failure fails too.
        let chain = vec![
            subtask("one", 20.0, &["1"], &[]),
            subtask("two", 30.0, &["2"], &["one"]),
            subtask("three", 50.0, &["3"], &["two"]),
        ];
        let judged = [case("1", WA), case("2", AC), case("3", AC)];
        assert_eq!(score_subtasks(&chain, &judged).score, 0.0);
        let judged = [case("1", AC), case("2", WA), case("3", AC)];
        assert_eq!(score_subtasks(&chain, &judged).score, 20.0);
    }

    #[test]
    fn scores_print_without_trailing_zeros() {
        assert_eq!(format_score(25.0), "25");
        assert_eq!(format_score(12.5), "12.5");
        assert_eq!(format_score(100.0 / 3.0), "33.333333");
        assert_eq!(format_score(0.0), "0");
    }

    mod packages {
        use super::super::*;
        use crate::problem::kattis::constants::Constants;
        use crate::problem::kattis::scoring::{plan, LegacyGrading};
        use crate::problem::kattis::FormatVersion;
        use VerdictKind::*;

        fn case(name: &str, verdict: VerdictKind, validator: Option<f64>) -> CaseScore {
            CaseScore {
                name: name.into(),
                verdict,
                validator: validator.map(ValidatorScore::Score),
            }
        }

        use crate::problem::test_files::write;

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
        #[allow(clippy::single_range_in_vec_init)]
        fn a_case_after_a_rejection_in_a_breaking_group_is_known_not_to_count() {
            let dir = tempfile::tempdir().unwrap();
            // group1 breaks (the default); group2 goes on; group3 accepts if any case does.
            write(
                dir.path(),
                "data/secret/group2/testdata.yaml",
                "on_reject: continue\n",
            );
            write(
                dir.path(),
                "data/secret/group3/testdata.yaml",
                "grader_flags: accept_if_any_accepted\n",
            );
            let cases = names(&[
                "sample/1",
                "secret/group1/1",
                "secret/group1/2",
                "secret/group2/1",
                "secret/group2/2",
                "secret/group3/1",
                "secret/group3/2",
            ]);
            let plan = plan(
                dir.path(),
                FormatVersion::Legacy,
                &LegacyGrading::default(),
                false,
                &cases,
                &Constants::default(),
            )
            .unwrap();
            let blockers = Scoring::Package(plan).blockers(&cases);
            // secret breaks at its first rejected group; data/ (the root) at sample.
            assert_eq!(blockers[0], []);
            assert_eq!(blockers[1], vec![0..1]);
            assert_eq!(blockers[2], [0..1, 1..2]);
            // group2 goes on past its own rejections, but secret stops after group1.
            assert_eq!(blockers[3], [0..1, 1..3]);
            assert_eq!(blockers[4], [0..1, 1..3]);
            // group3 may accept with a rejected case, so its cases end nothing after them.
            assert_eq!(blockers[5], [0..1, 1..5]);
            assert_eq!(blockers[6], [0..1, 1..5, 5..6]);
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
            assert!(plan
                .score(&missing)
                .unwrap_err()
                .to_string()
                .contains("no score.txt"));
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
                .to_string()
                .contains("over the case's maximum 15"));
            let in_pass_fail = [case("secret/g1/1", Accepted, Some(1.0))];
            assert!(plan
                .score(&in_pass_fail)
                .unwrap_err()
                .to_string()
                .contains("pass-fail group"));
        }

        /// The format's "Group dependencies": a group whose `require_pass` did not all pass
        /// scores 0, and so fails what requires it in turn; `secret` may require `sample`.
        #[test]
        fn a_group_scores_only_when_the_groups_it_requires_passed() {
            let dir = tempfile::tempdir().unwrap();
            let groups = [
                ("g1", "max_score: 10\n"),
                ("g2", "max_score: 20\nrequire_pass: secret/g1\n"),
                ("g3", "max_score: 30\nrequire_pass: [sample, secret/g2]\n"),
                (
                    "g4",
                    "max_score: 40\nscore_aggregation: sum\nrequire_pass: sample\n",
                ),
            ];
            for (group, keys) in groups {
                let file = format!("data/secret/{group}/test_group.yaml");
                write(dir.path(), &file, keys);
            }
            let cases = names(&[
                "sample/1",
                "secret/g1/1",
                "secret/g2/1",
                "secret/g3/1",
                "secret/g4/1",
            ]);
            let plan = |dir: &std::path::Path| {
                let grading = LegacyGrading::default();
                plan(
                    dir,
                    FormatVersion::V2025,
                    &grading,
                    false,
                    &cases,
                    &Constants::default(),
                )
            };
            let scored = |verdicts: [VerdictKind; 5]| {
                let judged: Vec<CaseScore> = (cases.iter().zip(verdicts))
                    .map(|(name, verdict)| case(name, verdict, None))
                    .collect();
                let card = plan(dir.path()).unwrap().score(&judged).unwrap();
                (
                    card.parts.iter().map(|part| part.score).collect::<Vec<_>>(),
                    card.score,
                )
            };
            let all = [Accepted; 5];
            assert_eq!(scored(all), (vec![10.0, 20.0, 30.0, 40.0], 100.0));
            // g1 failed: g2 requires it, and g3 requires g2.
            let g1_fails = [Accepted, WrongAnswer, Accepted, Accepted, Accepted];
            assert_eq!(scored(g1_fails), (vec![0.0, 0.0, 0.0, 40.0], 40.0));
            // The sample failed: g3 and g4 require it, g1 and g2 do not.
            let sample_fails = [WrongAnswer, Accepted, Accepted, Accepted, Accepted];
            assert_eq!(scored(sample_fails), (vec![10.0, 20.0, 0.0, 0.0], 30.0));
            write(
                dir.path(),
                "data/secret/test_group.yaml",
                "require_pass: sample\n",
            );
            assert_eq!(scored(sample_fails), (vec![0.0; 4], 0.0));
            assert_eq!(scored(all), (vec![10.0, 20.0, 30.0, 40.0], 100.0));
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
}
