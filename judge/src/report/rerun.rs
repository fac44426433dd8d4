//! The command that judges a problem (or one case of it) again, as a person types it.

use std::path::Path;

use crate::problem::{Problem, Repository};

/// As typed from the repository's root (where an id works from anywhere inside).
pub fn rerun_command(
    repository: &Repository,
    problem: &Problem,
    solution: &Path,
    case: Option<&str>,
) -> String {
    let by_id = repository.problems_dir().join(&problem.id) == problem.dir;
    let target = if by_id {
        problem.id.clone()
    } else {
        // A package judged from inside is the root itself: `.` names it there.
        match repository.relative(&problem.dir).display().to_string() {
            root if root.is_empty() => ".".to_owned(),
            relative => relative,
        }
    };
    let mut words = vec!["judge".to_owned(), "run".to_owned(), shell_word(&target)];
    if solution != problem.solution {
        words.push("--solution".into());
        words.push(shell_word(
            &repository.relative(solution).display().to_string(),
        ));
    }
    if let Some(case) = case {
        words.push("--case".into());
        words.push(shell_word(case));
    }
    words.join(" ")
}

/// `text` as one shell word: quoted only when it has to be.
fn shell_word(text: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "-_./:=+@%,".contains(c);
    if !text.is_empty() && text.chars().all(plain) {
        text.to_owned()
    } else {
        format!("'{}'", text.replace('\'', "'\\''"))
    }
}
