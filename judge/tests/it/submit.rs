//! From the judge's page to a submission: `check` against what each judge takes, problems
//! made from Competitive Companion payloads (`new --from`, and `listen` over real TCP), and
//! `watch` re-judging on a save. Payloads are saved ones, in `fixtures/companion/`.

use std::fs;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{Child, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use crate::common::{
    fixture, judge, judge_in, judge_std_in, repository_with, snapshot, SUM_SOLUTION,
};

fn stdout_of(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn check_refuses_rust_for_swea_and_names_the_java_file() {
    let output = judge()
        .args(["check", "solutions/swea_11545.rs"])
        .output()
        .unwrap();
    let stdout = stdout_of(&output);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("SW Expert Academy does not take Rust: it takes C, C++, Java, Python"),
        "{stdout}"
    );
    assert!(
        stdout.contains("use       solutions/swea_11545.java"),
        "{stdout}"
    );
    assert!(!stdout.contains("submit:"), "{stdout}");
}

#[test]
fn check_refuses_rust_for_programmers_and_names_the_python_file() {
    let output = judge()
        .args([
            "check",
            "solutions/programmers_160585.rs",
            "--profile",
            "programmers",
        ])
        .output()
        .unwrap();
    let stdout = stdout_of(&output);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("Programmers does not take Rust"),
        "{stdout}"
    );
    assert!(
        stdout.contains("solutions/programmers_160585.py"),
        "{stdout}"
    );
}

#[test]
fn check_prints_exactly_the_programmers_function_to_paste() {
    let output = judge()
        .args(["check", "solutions/programmers_160585.py"])
        .output()
        .unwrap();
    let stdout = stdout_of(&output);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("17/17 accepted"), "{stdout}");
    let paste = stdout
        .split("----8<----\n")
        .nth(1)
        .expect("the text to paste between two scissors lines");
    let file = fs::read_to_string(
        crate::common::repository_root().join("solutions/programmers_160585.py"),
    )
    .unwrap();
    let adapter = file.find("# --- stdin adapter").unwrap();
    assert_eq!(paste, format!("{}\n", file[..adapter].trim_end()));
    assert!(paste.contains("def solution(board):"));
    assert!(!paste.contains("sys.stdin"), "{paste}");
}

#[test]
fn check_says_which_baekjoon_rust_edition_builds() {
    // `TryFrom` is in the prelude from the 2021 edition on: 2018 does not find `try_from`.
    let source =
        "fn main() {\n    let x = u8::try_from(5i32).unwrap();\n    println!(\"{x}\");\n}\n";
    let dir = repository_with(&[("problems/.keep", ""), ("solutions/new2021.rs", source)]);
    let output = judge_in(dir.path())
        .args(["check", "solutions/new2021.rs", "--profile", "boj"])
        .output()
        .unwrap();
    let stdout = stdout_of(&output);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("does not build as Rust 2018"), "{stdout}");
    assert!(stdout.contains("ok        builds as Rust 2021"), "{stdout}");
    assert!(stdout.contains("submit as: Rust 2021\n"), "{stdout}");

    // Reserved prefixes (`z"x"`) are an error from 2021 on only.
    let source = "macro_rules! two { ($a:ident $b:literal) => {}; }\ntwo!(z\"x\");\nfn main() {}\n";
    fs::write(dir.path().join("solutions/old2018.rs"), source).unwrap();
    let output = judge_in(dir.path())
        .args(["check", "solutions/old2018.rs", "--profile", "boj"])
        .output()
        .unwrap();
    let stdout = stdout_of(&output);
    assert!(stdout.contains("submit as: Rust 2018\n"), "{stdout}");
    assert!(stdout.contains("does not build as Rust 2021"), "{stdout}");
}

#[test]
fn each_solution_file_of_a_problem_is_judged_and_reported_by_its_path() {
    let output = judge()
        .args(["run", "swea_11545", "programmers_160585"])
        .output()
        .unwrap();
    let stdout = stdout_of(&output);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    for file in [
        "solutions/swea_11545.rs",
        "solutions/swea_11545.java",
        "solutions/programmers_160585.rs",
        "solutions/programmers_160585.py",
    ] {
        assert!(stdout.contains(file), "{file} not judged:\n{stdout}");
    }
}

/// A repository with a problems folder and nothing else.
/// What `judge new --from` prints, made in `root` from the saved payload `fixture`.
fn imported(root: &Path, fixture_name: &str) -> String {
    crate::common::stdout_of(
        judge_in(root).args(["new", "--from", &fixture(fixture_name)]),
        0,
    )
}

fn empty_repository() -> tempfile::TempDir {
    repository_with(&[("problems/.keep", ""), ("solutions/.keep", "")])
}

#[test]
fn new_from_a_saved_payload_makes_a_problem_that_judges() {
    let dir = empty_repository();
    let root = dir.path();
    let output = judge_in(root)
        .args(["new", "--from", &fixture("companion/boj_1000.json")])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let stdout = stdout_of(&output);
    assert!(
        stdout.contains("created problems/boj_1000/tests/sample/2.out"),
        "{stdout}"
    );
    let problem = root.join("problems/boj_1000");
    let metadata = fs::read_to_string(problem.join("problem.toml")).unwrap();
    assert_eq!(
        metadata,
        "name = \"A+B\"\nsource = \"https://www.acmicpc.net/problem/1000\"\nprofile = \"boj\"\n\
         time_limit_ms = 2000\nmemory_limit_mib = 128\ncompare = \"baekjoon\"\n"
    );
    assert_eq!(
        fs::read_to_string(problem.join("tests/sample/1.in")).unwrap(),
        "1 2\n"
    );
    assert_eq!(
        fs::read_to_string(problem.join("tests/sample/2.in")).unwrap(),
        "40 2\n"
    );
    assert_eq!(
        fs::read_to_string(problem.join("tests/sample/2.out")).unwrap(),
        "42\n"
    );
    // The Baekjoon template is the plain program summing its input: A+B as it is.
    assert!(root.join("solutions/boj_1000.rs").is_file());
    judge_in(root).args(["run", "boj_1000"]).assert().code(0);

    // Again, after the user's edits: nothing is overwritten, and it says where the page
    // differs from what is kept.
    fs::write(problem.join("tests/sample/1.out"), "03\n").unwrap();
    fs::write(
        problem.join("problem.toml"),
        metadata.replace("time_limit_ms = 2000", "time_limit_ms = 1000"),
    )
    .unwrap();
    let before = snapshot(root);
    let output = judge_in(root)
        .args(["new", "--from", &fixture("companion/boj_1000.json")])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let stdout = stdout_of(&output);
    for line in [
        "kept    time_limit_ms = 1000 in problem.toml (the page says 2000 ms)\n",
        "kept    problems/boj_1000/tests/sample/1 (already there; the page's differs, so compare them)\n",
        "kept    problems/boj_1000/tests/sample/2 (already there)\n",
    ] {
        assert!(stdout.contains(line), "{line} in {stdout}");
    }
    assert!(!stdout.contains("memory_limit_mib"), "{stdout}");
    assert_eq!(snapshot(root), before);

    // A missing sample is added, and only that one.
    fs::remove_file(problem.join("tests/sample/2.in")).unwrap();
    fs::remove_file(problem.join("tests/sample/2.out")).unwrap();
    let output = judge_in(root)
        .args(["new", "--from", &fixture("companion/boj_1000.json")])
        .output()
        .unwrap();
    assert!(stdout_of(&output).contains("added   problems/boj_1000/tests/sample/2"));
    assert_eq!(
        fs::read_to_string(problem.join("tests/sample/2.out")).unwrap(),
        "42\n"
    );
}

#[test]
fn a_page_whose_id_holds_another_problem_takes_the_next_free_id() {
    // Two years' first problems of a contest whose URL the id leaves the year out of: both
    // would be `facebook_qualification_round_a`.
    let dir = empty_repository();
    let root = dir.path();
    let payload = |year: u32, name: &str, answer: &str| {
        let file = root.join(format!("{year}.json"));
        let json = format!(
            r#"{{"name": "{name}", "url": "https://www.facebook.com/codingcompetitions/hacker-cup/{year}/qualification-round/problems/A",
                "timeLimit": 1000, "memoryLimit": 64,
                "tests": [{{"input": "1\n", "output": "{answer}\n"}}]}}"#
        );
        fs::write(&file, json).unwrap();
        file.to_string_lossy().into_owned()
    };
    let (first, second) = (payload(2019, "Sum", "1"), payload(2020, "Product", "7"));
    judge_in(root)
        .args(["new", "--from", &first])
        .assert()
        .code(0);
    let made = stdout_of(
        &judge_in(root)
            .args(["new", "--from", &second])
            .output()
            .unwrap(),
    );
    assert!(
        made.contains("problems/facebook_qualification_round_a holds another problem, so this one is facebook_qualification_round_a_2"),
        "{made}"
    );
    let answer =
        |id: &str| fs::read_to_string(root.join(format!("problems/{id}/tests/sample/1.out")));
    assert_eq!(answer("facebook_qualification_round_a").unwrap(), "1\n");
    assert_eq!(answer("facebook_qualification_round_a_2").unwrap(), "7\n");
    // Each again: its own problem, where nothing is missing.
    let before = snapshot(root);
    for (file, id) in [
        (&first, "facebook_qualification_round_a"),
        (&second, "facebook_qualification_round_a_2"),
    ] {
        let again = stdout_of(
            &judge_in(root)
                .args(["new", "--from", file])
                .output()
                .unwrap(),
        );
        assert!(
            again.contains(&format!("kept    problems/{id}/tests/sample/1")),
            "{again}"
        );
    }
    assert_eq!(snapshot(root), before);
}

#[test]
fn codeforces_payloads_get_their_contest_and_index() {
    let dir = empty_repository();
    judge_in(dir.path())
        .args([
            "new",
            "--from",
            &fixture("companion/codeforces_1234_a.json"),
        ])
        .assert()
        .code(0);
    let problem = dir.path().join("problems/cf_1234_a");
    assert_eq!(
        fs::read_to_string(problem.join("tests/sample/1.out")).unwrap(),
        "3\n2\n1\n"
    );
    let metadata = fs::read_to_string(problem.join("problem.toml")).unwrap();
    assert!(
        metadata.contains(
            "profile = \"codeforces\"\ntime_limit_ms = 1000\nmemory_limit_mib = 256\ncompare = \"tokens\"\n"
        ),
        "{metadata}"
    );
    // The template in Codeforces' convention: `t` test cases, an answer for each.
    let template = fs::read_to_string(dir.path().join("solutions/cf_1234_a.rs")).unwrap();
    assert!(template.contains("for _ in 0..t"), "{template}");
}

#[test]
fn a_page_without_samples_or_an_interactive_one_becomes_a_problem_with_its_to_do() {
    let dir = empty_repository();
    let root = dir.path();
    let made = imported(root, "companion/no_tests.json");
    assert!(
        made.contains("new problem boj_1000")
            && made.contains("to do: the page sent no samples: add cases with `judge add boj_1000"),
        "{made}"
    );
    // Until a case is added, judging it says what is missing.
    judge_in(root)
        .args(["run", "boj_1000"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("no test cases"));
    // Listed all the same: it is on its way, not broken.
    let listed = judge_in(root).arg("list").output().unwrap();
    assert_eq!(listed.status.code(), Some(0));
    let listed = stdout_of(&listed);
    assert!(
        listed.contains("boj_1000: no cases yet: `judge add boj_1000")
            && listed
                .lines()
                .any(|row| row.starts_with("boj_1000 ") && row.contains(" 0 ")),
        "{listed}"
    );
    let made = imported(root, "companion/kattis_interactive.json");
    assert!(
        made.contains("new problem kattis_guess")
            && made.contains(
                "to do: interactive: write an interactor as problems/kattis_guess/interactor.cpp"
            ),
        "{made}"
    );
    let metadata = fs::read_to_string(root.join("problems/kattis_guess/problem.toml")).unwrap();
    assert!(
        metadata.contains("\ninteractor = \"interactor.cpp\"\n"),
        "{metadata}"
    );
    // A sample is one exchange, no batch input: nothing is judged until the interactor is.
    let tests = root.join("problems/kattis_guess/tests");
    fs::create_dir_all(&tests).unwrap();
    fs::write(tests.join("1.in"), "> 5\n< lower\n").unwrap();
    fs::write(tests.join("1.out"), "3\n").unwrap();
    judge_in(root)
        .args(["run", "kattis_guess"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "kattis_guess/interactor.cpp: does not exist: the problem names it as its interactor",
        ));
}

/// A page that says its input is a count of tests (`multiNumber`) gets the template that
/// reads them, on a judge whose profile reads one.
#[test]
fn a_multi_number_page_gets_the_counted_template() {
    let dir = empty_repository();
    let root = dir.path();
    let made = imported(root, "companion/multinumber_codechef.json");
    assert!(
        made.contains("new problem codechef_sumpairs (boj"),
        "{made}"
    );
    let template = fs::read_to_string(root.join("solutions/codechef_sumpairs.rs")).unwrap();
    assert!(template.contains("for _ in 0..t"), "{template}");
}

/// A page whose problem reads `input.txt` and writes `output.txt`: the judge runs it so, and
/// judges the file, not standard output.
#[test]
fn a_file_io_page_is_judged_on_the_file_it_names() {
    let dir = empty_repository();
    let root = dir.path();
    let made = imported(root, "companion/file_io_sum.json");
    assert!(made.contains("new problem cf_99999_a"), "{made}");
    let metadata = fs::read_to_string(root.join("problems/cf_99999_a/problem.toml")).unwrap();
    assert!(
        metadata.contains("input_file = \"input.txt\"\noutput_file = \"output.txt\"\n"),
        "{metadata}"
    );
    let solution = |name: &str, code: &str| {
        let path = root.join(name);
        fs::write(&path, code).unwrap();
        judge_in(root)
            .args(["run", "cf_99999_a", "--solution"])
            .arg(&path)
            .output()
            .unwrap()
    };
    let files = solution(
        "files.py",
        "a, b = map(int, open('input.txt').read().split())\n\
         with open('output.txt', 'w') as out:\n    out.write(f'{a + b}\\n')\n",
    );
    let report = String::from_utf8_lossy(&files.stdout);
    assert!(
        files.status.success() && report.contains("2/2 accepted"),
        "{report}"
    );
    // Right on standard output, where the judge reads the file: not accepted.
    let streams = solution(
        "streams.py",
        "a, b = map(int, input().split())\nprint(a + b)\n",
    );
    let report = String::from_utf8_lossy(&streams.stdout);
    assert_eq!(streams.status.code(), Some(1), "{report}");
    assert!(
        report.contains("WA") && report.contains("no output.txt was written"),
        "{report}"
    );
    // The solution template reads and writes the files the page names: on a case of its
    // placeholder task (Codeforces': a count of tests, then each) it is accepted as it is.
    let template = fs::read_to_string(root.join("solutions/cf_99999_a.rs")).unwrap();
    assert!(
        template.contains("read_to_string(\"input.txt\")")
            && template.contains("File::create(\"output.txt\")"),
        "{template}"
    );
    fs::write(root.join("counted.in"), "2\n2\n40 2\n1\n7\n").unwrap();
    fs::write(root.join("counted.out"), "42\n7\n").unwrap();
    let add = judge_in(root)
        .args([
            "add",
            "cf_99999_a",
            "--input",
            "counted.in",
            "--expected",
            "counted.out",
        ])
        .args(["--name", "manual/template"])
        .output()
        .unwrap();
    assert!(
        add.status.success(),
        "{}",
        String::from_utf8_lossy(&add.stderr)
    );
    let own = judge_in(root)
        .args(["run", "cf_99999_a", "--case", "manual/template"])
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&own.stdout);
    assert!(
        own.status.success() && report.contains("1/1 accepted"),
        "{report}"
    );
}

/// A page whose judge runs the Java class `Solution` (Google's): the problem says so, and a
/// Java file is built and run as that class, as there; a `Main` is the judge's compile error.
#[test]
fn a_page_naming_its_java_class_builds_java_as_that_class() {
    let dir = empty_repository();
    let root = dir.path();
    let made = imported(root, "companion/google_solution_class.json");
    let id = made
        .lines()
        .find_map(|line| line.strip_prefix("new problem ")?.split(' ').next())
        .expect("the import names its problem")
        .to_owned();
    let metadata = fs::read_to_string(root.join(format!("problems/{id}/problem.toml"))).unwrap();
    assert!(
        metadata.contains("java_class = \"Solution\"\n"),
        "{metadata}"
    );
    let judged = |class: &str| {
        let path = root.join(format!("{class}.java"));
        let code = format!(
            "import java.util.Scanner;\npublic class {class} {{\n    public static void main(String[] args) {{\n        Scanner in = new Scanner(System.in);\n        System.out.println(in.nextLong() + in.nextLong());\n    }}\n}}\n"
        );
        fs::write(&path, code).unwrap();
        let output = judge_in(root)
            .args(["run", &id, "--solution"])
            .arg(&path)
            .output()
            .unwrap();
        (output.status.code(), stdout_of(&output))
    };
    let (code, report) = judged("Solution");
    assert_eq!(code, Some(0), "{report}");
    assert!(report.contains("1/1 accepted"), "{report}");
    let (code, report) = judged("Main");
    assert_eq!(code, Some(1), "{report}");
    assert!(
        report.contains("CE") && report.contains("the class must be `Solution`"),
        "{report}"
    );
}

#[test]
fn bad_payloads_are_errors_that_leave_nothing() {
    let dir = empty_repository();
    let before = snapshot(dir.path());
    for (file, message) in [
        (
            "companion/broken.json",
            "broken.json: line 5: column 3: not a Competitive Companion payload",
        ),
        (
            "companion/not_a_problem.json",
            "not_a_problem.json: the payload has neither a name nor a url",
        ),
    ] {
        let output = judge_in(dir.path())
            .args(["new", "--from", &fixture(file)])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains(message), "{stderr}");
        assert_eq!(snapshot(dir.path()), before, "{file} left something");
    }
}

#[test]
fn new_writes_each_judges_convention_and_says_how_to_add_samples() {
    let dir = empty_repository();
    let output = judge_in(dir.path())
        .args(["new", "swea_1", "--profile", "swea"])
        .output()
        .unwrap();
    assert!(stdout_of(&output).contains("judge listen"), "{output:?}");
    let swea = fs::read_to_string(dir.path().join("solutions/swea_1.rs")).unwrap();
    assert!(swea.contains("for case in 1..=cases") && swea.contains("\"#{case} {answer}\""));
    // Beside it, the same in Python, which SWEA takes: both solve T cases of `n` numbers.
    let samples = dir.path().join("problems/swea_1/tests/sample");
    fs::write(samples.join("1.in"), "2\n3 1 2 3\n1 5\n").unwrap();
    fs::write(samples.join("1.out"), "#1 6\n#2 5\n").unwrap();
    let output = judge_in(dir.path())
        .args(["run", "swea_1"])
        .output()
        .unwrap();
    let stdout = stdout_of(&output);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    for file in ["solutions/swea_1.py", "solutions/swea_1.rs"] {
        assert!(stdout.contains(file), "{stdout}");
    }
    judge_in(dir.path())
        .args(["new", "programmers_1", "--profile", "programmers"])
        .assert()
        .code(0);
    let programmers = fs::read_to_string(dir.path().join("solutions/programmers_1.rs")).unwrap();
    assert!(programmers.starts_with("fn solution("), "{programmers}");
    assert!(
        programmers.contains("// --- stdin adapter"),
        "{programmers}"
    );
    let output = judge_in(dir.path())
        .args(["check", "solutions/programmers_1.py"])
        .output()
        .unwrap();
    let paste = "----8<----\ndef solution(numbers):\n    return sum(numbers)\n----8<----\n";
    assert!(stdout_of(&output).contains(paste), "{output:?}");
    // Its problem has no case yet: the check says so, not that there is no such problem.
    assert!(
        stdout_of(&output).contains("no cases run: problem `programmers_1` cannot be judged")
            && stdout_of(&output).contains("no test cases"),
        "{output:?}"
    );
}

/// Lines of a child's stdout, read by a thread so that a test can wait with a deadline.
struct Lines(mpsc::Receiver<String>);

impl Lines {
    fn of(child: &mut Child) -> Lines {
        let stdout = child.stdout.take().unwrap();
        let (sender, receiver) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        Lines(receiver)
    }

    /// Every line up to and including the first that contains `text`.
    fn until(&self, text: &str) -> String {
        let mut seen = String::new();
        loop {
            match self.0.recv_timeout(Duration::from_secs(60)) {
                Ok(line) => {
                    seen += &line;
                    seen.push('\n');
                    if line.contains(text) {
                        return seen;
                    }
                }
                Err(_) => panic!("no line with `{text}` after:\n{seen}"),
            }
        }
    }
}

fn interrupt_and_wait(mut child: Child) {
    // SAFETY: kill(2) on our own child's pid.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    for _ in 0..100 {
        if let Some(status) = child.try_wait().unwrap() {
            // It ends by the signal, as a shell expects of Ctrl-C.
            assert_eq!(status.signal(), Some(libc::SIGINT), "{status:?}");
            return;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    child.kill().unwrap();
    panic!("still running 5 s after SIGINT");
}

fn post(port: u16, body: &str) -> String {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(
        stream,
        "POST / HTTP/1.1\r\nHost: localhost:{port}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    answer
}

#[test]
fn listen_takes_posts_from_the_extension_and_stops_on_ctrl_c() {
    let dir = empty_repository();
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut child = judge_std_in(dir.path())
        .args(["listen", "--port", &port.to_string()])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let lines = Lines::of(&mut child);
    lines.until("listening on http://127.0.0.1:");

    let payload = fs::read_to_string(fixture("companion/boj_1000.json")).unwrap();
    let answer = post(port, &payload);
    assert!(answer.starts_with("HTTP/1.1 200 OK\r\n"), "{answer}");
    let printed = lines.until("next: judge watch boj_1000");
    assert!(
        printed.contains("created problems/boj_1000/tests/sample/1.in"),
        "{printed}"
    );
    let sample = Path::new("problems/boj_1000/tests/sample/2.out");
    assert_eq!(fs::read_to_string(dir.path().join(sample)).unwrap(), "42\n");

    // A bad payload: 400 to the sender with the reason, nothing made, the server goes on.
    let before = snapshot(dir.path());
    let bad = fs::read_to_string(fixture("companion/not_a_problem.json")).unwrap();
    let answer = post(port, &bad);
    assert!(
        answer.starts_with("HTTP/1.1 400 Bad Request\r\n"),
        "{answer}"
    );
    assert!(
        answer.contains("the payload has neither a name nor a url"),
        "{answer}"
    );
    // The terminal is told too, on the server's own output.
    let printed = lines.until("the payload has neither a name nor a url");
    assert!(printed.contains("error: "), "{printed}");
    assert_eq!(snapshot(dir.path()), before);
    let answer = post(port, &payload);
    assert!(
        answer.contains("kept    problems/boj_1000/tests/sample/1"),
        "{answer}"
    );

    interrupt_and_wait(child);
}

/// `judge watch sum -j 1` on a repository of `sum` with two cases (`sample/1`: 1 2 -> 3,
/// `random/1`: 5 5 -> 10), its `problem.toml` and its Rust solution.
fn watched_sum(problem_toml: &str, solution: &str) -> (tempfile::TempDir, Child) {
    let dir = repository_with(&[
        ("problems/sum/problem.toml", problem_toml),
        ("problems/sum/tests/sample/1.in", "1 2\n"),
        ("problems/sum/tests/sample/1.out", "3\n"),
        ("problems/sum/tests/random/1.in", "5 5\n"),
        ("problems/sum/tests/random/1.out", "10\n"),
        ("solutions/sum.rs", solution),
    ]);
    let child = judge_std_in(dir.path())
        .args(["watch", "sum", "-j", "1"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    (dir, child)
}

#[test]
fn watch_judges_again_when_the_solution_is_saved() {
    let wrong = SUM_SOLUTION.replace("println!(\"{n}\")", "println!(\"{}\", n + 1)");
    let (dir, mut child) = watched_sum("name = \"sum\"\n", &wrong);
    let lines = Lines::of(&mut child);
    let first = lines.until("save a file to judge again");
    assert!(first.contains("judge watch · round 1"), "{first}");
    assert!(first.contains("WA 2"), "{first}");

    fs::write(dir.path().join("solutions/sum.rs"), SUM_SOLUTION).unwrap();
    let second = lines.until("save a file to judge again");
    assert!(
        second.contains("judge watch · round 2 · solutions/sum.rs changed"),
        "{second}"
    );
    assert!(second.contains("2/2 accepted"), "{second}");

    // A case that fails goes first in the next round, before the samples.
    fs::write(dir.path().join("problems/sum/tests/random/1.out"), "11\n").unwrap();
    let third = lines.until("save a file to judge again");
    let failed = third.find("WA               random/1 ").expect(&third);
    let sample = third.find(" sample/1 ").expect(&third);
    assert!(sample < failed, "samples first:\n{third}");
    fs::write(dir.path().join("problems/sum/tests/random/1.in"), "5 6\n").unwrap();
    let fourth = lines.until("save a file to judge again");
    // The case rows (the round's header names the changed file, `tests/random/1.in`).
    let failed = fourth.find(" random/1 ").expect(&fourth);
    let sample = fourth.find(" sample/1 ").expect(&fourth);
    assert!(failed < sample, "last round's failure first:\n{fourth}");

    interrupt_and_wait(child);
}

#[test]
fn watch_shows_a_scored_problems_score_as_run_does() {
    let subtasks = "name = \"sum\"\n\n[[subtasks]]\nname = \"small\"\npoints = 30\ncases = [\"sample/*\"]\n\n[[subtasks]]\nname = \"large\"\npoints = 70\ncases = [\"random/*\"]\n";
    let wrong = SUM_SOLUTION.replace(
        "println!(\"{n}\")",
        "println!(\"{}\", if n == 10 { 11 } else { n })",
    );
    let (_dir, mut child) = watched_sum(subtasks, &wrong);
    let first = Lines::of(&mut child).until("save a file to judge again");
    assert!(
        first.contains("sum: score 30 / 100 (small 30/30, large 0/70)"),
        "{first}"
    );
    interrupt_and_wait(child);
}

/// A clipboard and a browser that only write down what they were given, first on `PATH`.
struct StandIns {
    dir: tempfile::TempDir,
}

impl StandIns {
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let bin = dir.path().join("bin");
        fs::create_dir(&bin).unwrap();
        let script = |name: &str, body: String| {
            let path = bin.join(name);
            fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
            fs::set_permissions(&path, std::os::unix::fs::PermissionsExt::from_mode(0o755))
                .unwrap();
        };
        script(
            "xclip",
            format!("cat > '{}'", dir.path().join("clipboard").display()),
        );
        script(
            "xdg-open",
            format!("echo \"$@\" > '{}'", dir.path().join("opened").display()),
        );
        StandIns { dir }
    }

    /// `judge submit ARGS...` in `root` with the stand-ins found first.
    fn submit(&self, root: &Path, args: &[&str]) -> assert_cmd::Command {
        let mut path = std::ffi::OsString::from(self.dir.path().join("bin"));
        path.push(":");
        path.push(crate::common::toolchains_first_path());
        let mut command = judge_in(root);
        command
            .arg("submit")
            .args(args)
            .env("PATH", path)
            .env("DISPLAY", ":0")
            .env_remove("WAYLAND_DISPLAY")
            .env_remove("BROWSER");
        command
    }

    fn copied(&self) -> Option<Vec<u8>> {
        fs::read(self.dir.path().join("clipboard")).ok()
    }

    fn opened(&self) -> Option<String> {
        fs::read_to_string(self.dir.path().join("opened")).ok()
    }
}

#[test]
fn submit_copies_the_file_the_judge_takes_and_opens_its_page() {
    let root = crate::common::repository_root();
    // SW Expert Academy takes no Rust: the Java file, byte for byte.
    let swea = StandIns::new();
    let said = swea
        .submit(&root, &["swea_11545"])
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let said = String::from_utf8(said).unwrap();
    assert_eq!(
        swea.copied().unwrap(),
        fs::read(root.join("solutions/swea_11545.java")).unwrap()
    );
    assert!(
        swea.opened().unwrap().contains("swexpertacademy.com")
            && swea.opened().unwrap().contains("11545")
    );
    assert!(said.contains("choose Java on the page"), "{said}");
    // Programmers calls a function: the file above its stdin adapter, no more.
    let programmers = StandIns::new();
    programmers
        .submit(&root, &["programmers_160585"])
        .assert()
        .code(0);
    let file = fs::read_to_string(root.join("solutions/programmers_160585.py")).unwrap();
    let above_the_adapter = file.split("# --- stdin adapter").next().unwrap().trim_end();
    let copied = String::from_utf8(programmers.copied().unwrap()).unwrap();
    assert_eq!(copied.trim_end(), above_the_adapter);
    assert!(copied.contains("def solution("));
    assert_eq!(
        programmers.opened().unwrap().trim(),
        "https://school.programmers.co.kr/learn/courses/30/lessons/160585"
    );
    // --print: the file on stdout, nothing on the clipboard.
    let printed = StandIns::new();
    let out = printed
        .submit(&root, &["boj_2615", "--print"])
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    assert_eq!(out, fs::read(root.join("solutions/boj_2615.rs")).unwrap());
    assert_eq!((printed.copied(), printed.opened()), (None, None));
}

#[test]
fn submit_refuses_a_file_that_fails_a_case_and_copies_nothing() {
    let repository = crate::common::sum_repository();
    let stand_ins = StandIns::new();
    stand_ins
        .submit(
            repository.path(),
            &["sum", "--solution", "solutions/wrong.rs"],
        )
        .assert()
        .code(1)
        .stderr(predicates::str::contains("not handed in"));
    assert_eq!((stand_ins.copied(), stand_ins.opened()), (None, None));
    // The right one goes, and Baekjoon's page is made from the id's number where there is one.
    stand_ins
        .submit(repository.path(), &["sum"])
        .assert()
        .code(0)
        .stdout(predicates::str::contains("has no page to make"));
    assert_eq!(stand_ins.copied().unwrap(), SUM_SOLUTION.as_bytes());
    // problem.toml names the page where the profile cannot make one.
    fs::write(
        repository.path().join("problems/sum/problem.toml"),
        "name = \"Sum\"\nsubmit = \"https://judge.example/sum/submit\"\n",
    )
    .unwrap();
    stand_ins
        .submit(repository.path(), &["sum"])
        .assert()
        .code(0);
    assert_eq!(
        stand_ins.opened().unwrap().trim(),
        "https://judge.example/sum/submit"
    );
}
