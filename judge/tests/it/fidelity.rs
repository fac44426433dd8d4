//! Files built and run as their judge does (tests/fixtures/fidelity): each solution there is
//! right only where its judge's commands, file rules and run folder hold, and the verdict
//! asserted is the one that judge gives.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use crate::common::{copy_tree, fixture, judge_in, stdout_of};

/// Whether `tool` is on this machine's PATH.
fn installed(tool: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {tool}")])
        .output()
        .is_ok_and(|output| output.status.success())
}

/// Whether gcc finds the static C library that `-static` needs.
fn static_libc() -> bool {
    Command::new("gcc")
        .arg("-print-file-name=libc.a")
        .output()
        .ok()
        .map(|output| String::from_utf8_lossy(&output.stdout).trim().to_owned())
        .is_some_and(|path| Path::new(&path).is_absolute())
}

#[test]
fn each_file_gets_the_verdict_its_judge_gives() {
    let repository = tempfile::tempdir().unwrap();
    copy_tree(Path::new(&fixture("fidelity")), repository.path());
    let output = judge_in(repository.path())
        .args(["run", "--format", "json"])
        // A variable of whoever started the judge: no program may see it.
        .env("JUDGE_FIDELITY_SECRET", "1")
        .output()
        .unwrap();
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let outcomes: BTreeMap<String, String> = report["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|problem| {
            let outcome = match problem["status"].as_str().unwrap() {
                "compile_error" => format!("CE {}", problem["compile_message"].as_str().unwrap()),
                _ => problem["cases"][0]["verdict"].as_str().unwrap().to_owned(),
            };
            (problem["id"].as_str().unwrap().to_owned(), outcome)
        })
        .collect();
    let stderr = String::from_utf8_lossy(&output.stderr);
    let outcome = |id: &str| outcomes.get(id).map_or("not judged", String::as_str);

    for accepted in ["boj_online_judge", "boj_jvm_flags", "boj_bare_environment"] {
        assert_eq!(
            outcome(accepted),
            "AC",
            "{accepted}: {outcomes:?}\n{stderr}"
        );
    }
    // Linked -static where the machine can; else said, and the program sees the difference.
    match static_libc() {
        true => assert_eq!(outcome("boj_static_link"), "AC", "{stderr}"),
        false => {
            assert_eq!(outcome("boj_static_link"), "WA");
            assert!(stderr.contains("linked without -static"), "{stderr}");
        }
    }
    match installed("node") {
        true => assert_eq!(outcome("boj_dev_stdin"), "AC", "{stderr}"),
        false => assert!(
            stderr.contains("`node` (JavaScript) is not installed"),
            "{stderr}"
        ),
    }
    for (id, reason) in [
        (
            "boj_package",
            "`package boj;`: Baekjoon compiles Main.java in no package",
        ),
        (
            "boj_public_class",
            "the public class is `Solution`: Baekjoon compiles Main.java",
        ),
        (
            "swea_class",
            "no class `Solution` (the class is `Main`): SW Expert Academy runs `java Solution`",
        ),
    ] {
        let found = outcome(id);
        assert!(
            found.starts_with("CE ") && found.contains(reason),
            "{id}: {found}"
        );
    }
}

#[test]
fn check_shows_the_judges_own_command() {
    let repository = tempfile::tempdir().unwrap();
    copy_tree(Path::new(&fixture("fidelity")), repository.path());
    let shown = stdout_of(
        judge_in(repository.path()).args([
            "check",
            "solutions/boj_online_judge.cpp",
            "--profile",
            "boj",
        ]),
        0,
    );
    // help.acmicpc.net/language/info
    assert!(
        shown.contains(
            "builds as C++17 with `g++ Main.cc -o Main -O2 -Wall -lm -static -std=gnu++17 -DONLINE_JUDGE -DBOJ`"
        ),
        "{shown}"
    );
    let refused = stdout_of(
        judge_in(repository.path()).args(["check", "solutions/boj_package.java"]),
        1,
    );
    assert!(
        refused.contains("does not build as Java 11")
            && refused.contains("a package line is a compile error there"),
        "{refused}"
    );
}

/// The `dev` link of a Baekjoon run folder stays from run to run (a link made anew set off
/// the watch that tells a run's leftovers, and every run's folders were emptied): it must
/// still be there, and be the link, after a run took it away or put a file in its place,
/// and a run of another judge in the same slot must not see it.
#[test]
fn the_dev_link_of_a_run_folder_survives_what_a_run_does_to_it() {
    let program = r#"import os
word = open("dev/stdin").read().split()[0]
if word == "remove":
    os.remove("dev")
elif word == "replace":
    os.remove("dev")
    with open("dev", "w") as mine:
        mine.write("mine")
print(word, os.readlink("dev") if os.path.islink("dev") else "no link", sorted(os.listdir(".")))
"#;
    let other = r#"import os
input()
print(sorted(os.listdir(".")))
"#;
    let mut files = vec![
        ("problems/a/problem.toml", "profile = \"boj\"\n"),
        ("solutions/a.py", program),
        ("problems/b/problem.toml", "profile = \"swea\"\n"),
        ("problems/b/tests/1.in", "x\n"),
        ("problems/b/tests/1.out", "[]\n"),
        ("solutions/b.py", other),
    ];
    let steps = ["look", "remove", "look", "replace", "look"];
    let cases: Vec<(String, String, String)> = steps
        .iter()
        .enumerate()
        .map(|(index, word)| {
            let after = match *word {
                "look" => "/dev ['dev']",
                "remove" => "no link []",
                _ => "no link ['dev']",
            };
            (
                format!("problems/a/tests/{}.in", index + 1),
                format!("{word}\n"),
                format!("{word} {after}\n"),
            )
        })
        .collect();
    for (path, given, _) in &cases {
        files.push((path, given));
    }
    let outs: Vec<(String, &str)> = cases
        .iter()
        .map(|(path, _, expected)| (path.replace(".in", ".out"), expected.as_str()))
        .collect();
    for (path, expected) in &outs {
        files.push((path, expected));
    }
    let repository = crate::common::repository_with(&files);
    let output = judge_in(repository.path())
        .args(["--jobs", "1", "run", "--format", "json"])
        .output()
        .unwrap();
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let verdicts: Vec<(String, String)> = report["problems"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|problem| {
            let id = problem["id"].as_str().unwrap().to_owned();
            problem["cases"]
                .as_array()
                .unwrap()
                .iter()
                .map(move |case| (id.clone(), case["verdict"].as_str().unwrap().to_owned()))
        })
        .collect();
    let all_accepted = verdicts.iter().all(|(_, verdict)| verdict == "AC");
    assert!(
        all_accepted && verdicts.len() == steps.len() + 1,
        "{verdicts:?}\n{}",
        String::from_utf8_lossy(&output.stdout)
    );
}
