#!/usr/bin/env bash
# SL2VL and VLArbitration programming on tests/fabrics/twoswitch.net, read back with infiniband-diags:
# a sweep with QoS on and a spec unlike ibsim's defaults on every port type, then every table (every
# (in, out) SL2VL row of every switch out port, every CA port, both VLArb tables, OperVLs) must equal
# what tests/integration/check_qos.py computes from the spec and ibnetdiscover. Then a fresh ibsim and a
# sweep with QoS off: every table must still hold ibsim's defaults (nothing programmed, as OpenSM without
# -Q).
#
# The spec is given twice, on purpose apart: as the policy's `qos:` YAML that smd reads, and as the JSON the
# checker reads (written here by hand, never by smd). It differs from ibsim's defaults on every port type
# (SL i -> VL i, VLArb low 0:0 1..7:4, high 0:4 1..7:0): hosts run 4 data VLs (OperationalVLs VL0-3) and map
# every SL below VL 4; switch external ports shift SLs by one and drop SL 15; nine low-priority entries
# against ibsim's VLArbitrationLowCap 8 (the ninth is not written). switch_port0 and router keep OpenSM's
# defaults. VLHighLimit stays 0: ibsim does not store it.
. "$(dirname "$0")/once_common.sh"
CHECK_QOS="$(cd "$(dirname "$0")" && pwd)/check_qos.py"

QOS_YAML='qos:
  enabled: true
  ca:
    max_vls: 4
    sl2vl: [3, 2, 1, 0, 3, 2, 1, 0, 3, 2, 1, 0, 3, 2, 1, 0]
    vlarb_high: "1:8,2:16"
    vlarb_low: "0:32,3:64,2:255"
  switch_external:
    sl2vl: [1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7, 15]
    vlarb_low: "1:4,2:8,3:12,4:16,5:20,6:24,7:28,0:1,1:2"
    vlarb_high: "7:100,6:50"'

# write_spec FILE on|off: the checker's JSON for the YAML above (or for QoS off).
write_spec() {
  python3 - "$1" "$2" <<'PY'
import json, sys
default = dict(max_vls=15, high_limit=0, sl2vl=list(range(15)) + [7],
               vlarb_high=[[vl, 4 if vl == 0 else 0] for vl in range(15)],
               vlarb_low=[[vl, 0 if vl == 0 else 4] for vl in range(15)])
ca = dict(default, max_vls=4, sl2vl=[3 - sl % 4 for sl in range(16)], vlarb_high=[[1, 8], [2, 16]],
          vlarb_low=[[0, 32], [3, 64], [2, 255]])
swe = dict(default, sl2vl=[(sl + 1) % 8 for sl in range(15)] + [15],
           vlarb_low=[[1, 4], [2, 8], [3, 12], [4, 16], [5, 20], [6, 24], [7, 28], [0, 1], [1, 2]],
           vlarb_high=[[7, 100], [6, 50]])
on = sys.argv[2] == 'on'
json.dump(dict(enabled=on, ca=ca if on else default, switch_port0=default, switch_external=swe if on else default,
               router=default), open(sys.argv[1], 'w'), indent=1)
PY
}

# run_qos on|off: ibsim on the two-switch fabric, one sweep, then the checker.
run_qos() {
  local mode=$1
  ibsim_start "${SMD_SOURCE_DIR}/tests/fabrics/twoswitch.net"
  local state="${IBSIM_WORKDIR}/state-${mode}"
  if [[ ${mode} == on ]]; then
    write_policy "${IBSIM_WORKDIR}/smd-${mode}.yaml" "${state}" "${QOS_YAML}"
  else
    write_policy "${IBSIM_WORKDIR}/smd-${mode}.yaml" "${state}"
  fi
  local spec="${IBSIM_WORKDIR}/qos-${mode}.json" out="${IBSIM_WORKDIR}/qos-${mode}.out"
  write_spec "${spec}" "${mode}"
  if ! sim timeout 120 "${SMD_BIN}" --once --config "${IBSIM_WORKDIR}/smd-${mode}.yaml" \
      >"${out}" 2>"${IBSIM_WORKDIR}/qos-${mode}.err"; then
    cat "${out}" >&2
    tail -n 30 "${IBSIM_WORKDIR}/qos-${mode}.err" >&2
    echo "FAIL: smd --once (qos ${mode}) did not bring the subnet up" >&2
    return 1
  fi
  cat "${out}"
  grep -q "SUBNET UP" "${out}"
  sim timeout 240 python3 "${CHECK_QOS}" "${spec}"
  ibsim_stop
}

run_qos on
run_qos off
echo "PASS: qos_tables_test"
