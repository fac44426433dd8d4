//! What a program being judged can reach, tried through the command line as a user runs it:
//! as whoever runs the tests and, when that is root (as in CI), as an ordinary user the test
//! makes, who has no cgroup to write to and gets user namespaces instead. Both must give the
//! hostile verdict table's verdicts, count memfds and shared memory, contain a fork storm,
//! keep the expected outputs, the home and the network out of reach, and leave nothing in
//! `/tmp` or `/dev/shm`.

use std::io::Read;
use std::net::TcpListener;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::*;
use crate::verdicts::EXPECTED;

/// A build in the cache the scenarios find there, as another program's.
const EARLIER_BUILD: &str = "builds/0123456789abcdef0123456789abcdef/reference.rs";

/// The user the test judges as when it runs as root.
const ORDINARY_USER: &str = "judge-ci";

/// The problems of a scenario besides the verdict table's: (id, solution file, source,
/// verdict of its one case).
/// `cache` is the judge's cache, holding an earlier run's report and records and another
/// program's build (`EARLIER_BUILD`).
fn scenarios(
    mark: &str,
    (home, cache): (&Path, &Path),
    repo: &Path,
    port: u16,
) -> Vec<(String, String, String, String)> {
    let attacks = format!(
        r#"import os, socket
reached = []
def attempt(what, action):
    try:
        if action() is not False:
            reached.append(what)
    except Exception:
        pass
attempt("the expected output", lambda: open({out:?}).read())
attempt("a listing of the repository", lambda: len(os.listdir({repo:?})) > 0)
attempt("a file in the home", lambda: open({secret:?}).read())
attempt("a write into the home", lambda: open({home_file:?}, "w").close())
attempt("a write into /var/tmp", lambda: open("/var/tmp/" + {mark:?}, "w").close())
attempt("a listener on 127.0.0.1", lambda: socket.create_connection(("127.0.0.1", {port}), timeout=2).close())
attempt("an earlier run's report", lambda: open({report:?}).read())
attempt("the result records", lambda: os.listdir({results:?}))
own = os.path.basename(os.path.dirname(os.path.abspath(__file__)))
attempt("another build, listed", lambda: [b for b in os.listdir({builds:?}) if b != own] or False)
attempt("another build, named", lambda: open({earlier:?}).read())
# Left behind on purpose: the judge must take them away.
for folder in ("/tmp", "/dev/shm"):
    with open(os.path.join(folder, {mark:?}), "w") as left:
        left.write("x" * 4096)
a, b = map(int, input().split())
print(a + b if not reached else "reached " + ", ".join(reached))
"#,
        out = repo
            .join("problems/attacks/tests/1.out")
            .display()
            .to_string(),
        repo = repo.display().to_string(),
        secret = home.join("secret.txt").display().to_string(),
        home_file = home.join(mark).display().to_string(),
        report = cache.join("last-run.json").display().to_string(),
        results = cache.join("results").display().to_string(),
        builds = cache.join("builds").display().to_string(),
        earlier = cache.join(EARLIER_BUILD).display().to_string(),
    );
    // A child holds the memory while its parent answers: only the whole tree's count sees it.
    let hiding = |work: &str| {
        format!(
            "import os\na, b = map(int, input().split())\nread, write = os.pipe()\n\
             if os.fork() == 0:\n{work}\n    os.write(write, b'x')\n    import time\n    time.sleep(60)\n\
             os.read(read, 1)\nprint(a + b)\n"
        )
    };
    let memfd = hiding("    fds = [os.memfd_create('hidden') for _ in range(5)]\n    for fd in fds: os.write(fd, b'x' * (50 << 20))");
    let shm = hiding(&format!(
        "    for i in range(5):\n        with open('/dev/shm/{mark}-%d' % i, 'wb') as f: f.write(b'x' * (50 << 20))"
    ));
    // Files written and left between two of the watchdog's readings (C, to be done before
    // the first): the run's memory all the same, read when it ends.
    let shm_left = format!(
        r#"#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
static char chunk[1 << 20];
int main(void) {{
    for (int i = 0; i < 4; i++) {{
        char name[128];
        snprintf(name, sizeof name, "/dev/shm/{mark}-left-%d", i);
        int fd = open(name, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        for (int k = 0; fd >= 0 && k < 60 && write(fd, chunk, sizeof chunk) > 0; k++) {{}}
    }}
    int a, b;
    if (scanf("%d %d", &a, &b) != 2) return 1;
    printf("%d\n", a + b);
    return 0;
}}
"#
    );
    [
        ("attacks", attacks, "AC"),
        ("memfd", memfd, "MLE"),
        ("shm", shm, "MLE"),
    ]
    .into_iter()
    .map(|(id, source, verdict)| (id.into(), format!("{id}.py"), source, verdict.into()))
    .chain([(
        "shm_left".into(),
        "shm_left.c".into(),
        shm_left,
        "MLE".into(),
    )])
    .collect()
}

/// A repository with the scenarios and one problem per row of the verdict table, in `base`;
/// the verdicts every problem's cases must get, by problem id.
fn scenario_repository(
    base: &Path,
    mark: &str,
    reach: (&Path, &Path),
    port: u16,
) -> (PathBuf, Vec<(String, Vec<String>)>) {
    let repo = base.join("repo");
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/verdicts");
    let problem_toml = std::fs::read_to_string(fixture.join("problem.toml")).unwrap();
    // The fixture names its accepted solution in its own folder; here each has its own.
    let problem_toml: String = problem_toml
        .lines()
        .filter(|line| !line.starts_with("solution"))
        .map(|line| format!("{line}\n"))
        .collect();
    let mut expected = Vec::new();
    for (name, verdicts, _) in EXPECTED {
        let dir = repo.join("problems").join(name);
        copy_tree(&fixture.join("tests"), &dir.join("tests"));
        std::fs::write(dir.join("problem.toml"), &problem_toml).unwrap();
        std::fs::create_dir_all(repo.join("solutions")).unwrap();
        std::fs::copy(
            fixture.join("solutions").join(format!("{name}.rs")),
            repo.join("solutions").join(format!("{name}.rs")),
        )
        .unwrap();
        expected.push((
            name.to_string(),
            verdicts.iter().map(|v| v.to_string()).collect(),
        ));
    }
    let problem = "profile = \"kattis\"\ntime_limit_ms = 2000\nmemory_limit_mib = 128\n";
    for (id, file, source, verdict) in scenarios(mark, reach, &repo, port) {
        let dir = repo.join("problems").join(&id);
        std::fs::create_dir_all(dir.join("tests")).unwrap();
        std::fs::write(
            dir.join("problem.toml"),
            format!("name = \"{id}\"\n{problem}"),
        )
        .unwrap();
        std::fs::write(dir.join("tests/1.in"), "1 2\n").unwrap();
        std::fs::write(dir.join("tests/1.out"), "3\n").unwrap();
        std::fs::write(repo.join("solutions").join(file), source).unwrap();
        expected.push((id, vec![verdict]));
    }
    (repo, expected)
}

/// The verdicts of the JSON report, by problem id (`CE` for a solution that did not build).
fn verdicts_of(report: &str) -> Vec<(String, Vec<String>)> {
    let report = json_report_in(report);
    report["problems"]
        .as_array()
        .expect("problems")
        .iter()
        .map(|problem| {
            let verdicts = match problem["status"].as_str() {
                Some("compile_error") => vec!["CE".to_string()],
                _ => problem["cases"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|case| case["verdict_text"].as_str().unwrap().to_string())
                    .collect(),
            };
            (problem["id"].as_str().unwrap().to_string(), verdicts)
        })
        .collect()
}

/// Judges every problem of `repo` with `HOME` at `home`, `TMPDIR` at `tmp` and a cache of
/// its own, as this process or, given a user, as that user (only root can).
fn judge_as(
    user: Option<&str>,
    (base, cache): (&Path, &Path),
    repo: &Path,
    home: &Path,
    extra: &[(&str, &str)],
) -> String {
    let judge = base.join("judge");
    let tmp = base.join("tmp");
    let path = "/usr/local/bin:/usr/bin:/bin";
    let mut variables: Vec<(String, String)> = vec![
        ("HOME".into(), home.display().to_string()),
        ("TMPDIR".into(), tmp.display().to_string()),
        // A folder below: the folder on the way to it must stay open to the programs.
        (
            "JUDGE_CACHE_DIR".into(),
            cache.join("judge").display().to_string(),
        ),
        ("LANG".into(), "C.UTF-8".into()),
    ];
    variables.extend(
        extra
            .iter()
            .map(|(key, value)| (key.to_string(), value.to_string())),
    );
    let arguments = ["run", "--format", "json", "--color", "never"];
    let output = match user {
        None => {
            let mut command = Command::new(&judge);
            let (rustup_home, cargo_home) = rust_toolchain();
            variables.push(("RUSTUP_HOME".into(), rustup_home.display().to_string()));
            variables.push(("CARGO_HOME".into(), cargo_home.display().to_string()));
            variables.push((
                "PATH".into(),
                format!("{}:{path}", cargo_home.join("bin").display()),
            ));
            command
                .env_clear()
                .envs(variables)
                .args(arguments)
                .current_dir(repo);
            command.output().unwrap()
        }
        Some(user) => {
            // The user reaches rustup's folders where root keeps them through mounts of
            // them in `base` (a home of root's is closed to others), in a mount namespace
            // of this command's own.
            let (rustup_home, cargo_home) = rust_toolchain();
            let (rustup_seen, cargo_seen) = (base.join("rustup"), base.join("cargo"));
            for folder in [&rustup_seen, &cargo_seen] {
                std::fs::create_dir_all(folder).unwrap();
            }
            variables.push(("RUSTUP_HOME".into(), rustup_seen.display().to_string()));
            variables.push(("CARGO_HOME".into(), cargo_seen.display().to_string()));
            variables.push((
                "PATH".into(),
                format!("{}:{path}", cargo_seen.join("bin").display()),
            ));
            let script = "mount --bind \"$1\" \"$2\" && mount --bind \"$3\" \"$4\" && shift 4 && \
                          cd \"$1\" && shift && exec runuser -u \"$@\"";
            let mut command = Command::new("unshare");
            command
                .args([
                    "--mount",
                    "--propagation",
                    "private",
                    "sh",
                    "-c",
                    script,
                    "sh",
                ])
                .arg(&rustup_home)
                .arg(&rustup_seen)
                .arg(&cargo_home)
                .arg(&cargo_seen)
                .arg(repo)
                .args([user, "--", "env", "-i"])
                .args(
                    variables
                        .iter()
                        .map(|(key, value)| format!("{key}={value}")),
                )
                .arg(&judge)
                .args(arguments);
            command.output().unwrap()
        }
    };
    String::from_utf8_lossy(&output.stdout).into_owned() + &String::from_utf8_lossy(&output.stderr)
}

/// rustup's home and Cargo's, as the tests' own environment has them.
fn rust_toolchain() -> (PathBuf, PathBuf) {
    let home = std::env::var_os("HOME")
        .map(PathBuf::from)
        .unwrap_or_default();
    let rustup = std::env::var_os("RUSTUP_HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|| home.join(".rustup"));
    let cargo = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|| home.join(".cargo"));
    (rustup, cargo)
}

/// Makes `ORDINARY_USER` where it is missing; false when this process cannot.
fn ordinary_user_exists() -> bool {
    let exists = || {
        Command::new("id")
            .arg(ORDINARY_USER)
            .output()
            .is_ok_and(|o| o.status.success())
    };
    exists()
        || Command::new("useradd")
            .args([
                "--system",
                "--no-create-home",
                "--shell",
                "/usr/sbin/nologin",
                ORDINARY_USER,
            ])
            .status()
            .is_ok_and(|status| status.success())
            && exists()
}

/// A folder every user may enter, with the judge's own copy, a home holding a secret and
/// a `TMPDIR`; the home; and a folder apart for the build cache (kept in a judged program's
/// view, where the folders on the way to it must stay open run after run).
fn judge_base() -> (tempfile::TempDir, PathBuf, tempfile::TempDir) {
    let base = tempfile::tempdir().unwrap();
    std::fs::set_permissions(base.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let home = base.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    std::fs::create_dir_all(base.path().join("tmp")).unwrap();
    std::fs::write(home.join("secret.txt"), "the answers\n").unwrap();
    std::fs::copy(env!("CARGO_BIN_EXE_judge"), base.path().join("judge")).unwrap();
    let cache = tempfile::tempdir().unwrap();
    std::fs::set_permissions(cache.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    (base, home, cache)
}

/// Gives everything in `base` to `user`, when there is one.
fn give_to(user: Option<&str>, base: &Path) {
    if let Some(user) = user {
        let chown = Command::new("chown")
            .args(["-R", &format!("{user}:"), &base.display().to_string()])
            .status()
            .unwrap();
        assert!(chown.success());
    }
}

/// Judges the scenarios as `user` and checks everything the module promises.
fn scenarios_hold_for(user: Option<&str>) {
    let (base, home, cache) = judge_base();
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port();
    let mark = format!(
        "judge-isolation-{}-{}",
        std::process::id(),
        user.unwrap_or("self")
    );
    // As an earlier run leaves them: its report (a wrong answer's diff quotes the expected
    // output), its results, and a build (a reference solution's, say).
    let judge_cache = cache.path().join("judge");
    for (file, text) in [
        ("last-run.json", "{}\n"),
        ("results/earlier.json", "{}\n"),
        (EARLIER_BUILD, "fn main() {}\n"),
    ] {
        let file = judge_cache.join(file);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(file, text).unwrap();
    }
    let reach = (home.as_path(), judge_cache.as_path());
    let (repo, expected) = scenario_repository(base.path(), &mark, reach, port);
    give_to(user, base.path());
    give_to(user, cache.path());
    let report = judge_as(user, (base.path(), cache.path()), &repo, &home, &[]);
    let who = user.unwrap_or("this process's user");
    let got = verdicts_of(&report);
    let mut wrong = Vec::new();
    for (id, verdicts) in &expected {
        let found = got
            .iter()
            .find(|(problem, _)| problem == id)
            .map(|(_, v)| v);
        if found != Some(verdicts) {
            wrong.push(format!("{id}: expected {verdicts:?}, got {found:?}"));
        }
    }
    assert!(
        wrong.is_empty(),
        "as {who}:\n{}\n\n{report}",
        wrong.join("\n")
    );
    let mut connection = listener.accept();
    if let Ok((stream, _)) = &mut connection {
        let mut said = String::new();
        let _ = stream.read_to_string(&mut said);
    }
    assert!(
        connection.is_err(),
        "as {who}: a program reached the listener on 127.0.0.1"
    );
    let left: Vec<PathBuf> = ["/tmp", "/dev/shm", "/var/tmp"]
        .iter()
        .flat_map(|folder| std::fs::read_dir(folder).unwrap().flatten())
        .map(|entry| entry.path())
        .filter(|path| {
            path.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with(&mark)
        })
        .chain(
            std::fs::read_dir(base.path().join("tmp"))
                .unwrap()
                .flatten()
                .map(|e| e.path()),
        )
        .collect();
    for path in &left {
        let _ = std::fs::remove_file(path);
    }
    assert!(left.is_empty(), "as {who}: a run left {left:?}");
    let home_now: Vec<_> = std::fs::read_dir(&home)
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert_eq!(
        home_now,
        ["secret.txt"],
        "as {who}: a program wrote into the home"
    );
}

/// The repository's own problems, judged with namespaces refused (as a container runtime or
/// `user.max_user_namespaces=0` refuses them) as `user`: all accepted, at the level it says.
fn namespaces_refused_for(user: Option<&str>) {
    let (base, home, cache) = judge_base();
    let repo = base.path().join("repo");
    for folder in ["problems", "solutions"] {
        copy_tree(&repository_root().join(folder), &repo.join(folder));
    }
    give_to(user, base.path());
    give_to(user, cache.path());
    let report = judge_as(
        user,
        (base.path(), cache.path()),
        &repo,
        &home,
        &[("JUDGE_NO_NAMESPACES", "1")],
    );
    let document = json_report_in(&report);
    assert_eq!(document["summary"]["outcome"], "accepted", "{report}");
    let containment = &document["containment"];
    assert_eq!(containment["namespaces"], false, "{containment}");
    assert_eq!(containment["view"], false, "{containment}");
    let cgroups = rustix::process::getuid().is_root() && user.is_none();
    let level = if cgroups { "cgroup" } else { "rlimits" };
    assert_eq!(containment["level"], level, "{containment}");
}

#[test]
fn with_namespaces_refused_the_judge_still_judges_and_says_so() {
    namespaces_refused_for(None);
}

#[test]
#[ignore = "builds and judges every scenario in a cache of its own: .ci/run runs it"]
fn a_judged_program_reaches_nothing_it_must_not_and_gets_its_verdicts() {
    scenarios_hold_for(None);
}

/// The scenarios as an ordinary user, every program built anew under that user, and with
/// namespaces refused. Run by an ordinary user, the two tests above are this one.
#[test]
#[ignore = "the scenarios again as an ordinary user: .ci/run runs it"]
fn as_an_ordinary_user_the_same_holds() {
    if !rustix::process::getuid().is_root() {
        // Whoever runs the tests is the ordinary user then, and no other user can be made.
        scenarios_hold_for(None);
        return;
    }
    assert!(
        ordinary_user_exists(),
        "root could not make the user {ORDINARY_USER}"
    );
    scenarios_hold_for(Some(ORDINARY_USER));
    namespaces_refused_for(Some(ORDINARY_USER));
}

/// `judge run` in `repo` with its builds kept in `cache`: its exit code and all it printed.
fn run_with_cache(repo: &Path, cache: &Path) -> (Option<i32>, String) {
    let output = judge_std_in(repo)
        .env("JUDGE_CACHE_DIR", cache)
        .args(["run", "--color", "never"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout).into_owned()
        + &String::from_utf8_lossy(&output.stderr);
    (output.status.code(), text)
}

#[test]
fn a_build_after_the_view_was_offered_gets_its_own_report() {
    // The slots get the view while the solutions are built: the first build on a slot must
    // read its own report, not the slot's answer to the view.
    let repo = sum_repository();
    let cache = tempfile::tempdir().unwrap();
    let (code, text) = run_with_cache(repo.path(), cache.path());
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("(compiled)"), "{text}");
}

#[test]
fn programs_run_from_a_build_cache_only_its_owner_may_enter() {
    // `JUDGE_CACHE_DIR=$(mktemp -d)` is a 0700 folder: root's judged programs, run as
    // nobody, must still reach their builds there.
    let repo = repository_with(&[
        ("problems/sum/problem.toml", "name = \"Sum\"\n"),
        ("problems/sum/tests/1.in", "1 2\n"),
        ("problems/sum/tests/1.out", "3\n"),
        ("solutions/sum.rs", SUM_SOLUTION),
    ]);
    let cache = tempfile::tempdir().unwrap();
    std::fs::set_permissions(cache.path(), std::fs::Permissions::from_mode(0o700)).unwrap();
    let (code, text) = run_with_cache(repo.path(), cache.path());
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("1/1 accepted"), "{text}");
}
