#!/usr/bin/env bash
# A node that never answers (ibsim drops every SMP on host-5's port) is retried, then named by its
# directed path; smd exits non-zero, and the rest of the fabric still comes up (checked with ibnetdiscover).
. "$(dirname "$0")/once_common.sh"
ibsim_start "${SMD_SOURCE_DIR}/tests/fabrics/leafspine.net"
ibsim_console 'Error "host-5"[1] 100'
sleep 0.5
write_policy "${IBSIM_WORKDIR}/smd.yaml" "${IBSIM_WORKDIR}/state" "  max_resweeps: 1" "mad:" "  timeout_ms: 50" "  retries: 2"
rc=0
sim timeout 120 "${SMD_BIN}" --once --config "${IBSIM_WORKDIR}/smd.yaml" >"${IBSIM_WORKDIR}/out" 2>/dev/null || rc=$?
cat "${IBSIM_WORKDIR}/out"
[[ ${rc} -eq 1 ]] || { echo "FAIL: exit ${rc}, expected 1" >&2; exit 1; }
# host-5 hangs off leaf-1 port 2: the report names the path to it and the attribute that failed.
grep -Eq 'at DR path 0,1,[0-9]+,[0-9]+,2: NodeInfo: timeout after 3 attempts \(the node behind port 2 of 0x' \
  "${IBSIM_WORKDIR}/out" || { echo "FAIL: silent node not named by path" >&2; exit 1; }
grep -q "fabric:   6 switches, 15 CAs" "${IBSIM_WORKDIR}/out"
# Everything else has its LID: 6 switches and the 15 CAs that answer.
sim timeout 60 ibnetdiscover >"${IBSIM_WORKDIR}/net" 2>/dev/null || true
[[ $(grep -cE '^Switch.*base port 0 lid [1-9]' "${IBSIM_WORKDIR}/net") -eq 6 ]]
[[ $(grep -cE '^\[1\]\(.*# lid [1-9][0-9]* lmc 0' "${IBSIM_WORKDIR}/net") -eq 15 ]]
