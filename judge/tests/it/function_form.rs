//! Function-form problems (Programmers): the file people paste, the function alone, judged
//! as the judge calls it, one call per input line, each call under the limit.

use std::fs;
use std::path::Path;

use crate::common::*;

/// Whether Kotlin's compiler is here; where it is not, the test goes on without Kotlin, except
/// on CI, whose machine `.ci/run` gives one.
fn kotlinc_here() -> bool {
    let here = on_path("kotlinc");
    if !here {
        skip_off_ci("no kotlinc on PATH: the Kotlin files are not judged");
    }
    here
}

/// Judges `file` (a fixture's name, or a path) on our problem 160585 in a copy.
fn judged(file: &Path, code: i32) -> String {
    let repository = copy_of_problem("programmers_160585");
    let output = judge_in(repository.path())
        .args(["run", "programmers_160585", "--solution"])
        .arg(file)
        .assert()
        .code(code)
        .get_output()
        .clone();
    format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

/// Writes `code` as `name` in `repository` and judges it on `problem`: the report, when the
/// judge exits with `code`.
fn judged_file(repository: &Path, problem: &str, name: &str, code: &str, exit: i32) -> String {
    let file = repository.join(name);
    fs::write(&file, code).unwrap();
    stdout_of(
        judge_in(repository)
            .args(["run", problem, "--solution"])
            .arg(&file),
        exit,
    )
}

/// A function-form problem whose answer to each call is 1 + 2 + ... + n.
fn sums_repository() -> tempfile::TempDir {
    repository_with(&[
        (
            "problems/sums/problem.toml",
            "profile = \"programmers\"\nfunction = \"solution(n: int) -> int\"\n",
        ),
        ("problems/sums/tests/three.in", "1\n2\n3\n"),
        ("problems/sums/tests/three.out", "1\n3\n6\n"),
    ])
}

#[test]
fn the_function_alone_is_accepted_in_every_language_the_judge_calls() {
    // Python: our own file's function, its stdin adapter (below the marker line) cut off.
    let ours =
        fs::read_to_string(repository_root().join("solutions/programmers_160585.py")).unwrap();
    let (function, _adapter) = ours.split_once("# --- stdin adapter").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let python = dir.path().join("programmers_160585.py");
    fs::write(&python, function).unwrap();
    let report = judged(&python, 0);
    assert!(report.contains("17/17 accepted"), "py: {report}");
    // Called as Programmers calls it, with the board alone: a parameter with a default may be
    // left out in Python, and any may in JavaScript; a `sys.stdin` alias reads nothing.
    let defaulted = function.replace("def solution(board):", "def solution(board, seen=None):");
    let aliased = format!("import sys\ninput = sys.stdin.readline\n{defaulted}");
    fs::write(&python, aliased).unwrap();
    let report = judged(&python, 0);
    assert!(report.contains("17/17 accepted"), "py, defaulted: {report}");
    let js = fs::read_to_string(fixture("function_form/solution_160585.js")).unwrap();
    for signature in [
        "function solution(board, cells)",
        "function solution(board = [])",
    ] {
        let file = dir.path().join("programmers_160585.js");
        fs::write(&file, js.replace("function solution(board)", signature)).unwrap();
        let report = judged(&file, 0);
        assert!(report.contains("17/17 accepted"), "{signature}: {report}");
    }
    // Rust: our own file without its `main` (it opens with `//!` lines, and keeps its tests).
    let ours =
        fs::read_to_string(repository_root().join("solutions/programmers_160585.rs")).unwrap();
    let (function, rest) = ours.split_once("fn main() {").unwrap();
    let tests = &rest[rest.find("#[cfg(test)]").unwrap()..];
    let rust = dir.path().join("programmers_160585.rs");
    fs::write(&rust, format!("{function}{tests}")).unwrap();
    let report = judged(&rust, 0);
    assert!(report.contains("17/17 accepted"), "rs: {report}");
    // Kotlin where it is installed (CI installs it). Each caller meets every kind of board on
    // the samples and the 2,500 random calls; the exhaustive cases' 19,683 calls, one process
    // each, would test the files rather than their callers, four times over.
    let kotlin = kotlinc_here().then_some("kt");
    for language in ["java", "cpp", "js"].into_iter().chain(kotlin) {
        let file = fixture(&format!("function_form/solution_160585.{language}"));
        let repository = copy_of_problem("programmers_160585");
        let report = stdout_of(
            judge_in(repository.path())
                .args(["run", "programmers_160585", "--case", "sample/*"])
                .args(["--case", "random/*", "--solution", &file]),
            0,
        );
        assert!(report.contains("9/9 accepted"), "{language}: {report}");
    }
}

#[test]
fn each_fault_is_the_users_with_its_reason() {
    let dir = tempfile::tempdir().unwrap();
    let file = |name: &str, text: &str| {
        let path = dir.path().join(name);
        fs::write(&path, text).unwrap();
        path
    };
    let wrong = judged(&file("wrong.py", "def solution(board):\n    return 1\n"), 1);
    assert!(
        wrong.contains(
            "expected `0`, got `1`; the call, input line 1: solution([\"OOO\", \"...\", \"XXX\"])"
        ),
        "{wrong}"
    );
    let missing = judged(&file("missing.py", "def solve(board):\n    return 1\n"), 1);
    assert!(
        missing.contains("CE")
            && missing.contains(
                "no function `solution`: the judge calls `solution(board: string[]) -> int`"
            ),
        "{missing}"
    );
    let arity = judged(
        &file("arity.py", "def solution(board, k):\n    return 1\n"),
        1,
    );
    assert!(
        arity.contains("RE") && arity.contains("`solution` takes 2 parameters"),
        "{arity}"
    );
    let rust_arity = judged(
        &file(
            "arity.rs",
            "fn solution(board: Vec<String>, k: HashMap<i32, i32>) -> i32 {\n    1\n}\n",
        ),
        1,
    );
    assert!(
        rust_arity.contains("CE")
            && rust_arity.contains("takes 2 parameters, but the judge calls it with 1"),
        "{rust_arity}"
    );
    let kotlin_typed = judged(
        &file(
            "typed.kt",
            "class Solution {\n    fun solution(board: List<String>): Int = 1\n}\n",
        ),
        1,
    );
    assert!(
        kotlin_typed.contains("CE")
            && kotlin_typed.contains(
                "solution(List<String>) is declared, but the judge calls solution(Array<String>)"
            ),
        "{kotlin_typed}"
    );
    let throws = judged(
        &file(
            "throws.js",
            "function solution(board) {\n    throw new Error('no board like it');\n}\n",
        ),
        1,
    );
    assert!(
        throws.contains("RE") && throws.contains("no board like it"),
        "{throws}"
    );
    let typed = judged(
        &file(
            "Typed.java",
            "class Solution {\n    public int solution(String board) { return 1; }\n}\n",
        ),
        1,
    );
    assert!(
        typed.contains(
            "line 2: solution(String) is declared, but the judge calls solution(String[])"
        ),
        "{typed}"
    );
}

#[test]
fn the_limit_is_each_calls_and_a_slow_call_is_tle_by_itself() {
    // Two parameters of different types; the limit is 300 ms a call.
    let repository = repository_with(&[
        (
            "problems/spin/problem.toml",
            "profile = \"programmers\"\nfunction = \"solution(word: string, ms: int) -> string\"\ntime_limit_ms = 300\n",
        ),
        // Three calls of 120 ms: 360 ms in all, each under the limit.
        ("problems/spin/tests/many.in", &"\"ab\", 120\n".repeat(3)),
        ("problems/spin/tests/many.out", &"\"ab120\"\n".repeat(3)),
        // One call of 600 ms among quick ones.
        ("problems/spin/tests/slow.in", "\"a\", 1\n\"b\", 600\n\"c\", 1\n"),
        ("problems/spin/tests/slow.out", "\"a1\"\n\"b600\"\n\"c1\"\n"),
    ]);
    let spin = [
        (
            "spin.py",
            "import time\n\ndef solution(word, ms):\n    start = time.process_time()\n    while time.process_time() - start < ms / 1000:\n        pass\n    return word + str(ms)\n",
        ),
        (
            "spin.js",
            "function solution(word, ms) {\n    const start = process.cpuUsage();\n    for (let used = process.cpuUsage(start); used.user + used.system < ms * 1000; used = process.cpuUsage(start)) {}\n    return word + ms;\n}\n",
        ),
        (
            "spin.cpp",
            "#include <ctime>\n#include <string>\nusing namespace std;\n\nstring solution(string word, int ms) {\n    clock_t start = clock();\n    while ((clock() - start) * 1000.0 / CLOCKS_PER_SEC < ms) {}\n    return word + to_string(ms);\n}\n",
        ),
    ];
    for (name, code) in spin {
        let report = judged_file(repository.path(), "spin", name, code, 1);
        assert!(
            report.contains("1/2 accepted (AC 1, TLE 1)"),
            "{name}: {report}"
        );
        assert!(
            report.contains("the slowest call, ")
                && report.contains("input line 2: solution(\"b\", 600)"),
            "{name}: {report}"
        );
    }
}

#[test]
fn a_new_function_form_problem_grows_and_judges_the_function_alone() {
    let repository = tempfile::tempdir().unwrap();
    let root = repository.path();
    fs::create_dir(root.join("problems")).unwrap();
    judge_in(root)
        .args(["new", "sum", "--profile", "programmers"])
        .assert()
        .code(0);
    let problem = root.join("problems/sum");
    let metadata = fs::read_to_string(problem.join("problem.toml")).unwrap();
    assert!(
        metadata.contains("function = \"solution(numbers: int[]) -> int\""),
        "{metadata}"
    );
    // The problem made its own: two parameters of different types, a reference that reads
    // them (the placeholder's validator, for one array a line, goes).
    fs::write(
        problem.join("problem.toml"),
        metadata.replace(
            "solution(numbers: int[]) -> int",
            "solution(numbers: int[], k: long) -> long",
        ),
    )
    .unwrap();
    fs::remove_file(problem.join("validator.rs")).unwrap();
    fs::write(
        problem.join("reference.rs"),
        "use std::io::Read;\nfn main() {\n    let mut input = String::new();\n    \
         std::io::stdin().read_to_string(&mut input).unwrap();\n    \
         for call in input.lines().filter(|l| !l.trim().is_empty()) {\n        \
         let (numbers, k) = call.rsplit_once(',').unwrap();\n        \
         let numbers = numbers.trim().trim_start_matches('[').trim_end_matches(']');\n        \
         let sum: i64 = numbers.split(',').filter(|n| !n.trim().is_empty()).map(|n| n.trim().parse::<i64>().unwrap()).sum();\n        \
         println!(\"{}\", sum * k.trim().parse::<i64>().unwrap());\n    }\n}\n",
    )
    .unwrap();
    let call = root.join("call.in");
    fs::write(&call, "[1, 2, 3], 4\n[-4], 3000000000\n[], 7\n").unwrap();
    judge_in(root)
        .args(["add", "sum", "--from-reference", "--input"])
        .arg(&call)
        .assert()
        .code(0);
    assert_eq!(
        fs::read_to_string(problem.join("tests/manual/1.out")).unwrap(),
        "24\n-12000000000\n0\n"
    );
    for (name, code) in [
        ("sum.py", "def solution(numbers, k):\n    return sum(numbers) * k\n"),
        ("sum.js", "function solution(numbers, k) {\n    return numbers.reduce((a, b) => a + b, 0) * k;\n}\n"),
        ("sum.cpp", "#include <vector>\nusing namespace std;\n\nlong long solution(vector<int> numbers, long long k) {\n    long long sum = 0;\n    for (int n : numbers) sum += n;\n    return sum * k;\n}\n"),
        ("Solution.java", "class Solution {\n    public long solution(int[] numbers, long k) {\n        long sum = 0;\n        for (int n : numbers) sum += n;\n        return sum * k;\n    }\n}\n"),
        ("sum.rs", "fn solution(numbers: Vec<i32>, k: i64) -> i64 {\n    numbers.iter().map(|&n| n as i64).sum::<i64>() * k\n}\n"),
    ] {
        let file = root.join(name);
        fs::write(&file, code).unwrap();
        let report = stdout_of(
            judge_in(root).args(["run", "sum", "--solution"]).arg(&file),
            0,
        );
        assert!(report.contains("1/1 accepted"), "{name}: {report}");
    }
}

#[test]
fn each_call_gets_a_new_solution_as_on_programmers() {
    // A Solution whose fields carry over from call to call is accepted, as Programmers, which
    // makes a new one per test, accepts it; and a return type on a line of its own is found.
    for name in ["fields_160585.java", "split_signature_160585.cpp"] {
        let file = fixture(&format!("function_form/{name}"));
        let report = judged(Path::new(&file), 0);
        assert!(report.contains("17/17 accepted"), "{name}: {report}");
    }
    // In Kotlin, search state that no call resets in a top-level `var`, an `object` and a
    // companion object, each of which alone would be WA if carried over, is accepted too; on
    // one case of 500 calls, as each call defines the file's classes again.
    if kotlinc_here() {
        let repository = copy_of_problem("programmers_160585");
        let report = stdout_of(
            judge_in(repository.path())
                .args(["run", "programmers_160585", "--case", "random/mixed-1"])
                .arg("--solution")
                .arg(fixture("function_form/statics_160585.kt")),
            0,
        );
        assert!(
            report.contains("1/1 accepted"),
            "statics_160585.kt: {report}"
        );
    }
}

#[test]
fn a_file_that_needs_an_earlier_calls_state_is_wrong() {
    // Each call's answer is 1 + 2 + ... + n; these files only add n to what an earlier call
    // left, which a new process per test never has.
    let repository = sums_repository();
    let files = [
        (
            "sums.py",
            "total = 0\n\ndef solution(n):\n    global total\n    total += n\n    return total\n",
        ),
        (
            "sums.cpp",
            "long long total = 0;\n\nlong long solution(int n) {\n    return total += n;\n}\n",
        ),
        (
            "sums.js",
            "let total = 0;\nconst solution = (n) => (total += n);\n",
        ),
        (
            "Sums.java",
            "class Solution {\n    static int total = 0;\n    public int solution(int n) {\n        return total += n;\n    }\n}\n",
        ),
        // The largest of the three: any one of them carried over gives the right sum.
        (
            "sums.kt",
            "var fileTotal = 0\n\nobject Running {\n    var total = 0\n}\n\nclass Solution {\n    \
             companion object {\n        var total = 0\n    }\n\n    \
             fun solution(n: Int): Int {\n        fileTotal += n\n        Running.total += n\n        \
             total += n\n        return maxOf(fileTotal, Running.total, total)\n    }\n}\n",
        ),
        (
            "sums.rs",
            "static TOTAL: std::sync::atomic::AtomicI64 = std::sync::atomic::AtomicI64::new(0);\n\nfn solution(n: i64) -> i64 {\n    TOTAL.fetch_add(n, std::sync::atomic::Ordering::SeqCst) + n\n}\n",
        ),
    ];
    let kotlin = kotlinc_here();
    for (name, code) in files {
        if name.ends_with(".kt") && !kotlin {
            continue;
        }
        let report = judged_file(repository.path(), "sums", name, code, 1);
        assert!(
            report.contains("WA") && report.contains("expected `3`, got `2`"),
            "{name}: {report}"
        );
    }
}

#[test]
fn what_the_function_prints_is_not_its_result() {
    // Programmers grades the returned value and shows printed lines beside it: a file that
    // prints as it loads, in every call, or from a `main` of its own is accepted.
    let repository = sums_repository();
    let files = [
        (
            "sums.py",
            "print(\"loaded\")\n\ndef solution(n):\n    print(\"n is\", n)\n    return n * (n + 1) // 2\n",
        ),
        (
            "sums.cpp",
            "#include <cstdio>\n#include <iostream>\n\nint solution(int n) {\n    std::cout << \"n is \" << n << '\\n';\n    std::printf(\"again %d\", n);\n    return n * (n + 1) / 2;\n}\n",
        ),
        (
            "sums.c",
            "#include <stdio.h>\n\nint solution(int n) {\n    printf(\"n is %d\\n\", n);\n    return n * (n + 1) / 2;\n}\n",
        ),
        (
            "sums.js",
            "console.log(\"loaded\");\nfunction solution(n) {\n    console.log(\"n is\", n);\n    process.stdout.write(\"again\");\n    return n * (n + 1) / 2;\n}\n",
        ),
        (
            "Sums.java",
            "class Solution {\n    static { System.out.println(\"loaded\"); }\n\n    public int solution(int n) {\n        System.out.print(\"n is \" + n);\n        return n * (n + 1) / 2;\n    }\n}\n",
        ),
        (
            "sums.rs",
            "fn solution(n: i64) -> i64 {\n    print!(\"n is {n}\");\n    n * (n + 1) / 2\n}\n",
        ),
        // A `main` kept for trying the file at home, which Programmers never starts.
        (
            "Home.java",
            "class Solution {\n    public int solution(int n) {\n        return n * (n + 1) / 2;\n    }\n\n    \
             public static void main(String[] args) {\n        System.out.println(new Solution().solution(3));\n    }\n}\n",
        ),
        (
            "home.py",
            "def solution(n):\n    return n * (n + 1) // 2\n\n\nif __name__ == \"__main__\":\n    print(solution(3))\n",
        ),
    ];
    // Kotlin's caller is met by `statics_160585.kt`, which prints in every call and has a
    // `main` of its own.
    for (name, code) in files {
        let report = judged_file(repository.path(), "sums", name, code, 0);
        assert!(report.contains("1/1 accepted"), "{name}: {report}");
    }
}

/// A C or C++ file may keep a `main` that tries the function at home, as Programmers takes
/// it: the judge's caller runs instead, and compiler messages keep the file's line numbers.
#[test]
fn a_main_kept_for_trying_the_file_is_not_the_program() {
    let repository = sums_repository();
    let kept = "#include <cstdio>\n\nint solution(int n) {\n    return n * (n + 1) / 2;\n}\n\n\
                int main() {\n    std::printf(\"%d\\n\", solution(4));\n}\n";
    let report = judged_file(repository.path(), "sums", "kept.cpp", kept, 0);
    assert!(report.contains("1/1 accepted"), "{report}");
    let broken = kept.replace("return n * (n + 1) / 2;", "return m;");
    let report = judged_file(repository.path(), "sums", "broken.cpp", &broken, 1);
    assert!(report.contains("broken.cpp:4:12: error"), "{report}");
}

/// A string's escapes are read as JSON writes them, and each caller writes a string back
/// the same way (a Java `StringBuilder` returned for a `String` too, as Programmers takes it).
#[test]
fn strings_are_read_and_written_as_json_writes_them() {
    let repository = repository_with(&[
        (
            "problems/echo/problem.toml",
            "profile = \"programmers\"\nfunction = \"solution(s: string) -> string\"\n",
        ),
        (
            "problems/echo/tests/escapes.in",
            "\"a\\tb\"\n\"c\\rd\"\n\"e\\u00e9f\"\n\"g\\/h\"\n\"\\ud83d\\ude00\"\n\"q\\\"\\\\\"\n\"\\u0001\"\n",
        ),
        (
            "problems/echo/tests/escapes.out",
            "\"a\\tb\"\n\"c\\rd\"\n\"e\u{e9}f\"\n\"g/h\"\n\"\u{1f600}\"\n\"q\\\"\\\\\"\n\"\\u0001\"\n",
        ),
    ]);
    for (name, code) in [
        ("echo.py", "def solution(s):\n    return s\n"),
        ("echo.cpp", "#include <string>\nstd::string solution(std::string s) { return s; }\n"),
        ("echo.c", "#include <stdlib.h>\n#include <string.h>\nchar* solution(const char* s) {\n    char* copy = malloc(strlen(s) + 1);\n    return strcpy(copy, s);\n}\n"),
        ("Solution.java", "class Solution {\n    public StringBuilder solution(String s) {\n        return new StringBuilder(s);\n    }\n}\n"),
    ] {
        let report = judged_file(repository.path(), "echo", name, code, 0);
        assert!(report.contains("1/1 accepted"), "{name}: {report}");
    }
}

/// A traceback names the user's file, not the build's copy of it.
#[test]
fn a_traceback_names_the_users_file() {
    let repository = sums_repository();
    let code = "def solution(n):\n    return [][n]\n";
    let report = judged_file(repository.path(), "sums", "crash.py", code, 1);
    let file = repository.path().join("crash.py");
    let frame = format!("File \"{}\", line 2, in solution", file.display());
    assert!(report.contains(&frame), "{report}");
    // Every frame of the file is the user's path.
    let frames = report.matches("crash.py\", line 2").count();
    assert_eq!(frames, report.matches(&frame).count(), "{report}");
    // Node's frame too, at the file's own line.
    let code = "function solution(n) {\n    const none = null;\n    return none.length;\n}\n";
    let report = judged_file(repository.path(), "sums", "crash.js", code, 1);
    let file = repository.path().join("crash.js");
    let frame = format!("at solution ({}:3:17)", file.display());
    assert!(report.contains(&frame), "{report}");
}

/// A `double` result is compared as a number, however the caller's language prints it
/// (`5` against Python's `5.0`), as Programmers compares returned values; a wrong one fails.
#[test]
fn a_double_result_is_compared_as_a_number() {
    let repository = repository_with(&[
        (
            "problems/mean/problem.toml",
            "profile = \"programmers\"\nfunction = \"solution(arr: int[]) -> double\"\n",
        ),
        ("problems/mean/tests/two.in", "[1, 2, 3, 4]\n[5, 5]\n"),
        ("problems/mean/tests/two.out", "2.5\n5\n"),
    ]);
    for (name, code) in [
        ("mean.py", "def solution(arr):\n    return sum(arr) / len(arr)\n"),
        ("mean.js", "function solution(arr) {\n    return arr.reduce((a, b) => a + b, 0) / arr.length;\n}\n"),
    ] {
        let report = judged_file(repository.path(), "mean", name, code, 0);
        assert!(report.contains("1/1 accepted"), "{name}: {report}");
    }
    let floored = "def solution(arr):\n    return float(sum(arr) // len(arr))\n";
    let report = judged_file(repository.path(), "mean", "floored.py", floored, 1);
    assert!(report.contains("expected `2.5`, got `2.0`"), "{report}");
}

/// A parameter spelled as javac takes it (an annotation, brackets after the name) is
/// called as Programmers calls it, and a method that declares a checked exception compiles
/// (toolchain::harness's tests hold the other spellings).
#[test]
fn a_java_method_is_called_however_javac_takes_it() {
    let repository = repository_with(&[
        (
            "problems/count/problem.toml",
            "profile = \"programmers\"\nfunction = \"solution(words: string[]) -> int\"\n",
        ),
        ("problems/count/tests/two.in", "[\"a\", \"b\"]\n[]\n"),
        ("problems/count/tests/two.out", "2\n0\n"),
    ]);
    let code = "class Solution {\n    public int solution(@SuppressWarnings(\"unused\") final String words [])\n            throws java.io.IOException {\n        return words.length;\n    }\n}\n";
    let report = judged_file(repository.path(), "count", "Solution.java", code, 0);
    assert!(report.contains("1/1 accepted"), "{report}");
}

#[test]
fn a_call_that_fails_is_a_runtime_error_held_to_its_own_time() {
    // Five calls of 0.1 s each, under a limit of 0.3 s a call: the fifth fails after the
    // run has spent more than the limit in all, and each prints more than the judge keeps of
    // standard error. The times reach the judge all the same: the verdict is RE, not TLE.
    let repository = repository_with(&[
        (
            "problems/busy/problem.toml",
            "profile = \"programmers\"\nfunction = \"solution(n: int) -> int\"\ntime_limit_ms = 300\n",
        ),
        ("problems/busy/tests/five.in", "1\n2\n3\n4\n5\n"),
        ("problems/busy/tests/five.out", "1\n2\n3\n4\n5\n"),
    ]);
    let files = [
        (
            "busy.py",
            "import time\n\ndef solution(n):\n    start = time.process_time()\n    \
             while time.process_time() - start < 0.1:\n        pass\n    print(\"x\" * 20000)\n    \
             if n == 5:\n        raise ValueError(\"call five fails\")\n    return n\n",
        ),
        (
            "busy.js",
            "function solution(n) {\n    const start = process.cpuUsage();\n    \
             for (;;) { const u = process.cpuUsage(start); if (u.user + u.system >= 100000) break; }\n    \
             console.log(\"x\".repeat(20000));\n    \
             if (n === 5) throw new Error(\"call five fails\");\n    return n;\n}\n",
        ),
        (
            "Busy.java",
            "class Solution {\n    public int solution(int n) {\n        \
             java.lang.management.ThreadMXBean clock = java.lang.management.ManagementFactory.getThreadMXBean();\n        \
             long start = clock.getCurrentThreadCpuTime();\n        \
             while (clock.getCurrentThreadCpuTime() - start < 100_000_000L) {}\n        \
             System.out.println(\"x\".repeat(20000));\n        \
             if (n == 5) throw new IllegalStateException(\"call five fails\");\n        return n;\n    }\n}\n",
        ),
        // No state: every call runs in one process.
        (
            "busy.cpp",
            "#include <cstdio>\n#include <ctime>\n#include <stdexcept>\n#include <string>\n\n\
             int solution(int n) {\n    std::clock_t start = std::clock();\n    \
             while (std::clock() - start < CLOCKS_PER_SEC / 10) {}\n    \
             std::printf(\"%s\\n\", std::string(20000, 'x').c_str());\n    \
             if (n == 5) throw std::runtime_error(\"call five fails\");\n    return n;\n}\n",
        ),
        // A global it changes: each call in a child of its own, and the fifth dies of a signal.
        (
            "busy.c",
            "#include <stdio.h>\n#include <stdlib.h>\n#include <time.h>\n\nint calls = 0;\n\n\
             int solution(int n) {\n    clock_t start = clock();\n    \
             while (clock() - start < CLOCKS_PER_SEC / 10) {}\n    \
             for (int i = 0; i < 2000; i++) printf(\"xxxxxxxxxx\");\n    calls++;\n    \
             if (n == 5) abort();\n    return n;\n}\n",
        ),
    ];
    for (name, code) in files {
        let report = judged_file(repository.path(), "busy", name, code, 1);
        assert!(
            report.contains("RE") && !report.contains("TLE"),
            "{name}: {report}"
        );
    }
}

#[test]
fn check_takes_the_function_alone_and_says_what_programmers_refuses_in_the_files_terms() {
    // `judge check` builds a function-alone file with its caller and asks for no entry
    // point; on the samples alone, as the callers have their own test.
    let repository = copy_of_problem("programmers_160585");
    let tests = repository.path().join("problems/programmers_160585/tests");
    for generated in ["exhaustive", "random"] {
        fs::remove_dir_all(tests.join(generated)).unwrap();
    }
    for language in ["cpp", "java", "js"] {
        let file = fixture(&format!("function_form/solution_160585.{language}"));
        let report = stdout_of(
            judge_in(repository.path()).args(["check", &file, "--problem", "programmers_160585"]),
            0,
        );
        assert!(
            !report.contains("PROBLEM") && report.contains("standard library only"),
            "{language}: {report}"
        );
    }
    // A Java file in a package, or whose class is not `Solution`, is refused as Programmers
    // refuses it, not with javac's complaint about the judge's caller.
    let java = fs::read_to_string(fixture("function_form/solution_160585.java")).unwrap();
    let files = [
        ("Packaged.java", format!("package level2;\n\n{java}"), "`package level2;`: Programmers compiles Solution.java in no package"),
        ("Renamed.java", java.replace("class Solution", "class Answer"), "no class `Solution` (the class is `Answer`): Programmers calls the function on a new `Solution`"),
    ];
    for (name, code, reason) in files {
        let report = judged_file(repository.path(), "programmers_160585", name, &code, 1);
        assert!(
            report.contains(reason) && !report.contains("JudgeCall"),
            "{name}: {report}"
        );
    }
}
