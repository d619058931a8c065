#!/usr/bin/env bash
# A second smd --once (a new process) keeps every LID, and the guid2lid file it writes is unchanged.
. "$(dirname "$0")/once_common.sh"
once_bringup "${SMD_SOURCE_DIR}/tests/fabrics/kary4-3.net" 48 64 "routing:" "  engines: [minhop]"
cp "${ONCE_STATE}/guid2lid" "${IBSIM_WORKDIR}/guid2lid.first"
sim timeout 60 ibnetdiscover 2>/dev/null | grep -Eo 'lid [0-9]+' | sort >"${IBSIM_WORKDIR}/lids.first"
sim timeout 120 "${SMD_BIN}" --once --config "${IBSIM_WORKDIR}/smd.yaml" >"${IBSIM_WORKDIR}/smd2.out" 2>/dev/null
grep -q "SUBNET UP" "${IBSIM_WORKDIR}/smd2.out"
grep -q " 0 PortInfo Sets" "${IBSIM_WORKDIR}/smd2.out" || { echo "FAIL: second run rewrote ports" >&2; exit 1; }
sim timeout 60 ibnetdiscover 2>/dev/null | grep -Eo 'lid [0-9]+' | sort >"${IBSIM_WORKDIR}/lids.second"
cmp "${IBSIM_WORKDIR}/lids.first" "${IBSIM_WORKDIR}/lids.second"
cmp "${IBSIM_WORKDIR}/guid2lid.first" "${ONCE_STATE}/guid2lid"
# guid2lid is OpenSM's format: one line per endport, 48 switches + 64 CA ports.
[[ $(grep -cE '^0x[0-9a-f]{16} 0x[0-9a-f]{4} 0x[0-9a-f]{4}$' "${ONCE_STATE}/guid2lid") -eq 112 ]]
check_with_diags --expect-switches 48 --expect-cas 64
