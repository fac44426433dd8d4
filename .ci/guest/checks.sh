#!/usr/bin/env bash
# Containment checks, run inside the guest (test.sh boots it with the checkout shared as the
# working folder) as the ordinary user in a login session, against the judge built on the
# host: what a user on systemd and cgroup v2 gets. Each check prints PASS or FAIL with the
# figures it saw; the last line is `N passed, M failed`, and any failure exits 1.
set -euo pipefail

# The judge and the fixture problems on the guest's ext4, in a repository of their own (the
# share is 9p, which lacks renames the judge uses).
work=$HOME/guest-checks
rm -rf "$work"
mkdir -p "$work/bin"
cp -r .ci/guest/fixture/. "$work/"
install -m 0755 target/release/judge "$work/bin/judge"
cd "$work"
judge=$work/bin/judge
export JUDGE_CACHE_DIR=$work/cache NO_COLOR=1

passed=0 failed=0
result() { # result OK NAME DETAIL
  if [ "$1" = 0 ]; then passed=$((passed + 1)); echo "PASS  $2: $3"; else
    failed=$((failed + 1)); echo "FAIL  $2: $3"; fi
}
expect() { # expect NAME WANTED GOT [DETAIL]
  local ok=1
  [ "$2" = "$3" ] && ok=0
  result $ok "$1" "expected $2, got $3${4:+ ($4)}"
}

echo "guest: $(uname -r), $(systemctl --version | head -1), $(stat -fc %T /sys/fs/cgroup)," \
  "user $(id -un), delegated: $(cat "/sys/fs/cgroup/user.slice/user-$(id -u).slice/user@$(id -u).service/cgroup.controllers" 2>/dev/null)"

# The level in doctor.txt; its containment lines (or, without them, its end) are shown,
# indented, to say why when the level is lower.
shown_level() {
  if grep -q '^Containment' doctor.txt; then
    sed -n '/^Containment/,/^$/s/^/    /p' doctor.txt >&2
  else
    tail -n 5 doctor.txt | sed 's/^/    /' >&2
  fi
  sed -n 's/^Containment of a judged run: \([^ ]*\).*/\1/p' doctor.txt
}

# --- d. as root, plainly and in Docker (test.sh's second boot, with --root) ---------------
# Root in a container with a private cgroup namespace, the judge as its only process. An
# unprivileged container gets the cgroup file system read-only and the default seccomp
# profile refuses unshare: the lowest level, with doctor saying why. A privileged one: full.
if [ "$(id -u)" = 0 ]; then
  # Root in a login session first: its session's group is shared, so the judge asks the
  # system's systemd for a scope of its own.
  "$judge" doctor >doctor.txt 2>&1 || true
  expect "doctor as root in a login session" cgroup+namespaces "$(shown_level)"
  systemctl start docker
  docker import /opt/container.tar judge-guest-root >/dev/null
  docker_level() {
    docker run --rm "$@" --network none --cgroupns=private -e NO_COLOR=1 -v "$work:/repo" -w /repo \
      -v "$judge:/usr/local/bin/judge:ro" judge-guest-root judge doctor >doctor.txt 2>&1 || true
    shown_level
  }
  level=$(docker_level)
  if grep -q 'Read-only file system' doctor.txt; then said=", doctor says the cgroups are read-only"; else said=", doctor does not say why"; fi
  expect "doctor as root in Docker, default seccomp, --cgroupns=private" \
    "rlimits, doctor says the cgroups are read-only" "$level$said"
  expect "doctor as root in Docker, --privileged --cgroupns=private" \
    cgroup+namespaces "$(docker_level --privileged)"
  echo "$passed passed, $failed failed"
  [ "$failed" = 0 ]
  exit
fi

# --- a. the containment level doctor reports -------------------------------------------------
level() {
  "$@" doctor >doctor.txt 2>&1 || true
  shown_level
}
expect "doctor, plain" cgroup+namespaces "$(level "$judge")"
expect "doctor, in a delegated scope" cgroup+namespaces \
  "$(level systemd-run --user --scope --quiet -p Delegate=yes "$judge")"

# --- b. verdicts of hostile programs ---------------------------------------------------------
# One case of problem `guest` (128 MiB); prints "VERDICT PEAK_MIB LEVEL" from the JSON report.
judged() {
  { "$judge" run guest --solution "solutions/$1" --format json 2>/dev/null || true; } | python3 -c '
import json, sys
report = json.load(sys.stdin)
case = report["problems"][0]["cases"][0]
print(case["verdict"], round(case["peak_memory_bytes"] / 2**20), report["containment"]["level"])'
}
verdict_check() { # verdict_check SOLUTION WANTED WHAT
  local got
  got=$(judged "$1") || got="(no report)"
  local rest=${got#* }
  expect "$3" "$2" "${got%% *}" "peak ${rest%% *} MiB, at ${got##* }"
}
verdict_check accepted.c AC "an accepted program"
verdict_check memfd.c MLE "four 60 MiB memfds under 128 MiB"
verdict_check shm.c MLE "four 60 MiB /dev/shm files under 128 MiB, then exit"
# Root on the cgroup v1 CI host gets TLE: the pids cgroup (or RLIMIT_NPROC in the slot's user
# namespace) holds the storm at 64 tasks, which spin until the CPU time runs out.
verdict_check fork_storm.c TLE "a fork storm"
got=$(judged touch64.c) || got="(no report)"
peak=$(echo "$got" | cut -d' ' -f2)
ok=1
[ "${got%% *}" = AC ] && [ "$peak" -ge 60 ] 2>/dev/null && [ "$peak" -le 100 ] && ok=0
result $ok "peak of 64 MiB allocated and touched" "expected AC and 60..100 MiB, got $got"

# --- c. nothing left behind after a stopped run ----------------------------------------------
# The user's processes but this lister, its ancestors (this script and its subshells) and
# their other children (the rest of the pipeline the lister is in).
processes() {
  python3 - <<'PY'
import os
def parent(pid):
    return int(open(f"/proc/{pid}/stat").read().rsplit(") ", 1)[1].split()[1])
mine, pid = set(), os.getpid()
while pid > 1:
    mine.add(pid)
    pid = parent(pid)
for pid in map(int, filter(str.isdigit, os.listdir("/proc"))):
    try:
        if pid not in mine and parent(pid) not in mine and os.stat(f"/proc/{pid}").st_uid == os.getuid():
            print(pid, open(f"/proc/{pid}/comm").read().strip())
    except OSError:
        pass
PY
}
traces() { ls -A /dev/shm /tmp; }   # new entries are left by the run
cgroups() { find "/sys/fs/cgroup/user.slice/user-$(id -u).slice" -name 'judge-*' 2>/dev/null | tr '\n' ' '; }   # none at all
set -m   # the judge in a process group of its own, and not deaf to SIGINT as a background job
stopped_run() { # stopped_run SIGNAL: starts a run of sleepers, signals the judge, checks
  local before_p before_t after_p after_t left pid status
  before_p=$(processes | sort) before_t=$(traces | sort)
  "$judge" run sleepy --solution solutions/sleeper.py -j 2 >/dev/null 2>&1 &
  pid=$!
  for _ in $(seq 600); do [ "$(pgrep -cx guest-sleeper)" -ge 2 ] && break; sleep 0.2; done
  local running
  running=$(pgrep -cx guest-sleeper || true)
  kill -"$1" "$pid"
  status=0; wait "$pid" || status=$?
  # The supervisors clean up as they see the judge go: give them a moment under emulation.
  for _ in $(seq 100); do
    after_p=$(processes | sort) after_t=$(traces | sort)
    left=$({ comm -13 <(echo "$before_p") <(echo "$after_p")
      comm -13 <(echo "$before_t") <(echo "$after_t"); } | tr '\n' ' ')$(cgroups)
    [ -z "$left" ] && break
    sleep 0.2
  done
  local ok=1
  [ "$running" -ge 2 ] && [ -z "$left" ] && ok=0
  result $ok "nothing left after SIG$1 to the judge" \
    "$running sleepers running before, judge exit $status, left: ${left:-nothing}"
}
stopped_run INT
stopped_run KILL
set +m

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
