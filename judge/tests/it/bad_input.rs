//! Whatever a user's folders hold, the judge says what is wrong, names the file (and the key
//! or line), exits 2 and never panics; one broken problem does not stop the others.

use crate::common::*;

use std::ffi::OsStr;
use std::fs;
use std::os::unix::ffi::OsStrExt;

use predicates::prelude::*;

const SUM: &str = "use std::io::Read;\nfn main() { let mut s = String::new(); \
    std::io::stdin().read_to_string(&mut s).unwrap(); \
    let n: i64 = s.split_whitespace().map(|t| t.parse::<i64>().unwrap()).sum(); println!(\"{n}\"); }\n";

/// A repository with a good problem `good` (and its solution) plus `files`.
fn repository_with(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let mut all = vec![
        ("problems/good/tests/1.in", "1 2\n"),
        ("problems/good/tests/1.out", "3\n"),
        ("solutions/good.rs", SUM),
    ];
    all.extend_from_slice(files);
    for (path, contents) in all {
        let path = dir.path().join(path);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, contents).unwrap();
    }
    dir
}

/// Judges everything in a repository holding `files`: exit 2, `message` on stderr, the good
/// problem still judged.
fn rejects(files: &[(&str, &str)], message: &str) {
    let repository = repository_with(files);
    judge_in(repository.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains(message))
        .stderr(predicate::str::contains("panicked").not())
        .stdout(predicate::str::contains("good: 1/1 accepted"));
}

#[test]
fn malformed_problem_toml_names_file_line_and_key() {
    rejects(
        &[
            (
                "problems/bad/problem.toml",
                "name = \"x\"\ntime_limit_ms = \"fast\"\n",
            ),
            ("problems/bad/tests/1.in", ""),
            ("problems/bad/tests/1.out", ""),
        ],
        "problems/bad/problem.toml: line 2: invalid type: string \"fast\", expected u64",
    );
    rejects(
        &[
            ("problems/bad/problem.toml", "[limits]\ntime = 1\n"),
            ("problems/bad/tests/1.in", ""),
            ("problems/bad/tests/1.out", ""),
        ],
        "problems/bad/problem.toml: line 1: unknown field `limits`",
    );
    rejects(
        &[
            ("problems/bad/problem.toml", "name = \"unterminated\n"),
            ("problems/bad/tests/1.in", ""),
            ("problems/bad/tests/1.out", ""),
        ],
        "problems/bad/problem.toml: line 1: ",
    );
    rejects(
        &[
            ("problems/bad/problem.toml", "compare = \"fuzzy\"\n"),
            ("problems/bad/tests/1.in", ""),
            ("problems/bad/tests/1.out", ""),
        ],
        "problems/bad/problem.toml: line 1: unknown variant `fuzzy`",
    );
    rejects(
        &[
            (
                "problems/bad/problem.toml",
                "name = \"x\"\n[picture]\nrows = 3\n",
            ),
            ("problems/bad/tests/1.in", ""),
            ("problems/bad/tests/1.out", ""),
        ],
        "problems/bad/problem.toml: line 2: `picture` needs both `rows` and `cols`",
    );
}

#[test]
fn unpaired_files_are_named() {
    rejects(
        &[("problems/bad/tests/1.in", "")],
        "problems/bad/tests/1.in: input has no expected output",
    );
    rejects(
        &[("problems/bad/tests/1.out", "")],
        "problems/bad/tests/1.out: expected output has no input",
    );
    rejects(
        &[("problems/bad/tests/a/b/2.ans", "")],
        "problems/bad/tests/a/b/2.ans: expected output has no input",
    );
}

#[test]
fn unreadable_files_are_named() {
    let repository = repository_with(&[("problems/bad/tests/1.out", "")]);
    std::os::unix::fs::symlink(
        "/nonexistent/file",
        repository.path().join("problems/bad/tests/1.in"),
    )
    .unwrap();
    judge_in(repository.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("problems/bad/tests/1.in"))
        .stdout(predicate::str::contains("good: 1/1 accepted"));

    let repository = repository_with(&[
        ("problems/bad/tests/1.in", ""),
        ("problems/bad/tests/1.out", ""),
    ]);
    fs::create_dir(repository.path().join("problems/bad/problem.toml")).unwrap();
    judge_in(repository.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "problems/bad/problem.toml: Is a directory",
        ))
        .stdout(predicate::str::contains("good: 1/1 accepted"));
}

#[test]
fn missing_solution_and_empty_problem_are_named() {
    rejects(
        &[("problems/bad/tests/1.in", ""), ("problems/bad/tests/1.out", "")],
        "solutions/bad.rs: solution of `bad` not found (create it, or name another file with --solution)",
    );
    let repository = repository_with(&[]);
    fs::create_dir_all(repository.path().join("problems/empty/tests")).unwrap();
    judge_in(repository.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "problems/empty/tests: no test cases",
        ))
        .stdout(predicate::str::contains("good: 1/1 accepted"));
    fs::remove_dir(repository.path().join("problems/empty/tests")).unwrap();
    judge_in(repository.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "problems/empty: no test cases: expected a `tests/` folder",
        ));
}

#[test]
fn non_utf8_names_are_errors_not_skips() {
    let repository = repository_with(&[]);
    let bad_dir = repository
        .path()
        .join("problems")
        .join(OsStr::from_bytes(b"bad\xff"));
    fs::create_dir_all(bad_dir.join("tests")).unwrap();
    judge_in(repository.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "problem folder name is not valid UTF-8",
        ))
        .stdout(predicate::str::contains("good: 1/1 accepted"));

    let repository = repository_with(&[
        ("problems/bad/tests/1.in", ""),
        ("problems/bad/tests/1.out", ""),
        ("solutions/bad.rs", SUM),
    ]);
    let tests = repository.path().join("problems/bad/tests");
    fs::write(tests.join(OsStr::from_bytes(b"2\xfe.in")), "").unwrap();
    judge_in(repository.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("file name is not valid UTF-8"))
        .stdout(predicate::str::contains("good: 1/1 accepted"));
}

#[test]
fn empty_problems_folder_and_unknown_names() {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir(dir.path().join("problems")).unwrap();
    judge_in(dir.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("problems: no problem folders"));

    let repository = repository_with(&[]);
    judge_in(repository.path())
        .args(["run", "god"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no problem named `god`"))
        .stderr(predicate::str::contains("did you mean `good`?"));
}

#[test]
fn a_solution_path_that_is_a_folder_is_named() {
    let repository = repository_with(&[]);
    fs::create_dir(repository.path().join("folder.rs")).unwrap();
    judge_in(repository.path())
        .args(["run", "good", "--solution", "folder.rs"])
        .assert()
        .code(2)
        // A folder is a program of several files (as in a package); this one has none.
        .stderr(predicate::str::contains(
            "folder.rs: unknown language: no file in this folder has a known extension",
        ));
    judge_in(repository.path())
        .args(["run", "good", "--solution", "notes.txt"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "notes.txt: solution of `good` not found",
        ));
    fs::write(repository.path().join("notes.txt"), "hello\n").unwrap();
    judge_in(repository.path())
        .args(["run", "good", "--solution", "notes.txt"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("notes.txt: unknown language"));
}

#[test]
fn broken_recipes_are_named() {
    let repository = repository_with(&[(
        "problems/good/generators.toml",
        "[[generate]]\ngroup = \"g\"\nname = \"x\"\n",
    )]);
    judge_in(repository.path())
        .args(["gen", "good"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "problems/good/generators.toml: line 1: missing field `args`",
        ));
}

/// A repository with the problem `sum` of `judge new`, its cases generated.
fn generated_sum() -> tempfile::TempDir {
    let repository = repository_with(&[("solutions/Cargo.toml", "[package]\nname = \"s\"\n")]);
    new_with_recipe(repository.path(), "sum");
    judge_in(repository.path())
        .args(["gen", "sum"])
        .assert()
        .code(0);
    repository
}

#[test]
fn provenance_entries_that_lead_out_are_refused_and_nothing_is_removed() {
    for name in ["../../../outside/victim", "/ROOT/outside/victim"] {
        let repository = generated_sum();
        let root = repository.path();
        fs::create_dir(root.join("outside")).unwrap();
        fs::write(root.join("outside/victim.in"), "1\n").unwrap();
        fs::write(root.join("outside/victim.out"), "1\n").unwrap();
        let name = name.replace("/ROOT", &root.display().to_string());
        let hash = judge::problem::provenance::content_hash(b"1\n");
        let provenance = root.join("problems/sum/provenance.toml");
        let mut text = fs::read_to_string(&provenance).unwrap();
        let line = text.lines().count() + 2;
        text.push_str(&format!(
            "\n[cases.\"{name}\"]\ngenerator = \"gen.rs\"\ngenerator_hash = \"x\"\nargs = \"1\"\n\
             input_hash = \"{hash}\"\nreference = \"reference.rs\"\nreference_hash = \"x\"\n\
             output_hash = \"{hash}\"\n"
        ));
        fs::write(&provenance, text).unwrap();
        // Not even an old temporary file is swept from a folder refused.
        fs::write(root.join("problems/sum/tests/.judge-left.tmp"), "").unwrap();
        let before = snapshot(root);
        for args in [
            &["gen", "sum"][..],
            &["gen", "sum", "--check"],
            &["bless", "sum", "--write"],
        ] {
            judge_in(root)
                .args(args)
                .assert()
                .code(2)
                .stderr(predicate::str::contains(format!(
                    "problems/sum/provenance.toml: line {line}: case `"
                )))
                .stderr(predicate::str::contains("panicked").not());
        }
        assert_eq!(snapshot(root), before, "{name}: nothing written or removed");
    }
}

#[test]
fn gen_never_writes_through_a_symlinked_folder_leading_out() {
    let repository = repository_with(&[("solutions/Cargo.toml", "[package]\nname = \"s\"\n")]);
    let root = repository.path();
    new_with_recipe(root, "sum");
    let outside = tempfile::tempdir().unwrap();
    fs::create_dir_all(root.join("problems/sum/tests")).unwrap();
    std::os::unix::fs::symlink(outside.path(), root.join("problems/sum/tests/random")).unwrap();
    judge_in(root)
        .args(["gen", "sum"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "problems/sum/generators.toml: line 4: `group` `tests/random/x.in` goes through \
             `tests/random`, a symlink leading out of the problem folder",
        ));
    assert_eq!(fs::read_dir(outside.path()).unwrap().count(), 0);
    assert!(!root.join("problems/sum/provenance.toml").exists());

    // `judge add`'s automatic name goes through no such folder either.
    std::os::unix::fs::symlink(outside.path(), root.join("problems/sum/tests/manual")).unwrap();
    judge_in(root)
        .args(["add", "sum", "--from-reference"])
        .write_stdin("1 2\n")
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "goes through `tests/manual`, a symlink leading out of the problem folder",
        ));
    assert_eq!(fs::read_dir(outside.path()).unwrap().count(), 0);
}

#[test]
fn recipe_names_that_lead_out_are_refused_with_their_line() {
    for (key, group, name) in [
        ("group", "../../x", "r"),
        ("name", "random", "/tmp/r-{seed}"),
    ] {
        let repository = repository_with(&[("solutions/Cargo.toml", "[package]\nname = \"s\"\n")]);
        let root = repository.path();
        new_with_recipe(root, "sum");
        let recipe = root.join("problems/sum/generators.toml");
        let text = fs::read_to_string(&recipe)
            .unwrap()
            .replace("group = \"random\"", &format!("group = \"{group}\""))
            .replace("name = \"r-{seed}\"", &format!("name = \"{name}\""));
        fs::write(&recipe, text).unwrap();
        let before = snapshot(root);
        judge_in(root)
            .args(["gen", "sum"])
            .assert()
            .code(2)
            .stderr(predicate::str::contains(format!(
                "problems/sum/generators.toml: line {}: `{key}`",
                if key == "group" { 4 } else { 5 }
            )));
        assert_eq!(snapshot(root), before);
    }
}

#[test]
fn solution_and_checker_paths_must_stay_in_the_problem_folder() {
    rejects(
        &[
            (
                "problems/bad/problem.toml",
                "name = \"x\"\nsolution = \"../../solutions/good.rs\"\n",
            ),
            ("problems/bad/tests/1.in", "1\n"),
            ("problems/bad/tests/1.out", "1\n"),
        ],
        "problems/bad/problem.toml: line 2: `solution` `../../solutions/good.rs` has `..`",
    );
    rejects(
        &[
            ("problems/bad/problem.toml", "checker = \"/bin/true\"\n"),
            ("problems/bad/tests/1.in", "1\n"),
            ("problems/bad/tests/1.out", "1\n"),
            ("solutions/bad.rs", SUM),
        ],
        "problems/bad/problem.toml: line 1: `checker` `/bin/true` is absolute",
    );
}

#[test]
fn absurd_numbers_are_refused_with_file_line_and_key() {
    for (key, value) in [
        ("memory_limit_mib", "17592186044416"),
        ("output_limit_mib", "17592186044416"),
        ("stack_limit_mib", "17592186044416"),
        ("time_limit_ms", "18446744073709551615"),
        ("memory_limit_mib", "0"),
    ] {
        rejects(
            &[
                (
                    "problems/bad/problem.toml",
                    &format!("name = \"x\"\n{key} = {value}\n"),
                ),
                ("problems/bad/tests/1.in", "1\n"),
                ("problems/bad/tests/1.out", "1\n"),
                ("solutions/bad.rs", SUM),
            ],
            &format!("problems/bad/problem.toml: line 2: `{key}` = {value} is out of range"),
        );
    }
    for (key, value) in [
        ("memory", "17592186044416"),
        ("output", "0"),
        ("time_limit", "1e12"),
    ] {
        rejects(
            &[
                (
                    "problems/kat/problem.yaml",
                    &format!("name: Kat\nlimits:\n  {key}: {value}\n"),
                ),
                ("problems/kat/data/sample/1.in", "1\n"),
                ("problems/kat/data/sample/1.ans", "1\n"),
                ("problems/kat/submissions/accepted/sum.rs", SUM),
            ],
            &format!("problems/kat/problem.yaml: line 3: `limits.{key}` = "),
        );
    }

    let repository = repository_with(&[("solutions/Cargo.toml", "[package]\nname = \"s\"\n")]);
    let root = repository.path();
    new_with_recipe(root, "sum");
    let recipe = root.join("problems/sum/generators.toml");
    let text = fs::read_to_string(&recipe).unwrap();
    for (seeds, message) in [
        (
            "[0, 18446744073709551615]",
            "makes 18446744073709551616 cases: at most 10000 per entry",
        ),
        ("[0, 100000000]", "makes 100000001 cases"),
        ("[2, 1]", "is an empty range"),
    ] {
        fs::write(&recipe, text.replace("[1, 5]", seeds)).unwrap();
        judge_in(root)
            .args(["gen", "sum"])
            .assert()
            .code(2)
            .stderr(predicate::str::contains(format!(
                "problems/sum/generators.toml: line 7: `seeds` {seeds} {message}"
            )))
            .stderr(predicate::str::contains("panicked").not());
    }
    fs::write(&recipe, text.replace("size = 10", "size = 0")).unwrap();
    judge_in(root)
        .args(["stress", "sum", "--iterations", "1"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "problems/sum/generators.toml: line 12: `size` = 0 is out of range: expected 1 to 1000000",
        ));
}
