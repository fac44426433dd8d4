//! Each caller, as the judge writes it for a small Programmers-style function, built by its
//! own language's compiler and run on two calls: the templates are only ever seen by those
//! compilers when a user runs them, so this is where a slip in one shows.

use std::path::Path;
use std::process::{Command, Stdio};

use super::{caller_placement, source, CallerPlacement, CALL_TIMES};
use crate::toolchain::language::{LanguageId, LANGUAGES};
use crate::toolchain::signature::Signature;

/// Whether `tool` is on `PATH`. When it is not, the test says so and goes on without it,
/// except on CI (`CI` set) for a tool that `.ci/run`'s machine is meant to have.
pub(crate) fn present(tool: &str, needed_on_ci: bool) -> bool {
    let path = std::env::var_os("PATH").unwrap_or_default();
    if std::env::split_paths(&path).any(|dir| dir.join(tool).is_file()) {
        return true;
    }
    assert!(
        !needed_on_ci || std::env::var_os("CI").is_none(),
        "CI builds every template: install {tool}"
    );
    eprintln!("no {tool} on PATH: its templates are not built here");
    false
}

/// Starts every command at once, so that the builds overlap, and fails naming each one that
/// did not succeed, with what it said.
pub(crate) fn all_succeed(commands: Vec<Command>) {
    let started: Vec<_> = commands
        .into_iter()
        .map(|mut command| {
            let shown = format!("{command:?}");
            let child = command
                .stdin(Stdio::null())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap_or_else(|error| panic!("{shown}: {error}"));
            (shown, child)
        })
        .collect();
    let mut failed = Vec::new();
    for (shown, child) in started {
        let output = child.wait_with_output().unwrap();
        if !output.status.success() {
            failed.push(format!(
                "{shown}: {}\n{}{}",
                output.status,
                String::from_utf8_lossy(&output.stdout),
                String::from_utf8_lossy(&output.stderr)
            ));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n\n"));
}

const SIGNATURE: &str = "solution(words: string[], k: int) -> int[]";
const CALLS: &str = "[\"ab\", \"c\"], 1\n\n[\"abcd\"], 10\n";
const RESULTS: &str = "[3, 2]\n[14]\n";

/// The user's file in each language: each word's length plus `k`, as Programmers' editor
/// would start it.
fn user_file(id: LanguageId) -> (&'static str, &'static str) {
    match id {
        LanguageId::Python3 => (
            "solution.py",
            "def solution(words, k):\n    return [len(w) + k for w in words]\n",
        ),
        LanguageId::JavaScript => (
            "solution.js",
            "function solution(words, k) {\n    return words.map((w) => w.length + k);\n}\n",
        ),
        LanguageId::Java => (
            "Solution.java",
            "class Solution {\n    public int[] solution(String[] words, int k) {\n        \
             int[] out = new int[words.length];\n        \
             for (int i = 0; i < words.length; i++) out[i] = words[i].length() + k;\n        \
             return out;\n    }\n}\n",
        ),
        LanguageId::Cpp => (
            "solution.cpp",
            "#include <string>\n#include <vector>\nusing namespace std;\n\n\
             vector<int> solution(vector<string> words, int k) {\n    vector<int> out;\n    \
             for (auto& w : words) out.push_back((int)w.size() + k);\n    return out;\n}\n",
        ),
        LanguageId::Kotlin => (
            "Solution.kt",
            "class Solution {\n    fun solution(words: Array<String>, k: Int): IntArray =\n        \
             words.map { it.length + k }.toIntArray()\n}\n",
        ),
        LanguageId::Rust => (
            "solution.rs",
            "fn solution(words: Vec<String>, k: i64) -> Vec<i64> {\n    \
             words.iter().map(|w| w.len() as i64 + k).collect()\n}\n",
        ),
        other => panic!("the judge writes no caller for {other:?}"),
    }
}

/// The build of one language's program in `dir`, and the command that runs it; `None` where
/// its compiler is not here.
fn build_and_run(
    id: LanguageId,
    dir: &Path,
    (files, class): &(Vec<String>, Option<&str>),
) -> Option<(Command, Command)> {
    // The JVM flags the judge gives its compilers: the same class files, on less CPU.
    let command = |program: &str, args: &[&str]| {
        let argv = std::iter::once(program).chain(args.iter().copied());
        let argv = crate::toolchain::compiler::with_jvm_flags(argv.map(str::to_owned).collect());
        let mut command = Command::new(&argv[0]);
        command.current_dir(dir).args(&argv[1..]);
        command
    };
    let files: Vec<&str> = files.iter().map(String::as_str).collect();
    let last = files[files.len() - 1];
    Some(match id {
        LanguageId::Python3 => {
            let build = [&["-m", "py_compile"][..], &files].concat();
            (command("python3", &build), command("python3", &[last]))
        }
        LanguageId::JavaScript if present("node", true) => (
            command("node", &["--check", last]),
            command("node", &[last]),
        ),
        LanguageId::Java => (
            command("javac", &[&["-encoding", "UTF-8"][..], &files].concat()),
            command("java", &["-cp", ".", class.unwrap()]),
        ),
        LanguageId::Cpp => (
            command(
                "g++",
                &[&["-std=gnu++17", "-o", "main"][..], &files].concat(),
            ),
            command("./main", &[]),
        ),
        // Debian's Kotlin (1.3) is years behind the language, but it is what Programmers'
        // callers are tested with, so `.ci/run` installs it.
        LanguageId::Kotlin if present("kotlinc", true) => (
            command("kotlinc", &[&["-d", "."][..], &files].concat()),
            command("kotlin", &["-cp", ".", class.unwrap()]),
        ),
        LanguageId::Rust => (
            command("rustc", &["--edition", "2021", "-o", "main", files[0]]),
            command("./main", &[]),
        ),
        _ => return None,
    })
}

/// The user's file and the caller, written into `dir` as the judge writes them: the caller
/// beside it (the file to start last), or after its last line; and the JVM's class to start.
fn write_program(
    id: LanguageId,
    dir: &Path,
    (user, code): (&str, &str),
) -> (Vec<String>, Option<&'static str>) {
    let language = LANGUAGES.iter().find(|l| l.id == id).unwrap();
    let signature = Signature::parse(SIGNATURE).unwrap();
    let caller = source(language, &signature, user, code).unwrap();
    match caller_placement(language).unwrap() {
        CallerPlacement::Beside { file, class } => {
            std::fs::write(dir.join(user), code).unwrap();
            std::fs::write(dir.join(file), caller).unwrap();
            (vec![user.to_owned(), file.to_owned()], class)
        }
        CallerPlacement::Appended => {
            std::fs::write(dir.join(user), format!("{code}{caller}")).unwrap();
            (vec![user.to_owned()], None)
        }
    }
}

#[test]
fn every_caller_builds_with_its_own_compiler_and_answers_two_calls() {
    every_caller_answers(user_file, RESULTS, true);
}

/// Files that count their calls in every kind of state the language has (globals, statics,
/// class fields, instance fields, implicit globals): each call must see none of the calls
/// before it, as on a judge that starts a new process per test.
fn counting_file(id: LanguageId) -> (&'static str, &'static str) {
    match id {
        LanguageId::Python3 => (
            // Named as published archives name them (a four-per-em space, Hangul, a quote).
            "혼자서\u{2005}하는 \"틱택토\".py",
            "calls = 0\nseen = []\n\ndef solution(words, k):\n    global calls\n    \
             calls += 1\n    seen.append(k)\n    return [calls, len(seen)]\n",
        ),
        LanguageId::JavaScript => (
            "혼자서\u{2005}하는 \"틱택토\".js",
            "let calls = 0;\nfunction solution(words, k) {\n    calls += 1;\n    \
             leaked = (typeof leaked === 'undefined' ? 0 : leaked) + 1;\n    \
             return [calls, leaked];\n}\n",
        ),
        LanguageId::Java => (
            "Solution.java",
            "class Solution {\n    static int calls = 0;\n    int mine = 0;\n    \
             public int[] solution(String[] words, int k) {\n        calls++;\n        \
             mine++;\n        return new int[] {calls, mine};\n    }\n}\n",
        ),
        LanguageId::Cpp => (
            "solution.cpp",
            "#include <string>\n#include <vector>\nusing namespace std;\nint calls = 0;\n\n\
             vector<int> solution(const vector<string>& words, int k) {\n    \
             static int mine = 0;\n    return {++calls, ++mine};\n}\n",
        ),
        // A top-level `var`, an `object`'s and a companion object's: static fields of classes
        // the caller defines again for every call.
        LanguageId::Kotlin => (
            "Solution.kt",
            "var calls = 0\n\nobject Seen {\n    var count = 0\n}\n\nclass Solution {\n    \
             companion object {\n        val shared = ArrayList<Int>()\n    }\n    var mine = 0\n    \
             fun solution(words: Array<String>, k: Int): IntArray {\n        calls++\n        \
             Seen.count++\n        shared.add(k)\n        mine++\n        \
             return intArrayOf(calls * Seen.count * shared.size, mine)\n    }\n}\n",
        ),
        LanguageId::Rust => (
            "solution.rs",
            "use std::sync::atomic::{AtomicI64, Ordering};\nstatic CALLS: AtomicI64 = \
             AtomicI64::new(0);\n\nfn solution(words: Vec<String>, k: i64) -> Vec<i64> {\n    \
             thread_local! { static MINE: std::cell::Cell<i64> = const { std::cell::Cell::new(0) }; }\n    \
             MINE.with(|m| m.set(m.get() + 1));\n    \
             vec![CALLS.fetch_add(1, Ordering::SeqCst) + 1, MINE.with(|m| m.get())]\n}\n",
        ),
        other => panic!("the judge writes no caller for {other:?}"),
    }
}

#[test]
fn every_call_starts_from_the_state_a_new_process_has() {
    every_caller_answers(counting_file, "[1, 1]\n[1, 1]\n", false);
}

/// Builds `file`'s program in every language the judge writes a caller for, runs it on
/// `CALLS`, and checks its answers are `results`, with a time for each call; `templates`
/// also checks the unfilled Python and JavaScript templates.
fn every_caller_answers(
    file: fn(LanguageId) -> (&'static str, &'static str),
    results: &str,
    templates: bool,
) {
    let languages = [
        LanguageId::Python3,
        LanguageId::JavaScript,
        LanguageId::Java,
        LanguageId::Cpp,
        LanguageId::Kotlin,
        LanguageId::Rust,
    ];
    let root = tempfile::tempdir().unwrap();
    let mut builds = Vec::new();
    let mut runs = Vec::new();
    for id in languages {
        let dir = root.path().join(format!("{id:?}"));
        std::fs::create_dir(&dir).unwrap();
        let program = write_program(id, &dir, file(id));
        if let Some((build, run)) = build_and_run(id, &dir, &program) {
            builds.push(build);
            runs.push((id, run));
        }
    }
    if templates {
        unfilled_templates_are_valid(root.path(), &mut builds, &runs);
    }
    all_succeed(builds);
    for (id, mut run) in runs {
        let mut child = run
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        std::io::Write::write_all(&mut child.stdin.take().unwrap(), CALLS.as_bytes()).unwrap();
        let output = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "{id:?}: {stderr}");
        assert_eq!(String::from_utf8_lossy(&output.stdout), results, "{id:?}");
        let times = stderr.trim_end().lines().last().unwrap_or("");
        let times = times.strip_prefix(CALL_TIMES).unwrap_or_else(|| {
            panic!("{id:?}: the last line of stderr gives no call times: {stderr}")
        });
        assert_eq!(times.split(',').count(), 2, "{id:?}: {stderr}");
    }
}

/// The Python and JavaScript templates are valid before they are filled in too.
fn unfilled_templates_are_valid(
    root: &Path,
    builds: &mut Vec<Command>,
    runs: &[(LanguageId, Command)],
) {
    let raw = root.join("template");
    std::fs::create_dir(&raw).unwrap();
    std::fs::write(raw.join("judge_call.py"), super::PYTHON).unwrap();
    std::fs::write(raw.join("judge_call.js"), super::JAVASCRIPT).unwrap();
    let mut python = Command::new("python3");
    python
        .current_dir(&raw)
        .args(["-m", "py_compile", "judge_call.py"]);
    builds.push(python);
    if runs.iter().any(|(id, _)| *id == LanguageId::JavaScript) {
        let mut node = Command::new("node");
        node.current_dir(&raw).args(["--check", "judge_call.js"]);
        builds.push(node);
    }
}

/// C as Programmers' template declares it: each array with its length, a table with its rows
/// and columns; every call from the state the program began with. (The shared test returns
/// an array, which a C caller cannot take: a caller for it is an `#error` that says why.)
#[test]
fn the_c_caller_passes_lengths_and_starts_every_call_afresh() {
    let c = LANGUAGES.iter().find(|l| l.id == LanguageId::C).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let signature =
        Signature::parse("solution(words: string[], k: int, grid: int[][], name: string) -> long")
            .unwrap();
    let user = "#include <stddef.h>\n#include <string.h>\nint calls = 0;\n\n\
        long long solution(const char* words[], size_t words_len, int k, int** grid, \
        size_t grid_rows, size_t grid_cols, const char* name) {\n    static int mine = 0;\n    \
        long long sum = k + (long long)strlen(name);\n    \
        for (size_t i = 0; i < words_len; i++) sum += (long long)strlen(words[i]);\n    \
        for (size_t r = 0; r < grid_rows; r++)\n        \
        for (size_t c = 0; c < grid_cols; c++) sum += grid[r][c];\n    \
        return (++calls + ++mine) * 1000 + sum;\n}\n";
    let caller = source(c, &signature, "solution.c", user).unwrap();
    std::fs::write(dir.path().join("solution.c"), format!("{user}{caller}")).unwrap();
    let gcc = |file: &str| {
        Command::new("gcc")
            .current_dir(dir.path())
            .args(["-O2", "-std=gnu11", "-o", "main", file])
            .output()
            .unwrap()
    };
    let built = gcc("solution.c");
    assert!(
        built.status.success(),
        "{}",
        String::from_utf8_lossy(&built.stderr)
    );
    let mut child = Command::new(dir.path().join("main"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let calls = "[\"ab\", \"c\"], 1, [[1, 2], [3, 4]], \"xyz\"\n\n[\"abcd\"], 10, [], \"\u{e9}\"\n";
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), calls.as_bytes()).unwrap();
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    // 1 + 3 + 10 + 3, then 10 + 4 + 2 (é is two bytes); each call its first: (1 + 1) * 1000.
    assert_eq!(String::from_utf8_lossy(&output.stdout), "2017\n2016\n");
    let times = stderr.trim_end().lines().last().unwrap_or("");
    assert_eq!(
        times.strip_prefix(CALL_TIMES).map(|t| t.split(',').count()),
        Some(2),
        "{stderr}"
    );

    let returns_array = Signature::parse(SIGNATURE).unwrap();
    let caller = source(c, &returns_array, "array.c", "").unwrap();
    std::fs::write(
        dir.path().join("array.c"),
        format!("int* solution(void);\n{caller}"),
    )
    .unwrap();
    let refused = gcc("array.c");
    assert!(!refused.status.success());
    assert!(
        String::from_utf8_lossy(&refused.stderr)
            .contains("no C caller for a function that returns an array"),
        "{}",
        String::from_utf8_lossy(&refused.stderr)
    );
}
