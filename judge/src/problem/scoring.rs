//! How a problem that gives points is scored: Baekjoon-style subtasks (`[[subtasks]]` of
//! `problem.toml`) or a Kattis scoring package's plan (`kattis::scoring`). In every format a
//! group's score comes from its items' by one `Aggregation`; `judging::scorecard` scores a
//! submission.

use super::cases::CasePatterns;
use super::layout::METADATA_FILE;
use super::{Problem, TestCase};
use crate::error::{Error, Result};

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
    Package(super::kattis::scoring::ScoringPlan),
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
