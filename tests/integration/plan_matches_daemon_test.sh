#!/usr/bin/env bash
# `smd plan --guid2lid` plans the LIDs the fabric has: smd --once brings up kary4-3 (LMC 1) and leaves its
# state_dir/guid2lid; `smd plan` on the same netfile and policy with that file writes an LFT dump that
# must equal, entry for entry, what ibroute reads back from every switch (check_plan_dump.py).
. "$(dirname "$0")/once_common.sh"
net="${SMD_SOURCE_DIR}/tests/fabrics/kary4-3.net"
once_bringup "${net}" 48 64 "lid:" "  lmc: 1"
"${SMD_BIN}" plan --topology "${net}" --config "${IBSIM_WORKDIR}/smd.yaml" --guid2lid "${ONCE_STATE}/guid2lid" \
  --lft-dump "${IBSIM_WORKDIR}/plan.lft" >"${IBSIM_WORKDIR}/plan.out" ||
  { cat "${IBSIM_WORKDIR}/plan.out" >&2; echo "FAIL: smd plan --guid2lid" >&2; exit 1; }
sim timeout 240 python3 "$(dirname "$0")/check_plan_dump.py" --dump "${IBSIM_WORKDIR}/plan.lft" \
  --guid2lid "${ONCE_STATE}/guid2lid"
echo "PASS: plan_matches_daemon"
