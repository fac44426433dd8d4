//! Every file `judge new` writes from a template, for every profile, checked by its own
//! language's tools (rustc, Python, the TOML parser), and the Rust templates before they
//! are filled in too. Running them is `tests/it/corpus.rs`'s: it generates, judges and
//! stresses each profile's new problem.

use std::collections::BTreeSet;
use std::process::Command;

use super::*;
use crate::toolchain::harness::builds::{all_succeed, present};

/// Each distinct program `judge new` writes, with its extension: the problem's files as
/// filled in for every profile, and the solution templates.
fn programs() -> BTreeSet<(&'static str, String)> {
    let mut programs = BTreeSet::new();
    for profile in Profile::ALL {
        for (file, text) in problem_files("p_1", profile, None) {
            match file.rsplit_once('.').map(|(_, extension)| extension) {
                Some("rs") => programs.insert(("rs", text)),
                Some("toml") if file != METADATA_FILE => programs.insert(("toml", text)),
                _ => false,
            };
        }
        programs.insert((
            "rs",
            solution_template(profile.online_judge().scaffold).to_owned(),
        ));
        programs.extend(python_template(profile).map(|python| ("py", python.to_owned())));
    }
    programs.insert(("rs", SOLUTION_CODEFORCES.to_owned()));
    programs
}

/// A type check of `code` as the judge's rustc builds it (warnings allowed: the Programmers
/// validator leaves a helper unused, for the user's own constraints).
fn rustc(dir: &std::path::Path, code: &str) -> Command {
    std::fs::create_dir(dir).unwrap();
    std::fs::write(dir.join("main.rs"), code).unwrap();
    let mut command = Command::new("rustc");
    command
        .current_dir(dir)
        .args(["--edition", "2021", "--emit=metadata", "main.rs"]);
    command
}

#[test]
fn every_file_judge_new_writes_builds_with_its_own_tools() {
    let root = tempfile::tempdir().unwrap();
    let mut builds = Vec::new();
    for (number, (extension, text)) in programs().into_iter().enumerate() {
        let dir = root.path().join(number.to_string());
        match extension {
            "rs" => builds.push(rustc(&dir, &text)),
            "py" => {
                std::fs::create_dir(&dir).unwrap();
                std::fs::write(dir.join("main.py"), &text).unwrap();
                let mut python = Command::new("python3");
                python
                    .current_dir(&dir)
                    .args(["-m", "py_compile", "main.py"]);
                builds.push(python);
            }
            _ => {
                let parsed = text.parse::<toml::Table>();
                assert!(parsed.is_ok(), "{text}\n{parsed:?}");
            }
        }
    }
    // The templates themselves: a placeholder is a comment, so each compiles as it is.
    for (name, template) in [
        ("reference", REFERENCE),
        ("gen", GENERATOR),
        ("validator", VALIDATOR),
    ] {
        builds.push(rustc(&root.path().join(name), template));
    }
    assert!(RECIPE.parse::<toml::Table>().is_ok(), "{RECIPE}");
    if present("rustc", true) && present("python3", true) {
        all_succeed(builds);
    }
}
