#!/usr/bin/env bash
# One whole-process run for side-by-side start-up/exit comparisons (bench/results/startup-2026-12-07.md):
# a FRESH ibsim on NETFILE, CMD once under the umad2sim shim and /usr/bin/time, in ibsim's workdir. @W@ in
# CMD's words is replaced by that workdir (smd.yaml, a state folder and an OpenSM cache are made there).
# ibsim gets $STARTUP_IBSIM_ARGS, default -N 2048 -S 256 -P 13312 (the 128-host torus and random fabrics of
# bench/run.sh; `smd-fabric ... --ibsim-args` prints a fabric's). Prints one line:
# NAME wall_s user_s sys_s maxrss_kb exit. ibsim is killed by PID on exit, on failure too (bench/lib.sh).
#
#   bench/startup_ab.sh NAME NETFILE CMD...
#   e.g. bench/startup_ab.sh smd torus.net build/smd/smd --once --config @W@/smd.yaml
#        bench/startup_ab.sh opensm torus.net opensm -o -f @W@/osm.log -R updn -a root_guids.txt
set -euo pipefail
name=$1
netfile=$(realpath "$2")
shift 2
# shellcheck source=lib.sh
. "$(cd "$(dirname "$0")" && pwd)/lib.sh"
read -r -a simargs <<<"${STARTUP_IBSIM_ARGS:--N 2048 -S 256 -P 13312}"
bench_ibsim_start "${netfile}" 300 "${simargs[@]}" >/dev/null
mkdir -p "${IBSIM_WORKDIR}/state" "${IBSIM_WORKDIR}/osm-cache"
printf 'sm:\n  state_dir: %s/state\nrouting:\n  engines: [ftree, updn, minhop]\n' "${IBSIM_WORKDIR}" > "${IBSIM_WORKDIR}/smd.yaml"
export OSM_CACHE_DIR="${IBSIM_WORKDIR}/osm-cache"
args=()
for a in "$@"; do args+=("${a//@W@/${IBSIM_WORKDIR}}"); done
sync
rc=0
(cd "${IBSIM_WORKDIR}" && timeout -k 5 60 /usr/bin/time -f "%e %U %S %M" -o "${IBSIM_WORKDIR}/t" env LD_PRELOAD="${SIM_PRELOAD}" "${args[@]}" >"${IBSIM_WORKDIR}/out" 2>&1) || rc=$?
echo "${name} $(tail -n 1 "${IBSIM_WORKDIR}/t") ${rc}"
