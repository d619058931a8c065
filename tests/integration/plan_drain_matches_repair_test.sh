#!/usr/bin/env bash
# `smd plan --drain` predicts what a running smd's minimal repair (routing.repair: minimal, the default)
# writes. smd runs as a daemon on a leaf/spine fabric with two cables per leaf-spine pair; `smd plan
# --drain` of one cable with its guid2lid and policy writes the LFTs after the drain; the cable is unlinked
# in ibsim, the daemon repairs, and every switch's LFT read back with ibroute must equal the prediction
# (check_plan_dump.py). One cable: two unlinks may reach the daemon as two repairs in a row, which is not
# the one repair the plan models.
. "$(dirname "$0")/daemon_common.sh"
net="${IBSIM_WORKDIR}/leafspine.net"
"${SMD_BUILD_DIR}/smd/smd-fabric" leafspine --leaves 4 --spines 2 --hosts-per-leaf 4 --links-per-pair 2 -o "${net}"
ibsim_start "${net}"
write_policy "${IBSIM_WORKDIR}/smd.yaml" "${IBSIM_WORKDIR}/state" "  sweep_interval: 1"
start_daemon smd "${IBSIM_WORKDIR}/smd.yaml"
wait_log smd "SUBNET UP" 60
cable='"spine-1"[4]'
set +e
timeout 60 "${SMD_BIN}" plan --topology "${net}" --config "${IBSIM_WORKDIR}/smd.yaml" \
  --guid2lid "${IBSIM_WORKDIR}/state/guid2lid" --drain "${cable}" \
  --lft-dump "${IBSIM_WORKDIR}/drain.lft" >"${IBSIM_WORKDIR}/drain.out" 2>"${IBSIM_WORKDIR}/drain.err"
rc=$?
set -e
cat "${IBSIM_WORKDIR}/drain.out"
[[ ${rc} == 0 ]] || { cat "${IBSIM_WORKDIR}/drain.err" >&2; echo "FAIL: smd plan --drain exited ${rc}" >&2; exit 1; }
grep -qE "^tables after  (local|minimal) repair: " "${IBSIM_WORKDIR}/drain.out" ||
  { echo "FAIL: the plan did not model a repair" >&2; exit 1; }

ibsim_console "Unlink ${cable}"
wait_log smd "repair: fabric consistent" 30
wait_log smd "SUBNET UP" 30 2
grep -E "routing: (local|minimal) repair" "${IBSIM_WORKDIR}/smd.log" || true
sim timeout 240 python3 "$(dirname "$0")/check_plan_dump.py" --dump "${IBSIM_WORKDIR}/drain.lft" \
  --guid2lid "${IBSIM_WORKDIR}/state/guid2lid"
kill -TERM "${DAEMON_PID_smd}"
wait "${DAEMON_PID_smd}"
echo "PASS: plan_drain_matches_repair"
