//! Codeforces Polygon packages (`problem.xml`) judged with the real binary: our own small
//! packages under `judge/tests/fixtures/polygon/`, each copied to a folder of its own (no
//! repository above it) with a stand-in `files/testlib.h` written here, then changed to
//! break one rule at a time.

use crate::common::*;

use std::path::{Path, PathBuf};

use predicates::prelude::*;

/// A stand-in for testlib.h, written for these tests: only what their checkers use.
const TESTLIB_STAND_IN: &str = r#"#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

enum TResult { _ok = 0, _wa = 1, _pe = 2, _fail = 3, _dirt = 4, _points = 7 };

// With `report -appes` after the three files, the result goes there as testlib writes it.
inline std::string appes_report;

[[noreturn]] inline void quit_with(const char* outcome, const char* extra, int code, const char* message) {
    if (code == _points) std::fputs("points ", stderr);
    std::fprintf(stderr, "%s\n", message);
    if (!appes_report.empty()) {
        std::FILE* report = std::fopen(appes_report.c_str(), "w");
        std::fprintf(report, "<?xml version=\"1.0\" encoding=\"windows-1251\"?><result outcome = \"%s\"%s>%s</result>\n", outcome, extra, message);
        std::fclose(report);
    }
    std::exit(code);
}

[[noreturn]] inline void quitf(TResult result, const char* format, ...) {
    char message[512];
    va_list args;
    va_start(args, format);
    std::vsnprintf(message, sizeof message, format, args);
    va_end(args);
    const char* outcomes[] = {"accepted", "wrong-answer", "presentation-error", "fail", "presentation-error", "", "", "points"};
    std::string extra = result == _points ? " points = \"" + std::string(message).substr(0, std::string(message).find(' ')) + "\"" : "";
    quit_with(outcomes[result], extra.c_str(), result, message);
}

// testlib's partially correct answer: in its default build the exit code is the percentage's
// index itself (1 here, a wrong answer's code), which only the -appes report tells apart.
[[noreturn]] inline void quitpc(int pctype, const char* message) {
    std::string extra = " pctype = \"" + std::to_string(pctype) + "\"";
    quit_with("partially-correct", extra.c_str(), pctype, message);
}

struct InStream {
    std::ifstream file;
    bool output = false;
    bool seekEof() {
        while (file.peek() == ' ' || file.peek() == '\t' || file.peek() == '\r' || file.peek() == '\n')
            file.get();
        return file.peek() == EOF;
    }
    std::string readToken() {
        std::string token;
        if (seekEof()) quitf(output ? _pe : _fail, "unexpected end of file");
        while (file.peek() != EOF && std::string(" \t\r\n").find(char(file.peek())) == std::string::npos)
            token += char(file.get());
        return token;
    }
};

inline InStream inf, ouf, ans;

inline void registerTestlibCmd(int argc, char* argv[]) {
    if (argc < 4) quitf(_fail, "usage: checker input output answer");
    inf.file.open(argv[1]);
    ouf.file.open(argv[2]);
    ouf.output = true;
    ans.file.open(argv[3]);
    if (argc >= 6 && std::string(argv[5]) == "-appes") appes_report = argv[4];
}
"#;

/// A copy of `fixtures/polygon/<name>` in a fresh temporary folder, with its `testlib.h`;
/// `None` (the test passed over) where there is no g++ to build its checker.
fn package(name: &str) -> Option<(tempfile::TempDir, PathBuf)> {
    if !on_path("g++") {
        skip_off_ci("g++ is not installed: Polygon checkers are C++");
        return None;
    }
    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join(name);
    copy_tree(Path::new(&fixture(&format!("polygon/{name}"))), &copy);
    std::fs::write(copy.join("files/testlib.h"), TESTLIB_STAND_IN).unwrap();
    Some((dir, copy))
}

/// `problem.xml` of `package` with `from` replaced by `to` (which must be there).
fn edit_xml(package: &Path, from: &str, to: &str) {
    let path = package.join("problem.xml");
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains(from), "problem.xml holds no `{from}`");
    std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
}

#[test]
fn the_main_solution_is_accepted_with_the_packages_std_checker() {
    let Some((dir, package)) = package("sum") else {
        return;
    };
    // Polygon ships tests with CRLF line ends at times: testlib reads them as line ends.
    std::fs::write(package.join("tests/02.a"), "6\r\n").unwrap();
    let before = snapshot(&package);
    judge_in(dir.path())
        .args(["run", "sum"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains(
            "AC  sum: 3/3 accepted · Pair sum · sum/solutions/main.py",
        ));
    assert_eq!(snapshot(&package), before, "the package is not written to");
    // From inside the package, `run` and `list` need no argument.
    judge_in(&package).arg("run").assert().code(0);
    let listed = stdout_of(judge_in(&package).arg("list"), 0);
    let row = listed
        .lines()
        .find(|line| line.starts_with("sum "))
        .unwrap();
    let columns: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(
        columns,
        [
            "sum",
            "3",
            "2000",
            "ms",
            "256.0",
            "MiB",
            "tokens",
            "codeforces",
            "solutions/main.py"
        ],
        "{listed}"
    );
}

#[test]
fn a_package_in_a_repositorys_problems_is_listed_and_its_samples_named() {
    let Some((_dir, package)) = package("sum") else {
        return;
    };
    let repository = tempfile::tempdir().unwrap();
    copy_tree(&package, &repository.path().join("problems/sum"));
    let listed = stdout_of(judge_in(repository.path()).arg("list"), 0);
    assert!(
        listed.contains("problems/sum/solutions/main.py"),
        "{listed}"
    );
    let json = stdout_of(
        judge_in(repository.path()).args(["--format", "json", "run", "sum"]),
        0,
    );
    let document: serde_json::Value = serde_json::from_str(&json).unwrap();
    let names: Vec<&str> = document["problems"][0]["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|case| case["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["sample/01", "02", "03"]);
}

#[test]
fn a_wrong_solution_gets_wa_from_the_checker() {
    let Some((dir, _package)) = package("sum") else {
        return;
    };
    judge_in(dir.path())
        .args(["run", "sum", "--solution", "sum/solutions/off_by_one.py"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("token 1: expected '6', found '7'"))
        .stdout(predicate::str::contains("sum: 1/3 accepted (AC 1, WA 2)"));
}

#[test]
fn testlib_exit_codes_are_read_as_polygon_reads_them() {
    let Some((dir, _package)) = package("verdicts") else {
        return;
    };
    let json = stdout_of(
        judge_in(dir.path()).args(["--format", "json", "run", "verdicts"]),
        1,
    );
    let document: serde_json::Value = serde_json::from_str(&json).unwrap();
    let cases = document["problems"][0]["cases"].as_array().unwrap().clone();
    let verdicts: Vec<(&str, &str)> = cases
        .iter()
        .map(|case| {
            (
                case["name"].as_str().unwrap(),
                case["verdict"].as_str().unwrap(),
            )
        })
        .collect();
    // 0 OK; 7 points, accepted; 1 WA; 3 the checker's failure, a judge error; 8 testlib's
    // unexpected end of file, a presentation error.
    assert_eq!(
        verdicts,
        [
            ("1", "AC"),
            ("2", "AC"),
            ("3", "WA"),
            ("4", "JE"),
            ("5", "WA")
        ]
    );
    let eof = cases[4]["message"].to_string();
    assert!(eof.contains("presentation error"), "{}", cases[4]);
    assert!(
        cases[1]["validator_score"].to_string().contains('5'),
        "the points are kept: {}",
        cases[1]
    );
    judge_in(dir.path())
        .args(["run", "verdicts", "--case", "4"])
        .assert()
        .stdout(predicate::str::contains(
            "checker failed (exit 3): the answer file is broken",
        ));
}

#[test]
fn named_input_and_output_files_are_the_programs() {
    let Some((dir, package)) = package("fileio") else {
        return;
    };
    judge_in(dir.path())
        .args(["run", "fileio"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("fileio: 2/2 accepted · Double"));
    // Answers a download lacks are what the main solution writes in its output file (it
    // prints something else on stdout).
    let answers = ["001.a", "002.a"].map(|name| package.join("tests").join(name));
    let shipped = answers.clone().map(|answer| std::fs::read(answer).unwrap());
    for answer in &answers {
        std::fs::remove_file(answer).unwrap();
    }
    judge_in(dir.path())
        .args(["gen", "fileio"])
        .assert()
        .code(0);
    assert_eq!(
        answers.map(|answer| std::fs::read(answer).unwrap()),
        shipped
    );
}

/// `judge run` on `package` fails with exit 2 and `message` on stderr.
fn refused(dir: &Path, package: &str, message: &str) {
    judge_in(dir)
        .args(["run", package])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(message))
        .stderr(predicate::str::contains("panicked").not());
}

#[test]
fn bad_packages_are_refused_naming_the_file_and_line() {
    let Some((dir, package)) = package("sum") else {
        return;
    };
    let xml = package.join("problem.xml").display().to_string();
    let original = std::fs::read_to_string(package.join("problem.xml")).unwrap();
    let restore = || std::fs::write(package.join("problem.xml"), &original).unwrap();

    edit_xml(&package, "</tests>", "");
    refused(dir.path(), "sum", &format!("{xml}: line "));
    refused(dir.path(), "sum", "not well-formed XML");
    restore();

    edit_xml(&package, "tests/%02d.a", "tests/answer.a");
    refused(
        dir.path(),
        "sum",
        &format!(
            "{xml}: line 12: <answer-path-pattern>: path pattern `tests/answer.a` has no `%d`"
        ),
    );
    restore();

    edit_xml(
        &package,
        "<test-count>3</test-count>",
        "<test-count>2</test-count>",
    );
    refused(
        dir.path(),
        "sum",
        &format!("{xml}: line 10: <test-count> is 2, but <tests> lists 3 tests"),
    );
    restore();

    edit_xml(&package, r#"type="python.3""#, r#"type="pascal.fpc""#);
    refused(
        dir.path(),
        "sum",
        &format!("{xml}: line 32: the main solution's source type `pascal.fpc` is not one"),
    );
    restore();

    edit_xml(&package, "files/check.cpp", "files/checker.cpp");
    refused(
        dir.path(),
        "sum",
        &format!("{xml}: line 27: the checker's source `files/checker.cpp` is not in the package"),
    );
    restore();

    // A test the files do not match: one missing, one more than the count.
    std::fs::rename(package.join("tests/03"), package.join("tests/04")).unwrap();
    refused(
        dir.path(),
        "sum",
        &format!(
            "{xml}: line 16: test 3: `tests/03` is not in the package: it is generated \
             (`gen 3`): `judge gen` makes it with the package's generator"
        ),
    );
    std::fs::copy(package.join("tests/04"), package.join("tests/03")).unwrap();
    refused(
        dir.path(),
        "sum",
        &format!("{xml}: line 10: <test-count> is 3, but the package also holds `tests/04`"),
    );
    std::fs::remove_file(package.join("tests/04")).unwrap();
    std::fs::remove_file(package.join("tests/01.a")).unwrap();
    refused(
        dir.path(),
        "sum",
        &format!("{xml}: line 14: test 1: `tests/01.a` is not in the package"),
    );
}

/// `package` with the Python generator `files/NAME` holding `source`, listed in
/// `<executables>`.
fn with_generator(package: &Path, name: &str, source: &str) {
    std::fs::write(package.join("files").join(name), source).unwrap();
    edit_xml(
        package,
        "</resources>",
        &format!(
            "</resources>\n<executables><executable><source path=\"files/{name}\" \
             type=\"python.3\"/></executable></executables>"
        ),
    );
}

/// The cells of `verify`'s row for `submission` in `table`.
fn cells_of(table: &str, submission: &str) -> Vec<String> {
    let line = table
        .lines()
        .find(|line| line.starts_with(submission))
        .unwrap_or_else(|| panic!("no row for {submission}:\n{table}"));
    line.split("  ")
        .map(str::trim)
        .filter(|cell| !cell.is_empty())
        .map(str::to_owned)
        .collect()
}

/// A checker that does not compile keeps every solution from being judged, and each row
/// says so in one line with the compiler's first error.
#[test]
fn a_checker_that_does_not_compile_is_said_in_a_line() {
    let Some((dir, package)) = package("sum") else {
        return;
    };
    std::fs::write(package.join("check.cpp"), "int main() { return x; }\n").unwrap();
    std::fs::write(
        package.join("files/check.cpp"),
        "int main() { return x; }\n",
    )
    .unwrap();
    let table = stdout_of(judge_in(dir.path()).args(["verify", "sum"]), 2);
    let cells = cells_of(&table, "solutions/main.py");
    assert!(
        cells[3].starts_with("ERROR: files/check.cpp: the checker does not compile: "),
        "{table}"
    );
    // The compiler's whole message (its `^` markers) is not in the table.
    assert!(!table.contains('^'), "{table}");
}

#[test]
fn verify_checks_every_solution_against_its_tag() {
    let Some((dir, package)) = package("sum") else {
        return;
    };
    let solutions = package.join("solutions");
    let write = |name: &str, text: &str| std::fs::write(solutions.join(name), text).unwrap();
    write("spins.py", "while True:\n    pass\n");
    write("crashes.py", "raise SystemExit(3)\n");
    write("old.pas", "begin end.\n");
    // Each tag as Polygon reads it; off_by_one.py is tagged wrongly on purpose.
    let tagged = |tag: &str, path: &str, kind: &str| {
        format!("<solution tag=\"{tag}\"><source path=\"solutions/{path}\" type=\"{kind}\"/></solution>\n")
    };
    let list = [
        tagged("time-limit-exceeded", "spins.py", "python.3"),
        tagged("time-limit-exceeded-or-accepted", "main.py", "python.3"),
        tagged("failed", "crashes.py", "python.3"),
        tagged("accepted", "off_by_one.py", "python.3"),
        tagged("rejected", "old.pas", "pascal.fpc"),
    ]
    .concat();
    edit_xml(
        &package,
        r#"<solution tag="wrong-answer">
                <source path="solutions/off_by_one.py" type="python.3"/>
            </solution>"#,
        &list,
    );
    edit_xml(&package, "<time-limit>2000", "<time-limit>500");
    let before = snapshot(&package);
    let table = stdout_of(judge_in(dir.path()).args(["verify", "sum"]), 1);
    let row = |submission: &str| cells_of(&table, submission);
    assert_eq!(
        row("solutions/main.py ")[1..],
        ["main", "AC 3", "ok"],
        "{table}"
    );
    assert_eq!(
        row("solutions/spins.py")[1..],
        ["time-limit-exceeded", "TLE 1", "ok"],
        "{table}"
    );
    assert_eq!(
        row("solutions/crashes.py")[1..],
        ["failed", "RE 1", "ok"],
        "{table}"
    );
    assert_eq!(
        row("solutions/off_by_one.py")[1..],
        ["accepted", "AC 1, WA 1", "MISMATCH"],
        "{table}"
    );
    // A mismatch says why it failed first: the case, its verdict and the checker's words.
    assert!(
        table.contains("\nsolutions/off_by_one.py: 02 WA: "),
        "{table}"
    );
    assert_eq!(row("solutions/old.pas")[2], "not judged", "{table}");
    assert!(
        table.contains("source type `pascal.fpc` is not one this judge builds"),
        "{table}"
    );
    assert!(
        table.contains("sum: 6 submissions, 1 mismatch, 1 skipped, 0 errors"),
        "{table}"
    );
    assert_eq!(
        snapshot(&package),
        before,
        "verify writes nothing into the package"
    );
    // Test 3's input is shipped; its generator is not: it is compared with nothing, and said.
    assert!(
        table.contains(
            "note: not made again: test 3: `gen 3` calls `gen`, which is not a program of \
             <files><executables>"
        ),
        "{table}"
    );
    // A tag Polygon does not have is the package's fault, named with its line.
    edit_xml(&package, "tag=\"failed\"", "tag=\"crashes\"");
    judge_in(dir.path())
        .args(["verify", "sum"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "<solution tag=\"crashes\">: the tags are main, accepted, rejected,",
        ));
}

#[test]
fn a_solution_is_built_in_the_language_its_source_type_names() {
    // A `.py` of type `python.2` is Python 2, as Polygon runs it: judged by `python2` where
    // one runs, else not judged and said why; never Python 3, which refuses its `print`.
    let Some((dir, package)) = package("sum") else {
        return;
    };
    let solutions = package.join("solutions");
    let main = std::fs::read_to_string(solutions.join("main.py")).unwrap();
    let python2 = (main.replace("print(a + b)", "print a + b")).replace("input()", "raw_input()");
    assert_ne!(python2, main, "main.py prints a + b");
    std::fs::write(solutions.join("two.py"), python2).unwrap();
    // A type that asks for a newer language than this machine's compiler: not judged, as
    // its compile error would be the compiler's age, not the solution's.
    let java = "public class Future { public static void main(String[] a) {} }\n";
    std::fs::write(solutions.join("Future.java"), java).unwrap();
    // Right on PyPy alone: `python.pypy3` runs on PyPy where it is installed.
    let pypy = main.replace(
        "print(a + b)",
        "import sys\nprint(a + b if sys.implementation.name == 'pypy' else 0)",
    );
    assert_ne!(pypy, main, "main.py prints a + b");
    std::fs::write(solutions.join("pypy.py"), pypy).unwrap();
    // `gets` is declared up to C++11: a `cpp.g++11` file builds as C++11, not as the row's 17.
    let gets = "#include <cstdio>\nint main() { char line[64]; gets(line); long a, b;\n\
                sscanf(line, \"%ld %ld\", &a, &b); printf(\"%ld\\n\", a + b); }\n";
    std::fs::write(solutions.join("gets.cpp"), gets).unwrap();
    edit_xml(
        &package,
        r#"<solution tag="wrong-answer">"#,
        r#"<solution tag="accepted"><source path="solutions/two.py" type="python.2"/></solution>
            <solution tag="accepted"><source path="solutions/Future.java" type="java99"/></solution>
            <solution tag="accepted"><source path="solutions/pypy.py" type="python.pypy3"/></solution>
            <solution tag="accepted"><source path="solutions/gets.cpp" type="cpp.g++11"/></solution>
            <solution tag="wrong-answer">"#,
    );
    let output = judge_in(dir.path())
        .args(["verify", "sum"])
        .output()
        .unwrap();
    let table = String::from_utf8_lossy(&output.stdout);
    let row = cells_of(&table, "solutions/two.py");
    let judged = row[1..] == ["accepted", "AC 3", "ok"];
    // `skipped (no python2)`, or where a shim stands in for none, `(`python2 --version` fails)`.
    let skipped =
        row[2] == "not judged" && row[3].starts_with("skipped (") && row[3].contains("python2");
    assert!(judged || skipped, "{table}");
    assert_eq!(
        cells_of(&table, "solutions/gets.cpp")[1..],
        ["accepted", "AC 3", "ok"],
        "{table}"
    );
    let on_pypy = cells_of(&table, "solutions/pypy.py");
    match on_path("pypy3") {
        true => assert_eq!(on_pypy[1..], ["accepted", "AC 3", "ok"], "{table}"),
        false => {
            // The stand-in, CPython, runs it; verify stops at its first failure.
            assert_eq!(on_pypy[1..3], ["accepted", "WA 1"], "{table}");
            let stderr = String::from_utf8_lossy(&output.stderr);
            assert!(
                stderr.contains("Codeforces runs PyPy 3 with `pypy3`, which is not installed"),
                "{stderr}"
            );
        }
    }
    let future = cells_of(&table, "solutions/Future.java");
    assert_eq!(future[2], "not judged", "{table}");
    assert!(
        future[3].starts_with("skipped (javac ")
            && future[3].ends_with(" is older than Java 99, which its source type asks for)"),
        "{table}"
    );
}

#[test]
fn extra_tags_hold_a_solution_to_its_tag_on_each_group() {
    let Some((dir, package)) = package("sum") else {
        return;
    };
    edit_xml(
        &package,
        r#"<test method="manual" sample="true"/>
                <test method="manual"/>
                <test cmd="gen 3" method="generated"/>"#,
        r#"<test method="manual" sample="true" group="samples"/>
                <test method="manual" group="a"/>
                <test cmd="gen 3" method="generated" group="b"/>"#,
    );
    let solutions = package.join("solutions");
    // Wrong on test 3 alone (its numbers are large); wrong on test 2 alone (a = 10).
    let write = |name: &str, text: &str| std::fs::write(solutions.join(name), text).unwrap();
    write(
        "small.py",
        "a, b = map(int, input().split())\nprint(a + b if a < 100 else 0)\n",
    );
    write(
        "ten.py",
        "a, b = map(int, input().split())\nprint(a + b if a != 10 else 0)\n",
    );
    let tagged = |path: &str, extra: &str| {
        format!(
            "<solution tag=\"wrong-answer\"><source path=\"solutions/{path}\" type=\"python.3\"/>\
             <extra-tags>{extra}</extra-tags></solution>\n"
        )
    };
    let list = [
        tagged(
            "off_by_one.py",
            r#"<extra-tag group="samples" tag="OK" testset="tests"/>"#,
        ),
        tagged(
            "small.py",
            r#"<extra-tag group="a" tag="OK"/><extra-tag group="b" tag="wrong-answer"/>
               <extra-tag testset="pretests" tag="OK"/>"#,
        ),
        // Wrong in group a, which its extra tag says it passes: a finding.
        tagged("ten.py", r#"<extra-tag group="a" tag="OK"/>"#),
    ]
    .concat();
    edit_xml(
        &package,
        r#"<solution tag="wrong-answer">
                <source path="solutions/off_by_one.py" type="python.3"/>
            </solution>"#,
        &list,
    );
    let table = stdout_of(judge_in(dir.path()).args(["verify", "sum"]), 1);
    let row = |submission: &str| cells_of(&table, submission);
    assert_eq!(
        row("solutions/off_by_one.py")[1..],
        ["wrong-answer; group samples accepted", "AC 1, WA 2", "ok"],
        "{table}"
    );
    assert_eq!(
        row("solutions/small.py")[1..],
        [
            "wrong-answer; group a accepted; group b wrong-answer; pretests accepted (not judged here)",
            "AC 2, WA 1",
            "ok"
        ],
        "{table}"
    );
    assert_eq!(
        row("solutions/ten.py")[1..],
        ["wrong-answer; group a accepted", "AC 2, WA 1", "MISMATCH"],
        "{table}"
    );
    // An extra tag on a group no test is in, or with a tag Polygon does not have, is the
    // package's fault, named with its line.
    let refused = |from: &str, to: &str, message: &str| {
        edit_xml(&package, from, to);
        let xml = std::fs::read_to_string(package.join("problem.xml")).unwrap();
        let line = xml.lines().position(|line| line.contains(to)).unwrap() + 1;
        judge_in(dir.path())
            .args(["verify", "sum"])
            .assert()
            .code(2)
            .stderr(predicate::str::contains(format!(
                "problem.xml: line {line}: {message}"
            )));
        edit_xml(&package, to, from);
    };
    refused(
        r#"group="samples" tag="OK""#,
        r#"group="c" tag="OK""#,
        "<extra-tag group=\"c\">: no test is in that group",
    );
    refused(
        r#"group="samples" tag="OK""#,
        r#"group="samples" tag="XX""#,
        "<extra-tag tag=\"XX\">: the tags are OK, RJ, WA, PE, TL, TO, ML, RE or main,",
    );
}

#[test]
fn a_generator_that_does_not_compile_here_leaves_the_inputs_the_package_ships() {
    // A download's generator may have been built by another compiler: its test 3 ships, so
    // only its check is lost, and said; an input nothing can make is still an error.
    let Some((dir, package)) = package("sum") else {
        return;
    };
    with_generator(&package, "gen.py", "print(\n");
    std::fs::remove_file(package.join("tests/02.a")).unwrap();
    let verified = stdout_of(judge_in(dir.path()).args(["verify", "sum"]), 0);
    assert!(
        verified.contains("test 3: `gen 3`: its generator does not compile here"),
        "{verified}"
    );
    std::fs::remove_file(package.join("tests/03")).unwrap();
    judge_in(dir.path())
        .args(["gen", "sum"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("files/gen.py: does not compile"));
}

#[test]
fn gen_makes_answers_with_the_main_solution_run_as_the_judge_runs_it() {
    // Codeforces starts Java with -DONLINE_JUDGE=true; this main solution is right only then.
    let Some((dir, package)) = package("sum") else {
        return;
    };
    std::fs::write(
        package.join("solutions/Main.java"),
        "import java.util.Scanner;\n\npublic class Main {\n    public static void main(String[] args) {\n        \
         Scanner in = new Scanner(System.in);\n        long a = in.nextLong(), b = in.nextLong();\n        \
         long off = System.getProperty(\"ONLINE_JUDGE\") == null ? 1 : 0;\n        \
         System.out.println(a + b + off);\n    }\n}\n",
    )
    .unwrap();
    edit_xml(
        &package,
        r#"<source path="solutions/main.py" type="python.3"/>"#,
        r#"<source path="solutions/Main.java" type="java11"/>"#,
    );
    std::fs::remove_file(package.join("tests/02.a")).unwrap();
    let made = stdout_of(judge_in(dir.path()).args(["gen", "sum"]), 0);
    assert!(made.contains("1 file written"), "{made}");
    assert_eq!(
        std::fs::read_to_string(package.join("tests/02.a")).unwrap(),
        "6\n"
    );
}

/// A test's `cmd` is read as a shell reads it, and may name its generator with the file's
/// extension (problem-xml-specs §12.3).
#[test]
fn a_generators_command_takes_quoted_words_and_a_name_with_its_extension() {
    let Some((dir, package)) = package("sum") else {
        return;
    };
    with_generator(
        &package,
        "gen.py",
        "import sys\nprint(sys.argv[1].split()[0], len(sys.argv))\n",
    );
    edit_xml(
        &package,
        r#"<test cmd="gen 3" method="generated"/>"#,
        r#"<test cmd="gen.py '3 4'" method="generated"/>"#,
    );
    for file in ["tests/03", "tests/03.a"] {
        std::fs::remove_file(package.join(file)).unwrap();
    }
    stdout_of(judge_in(dir.path()).args(["gen", "sum"]), 0);
    // One word, `3 4`, after the program's name.
    assert_eq!(
        std::fs::read_to_string(package.join("tests/03")).unwrap(),
        "3 2\n"
    );
}

#[test]
fn gen_makes_what_a_package_lacks_and_names_a_generator_that_is_not_reproducible() {
    let Some((dir, package)) = package("sum") else {
        return;
    };
    // Test 3 is `gen 3`: its generator prints n·10^6 twice.
    with_generator(
        &package,
        "gen.py",
        "import sys\nn = int(sys.argv[1])\nprint(n * 333334 - 2, n * 333334 - 2)\n",
    );
    let shipped = std::fs::read(package.join("tests/03")).unwrap();
    std::fs::remove_file(package.join("tests/03")).unwrap();
    std::fs::remove_file(package.join("tests/03.a")).unwrap();
    std::fs::remove_file(package.join("tests/02.a")).unwrap();
    // `run` says what is missing and what makes it.
    judge_in(dir.path())
        .args(["run", "sum"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
        "test 2: `tests/02.a` is not in the package: `judge gen` makes it with the main solution",
    ));
    let before = snapshot(&package);
    // verify judges it all the same, what it lacks made in a scratch copy.
    let verified = stdout_of(judge_in(dir.path()).args(["verify", "sum"]), 0);
    assert!(
        verified.contains(
            "note: `tests/02.a` and 2 more files not in the package: made in a scratch copy"
        ),
        "{verified}"
    );
    assert_eq!(
        cells_of(&verified, "solutions/main.py")[1..],
        ["main", "AC 3", "ok"]
    );
    // Test 3's input is not in the package: nothing of the package's to compare it with.
    assert!(
        verified.contains(
            "tests: 0 generated inputs made again by their generators: 0 the same as the \
             package's, 0 different"
        ),
        "{verified}"
    );
    assert_eq!(
        snapshot(&package),
        before,
        "verify writes nothing into the package"
    );
    let check = stdout_of(judge_in(dir.path()).args(["gen", "--check", "sum"]), 1);
    assert!(
        check.contains("sum: 3 tests: 3 files missing; of the generated inputs it holds, 0 the same, 0 different"),
        "{check}"
    );
    assert_eq!(snapshot(&package), before, "--check writes nothing");
    let made = stdout_of(judge_in(dir.path()).args(["gen", "sum"]), 0);
    assert!(made.contains("3 files written"), "{made}");
    assert_eq!(std::fs::read(package.join("tests/03")).unwrap(), shipped);
    assert_eq!(
        std::fs::read_to_string(package.join("tests/03.a")).unwrap(),
        "2000000\n"
    );
    assert_eq!(
        std::fs::read_to_string(package.join("tests/02.a")).unwrap(),
        "6\n"
    );
    judge_in(dir.path()).args(["run", "sum"]).assert().code(0);
    // Run again, it writes nothing and finds the input it made the same.
    let again = stdout_of(judge_in(dir.path()).args(["gen", "--check", "sum"]), 0);
    assert!(
        again
            .contains("0 files missing; of the generated inputs it holds, 1 the same, 0 different"),
        "{again}"
    );
    // A Windows download holds the same input with CRLF ends: the same generator made it.
    let lf = std::fs::read(package.join("tests/03")).unwrap();
    let crlf = String::from_utf8(lf.clone()).unwrap().replace('\n', "\r\n");
    std::fs::write(package.join("tests/03"), crlf).unwrap();
    let again = stdout_of(judge_in(dir.path()).args(["gen", "--check", "sum"]), 0);
    assert!(again.contains("1 the same, 0 different"), "{again}");
    std::fs::write(package.join("tests/03"), lf).unwrap();
    // A generator whose output is not the package's: named, and the package's file kept.
    std::fs::write(
        package.join("files/gen.py"),
        "import random\nprint(random.randrange(10**6), 1)\n",
    )
    .unwrap();
    let differs = stdout_of(judge_in(dir.path()).args(["gen", "sum"]), 1);
    assert!(
        differs.contains("test 3 (`tests/03`): `gen 3` differs from the package's file at byte "),
        "{differs}"
    );
    assert_eq!(std::fs::read(package.join("tests/03")).unwrap(), shipped);
    // verify finds it too, and says so in its exit code though every tag is kept.
    let verified = stdout_of(judge_in(dir.path()).args(["verify", "sum"]), 1);
    assert!(verified.contains("0 mismatches"), "{verified}");
    assert!(
        verified.contains("tests: 1 generated input made again by their generators: 0 the same as the package's, 1 different"),
        "{verified}"
    );
}

#[test]
fn gen_takes_the_files_a_generator_writes_as_doall_sh_says() {
    let Some((dir, package)) = package("sum") else {
        return;
    };
    // One run writes tests 2 and 3 as the files `1` and `02` of its folder (Polygon's script
    // looks for a number with one or two zeros before it too); it prints nothing.
    with_generator(
        &package,
        "multi.py",
        "open('1', 'w').write('10 -4\\n')\nopen('02', 'w').write('1000000 1000000\\n')\n",
    );
    edit_xml(
        &package,
        r#"<test cmd="gen 3" method="generated"/>"#,
        r#"<test method="manual"/>"#,
    );
    std::fs::write(
        package.join("doall.sh"),
        "#!/usr/bin/env bash\nmkdir -p tests\n\
         scripts/gen-input-via-files.sh \"wine files/multi.exe 2\" \"tests/02:tests/03\" \"1:2\"\n",
    )
    .unwrap();
    let shipped = ["tests/02", "tests/03"].map(|file| std::fs::read(package.join(file)).unwrap());
    for file in ["tests/02", "tests/03", "tests/02.a", "tests/03.a"] {
        std::fs::remove_file(package.join(file)).unwrap();
    }
    let made = stdout_of(judge_in(dir.path()).args(["gen", "sum"]), 0);
    assert!(made.contains("4 files written"), "{made}");
    for (file, bytes) in ["tests/02", "tests/03"].iter().zip(&shipped) {
        assert_eq!(&std::fs::read(package.join(file)).unwrap(), bytes, "{file}");
    }
    let again = stdout_of(judge_in(dir.path()).args(["gen", "--check", "sum"]), 0);
    assert!(again.contains("2 the same, 0 different"), "{again}");
    // A file the generator does not write is its fault, named.
    std::fs::write(
        package.join("files/multi.py"),
        "open('1', 'w').write('10 -4\\n')\n",
    )
    .unwrap();
    std::fs::remove_file(package.join("tests/03")).unwrap();
    judge_in(dir.path())
        .args(["gen", "sum"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "`multi 2` (test 3) wrote no file `2` in its folder",
        ));
}

#[test]
fn groups_are_scored_with_their_points_policy_and_dependencies() {
    let Some((dir, package)) = package("sum") else {
        return;
    };
    let tests = r#"<test method="manual" sample="true" group="samples" points="0"/>
                <test method="manual" group="a" points="4"/>
                <test cmd="gen 3" method="generated" group="b" points="90"/>"#;
    edit_xml(
        &package,
        r#"<test method="manual" sample="true"/>
                <test method="manual"/>
                <test cmd="gen 3" method="generated"/>"#,
        tests,
    );
    let groups = r#"</tests>
            <groups>
                <group name="samples" points-policy="complete-group"/>
                <group name="a" points="10" points-policy="complete-group"/>
                <group name="b" points-policy="complete-group">
                    <dependencies><dependency group="a"/></dependencies>
                </group>
            </groups>"#;
    edit_xml(&package, "</tests>", groups);
    let solutions = package.join("solutions");
    // Wrong on test 3 alone (its numbers are large); wrong on test 2 alone (a = 10).
    std::fs::write(
        solutions.join("small.py"),
        "a, b = map(int, input().split())\nprint(a + b if a < 100 else 0)\n",
    )
    .unwrap();
    std::fs::write(
        solutions.join("ten.py"),
        "a, b = map(int, input().split())\nprint(a + b if a != 10 else 0)\n",
    )
    .unwrap();
    let score = |solution: &str, code: i32| {
        let report = stdout_of(
            judge_in(dir.path()).args([
                "run",
                "sum",
                "--solution",
                &format!("sum/solutions/{solution}"),
            ]),
            code,
        );
        let line = report
            .lines()
            .find(|line| line.contains("score"))
            .map(str::trim);
        line.unwrap_or_else(|| panic!("no score:\n{report}"))
            .to_owned()
    };
    assert_eq!(
        score("main.py", 0),
        "sum: score 100 / 100 (samples 0/0, a 10/10, b 90/90)"
    );
    assert_eq!(
        score("small.py", 1),
        "sum: score 10 / 100 (samples 0/0, a 10/10, b 0/90)"
    );
    // Test 3 passes, but b depends on a, which test 2 fails.
    assert_eq!(
        score("ten.py", 1),
        "sum: score 0 / 100 (samples 0/0, a 0/10, b 0/90)"
    );
    // Each test of an each-test group wins its own points.
    edit_xml(
        &package,
        r#"name="a" points="10" points-policy="complete-group""#,
        r#"name="a" points-policy="each-test""#,
    );
    assert_eq!(
        score("main.py", 0),
        "sum: score 94 / 94 (samples 0/0, a 4/4, b 90/90)"
    );
    // Such a group is shown once, with the sum of its tests' points.
    let (in_b, in_a) = (
        r#"method="generated" group="b" points="90""#,
        r#"method="generated" group="a" points="90""#,
    );
    edit_xml(&package, in_b, in_a);
    assert_eq!(
        score("small.py", 1),
        "sum: score 4 / 94 (samples 0/0, a 4/94)"
    );
    edit_xml(&package, in_a, in_b);
    // verify reads a tag at the first failed test: a solution promised to fail stops there
    // though the tests have points, and the main one is scored.
    let table = stdout_of(judge_in(dir.path()).args(["verify", "sum"]), 0);
    assert_eq!(
        cells_of(&table, "solutions/off_by_one.py")[1..],
        ["wrong-answer", "AC 1, WA 1", "ok"],
        "{table}"
    );
    assert_eq!(
        cells_of(&table, "solutions/main.py")[1..],
        ["main", "AC 3 · score 94/94", "ok"],
        "{table}"
    );
    // A dependency on no group is the package's fault, named with its line.
    edit_xml(
        &package,
        r#"<dependency group="a"/>"#,
        r#"<dependency group="c"/>"#,
    );
    judge_in(dir.path())
        .args(["run", "sum"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "group `b` depends on `c`, which is not a group",
        ));
}

#[test]
fn an_interactor_talks_with_the_solution_and_the_checker_reads_what_it_wrote() {
    let Some((dir, package)) = package("sum") else {
        return;
    };
    // Guess the number: the interactor answers `<`, `>` or `=` and writes to `tout` how many
    // guesses it took; the checker accepts at most the answer file's number of guesses.
    let write = |path: &str, text: &str| std::fs::write(package.join(path), text).unwrap();
    write(
        "files/interactor.py",
        "import sys\nsecret = int(open(sys.argv[1]).read())\nguesses = 0\n\
         while True:\n    line = sys.stdin.readline()\n    if not line:\n        \
         sys.stderr.write('the solution stopped guessing')\n        sys.exit(1)\n    \
         guesses += 1\n    guess = int(line)\n    \
         print('=' if guess == secret else '<' if secret < guess else '>', flush=True)\n    \
         if guess == secret:\n        break\nopen(sys.argv[2], 'w').write(f'{guesses}\\n')\n\
         if sys.argv[5:] == ['-appes']:\n    \
         open(sys.argv[4], 'w').write('<result outcome = \"accepted\">found</result>')\n",
    );
    write(
        "files/check.py",
        "import sys\nguesses = int(open(sys.argv[2]).read())\nmost = int(open(sys.argv[3]).read())\n\
         if guesses > most:\n    sys.stderr.write(f'{guesses} guesses, at most {most} allowed')\n    sys.exit(1)\n",
    );
    let halving = "low, high = 1, 100\nwhile True:\n    guess = (low + high) // 2\n    \
                   print(guess, flush=True)\n    said = input()\n    if said == '=':\n        break\n    \
                   if said == '<':\n        high = guess - 1\n    else:\n        low = guess + 1\n";
    write("solutions/main.py", halving);
    write(
        "solutions/one_by_one.py",
        "guess = 0\nwhile True:\n    guess += 1\n    print(guess, flush=True)\n    if input() == '=':\n        break\n",
    );
    write("solutions/quits.py", "print(50, flush=True)\n");
    for (number, secret) in [("01", "37"), ("02", "100"), ("03", "1")] {
        write(&format!("tests/{number}"), &format!("{secret}\n"));
        write(&format!("tests/{number}.a"), "7\n");
    }
    edit_xml(
        &package,
        r#"<source path="files/check.cpp" type="cpp.g++17"/>"#,
        r#"<source path="files/check.py" type="python.3"/>"#,
    );
    edit_xml(
        &package,
        "<solutions>",
        r#"<interactor><source path="files/interactor.py" type="python.3"/></interactor>
        <solutions>"#,
    );
    edit_xml(
        &package,
        r#"<solution tag="wrong-answer">
                <source path="solutions/off_by_one.py" type="python.3"/>"#,
        r#"<solution tag="wrong-answer">
                <source path="solutions/one_by_one.py" type="python.3"/>"#,
    );
    judge_in(dir.path())
        .args(["run", "sum"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("sum: 3/3 accepted"));
    // Every guess right, too many of them: the checker's wrong answer, on tout.
    let slow = stdout_of(
        judge_in(dir.path()).args(["run", "sum", "--solution", "sum/solutions/one_by_one.py"]),
        1,
    );
    assert!(slow.contains("37 guesses, at most 7 allowed"), "{slow}");
    // Stopping early: the interactor's wrong answer; its checker is not asked.
    let quits = stdout_of(
        judge_in(dir.path()).args(["run", "sum", "--solution", "sum/solutions/quits.py"]),
        1,
    );
    assert!(quits.contains("the solution stopped guessing"), "{quits}");
    let table = stdout_of(judge_in(dir.path()).args(["verify", "sum"]), 0);
    assert!(table.contains("2 submissions, 0 mismatches"), "{table}");
    // Writing on after the interactor accepted and ended (more than a pipe holds) leaves the
    // verdict to the run: it neither breaks nor waits.
    write(
        "solutions/chatty.py",
        &format!("{halving}print('x' * 300000)\n"),
    );
    let chatty = stdout_of(
        judge_in(dir.path()).args(["run", "sum", "--solution", "sum/solutions/chatty.py"]),
        0,
    );
    assert!(chatty.contains("3/3 accepted"), "{chatty}");
    // A missing answer is what the interactor writes as it talks with the main solution
    // (given an empty answer file), as Polygon makes it: 50, 25, 37.
    std::fs::remove_file(package.join("tests/01.a")).unwrap();
    let made = stdout_of(judge_in(dir.path()).args(["gen", "sum"]), 0);
    assert!(made.contains("1 file written"), "{made}");
    assert_eq!(
        std::fs::read_to_string(package.join("tests/01.a")).unwrap(),
        "3\n"
    );
    // The interactor's accepted report is its own: a checker that then fails, with no report
    // of its own, is a judge error, not the interactor's acceptance read again.
    write(
        "files/check.py",
        "import sys\nsys.stderr.write('broken')\nsys.exit(3)\n",
    );
    let failed = stdout_of(judge_in(dir.path()).args(["run", "sum"]), 1);
    assert!(
        failed.contains("checker failed (exit 3): broken"),
        "{failed}"
    );
}

/// Encoding a number in one run and decoding it in the next: the three kinds of Polygon's
/// run-twice problems, each judged, verified and answered as Polygon's default strategy runs
/// them. The programs tell the runs apart by the first word of their input.
#[test]
fn run_twice_problems_pass_the_first_runs_result_to_the_second() {
    let Some((dir, package)) = package("sum") else {
        return;
    };
    let write = |path: &str, text: &str| std::fs::write(package.join(path), text).unwrap();
    // Encodes x as 2x; decodes c as c / 2.
    write(
        "solutions/main.py",
        "words = input().split()\nif words[0] == 'second':\n    print(int(words[1]) // 2)\n\
         else:\n    print(int(words[1]) * 2, flush=True)\n",
    );
    write(
        "solutions/off_by_one.py",
        "words = input().split()\nif words[0] == 'second':\n    print(int(words[1]) // 2 + 1)\n\
         else:\n    print(int(words[1]) * 2, flush=True)\n",
    );
    write(
        "solutions/odd.py",
        "words = input().split()\nprint(int(words[1]) * 2 + 1)\n",
    );
    // After the first run: a code must be even, and becomes the second run's input. After the
    // second (its input starts with `second`): the decoded number must be the answer.
    write(
        "files/check.py",
        "import sys\ninf = open(sys.argv[1]).read().split()\nout = open(sys.argv[2]).read().split()\n\
         if inf[0] == 'first':\n    if int(out[0]) % 2:\n        sys.stderr.write('odd code')\n        sys.exit(1)\n    \
         print('second', out[0])\n    sys.exit(0)\n\
         expected = int(open(sys.argv[3]).read())\nif int(out[0]) != expected:\n    \
         sys.stderr.write(f'decoded {out[0]}, expected {expected}')\n    sys.exit(1)\n",
    );
    // Gives the first run `first x` and writes its code as the second run's input; in the
    // second (where it talks with that run too), gives it that and writes what it decoded.
    write(
        "files/interactor.py",
        "import sys\ninf = open(sys.argv[1]).read().split()\nprint(*inf, flush=True)\n\
         said = input()\nopen(sys.argv[2], 'w').write(f'second {said}\\n' if inf[0] == 'first' else said + '\\n')\n",
    );
    for (number, x) in [("01", 37), ("02", 5), ("03", 1000)] {
        write(&format!("tests/{number}"), &format!("first {x}\n"));
        write(&format!("tests/{number}.a"), &format!("{x}\n"));
    }
    edit_xml(
        &package,
        r#"<test cmd="gen 3" method="generated"/>"#,
        r#"<test method="manual"/>"#,
    );
    edit_xml(
        &package,
        r#"<source path="files/check.cpp" type="cpp.g++17"/>"#,
        r#"<source path="files/check.py" type="python.3"/>"#,
    );
    edit_xml(&package, r#"run-count="1""#, r#"run-count="2""#);
    let interactor = r#"<interactor><source path="files/interactor.py" type="python.3"/>"#;
    let kinds = [
        ("no interactor", String::new()),
        (
            "the interactor with the first run",
            format!("{interactor}</interactor>"),
        ),
        (
            "the interactor with both runs",
            format!("{interactor}<runs><run>1</run><run>2</run></runs></interactor>"),
        ),
    ];
    let mut last = String::new();
    for (kind, interactor) in kinds {
        let xml = std::fs::read_to_string(package.join("problem.xml")).unwrap();
        let xml =
            xml.replace(&last, "")
                .replacen("<solutions>", &format!("{interactor}<solutions>"), 1);
        std::fs::write(package.join("problem.xml"), xml).unwrap();
        last = interactor;
        let accepted = stdout_of(judge_in(dir.path()).args(["run", "sum"]), 0);
        assert!(accepted.contains("sum: 3/3 accepted"), "{kind}: {accepted}");
        let decoded = stdout_of(
            judge_in(dir.path()).args(["run", "sum", "--solution", "sum/solutions/off_by_one.py"]),
            1,
        );
        assert!(
            decoded.contains("run 2: decoded 38, expected 37"),
            "{kind}: {decoded}"
        );
        let table = stdout_of(judge_in(dir.path()).args(["verify", "sum"]), 0);
        assert!(
            table.contains("2 submissions, 0 mismatches"),
            "{kind}: {table}"
        );
        // A missing answer is what the main solution's second run makes of the test.
        std::fs::remove_file(package.join("tests/02.a")).unwrap();
        let made = stdout_of(judge_in(dir.path()).args(["gen", "sum"]), 0);
        assert!(made.contains("1 file written"), "{kind}: {made}");
        let answer = std::fs::read_to_string(package.join("tests/02.a")).unwrap();
        assert_eq!(answer, "5\n", "{kind}");
        if kind == "no interactor" {
            let repository = repository_with(&[("problems/.keep", "")]);
            judge_in(repository.path())
                .args(["new", "--from-polygon"])
                .arg(&package)
                .assert()
                .code(2)
                .stderr(predicate::str::contains(
                    "a run-twice package has no counterpart",
                ));
            assert!(!repository.path().join("problems/sum").exists());
            let odd = stdout_of(
                judge_in(dir.path()).args(["run", "sum", "--solution", "sum/solutions/odd.py"]),
                1,
            );
            assert!(odd.contains("run 1: odd code"), "{odd}");
        }
    }
}

/// A checker not built on testlib may take the three files alone, as Polygon documents the
/// call: one that writes no `-appes` report and does not accept is asked so.
#[test]
fn a_checker_that_takes_three_files_alone_is_called_with_them() {
    let Some((dir, package)) = package("sum") else {
        return;
    };
    std::fs::write(
        package.join("files/check.py"),
        "import sys\nif len(sys.argv) != 4:\n    print('Usage: checker <input> <output> <answer>')\n    sys.exit(1)\n\
         got, want = open(sys.argv[2]).read().split(), open(sys.argv[3]).read().split()\n\
         sys.exit(0 if got == want else 1)\n",
    )
    .unwrap();
    edit_xml(
        &package,
        r#"<source path="files/check.cpp" type="cpp.g++17"/>"#,
        r#"<source path="files/check.py" type="python.3"/>"#,
    );
    let accepted = stdout_of(judge_in(dir.path()).args(["run", "sum"]), 0);
    assert!(accepted.contains("sum: 3/3 accepted"), "{accepted}");
    let table = stdout_of(judge_in(dir.path()).args(["verify", "sum"]), 0);
    assert!(table.contains("2 submissions, 0 mismatches"), "{table}");
}

#[test]
fn a_verify_of_a_scratch_copy_names_the_packages_own_files() {
    let Some((dir, package)) = package("sum") else {
        return;
    };
    // A missing answer: verify judges a scratch copy, where the checker does not compile.
    std::fs::remove_file(package.join("tests/02.a")).unwrap();
    std::fs::write(package.join("files/check.cpp"), "int main( {\n").unwrap();
    let output = judge_in(dir.path())
        .args(["verify", "sum"])
        .assert()
        .code(2);
    let output = output.get_output();
    let said =
        String::from_utf8_lossy(&[&output.stdout[..], &output.stderr[..]].concat()).into_owned();
    let checker = package.join("files/check.cpp").display().to_string();
    assert!(
        said.contains(&format!("the checker does not compile: {checker}:1:")),
        "{said}"
    );
    // Every whole path to it is the package's, none the scratch copy's.
    let named = said.matches("/files/check.cpp").count();
    assert_eq!(said.matches(checker.as_str()).count(), named, "{said}");
    // A manual test missing too: the problem.xml named is the package's.
    std::fs::remove_file(package.join("tests/01")).unwrap();
    let xml = package.join("problem.xml").display().to_string();
    judge_in(dir.path())
        .args(["verify", "sum"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(format!(
            "{xml}: line 14: test 1: `tests/01` is not in the package"
        )));
}

#[test]
fn verify_runs_the_validators_on_every_test_and_the_self_tests_as_marked() {
    let Some((dir, package)) = package("sum") else {
        return;
    };
    let write = |path: &str, text: &str| {
        let path = package.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    // Strict as testlib on Linux: one line of two numbers up to 10^6, LF-ended; it says the
    // testset and group it was given.
    write(
        "files/val.py",
        "import sys\ndata = sys.stdin.buffer.read()\n\
         if not data.endswith(b'\\n') or b'\\r' in data or len(data.split()) != 2:\n    \
         sys.stderr.write('not two numbers on an LF-ended line'); sys.exit(3)\n\
         if any(abs(int(x)) > 10**6 for x in data.split()):\n    \
         sys.stderr.write('a number past 10^6 (' + ' '.join(sys.argv[1:]) + ')'); sys.exit(3)\n",
    );
    // Test 2 shipped as Windows packages ship it: CRLF, which Polygon's validator reads there.
    write("tests/02", "10 -4\r\n");
    write("tests/03", "1000001 1\n");
    write("tests/03.a", "1000002\n");
    write("files/tests/validator-tests/01", "1 2\n");
    write("files/tests/validator-tests/02", "1 2 3\n");
    // Checker self-tests numbered with a gap (02 deleted), and one marked wrongly.
    for (number, output, answer) in [("01", "3", "3"), ("03", "4", "3"), ("04", "3", "3")] {
        write(&format!("files/tests/checker-tests/{number}"), "1 2\n");
        write(
            &format!("files/tests/checker-tests/{number}.o"),
            &format!("{output}\n"),
        );
        write(
            &format!("files/tests/checker-tests/{number}.a"),
            &format!("{answer}\n"),
        );
    }
    edit_xml(
        &package,
        r#"<checker name="std::wcmp.cpp" type="testlib">
            <source path="files/check.cpp" type="cpp.g++17"/>"#,
        r#"<checker name="std::wcmp.cpp" type="testlib">
            <source path="files/check.cpp" type="cpp.g++17"/>
            <testset><test-count>4</test-count>
                <input-path-pattern>files/tests/checker-tests/%02d</input-path-pattern>
                <output-path-pattern>files/tests/checker-tests/%02d.o</output-path-pattern>
                <answer-path-pattern>files/tests/checker-tests/%02d.a</answer-path-pattern>
                <tests><test verdict="ok"/><test verdict="wrong-answer"/><test verdict="wrong-answer"/><test verdict="ok"/></tests>
            </testset>"#,
    );
    edit_xml(
        &package,
        "<solutions>",
        r#"<validators><validator><source path="files/val.py" type="python.3"/>
            <testset><test-count>2</test-count>
                <input-path-pattern>files/tests/validator-tests/%02d</input-path-pattern>
                <tests><test verdict="valid"/><test verdict="valid"/></tests>
            </testset></validator>
            <validator><source path="files/broken.py" type="python.3"/></validator></validators>
        <solutions>"#,
    );
    write("files/broken.py", "def (:\n");
    edit_xml(
        &package,
        r#"<test cmd="gen 3" method="generated"/>"#,
        r#"<test cmd="gen 3" method="generated" group="big"/>"#,
    );
    // Without an answer, which no validator reads: `--validate` checks the same, alone.
    std::fs::remove_file(package.join("tests/01.a")).unwrap();
    let table = stdout_of(judge_in(dir.path()).args(["verify", "sum"]), 1);
    assert!(table.contains("0 mismatches"), "{table}");
    let validated = stdout_of(
        judge_in(dir.path()).args(["verify", "--validate", "sum"]),
        1,
    );
    assert!(!validated.contains("solutions/"), "{validated}");
    for line in [
        "validator files/val.py: 2 of 3 tests valid; 1 of 2 self-tests as marked",
        "test 3 (`tests/03`): files/val.py rejects it: a number past 10^6 (--testset tests --group big)",
        "self-test 2 (`files/tests/validator-tests/02`): marked valid, got invalid: not two numbers",
        // 01, 03, 04 are the first three tests: 02 was deleted, and the fourth is missing.
        "checker files/check.cpp: 2 of 4 self-tests as marked",
        "self-test 4 (`files/tests/checker-tests/04`): marked wrong-answer, got ok: 1 tokens",
        "self-test 5 (marked ok): `files/tests/checker-tests/05` is not in the package",
        // Named within the package, as the scratch copy a verify may judge is not its.
        "validator files/broken.py: not built",
        "\n    files/broken.py: does not compile",
    ] {
        assert!(table.contains(line), "{line}:\n{table}");
        assert!(validated.contains(line), "{line}:\n{validated}");
    }
}

#[test]
fn doctor_says_what_of_a_polygon_package_is_read_with_every_tag() {
    let dir = tempfile::tempdir().unwrap();
    let doctor = stdout_of(judge_in(dir.path()).arg("doctor"), 0);
    let section = &doctor[doctor.find("Polygon packages").expect("a Polygon section")..];
    for (tag, rule) in [
        ("main", "every test AC, with its full points where scored"),
        ("rejected", "some test not AC, or points short of the full"),
        (
            "time-limit-exceeded-or-accepted",
            "every test AC, or the first failed one TLE",
        ),
        (
            "time-limit-exceeded-or-memory-limit-exceeded",
            "the first failed test TLE or MLE",
        ),
        ("failed", "the first failed test RE"),
    ] {
        let row = section
            .lines()
            .find(|line| line.trim_start().starts_with(&format!("{tag} ")));
        let row = row.unwrap_or_else(|| panic!("no row for {tag}:\n{section}"));
        assert!(row.ends_with(rule), "{row}");
    }
    assert!(section.contains("3 JE (the checker failed)"), "{section}");
}

#[test]
fn a_checkers_points_score_a_test_as_they_are_or_as_a_percentage() {
    let Some((dir, package)) = package("verdicts") else {
        return;
    };
    // Tests 1 and 2 only (ok, then the checker's 5 points), each worth 20 by itself.
    edit_xml(
        &package,
        "<test-count>5</test-count>",
        "<test-count>2</test-count>",
    );
    edit_xml(
        &package,
        r#"<test method="manual"/>
                <test method="manual"/>
                <test method="manual"/>
                <test method="manual"/>
                <test method="manual"/>"#,
        r#"<test method="manual" points="20"/>
                <test method="manual" points="20"/>"#,
    );
    for number in [3, 4, 5] {
        for end in ["in", "ans"] {
            std::fs::remove_file(package.join(format!("tests/{number}.{end}"))).unwrap();
        }
    }
    let score = || {
        let report = stdout_of(judge_in(dir.path()).args(["run", "verdicts"]), 0);
        let line = report.lines().find(|line| line.contains("score"));
        line.unwrap_or_else(|| panic!("no score:\n{report}"))
            .trim()
            .to_owned()
    };
    assert_eq!(score(), "verdicts: score 25 / 40 (1 20/20, 2 5/20)");
    edit_xml(
        &package,
        r#"<judging input-file="""#,
        r#"<judging treat-points-from-checker-as-percent="true" input-file="""#,
    );
    assert_eq!(score(), "verdicts: score 21 / 40 (1 20/20, 2 1/20)");
    // Short of the full points, every test passed, the solution is partially correct (PT):
    // not what `main` promises, and what `rejected` does (problem-xml-specs §6.5).
    let row = |code| {
        let report = stdout_of(judge_in(dir.path()).args(["verify", "verdicts"]), code);
        let row = report
            .lines()
            .find(|line| line.starts_with("solutions/echo.py"));
        row.unwrap_or_else(|| panic!("no row:\n{report}"))
            .to_owned()
    };
    let main = row(1);
    assert!(
        main.contains("score 21/40") && main.ends_with("MISMATCH"),
        "{main}"
    );
    edit_xml(
        &package,
        r#"<solution tag="main">"#,
        r#"<solution tag="rejected">"#,
    );
    let rejected = row(0);
    assert!(
        rejected.contains("score 21/40") && rejected.ends_with(" ok"),
        "{rejected}"
    );
}

#[test]
fn new_from_polygon_makes_one_of_our_problems_that_judges_as_the_package_does() {
    let Some((dir, package)) = package("sum") else {
        return;
    };
    let repository = repository_with(&[("problems/.keep", "")]);
    let made = stdout_of(
        judge_in(repository.path())
            .args(["new", "--from-polygon"])
            .arg(&package),
        0,
    );
    assert!(made.contains("created problems/sum/"), "{made}");
    let problem = repository.path().join("problems/sum");
    let toml = std::fs::read_to_string(problem.join("problem.toml")).unwrap();
    for line in [
        "name = \"Pair sum\"",
        "profile = \"codeforces\"",
        "time_limit_ms = 2000",
        "memory_limit_mib = 256",
        "solution = \"main.py\"",
        "checker = \"checker.cpp\"",
    ] {
        assert!(toml.lines().any(|l| l == line), "{line}:\n{toml}");
    }
    assert_eq!(
        std::fs::read(problem.join("tests/sample/01.in")).unwrap(),
        std::fs::read(package.join("tests/01")).unwrap()
    );
    judge_in(repository.path())
        .args(["run", "sum"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("sum: 3/3 accepted"));
    judge_in(repository.path())
        .args(["run", "sum", "--solution"])
        .arg(package.join("solutions/off_by_one.py"))
        .assert()
        .code(1)
        .stdout(predicate::str::contains("token 1: expected '6', found '7'"));
    // A second time, the folder is there: refused, nothing changed.
    judge_in(repository.path())
        .args(["new", "--from-polygon"])
        .arg(&package)
        .assert()
        .code(2);
    drop(dir);
}

#[test]
fn a_checkers_appes_report_decides_where_its_exit_code_cannot() {
    let Some((dir, package)) = package("verdicts") else {
        return;
    };
    // Output `partly`: testlib's partially correct, exit code 1 in its default build.
    std::fs::write(
        package.join("files/checker.cpp"),
        "#include \"testlib.h\"\n#include <string>\nint main(int argc, char* argv[]) {\n    \
         registerTestlibCmd(argc, argv);\n    std::string said = ouf.readToken();\n    \
         if (said == \"partly\") quitpc(1, \"one part of two\");\n    \
         if (said == \"points\") quitf(_points, \"5 of 10\");\n    quitf(_ok, \"fine\");\n}\n",
    )
    .unwrap();
    std::fs::write(package.join("tests/3.in"), "partly\n").unwrap();
    let json = stdout_of(
        judge_in(dir.path()).args([
            "--format", "json", "run", "verdicts", "--case", "2", "--case", "3",
        ]),
        0,
    );
    let document: serde_json::Value = serde_json::from_str(&json).unwrap();
    let cases = document["problems"][0]["cases"].as_array().unwrap().clone();
    let got: Vec<(&str, &str, String)> = cases
        .iter()
        .map(|case| {
            let score = case["validator_score"].to_string();
            (
                case["name"].as_str().unwrap(),
                case["verdict"].as_str().unwrap(),
                score,
            )
        })
        .collect();
    assert_eq!(got[0].0, "2");
    assert_eq!((got[0].1, got[1].1), ("AC", "AC"), "{json}");
    assert!(got[0].2.contains('5') && got[1].2.contains('1'), "{got:?}");
}
