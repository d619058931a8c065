#!/usr/bin/env bash
# `smctl dump lfts|subnet|mcfdbs|sl2vl` (issue 45): what smd programmed, in OpenSM's own dump formats, on
# tests/fabrics/leafspine.net. First OpenSM 3.3.23 runs the fabric (QoS on, ROUTING log flags, so it writes
# its dumps), three hosts join the IPoIB broadcast group through its SA, and its four files are kept. Then
# a fresh ibsim with smd (QoS on) and the same joins through smd's SA; `smctl dump` writes the four files.
# tests/integration/check_opensm_dumps.py parses OpenSM's files and smd's with one strict parser (every
# line, field widths, order, trailers), then judges smd's against infiniband-diags only: every switch's LFT
# against ibroute (and smpdump for the LinearFDBTop entry), every MFT against ibroute -M, SL2VL rows against
# smpquery sl2vl, subnet.lst against ibnetdiscover and smpquery nodeinfo/portinfo. `smd plan --opensm-lfts`
# with the daemon's guid2lid must write the same opensm-lfts.dump as `smctl dump lfts`.
. "$(dirname "$0")/opensm_common.sh"
w=${IBSIM_WORKDIR}
NET="${SMD_SOURCE_DIR}/tests/fabrics/leafspine.net"
SA_CLIENT="${SMD_BUILD_DIR}/tests/integration/sa_client/sa_client"
SMCTL="${SMD_BUILD_DIR}/smd/smctl"
CHECK="${SMD_SOURCE_DIR}/tests/integration/check_opensm_dumps.py"
bcast="ff12:401b:ffff::ffff:ffff"
# host-1, host-4 and host-8: a leaf each, so the tree crosses the spines.
JOINERS=(--port 0x100003 --port 0x100009 --port 0x100011)

fail() {
  echo "FAIL: $*" >&2
  exit 1
}
# join SM_LID: the three hosts join the broadcast group (full member), sa_client proxying at host-1.
join() {
  sim env SIM_HOST=host-1 timeout 60 "${SA_CLIENT}" --timeout-ms 2000 --retries 3 --sm-lid "$1" join \
    --mgid "${bcast}" "${JOINERS[@]}" --join-state 1 >"${w}/join-$1.jsonl" ||
    { cat "${w}/join-$1.jsonl" >&2; fail "sa_client join at SM LID $1"; }
}
# wait_nonempty FILE SECONDS CMD...: run CMD (stdout to FILE) until FILE is not empty.
wait_nonempty() {
  local file=$1 deadline=$((SECONDS + $2))
  shift 2
  while ((SECONDS < deadline)); do
    "$@" >"${file}" 2>/dev/null || true
    [[ -s "${file}" ]] && return 0
    sleep 0.5
  done
  return 1
}

# --- OpenSM's own dumps ---
ibsim_start "${NET}"
mkdir -p "${w}/osm-dump"
start_opensm osm "" host-0 "qos TRUE" "dump_files_dir ${w}/osm-dump" "log_flags 0x43"
wait_log osm "SUBNET UP" 60
sleep 1  # the SA answers once the sweep that brought the subnet up has ended
join "$(sim timeout 10 sminfo | sed -nE 's/^sminfo: sm lid ([0-9]+).*/\1/p')"
wait_nonempty "${w}/osm.mcfdbs.copy" 30 cat "${w}/osm-dump/opensm.mcfdbs" ||
  fail "OpenSM wrote no opensm.mcfdbs with the joined group"
sleep 1  # the file is rewritten whole; take it after the last pass
for f in opensm-lfts.dump opensm-subnet.lst opensm.mcfdbs opensm-sl2vl.dump; do
  [[ -s "${w}/osm-dump/${f}" ]] || fail "OpenSM wrote no ${f}"
done
kill -9 "${OSM_PID_osm}"
wait "${OSM_PID_osm}" 2>/dev/null || true
ibsim_stop

# --- smd's ---
ibsim_start "${NET}"
# SL2VL tables unlike ibsim's defaults, so that smpquery's read-back proves smd wrote them.
write_policy "${w}/a.yaml" "${w}/state-a" "qos:" "  enabled: true" "  ca:" \
  "    sl2vl: [3, 2, 1, 0, 3, 2, 1, 0, 3, 2, 1, 0, 3, 2, 1, 0]" "  switch_external:" \
  "    sl2vl: [1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7, 0]"
start_daemon a "${w}/a.yaml" SIM_HOST=host-0
wait_log a "SUBNET UP" 60
sock="${w}/state-a.control.socket"
sm_lid=$("${SMCTL}" --socket "${sock}" status --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["result"]["sm_lid"])')
join "${sm_lid}"
wait_nonempty "${w}/smd.mcfdbs.probe" 30 "${SMCTL}" --socket "${sock}" dump mcfdbs ||
  fail "smctl dump mcfdbs stayed empty after the joins"
mkdir -p "${w}/smd-dump"
"${SMCTL}" --socket "${sock}" dump lfts -o "${w}/smd-dump/opensm-lfts.dump"
"${SMCTL}" --socket "${sock}" dump subnet -o "${w}/smd-dump/opensm-subnet.lst"
"${SMCTL}" --socket "${sock}" dump mcfdbs -o "${w}/smd-dump/opensm.mcfdbs"
"${SMCTL}" --socket "${sock}" dump sl2vl >"${w}/smd-dump/opensm-sl2vl.dump"
# --json carries the same text.
"${SMCTL}" --socket "${sock}" dump lfts --json |
  python3 -c 'import json,sys; r=json.load(sys.stdin)["result"]; assert r["file"]=="opensm-lfts.dump"; sys.stdout.write(r["text"])' |
  cmp - "${w}/smd-dump/opensm-lfts.dump" || fail "smctl dump lfts --json differs from the raw text"
# -o with --json would drop one of them: a usage error (exit 2), and no file.
rc=0
"${SMCTL}" --socket "${sock}" dump lfts -o "${w}/both.dump" --json >/dev/null 2>"${w}/both.err" || rc=$?
[[ ${rc} -eq 2 && ! -e ${w}/both.dump ]] || fail "smctl dump -o with --json: exit ${rc}, file $(ls "${w}/both.dump" 2>&1)"
grep -q -- "give one of them" "${w}/both.err" || fail "smctl dump -o with --json: $(cat "${w}/both.err")"
# A bad name is a usage error (exit 2), before anything is sent.
rc=0
"${SMCTL}" --socket "${sock}" dump lft >/dev/null 2>&1 || rc=$?
[[ ${rc} -eq 2 ]] || fail "smctl dump lft: exit ${rc}, expected 2"

# smd plan on the same netfile, policy and LIDs writes the same opensm-lfts.dump offline.
mkdir -p "${w}/plan"
"${SMD_BIN}" plan --topology "${NET}" --config "${w}/a.yaml" --guid2lid "${w}/state-a/guid2lid" \
  --opensm-lfts "${w}/plan/opensm-lfts.dump" >"${w}/plan.out" || { cat "${w}/plan.out" >&2; fail "smd plan"; }

sim timeout 240 python3 "${CHECK}" --opensm "${w}/osm-dump" --smd "${w}/smd-dump" --live --sm-node host-0 \
  --mlid-members "0xc000=0x100003,0x100009,0x100011" --plan-lfts "${w}/plan/opensm-lfts.dump" ||
  fail "check_opensm_dumps"
echo "PASS: opensm_dumps"
