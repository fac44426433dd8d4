#!/usr/bin/env bash
# Builds the Debian 12 guest that boot.sh starts, once, and prints the folder holding it
# (disk.img, kernel, initrd.img). The guest is what a user's laptop has and this CI host has
# not: systemd on the unified cgroup v2 hierarchy, and an ordinary user `judgeuser` (uid 1000)
# whose user@1000.service gets a delegated cgroup (lingering), with a logind session and the
# user's D-Bus for `systemd-run --user`.
#
# The image is kept in $JUDGE_GUEST_CACHE (default ${XDG_CACHE_HOME:-$HOME/.cache}/judge-guest)
# in a folder named by the hash of its inputs (this script and inside/), so that editing them
# builds a new one and an unchanged checkout reuses it. Needs root (mmdebstrap --mode=root and
# mkfs.ext4 -d keep the guest's file owners) and Debian's package mirror.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
cache=${JUDGE_GUEST_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/judge-guest}
mirror=${JUDGE_GUEST_MIRROR:-http://deb.debian.org}
slow=(nice -n 19 ionice -c3)   # the machine's cores are shared
log() { echo "[guest image] $*" >&2; }

hash=$(cat "$0" "$here"/inside/* | sha256sum | cut -c1-16)
out=$cache/$hash
if [ -f "$out/disk.img" ]; then
  log "cached: $out"
  echo "$out"
  exit 0
fi
[ "$(id -u)" = 0 ] || { log "building the image needs root"; exit 1; }
started=$SECONDS

# --- host tools: Debian's packages ------------------------------------------------------------
export DEBIAN_FRONTEND=noninteractive
need=()
command -v qemu-system-x86_64 >/dev/null || need+=(qemu-system-x86)
command -v mmdebstrap >/dev/null || need+=(mmdebstrap)
command -v mkfs.ext4 >/dev/null || need+=(e2fsprogs)
install() { "${slow[@]}" apt-get "$@" install -y -q --no-install-recommends --no-remove \
  "${need[@]}" >&2; }
if [ ${#need[@]} -gt 0 ]; then
  log "installing ${need[*]}"
  if dpkg-query -W -f '${Version}' qemu-utils 2>/dev/null | grep -q bpo; then
    # A host that took qemu-utils from bookworm-backports cannot install bookworm's
    # qemu-system-x86 beside it (their versions must match), and removing qemu-utils is not
    # ours to do: qemu comes from backports then, through a source list of our own that
    # leaves the host's apt sources as they are.
    apt_dir=$(mktemp -d)
    trap 'rm -rf "$apt_dir"' EXIT
    mkdir -p "$apt_dir/lists/partial"
    cp /etc/apt/sources.list.d/*.sources "$apt_dir/" 2>/dev/null || true   # for dependencies
    echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror/debian" \
      "bookworm-backports main" >"$apt_dir/backports.list"
    own=(-o Dir::Etc::SourceParts="$apt_dir" -o Dir::Etc::SourceList=/dev/null
      -o Dir::State::Lists="$apt_dir/lists")
    "${slow[@]}" apt-get "${own[@]}" update -q >&2
    install "${own[@]}" -t bookworm-backports
  else
    # The package lists are refreshed once, only when they lack what is needed.
    install || { "${slow[@]}" apt-get update -q >&2 && install; }
  fi
fi

# --- the root file system ---------------------------------------------------------------------
rm -rf "$cache/tmp"
mkdir -p "$cache/tmp"
tmp=$cache/tmp
packages=(
  systemd systemd-sysv dbus dbus-user-session libpam-systemd   # sessions, user@.service, bus
  linux-image-amd64 initramfs-tools zstd kmod                  # the distribution's kernel
  gcc g++ libc6-dev python3 procps psmisc                      # what the checks compile and use
  docker.io apparmor                                           # the check as root in Docker
)
log "root file system (mmdebstrap; its log: $out/build.log)"
# mmdebstrap and the packages' scripts say a great deal: kept in a log, shown when it fails.
"${slow[@]}" mmdebstrap --mode=root --variant=apt --format=directory \
  --include="$(IFS=,; echo "${packages[*]}")" \
  --aptopt='APT::Install-Recommends "false"' \
  --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-exclude=/usr/share/man/*' \
  --dpkgopt='path-exclude=/usr/share/locale/*' \
  --customize-hook="'$here/inside/customize' \"\$1\"" \
  bookworm "$tmp/root" \
  "deb $mirror/debian bookworm main" "deb $mirror/debian bookworm-updates main" \
  "deb $mirror/debian-security bookworm-security main" >"$tmp/build.log" 2>&1 ||
  { tail -n 40 "$tmp/build.log" >&2; log "mmdebstrap failed"; exit 1; }

# --- kernel, initrd and disk ------------------------------------------------------------------
kernel=$(ls "$tmp"/root/boot/vmlinuz-* | sort -V | tail -1)
cp "$kernel" "$tmp/vmlinuz"
cp "$tmp/root/boot/initrd.img-${kernel##*/vmlinuz-}" "$tmp/initrd.img"
# qemu boots an uncompressed ELF kernel through its PVH entry, skipping the decompression:
# seconds saved on every boot under software emulation. boot.sh uses vmlinuz when it is absent.
python3 - "$tmp/vmlinuz" "$tmp/vmlinux" <<'PY' || log "no vmlinux: boot.sh will use vmlinuz"
import lzma, sys
packed = open(sys.argv[1], 'rb').read()
start = packed.find(b'\xfd7zXZ\x00')
elf = lzma.LZMADecompressor().decompress(packed[start:]) if start >= 0 else b''
if elf[:4] != b'\x7fELF':
    sys.exit('the kernel holds no xz-packed ELF')
open(sys.argv[2], 'wb').write(elf)
PY
# Docker in the guest reaches no registry: its container's root is this root file system,
# imported from a tarball, without what a container running the judge does not use (the
# kernel, compilers, Docker itself): importing is slow under emulation.
skip=(./boot ./usr/lib/modules ./usr/lib/firmware ./usr/lib/gcc ./usr/libexec/gcc ./usr/include
  './usr/bin/x86_64-linux-gnu-*' './usr/bin/docker*' './usr/bin/containerd*' ./usr/sbin/dockerd
  ./usr/sbin/runc './usr/lib/x86_64-linux-gnu/lib*san.so*' ./var/lib/docker)
tar -C "$tmp/root" "${skip[@]/#/--exclude=}" -cf "$tmp/container.tar" .
mv "$tmp/container.tar" "$tmp/root/opt/container.tar"
truncate -s 4G "$tmp/disk.img"
"${slow[@]}" mkfs.ext4 -q -F -L judge-guest -d "$tmp/root" "$tmp/disk.img"
rm -rf "$tmp/root"

# Only a complete image is ever under its hash; older images go.
find "$cache" -mindepth 1 -maxdepth 1 -type d ! -name tmp -exec rm -rf {} +
mv "$tmp" "$out"
log "built in $((SECONDS - started)) s: $out ($(du -sh "$out" | cut -f1) used)"
echo "$out"
