#!/usr/bin/env bash
# A lossy fabric: ibsim drops 2% of the SMPs entering every port of every switch (console `Error`), on the
# way out and on the way back, so an SMP to a host 6 hops away is lost about 18% of the time and an
# answer may be lost after its Set was done. `smd --once` with the default policy (3 retries per SMP,
# up to 3 re-sweeps of what failed) must still bring the whole 4-ary 3-tree up. The errors are cleared
# before the read-back, because infiniband-diags would suffer the same drops.
. "$(dirname "$0")/once_common.sh"
NET="${SMD_SOURCE_DIR}/tests/fabrics/kary4-3.net"
ibsim_start "${NET}"
ibsim_switch_errors "${NET}" 2
echo "2% SMP loss on $(ibsim_dump_count 'err_rate 2$') switch ports"
write_policy "${IBSIM_WORKDIR}/smd.yaml" "${IBSIM_WORKDIR}/state"
rc=0
sim timeout 120 "${SMD_BIN}" --once --config "${IBSIM_WORKDIR}/smd.yaml" >"${IBSIM_WORKDIR}/out" \
  2>"${IBSIM_WORKDIR}/err" || rc=$?
cat "${IBSIM_WORKDIR}/out"
[[ ${rc} -eq 0 ]] || { tail -n 30 "${IBSIM_WORKDIR}/err" >&2; echo "FAIL: smd --once exited ${rc}" >&2; exit 1; }
grep -q "SUBNET UP" "${IBSIM_WORKDIR}/out"
grep -q "fabric:   48 switches, 64 CAs, 192 links" "${IBSIM_WORKDIR}/out"
# The loss was real: the SMs retried, within the bound of 1 + 3 sweeps.
retries=$(awk '/SMPs:/ { s += $4 } END { print s + 0 }' "${IBSIM_WORKDIR}/out")
sweeps=$(grep -c '^smd sweep' "${IBSIM_WORKDIR}/out")
echo "retries ${retries}, sweeps ${sweeps}"
[[ ${retries} -gt 0 ]] || { echo "FAIL: no SMP was retried: was the loss injected?" >&2; exit 1; }
[[ ${sweeps} -le 4 ]]

ibsim_switch_errors "${NET}" 0
check_with_diags --expect-switches 48 --expect-cas 64
