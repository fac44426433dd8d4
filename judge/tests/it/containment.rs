//! The run layer tried as an attacker and an impatient user would: signals to the judge,
//! programs that escape, resources hidden in children and shared memory, a starved machine,
//! threads. Each test builds its own throwaway repository and, where it matters, runs both
//! with cgroups and without (`JUDGE_NO_CGROUPS=1`, the setup of a user who is not root).

use crate::common::*;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A repository with one problem `p` (the given `problem.toml` body), its cases and a
/// solution `solutions/p.EXT`.
fn repository(
    problem_toml: &str,
    cases: &[(&str, &str)],
    solution: (&str, &str),
) -> tempfile::TempDir {
    let mut files: Vec<(String, String)> = vec![
        ("problems/p/problem.toml".into(), problem_toml.into()),
        (format!("solutions/p.{}", solution.0), solution.1.into()),
    ];
    for (index, (input, output)) in cases.iter().enumerate() {
        files.push((
            format!("problems/p/tests/{}.in", index + 1),
            input.to_string(),
        ));
        files.push((
            format!("problems/p/tests/{}.out", index + 1),
            output.to_string(),
        ));
    }
    let borrowed: Vec<(&str, &str)> = files
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    repository_with(&borrowed)
}

/// The judge started as a plain process (to signal it), in `repo`, with `TMPDIR` set to
/// `tmp` so that run folders are seen.
fn start_judge(repo: &Path, tmp: &Path, args: &[&str], cgroups: bool) -> Child {
    let mut command = Command::new(env!("CARGO_BIN_EXE_judge"));
    command
        .args(args)
        .current_dir(repo)
        .env("TMPDIR", tmp)
        .env("JUDGE_NO_CGROUPS", if cgroups { "0" } else { "1" })
        .env(
            "JUDGE_CACHE_DIR",
            Path::new(env!("CARGO_TARGET_TMPDIR")).join("judge-cache"),
        )
        .env_remove("CI")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    with_default_signals(&mut command);
    command.spawn().unwrap()
}

/// Runs the judge to its end: (exit code, stdout).
fn judge_to_end(repo: &Path, tmp: &Path, args: &[&str], cgroups: bool) -> (i32, String) {
    let output = start_judge(repo, tmp, args, cgroups)
        .wait_with_output()
        .unwrap();
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned()
            + &String::from_utf8_lossy(&output.stderr),
    )
}

/// The status as a shell reports it: the exit code, or 128 + the signal that ended it.
fn ended_by(status: &std::process::ExitStatus) -> i32 {
    use std::os::unix::process::ExitStatusExt;
    status
        .code()
        .unwrap_or_else(|| 128 + status.signal().unwrap_or(0))
}

/// Waits until `condition` holds, for at most `limit`.
fn wait_until(limit: Duration, mut condition: impl FnMut() -> bool) -> bool {
    let start = Instant::now();
    while start.elapsed() < limit {
        if condition() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    condition()
}

/// A process name no other process has: a program takes it (as its `comm`, which the test
/// reads from the machine's `/proc` whatever namespaces the program lives in) to say it runs.
fn unique_mark() -> String {
    use std::sync::atomic::{AtomicU32, Ordering};
    static NEXT: AtomicU32 = AtomicU32::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .subsec_nanos();
    // 15 bytes at most: the kernel keeps no more of a name.
    format!(
        "jm{:05x}{:04x}{:02x}",
        std::process::id() & 0xfffff,
        nanos >> 16,
        NEXT.fetch_add(1, Ordering::Relaxed) & 0xff
    )
}

/// The live processes (not zombies) that took the name `mark`.
fn marked_pids(mark: &str) -> Vec<u32> {
    std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|entry| entry.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            std::fs::read_to_string(format!("/proc/{pid}/comm"))
                .is_ok_and(|name| name.trim_end() == mark)
                && alive(*pid)
        })
        .collect()
}

fn alive(pid: u32) -> bool {
    // A zombie has been killed; it only waits for its parent to read its status.
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        !stat
            .rsplit_once(") ")
            .is_some_and(|(_, rest)| rest.starts_with('Z'))
    })
}

fn run_folders(tmp: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(tmp)
        .unwrap()
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| {
            path.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("judge-run-")
        })
        .collect()
}

/// The cgroup folders a judge with pid `owner` made (in this process's hierarchies).
fn cgroups_of(owner: u32) -> Vec<PathBuf> {
    let own = std::fs::read_to_string("/proc/self/cgroup").unwrap_or_default();
    let mut found = Vec::new();
    for line in own.lines() {
        let mut fields = line.splitn(3, ':');
        let (_, controllers, path) = (
            fields.next(),
            fields.next().unwrap_or(""),
            fields.next().unwrap_or(""),
        );
        for controller in ["pids", "memory"] {
            if controllers.split(',').any(|c| c == controller) {
                let base = Path::new("/sys/fs/cgroup")
                    .join(controller)
                    .join(path.trim_start_matches('/'));
                if let Ok(entries) = std::fs::read_dir(base) {
                    found.extend(entries.flatten().map(|entry| entry.path()).filter(|dir| {
                        dir.file_name()
                            .unwrap()
                            .to_string_lossy()
                            .starts_with(&format!("judge-{owner}-"))
                    }));
                }
            }
        }
    }
    found
}

/// Nothing of the judge `owner` is left a moment after it ended: its supervisors remove
/// their run folders and cgroups as they exit.
fn assert_cleaned_up(tmp: &Path, owner: u32) {
    let clean = || run_folders(tmp).is_empty() && cgroups_of(owner).is_empty();
    assert!(
        wait_until(Duration::from_secs(2), clean),
        "left: {:?} {:?}",
        run_folders(tmp),
        cgroups_of(owner)
    );
}

/// A Python solution that says it runs (it takes the name `mark`), then sleeps far past any
/// limit.
fn sleeper(mark: &str) -> String {
    // Closed at once: PyPy (Kattis's Python) flushes a file only when it is closed.
    format!(
        "import time\nwith open('/proc/self/comm', 'w') as comm:\n    comm.write({mark:?})\ntime.sleep(120)\n"
    )
}

const SLOW_PROBLEM: &str = "name = \"p\"\nprofile = \"boj\"\ntime_limit_ms = 20000\n";

#[test]
fn a_signal_stops_the_judge_its_programs_and_cleans_up() {
    for (signal, code) in [
        (libc::SIGINT, 130),
        (libc::SIGTERM, 143),
        (libc::SIGHUP, 129),
    ] {
        let mark = unique_mark();
        let tmp = tempfile::tempdir().unwrap();
        let cases = [
            ("1 2\n", "3\n"),
            ("3 4\n", "7\n"),
            ("5 6\n", "11\n"),
            ("7 8\n", "15\n"),
        ];
        let repo = repository(SLOW_PROBLEM, &cases, ("py", &sleeper(&mark)));
        let judge = start_judge(repo.path(), tmp.path(), &["run", "p", "-j", "2"], true);
        let judge_pid = judge.id();
        assert!(
            wait_until(Duration::from_secs(30), || marked_pids(&mark).len() >= 2),
            "the programs never started"
        );
        // SAFETY: a plain signal to the child this test started.
        unsafe { libc::kill(judge_pid as i32, signal) };
        let started = Instant::now();
        let output = judge.wait_with_output().unwrap();
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "the judge took {:?} to stop",
            started.elapsed()
        );
        assert_eq!(
            ended_by(&output.status),
            code,
            "exit status after signal {signal}"
        );
        let stdout = String::from_utf8_lossy(&output.stdout);
        // Every case sleeps: none finished, and each is said to be unfinished.
        assert!(
            stdout.contains("p: not finished: nothing judged; not judged (4): 1, 2, 3, 4")
                && stdout.contains("Summary")
                && stdout.contains(": 4 cases not finished"),
            "no summary of what had not finished:\n{stdout}"
        );
        assert_none_outlive(&mark, Duration::from_secs(1), "the judge");
        assert_cleaned_up(tmp.path(), judge_pid);
    }
}

#[test]
fn an_interrupted_run_marks_what_it_did_not_finish_in_every_report() {
    let mark = unique_mark();
    let tmp = tempfile::tempdir().unwrap();
    let cases = [("1\n", "1\n"), ("2\n", "2\n"), ("3\n", "3\n")];
    // Case 2 sleeps: the stop comes once case 1 is judged and case 2 runs.
    let solution = format!(
        "import sys, time\nn = sys.stdin.read().strip()\nif n == '2':\n    \
         with open('/proc/self/comm', 'w') as comm:\n        comm.write({mark:?})\n    \
         time.sleep(120)\nprint(n)\n"
    );
    let repo = repository(SLOW_PROBLEM, &cases, ("py", &solution));
    let reports = ["--json", "r.json", "--junit", "r.xml", "--html", "r.html"];
    let args = [&["run", "p", "-j", "1"][..], &reports].concat();
    let stdout = terminated_once_marked((repo.path(), tmp.path()), &args, &mark, Duration::ZERO);
    assert!(
        stdout.contains("p: not finished: 1 case judged (AC 1); not judged (2): 2, 3"),
        "{stdout}"
    );
    let read = |name: &str| std::fs::read_to_string(repo.path().join(name)).unwrap();
    let json: serde_json::Value = serde_json::from_str(&read("r.json")).unwrap();
    let problem = &json["problems"][0];
    assert_eq!(problem["status"], "not_finished");
    assert_eq!(problem["not_finished"], serde_json::json!(["2", "3"]));
    assert_eq!(problem["cases"].as_array().unwrap().len(), 1);
    assert_eq!(problem["cases"][0]["verdict"], "AC");
    assert_eq!(json["summary"]["not_finished"], 2);
    assert_eq!(json["summary"]["outcome"], "interrupted");
    let junit = read("r.xml");
    assert_eq!(
        junit.matches("<skipped message=\"not finished").count(),
        2,
        "{junit}"
    );
    let html = read("r.html");
    assert_eq!(html.matches("<td>not finished</td>").count(), 2);
}

/// The standard output of a judge started in `repo` with `args` and sent SIGTERM `settle`
/// after a program named `mark` runs; it must end as SIGTERM asks (143).
fn terminated_once_marked(
    (repo, tmp): (&Path, &Path),
    args: &[&str],
    mark: &str,
    settle: Duration,
) -> String {
    let judge = start_judge(repo, tmp, args, true);
    assert!(
        wait_until(Duration::from_secs(30), || !marked_pids(mark).is_empty()),
        "the program named {mark} never started"
    );
    std::thread::sleep(settle);
    // SAFETY: a plain signal to the child this test started.
    unsafe { libc::kill(judge.id() as i32, libc::SIGTERM) };
    let output = judge.wait_with_output().unwrap();
    assert_eq!(ended_by(&output.status), 143);
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// A temporary folder holding `files` (path, text).
fn folder_of(files: &[(&str, String)]) -> tempfile::TempDir {
    let folder = tempfile::tempdir().unwrap();
    for (path, text) in files {
        let path = folder.path().join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    folder
}

/// No process named `mark` is alive within `limit`.
fn assert_none_outlive(mark: &str, limit: Duration, what: &str) {
    assert!(
        wait_until(limit, || marked_pids(mark).is_empty()),
        "programs {:?} outlived {what}",
        marked_pids(mark)
    );
}

#[test]
fn programs_die_with_a_killed_judge_and_its_leftovers_are_swept() {
    let mark = unique_mark();
    let tmp = tempfile::tempdir().unwrap();
    let repo = repository(SLOW_PROBLEM, &[("1 2\n", "3\n")], ("py", &sleeper(&mark)));
    let mut judge = start_judge(repo.path(), tmp.path(), &["run", "p"], true);
    let judge_pid = judge.id();
    assert!(wait_until(Duration::from_secs(30), || !marked_pids(&mark).is_empty()));
    // The judge and all below it killed at once, as a crash or the OOM killer would: nobody
    // is left to clean up. The judge is stopped first, so that it starts no process while
    // they are listed.
    // SAFETY: signals a child of this test by its pid.
    unsafe { libc::kill(judge_pid as i32, libc::SIGSTOP) };
    let stopped = || {
        let stat = std::fs::read_to_string(format!("/proc/{judge_pid}/stat")).unwrap_or_default();
        stat.rsplit_once(") ")
            .is_some_and(|(_, rest)| rest.starts_with('T'))
    };
    assert!(wait_until(Duration::from_secs(5), stopped));
    assert!(!children_of(judge_pid).is_empty());
    // Every process below the judge (the slots' keepers, their supervisors, the programs)
    // stopped before any is killed, so that none outlives another long enough to clean up.
    let mut below = Vec::new();
    let mut next = vec![judge_pid];
    while let Some(pid) = next.pop() {
        let children = children_of(pid);
        for &child in &children {
            // SAFETY: signals a descendant of this test's child by its pid.
            unsafe { libc::kill(child as i32, libc::SIGSTOP) };
        }
        below.extend(&children);
        next.extend(children);
    }
    for pid in &below {
        tree_kill(*pid);
    }
    judge.kill().unwrap();
    judge.wait().unwrap();
    assert_none_outlive(&mark, Duration::from_secs(2), "a killed judge");
    assert!(!cgroups_of(judge_pid).is_empty() || !run_folders(tmp.path()).is_empty());
    // What the killed judge left, the next judge sweeps.
    let quick = repository(
        "name = \"q\"\n",
        &[("1 2\n", "3\n")],
        ("py", "print(sum(map(int, input().split())))\n"),
    );
    let (code, output) = judge_to_end(quick.path(), tmp.path(), &["run", "p"], true);
    assert_eq!(code, 0, "{output}");
    assert_cleaned_up(tmp.path(), judge_pid);
}

/// The children of `pid` (of all its threads).
fn children_of(pid: u32) -> Vec<u32> {
    let mut found = Vec::new();
    for task in std::fs::read_dir(format!("/proc/{pid}/task"))
        .into_iter()
        .flatten()
        .flatten()
    {
        let text = std::fs::read_to_string(task.path().join("children")).unwrap_or_default();
        found.extend(
            text.split_whitespace()
                .filter_map(|p| p.parse::<u32>().ok()),
        );
    }
    found
}

#[test]
fn a_closed_stdout_ends_the_run_quietly() {
    use std::io::{BufRead, BufReader};
    let mark = unique_mark();
    let tmp = tempfile::tempdir().unwrap();
    let cases: Vec<(String, String)> = (0..6)
        .map(|i| (format!("{i}\n"), format!("{i}\n")))
        .collect();
    let cases: Vec<(&str, &str)> = cases
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    // The first line comes when the first case ends: at the wall-clock backstop, 1.5 s here
    // (and again for its confirmation; Kattis adds no allowance for Python). The sleeper
    // uses almost no CPU, so a low limit cannot make this a different verdict.
    let problem = "name = \"p\"\nprofile = \"kattis\"\ntime_limit_ms = 250\n";
    let repo = repository(problem, &cases, ("py", &sleeper(&mark)));
    let mut judge = start_judge(repo.path(), tmp.path(), &["run", "p", "-j", "1"], true);
    let judge_pid = judge.id();
    let mut stdout = BufReader::new(judge.stdout.take().unwrap());
    let mut first = String::new();
    stdout.read_line(&mut first).unwrap();
    assert!(wait_until(Duration::from_secs(30), || !marked_pids(&mark).is_empty()));
    drop(stdout);
    // SAFETY: a plain signal to the child this test started: the reader is gone, and the
    // judge learns it at its next print; a SIGPIPE is what it then gets.
    unsafe { libc::kill(judge_pid as i32, libc::SIGPIPE) };
    let output = judge.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("panicked"), "not quiet: {stderr}");
    assert_eq!(ended_by(&output.status), 128 + libc::SIGPIPE);
    assert_none_outlive(&mark, Duration::from_secs(1), "the judge");
    assert_cleaned_up(tmp.path(), judge_pid);
}

/// A solution that answers, leaving behind a daemon (double fork and `setsid`) that takes
/// the name `mark` and sleeps; with `leave_cgroup`, the daemon also moves itself to the root
/// cgroup. The answer waits for the daemon: an accepted run had one.
fn daemonizer(mark: &str, leave_cgroup: bool) -> String {
    format!(
        r#"import os, sys, time
a, b = map(int, sys.stdin.read().split())
ready, told = os.pipe()
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        if {leave_cgroup}:
            for controller in ("pids", "memory"):
                try:
                    open("/sys/fs/cgroup/%s/cgroup.procs" % controller, "w").write(str(os.getpid()))
                except OSError:
                    pass
        open("/proc/self/comm", "w").write({mark:?})
        os.write(told, b"x")
        time.sleep(120)
    os._exit(0)
os.read(ready, 1)
print(a + b)
"#,
        leave_cgroup = if leave_cgroup { "True" } else { "False" },
    )
}

#[test]
fn no_process_of_a_run_outlives_it() {
    for (cgroups, leave_cgroup) in [(true, false), (false, false), (true, true)] {
        let mark = unique_mark();
        let tmp = tempfile::tempdir().unwrap();
        let repo = repository(
            "name = \"p\"\ntime_limit_ms = 5000\n",
            &[("1 2\n", "3\n")],
            ("py", &daemonizer(&mark, leave_cgroup)),
        );
        let survivors = marked_survivors(repo.path(), tmp.path(), &mark, cgroups);
        assert!(
            survivors.is_empty(),
            "a daemon outlived its run (cgroups: {cgroups}, left its cgroup: {leave_cgroup})"
        );
    }
}

/// Judges the repository's problem `p` (which must be accepted: its solution answers only
/// once a process it started took the name `mark`); returns the processes of that name still
/// alive after the run, killed now so that a failing test leaves nothing behind.
fn marked_survivors(repo: &Path, tmp: &Path, mark: &str, cgroups: bool) -> Vec<u32> {
    let (code, output) = judge_to_end(repo, tmp, &["run", "p"], cgroups);
    assert_eq!(code, 0, "{output}");
    let survivors = marked_pids(mark);
    for &pid in &survivors {
        tree_kill(pid);
    }
    survivors
}

#[test]
fn a_process_started_as_the_programs_sibling_does_not_outlive_the_run() {
    // clone(CLONE_PARENT) makes the new process a child of the program's parent, the
    // supervisor, with the program's exit signal: it must be found and killed all the same.
    for cgroups in [true, false] {
        let mark = unique_mark();
        let tmp = tempfile::tempdir().unwrap();
        let solution = format!(
            r#"#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <unistd.h>
static char stack[1 << 16];
static int told[2];
static int sleeper(void *mark) {{
    prctl(PR_SET_NAME, mark);
    write(told[1], "x", 1);
    sleep(120);
    return 0;
}}
int main(void) {{
    long a, b;
    char byte;
    if (scanf("%ld %ld", &a, &b) != 2 || pipe(told) != 0) return 1;
    if (clone(sleeper, stack + sizeof stack, CLONE_PARENT, "{mark}") < 0) return 2;
    if (read(told[0], &byte, 1) != 1) return 3;
    printf("%ld\n", a + b);
    return 0;
}}
"#
        );
        let repo = repository(
            "name = \"p\"\ntime_limit_ms = 5000\n",
            &[("1 2\n", "3\n")],
            ("c", &solution),
        );
        let survivors = marked_survivors(repo.path(), tmp.path(), &mark, cgroups);
        assert!(
            survivors.is_empty(),
            "a sibling outlived its run (cgroups: {cgroups})"
        );
    }
}

fn tree_kill(pid: u32) {
    // SAFETY: cleans up after a failed test.
    unsafe { libc::kill(pid as i32, libc::SIGKILL) };
}

/// The cases of the first problem in the judge's JSON report, which `output` ends with.
fn report_cases(output: &str) -> Vec<serde_json::Value> {
    let report = json_report_in(output);
    report["problems"][0]["cases"]
        .as_array()
        .expect("cases")
        .clone()
}

/// The judge's JSON report: (verdict code, CPU ms, peak memory bytes) per case, in order.
fn json_cases(output: &str) -> Vec<(String, u64, u64)> {
    report_cases(output)
        .iter()
        .map(|case| {
            (
                case["verdict"].as_str().unwrap_or_default().to_string(),
                case["cpu_time_ms"].as_f64().unwrap_or(0.0) as u64,
                case["peak_memory_bytes"].as_u64().unwrap_or(0),
            )
        })
        .collect()
}

/// A solution whose child does `work`, tells its parent it is done, and is never waited for:
/// the parent answers and exits while the child still holds what it used.
fn hiding_child(work: &str) -> String {
    format!(
        r#"import os, sys
a, b = map(int, sys.stdin.read().split())
read, write = os.pipe()
if os.fork() == 0:
{work}
    os.write(write, b"x")
    import time
    time.sleep(60)
os.read(read, 1)
print(a + b)
"#
    )
}

#[test]
fn resources_are_the_whole_trees() {
    let memory = "    held = b'x' * (250 << 20)";
    let cpu = "    import time\n    end = time.process_time() + 1.3\n    while time.process_time() < end: pass";
    // Files are capped at the memory limit here (RLIMIT_FSIZE): five of 50 MiB each.
    let memfd = "    chunk = b'x' * (50 << 20)\n    fds = [os.memfd_create('hidden') for _ in range(5)]\n    for fd in fds: os.write(fd, chunk)";
    let shm = "    chunk = b'x' * (50 << 20)\n    for i in range(5):\n        with open('/dev/shm/judge-test-hidden-%d' % i, 'wb') as f: f.write(chunk)";
    // Kattis gives every language the same limits (Baekjoon would add Python's allowance).
    let problem =
        "name = \"p\"\nprofile = \"kattis\"\ntime_limit_ms = 1000\nmemory_limit_mib = 128\n";
    let mut rows = vec![
        (memory, "MLE", true),
        (cpu, "TLE", true),
        (memory, "MLE", false),
        (cpu, "TLE", false),
    ];
    // Without a memory cgroup (an ordinary user's setup) memfds and shared memory files are
    // counted all the same.
    for cgroups in [true, false] {
        rows.extend([(memfd, "MLE", cgroups), (shm, "MLE", cgroups)]);
    }
    let mut wrong = Vec::new();
    for (work, expected, cgroups) in rows {
        let tmp = tempfile::tempdir().unwrap();
        let repo = repository(problem, &[("1 2\n", "3\n")], ("py", &hiding_child(work)));
        let (_, output) = judge_to_end(
            repo.path(),
            tmp.path(),
            &["run", "p", "--format", "json"],
            cgroups,
        );
        let cases = json_cases(&output);
        if cases.first().map(|case| case.0.as_str()) != Some(expected) {
            wrong.push(format!(
                "{work:?} (cgroups: {cgroups}): expected {expected}, got {cases:?}"
            ));
        }
    }
    let left: Vec<_> = std::fs::read_dir("/dev/shm")
        .unwrap()
        .flatten()
        .filter(|entry| {
            entry
                .file_name()
                .to_string_lossy()
                .starts_with("judge-test-hidden")
        })
        .collect();
    assert!(left.is_empty(), "a run's /dev/shm files are left: {left:?}");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// A C solution whose five children each make `work` and say so, then wait; it answers a
/// few of the watchdog's readings later.
fn children_holding(work: &str) -> String {
    format!(
        r#"#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/msg.h>
#include <sys/socket.h>
#include <fcntl.h>
struct message {{ long type; char text[8192]; }};
int main(void) {{
    int a, b, ready[2];
    char done;
    if (scanf("%d %d", &a, &b) != 2 || pipe(ready) != 0) return 1;
    for (int child = 0; child < 5; child++) {{
        if (fork() == 0) {{
{work}
            if (write(ready[1], "x", 1) != 1) return 1;
            sleep(60);
        }}
    }}
    for (int child = 0; child < 5; child++) if (read(ready[0], &done, 1) != 1) return 1;
    usleep(300000);
    printf("%d\n", a + b);
    return 0;
}}
"#
    )
}

#[test]
fn memory_no_process_figure_shows_is_counted() {
    // Five times 50 MiB against 128 MiB: no process alone is over the limit.
    let shared_anonymous = "            size_t size = 50u << 20;\n\
        \x20           char *held = mmap(0, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);\n\
        \x20           if (held == MAP_FAILED) return 1;\n\
        \x20           memset(held, 1, size);";
    // Two messages of 8 KiB fill a queue as the kernel sizes them (`msgmnb`).
    let queued = "            static struct message m = {1, {0}};\n\
        \x20           for (int i = 0; i < 3200; i++) {\n\
        \x20               int queue = msgget(IPC_PRIVATE, IPC_CREAT | 0600);\n\
        \x20               for (int k = 0; queue >= 0 && k < 2; k++) msgsnd(queue, &m, sizeof m.text, IPC_NOWAIT);\n\
        \x20           }";
    let problem =
        "name = \"p\"\nprofile = \"kattis\"\ntime_limit_ms = 1000\nmemory_limit_mib = 128\n";
    // Datagrams a socket sends wait in its peer's queue, up to the sender's buffer.
    let sockets = "            static char chunk[65536];\n\
        \x20           for (long queued = 0; queued < (40L << 20);) {\n\
        \x20               int pair[2];\n\
        \x20               if (socketpair(AF_UNIX, SOCK_DGRAM, 0, pair) != 0) return 1;\n\
        \x20               fcntl(pair[0], F_SETFL, O_NONBLOCK);\n\
        \x20               for (ssize_t sent; (sent = write(pair[0], chunk, sizeof chunk)) > 0;) queued += sent;\n\
        \x20           }";
    let mut wrong = Vec::new();
    let rows = [
        ("shared mappings", shared_anonymous),
        ("queued messages", queued),
        ("socket queues", sockets),
    ];
    for (what, work) in rows {
        let repo = repository(problem, &[("1 2\n", "3\n")], ("c", &children_holding(work)));
        let tmp = tempfile::tempdir().unwrap();
        for cgroups in [true, false] {
            let args = ["run", "p", "--format", "json", "--no-cache"];
            let (_, output) = judge_to_end(repo.path(), tmp.path(), &args, cgroups);
            let cases = json_cases(&output);
            if cases.first().map(|case| case.0.as_str()) != Some("MLE") {
                wrong.push(format!("{what} (cgroups: {cgroups}): {cases:?}\n{output}"));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Children the kernel reaps itself (their parent ignores `SIGCHLD`) are in no process's
/// CPU figures: with a cgroup, the slot's own count finds them, else the watchdog's readings
/// of what each had when last seen; either way the run is stopped.
#[test]
fn cpu_time_of_children_the_kernel_reaps_is_counted() {
    let solution = r#"import os, signal, sys, time
a, b = map(int, sys.stdin.read().split())
signal.signal(signal.SIGCHLD, signal.SIG_IGN)
for _ in range(5):
    read, write = os.pipe()
    if os.fork() == 0:
        end = time.process_time() + 0.5
        while time.process_time() < end: pass
        os.write(write, b"x")
        os._exit(0)
    os.read(read, 1)
print(a + b)
"#;
    let problem =
        "name = \"p\"\nprofile = \"kattis\"\ntime_limit_ms = 1000\nmemory_limit_mib = 128\n";
    let tmp = tempfile::tempdir().unwrap();
    let repo = repository(problem, &[("1 2\n", "3\n")], ("py", solution));
    for cgroups in [true, false] {
        let args = ["run", "p", "--format", "json", "--no-cache"];
        let (_, output) = judge_to_end(repo.path(), tmp.path(), &args, cgroups);
        let cases = json_cases(&output);
        assert_eq!(cases[0].0, "TLE", "cgroups: {cgroups}\n{output}");
    }
}

#[test]
fn the_memory_figure_is_the_programs_own() {
    // A small C program, and beside it a case with a large output, so that the judge holds
    // a large buffer while the small cases run in parallel.
    let solution =
        "#include <stdio.h>\nint main(void) { long n; if (scanf(\"%ld\", &n) != 1) return 1;\n\
        for (long i = 0; i < n; i++) printf(\"%ld\\n\", i); return 0; }\n";
    let big: String = (0..3_000_000).map(|i| format!("{i}\n")).collect();
    let mut cases: Vec<(String, String)> = vec![("3000000\n".into(), big)];
    cases.extend((0..12).map(|_| ("1\n".to_string(), "0\n".to_string())));
    let cases: Vec<(&str, &str)> = cases
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    let problem = "name = \"p\"\nprofile = \"boj\"\ntime_limit_ms = 5000\nmemory_limit_mib = 16\noutput_limit_mib = 64\n";
    let repo = repository(problem, &cases, ("c", solution));
    let tmp = tempfile::tempdir().unwrap();
    let (code, output) = judge_to_end(
        repo.path(),
        tmp.path(),
        &["run", "p", "-j", "2", "--format", "json"],
        true,
    );
    assert_eq!(code, 0, "{output}");
    let cases = json_cases(&output);
    assert_eq!(cases.len(), 13, "{output}");
    let largest = cases.iter().skip(1).map(|case| case.2).max().unwrap_or(0);
    // What the supervisor adds to the figure is about 1 MiB of its own pages at the exec.
    let allowed: u64 = 5 << 19;
    assert!(
        largest > 0 && largest <= allowed,
        "a one-line C program shows {largest} bytes"
    );
}

#[test]
fn a_program_stopped_while_it_sleeps_is_not_run_again_to_confirm() {
    // Sleeping is not something load causes: the backstop's verdict stands without a re-run
    // (a second wait as long as the first).
    let solution = "import time\ntime.sleep(60)\n";
    let problem = "name = \"p\"\nprofile = \"kattis\"\ntime_limit_ms = 300\n";
    let repo = repository(problem, &[("1 2\n", "3\n")], ("py", solution));
    let tmp = tempfile::tempdir().unwrap();
    let (code, output) = judge_to_end(
        repo.path(),
        tmp.path(),
        &["run", "p", "--format", "json"],
        true,
    );
    assert_eq!(code, 1, "{output}");
    let case = &report_cases(&output)[0];
    assert_eq!(case["verdict"], "TLE", "{output}");
    assert_eq!(case["confirmed"], false, "{output}");
    assert!(
        case["message"].as_str().unwrap_or("").contains("idle"),
        "{output}"
    );
}

#[test]
fn a_starved_program_is_judged_by_its_cpu_time() {
    use std::os::unix::process::CommandExt;
    // 0.7 s of CPU against a 1 s limit (an interpreter's start and a loaded machine's cache
    // misses add their share), while four busy loops share one CPU with it (a fair share,
    // 1/5, would take 3.5 s; the scheduler gives it less): the wall-clock
    // backstop (3 s) passes long before the program gets its 0.7 s. Kattis gives Python no
    // allowance (Baekjoon's would move the backstop to 11 s). Everything here is pinned to
    // that one CPU (a spawned process inherits its thread's affinity), so the other CPUs stay
    // free for the rest of the suite.
    let solution = "import time\nend = time.process_time() + 0.7\nwhile time.process_time() < end: pass\nprint(3)\n";
    let problem = "name = \"p\"\nprofile = \"kattis\"\ntime_limit_ms = 1000\n";
    let repo = repository(problem, &[("1 2\n", "3\n")], ("py", solution));
    let tmp = tempfile::tempdir().unwrap();
    let allowed = rustix::thread::sched_getaffinity(None).unwrap();
    let first = (0..rustix::thread::CpuSet::MAX_CPU)
        .find(|&cpu| allowed.is_set(cpu))
        .unwrap();
    let mut one_cpu = rustix::thread::CpuSet::new();
    one_cpu.set(first);
    rustix::thread::sched_setaffinity(None, &one_cpu).unwrap();
    let mut load: Vec<Child> = (0..4)
        .map(|_| {
            let mut busy = Command::new(real_python());
            busy.args([
                "-c",
                "import time\nend = time.time() + 60\nwhile time.time() < end: pass",
            ]);
            // A session each, like the supervisor's: with autogrouping the scheduler shares
            // the CPU between sessions, so the program gets a loop's share, not more.
            // SAFETY: setsid is async-signal-safe and touches no memory of this process.
            unsafe {
                busy.pre_exec(|| {
                    libc::setsid();
                    Ok(())
                });
            }
            busy.spawn().unwrap()
        })
        .collect();
    let (code, output) = judge_to_end(
        repo.path(),
        tmp.path(),
        &["run", "p", "--format", "json"],
        true,
    );
    for busy in &mut load {
        let _ = busy.kill();
        let _ = busy.wait();
    }
    rustix::thread::sched_setaffinity(None, &allowed).unwrap();
    let wall = report_cases(&output)[0]["wall_time_ms"]
        .as_f64()
        .unwrap_or(0.0);
    assert!(
        wall > 3000.0,
        "the program was not starved past the backstop (wall {wall} ms): {output}"
    );
    assert_eq!(code, 0, "a starved program was not accepted: {output}");
}

#[test]
fn threads_run_as_on_the_judge() {
    let cpp = "#include <iostream>\n#include <thread>\n#include <vector>\n#include <atomic>\n\
        int main() { long a, b; std::cin >> a >> b; std::atomic<long> sum{0};\n\
        std::vector<std::thread> pool; for (int i = 0; i < 8; i++) pool.emplace_back([&] { sum += 1; });\n\
        for (auto &t : pool) t.join(); std::cout << a + b + sum - 8 << std::endl; }\n";
    let java = "import java.util.*;\npublic class Main { public static void main(String[] args) throws Exception {\n\
        Scanner in = new Scanner(System.in); long a = in.nextLong(), b = in.nextLong();\n\
        Thread t = new Thread(() -> {}); t.start(); t.join(); System.out.println(a + b); } }\n";
    let mut wrong = Vec::new();
    for (profile, memory) in [("boj", 256), ("kattis", 2048)] {
        for (ext, source) in [("cpp", cpp), ("java", java)] {
            let problem = format!("name = \"p\"\nprofile = \"{profile}\"\ntime_limit_ms = 5000\nmemory_limit_mib = {memory}\n");
            let repo = repository(&problem, &[("1 2\n", "3\n")], (ext, source));
            let tmp = tempfile::tempdir().unwrap();
            for cgroups in [true, false] {
                let (code, output) = judge_to_end(repo.path(), tmp.path(), &["run", "p"], cgroups);
                if code != 0 {
                    wrong.push(format!(
                        "{ext} under {profile} (cgroups: {cgroups}):\n{output}"
                    ));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn a_program_waiting_for_the_judge_to_read_its_output_is_not_idle() {
    // The judge stopped past the wall-clock backstop (as one kept from its CPU by the
    // machine's load would be) while the program's output fills its pipe: the program waits
    // for the judge, it is not idle, and its CPU time decides.
    // It talks to the test through its working folder, the one folder of the machine's
    // that it may write to.
    let solution = "import os, sys, time\nopen('started', 'w').close()\n\
         while not os.path.exists('go'):\n    time.sleep(0.01)\n\
         sys.stdout.write('x' * (1 << 20) + '\\n')\n";
    let answer = format!("{}\n", "x".repeat(1 << 20));
    // Codeforces: Python gets the problem's own time limit.
    let problem = "name = \"p\"\nprofile = \"codeforces\"\ntime_limit_ms = 200\n";
    let repo = repository(problem, &[("\n", answer.as_str())], ("py", solution));
    let tmp = tempfile::tempdir().unwrap();
    let judge = start_judge(repo.path(), tmp.path(), &["run", "p"], false);
    let started = || {
        run_folders(tmp.path())
            .into_iter()
            .find(|folder| folder.join("started").exists())
    };
    assert!(wait_until(Duration::from_secs(60), || started().is_some()));
    let go = started().unwrap().join("go");
    // SAFETY: signals a child of this test by its pid.
    unsafe { libc::kill(judge.id() as i32, libc::SIGSTOP) };
    std::fs::write(&go, "").unwrap();
    // The backstop is 2 × 200 ms + 1 s after the start.
    std::thread::sleep(Duration::from_millis(2000));
    // SAFETY: as above.
    unsafe { libc::kill(judge.id() as i32, libc::SIGCONT) };
    let output = judge.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&output.stdout).into_owned()
        + &String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{text}");
}

#[test]
fn a_program_may_use_every_cpu_the_judge_may() {
    // The judge keeps each slot's helpers on one CPU; its programs must not inherit that.
    let cpus = rustix::thread::sched_getaffinity(None).unwrap().count();
    let solution = "import os\ninput()\nprint(len(os.sched_getaffinity(0)))\n";
    let expected = format!("{cpus}\n");
    let repo = repository(
        "name = \"p\"\n",
        &[("\n", expected.as_str()); 4],
        ("py", solution),
    );
    let tmp = tempfile::tempdir().unwrap();
    let (code, output) = judge_to_end(repo.path(), tmp.path(), &["run", "p", "-j", "2"], true);
    assert_eq!(code, 0, "programs saw fewer than {cpus} CPUs:\n{output}");
}

#[test]
fn a_program_holds_only_its_standard_descriptors() {
    // Lists the descriptors it holds beyond 0, 1 and 2 (and the listing's own).
    let solution = "#include <dirent.h>\n#include <stdio.h>\n#include <stdlib.h>\n\
        int main(void) { DIR *dir = opendir(\"/proc/self/fd\"); struct dirent *entry; int extra = 0;\n\
        while ((entry = readdir(dir))) { int fd = atoi(entry->d_name);\n\
        if (entry->d_name[0] != '.' && fd > 2 && fd != dirfd(dir)) { printf(\"fd %d\\n\", fd); extra = 1; } }\n\
        if (!extra) puts(\"none\"); return 0; }\n";
    let repo = repository("time_limit_ms = 2000\n", &[("", "none\n")], ("c", solution));
    let tmp = tempfile::tempdir().unwrap();
    for cgroups in [true, false] {
        // Whatever started the judge left descriptors 7 and 9 open, as shells and IDEs do;
        // the supervisor's socket is another a program must not get.
        let mut command = Command::new("sh");
        command
            .arg("-c")
            .arg("exec 7</dev/null 9>/dev/null; exec \"$0\" run p --color never")
            .arg(env!("CARGO_BIN_EXE_judge"))
            .current_dir(repo.path())
            .env("TMPDIR", tmp.path())
            .env("JUDGE_NO_CGROUPS", if cgroups { "0" } else { "1" })
            .env(
                "JUDGE_CACHE_DIR",
                Path::new(env!("CARGO_TARGET_TMPDIR")).join("judge-cache"),
            )
            .env_remove("CI");
        let output = command.output().unwrap();
        let text = String::from_utf8_lossy(&output.stdout);
        assert_eq!(output.status.code(), Some(0), "cgroups {cgroups}: {text}");
        assert!(text.contains("AC"), "cgroups {cgroups}: {text}");
    }
}

#[test]
fn what_a_program_does_to_its_output_pipes_does_not_reach_the_next_run() {
    // Each run writes more than a pipe holds, so it needs its output blocking, then leaves
    // both of its output streams non-blocking and stderr half written. Runs of one slot
    // share their output pipes: the next run must get them as the first did.
    let solution = "import os, sys\nn = int(input())\nsys.stdout.write('x' * n + '\\n')\n\
        sys.stdout.flush()\nsys.stderr.write('e' * 1000)\nsys.stderr.flush()\n\
        os.set_blocking(1, False)\nos.set_blocking(2, False)\n";
    let answer = format!("{}\n", "x".repeat(300_000));
    accepted_run_after_run(solution, ("300000\n", &answer));
}

#[test]
fn what_a_program_does_to_the_judges_processes_does_not_reach_the_next_run() {
    // At the `namespaces` level a program runs as the judge's user, in a PID namespace with
    // the slot's spawners (its parent, the supervisor, is 1 there): it may signal them, and
    // lower their limits and priority, which the programs they start would inherit.
    let attacks = [
        "os.kill(pid, signal.SIGTERM)",
        "os.kill(pid, signal.SIGSTOP)",
        "os.kill(pid, signal.SIGKILL)",
        "resource.prlimit(pid, resource.RLIMIT_NPROC, (0, 0))",
        "resource.prlimit(pid, resource.RLIMIT_DATA, (1 << 20, 1 << 20))",
        "os.setpriority(os.PRIO_PROCESS, pid, 19)",
    ];
    for attack in attacks {
        let solution = format!(
            "import os, resource, signal\nif os.getppid() == 1:\n    for name in os.listdir('/proc'):\n\
            \x20       pid = int(name) if name.isdigit() else 1\n\
            \x20       if pid not in (1, os.getpid()):\n\
            \x20           try: {attack}\n\
            \x20           except OSError: pass\nprint(input())\n"
        );
        accepted_run_after_run(&solution, ("x\n", "x\n"));
    }
}

#[test]
fn a_program_cannot_change_its_input_file() {
    // Its stdin is the case's file itself. Anyone may write this one: as root's `nobody`
    // too, the program would be let through if the file's mode were all that stood in the way.
    let solution = "import os\ntry:\n    open('/proc/self/fd/0', 'a').write('changed')\n\
        except OSError: pass\ntry:\n    os.fchmod(0, 0)\nexcept OSError: pass\nprint(input())\n";
    let repo = repository("name = \"p\"\n", &[("x\n", "x\n")], ("py", solution));
    let input = repo.path().join("problems/p/tests/1.in");
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&input, std::fs::Permissions::from_mode(0o666)).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    for cgroups in [true, false] {
        let args = ["run", "p", "--no-cache"];
        let (_, output) = judge_to_end(repo.path(), tmp.path(), &args, cgroups);
        assert!(output.contains("1/1 accepted"), "{output}");
        let mode = std::fs::metadata(&input).unwrap().permissions().mode() & 0o777;
        assert_eq!(std::fs::read_to_string(&input).unwrap(), "x\n");
        assert_eq!(mode, 0o666, "the input's mode was changed");
    }
}

#[test]
fn what_a_run_makes_in_the_ipc_namespace_is_gone_before_the_next() {
    // The first case makes one object of each kind, the second looks for them (and removes
    // what it finds, so that none is left where the namespace is the machine's).
    let solution = r#"import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
key, create = 0x4A554447, 0o1600
if input() == "1":
    made = [libc.msgget(key, create), libc.semget(key, 1, create), libc.shmget(key, 4096, create),
            libc.mq_open(b"/judge-test", os.O_CREAT | os.O_RDWR, 0o600, None)]
    print(all(made >= 0 for made in made))
else:
    found = [libc.msgget(key, 0), libc.semget(key, 1, 0), libc.shmget(key, 0, 0),
             libc.mq_open(b"/judge-test", os.O_RDWR)]
    libc.msgctl(found[0], 0, None); libc.semctl(found[1], 0, 0); libc.shmctl(found[2], 0, None)
    libc.mq_unlink(b"/judge-test")
    print([found >= 0 for found in found])
"#;
    let cases = [("1\n", "True\n"), ("2\n", "[False, False, False, False]\n")];
    let repo = repository("name = \"p\"\n", &cases, ("py", solution));
    let tmp = tempfile::tempdir().unwrap();
    for cgroups in [true, false] {
        let args = ["run", "p", "-j", "1", "--no-cache", "--format", "json"];
        let (_, output) = judge_to_end(repo.path(), tmp.path(), &args, cgroups);
        let report: serde_json::Value = serde_json::from_str(&output[output.find('{').unwrap()..])
            .unwrap_or_else(|_| panic!("{output}"));
        let level = report["containment"]["level"].as_str().unwrap_or_default();
        let verdicts: Vec<_> = json_cases(&output).into_iter().map(|case| case.0).collect();
        match level != "rlimits" || std::env::var_os("CI").is_some() {
            true => assert_eq!(verdicts, ["AC", "AC"], "{level}: {output}"),
            // The machine's own IPC namespace: documented (docs/limits-and-sandbox.md).
            false => eprintln!("{level}: IPC objects outlive their run: {verdicts:?}"),
        }
    }
}

#[test]
fn answers_that_links_lead_to_outside_the_repository_are_hidden_too() {
    // Outside `/tmp` (which a view replaces) and readable by anyone (root's `nobody` too).
    let elsewhere = || {
        let dir = tempfile::Builder::new()
            .prefix("judge-test-linked")
            .tempdir_in("/var/tmp")
            .unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
        std::fs::write(dir.path().join("1.in"), "1 2\n").unwrap();
        std::fs::write(dir.path().join("1.out"), "3\n").unwrap();
        dir
    };
    let (linked_folder, linked_file) = (elsewhere(), elsewhere());
    let solution = |answer: PathBuf| {
        format!(
            "try:\n    open({answer:?}).read()\n    print('reached')\n\
             except OSError:\n    print(sum(map(int, input().split())))\n"
        )
    };
    let repo = repository_with(&[
        ("problems/folder/problem.toml", "name = \"folder\"\n"),
        ("problems/file/problem.toml", "name = \"file\"\n"),
        ("problems/file/tests/1.in", "1 2\n"),
        (
            "solutions/folder.py",
            &solution(linked_folder.path().join("1.out")),
        ),
        (
            "solutions/file.py",
            &solution(linked_file.path().join("1.out")),
        ),
    ]);
    let link = |to: PathBuf, from: &str| std::os::unix::fs::symlink(to, repo.path().join(from));
    link(linked_folder.path().into(), "problems/folder/tests").unwrap();
    link(
        linked_file.path().join("1.out"),
        "problems/file/tests/1.out",
    )
    .unwrap();
    let tmp = tempfile::tempdir().unwrap();
    for cgroups in [true, false] {
        let args = ["run", "--no-cache"];
        let (_, output) = judge_to_end(repo.path(), tmp.path(), &args, cgroups);
        assert!(output.contains("2 problems, 2 cases: AC 2"), "{output}");
    }
}

#[test]
fn a_program_may_make_no_user_namespace_and_still_starts_threads_and_processes() {
    // In a user namespace of its own it could make IPC and network namespaces whose memory
    // no reading of the slot's sees. Threads (`clone3`, then `clone`) and `fork` still work.
    let solution = r#"import ctypes, os, threading
libc = ctypes.CDLL(None, use_errno=True)
made = libc.unshare(0x10000000)
errno = ctypes.get_errno()
thread = threading.Thread(target=lambda: None)
thread.start()
thread.join()
child = os.fork()
if child == 0:
    os._exit(7)
print(made, errno, os.waitpid(child, 0)[1] >> 8)
"#;
    let repo = repository("name = \"p\"\n", &[("\n", "-1 1 7\n")], ("py", solution));
    let tmp = tempfile::tempdir().unwrap();
    for cgroups in [true, false] {
        let args = ["run", "p", "--no-cache"];
        let (_, output) = judge_to_end(repo.path(), tmp.path(), &args, cgroups);
        assert!(
            output.contains("1/1 accepted"),
            "cgroups: {cgroups}\n{output}"
        );
    }
}

#[test]
fn keys_a_run_adds_to_its_keyrings_are_gone_before_the_next() {
    // Its session keyring, and its user's: user, user-session and persistent.
    let solution = r#"import ctypes, platform
libc = ctypes.CDLL(None, use_errno=True)
add_key, keyctl = {"x86_64": (248, 250), "aarch64": (217, 219)}[platform.machine()]
case = input()
keyrings = {"session": -3, "user": -4, "user-session": -5}
persistent = libc.syscall(keyctl, 22, -1, -3)
keyrings["persistent"] = persistent
if case == "1":
    made = [libc.syscall(add_key, b"user", b"judge-test-" + name.encode(), b"x", 1, ring) > 0
            for name, ring in keyrings.items()]
    print(made)
else:
    found = [name for name, ring in keyrings.items()
             if libc.syscall(keyctl, 10, ring, b"user", b"judge-test-" + name.encode(), 0) > 0]
    print(found)
"#;
    let cases = [("1\n", "[True, True, True, True]\n"), ("2\n", "[]\n")];
    let repo = repository("name = \"p\"\n", &cases, ("py", solution));
    let tmp = tempfile::tempdir().unwrap();
    for cgroups in [true, false] {
        let args = ["run", "p", "-j", "1", "--no-cache"];
        let (_, output) = judge_to_end(repo.path(), tmp.path(), &args, cgroups);
        assert!(
            output.contains("2/2 accepted"),
            "cgroups: {cgroups}\n{output}"
        );
    }
}

/// Judges three cases of the Python `solution`, each `case`, one after the other in one
/// slot, with cgroups and without: each must be accepted.
fn accepted_run_after_run(solution: &str, case: (&str, &str)) {
    let repo = repository("name = \"p\"\n", &[case; 3], ("py", solution));
    let tmp = tempfile::tempdir().unwrap();
    for cgroups in [true, false] {
        let args = ["run", "p", "-j", "1", "--no-cache"];
        let (code, output) = judge_to_end(repo.path(), tmp.path(), &args, cgroups);
        assert_eq!(code, 0, "cgroups: {cgroups}\n{output}");
        assert!(output.contains("3/3 accepted"), "{output}");
    }
}

#[test]
fn each_run_finds_its_working_folder_empty() {
    // Runs of one slot share its working folder: what one leaves there (a file, a hard link,
    // a folder with a file in it, a link in place of Baekjoon's `dev`) is gone before the
    // next starts, which finds `dev` again.
    let solution = "import os\nleft = [n for n in os.listdir('.') if n != 'dev']\n\
        dev = os.readlink('dev')\nos.remove('dev')\nos.symlink('/tmp', 'dev')\nos.mkdir('sub')\n\
        open('sub/f', 'w').write('x')\nopen('f', 'w').write('x')\nos.link('f', 'g')\n\
        print(len(left), dev)\n";
    accepted_run_after_run(solution, ("\n", "0 /dev\n"));
}

#[test]
fn an_interrupted_verify_says_what_it_did_not_finish_and_counts_no_mismatch() {
    let mark = unique_mark();
    let tmp = tempfile::tempdir().unwrap();
    let package = folder_of(&[
        (
            "problem.yaml",
            "problem_format_version: 2025-09\nname: Sum\nuuid: 3a0c1f8e-0000-4000-8000-0000000000a1\nlimits:\n  time_limit: 20\n".to_owned(),
        ),
        ("data/secret/1.in", "1 2\n".to_owned()),
        ("data/secret/1.ans", "3\n".to_owned()),
        ("data/secret/2.in", "3 4\n".to_owned()),
        ("data/secret/2.ans", "7\n".to_owned()),
        (
            "submissions/accepted/sum.py",
            "a, b = map(int, input().split())\nprint(a + b)\n".to_owned(),
        ),
        ("submissions/time_limit_exceeded/sleeps.py", sleeper(&mark)),
    ]);
    let dir = package.path().to_str().unwrap();
    let args = ["verify", dir, "-j", "2"];
    // Time for the quick one to be judged beside it, most likely (either row is right).
    let settle = Duration::from_secs(1);
    let stdout = terminated_once_marked((package.path(), tmp.path()), &args, &mark, settle);
    let row = stdout
        .lines()
        .find(|line| line.starts_with("time_limit_exceeded/sleeps.py"))
        .unwrap_or_else(|| panic!("no row for the slow submission:\n{stdout}"));
    assert!(row.ends_with("not finished"), "{stdout}");
    assert!(
        !stdout.contains("MISMATCH") && stdout.contains(", 0 mismatches"),
        "{stdout}"
    );
    assert!(stdout.contains("stopped by SIGTERM: "), "{stdout}");
    assert_none_outlive(&mark, Duration::from_secs(1), "the judge");
}

#[test]
fn an_interrupted_data_check_reports_no_validator_it_stopped_as_a_fault() {
    let mark = unique_mark();
    let tmp = tempfile::tempdir().unwrap();
    let package = folder_of(&[
        (
            "problem.yaml",
            "problem_format_version: 2025-09\nname: Sum\nuuid: 3a0c1f8e-0000-4000-8000-0000000000a2\n"
                .to_owned(),
        ),
        ("data/secret/1.in", "1 2\n".to_owned()),
        ("data/secret/1.ans", "3\n".to_owned()),
        ("data/secret/2.in", "3 4\n".to_owned()),
        ("data/secret/2.ans", "7\n".to_owned()),
        ("input_validators/slow.py", sleeper(&mark)),
    ]);
    let dir = package.path().to_str().unwrap();
    let args = ["verify", dir, "--validate", "-j", "2"];
    let stdout = terminated_once_marked((package.path(), tmp.path()), &args, &mark, Duration::ZERO);
    assert!(
        stdout.contains("data: 0 cases checked by 1 validator: 0 errors"),
        "{stdout}"
    );
    assert!(
        stdout.contains("stopped by SIGTERM: 2 cases not checked"),
        "{stdout}"
    );
    assert_none_outlive(&mark, Duration::from_secs(1), "the judge");
}
