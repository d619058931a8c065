#!/usr/bin/env bash
# CI on Debian 13 "trixie" beside .ci/run's Debian 12 job: a new user's steps on the current Debian stable,
# in a chroot this script makes with mmdebstrap from the Debian archive (no other download).
#   1. the README's main command, verbatim: .ci/install-deps.sh (the one script for both releases), a
#      Release build of smd with GCC 14, the demo on a bundled ibsim fabric;
#   2. every other target in that build tree, its tests turned on; any compiler warning fails the job
#      (Debian 12's job builds with -Werror and the sanitizers, this one without: one sanitizer run is enough);
#   3. the unit tests and a representative set of ibsim tests: SA, OpenSM interop, FRR 10.3 loading the
#      RoCE configs, the Debian package, and link rates with NDR cables (ibsim 0.12 has them, 0.10 does not).
# Cost on the 2-core CI machine: docs/building.md, "CI".
#
# Everything runs in a private mount and PID namespace: when this script ends, on success or failure, the
# kernel kills every process started in the chroot (ibsim, smd, OpenSM, FRR) and drops its mounts; the
# chroot folder is then removed. Needs root (CI and the README's commands run as root).
#
# Usage: .ci/debian13.sh [--keep DIR]   (--keep: make or reuse the chroot in DIR and leave it there)
set -euo pipefail
cd "$(dirname "$0")/.."
src=$(pwd)
suite=trixie
mirror=${SMD_DEBIAN_MIRROR:-http://deb.debian.org/debian}
keep=""
if [[ ${1:-} == --keep ]]; then keep=${2:?--keep needs a folder}; fi
if [[ $(id -u) -ne 0 ]]; then
  echo "debian13: needs root (mmdebstrap, chroot, namespaces)" >&2
  exit 2
fi

start=${SECONDS}
stamp() { printf '[debian13 %4ds] %s\n' $((SECONDS - start)) "$*"; }

if ! command -v mmdebstrap >/dev/null; then
  echo "debian13: installing mmdebstrap on this machine (Debian's package)"
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends mmdebstrap >/dev/null
fi

root=${keep:-$(mktemp -d /var/tmp/smd-debian13.XXXXXX)}
cleanup() {
  local rc=$?
  # The mounts live in the job's namespace and go with it; rm never follows one into /dev or /sys all the same.
  if [[ -z ${keep} ]] && ! grep -q " ${root}[/ ]" /proc/self/mounts; then rm -rf --one-file-system "${root}"; fi
  exit "${rc}"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if [[ ! -x ${root}/usr/bin/apt-get ]]; then
  stamp "mmdebstrap ${suite} into ${root}"
  rmdir "${root}" 2>/dev/null || true
  mmdebstrap --quiet --variant=minbase --include=ca-certificates,git "${suite}" "${root}" "${mirror}"
fi
stamp "$(cat "${root}/etc/debian_version"): copying the checkout"
rm -rf "${root}/src"
mkdir -p "${root}/src"
# The checkout's files as git sees them (committed and uncommitted, no build trees).
git ls-files -z --cached --others --exclude-standard | tar --null -T - -cf - | tar -xf - -C "${root}/src"

main_command=$(grep -m1 -xE 'bash \.ci/install-deps\.sh && cmake -S \. -B build .*--target smd && smd/demo\.sh build' README.md) || {
  echo "debian13: README.md has no main command line to run" >&2
  exit 1
}
# The ibsim tests that stand for the rest on Debian 13 (docs/building.md's CI paragraph names them by topic).
ibsim_tests='ibsim\.(once_kary4_3_test|once_leafspine_test|port_fields_test|sa_paths_test|sa_records_test|sa_link_rates_test|mcast_join_test|daemon_opensm_master_test|daemon_opensm_takes_over_test|roce_frr_leafspine_test)$|^package\.deb$'

# The job inside the chroot: /tmp, /proc, /sys, /dev as a running system has them; /run/netns for the FRR
# tests' namespaces (ip netns binds them there).
job=$(
  cat <<JOB
set -euo pipefail
export HOME=/root LANG=C.UTF-8 CI=true
cd /src
echo "== README main command on Debian \$(cat /etc/debian_version)"
t0=\${SECONDS}
( ${main_command} ) 2>&1 | tee /src/main-command.log
echo "[debian13] main command: \$((SECONDS - t0)) s (\$(g++ --version | head -n1))"
t0=\${SECONDS}
# A Release tree leaves the tests out unless asked (the package target then builds none): asked here.
cmake -S . -B build -DSMD_BUILD_TESTS=ON >/dev/null
cmake --build build -j"\$(nproc)" 2>&1 | tee /src/build-all.log
echo "[debian13] every target: \$((SECONDS - t0)) s"
if grep -E '(warning|error): ' /src/main-command.log /src/build-all.log; then
  echo "debian13: the compiler warned (above); Debian 13's GCC must build smd without a warning" >&2
  exit 1
fi
t0=\${SECONDS}
ctest --test-dir build --output-on-failure -j"\$(nproc)" -L unit
echo "[debian13] unit tests: \$((SECONDS - t0)) s"
t0=\${SECONDS}
ctest --test-dir build --output-on-failure -R '${ibsim_tests}'
echo "[debian13] ibsim tests: \$((SECONDS - t0)) s"
JOB
)

stamp "running the job in the chroot"
unshare --mount --propagation private --pid --fork bash -euo pipefail -c '
  root=$1 job=$2
  # The root of the chroot a mount point of its own: ip netns exec makes / a slave mount, which fails on a
  # plain folder. (No quote characters in this block: it is one single-quoted argument.)
  mount --bind "${root}" "${root}"
  mount -t proc proc "${root}/proc"
  mount -t sysfs sysfs "${root}/sys"
  mount --rbind /dev "${root}/dev"
  mount -t tmpfs tmpfs "${root}/tmp"
  mount -t tmpfs tmpfs "${root}/run"
  exec chroot "${root}" bash -euo pipefail -c "${job}"
' debian13 "${root}" "${job}"
# Everything the job mounted was in its namespace: none of it may be left in the machine's own.
if grep -q " ${root}[/ ]" /proc/1/mounts; then
  echo "debian13: mounts of the chroot were made outside the job's namespace:" >&2
  grep " ${root}[/ ]" /proc/1/mounts >&2
  exit 1
fi
stamp "Debian 13 job passed"
