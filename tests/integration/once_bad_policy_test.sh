#!/usr/bin/env bash
# A policy error stops smd before it sends a single SMP: exit 2, file:line:column in the message,
# and the fabric untouched (no LID anywhere, per ibnetdiscover).
. "$(dirname "$0")/once_common.sh"
ibsim_start "${SMD_SOURCE_DIR}/tests/fabrics/twoswitch.net"
printf 'sm:\n  state_dir: %s\nmad:\n  window: 500\n' "${IBSIM_WORKDIR}/state" >"${IBSIM_WORKDIR}/bad.yaml"
rc=0
sim timeout 30 "${SMD_BIN}" --once --config "${IBSIM_WORKDIR}/bad.yaml" 2>"${IBSIM_WORKDIR}/err" || rc=$?
cat "${IBSIM_WORKDIR}/err"
[[ ${rc} -eq 2 ]] || { echo "FAIL: exit ${rc}, expected 2" >&2; exit 1; }
grep -q "bad.yaml:4:11: mad.window" "${IBSIM_WORKDIR}/err" || { echo "FAIL: no file:line:col" >&2; exit 1; }
[[ ! -e "${IBSIM_WORKDIR}/state/guid2lid" ]]
if sim timeout 60 ibnetdiscover 2>/dev/null | grep -Eq 'lid [1-9]'; then
  echo "FAIL: a LID was assigned although the policy was rejected" >&2
  exit 1
fi
