#!/usr/bin/env bash
# OpenSM 3.3.23 is master (priority 5), smd joins with priority 10 (both on the default SM_Key): smd stands
# by (and nudges OpenSM with a trap 144, SM priority change, as OpenSM's own standbys do, should OpenSM's
# sweep not find it first), OpenSM hands the subnet over (SMInfo HANDOVER), smd becomes MASTER, OpenSM
# STANDBY. No LID changes and every route
# delivers. Witnesses: sminfo at each SM's port, OpenSM's log, ibnetdiscover before and after,
# check_fabric.py (ibroute read-back).
. "$(dirname "$0")/opensm_common.sh"
ibsim_start "${SMD_SOURCE_DIR}/tests/fabrics/leafspine.net"
start_fast_opensm 5
wait_log osm "SUBNET UP" 60
lids_now "${IBSIM_WORKDIR}/lids.before"
check_with_diags --expect-switches 6 --expect-cas 16 >/dev/null

start_fast_smd 10
start=${SECONDS}
# OpenSM hands over when its sweep finds smd: while smd still discovers (it obeys HANDOVER then, IBA 14.4.1
# state diagram) or once smd stands by. Either way smd becomes master by that HANDOVER.
wait_states host-3 30 "${SMD}=MASTER" "${OSM}=STANDBY" >/dev/null
echo "one master (smd) $((SECONDS - start)) s after smd started"
wait_log a "SMInfo Set \(modifier 1\) from SM 0x0000000000100003 .* obeyed in state (DISCOVERING|STANDBY)" 5
wait_log a "(-> MASTER|heavy sweep [0-9]+ under .*): HANDOVER from SM 0x0000000000100003" 5
wait_log a "SUBNET UP" 30
wait_log osm "Entering STANDBY state" 5
# OpenSM hands over on its own when its sweep finds the higher standby; smd's trap 144 only hurries it.
echo "trap 144 sent to OpenSM before the handover: $(grep -c "trap 144 (SM priority change) to master" "${IBSIM_WORKDIR}/a.log" || true)x"
settled_pair "priority 10 state 3 SMINFO_MASTER" "priority 5 state 2 SMINFO_STANDBY"
