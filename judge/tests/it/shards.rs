//! A run cut into shards and merged again: the shards run as separate processes at once, as
//! CI engines run them, and their merge must be the one run (same cases, verdicts and exit
//! code). The recipes' commands are read from docs/sharding.md and run as written.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

use serde_json::Value;

use super::common::*;

/// A repository with a problem judged in two languages, one a solution gets wrong on some
/// cases, and one whose solution does not compile: exit 1, with something of every kind to
/// put back together.
fn workload() -> tempfile::TempDir {
    let mut files: Vec<(String, String)> = vec![
        (
            "problems/sum/problem.toml".into(),
            "name = \"Sum\"\n".into(),
        ),
        (
            "problems/half/problem.toml".into(),
            "name = \"Half\"\n".into(),
        ),
        (
            "problems/ce/problem.toml".into(),
            "name = \"Broken\"\n".into(),
        ),
        ("problems/ce/tests/1.in".into(), "1\n".into()),
        ("problems/ce/tests/1.out".into(), "1\n".into()),
        (
            "solutions/sum.c".into(),
            "#include <stdio.h>\nint main(void) { long a, b; if (scanf(\"%ld %ld\", &a, &b) != 2) \
             return 1; printf(\"%ld\\n\", a + b); return 0; }\n"
                .into(),
        ),
        // Wrong on the inputs that are multiples of 3: three of its twelve cases.
        (
            "solutions/half.sh".into(),
            "read n\nif [ \"$n\" -gt 0 ] && [ $((n % 3)) -eq 0 ]; then echo \"$n\"; else echo $((n / 2)); fi\n"
                .into(),
        ),
        ("solutions/ce.c".into(), "int main(void) { nope }\n".into()),
    ];
    // Bash and C: programs that start in a millisecond, so that the many runs stay cheap.
    for i in 0..12 {
        files.push((
            format!("problems/sum/tests/{i:02}.in"),
            format!("{i} {}\n", i * 3),
        ));
        files.push((
            format!("problems/sum/tests/{i:02}.out"),
            format!("{}\n", i * 4),
        ));
        files.push((
            format!("problems/half/tests/h{i}.in"),
            format!("{}\n", i * 2),
        ));
        files.push((format!("problems/half/tests/h{i}.out"), format!("{i}\n")));
    }
    let files: Vec<(&str, &str)> = files
        .iter()
        .map(|(p, c)| (p.as_str(), c.as_str()))
        .collect();
    let dir = repository_with(&files);
    // The same problem in a second language: its cases are units of their own.
    std::fs::write(
        dir.path().join("solutions/sum.sh"),
        "read a b; echo $((a + b))\n",
    )
    .unwrap();
    dir
}

/// A judged case: solution, case name (empty for a compile error), verdict, place.
type Judged = (String, String, String, u64);
/// The variables an engine gives shard K.
type Variables = Vec<(String, String)>;
/// An engine: its recipe's heading, and its variables for shard K.
type Engine = (&'static str, fn(usize) -> Variables);

/// What must be the same in one run and its shards merged: every solution's cases with
/// their verdicts, in order, and the summary's counts.
fn outcome_of(report: &Value) -> (Vec<Judged>, Vec<Value>) {
    let cases = report["problems"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|problem| {
            let solution = problem["solution"].as_str().unwrap().to_owned();
            let status = problem["status"].as_str().unwrap().to_owned();
            let mut rows: Vec<_> = problem["cases"]
                .as_array()
                .unwrap()
                .iter()
                .map(|case| {
                    (
                        solution.clone(),
                        case["name"].as_str().unwrap().to_owned(),
                        case["verdict"].as_str().unwrap().to_owned(),
                        case["index"].as_u64().unwrap(),
                    )
                })
                .collect::<Vec<_>>();
            if status == "compile_error" {
                rows.push((solution, String::new(), "CE".to_owned(), 0));
            }
            rows
        })
        .collect();
    let summary = &report["summary"];
    let counts = [
        "problems",
        "cases",
        "accepted",
        "verdicts",
        "compile_errors",
        "errors",
        "outcome",
    ]
    .iter()
    .map(|key| summary[key].clone())
    .collect();
    (cases, counts)
}

/// One run of the whole workload: its report and exit code.
fn one_run(dir: &Path) -> (Value, i32) {
    let output = judge_in(dir)
        .args(["run", "--format", "json"])
        .output()
        .unwrap();
    let report = serde_json::from_slice(&output.stdout).unwrap();
    (report, output.status.code().unwrap())
}

/// `judge run --partition SHARD --json FILE` in `dir`: one shard, its report kept in FILE.
fn shard_run(dir: &Path, shard: &str, file: &str) -> assert_cmd::Command {
    let mut command = judge_in(dir);
    command.args(["run", "--partition", shard, "--json", file]);
    command
}

/// Runs `shards` scripts at once, each with its variables, and waits for them all.
fn run_at_once(dir: &Path, shards: Vec<(String, Variables)>) {
    let children: Vec<_> = shards
        .into_iter()
        .map(|(script, vars)| {
            let mut shell = in_judge_env(Command::new("sh"), dir);
            shell
                .args(["-c", &script])
                .envs(vars)
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::piped());
            (script, shell.spawn().unwrap())
        })
        .collect();
    for (script, child) in children {
        let output = child.wait_with_output().unwrap();
        assert!(output.status.success(), "{script}: {output:?}");
    }
}

/// Merges with `merge` (a shell command) and checks it against one run.
fn merged_is_one_run(dir: &Path, merge: &str, one: &(Value, i32)) {
    let merge = format!("{merge} --format json > merged-report.json");
    let status = in_judge_env(Command::new("sh"), dir)
        .args(["-c", &merge])
        .status()
        .unwrap();
    assert_eq!(
        status.code(),
        Some(one.1),
        "{merge}: not one run's exit code"
    );
    let text = std::fs::read_to_string(dir.join("merged-report.json")).unwrap();
    let merged: Value = serde_json::from_str(&text).unwrap();
    super::reports::assert_valid(&merged);
    assert_eq!(outcome_of(&merged), outcome_of(&one.0), "{merge}");
}

/// The recipe's shard and merge commands, as docs/sharding.md writes them under `heading`.
fn recipe(heading: &str) -> (String, String) {
    let docs = std::fs::read_to_string(repository_root().join("docs/sharding.md")).unwrap();
    let start = docs.find(&format!("### {heading}")).unwrap();
    let section = &docs[start + 4..];
    let section = &section[..section.find("\n### ").unwrap_or(section.len())];
    let command = |verb: &str| {
        let line = section
            .lines()
            .find(|line| line.contains(&format!("target/release/judge {verb}")))
            .unwrap_or_else(|| panic!("no `judge {verb}` under {heading}"));
        let from = &line[line.find("target/release/judge").unwrap()..];
        from[..from.find(['"', '`', '\'']).unwrap_or(from.len())].to_owned()
    };
    (command("run"), command("merge"))
}

/// A link from the repository's `target/release/judge` (as the recipes start it) to the
/// judge under test, and the folders the recipes write to.
fn as_in_the_recipes(dir: &Path) {
    std::fs::create_dir_all(dir.join("target/release")).unwrap();
    std::os::unix::fs::symlink(
        assert_cmd::cargo::cargo_bin("judge"),
        dir.join("target/release/judge"),
    )
    .unwrap();
    std::fs::create_dir_all(dir.join("reports")).unwrap();
    std::fs::create_dir_all(dir.join("shards")).unwrap();
}

fn vars(pairs: &[(&str, String)]) -> Variables {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect()
}

#[test]
fn each_recipe_run_as_its_engine_runs_it_merges_into_the_one_run() {
    let dir = workload();
    as_in_the_recipes(dir.path());
    let one = one_run(dir.path());
    assert_eq!(one.1, 1, "the workload has failures: {}", one.0);
    let engines: [Engine; 4] = [
        ("GitHub Actions matrix", |_| Vec::new()),
        ("GitLab `parallel:`", |k| {
            vars(&[
                ("CI_NODE_INDEX", k.to_string()),
                ("CI_NODE_TOTAL", "3".into()),
            ])
        }),
        ("Kubernetes Indexed Job", |k| {
            vars(&[
                ("JOB_COMPLETION_INDEX", (k - 1).to_string()),
                ("JUDGE_SHARDS", "3".into()),
            ])
        }),
        ("Slurm array", |k| {
            vars(&[
                ("SLURM_ARRAY_TASK_ID", k.to_string()),
                ("SLURM_ARRAY_TASK_COUNT", "3".into()),
                ("SLURM_ARRAY_TASK_MIN", "1".into()),
                ("SLURM_ARRAY_TASK_MAX", "3".into()),
            ])
        }),
    ];
    let mut cut = None;
    for (engine, variables) in engines {
        let (run, merge) = recipe(engine);
        for folder in [".", "reports", "shards"] {
            for entry in std::fs::read_dir(dir.path().join(folder)).unwrap() {
                let path = entry.unwrap().path();
                if path.extension().is_some_and(|e| e == "json") {
                    std::fs::remove_file(path).unwrap();
                }
            }
        }
        let shards = (1..=3)
            .map(|k| {
                (
                    run.replace("${{ matrix.shard }}", &k.to_string()),
                    variables(k),
                )
            })
            .collect();
        run_at_once(dir.path(), shards);
        merged_is_one_run(dir.path(), &merge, &one);
        // Every engine's variables name the shards `hash:K/3` names: the same cases each.
        let mut shard_cases = Vec::new();
        for folder in [".", "reports", "shards"] {
            let mut files: Vec<_> = std::fs::read_dir(dir.path().join(folder))
                .unwrap()
                .map(|entry| entry.unwrap().path())
                .filter(|path| {
                    path.file_name()
                        .is_some_and(|name| name.to_string_lossy().starts_with("shard-"))
                })
                .collect();
            files.sort();
            for file in files {
                let report: Value =
                    serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
                assert_eq!(report["run"]["partition"]["dealing"], "hash", "{engine}");
                shard_cases.push((
                    report["run"]["partition"]["shard"].clone(),
                    outcome_of(&report).0,
                ));
            }
        }
        match &cut {
            None => cut = Some(shard_cases),
            Some(first) => assert_eq!(&shard_cases, first, "{engine} cut otherwise"),
        }
    }
}

#[test]
fn two_and_seven_shards_merge_into_the_one_run_and_a_lost_or_doubled_shard_is_refused() {
    let dir = workload();
    let one = one_run(dir.path());
    for shards in [2, 7] {
        let scripts = (1..=shards)
            .map(|k| {
                let script = format!(
                    "\"$JUDGE\" run --partition hash:{k}/{shards} --json s{shards}-{k}.json; [ $? -le 1 ]"
                );
                (script, vars(&[("JUDGE", assert_cmd::cargo::cargo_bin("judge").display().to_string())]))
            })
            .collect();
        run_at_once(dir.path(), scripts);
        let files: Vec<String> = (1..=shards)
            .map(|k| format!("s{shards}-{k}.json"))
            .collect();
        let judge = assert_cmd::cargo::cargo_bin("judge").display().to_string();
        merged_is_one_run(
            dir.path(),
            &format!("'{judge}' merge {}", files.join(" ")),
            &one,
        );
    }
    let merge = |files: &[&str]| {
        let mut command = judge_in(dir.path());
        command.arg("merge").args(files);
        command
    };
    // The report for people too: the same failures, each with the command that judges it
    // alone, and the same counts.
    let failures_and_counts = |text: &str| -> Vec<String> {
        let table = text
            .lines()
            .skip_while(|line| !line.starts_with("Not accepted"));
        let mut lines: Vec<String> = table
            .take_while(|line| !line.is_empty())
            .map(str::to_owned)
            .collect();
        let summary = text
            .lines()
            .find(|line| line.starts_with("Summary"))
            .unwrap();
        lines.push(summary[..summary.find(" · compiled").unwrap()].to_owned());
        lines
    };
    let human_one = stdout_of(judge_in(dir.path()).arg("run"), 1);
    let files7: Vec<String> = (1..=7).map(|k| format!("s7-{k}.json")).collect();
    let human_merged = stdout_of(merge(&[]).args(&files7), 1);
    assert_eq!(
        failures_and_counts(&human_merged),
        failures_and_counts(&human_one)
    );
    // Shard 3 of 7 lost.
    let without_3: Vec<String> = files7
        .iter()
        .filter(|f| *f != "s7-3.json")
        .cloned()
        .collect();
    merge(&[])
        .args(&without_3)
        .assert()
        .code(2)
        .stderr(predicates::str::contains("shard 3/7 missing"));
    merge(&["s2-1.json", "s2-2.json", "s2-2.json"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "shard 2/2 given twice: s2-2.json and s2-2.json",
        ));
    merge(&["s2-1.json", "s7-2.json"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("cut as hash:K/2 and hash:K/7"));
    // What is there, marked partial, with the exit code of what it holds.
    let partial = stdout_of(merge(&[]).args(&without_3).arg("--allow-partial"), 1);
    assert!(partial.contains("Partial: shard 3/7 missing"), "{partial}");
    assert!(partial.contains("Merged from 6 of 7 shards"), "{partial}");
    // Quiet: what is missing still, what it was made of not.
    let quiet = stdout_of(merge(&["-q", "--allow-partial"]).args(&without_3), 1);
    assert!(quiet.contains("Partial: shard 3/7 missing"), "{quiet}");
    assert!(!quiet.contains("Merged from"), "{quiet}");
    // A shard of another case list is refused: one more case changes the fingerprint.
    std::fs::write(dir.path().join("problems/half/tests/new.in"), "8\n").unwrap();
    std::fs::write(dir.path().join("problems/half/tests/new.out"), "4\n").unwrap();
    shard_run(dir.path(), "hash:1/2", "grown-1.json")
        .assert()
        .code(1);
    merge(&["grown-1.json", "s2-2.json"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("cut from different case lists"));
    // A problem that cannot be loaded is every shard's error, and the merged report's once.
    std::fs::write(
        dir.path().join("problems/ce/problem.toml"),
        "time_limit_ms = \"x\"\n",
    )
    .unwrap();
    for k in ["1", "2"] {
        shard_run(dir.path(), &format!("hash:{k}/2"), &format!("bad-{k}.json"))
            .assert()
            .code(2);
    }
    let said = merge(&["bad-1.json", "bad-2.json"])
        .assert()
        .code(2)
        .get_output()
        .stderr
        .clone();
    let said = String::from_utf8(said).unwrap();
    assert_eq!(
        said.matches("problems/ce/problem.toml").count(),
        1,
        "{said}"
    );
}

/// The cases (solution, name) a report holds.
fn cases_of(report: &Value) -> BTreeSet<(String, String)> {
    outcome_of(report)
        .0
        .into_iter()
        .map(|(solution, name, _, _)| (solution, name))
        .collect()
}

#[test]
fn cases_added_to_a_problem_move_no_other_case_between_hash_shards() {
    let dir = workload();
    let shard = |k: usize| {
        let output = judge_in(dir.path())
            .args([
                "run",
                "--format",
                "json",
                "--partition",
                &format!("hash:{k}/3"),
            ])
            .output()
            .unwrap();
        cases_of(&serde_json::from_slice(&output.stdout).unwrap())
    };
    let before: Vec<_> = (1..=3).map(shard).collect();
    for i in 0..6 {
        std::fs::write(
            dir.path().join(format!("problems/sum/tests/added{i}.in")),
            "1 1\n",
        )
        .unwrap();
        std::fs::write(
            dir.path().join(format!("problems/sum/tests/added{i}.out")),
            "2\n",
        )
        .unwrap();
    }
    std::fs::remove_file(dir.path().join("problems/half/tests/h3.in")).unwrap();
    std::fs::remove_file(dir.path().join("problems/half/tests/h3.out")).unwrap();
    let after: Vec<_> = (1..=3).map(shard).collect();
    for (k, (old, new)) in before.iter().zip(&after).enumerate() {
        let kept: BTreeSet<_> = old
            .iter()
            .filter(|(_, name)| name != "h3")
            .cloned()
            .collect();
        let moved: Vec<_> = kept.difference(new).collect();
        assert!(moved.is_empty(), "shard {} lost {moved:?}", k + 1);
        let arrived: Vec<_> = new
            .difference(old)
            .filter(|(_, name)| !name.starts_with("added"))
            .collect();
        assert!(
            arrived.is_empty(),
            "shard {} gained old cases {arrived:?}",
            k + 1
        );
    }
}

#[test]
fn failed_re_runs_exactly_the_cases_not_accepted() {
    let dir = workload();
    let cache = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| {
        let mut command = judge_in(dir.path());
        command.env("JUDGE_CACHE_DIR", cache.path()).args(args);
        command
    };
    judge_in(dir.path())
        .args(["run", "--failed"])
        .env("JUDGE_CACHE_DIR", cache.path())
        .assert()
        .code(2)
        .stderr(predicates::str::contains("no earlier run"));
    let first: Value = serde_json::from_str(&stdout_of(
        run(&["run", "--format", "json"])
            .arg("--json")
            .arg("first.json"),
        1,
    ))
    .unwrap();
    let failed: BTreeSet<_> = outcome_of(&first)
        .0
        .into_iter()
        .filter(|(_, _, verdict, _)| verdict != "AC")
        .map(|(solution, name, _, _)| (solution, name))
        .collect();
    assert!(failed.len() >= 3, "{failed:?}");
    // From the run kept in the cache, then from a report named.
    for args in [
        vec!["run", "--failed"],
        vec!["run", "--failed", "first.json"],
    ] {
        let again: Value =
            serde_json::from_str(&stdout_of(run(&args).args(["--format", "json"]), 1)).unwrap();
        assert_eq!(cases_of(&again), failed, "{args:?}");
    }
    // Of one problem named, its failures alone; a problem's name is no report.
    let of_half: Value = serde_json::from_str(&stdout_of(
        &mut run(&["run", "half", "--failed", "first.json", "--format", "json"]),
        1,
    ))
    .unwrap();
    let half: BTreeSet<_> = (failed.iter())
        .filter(|(solution, _)| solution.contains("half"))
        .cloned()
        .collect();
    assert!(!half.is_empty() && half.len() < failed.len(), "{failed:?}");
    assert_eq!(cases_of(&of_half), half);
    run(&["run", "--failed", "half"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "`half` is a problem: `judge run half --failed` judges again",
        ));
    // Mended, the failures pass, and then nothing is left to re-run.
    std::fs::write(
        dir.path().join("solutions/half.sh"),
        "read n\necho $((n / 2))\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("solutions/ce.c"),
        "#include <stdio.h>\nint main(void) { puts(\"1\"); return 0; }\n",
    )
    .unwrap();
    run(&["run", "--failed"]).assert().code(0);
    run(&["run", "--failed"])
        .assert()
        .code(0)
        .stderr(predicates::str::contains("nothing to re-run"));
}

#[test]
fn a_kattis_package_judged_in_three_shards_scores_as_one_run() {
    let package = fixture("kattis/scoring_2025");
    let solution = format!("{package}/submissions/partial/in_range.py");
    let out = tempfile::tempdir().unwrap();
    let run = |extra: &[&str]| {
        let mut command = judge_in(out.path());
        command
            .args(["run", &package, "--solution", &solution])
            .args(extra);
        command
    };
    let one = run(&["--format", "json"]).output().unwrap();
    let one_report: Value = serde_json::from_slice(&one.stdout).unwrap();
    for k in 1..=3 {
        let shard = format!("hash:{k}/3");
        let file = format!("k{k}.json");
        let status = run(&["--partition", &shard, "--json", &file])
            .output()
            .unwrap()
            .status;
        assert!(status.code().unwrap() <= 1);
    }
    let merged = judge_in(out.path())
        .args(["merge", "k3.json", "k1.json", "k2.json", "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(merged.status.code(), one.status.code());
    let merged: Value = serde_json::from_slice(&merged.stdout).unwrap();
    assert_eq!(outcome_of(&merged), outcome_of(&one_report));
    assert_eq!(
        merged["problems"][0]["score"],
        one_report["problems"][0]["score"]
    );
}

#[test]
fn count_shards_balanced_by_an_earlier_reports_times_even_out_and_merge() {
    let dir = workload();
    let one = one_run(dir.path());
    // Every third case of the report made slow: dealt in order, shard 1 would get them all.
    let mut costs = one.0.clone();
    let mut cost_of = std::collections::HashMap::new();
    for problem in costs["problems"].as_array_mut().unwrap() {
        let solution = problem["solution"].as_str().unwrap().to_owned();
        for case in problem["cases"].as_array_mut().unwrap() {
            let slow = case["index"].as_u64().unwrap() % 3 == 0;
            let ms = if slow { 1000.0 } else { 1.0 };
            case["wall_time_ms"] = ms.into();
            cost_of.insert(
                (solution.clone(), case["name"].as_str().unwrap().to_owned()),
                ms,
            );
        }
    }
    std::fs::write(dir.path().join("costs.json"), costs.to_string()).unwrap();
    let mut totals = Vec::new();
    for k in 1..=3 {
        let file = format!("b{k}.json");
        shard_run(dir.path(), &format!("count:{k}/3"), &file)
            .args(["--balance", "costs.json"])
            .assert()
            .code(predicates::ord::le(1));
        let report: Value =
            serde_json::from_str(&std::fs::read_to_string(dir.path().join(&file)).unwrap())
                .unwrap();
        let total: f64 = cases_of(&report)
            .iter()
            .filter_map(|case| cost_of.get(case))
            .sum();
        totals.push(total);
    }
    let (low, high) = (
        totals.iter().copied().fold(f64::MAX, f64::min),
        totals.iter().copied().fold(0.0, f64::max),
    );
    assert!(high - low <= 1000.0, "shards' expected times {totals:?}");
    let judge = assert_cmd::cargo::cargo_bin("judge").display().to_string();
    merged_is_one_run(
        dir.path(),
        &format!("'{judge}' merge b1.json b2.json b3.json"),
        &one,
    );
    // A shard cut without the same costs is not of this run.
    shard_run(dir.path(), "count:2/3", "plain2.json")
        .assert()
        .code(predicates::ord::le(1));
    judge_in(dir.path())
        .args(["merge", "b1.json", "plain2.json", "b3.json"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "balanced by different case times",
        ));
    judge_in(dir.path())
        .args(["run", "--partition", "hash:1/3", "--balance", "costs.json"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("--balance is for count: shards"));
}

#[test]
fn a_merge_of_hosts_of_different_speed_names_the_verdicts_near_the_limit_it_could_change() {
    let dir = workload();
    for k in 1..=2 {
        shard_run(dir.path(), &format!("hash:{k}/2"), &format!("h{k}.json"))
            .assert()
            .code(predicates::ord::le(1));
    }
    let read = |file: &str| -> Value {
        serde_json::from_str(&std::fs::read_to_string(dir.path().join(file)).unwrap()).unwrap()
    };
    // Shard 2 as a host twice as slow would have judged it, one of its cases near the limit.
    let mut slow = read("h2.json");
    let fast_ms = read("h1.json")["run"]["host"]["calibration_ms"]
        .as_f64()
        .unwrap();
    assert!(fast_ms > 0.0, "a shard measures its host");
    slow["run"]["host"]["name"] = "slow-host".into();
    slow["run"]["host"]["calibration_ms"] = (fast_ms * 2.0).into();
    let judged = slow["problems"]
        .as_array()
        .unwrap()
        .iter()
        .position(|p| !p["cases"].as_array().unwrap().is_empty())
        .unwrap();
    let case = &mut slow["problems"][judged]["cases"][0];
    case["confirmed"] = true.into();
    let name = case["name"].as_str().unwrap().to_owned();
    let problem = slow["problems"][judged]["id"].as_str().unwrap().to_owned();
    std::fs::write(dir.path().join("h2.json"), slow.to_string()).unwrap();
    let human = String::from_utf8(
        judge_in(dir.path())
            .args(["merge", "h1.json", "h2.json"])
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    assert!(human.contains("Hosts differ in speed"), "{human}");
    assert!(human.contains(&format!("{problem} {name} ")), "{human}");
    assert!(human.contains("on slow-host"), "{human}");
    let merged: Value = serde_json::from_slice(
        &judge_in(dir.path())
            .args(["merge", "h1.json", "h2.json", "--format", "json"])
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    let marked: Vec<&Value> = merged["problems"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|p| p["cases"].as_array().unwrap())
        .filter(|case| case.get("judged_on").is_some())
        .collect();
    assert_eq!(marked.len(), 1, "{marked:?}");
    assert_eq!(marked[0]["judged_on"], "slow-host");
    assert_eq!(merged["run"]["merged"]["speed_ratio"], 2.0);
}

/// The first case of `report`, to edit.
fn first_case(report: &mut Value) -> &mut Value {
    report["problems"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .flat_map(|problem| problem["cases"].as_array_mut().unwrap())
        .next()
        .expect("a report with a case")
}

#[test]
fn a_report_read_back_with_a_value_no_run_writes_is_refused_naming_the_file() {
    let dir = workload();
    let cache = tempfile::tempdir().unwrap();
    let judge = |args: &[&str]| {
        let mut command = judge_in(dir.path());
        command.env("JUDGE_CACHE_DIR", cache.path()).args(args);
        command
    };
    judge(&["run", "--json", "run.json"]).assert().code(1);
    let written: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("run.json")).unwrap())
            .unwrap();
    let edited = |file: &str, verdict: &str| {
        let mut report = written.clone();
        first_case(&mut report)["verdict"] = verdict.into();
        std::fs::write(dir.path().join(file), report.to_string()).unwrap();
    };
    edited("unknown.json", "XX");
    // A code the judge knows, but never as a case's verdict.
    edited("whole.json", "CE");
    for (args, said) in [
        (vec!["run", "--failed", "unknown.json"], "XX"),
        (vec!["merge", "unknown.json"], "XX"),
        (vec!["merge", "whole.json"], "got `CE`"),
    ] {
        let file = args.last().unwrap();
        judge(&args)
            .assert()
            .code(2)
            .stderr(predicates::str::contains(*file))
            .stderr(predicates::str::contains(said));
    }
}
