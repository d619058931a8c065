#!/usr/bin/env bash
# `smd plan --drain` predicts the tables the fabric gets. smd --once brings up a leaf/spine fabric with two
# cables per leaf-spine pair (so that ftree still routes it with one of a pair gone) and leaves its
# guid2lid; `smd plan --drain` of two cables (one named from the leaf, one from the spine) with that file and
# the same policy writes the LFTs after the drain. The cables are then unlinked in ibsim (a cable that is
# gone is what a drained cable is to routing: both switches stay, LIDs stay), smd --once sweeps again with
# the same state_dir, and every switch's LFT read back with ibroute must equal the prediction
# (check_plan_dump.py), entry for entry.
. "$(dirname "$0")/once_common.sh"
net="${IBSIM_WORKDIR}/leafspine.net"
"${SMD_BUILD_DIR}/smd/smd-fabric" leafspine --leaves 4 --spines 2 --hosts-per-leaf 4 --links-per-pair 2 -o "${net}"
# routing.repair full: the second smd --once is a fresh process with no tables to repair, so the plan must
# model fresh tables too (the minimal repair a running daemon makes is the default the plan models otherwise).
once_bringup "${net}" 6 16 "routing:" "  repair: full"
leaf_cable='"leaf-0"[5]'
spine_cable='"spine-1"[4]'
set +e
timeout 60 "${SMD_BIN}" plan --topology "${net}" --config "${IBSIM_WORKDIR}/smd.yaml" \
  --guid2lid "${ONCE_STATE}/guid2lid" --drain "${leaf_cable}" --drain "${spine_cable}" \
  --lft-dump "${IBSIM_WORKDIR}/drain.lft" >"${IBSIM_WORKDIR}/drain.out" 2>"${IBSIM_WORKDIR}/drain.err"
rc=$?
set -e
cat "${IBSIM_WORKDIR}/drain.out"
[[ ${rc} == 0 ]] || { cat "${IBSIM_WORKDIR}/drain.err" >&2; echo "FAIL: smd plan --drain exited ${rc}" >&2; exit 1; }
grep -q "^lost pairs    0$" "${IBSIM_WORKDIR}/drain.out" || { echo "FAIL: the plan loses pairs" >&2; exit 1; }
grep -q "^cables        2 " "${IBSIM_WORKDIR}/drain.out" || { echo "FAIL: not two cables drained" >&2; exit 1; }
grep -q "^engine        ftree -> ftree$" "${IBSIM_WORKDIR}/drain.out" || { echo "FAIL: ftree did not route the drained fabric" >&2; exit 1; }
grep -q "^tables after  fresh tables$" "${IBSIM_WORKDIR}/drain.out" || { echo "FAIL: the plan did not model fresh tables" >&2; exit 1; }

ibsim_console "Unlink ${leaf_cable}"
ibsim_console "Unlink ${spine_cable}"
sleep 1
if ! sim timeout 120 "${SMD_BIN}" --once --config "${IBSIM_WORKDIR}/smd.yaml" >"${IBSIM_WORKDIR}/smd2.out" \
  2>"${IBSIM_WORKDIR}/smd2.err"; then
  tail -n 30 "${IBSIM_WORKDIR}/smd2.err" >&2
  echo "FAIL: smd --once after the unlinks" >&2
  exit 1
fi
grep -iE "engine|repair|declined" "${IBSIM_WORKDIR}/smd2.out" "${IBSIM_WORKDIR}/smd2.err" | head -n 8 || true
grep -q "fabric:   6 switches, 16 CAs" "${IBSIM_WORKDIR}/smd2.out" ||
  { cat "${IBSIM_WORKDIR}/smd2.out" >&2; echo "FAIL: the second sweep saw another fabric" >&2; exit 1; }
sim timeout 240 python3 "$(dirname "$0")/check_plan_dump.py" --dump "${IBSIM_WORKDIR}/drain.lft" \
  --guid2lid "${ONCE_STATE}/guid2lid"
echo "PASS: plan_drain_matches_fabric"
