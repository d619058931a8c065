#!/usr/bin/env bash
# The PortInfo and SwitchInfo fields the SM owns (policy `ports:`, docs/portinfo-fields.md) on the 4-ary
# 3-tree, read back with infiniband-diags (tests/integration/check_port_fields.py): every switch port's
# HoqLife (leaf ports facing a CA, switch-to-switch ports) and every switch's LifeTime, the fields ibsim
# stores.
#   1. smd --once with values unlike OpenSM's defaults: every port holds the policy's.
#   2. smd --once again on the same fabric with the default policy: every port is rewritten to the defaults
#      (the diff is against what the ports hold), and that dump is kept.
#   3. A fresh ibsim and OpenSM 3.3.23 (one sweep, its defaults): the same check, and every field of every
#      port, ibsim's templates included, equals what smd left in step 2.
. "$(dirname "$0")/once_common.sh"
CHECK="$(cd "$(dirname "$0")" && pwd)/check_port_fields.py"
NET="${SMD_SOURCE_DIR}/tests/fabrics/kary4-3.net"

once_bringup "${NET}" 48 64 'ports:
  head_of_queue_lifetime: 0x13
  leaf_head_of_queue_lifetime: 0x0e
  packet_life_time: 0x11'
sim timeout 240 python3 "${CHECK}" --hoq 0x13 --leaf-hoq 0x0e --life-time 0x11

write_policy "${IBSIM_WORKDIR}/smd-defaults.yaml" "${ONCE_STATE}"
if ! sim timeout 120 "${SMD_BIN}" --once --config "${IBSIM_WORKDIR}/smd-defaults.yaml" \
    >"${IBSIM_WORKDIR}/defaults.out" 2>"${IBSIM_WORKDIR}/defaults.err"; then
  cat "${IBSIM_WORKDIR}/defaults.out" >&2
  tail -n 30 "${IBSIM_WORKDIR}/defaults.err" >&2
  echo "FAIL: smd --once with the default policy did not bring the subnet up" >&2
  exit 1
fi
grep -q "SUBNET UP" "${IBSIM_WORKDIR}/defaults.out"
sim timeout 240 python3 "${CHECK}" --hoq 0x12 --leaf-hoq 0x10 --life-time 0x12 --dump "${IBSIM_WORKDIR}/smd.json"
ibsim_stop

ibsim_start "${NET}"
mkdir -p "${IBSIM_WORKDIR}/osm-cache"
sim env OSM_CACHE_DIR="${IBSIM_WORKDIR}/osm-cache" timeout 120 opensm -o -f "${IBSIM_WORKDIR}/osm.log" \
  >"${IBSIM_WORKDIR}/osm.out" 2>&1 || true
grep -q "SUBNET UP" "${IBSIM_WORKDIR}/osm.log" || { tail -n 20 "${IBSIM_WORKDIR}/osm.log" >&2; echo "FAIL: OpenSM did not bring the subnet up" >&2; exit 1; }
sim timeout 240 python3 "${CHECK}" --hoq 0x12 --leaf-hoq 0x10 --life-time 0x12 --compare "${IBSIM_WORKDIR}/smd.json"
echo "PASS: port_fields_test"
