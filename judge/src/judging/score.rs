//! Scores, for problems that give points instead of one verdict: Kattis packages of type
//! `scoring` (`kattis::scoring` knows their groups and rules) and our problems with
//! Baekjoon-style subtasks (`Subtask`, from `problem.toml`). Whatever the format, a group's
//! score is made from its items' by one `Aggregation`: the arithmetic lives here, once.

use std::collections::HashMap;

use crate::judging::verdict::VerdictKind;

/// How a group's score follows from the scores of its items (cases or groups).
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
            // An empty group has nothing to take the least or most of: it scores nothing.
            Aggregation::Min => scores.reduce(f64::min).unwrap_or(0.0),
            Aggregation::Max => scores.reduce(f64::max).unwrap_or(0.0),
            Aggregation::Average if items.is_empty() => 0.0,
            Aggregation::Average => scores.sum::<f64>() / items.len() as f64,
        }
    }
}

/// What an output validator said of an accepted case's score, in its feedback folder.
#[derive(Debug, Clone, Copy, PartialEq)]
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

/// One part of a score (a subtask, a test data group), for the reports.
#[derive(Debug, Clone, PartialEq)]
pub struct Part {
    pub name: String,
    pub score: f64,
    /// `None` when the part has no bound (an unbounded Kattis group).
    pub max_score: Option<f64>,
}

/// A submission's score and the parts it is made of.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Scorecard {
    pub score: f64,
    pub max_score: Option<f64>,
    /// The verdict the legacy Kattis grader gives the whole submission (what
    /// `partially_accepted/` is checked against); `None` where the format has none.
    pub verdict: Option<VerdictKind>,
    pub parts: Vec<Part>,
}

/// How a problem is scored.
#[derive(Debug, Clone, PartialEq)]
pub enum Scoring {
    /// Our problem's `[[subtasks]]`.
    Subtasks(Vec<Subtask>),
    /// A Kattis package of type `scoring`.
    Package(crate::problem::kattis::scoring::Plan),
}

impl Scoring {
    /// The score of a submission's judged cases; an error is a judge error (a validator that
    /// breaks the scoring rules, a score over its maximum), said in one line.
    pub fn score(&self, cases: &[CaseScore]) -> Result<Scorecard, String> {
        match self {
            Scoring::Subtasks(subtasks) => Ok(score_subtasks(subtasks, cases)),
            Scoring::Package(plan) => plan.score(cases),
        }
    }
}

/// A Baekjoon subtask: its points are won when every one of its cases is accepted.
#[derive(Debug, Clone, PartialEq)]
pub struct Subtask {
    pub name: String,
    pub points: f64,
    /// The names of its cases, the problem's cases its patterns matched when it was loaded.
    pub cases: Vec<String>,
}

/// Baekjoon's rule: each subtask scores its points when all its cases are accepted (a case
/// not judged, after a failure with `--fail-fast` or left out by `--case`, is not), and the
/// total is their sum.
pub fn score_subtasks(subtasks: &[Subtask], cases: &[CaseScore]) -> Scorecard {
    let verdicts: HashMap<&str, VerdictKind> = cases
        .iter()
        .map(|case| (case.name.as_str(), case.verdict))
        .collect();
    let parts: Vec<Part> = subtasks
        .iter()
        .map(|subtask| {
            let items: Vec<Scored> = subtask
                .cases
                .iter()
                .map(|name| Scored {
                    accepted: verdicts.get(name.as_str()) == Some(&VerdictKind::Accepted),
                    score: 0.0,
                })
                .collect();
            Part {
                name: subtask.name.clone(),
                score: Aggregation::PassFail.apply(Some(subtask.points), &items),
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
        parts,
    }
}

/// A score as people read it: `25`, `12.5`, `33.333333`.
pub fn format_score(score: f64) -> String {
    let text = format!("{score:.6}");
    text.trim_end_matches('0').trim_end_matches('.').to_owned()
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
            },
            Subtask {
                name: "large".into(),
                points: 70.0,
                cases: vec!["small/1".into(), "large/1".into(), "large/2".into()],
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
    fn scores_print_without_trailing_zeros() {
        assert_eq!(format_score(25.0), "25");
        assert_eq!(format_score(12.5), "12.5");
        assert_eq!(format_score(100.0 / 3.0), "33.333333");
        assert_eq!(format_score(0.0), "0");
    }
}
