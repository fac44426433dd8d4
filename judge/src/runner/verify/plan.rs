//! The plan of a verification: every submission with its promise (its folder's and
//! `submissions.yaml`'s), or why it is not judged; then the builds, before any is judged.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::expectations::{default_for, SubmissionsYaml};
use super::promise::{is_format_folder, of_tag, Promise, FOLDERS};
use super::{Row, RowOutcome};
use crate::error::{Error, LanguageFault};
use crate::problem::kattis::{entries_in, FormatVersion};
use crate::problem::polygon;
use crate::problem::Problem;
use crate::toolchain::compiler::Compiler;
use crate::toolchain::language::{is_format_code, Language, LanguageId};
use crate::toolchain::sources::{is_program, Choice, Sources};

pub(super) fn file_name(path: &Path) -> String {
    path.file_name()
        .unwrap_or_default()
        .to_string_lossy()
        .into_owned()
}

fn not_judged(submission: PathBuf, folder: &str, outcome: RowOutcome) -> Row {
    Row {
        submission,
        expected: folder.to_owned(),
        got: "not judged".into(),
        outcome,
        warning: None,
        cases: Vec::new(),
        failure: None,
    }
}

/// A row as decided before anything runs.
pub(super) enum PlannedSubmission {
    /// Not judged: skipped, or a fault of the package.
    Settled(Row),
    Judge {
        submission: PathBuf,
        folder: String,
        promise: Promise,
        language: &'static Language,
        /// The language and entry point submissions.yaml names.
        choice: Choice,
    },
}

impl PlannedSubmission {
    pub(super) fn skipped(submission: PathBuf, folder: &str, reason: String) -> PlannedSubmission {
        PlannedSubmission::Settled(not_judged(submission, folder, RowOutcome::Skipped(reason)))
    }

    /// Not judged for a fault of the package: an error of the verification (exit 2).
    pub(super) fn failed(submission: PathBuf, folder: &str, reason: String) -> PlannedSubmission {
        PlannedSubmission::Settled(not_judged(submission, folder, RowOutcome::Error(reason)))
    }

    /// Its row when no submission can be judged (`outcome` says why); a settled row stays.
    pub(super) fn unjudged(self, outcome: &RowOutcome) -> Row {
        match self {
            PlannedSubmission::Settled(row) => row,
            PlannedSubmission::Judge {
                submission, folder, ..
            } => not_judged(submission, &folder, outcome.clone()),
        }
    }

    pub(super) fn folder(&self) -> &str {
        match self {
            PlannedSubmission::Settled(row) => &row.expected,
            PlannedSubmission::Judge { folder, .. } => folder,
        }
    }
}

/// Accepted submissions first.
pub(super) fn plan(
    root: &Path,
    yaml: &SubmissionsYaml,
    problem: &Problem,
) -> Vec<PlannedSubmission> {
    let mut folders: Vec<PathBuf> = entries_in(root)
        .into_iter()
        .filter(|path| path.is_dir())
        .collect();
    // A stable sort keeps the others in order.
    folders.sort_by_key(|folder| file_name(folder) != "accepted");
    let mut entries = Vec::new();
    for folder in folders {
        let name = file_name(&folder);
        let folder_promise = FOLDERS
            .iter()
            .find(|(known, _)| *known == name)
            .map(|(_, promise)| promise.clone());
        // 2025-09's brute_force/ has only the format's default requirement.
        let by_default = default_for(&name).is_some()
            && (problem.package.as_ref()).is_some_and(|p| p.version == FormatVersion::V2025);
        if folder_promise.is_none() && yaml.is_empty() && !by_default {
            let reason = unknown_folder(&folder, &name);
            entries.push(PlannedSubmission::skipped(folder, &name, reason));
            continue;
        }
        for submission in submissions_in(&folder, &name, yaml) {
            let relative = format!("{name}/{}", file_name(&submission));
            let (requirements, unchecked) = yaml.requirements(&relative);
            let choice = choice_of(yaml.program(&relative));
            let promise = match &folder_promise {
                // Ours, beyond the format's: their promise, and what submissions.yaml asks.
                Some(promise) if yaml.is_empty() || !is_format_folder(&name) => {
                    // Without a file, `requirements` are the format's folder defaults.
                    Some(match yaml.is_empty() || requirements.is_empty() {
                        true => promise.clone(),
                        false => Promise::Also(Box::new(promise.clone()), requirements),
                    })
                }
                _ if requirements.is_empty() => None,
                _ => Some(Promise::Requirements(requirements)),
            };
            let judged = match (promise, unchecked.first()) {
                (None, _) => Err(NotJudged::NoPromise),
                (Some(_), Some(key)) => Err(NotJudged::Unchecked(key.clone())),
                (Some(promise), None)
                    if *promise.own() == Promise::PartiallyAccepted
                        && problem.scoring.is_none() =>
                {
                    Err(NotJudged::PartiallyAcceptedPassFail)
                }
                (Some(promise), None) => choice.and_then(|choice| {
                    language_of(&submission, &choice).map(|language| (promise, language, choice))
                }),
            };
            entries.push(match judged {
                Ok((promise, language, choice)) => PlannedSubmission::Judge {
                    submission,
                    folder: name.clone(),
                    promise,
                    language,
                    choice,
                },
                Err(reason @ NotJudged::NotALanguageCode(_)) => {
                    PlannedSubmission::failed(submission, &name, reason.to_string())
                }
                Err(reason) => PlannedSubmission::skipped(submission, &name, reason.to_string()),
            });
        }
    }
    entries
}

/// Why a folder of no known verdict is not judged, with the format's folder it may mean.
fn unknown_folder(folder: &Path, name: &str) -> String {
    let files = std::fs::read_dir(folder).map_or(0, Iterator::count);
    let mut reason = format!(
        "no verdict is known for this folder; {} not judged",
        crate::report::plural(files, "file")
    );
    // `runtime_error/` for the format's `run_time_error/`.
    let letters = |name: &str| name.replace(['_', '-'], "").to_lowercase();
    if let Some((known, _)) = FOLDERS
        .iter()
        .find(|(known, _)| letters(known) == letters(name))
    {
        reason.push_str(&format!("; the format's folder is `{known}/`"));
    }
    reason
}

/// The row's `expected` is the tag.
pub(super) fn polygon_plan(problem: &Problem) -> crate::error::Result<Vec<PlannedSubmission>> {
    let entries = polygon::solutions(&problem.dir)?
        .into_iter()
        .map(|solution| {
            let choice = problem.solution_choice(&solution.path);
            let (promise, expected) = tagged_promise(&solution);
            let judged = (solution.judged.clone())
                .and_then(|()| language_of(&solution.path, &choice).map_err(|e| e.to_string()));
            match judged {
                Ok(language) => PlannedSubmission::Judge {
                    submission: solution.path,
                    folder: expected,
                    promise,
                    language,
                    choice: choice.clone(),
                },
                Err(reason) => PlannedSubmission::skipped(solution.path, &expected, reason),
            }
        });
    Ok(entries.collect())
}

/// And how its row says it: `rejected; group 1 accepted`. An extra tag on a testset other
/// than `tests` (`pretests`) is named as not judged here.
fn tagged_promise(solution: &polygon::TaggedSolution) -> (Promise, String) {
    let mut expected = solution.tag.name().to_owned();
    let mut parts = Vec::new();
    for part in &solution.extra_tags {
        let extra = &part.tag;
        let place = match (&extra.group, extra.testset.as_str()) {
            (Some(group), "tests") => format!("group {group}"),
            (Some(group), testset) => format!("{testset} group {group}"),
            (None, testset) => testset.to_owned(),
        };
        expected.push_str(&format!("; {place} {}", extra.tag.name()));
        match &part.cases {
            Some(cases) => parts.push((cases.clone(), of_tag(extra.tag))),
            None => expected.push_str(" (not judged here)"),
        }
    }
    let promise = match parts.is_empty() {
        true => of_tag(solution.tag),
        false => Promise::Grouped {
            whole: Box::new(of_tag(solution.tag)),
            parts,
        },
    };
    (promise, expected)
}

/// Its programs (`is_program`), and files that rule passes over but that are submissions all
/// the same: those `submissions.yaml` names a language for (the format tells a language by
/// that key first), and those set aside by a `.disabled` ending (BAPCtools' way), whose rows
/// say why they are not judged.
fn submissions_in(folder: &Path, name: &str, yaml: &SubmissionsYaml) -> Vec<PathBuf> {
    let mut submissions = entries_in(folder);
    submissions.retain(|path| {
        let set_aside = path.extension().is_some_and(|e| e == "disabled");
        let named = || {
            yaml.program(&format!("{name}/{}", file_name(path)))
                .0
                .is_some()
        };
        is_program(path) || set_aside || named()
    });
    submissions
}

/// `entries` with those whose toolchain is missing, fails or is older than the version the
/// problem names for them skipped. Asks every language at once: cold starts (a JVM compiler
/// with no version file) wait for the slowest, not their sum.
fn skip_unavailable(
    entries: Vec<PlannedSubmission>,
    problem: &Problem,
    compiler: &Compiler,
) -> Vec<PlannedSubmission> {
    let mut languages = HashMap::new();
    for entry in &entries {
        if let PlannedSubmission::Judge { language, .. } = entry {
            languages.insert(language.id, *language);
        }
    }
    type Found = Result<Option<((u32, u32), String)>, String>;
    let found: HashMap<LanguageId, Found> = std::thread::scope(|scope| {
        let asked: Vec<_> = (languages.into_iter())
            .map(|(id, language)| {
                let ask = move || match compiler.unavailable(language) {
                    Some(lacking) => Err(lacking),
                    None => Ok(compiler.version_number(language)),
                };
                (id, scope.spawn(ask))
            })
            .collect();
        let answer = |asked: std::thread::ScopedJoinHandle<Found>| {
            asked.join().unwrap_or(Err("the check failed".into()))
        };
        (asked.into_iter())
            .map(|(id, asked)| (id, answer(asked)))
            .collect()
    });
    let too_old = |submission: &Path, language: &Language| {
        let least = problem.solution_languages.get(submission)?.least?;
        let (number, line) = found[&language.id].as_ref().ok()?.as_ref()?;
        let shown = match language.id {
            LanguageId::Java => least.0.to_string(),
            _ => format!("{}.{}", least.0, least.1),
        };
        let name = language.name;
        let why = || format!("{line} is older than {name} {shown}, which its source type asks for");
        (*number < least).then(why)
    };
    entries
        .into_iter()
        .map(|entry| {
            let lacks = match &entry {
                PlannedSubmission::Judge {
                    language,
                    submission,
                    ..
                } => (found[&language.id].clone().err()).or_else(|| too_old(submission, language)),
                PlannedSubmission::Settled(_) => None,
            };
            match (entry, lacks) {
                (
                    PlannedSubmission::Judge {
                        submission, folder, ..
                    },
                    Some(reason),
                ) => PlannedSubmission::skipped(submission, &folder, reason),
                (entry, _) => entry,
            }
        })
        .collect()
}

/// Builds the validators and checker (`programs`) and the submissions, slowest first, before
/// any runs: the accepted ones may be judged first (to derive a time limit), and the others
/// then find their builds in the cache. A failure is left for its row to report. Returns
/// `entries` with those whose toolchain is missing skipped, asked beside the builds: no build
/// waits for another language's answer.
pub(super) fn prebuild(
    programs: &[PathBuf],
    entries: Vec<PlannedSubmission>,
    problem: &Problem,
    compiler: &Compiler,
    jobs: usize,
) -> Vec<PlannedSubmission> {
    let own = (programs.iter()).map(|path| (path.clone(), problem.own_program_sources(path)));
    let submissions = entries.iter().filter_map(|entry| match entry {
        PlannedSubmission::Judge {
            submission, choice, ..
        } => {
            let problem = with_choice(problem.clone(), choice);
            Some((submission.clone(), problem.solution_sources(submission)))
        }
        PlannedSubmission::Settled(_) => None,
    });
    let builds = own.chain(submissions).collect();
    std::thread::scope(|scope| {
        let asked = scope.spawn(|| skip_unavailable(entries, problem, compiler));
        compiler.prebuild(builds, jobs);
        asked
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })
}

pub(super) fn with_choice(mut problem: Problem, choice: &Choice) -> Problem {
    if let Some(package) = problem.package.as_mut() {
        package.choice = choice.clone();
    }
    problem
}

/// submissions.yaml's `language` and `entrypoint`, or why the judge cannot follow them.
pub(super) fn choice_of(
    (language, entrypoint): (Option<String>, Option<String>),
) -> Result<Choice, NotJudged> {
    let language = match language {
        Some(code) => match Language::by_code(&code) {
            Some(language) => Some(language),
            None if is_format_code(&code) => return Err(NotJudged::LanguageNotRun(code)),
            None => return Err(NotJudged::NotALanguageCode(code)),
        },
        None => None,
    };
    Ok(Choice {
        language,
        entrypoint,
    })
}

pub(super) fn language_of(
    submission: &Path,
    choice: &Choice,
) -> Result<&'static Language, NotJudged> {
    match Sources::read_as(submission, choice) {
        Ok(sources) => Ok(sources.language),
        Err(Error::Language { fault, .. }) => Err(NotJudged::Language(fault)),
        Err(error) => Err(NotJudged::Unreadable(error)),
    }
}

/// As its row says it (the row names the submission).
#[derive(Debug, thiserror::Error)]
pub(super) enum NotJudged {
    #[error("neither its folder nor submissions.yaml says what it must get")]
    NoPromise,
    #[error("submissions.yaml asks `{0}` of it, which is not checked")]
    Unchecked(String),
    #[error("partially_accepted/ is for scoring problems, and this one is pass-fail")]
    PartiallyAcceptedPassFail,
    #[error("submissions.yaml names its language `{0}`, which this judge does not run")]
    LanguageNotRun(String),
    /// The package's fault: the format decides no language for the submission, so it does
    /// not build.
    #[error(
        "submissions.yaml names its language `{0}`, which is not a code of the package \
         format's languages table (`python3`, `cpp`, `java`, ...), so it does not build"
    )]
    NotALanguageCode(String),
    #[error("{}", .0.summary())]
    Language(LanguageFault),
    #[error("{0}")]
    Unreadable(Error),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_cannot_be_judged_says_why() {
        let dir = tempfile::tempdir().unwrap();
        let unknown = dir.path().join("notes.txt");
        std::fs::write(&unknown, "").unwrap();
        assert_eq!(
            language_of(&unknown, &Choice::default())
                .err()
                .map(|e| e.to_string())
                .as_deref(),
            Some("unknown language")
        );
        let folder = dir.path().join("mixed");
        std::fs::create_dir(&folder).unwrap();
        std::fs::write(folder.join("a.py"), "").unwrap();
        std::fs::write(folder.join("b.c"), "").unwrap();
        assert_eq!(
            language_of(&folder, &Choice::default())
                .err()
                .map(|e| e.to_string())
                .as_deref(),
            Some("cannot tell this folder's language")
        );
    }
}
