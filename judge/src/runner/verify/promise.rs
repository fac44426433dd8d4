//! What each verdict folder of a package promises, and whether a submission keeps it.

use super::expectations::{default_for, Requirement};
use crate::judging::checker::PRESENTATION_ERROR;
use crate::judging::scorecard::{format_score, Scorecard, EPSILON};
use crate::judging::verdict::VerdictKind;
use crate::judging::SolutionVerdicts;
use crate::problem::polygon::Tag;
use crate::problem::Scoring;

pub(super) const FOLDERS: &[(&str, Promise)] = &[
    ("accepted", Promise::Accepted),
    ("wrong_answer", Promise::Some(VerdictKind::WrongAnswer)),
    (
        "time_limit_exceeded",
        Promise::Some(VerdictKind::TimeLimitExceeded),
    ),
    ("run_time_error", Promise::Some(VerdictKind::RuntimeError)),
    // The format has no memory verdict: it is a run-time error there (the case's detail
    // says "memory"); the folder is kept for packages that have it.
    (
        "memory_limit_exceeded",
        Promise::Some(VerdictKind::RuntimeError),
    ),
    (
        "output_limit_exceeded",
        Promise::Some(VerdictKind::OutputLimitExceeded),
    ),
    ("compile_error", Promise::CompileError),
    ("rejected", Promise::Rejected),
    // Legacy, scoring problems only.
    ("partially_accepted", Promise::PartiallyAccepted),
];

#[derive(Debug, Clone, PartialEq)]
pub(super) enum Promise {
    /// Every case AC (in a legacy scoring package: the grader's verdict AC, as problemtools
    /// checks it).
    Accepted,
    /// Accepted without the best score: the legacy grader's verdict AC and a score other than
    /// the range's best; in 2025-09 (no such folder), above 0 and below `secret`'s maximum.
    PartiallyAccepted,
    /// Some case gets this verdict, every other AC or this verdict: no worse surprise.
    Some(VerdictKind),
    CompileError,
    /// Anything but accepted.
    Rejected,
    /// Every one `submissions.yaml` asks (with the folder's default).
    Requirements(Vec<Requirement>),
    /// A Polygon tag beyond those above: every case AC or in `failing`, and unless
    /// `may_pass`, some case in `failing` whose message begins with `message`, if given.
    Tagged {
        failing: &'static [VerdictKind],
        may_pass: bool,
        message: Option<&'static str>,
    },
    /// A Polygon solution with extra tags: `whole` on every test, and each part's promise on
    /// its cases; each read at its first failed test, as Codeforces reads a tag.
    Grouped {
        whole: Box<Promise>,
        parts: Vec<(Vec<String>, Promise)>,
    },
    /// A folder of ours, beyond the format's (`partially_accepted/`), that `submissions.yaml`
    /// also speaks of: the folder's promise and the file's requirements both, as the format
    /// holds every submission its patterns match to them.
    Also(Box<Promise>, Vec<Requirement>),
}

impl Promise {
    /// The folder's own promise, without what `submissions.yaml` adds.
    pub(super) fn own(&self) -> &Promise {
        match self {
            Promise::Also(folder, _) => folder,
            other => other,
        }
    }

    /// What `submissions.yaml` asks of the submission.
    pub(super) fn requirements(&self) -> &[Requirement] {
        match self {
            Promise::Requirements(requirements) | Promise::Also(_, requirements) => requirements,
            _ => &[],
        }
    }
}

/// Read as Codeforces does: a solution stops at its first failed test, whose verdict it gets.
pub(super) fn of_tag(tag: Tag) -> Promise {
    use VerdictKind::*;
    let tagged = |failing, may_pass, message| Promise::Tagged {
        failing,
        may_pass,
        message,
    };
    match tag {
        Tag::Main | Tag::Accepted => Promise::Accepted,
        Tag::Rejected => Promise::Rejected,
        Tag::WrongAnswer => Promise::Some(WrongAnswer),
        // The checker's exit 2 is a wrong answer here, its message saying which.
        Tag::PresentationError => tagged(&[WrongAnswer], false, Some(PRESENTATION_ERROR)),
        Tag::TimeLimitExceeded => Promise::Some(TimeLimitExceeded),
        Tag::TimeLimitExceededOrAccepted => tagged(&[TimeLimitExceeded], true, None),
        Tag::TimeLimitExceededOrMemoryLimitExceeded => {
            tagged(&[TimeLimitExceeded, MemoryLimitExceeded], false, None)
        }
        Tag::MemoryLimitExceeded => Promise::Some(MemoryLimitExceeded),
        Tag::Failed => Promise::Some(RuntimeError),
    }
}

/// Its requirement is the format's (which `submissions.yaml` may change).
pub(super) fn is_format_folder(name: &str) -> bool {
    default_for(name).is_some()
}

pub(super) fn keeps(
    promise: &Promise,
    verdicts: &SolutionVerdicts,
    scoring: Option<&Scoring>,
) -> bool {
    let kinds: Vec<VerdictKind> = verdicts.verdicts.iter().map(|v| v.kind()).collect();
    let accepted = |kind: &VerdictKind| *kind == VerdictKind::Accepted;
    let card = match &verdicts.score {
        Some(Ok(card)) => Some(card),
        _ => None,
    };
    let plan = match scoring {
        Some(Scoring::Package(plan)) => Some(plan),
        _ => None,
    };
    // Polygon's points: a submission short of the full points is partially correct (PT), not
    // accepted, even with every test passed by the checker's points (problem-xml-specs §6.5).
    let short_of_full = matches!(scoring, Some(Scoring::Subtasks(_)))
        && card.is_some_and(|card| card.max_score.is_some_and(|max| card.score + EPSILON < max));
    match promise {
        Promise::CompileError => verdicts.compile_error,
        _ if verdicts.compile_error || kinds.is_empty() => false,
        Promise::Accepted => match card.and_then(|card| card.verdict) {
            Some(verdict) => accepted(&verdict),
            None => kinds.iter().all(accepted) && !short_of_full,
        },
        Promise::PartiallyAccepted => match (plan, card) {
            (Some(plan), Some(card)) => {
                let accepted_whole = card.verdict.is_none_or(|verdict| accepted(&verdict));
                let some_score = card.verdict.is_some() || card.score > 0.0;
                accepted_whole && some_score && !plan.is_best(card)
            }
            _ => false,
        },
        Promise::Rejected => !kinds.iter().all(accepted) || short_of_full,
        // A legacy grader's verdict is the submission's, as problemtools checks every folder.
        Promise::Some(verdict) => match card.and_then(|card| card.verdict) {
            Some(graded) => graded == *verdict,
            None => {
                kinds.contains(verdict)
                    && kinds.iter().all(|kind| accepted(kind) || kind == verdict)
            }
        },
        Promise::Tagged {
            failing,
            may_pass,
            message,
        } => {
            let cases = || {
                let messages = verdicts.messages.iter().map(Option::as_deref);
                kinds.iter().zip(messages)
            };
            let failed = |(kind, said): (&VerdictKind, Option<&str>)| {
                failing.contains(kind)
                    && message.is_none_or(|start| said.is_some_and(|m| m.starts_with(start)))
            };
            cases().all(|case| accepted(case.0) || failed(case))
                && (*may_pass || cases().any(failed))
        }
        Promise::Grouped { whole, parts } => {
            let every_case: Option<&[String]> = None;
            std::iter::once((every_case, whole.as_ref()))
                .chain(
                    parts
                        .iter()
                        .map(|(cases, promise)| (Some(&cases[..]), promise)),
                )
                .all(|(cases, promise)| keeps(promise, &to_first_failure(verdicts, cases), None))
        }
        Promise::Also(folder, requirements) => {
            keeps(folder, verdicts, scoring) && all_kept(requirements, verdicts, card)
        }
        Promise::Requirements(requirements) => all_kept(requirements, verdicts, card),
    }
}

/// Whether every one of `submissions.yaml`'s requirements holds, each on its cases.
fn all_kept(
    requirements: &[Requirement],
    verdicts: &SolutionVerdicts,
    card: Option<&Scorecard>,
) -> bool {
    requirements.iter().all(|r| {
        let cases = || {
            let messages = verdicts.messages.iter().map(Option::as_deref);
            (verdicts.verdicts.iter().zip(&verdicts.cases).zip(messages))
                .filter(|((_, case), _)| r.applies_to_case(case))
        };
        let kinds: Vec<VerdictKind> = cases().map(|((v, _), _)| v.kind()).collect();
        let message_kept = r.message.as_deref().is_none_or(|wanted| {
            cases().any(|(_, message)| message.is_some_and(|m| m.contains(wanted)))
        });
        r.kept_by(&kinds) && message_kept && r.score_kept_by(card.map(|card| card.score))
    })
}

/// `cases`: all when none.
fn to_first_failure(verdicts: &SolutionVerdicts, cases: Option<&[String]>) -> SolutionVerdicts {
    let mut part = SolutionVerdicts {
        compile_error: verdicts.compile_error,
        ..SolutionVerdicts::default()
    };
    let each = (verdicts.verdicts.iter().zip(&verdicts.cases)).zip(&verdicts.messages);
    for ((verdict, case), message) in each {
        if cases.is_some_and(|cases| !cases.contains(case)) {
            continue;
        }
        part.verdicts.push(*verdict);
        part.cases.push(case.clone());
        part.messages.push(message.clone());
        if verdict.kind() != VerdictKind::Accepted {
            break;
        }
    }
    part
}

/// The submission's verdict and score, as problemtools tells them: the grader's verdict
/// where there is one, else the first rejected case's (AC when there is none).
pub(super) fn outcome(verdicts: &SolutionVerdicts) -> (VerdictKind, Option<f64>) {
    let card = match &verdicts.score {
        Some(Ok(card)) => Some(card),
        _ => None,
    };
    let first_rejection = (verdicts.verdicts.iter().map(|verdict| verdict.kind()))
        .find(|kind| *kind != VerdictKind::Accepted)
        .unwrap_or(VerdictKind::Accepted);
    let verdict = card
        .and_then(|card| card.verdict)
        .unwrap_or(first_rejection);
    (verdict, card.map(|card| card.score))
}

pub(super) fn describe(verdicts: &SolutionVerdicts) -> String {
    if verdicts.compile_error {
        return "CE".into();
    }
    let counts = crate::report::counts(&verdicts.tally);
    match &verdicts.score {
        Some(Ok(card)) => {
            let max = card
                .max_score
                .map(|max| format!("/{}", format_score(max)))
                .unwrap_or_default();
            let verdict = card
                .verdict
                .map(|verdict| format!(" · grader {}", verdict.code()))
                .unwrap_or_default();
            format!(
                "{counts} · score {}{max}{verdict}",
                format_score(card.score)
            )
        }
        _ => counts,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judging::verdict::Verdict;
    use crate::sandbox::Termination;

    const AC: Verdict = Verdict::Accepted;
    const WA: Verdict = Verdict::WrongAnswer;
    const TLE: Verdict = Verdict::TimeLimitExceeded;
    const MLE: Verdict = Verdict::MemoryLimitExceeded;
    const RE: Verdict = Verdict::RuntimeError(Termination::Exited(1));
    const SOME_WA: Promise = Promise::Some(VerdictKind::WrongAnswer);

    /// A pass-fail problem's promise.
    fn keeps_(promise: &Promise, verdicts: &SolutionVerdicts) -> bool {
        keeps(promise, verdicts, None)
    }

    fn got(verdicts: &[Verdict]) -> SolutionVerdicts {
        SolutionVerdicts {
            verdicts: verdicts.to_vec(),
            cases: (1..=verdicts.len())
                .map(|i| format!("secret/{i}"))
                .collect(),
            messages: vec![None; verdicts.len()],
            ..SolutionVerdicts::default()
        }
    }

    #[test]
    fn promises_are_kept_only_without_surprises() {
        assert!(keeps_(&Promise::Accepted, &got(&[AC, AC])));
        assert!(!keeps_(&Promise::Accepted, &got(&[AC, WA])));
        assert!(keeps_(&SOME_WA, &got(&[AC, WA])));
        assert!(
            !keeps_(&SOME_WA, &got(&[AC, AC])),
            "a wrong answer must fail somewhere"
        );
        assert!(!keeps_(&SOME_WA, &got(&[WA, RE])), "no worse surprise");
        assert!(!keeps_(
            &Promise::Some(VerdictKind::TimeLimitExceeded),
            &got(&[WA, TLE])
        ));
        assert!(keeps_(
            &Promise::Some(VerdictKind::RuntimeError),
            &got(&[AC, RE])
        ));
        assert!(keeps_(&Promise::Rejected, &got(&[AC, MLE])));
        let compile_error = SolutionVerdicts {
            compile_error: true,
            ..SolutionVerdicts::default()
        };
        assert!(keeps_(&Promise::CompileError, &compile_error));
        assert!(!keeps_(&Promise::Accepted, &compile_error));
        assert!(
            !keeps_(&Promise::Accepted, &got(&[])),
            "judging nothing proves nothing"
        );
    }

    #[test]
    fn a_polygon_solution_short_of_the_full_points_is_not_accepted() {
        let scored = |score: f64| SolutionVerdicts {
            score: Some(Ok(Scorecard {
                score,
                max_score: Some(100.0),
                verdict: None,
                parts: Vec::new(),
            })),
            ..got(&[AC, AC])
        };
        let polygon = Scoring::Subtasks(Vec::new());
        let keeps_polygon = |promise, score| keeps(promise, &scored(score), Some(&polygon));
        // A checker's points below the test's: every test passed, the submission PT.
        assert!(!keeps_polygon(&Promise::Accepted, 50.0));
        assert!(keeps_polygon(&Promise::Rejected, 50.0));
        assert!(keeps_polygon(&Promise::Accepted, 100.0));
        assert!(!keeps_polygon(&Promise::Rejected, 100.0));
    }

    #[test]
    fn polygon_tags_are_kept_as_polygon_reads_them() {
        let either = of_tag(Tag::TimeLimitExceededOrAccepted);
        assert!(keeps_(&either, &got(&[AC, AC])));
        assert!(keeps_(&either, &got(&[AC, TLE])));
        assert!(!keeps_(&either, &got(&[AC, WA])));
        let heavy = of_tag(Tag::TimeLimitExceededOrMemoryLimitExceeded);
        assert!(keeps_(&heavy, &got(&[AC, MLE])));
        assert!(keeps_(&heavy, &got(&[TLE])));
        assert!(!keeps_(&heavy, &got(&[AC, AC])), "it must fail");
        assert!(!keeps_(&heavy, &got(&[AC, RE])));
        assert!(keeps_(&of_tag(Tag::MemoryLimitExceeded), &got(&[AC, MLE])));
        assert!(!keeps_(&of_tag(Tag::MemoryLimitExceeded), &got(&[AC, RE])));
        assert!(keeps_(&of_tag(Tag::Failed), &got(&[RE])));
        assert!(keeps_(&of_tag(Tag::Main), &got(&[AC])));
        // A presentation error is a wrong answer whose message says it is one.
        let mut presentation = got(&[AC, WA]);
        assert!(!keeps_(&of_tag(Tag::PresentationError), &presentation));
        presentation.messages[1] = Some(format!("{PRESENTATION_ERROR}: extra spaces"));
        assert!(keeps_(&of_tag(Tag::PresentationError), &presentation));
        assert!(!keeps_(&of_tag(Tag::WrongAnswer), &got(&[AC, TLE])));
    }
}
