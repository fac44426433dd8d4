#!/usr/bin/env bash
# Boots the guest image.sh built, runs COMMAND in it and exits with COMMAND's status.
#
#   boot.sh [--root] [--timeout SECONDS] HOST_DIR COMMAND
#
# HOST_DIR is shared read-write at /mnt/host, COMMAND's working folder. COMMAND (a shell
# command line) runs as the ordinary user `judgeuser` in a login session (`su -l`, so logind,
# XDG_RUNTIME_DIR and the user's D-Bus are there), or as root with --root. Its stdout and
# stderr, merged, come out on this script's stdout as they are written. The disk is a
# snapshot: nothing a run does survives it but what it writes under /mnt/host.
# Exit status: COMMAND's; 124 when the timeout (default 900 s) ran out; 125 when the guest
# failed before COMMAND ended (the console's tail is printed). JUDGE_GUEST_ACCEL=kvm|tcg
# overrides the choice of accelerator; JUDGE_GUEST_APPEND adds kernel words (loglevel=7).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
user=judgeuser timeout=900
while [ $# -gt 0 ]; do
  case $1 in
    --root) user=root; shift ;;
    --timeout) timeout=$2; shift 2 ;;
    *) break ;;
  esac
done
[ $# = 2 ] || { sed -n '2,/^set/p' "$0" | sed '$d' >&2; exit 125; }
host_dir=$(realpath "$1")
image=$("$here/image.sh") || exit 125   # no image, and none can be built here

# KVM only where a stock kernel boots on it (kvm_intel or kvm_amd); software emulation
# (TCG) otherwise, 20-50 times slower but the same kernel, cgroups and sessions.
accel=${JUDGE_GUEST_ACCEL:-tcg}
if [ -z "${JUDGE_GUEST_ACCEL:-}" ] && [ -w /dev/kvm ] &&
  { [ -d /sys/module/kvm_intel ] || [ -d /sys/module/kvm_amd ]; }; then
  accel=kvm
fi
# Each module or self-test at boot costs seconds under emulation: none of these is needed.
kargs="root=/dev/vda rw console=ttyS0 quiet panic=1 cryptomgr.notests judge_guest"
kargs+=" modprobe.blacklist=floppy,ata_piix,ata_generic,pcspkr,psmouse,serio_raw,i2c_piix4,drm"
kargs+=",kvm,kvm_amd,kvm_intel,aesni_intel,ghash_clmulni_intel,sha256_ssse3,sha512_ssse3"
case $accel in
  kvm) cpu=(-accel kvm -cpu host) ;;
  # Without svm, vmx and 5-level paging: the guest loads no kvm and pages as a laptop does;
  # the emulated TSC follows the host's clock, so it can be trusted.
  tcg) cpu=(-accel tcg,thread=multi -cpu max,-svm,-vmx,-la57) kargs+=" tsc=reliable" ;;
  *) echo "JUDGE_GUEST_ACCEL=$accel: kvm or tcg" >&2; exit 125 ;;
esac
kernel=$image/vmlinux
[ -f "$kernel" ] || kernel=$image/vmlinuz

run=$(mktemp -d)
trap 'rm -rf "$run"' EXIT
mkdir "$run/ctl"
printf '%s\n' "$2" >"$run/ctl/cmd"
echo "$user" >"$run/ctl/user"

echo "[guest] booting ($accel), then as $user: $2" >&2
started=$SECONDS
set +e
# The command's output: a virtio port written to qemu's stdout, a pipe to this script's (a
# `file` chardev: a `stdio` one would see /dev/null's end of file and close the port, which
# blocks the guest's writes; the pipe keeps it from writing at its own offset into a file
# that others append to). qemu's own messages and the guest's console go to files, shown
# when something failed.
TMPDIR=$run timeout -k 5 "$timeout" nice -n 19 ionice -c3 qemu-system-x86_64 \
  -machine pc "${cpu[@]}" -smp 2 -m 3072 -nodefaults -display none -no-reboot \
  -kernel "$kernel" -initrd "$image/initrd.img" \
  -append "$kargs ${JUDGE_GUEST_APPEND:-}" \
  -drive "file=$image/disk.img,format=raw,if=virtio,snapshot=on,cache=unsafe" \
  -virtfs "local,path=$run/ctl,mount_tag=ctl,security_model=none" \
  -virtfs "local,path=$host_dir,mount_tag=host,security_model=none" \
  -device virtio-rng-pci -device virtio-serial-pci \
  -chardev file,id=out,path=/proc/self/fd/1,append=on -device virtserialport,chardev=out,name=out \
  -serial "file:$run/console.log" </dev/null 2>"$run/qemu.log" | cat
status=${PIPESTATUS[0]}
set -e

if [ -f "$run/ctl/rc" ]; then
  rc=$(cat "$run/ctl/rc")
  echo "[guest] command ran $(awk '{print $1}' "$run/ctl/started") s after the kernel started, exit $rc; $((SECONDS - started)) s in all" >&2
elif [ "$status" = 124 ] || [ "$status" = 137 ]; then
  rc=124
  echo "[guest] timed out after $timeout s" >&2
else
  rc=125
fi
if [ "$rc" = 124 ] || [ "$rc" = 125 ]; then
  echo "[guest] qemu exited $status; console and qemu messages:" >&2
  tail -n 40 "$run/console.log" "$run/qemu.log" >&2 || true
fi
exit "$rc"
