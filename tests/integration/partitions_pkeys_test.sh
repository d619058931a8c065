#!/usr/bin/env bash
# smd --once on tests/fabrics/twoswitch.net, then every P_Key table read back with `smpquery pkeys` (CA
# ports, switch port 0, switch ports facing CAs) must equal what tests/integration/check_pkeys.py
# computes from the partition spec and ibnetdiscover. ibsim: CA PartitionCap 64, switch port 0 8,
# PartitionEnforcementCap 64.
#
# The policy is smd's default (no `partitions:` section: Default=0x7fff, ALL=full, SELF=full), which
# every P_Key table must show at index 0. PKEY_POLICY_YAML / PKEY_SPEC_JSON may name a policy section
# and the matching spec for the checker, for the runs with named partitions once the `partitions:`
# loader is in.
. "$(dirname "$0")/once_common.sh"
CHECK_PKEYS="$(cd "$(dirname "$0")" && pwd)/check_pkeys.py"

extra=()
[[ -n "${PKEY_POLICY_YAML:-}" ]] && mapfile -t extra <"${PKEY_POLICY_YAML}"
once_bringup "${SMD_SOURCE_DIR}/tests/fabrics/twoswitch.net" 2 4 "${extra[@]}"

spec="${IBSIM_WORKDIR}/pkeys.json"
# The SM ran on the first node of the netfile (ibsim's default SIM_HOST): host-0.
if [[ -n "${PKEY_SPEC_JSON:-}" ]]; then
  python3 - "${PKEY_SPEC_JSON}" >"${spec}" <<'PY'
import json, sys
s = json.load(open(sys.argv[1])); s["sm_desc"] = "host-0"; print(json.dumps(s))
PY
else
  printf '{"sm_desc": "host-0", "partitions": [{"pkey": "0x7fff", "members": [["ALL", "full"]]}]}\n' >"${spec}"
fi
sim timeout 120 python3 "${CHECK_PKEYS}" "${spec}"
