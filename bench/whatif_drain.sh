#!/usr/bin/env bash
# What-if drain on a large tree (issue 46 item 3's figures): smd as a daemon with its default policy on a
# fresh ibsim of the 12-ary 3-tree (1728 hosts, 432 switches); `smctl --json what-if drain PART` is asked
# --runs times (each smctl round trip's wall time, the daemon's CPU seconds across it from /proc/PID/stat,
# and the worker's own what_if_ms), then `smctl drain PART`. After the sweep that drain asks for, every
# switch's LFT is read back with infiniband-diags (tests/integration/read_lfts.py; the drained switch's by
# directed route, as no LID route reaches it) and the blocks that changed are compared with the what-if's
# prediction (tests/integration/drain_blocks_check.py): equal, or the script fails.
#
#   bench/whatif_drain.sh [--build DIR] [--fabric k12|k8] [--part NAME] [--runs N] [--raw DIR]
#
#   --part   the switch to drain, by NodeDescription (default sw-L2-0, a spine)
#   --runs   what-if runs before the drain (default 3)
# Writes bench/results/whatif_drain.md. Every process started is killed by PID on exit (bench/lib.sh).
set -euo pipefail
bench=$(cd "$(dirname "$0")" && pwd)
src=$(cd "${bench}/.." && pwd)
cmdline="bench/whatif_drain.sh$(printf ' %q' "$@")"
. "${bench}/setup.sh"
build="" fabric="k12" part="sw-L2-0" runs=3 raw=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --build) build=$2; shift ;;
    --fabric) fabric=$2; shift ;;
    --part) part=$2; shift ;;
    --runs) runs=$2; shift ;;
    --raw) raw=$2; shift ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    *) echo "whatif_drain.sh: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
for pkg in ibsim-utils libumad2sim0 infiniband-diags python3; do
  dpkg -s "${pkg}" >/dev/null 2>&1 || { echo "whatif_drain.sh: package ${pkg} missing" >&2; exit 2; }
done
build=$(bench_build_dir "${build}")
genargs=$(bench_fabric_args "${fabric}" k12,k8)
raw=$(bench_raw_dir "${raw}" smd-whatif)
echo "== raw outputs in ${raw}"
simline=$(bench_netfile "${build}" "${genargs}" "${raw}/fabric.net")
read -r -a simargs <<<"${simline}"
tests="${src}/tests/integration"

. "${bench}/lib.sh"
bench_run_open "${raw}/run" "${raw}/fabric.net" 1800 "${simargs[@]}"  # sets out
socket="${IBSIM_WORKDIR}/control.socket"
bench_smd_policy "${IBSIM_WORKDIR}/smd.yaml" "${IBSIM_WORKDIR}/state" "${socket}"
(cd "${IBSIM_WORKDIR}" && exec env LD_PRELOAD="${SIM_PRELOAD}" "${build}/smd/smd" --config "${IBSIM_WORKDIR}/smd.yaml" \
  >"${out}/smd.log" 2>&1) &
sm_pid=$!
ibsim_track "${sm_pid}"
smctl() { timeout 120 "${build}/smd/smctl" --socket "${socket}" "$@"; }
ups() { grep -c "SUBNET UP" "${out}/smd.log" || true; }
wait_ups() {  # wait_ups COUNT SECONDS
  local deadline=$((SECONDS + $2))
  until (($(ups) >= $1)); do
    ((SECONDS < deadline)) || { echo "whatif_drain: no SUBNET UP x$1 within $2 s" >&2; tail -n 20 "${out}/smd.log" >&2; return 1; }
    kill -0 "${sm_pid}" 2>/dev/null || { echo "whatif_drain: smd exited" >&2; tail -n 20 "${out}/smd.log" >&2; return 1; }
    sleep 0.5
  done
}
cpu_s() { awk -v hz="$(getconf CLK_TCK)" '{print ($14 + $15) / hz}' "/proc/${sm_pid}/stat"; }
wait_ups 1 900
sleep 10  # the sweeps after bring-up (the SM's own trap) settle

# The drained switch's GUID and its directed route from host-0 (where the shim attaches), off the netfile.
read -r guid dr < <(python3 - "${raw}/fabric.net" "${part}" "${tests}" <<'PY'
import re, sys
sys.path.insert(0, sys.argv[3])
import netfile_hosts
n = 0
for line in open(sys.argv[1]):
    m = re.match(r'^Switch \d+ "([^"]+)"', line)
    if m:
        if m.group(1) == sys.argv[2]:
            break
        n += 1
print(f"0x{0x200000 + n:016x}", ",".join(map(str, netfile_hosts.directed_route(sys.argv[1], "host-0", sys.argv[2]))))
PY
)
read_lfts() { (cd "${IBSIM_WORKDIR}" && LD_PRELOAD="${SIM_PRELOAD}" timeout 1200 python3 "${tests}/read_lfts.py" --dr "${guid}=${dr}" >"$1"); }
t=${SECONDS}
read_lfts "${out}/before.lfts"
echo "== LFTs before read back in $((SECONDS - t)) s"

: >"${out}/runs.txt"
for i in $(seq 1 "${runs}"); do
  c0=$(cpu_s) t0=$(date +%s%N)
  smctl --json what-if drain "${part}" >"${out}/whatif.${i}.json" && rc=0 || rc=$?
  t1=$(date +%s%N) c1=$(cpu_s)
  [[ ${rc} == 0 ]] || { echo "whatif_drain: what-if exit ${rc}: $(head -c 300 "${out}/whatif.${i}.json")" >&2; exit 1; }
  python3 - "${out}/whatif.${i}.json" "$(((t1 - t0) / 1000000))" "${c0}" "${c1}" <<'PY' | tee -a "${out}/runs.txt"
import json, sys
r = json.load(open(sys.argv[1]))["result"]
rep = r["report"]
print(f"run: smctl round trip {sys.argv[2]} ms; smd CPU {float(sys.argv[4]) - float(sys.argv[3]):.2f} s; "
      f"worker {r['what_if_ms']:.0f} ms; lost pairs {rep['lost_pairs']}; {rep['lft_blocks']} LFT blocks on "
      f"{rep['switches_changed']} switches ({rep['made_by']})")
PY
done
cp "${out}/whatif.${runs}.json" "${out}/whatif.json"

n=$(ups)
smctl drain "${part}" >"${out}/drain.txt"
wait_ups $((n + 1)) 600
t=${SECONDS}
read_lfts "${out}/after.lfts"
echo "== LFTs after read back in $((SECONDS - t)) s"
python3 "${tests}/drain_blocks_check.py" "${out}/before.lfts" "${out}/after.lfts" "${out}/whatif.json" | tee "${out}/compare.txt"
grep -q "tops as predicted" "${out}/compare.txt" || { echo "whatif_drain: prediction and fabric differ" >&2; exit 1; }

commit=$(git -C "${src}" rev-parse --short HEAD 2>/dev/null || echo unknown)
{
  echo "# What-if drain on the running fabric: time, and the prediction against the tables read back"
  echo
  echo "\`${cmdline}\` at ${commit}, $(date -u +%Y-%m-%d), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)."
  echo "Fabric: smd-fabric ${genargs}; smd with its default policy (routing.engines [ftree, updn, minhop],"
  echo "routing.repair minimal); drained: ${part}. Raw outputs in ${raw}."
  echo
  echo "\`smctl --json what-if drain ${part}\`, ${runs} runs one after the other:"
  echo
  sed 's/^/- /' "${out}/runs.txt"
  echo
  echo "Then \`smctl drain ${part}\` and, after its sweep, every switch's LFT read back with \`ibroute\`/\`smpdump\`"
  echo "(tests/integration/read_lfts.py) against those read before (tests/integration/drain_blocks_check.py):"
  echo
  sed 's/^/- /' "${out}/compare.txt"
} >"${bench}/results/whatif_drain.md"
echo "== wrote bench/results/whatif_drain.md"
