//! The result cache, as a user meets it: an unchanged run reuses every result and says so,
//! an edit re-judges exactly what depends on it, and the audit catches a kept result that a
//! new judging disagrees with; a damaged file costs nothing but its results.

use std::path::Path;

use serde_json::Value;

use crate::common::*;

const SOLUTION: &str = "import sys\na, b = map(int, sys.stdin.read().split())\nprint(a + b)\n";

/// A repository with problem `p` (three cases) and its Python solution, and a build cache of
/// its own.
fn repository() -> tempfile::TempDir {
    let mut files = vec![
        ("problems/p/problem.toml", "name = \"p\"\n".to_owned()),
        ("solutions/p.py", SOLUTION.to_owned()),
    ];
    for (name, input, output) in [("1", "1 2", "3"), ("2", "3 4", "7"), ("3", "5 6", "11")] {
        files.push((
            leak(format!("problems/p/tests/{name}.in")),
            format!("{input}\n"),
        ));
        files.push((
            leak(format!("problems/p/tests/{name}.out")),
            format!("{output}\n"),
        ));
    }
    let files: Vec<(&str, &str)> = files.iter().map(|(p, c)| (*p, c.as_str())).collect();
    repository_with(&files)
}

fn leak(text: String) -> &'static str {
    Box::leak(text.into_boxed_str())
}

/// `judge run --json` in `repo` with the cache below it, the audit's sample at `sample`
/// percent: the report.
fn run(repo: &Path, sample: u32) -> Value {
    run_with_lang(repo, sample, "C.UTF-8")
}

/// `run`, with `LANG` (which judged programs inherit, so it is in every key) set to `lang`.
fn run_with_lang(repo: &Path, sample: u32, lang: &str) -> Value {
    let output = judge_in(repo)
        .args(["run", "--format", "json"])
        .env("JUDGE_CACHE_DIR", repo.join("cache"))
        .env("JUDGE_CACHE_SAMPLE_PERCENT", sample.to_string())
        .env("JUDGE_CACHE_SEED", "7")
        .env("LANG", lang)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let start = stdout
        .find('{')
        .unwrap_or_else(|| panic!("no report:\n{stdout}"));
    serde_json::from_str(&stdout[start..]).unwrap()
}

/// (case, verdict, cached) of every case, in order.
fn cases(report: &Value) -> Vec<(String, String, bool)> {
    report["problems"][0]["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|case| {
            (
                case["name"].as_str().unwrap().to_owned(),
                case["verdict"].as_str().unwrap().to_owned(),
                case["cached"].as_bool().unwrap_or(false),
            )
        })
        .collect()
}

fn row(name: &str, verdict: &str, cached: bool) -> (String, String, bool) {
    (name.to_owned(), verdict.to_owned(), cached)
}

/// The one file the cache keeps for the repository's one solution.
fn kept_file(repo: &Path) -> std::path::PathBuf {
    let files: Vec<_> = std::fs::read_dir(repo.join("cache/results"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    files[0].clone()
}

/// How many results the repository's one file keeps.
fn kept_count(repo: &Path) -> usize {
    let kept: Value = serde_json::from_slice(&std::fs::read(kept_file(repo)).unwrap()).unwrap();
    kept["results"].as_object().unwrap().len()
}

/// Changes the kept result of case `name` with `change`, as a stale or forged entry would be.
fn edit_kept(repo: &Path, name: &str, change: impl Fn(&mut Value)) {
    let file = kept_file(repo);
    let mut kept: Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    for result in kept["results"].as_object_mut().unwrap().values_mut() {
        if result["name"] == name {
            change(result);
        }
    }
    std::fs::write(&file, serde_json::to_vec(&kept).unwrap()).unwrap();
}

#[test]
fn an_unchanged_run_reuses_every_result_and_an_edit_rejudges_what_depends_on_it() {
    let repo = repository();
    let first = run(repo.path(), 0);
    let fresh = [
        row("1", "AC", false),
        row("2", "AC", false),
        row("3", "AC", false),
    ];
    assert_eq!(cases(&first), fresh);
    let second = run(repo.path(), 0);
    let reused = [
        row("1", "AC", true),
        row("2", "AC", true),
        row("3", "AC", true),
    ];
    assert_eq!(cases(&second), reused);
    assert_eq!(second["summary"]["result_cache"]["reused"], 3);
    assert_eq!(second["summary"]["result_cache"]["sampled"], 0);
    // One answer edited: that case alone is judged again (and now fails).
    std::fs::write(repo.path().join("problems/p/tests/2.out"), "8\n").unwrap();
    let edited = run(repo.path(), 0);
    assert_eq!(
        cases(&edited),
        [
            row("1", "AC", true),
            row("2", "WA", false),
            row("3", "AC", true)
        ]
    );
    // The edited case's new result is kept beside its old one.
    assert_eq!(kept_count(repo.path()), 4);
    // The solution edited: every case is judged again.
    std::fs::write(repo.path().join("solutions/p.py"), format!("{SOLUTION}\n")).unwrap();
    let rebuilt = run(repo.path(), 0);
    assert_eq!(
        cases(&rebuilt),
        [
            row("1", "AC", false),
            row("2", "WA", false),
            row("3", "AC", false)
        ]
    );
    assert_eq!(kept_count(repo.path()), 7);
    // --no-cache judges everything and says nothing of a cache.
    let output = judge_in(repo.path())
        .args(["run", "--no-cache", "--format", "json"])
        .env("JUDGE_CACHE_DIR", repo.path().join("cache"))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let report: Value = serde_json::from_str(&stdout[stdout.find('{').unwrap()..]).unwrap();
    assert!(cases(&report).iter().all(|(_, _, cached)| !cached));
    assert!(report["summary"].get("result_cache").is_none());
}

#[test]
fn another_environment_and_an_edit_undone_find_their_own_results_up_to_four_a_case() {
    let repo = repository();
    let cached = |report: &Value| cases(report).iter().filter(|(.., c)| *c).count();
    // Two environments in turn: after one run each, each reuses its own results.
    assert_eq!(cached(&run_with_lang(repo.path(), 0, "C.UTF-8")), 0);
    assert_eq!(cached(&run_with_lang(repo.path(), 0, "en_US.UTF-8")), 0);
    assert_eq!(cached(&run_with_lang(repo.path(), 0, "C.UTF-8")), 3);
    assert_eq!(cached(&run_with_lang(repo.path(), 0, "en_US.UTF-8")), 3);
    // An answer edited, then put back: the first result is found again.
    std::fs::write(repo.path().join("problems/p/tests/2.out"), "8\n").unwrap();
    assert_eq!(
        cases(&run(repo.path(), 0)),
        [
            row("1", "AC", true),
            row("2", "WA", false),
            row("3", "AC", true)
        ]
    );
    std::fs::write(repo.path().join("problems/p/tests/2.out"), "7\n").unwrap();
    assert_eq!(
        cases(&run(repo.path(), 0)),
        [
            row("1", "AC", true),
            row("2", "AC", true),
            row("3", "AC", true)
        ]
    );
    // Three more environments: each case keeps its newest four, so the oldest is judged anew.
    for lang in ["C", "POSIX", "de_DE.UTF-8"] {
        assert_eq!(cached(&run_with_lang(repo.path(), 0, lang)), 0, "{lang}");
    }
    assert_eq!(kept_count(repo.path()), 12);
    assert_eq!(cached(&run_with_lang(repo.path(), 0, "de_DE.UTF-8")), 3);
    // The first environment's were the oldest of every case.
    assert_eq!(cached(&run_with_lang(repo.path(), 0, "C.UTF-8")), 0);
}

#[test]
fn a_sample_that_disagrees_drops_the_kept_results_and_a_damaged_file_is_rewritten() {
    let repo = repository();
    run(repo.path(), 0);
    // A kept result that is not what a judging gives: a sample of every result finds it.
    edit_kept(repo.path(), "2", |result| {
        result["verdict"] = "WA".into();
        result["verdict_text"] = "WA".into();
    });
    let audited = run(repo.path(), 100);
    assert_eq!(
        cases(&audited),
        [
            row("1", "AC", false),
            row("2", "AC", false),
            row("3", "AC", false)
        ]
    );
    let dropped = &audited["summary"]["result_cache"]["dropped"];
    assert!(
        dropped
            .to_string()
            .contains("p 2: kept WA, judged again AC"),
        "{dropped}"
    );
    // A file the cache cannot read is judged around and written anew.
    std::fs::write(kept_file(repo.path()), "{ not json").unwrap();
    let after_damage = run(repo.path(), 0);
    assert_eq!(
        cases(&after_damage),
        [
            row("1", "AC", false),
            row("2", "AC", false),
            row("3", "AC", false)
        ]
    );
    assert_eq!(kept_count(repo.path()), 3);
    assert_eq!(
        cases(&run(repo.path(), 0)),
        [
            row("1", "AC", true),
            row("2", "AC", true),
            row("3", "AC", true)
        ]
    );
}

#[test]
fn a_result_near_its_limit_is_always_judged_again() {
    let repo = repository();
    run(repo.path(), 0);
    // Baekjoon gives Python 3 × 1 s + 2 s: 4 s is within a quarter of it.
    edit_kept(repo.path(), "3", |result| {
        result["cpu_time_ms"] = 4000.0.into()
    });
    assert_eq!(
        cases(&run(repo.path(), 0)),
        [
            row("1", "AC", true),
            row("2", "AC", true),
            row("3", "AC", false)
        ]
    );
}
