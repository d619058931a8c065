#!/usr/bin/env bash
# smd is master (priority 5), OpenSM 3.3.23 joins with priority 10 (both on the default SM_Key): OpenSM
# stands by, tells smd with a trap 144, smd hands the subnet over (SMInfo HANDOVER; OpenSM answers in its
# old state, STANDBY, and takes it), OpenSM becomes MASTER and smd its STANDBY. No LID changes and every
# route delivers. Witnesses: sminfo at each SM's port, OpenSM's log and its SA (saquery -s: both ports
# say IsSM; SMInfoRecords), ibnetdiscover before and after, check_fabric.py.
. "$(dirname "$0")/opensm_common.sh"
ibsim_start "${SMD_SOURCE_DIR}/tests/fabrics/leafspine.net"
SMD=0,1,1 OSM=0,1,2  # from host-3: host-0 (smd), host-1 (OpenSM)
write_policy "${IBSIM_WORKDIR}/a.yaml" "${IBSIM_WORKDIR}/state-a" "  priority: 5" "  sweep_interval: 2" \
  "  poll_interval: 1" "  poll_retries: 2"
start_daemon a "${IBSIM_WORKDIR}/a.yaml" SIM_HOST=host-0
wait_log a "SUBNET UP" 60
lids_now "${IBSIM_WORKDIR}/lids.before"

start_opensm osm 10 host-1 "sminfo_polling_timeout 1000" "polling_retry_number 2"
t=$(wait_states host-3 40 "${SMD}=STANDBY" "${OSM}=MASTER")
echo "one master (OpenSM) ${t} s after OpenSM started"
wait_log a "handed over to higher-priority SM 0x0000000000100003" 5
wait_log a "MASTER -> STANDBY" 5
wait_log osm "SUBNET UP" 30
sleep 3  # smd polls OpenSM every second: both stay as they are
sm_line host-3 "${SMD}"
sm_line host-3 "${OSM}"
grep -q "priority 5 state 2 SMINFO_STANDBY" <(sm_line host-3 "${SMD}")
grep -q "priority 10 state 3 SMINFO_MASTER" <(sm_line host-3 "${OSM}")
osm_never osm "ERR 2F18"
# OpenSM's SA: both SM ports advertise IsSM, and OpenSM lists smd's SMInfo as STANDBY.
sim env SIM_HOST=host-3 timeout 10 saquery -s | tee "${IBSIM_WORKDIR}/issm"
[[ $(sed -n '/^IsSM ports/,/^IsSMdisabled/p' "${IBSIM_WORKDIR}/issm" | grep -c EndPortLid) -eq 2 ]]
sim env SIM_HOST=host-3 timeout 10 saquery SMIR | tee "${IBSIM_WORKDIR}/smir"
grep -A6 "GUID.*0x0000000000100001" "${IBSIM_WORKDIR}/smir" | grep -q "SMState...............2"
lids_now "${IBSIM_WORKDIR}/lids.after"
diff "${IBSIM_WORKDIR}/lids.before" "${IBSIM_WORKDIR}/lids.after"
check_with_diags --expect-switches 6 --expect-cas 16
