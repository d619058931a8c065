#!/usr/bin/env bash
# SA events (IBA 13.4.8, 15.2.5.12): a subscriber (sa_client subscribe, libibumad only, at host-1) asks
# the master's SA for traps 64 (GID in service) and 65 (GID out of service). Unlinking host-3's cable in
# ibsim takes host-3 out of the fabric: the subscriber must get a Report of trap 65 naming host-3's port
# GID, from the SM's LID; relinking it must bring a Report of trap 64 with the same GID. Every Report is
# answered with a ReportResp, which the SA counts (smctl sa: reports acknowledged); InformInfoRecord shows
# the subscriptions while they live. smd only: OpenSM does not send 64/65 for a host that comes and goes.
. "$(dirname "$0")/sa_common.sh"
[[ ${SA_TEST_SM} == smd ]] || { echo "sa_events_test: smd only (OpenSM sends no 64/65 here)"; exit 0; }
SA_CLIENT="${SMD_BUILD_DIR}/tests/integration/sa_client/sa_client"
SMCTL="${SMD_BUILD_DIR}/smd/smctl"
sa_bringup "${SMD_SOURCE_DIR}/tests/fabrics/twoswitch.net" sm host-0 10
sm_lid=$(sim timeout 10 smpquery -D portinfo 0 | sed -nE 's/^Lid:\.+([0-9]+)$/\1/p')
# host-3's port GUID by ibsim's numbering (CAs from 0x100000 in netfile order, port GUID = node GUID + 1).
host3_gid="fe80::10:7"

sa_stat() {
  timeout 10 "${SMCTL}" --socket "${IBSIM_WORKDIR}/state-sm.control.socket" --json sa |
    python3 -c 'import json, sys; r = json.load(sys.stdin); r = r.get("result", r); print(r[sys.argv[1]])' "$1"
}
wait_stat() {  # wait_stat FIELD AT_LEAST SECONDS
  local deadline=$((SECONDS + $3))
  while ((SECONDS < deadline)); do
    (($(sa_stat "$1") >= $2)) && return 0
    sleep 0.2
  done
  echo "FAIL: smctl sa $1 stayed below $2" >&2
  return 1
}
wait_report() {  # wait_report TRAP SECONDS: a Report of TRAP for host-3's GID in reports.jsonl
  local deadline=$((SECONDS + $2))
  while ((SECONDS < deadline)); do
    if python3 - "$1" "${host3_gid}" "${sm_lid}" "${IBSIM_WORKDIR}/reports.jsonl" <<'PY'; then return 0; fi
import json, sys
trap, gid, sm_lid, path = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), sys.argv[4]
for line in open(path):
    try:
        r = json.loads(line)
    except ValueError:
        continue
    if r.get("report") == trap and r.get("gid") == gid and r.get("issuer_lid") == sm_lid and r.get("producer_type") in ("0x4", "0x000004", 4):
        sys.exit(0)
sys.exit(1)
PY
    sleep 0.2
  done
  echo "FAIL: no Report of trap $1 for ${host3_gid} within $2 s; received:" >&2
  cat "${IBSIM_WORKDIR}/reports.jsonl" >&2
  return 1
}

(cd "${IBSIM_WORKDIR}" && exec env LD_PRELOAD="${SIM_PRELOAD}" SIM_HOST=host-1 "${SA_CLIENT}" subscribe --trap 64 65 \
  --seconds 90 --issm >"${IBSIM_WORKDIR}/reports.jsonl" 2>"${IBSIM_WORKDIR}/subscriber.err") &
sub_pid=$!
ibsim_track "${sub_pid}"
wait_stat subscriptions 2 20
# The subscriptions as the SA's InformInfoRecords (saquery IIR).
saq IIR >"${IBSIM_WORKDIR}/iir.txt" 2>&1
grep -q "InformInfoRecord dump" "${IBSIM_WORKDIR}/iir.txt" || { cat "${IBSIM_WORKDIR}/iir.txt" >&2; echo "FAIL: no InformInfoRecord" >&2; exit 1; }

ibsim_console 'Unlink "host-3"[1]'
wait_report 65 30
echo "trap 65 for ${host3_gid} reported"
ibsim_console 'ReLink "host-3"[1]'
wait_report 64 30
echo "trap 64 for ${host3_gid} reported"
wait_stat reports_acknowledged 2 10
echo "reports sent $(sa_stat reports_sent), acknowledged $(sa_stat reports_acknowledged)"
kill "${sub_pid}" 2>/dev/null || true
wait "${sub_pid}" 2>/dev/null || true
