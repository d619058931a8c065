#!/usr/bin/env bash
# Soak: link flaps in a row against the smd daemon on ibsim, every one repaired.
#
#   bench/soak.sh [--build DIR] [--fabric kary4-3|k8] [--flaps N] [--check-every N] [--step-timeout S]
#                 [--loss PERCENT] [--timeout S] [--out FILE]
#
# Starts ibsim (console FIFO) and the daemon (default policy), waits for SUBNET UP, then N times: Unlink a
# switch-to-switch cable (rotating over every such cable of the fabric), wait until the daemon reports a
# heavy sweep that ended with the subnet up and one cable fewer (smctl status --json), ReLink it, wait for
# the sweep that has it back. A flap counts as survived when both repairs are seen within --step-timeout.
# Every --check-every flaps (and at flap 0) tests/integration/check_fabric.py reads the whole fabric back
# with infiniband-diags. RSS (VmRSS) is sampled at flap 0 and at every check. With --loss, every switch
# port drops that share of SMPs (ibsim `Error`, traps included) during the flaps; the errors are cleared
# for each read-back, which would suffer them too. Writes a table to FILE
# (default bench/results/soak.md); raw outputs stay in a fresh directory under $TMPDIR.
# Everything runs under a global --timeout; ibsim, its console writer and the daemon are killed by PID
# on exit, success or failure (bench/lib.sh -> tests/integration/ibsim_env.sh).
set -euo pipefail
bench=$(cd "$(dirname "$0")" && pwd)
src=$(cd "${bench}/.." && pwd)
build="${src}/build" fabric=kary4-3 flaps=200 check_every=50 step_timeout=30 global=3600 loss=0
out="${bench}/results/soak.md"
args=("$@")
while [[ $# -gt 0 ]]; do
  case "$1" in
    --build) build=$(realpath "$2"); shift 2 ;;
    --fabric) fabric=$2; shift 2 ;;
    --flaps) flaps=$2; shift 2 ;;
    --check-every) check_every=$2; shift 2 ;;
    --step-timeout) step_timeout=$2; shift 2 ;;
    --loss) loss=$2; shift 2 ;;
    --timeout) global=$2; shift 2 ;;
    --out) out=$(realpath -m "$2"); shift 2 ;;
    --inner) shift ;;
    *) echo "soak.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
# The global bound: run the soak as a child of timeout; SIGTERM reaches the EXIT trap, which kills by PID.
if [[ -z "${SOAK_INNER:-}" ]]; then
  SOAK_INNER=1 exec timeout -k 30 "${global}" bash "$0" "${args[@]}"
fi
smd="${build}/smd/smd"
smctl="${build}/smd/smctl"
[[ -x "${smd}" && -x "${smctl}" ]] || { echo "soak.sh: build smd and smctl in ${build} first" >&2; exit 2; }

. "${bench}/setup.sh"
. "${bench}/lib.sh"
raw="${IBSIM_WORKDIR}"
export SMD_KEEP_WORKDIR=1
bench_small_netfile "${build}" "${fabric}" "${raw}/fabric.net"
net="${raw}/fabric.net"
switches=$(grep -c '^Switch' "${net}")
cas=$(grep -c '^Hca' "${net}")
echo "soak: raw outputs in ${raw}"
bench_ibsim_start "${net}" $((global + 60))

# Every switch-to-switch cable once, as "name port" of one end (the end whose name sorts first).
awk '$1 == "Switch" || $1 == "Hca" { kind = $1; gsub(/"/, "", $3); name = $3; next }
     kind == "Switch" && /^\[/ { split($0, f, "\""); peer = f[2]; port = substr($1, 2, index($1, "]") - 2)
       if (peer ~ /^sw/ && name < peer) print name, port }' "${net}" >"${raw}/cables.txt"
ncables=$(wc -l <"${raw}/cables.txt")
[[ ${ncables} -gt 0 ]] || { echo "soak.sh: no switch-to-switch cables in ${net}" >&2; exit 2; }

bench_smd_policy "${raw}/smd.yaml" "${raw}/state" "${raw}/control.socket"
# The daemon, like ibsim, also has a hard wall-clock bound of its own, in case this script is killed
# before its EXIT trap can run.
(cd "${raw}" && exec timeout -s KILL $((global + 60)) env LD_PRELOAD="${SIM_PRELOAD}" "${smd}" \
  --config "${raw}/smd.yaml" >"${raw}/smd.log" 2>&1) &
smd_timeout_pid=$!
ibsim_track "${smd_timeout_pid}"
smd_pid=""
for _ in $(seq 1 100); do
  smd_pid=$(pgrep -P "${smd_timeout_pid}" -x smd || true)
  [[ -n "${smd_pid}" ]] && break
  sleep 0.05
done
[[ -n "${smd_pid}" ]] || { echo "soak: smd did not start" >&2; exit 1; }
ibsim_track "${smd_pid}"

sock="${raw}/control.socket"
status() { python3 "${bench}/soak_status.py" get "${sock}" "$@"; }
rss_kb() { awk '/^VmRSS:/ { print $2 }' "/proc/${smd_pid}/status"; }

# flap_step COMMAND LINKS: one console command, then wait until the daemon has repaired the fabric
# (soak_status.py step); prints "seconds-from-the-command daemon-last_repair_ms", or "- -" on timeout.
flap_step() {
  python3 "${bench}/soak_status.py" step "${sock}" "${IBSIM_WORKDIR}/console" "$2" "${step_timeout}" "$1" ||
    echo "- -"
}

check() {  # check N: full read-back with infiniband-diags, without the injected loss
  local verdict=fail
  [[ ${loss} -eq 0 ]] || ibsim_switch_errors "${net}" 0 >&2
  if sim timeout -k 5 600 python3 "${src}/tests/integration/check_fabric.py" --expect-switches "${switches}" \
    --expect-cas "${cas}" >"${raw}/check-$1.txt" 2>&1; then
    verdict=pass
  fi
  [[ ${loss} -eq 0 ]] || ibsim_switch_errors "${net}" "${loss}" >&2
  echo "${verdict}"
}

deadline=$((SECONDS + 120))
until grep -q "SUBNET UP" "${raw}/smd.log" 2>/dev/null; do
  ((SECONDS < deadline)) || { echo "soak: no SUBNET UP within 120 s" >&2; tail -n 20 "${raw}/smd.log" >&2; exit 1; }
  kill -0 "${smd_pid}" 2>/dev/null || { echo "soak: smd exited" >&2; tail -n 20 "${raw}/smd.log" >&2; exit 1; }
  sleep 0.1
done
total_links=$(status 's["fabric"]["links"]')
echo "soak: ${switches} switches, ${cas} CAs, ${total_links} cables (${ncables} between switches); ${flaps} flaps"
printf 'flap rss_kb check\n0 %s %s\n' "$(rss_kb)" "$(check 0)" >"${raw}/rss.txt"
[[ ${loss} -eq 0 ]] || { ibsim_switch_errors "${net}" "${loss}" && echo "soak: ${loss}% SMP loss on every switch port"; }
: >"${raw}/flaps.txt"
survived=0
for ((i = 1; i <= flaps; i++)); do
  read -r sw port < <(sed -n "$(((i - 1) % ncables + 1))p" "${raw}/cables.txt")
  read -r down down_ms < <(flap_step "Unlink \"${sw}\"[${port}]" $((total_links - 1)))
  read -r up up_ms < <(flap_step "ReLink \"${sw}\"[${port}]" "${total_links}")
  ok=1
  [[ ${down} != - && ${up} != - ]] || ok=0
  survived=$((survived + ok))
  echo "${i} ${sw} ${port} ${ok} ${down} ${down_ms} ${up} ${up_ms}" >>"${raw}/flaps.txt"
  if ((ok == 0)); then
    echo "soak: flap ${i} (${sw}[${port}]) not repaired within ${step_timeout} s" >&2
    tail -n 20 "${raw}/smd.log" >"${raw}/flap-${i}-smd.log"
  fi
  if ((i % check_every == 0 || i == flaps)); then
    echo "${i} $(rss_kb) $(check "${i}")" >>"${raw}/rss.txt"
    echo "soak: flap ${i}: ${survived} survived; $(tail -n 1 "${raw}/rss.txt")"
  fi
done
"${smctl}" --socket "${sock}" --json status >"${raw}/status-final.json"
# A clean stop (smd is the child of its timeout guard, so wait for that).
kill -TERM "${smd_pid}"
wait "${smd_timeout_pid}" || true

python3 - "${raw}" "${fabric}" "${flaps}" "${survived}" "${switches}" "${cas}" "${total_links}" "${ncables}" \
  "${loss}" >"${out}" <<'PY'
import json, statistics, sys
raw, fabric, flaps, survived, switches, cas, links, ncables, loss = sys.argv[1:10]
rows = [l.split() for l in open(f"{raw}/flaps.txt")]
rss = [l.split() for l in open(f"{raw}/rss.txt")][1:]
final = json.load(open(f"{raw}/status-final.json"))
final = final.get("result", final)

def dist(values):
    v = sorted(float(x) * 1000 for x in values if x != '-')
    if not v:
        return "-"
    q = lambda p: v[min(len(v) - 1, int(p * len(v)))]
    return (f"{v[0]:.0f} / {statistics.median(v):.0f} / {q(0.9):.0f} / {q(0.99):.0f} / {v[-1]:.0f}")

def dist_ms(values):
    return dist([float(x) / 1000 for x in values if x not in ('-', 'None')])

lossy = f", {loss}% SMP loss on every switch port" if loss != "0" else ""
print(f"# Soak: {flaps} link flaps against the smd daemon on ibsim{lossy}\n")
print(f"Raw outputs: `{raw}`. Fabric `{fabric}`: {switches} switches, {cas} CAs, {links} cables, of which "
      f"{ncables} between switches (flapped in turn). Command: `bench/soak.sh --fabric {fabric} --flaps {flaps}"
      f"{' --loss ' + loss if loss != '0' else ''}`.\n")
print(f"**Flaps survived: {survived}/{flaps}** (Unlink repaired and ReLink repaired, each seen in the control socket's `status`: "
      "a new heavy sweep, subnet up, the expected cable count).\n")
print("| flap | VmRSS KiB | check_fabric.py read-back |")
print("|---|---|---|")
for f, r, c in rss:
    print(f"| {f} | {r} | {c} |")
drift = int(rss[-1][1]) - int(rss[0][1])
print(f"\nRSS drift flap 0 -> flap {rss[-1][0]}: {drift:+d} KiB.\n")
print("Repair time, ms: min / median / p90 / p99 / max\n")
print("| event | console command -> control socket `status` shows it repaired (polled every 10 ms) | daemon's own last_repair_ms (trap -> consistent) |")
print("|---|---|---|")
print(f"| Unlink | {dist([r[4] for r in rows])} | {dist_ms([r[5] for r in rows])} |")
print(f"| ReLink | {dist([r[6] for r in rows])} | {dist_ms([r[7] for r in rows])} |")
sw = final["sweeps"]
smps = final.get("smps", {})
print(f"\nDaemon counters at the end: {sw['heavy']} heavy sweeps ({sw['failed']} not ending subnet up), "
      f"{sw['light']} light sweeps, {smps.get('sent', '?')} SMPs sent, {smps.get('retries', '?')} retries, "
      f"{smps.get('timeouts', '?')} lost after all retries.")
PY
cat "${out}"
[[ ${survived} -eq ${flaps} ]]
