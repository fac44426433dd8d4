//! What the CLI tests share: where things are, and the judge binary set up for a test.
#![allow(dead_code)] // not every helper serves every test module

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use assert_cmd::Command;

/// A solution that prints the sum of its input's integers, for throwaway repositories.
pub const SUM_SOLUTION: &str = "use std::io::Read;\nfn main() {\n    let mut s = String::new();\n    \
    std::io::stdin().read_to_string(&mut s).unwrap();\n    \
    let n: i64 = s.split_whitespace().map(|t| t.parse::<i64>().unwrap()).sum();\n    println!(\"{n}\");\n}\n";

/// Passes over a test whose need is not met on this machine, saying why; on CI (`CI` set),
/// which installs every need, it fails instead, so no test passes there by skipping.
pub fn skip_off_ci(reason: &str) {
    assert!(
        std::env::var_os("CI").is_none(),
        "CI must run this test: {reason}"
    );
    eprintln!("{reason}");
}

pub fn repository_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// A path below `judge/tests/fixtures/`, as a string for command lines.
pub fn fixture(relative: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(relative)
        .display()
        .to_string()
}

/// The judge binary, run in `dir`, with built programs cached under Cargo's temporary
/// folder and none of the caller's CI or colour settings.
pub fn judge_in(dir: &Path) -> Command {
    Command::from_std(judge_std_in(dir))
}

/// `judge_in` as a standard library command, for what assert_cmd cannot set (`pre_exec`).
pub fn judge_std_in(dir: &Path) -> std::process::Command {
    in_judge_env(
        std::process::Command::new(assert_cmd::cargo::cargo_bin("judge")),
        dir,
    )
}

/// `command` run in `dir` with what `judge_in` sets for the judge (a shell that starts it).
pub fn in_judge_env(mut command: std::process::Command, dir: &Path) -> std::process::Command {
    with_default_signals(&mut command);
    command
        .current_dir(dir)
        .env(
            "JUDGE_CACHE_DIR",
            Path::new(env!("CARGO_TARGET_TMPDIR")).join("judge-cache"),
        )
        .env("PATH", toolchains_first_path())
        .env_remove("CI")
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE");
    command
}

/// The judge keeps a stop signal ignored when whoever started it ignores it (`nohup`), and a
/// script's background job (`cargo test &`) starts with SIGINT and SIGQUIT ignored: the
/// tests stop their judges as a terminal's foreground job would, whatever started the suite.
pub fn with_default_signals(command: &mut std::process::Command) {
    use std::os::unix::process::CommandExt;
    // SAFETY: between fork and exec only `signal`, which is async-signal-safe, runs.
    unsafe {
        command.pre_exec(|| {
            for signal in [libc::SIGINT, libc::SIGQUIT, libc::SIGTERM, libc::SIGHUP] {
                libc::signal(signal, libc::SIG_DFL);
            }
            Ok(())
        });
    }
}

/// The Python 3 interpreter the tests run, as it names itself (not a version manager's shim).
/// The distribution's `/usr/bin/python3` comes first when it is 3.8 or newer: an install
/// whose site hooks import packages at every start (on our machines a `.pth` importing
/// certifi, 40 ms a start against 10 ms) made Python's start-ups a third of the suite's CPU.
pub fn real_python() -> &'static Path {
    static PYTHON: OnceLock<PathBuf> = OnceLock::new();
    PYTHON.get_or_init(|| {
        let ask = |python: &str| {
            let output = std::process::Command::new(python)
                .args([
                    "-c",
                    "import sys; sys.version_info >= (3, 8) and print(sys.executable)",
                ])
                .output()
                .ok()?;
            let executable = String::from_utf8(output.stdout).ok()?.trim().to_owned();
            (!executable.is_empty()).then(|| PathBuf::from(executable))
        };
        ask("/usr/bin/python3")
            .or_else(|| ask("python3"))
            .expect("a Python 3.8 or newer runs as `python3`")
    })
}

/// A folder holding only `python3`, a link to `real_python()`.
fn python_folder() -> PathBuf {
    let folder = Path::new(env!("CARGO_TARGET_TMPDIR")).join("python3-only");
    let link = folder.join("python3");
    if fs::read_link(&link).ok().as_deref() != Some(real_python()) {
        fs::create_dir_all(&folder).unwrap();
        // Made beside and renamed into place: other test processes may be reading it.
        let fresh = folder.join(format!("python3.{}", std::process::id()));
        let _ = fs::remove_file(&fresh);
        std::os::unix::fs::symlink(real_python(), &fresh).unwrap();
        fs::rename(&fresh, &link).unwrap();
    }
    folder
}

/// `PATH` with `rustc`'s folder and `python_folder()` first. Version managers put a shim in
/// front of each (pyenv's is a shell script costing about 0.2 s of CPU; rustup's proxy is
/// asked for its version on every run); the judge resolves them once per run, which for the
/// suite's hundreds of runs was a tenth of its CPU time. How the judge treats a shim has its
/// own test (`ecosystem`).
pub fn toolchains_first_path() -> &'static std::ffi::OsStr {
    static PATH: OnceLock<std::ffi::OsString> = OnceLock::new();
    PATH.get_or_init(|| {
        let rustc_sysroot = std::process::Command::new("rustc")
            .args(["--print", "sysroot"])
            .output()
            .ok()
            .map(|output| {
                PathBuf::from(String::from_utf8_lossy(&output.stdout).trim()).join("bin")
            });
        let first = [rustc_sysroot, Some(python_folder())];
        let rest = std::env::var_os("PATH").unwrap_or_default();
        let folders = first
            .into_iter()
            .flatten()
            .chain(std::env::split_paths(&rest));
        std::env::join_paths(folders).expect("PATH folders join")
    })
}

/// A compiler of the library's own, keeping its builds in `cache`. This test binary cannot be
/// a run supervisor: the judge's binary is, and every caller names the same one.
pub fn library_compiler(cache: &Path) -> judge::toolchain::Compiler {
    std::env::set_var("JUDGE_SUPERVISOR", env!("CARGO_BIN_EXE_judge"));
    judge::toolchain::Compiler::new(cache.to_path_buf(), Default::default())
}

/// The judge binary, run at the repository's root.
pub fn judge() -> Command {
    judge_in(&repository_root())
}

/// A throwaway repository holding `files` (path, contents).
pub fn repository_with(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (path, contents) in files {
        let path = dir.path().join(path);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, contents).unwrap();
    }
    dir
}

/// `judge new ID` in `root`, then its commented-out `[[generate]]` entry switched on, as a
/// user does once gen.rs and reference.rs are the problem's own: five cases `random/r-1..5`.
pub fn new_with_recipe(root: &Path, id: &str) {
    judge_in(root).args(["new", id]).assert().code(0);
    new_recipe_on(root, id);
}

/// Switches on the commented-out `[[generate]]` entry of the recipe `judge new` wrote.
pub fn new_recipe_on(root: &Path, id: &str) {
    let recipe = root.join("problems").join(id).join("generators.toml");
    let text = fs::read_to_string(&recipe).unwrap();
    let (head, tail) = text
        .split_once("# [[generate]]")
        .expect("the scaffold's entry");
    let (entry, rest) = tail.split_once("\n\n").unwrap();
    let entry = format!("[[generate]]{entry}").replace("\n# ", "\n");
    fs::write(&recipe, format!("{head}{entry}\n\n{rest}")).unwrap();
}

/// Copies a folder tree, to change a fixture without touching the repository.
pub fn copy_tree(from: &Path, to: &Path) {
    for entry in walkdir::WalkDir::new(from) {
        let entry = entry.unwrap();
        let target = to.join(entry.path().strip_prefix(from).unwrap());
        if entry.file_type().is_dir() {
            fs::create_dir_all(&target).unwrap();
        } else {
            fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// A throwaway repository holding a copy of one of ours, `problems/ID`, to judge other
/// solutions on: what a user changes in the real one cannot break the test.
pub fn copy_of_problem(id: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let problem = Path::new("problems").join(id);
    copy_tree(&repository_root().join(&problem), &dir.path().join(problem));
    dir
}

/// Every file below `dir` with its contents, to prove a command changed nothing.
pub fn snapshot(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut files: Vec<(PathBuf, Vec<u8>)> = walkdir::WalkDir::new(dir)
        .into_iter()
        .map(|entry| entry.unwrap())
        .filter(|entry| entry.file_type().is_file())
        .map(|entry| (entry.path().to_path_buf(), fs::read(entry.path()).unwrap()))
        .collect();
    files.sort();
    files
}

/// A solution that prints the sum of its input's integers, wrong by one when the sum is 42:
/// a wrong answer on chosen cases only.
pub const SUM_WRONG_ON_42: &str =
    "use std::io::Read;\nfn main() {\n    let mut s = String::new();\n    \
    std::io::stdin().read_to_string(&mut s).unwrap();\n    \
    let n: i64 = s.split_whitespace().map(|t| t.parse::<i64>().unwrap()).sum();\n    \
    println!(\"{}\", if n == 42 { 43 } else { n });\n}\n";

/// A throwaway repository with one problem, `sum`: a sample and two groups of cases, one of
/// which (`random/forty-two`) the solution `solutions/wrong.rs` answers wrongly.
pub fn sum_repository() -> tempfile::TempDir {
    repository_with(&[
        ("problems/sum/problem.toml", "name = \"Sum\"\n"),
        ("problems/sum/tests/sample/1.in", "1 2\n"),
        ("problems/sum/tests/sample/1.out", "3\n"),
        ("problems/sum/tests/random/small.in", "2 2\n"),
        ("problems/sum/tests/random/small.out", "4\n"),
        ("problems/sum/tests/random/forty-two.in", "40\n2\n"),
        ("problems/sum/tests/random/forty-two.out", "42\n"),
        (
            "problems/sum/tests/a-case-with-a-rather-long-name/1.in",
            "5\n",
        ),
        (
            "problems/sum/tests/a-case-with-a-rather-long-name/1.out",
            "5\n",
        ),
        ("solutions/sum.rs", SUM_SOLUTION),
        ("solutions/wrong.rs", SUM_WRONG_ON_42),
    ])
}

/// Snapshot settings that hide what changes from run to run: times, memory figures, whether
/// a program came from the cache, and temporary folders.
pub fn stable_report() -> insta::Settings {
    let mut settings = insta::Settings::clone_current();
    settings.set_prepend_module_to_snapshot(false);
    for (pattern, replacement) in [
        (r" +\d+ ms\b", " [ms]"),
        (r" +\d+(\.\d+)? [KMG]iB\b", " [memory]"),
        (r"\d+\.\d\d s\b", "[seconds]"),
        (r"\((compiled|cached)\)", "(built)"),
        (r"compiled \d+, cached \d+", "compiled [n], cached [n]"),
        (r"/tmp/\.tmp\w+", "[tmp]"),
        // Said where the machine allows less than full containment (an ordinary user).
        (r"(?m)^Contained by .*\n", ""),
    ] {
        settings.add_filter(pattern, replacement);
    }
    settings
}

/// A command's stdout, with the exit code checked.
pub fn stdout_of(command: &mut Command, code: i32) -> String {
    let output = command.assert().code(code).get_output().stdout.clone();
    String::from_utf8(output).unwrap()
}

/// A `PATH` holding only `python3`: every other toolchain is missing.
pub fn python_only_path(dir: &Path) -> PathBuf {
    let bin = dir.join("bin");
    std::fs::create_dir(&bin).unwrap();
    std::os::unix::fs::symlink(real_python(), bin.join("python3")).unwrap();
    bin
}

/// Whether `tool` is on `PATH` (a test of an optional toolchain runs only where it is).
pub fn on_path(tool: &str) -> bool {
    std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
        .any(|dir| dir.join(tool).is_file())
}

/// The JSON report at the start of `text` (from its first `{`): a test that reads stdout and
/// stderr together finds the judge's warnings after it, such as the one that pypy3 is
/// missing.
pub fn json_report_in(text: &str) -> serde_json::Value {
    let start = text
        .find('{')
        .unwrap_or_else(|| panic!("no JSON report in:\n{text}"));
    serde_json::Deserializer::from_str(&text[start..])
        .into_iter::<serde_json::Value>()
        .next()
        .and_then(Result::ok)
        .unwrap_or_else(|| panic!("no whole JSON report in:\n{text}"))
}
