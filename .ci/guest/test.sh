#!/usr/bin/env bash
# The guest checks from the host: builds (or reuses) the image, shares a copy of the
# checkout's tracked files and its release judge with the guest, and runs checks.sh there
# as the ordinary user, then the Docker check as root. Build the judge first:
# cargo build --release -p judge. Options (--timeout SECONDS) go to boot.sh.
# Exit status: checks.sh's (0 when every check passed), or boot.sh's 124/125.
set -euo pipefail
cd "$(dirname "$0")/../.."
[ -x target/release/judge ] || { echo "no target/release/judge: cargo build --release -p judge" >&2; exit 2; }

# What the guest sees is a copy: the share must be readable by the guest's user, and the
# checkout itself stays untouched by whatever runs there.
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
git ls-files -z | tar --null --ignore-failed-read -T - -cf - | tar -xf - -C "$stage"
install -D -m 0755 target/release/judge "$stage/target/release/judge"
chmod -R a+rX "$stage"
# The ordinary user's checks, then root's in Docker: a boot each, since root's session is
# not the user's. Both run; the status is the first failure's.
user_status=0 root_status=0
.ci/guest/boot.sh "$@" "$stage" 'bash .ci/guest/checks.sh' || user_status=$?
.ci/guest/boot.sh --root "$@" "$stage" 'bash .ci/guest/checks.sh' || root_status=$?
[ "$user_status" != 0 ] && exit "$user_status"
exit "$root_status"
