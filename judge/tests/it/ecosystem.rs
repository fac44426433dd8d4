//! Other languages, Kattis packages, custom checkers and the submission check, tried as a
//! user would with the real binary.

use crate::common::*;

use std::fs;
use std::path::Path;

use predicates::prelude::*;

/// The cases each language is judged on, in a copy of our boj_7682: the sample (where the
/// wrong solutions fail) and one part of the exhaustive corpus, a full-size input. The Rust
/// solution is judged on all of them by the repository's own test; all of them again per
/// language cost half a minute, most of it starting JVMs.
const LANGUAGE_CASES: [&str; 4] = ["--case", "sample/*", "--case", "exhaustive/part-1"];

#[test]
fn every_language_is_judged_against_our_problem() {
    let copy = copy_of_problem("boj_7682");
    for extension in ["c", "cpp", "java", "py"] {
        judge_in(copy.path())
            .args([
                "run",
                "boj_7682",
                "--solution",
                &fixture(&format!("languages/accepted.{extension}")),
            ])
            .args(LANGUAGE_CASES)
            .assert()
            .code(0)
            .stdout(predicate::str::contains("boj_7682: "))
            .stdout(predicate::str::contains(" WA ").not());
        judge_in(copy.path())
            .args([
                "run",
                "boj_7682",
                "--solution",
                &fixture(&format!("languages/wrong.{extension}")),
            ])
            .args(LANGUAGE_CASES)
            .assert()
            .code(1)
            .stdout(predicate::str::contains(" WA "));
    }
}

#[test]
fn syntax_errors_are_compile_errors_in_every_language() {
    let dir = tempfile::tempdir().unwrap();
    let copy = copy_of_problem("boj_7682");
    for (file, text) in [
        ("broken.c", "int main( { return 0; }\n"),
        ("broken.cpp", "int main() { return 0 }\n"),
        (
            "broken.java",
            "public class Main { public static void main(String[] a) { int x = ; } }\n",
        ),
        ("broken.py", "print(1\n"),
    ] {
        let path = dir.path().join(file);
        fs::write(&path, text).unwrap();
        judge_in(copy.path())
            .args(["run", "boj_7682", "--solution"])
            .arg(&path)
            .assert()
            .code(1)
            .stdout(predicate::str::contains(
                "CE  the solution does not compile",
            ))
            .stdout(predicate::str::contains(path.display().to_string()));
    }
}

#[test]
fn a_missing_toolchain_stops_only_the_problems_that_need_it() {
    let repository = tempfile::tempdir().unwrap();
    let root = repository.path();
    for (path, text) in [
        ("problems/java_one/tests/1.in", "1 2\n"),
        ("problems/java_one/tests/1.out", "3\n"),
        ("problems/java_one/problem.toml", "solution = \"Main.java\"\n"),
        ("problems/java_one/Main.java", "public class Main { public static void main(String[] a) { System.out.println(3); } }\n"),
        ("problems/kotlin_one/tests/1.in", "1 2\n"),
        ("problems/kotlin_one/tests/1.out", "3\n"),
        ("problems/kotlin_one/problem.toml", "solution = \"sum.kt\"\n"),
        ("problems/kotlin_one/sum.kt", "fun main() { println(3) }\n"),
        ("problems/python_one/tests/1.in", "1 2\n"),
        ("problems/python_one/tests/1.out", "3\n"),
        ("problems/python_one/problem.toml", "solution = \"sum.py\"\n"),
        ("problems/python_one/sum.py", "import sys\nprint(sum(map(int, sys.stdin.read().split())))\n"),
    ] {
        let path = root.join(path);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    }
    // A PATH with Python alone: no javac, no java, no kotlinc. Each is named for the
    // solution that needs it, with how to install it.
    judge_in(root)
        .env("PATH", python_only_path(root))
        .env("JUDGE_CACHE_DIR", root.join("cache"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "Main.java: not judged: `javac` (Java) is not installed; install it: apt-get install default-jdk-headless",
        ))
        .stderr(predicate::str::contains(
            "sum.kt: not judged: `kotlinc` (Kotlin) is not installed; install it: apt-get install kotlin",
        ))
        .stdout(predicate::str::contains("python_one: 1/1 accepted"));
}

#[test]
fn kattis_packages_are_judged_with_their_limits_groups_and_validator_flags() {
    let output = judge()
        .args([
            "run",
            "--verbose",
            &fixture("kattis_mean"),
            "--solution",
            &fixture("kattis_mean/submissions/accepted/mean.py"),
        ])
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let report = String::from_utf8(output).unwrap();
    for case in ["sample/1", "sample/2", "secret/small/1", "secret/large/3"] {
        assert!(report.contains(case), "{case} missing from:\n{report}");
    }
    // The package's own default solution is its first accepted submission.
    judge()
        .args(["run", &fixture("kattis_mean")])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("submissions/accepted/mean.cpp"));
}

#[test]
fn the_fixture_packages_pass_verify() {
    judge()
        .args(["verify", &fixture("kattis_mean")])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("time_limit_exceeded/spins.cpp"))
        .stdout(predicate::str::contains(
            "kattis_mean: 9 submissions, 0 mismatches",
        ));
    judge()
        .args(["verify", &fixture("kattis_pairs")])
        .assert()
        .code(0)
        .stdout(predicate::str::contains(
            "kattis_pairs: 3 submissions, 0 mismatches",
        ));
}

#[test]
fn verify_catches_a_submission_in_the_wrong_folder() {
    let scratch = tempfile::tempdir().unwrap();
    let package = scratch.path().join("pairs");
    copy_tree(Path::new(&fixture("kattis_pairs")), &package);
    fs::rename(
        package.join("submissions/wrong_answer/off_by_one.py"),
        package.join("submissions/accepted/off_by_one.py"),
    )
    .unwrap();
    fs::create_dir(package.join("submissions/slow")).unwrap();
    judge()
        .args(["verify"])
        .arg(&package)
        .assert()
        .code(1)
        .stdout(
            predicate::str::is_match(r"accepted/off_by_one.py\s+accepted\s+[^\n]*WA[^\n]*MISMATCH")
                .unwrap(),
        )
        // A folder with no known verdict is shown as not judged, not counted as a mismatch.
        .stdout(
            predicate::str::is_match(r"slow\s+slow\s+not judged\s+skipped \(no verdict is known")
                .unwrap(),
        );
}

#[test]
fn testlib_checker_accepts_any_right_answer_and_a_broken_checker_is_a_judge_error() {
    for (solution, code, text) in [
        ("first_pair.py", 0, "4/4 accepted"),
        ("last_pair.py", 0, "4/4 accepted"),
        ("off_by_one.py", 1, "need 1 <= i < j <= n, got i=0 j=2 n=3"),
    ] {
        judge()
            .args([
                "run",
                &fixture("checker_pairs"),
                "--solution",
                &fixture(&format!("checker_pairs/solutions/{solution}")),
            ])
            .assert()
            .code(code)
            .stdout(predicate::str::contains(text));
    }
    let scratch = tempfile::tempdir().unwrap();
    let problem = scratch.path().join("pairs");
    copy_tree(Path::new(&fixture("checker_pairs")), &problem);
    let metadata = fs::read_to_string(problem.join("problem.toml"))
        .unwrap()
        .replace("\"checker.py\"", "\"broken_checker.py\"");
    fs::write(problem.join("problem.toml"), metadata).unwrap();
    judge()
        .args(["run"])
        .arg(&problem)
        .assert()
        .code(1)
        .stdout(predicate::str::contains("JE"))
        .stdout(predicate::str::contains(
            "checker ended with exit 5, which its protocol does not allow",
        ))
        .stdout(predicate::str::contains(" WA ").not());
}

#[test]
fn check_passes_our_solution_and_names_what_would_fail_on_the_judge() {
    judge()
        .args(["check", "solutions/boj_2615.rs", "--profile", "boj"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains(
            "builds as Rust 2021 with `rustc --edition 2021 -O -o Main Main.rs`",
        ))
        .stdout(
            predicate::str::contains("within the 64.0 KiB code-size limit")
                .or(predicate::str::contains("code-size limit")),
        )
        .stdout(predicate::str::contains("boj_2615: "))
        .stdout(predicate::str::contains("submit: "));

    let dir = tempfile::tempdir().unwrap();
    let with_crate = dir.path().join("boj_7682.rs");
    fs::write(&with_crate, "use itertools::Itertools;\nfn main() {}\n").unwrap();
    judge()
        .args(["check"])
        .arg(&with_crate)
        .assert()
        .code(1)
        .stdout(predicate::str::contains("uses the crate `itertools`"))
        .stdout(predicate::str::contains("does not build"))
        .stdout(predicate::str::contains("submit:").not());

    // A problem of one case: what is checked is the class name, as a build error there and
    // in the run, not a JVM start for each of a real problem's cases.
    let repository = repository_with(&[
        ("problems/sum/tests/1.in", "1 2\n"),
        ("problems/sum/tests/1.out", "3\n"),
        (
            "Solution.java",
            "import java.util.*;\npublic class Solution { public static void main(String[] a) {\n\
             Scanner in = new Scanner(System.in); long s = 0;\n\
             while (in.hasNextLong()) s += in.nextLong(); System.out.println(s); } }\n",
        ),
    ]);
    judge_in(repository.path())
        .args(["check", "--problem", "sum", "Solution.java"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "does not build as Java 11 with `javac --release 11 -J-Xms1024m -J-Xmx1920m -J-Xss512m -encoding UTF-8 Main.java`",
        ))
        .stdout(predicate::str::contains(
            "the public class is `Solution`: Baekjoon compiles Main.java",
        ))
        .stdout(predicate::str::contains("CE  the solution does not compile"));
}

#[test]
fn rust_files_whose_names_are_not_crate_names_build() {
    for name in ["my sol.rs", "sol.v2.rs", "a+b.rs", "2048.rs"] {
        let solution = format!("solutions/{name}");
        let repository = repository_with(&[
            ("problems/sum/tests/1.in", "1 2\n"),
            ("problems/sum/tests/1.out", "3\n"),
            (&solution, SUM_SOLUTION),
        ]);
        judge_in(repository.path())
            .args(["run", "sum", "--solution", &solution])
            .assert()
            .code(0)
            .stdout(predicate::str::contains("sum: 1/1 accepted"));
    }
}

#[test]
fn a_python_behind_a_version_managers_shim_runs_as_itself() {
    // A shim (a script that finds the interpreter and starts it, as pyenv's does, at a cost
    // of 0.1 s of CPU every time) is asked once where the interpreter is: the cases start the
    // interpreter itself.
    let real = real_python().display().to_string();
    let mut files = vec![
        (
            "problems/p/problem.toml".to_owned(),
            "name = \"p\"\n".to_owned(),
        ),
        (
            "solutions/p.py".to_owned(),
            "print(sum(map(int, input().split())))\n".to_owned(),
        ),
    ];
    for case in 1..=6 {
        files.push((format!("problems/p/tests/{case}.in"), format!("{case} 1\n")));
        files.push((
            format!("problems/p/tests/{case}.out"),
            format!("{}\n", case + 1),
        ));
    }
    let borrowed: Vec<(&str, &str)> = files
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    let dir = repository_with(&borrowed);
    let bin = dir.path().join("bin");
    fs::create_dir(&bin).unwrap();
    let log = dir.path().join("shim.log");
    let shim = bin.join("python3");
    fs::write(
        &shim,
        format!(
            "#!/bin/sh\necho started >> '{}'\nexec '{real}' \"$@\"\n",
            log.display()
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(&shim, fs::Permissions::from_mode(0o755)).unwrap();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    judge_in(dir.path())
        .env("PATH", path)
        .args(["run", "p"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("6/6 accepted"));
    // At most: its version, where the interpreter is, the syntax check; never once a case.
    let started = fs::read_to_string(&log).unwrap_or_default().lines().count();
    assert!(started <= 3, "the shim started {started} times for 6 cases");
}

#[test]
fn pyenvs_choice_is_kept_until_what_pyenv_reads_changes() {
    // pyenv's shim answers which interpreter it stands for from the `.python-version` of the
    // folder, `PYENV_VERSION` and the installed versions; the judge asks it again only when
    // one of those changes.
    let dir = repository_with(&[
        ("problems/p/problem.toml", "name = \"p\"\n"),
        ("problems/p/tests/1.in", "1 2\n"),
        ("problems/p/tests/1.out", "3\n"),
        ("solutions/p.py", "print(sum(map(int, input().split())))\n"),
        (".python-version", "3.11\n"),
    ]);
    let root = dir.path().join("pyenv");
    let shims = root.join("shims");
    fs::create_dir_all(&shims).unwrap();
    fs::create_dir_all(root.join("versions/3.11")).unwrap();
    let log = dir.path().join("shim.log");
    let shim = shims.join("python3");
    let real = real_python().display().to_string();
    let script = format!(
        "#!/bin/sh\n# as pyenv's shim: exec pyenv exec python3\necho started >> '{}'\nexec '{real}' \"$@\"\n",
        log.display()
    );
    fs::write(&shim, script).unwrap();
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(&shim, fs::Permissions::from_mode(0o755)).unwrap();
    let path = format!(
        "{}:{}",
        shims.display(),
        toolchains_first_path().to_string_lossy()
    );
    let cache = tempfile::tempdir().unwrap();
    let asked = |version: Option<&str>| {
        let _ = fs::remove_file(&log);
        let mut judge = judge_in(dir.path());
        judge
            .env("PATH", &path)
            .env("JUDGE_CACHE_DIR", cache.path())
            .env_remove("PYENV_VERSION")
            .args(["run", "p"]);
        if let Some(version) = version {
            judge.env("PYENV_VERSION", version);
        }
        judge
            .assert()
            .code(0)
            .stdout(predicate::str::contains("1/1 accepted"));
        fs::read_to_string(&log).unwrap_or_default().lines().count()
    };
    assert_eq!(asked(None), 1, "the first run asks the shim");
    assert_eq!(asked(None), 0, "nothing pyenv reads changed");
    fs::write(dir.path().join(".python-version"), "3.12\n").unwrap();
    assert_eq!(asked(None), 1, "another .python-version");
    assert_eq!(asked(None), 0, "that answer is kept too");
    assert_eq!(asked(Some("system")), 1, "PYENV_VERSION chooses");
    fs::create_dir_all(root.join("versions/3.12")).unwrap();
    assert_eq!(asked(None), 1, "a version installed");
}
