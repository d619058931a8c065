#!/usr/bin/env bash
# smd is master (priority 5), OpenSM 3.3.23 joins with priority 10 (both on the default SM_Key): OpenSM
# stands by, tells smd with a trap 144, smd hands the subnet over (SMInfo HANDOVER; OpenSM answers in its
# old state, STANDBY, and takes it), OpenSM becomes MASTER and smd its STANDBY. No LID changes and every
# route delivers. Witnesses: sminfo at each SM's port, OpenSM's log, ibnetdiscover before and after,
# check_fabric.py.
. "$(dirname "$0")/opensm_common.sh"
ibsim_start "${SMD_SOURCE_DIR}/tests/fabrics/leafspine.net"
start_fast_smd 5
wait_log a "SUBNET UP" 60
lids_now "${IBSIM_WORKDIR}/lids.before"

start_fast_opensm 10
t=$(wait_states host-3 40 "${SMD}=STANDBY" "${OSM}=MASTER")
echo "one master (OpenSM) ${t} s after OpenSM started"
wait_log a "handed over to higher-priority SM 0x0000000000100003" 5
wait_log a "MASTER -> STANDBY" 5
wait_log osm "Entering MASTER state" 5
# Not checked: OpenSM's own SUBNET UP after it took the subnet, and its SA (saquery). Under ibsim OpenSM's
# sweep as master never ends: as a STANDBY it sent smd a trap 144 (it outranks the master), smd answers
# with a TrapRepress, and ibsim drops every TrapRepress ("got trap repress - dropping"); the umad2sim shim
# gives OpenSM no send timeout either, so the trap stays outstanding and OpenSM's heavy sweep waits for it
# for good. On a real fabric the trap times out. What smd must do is checked: it handed over, stands by,
# and the subnet it programmed stays as it was.
settled_pair "priority 5 state 2 SMINFO_STANDBY" "priority 10 state 3 SMINFO_MASTER"
