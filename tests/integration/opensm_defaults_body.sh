# Body of the two "default policies" tests: smd and OpenSM 3.3.23, each with its defaults (priority 0,
# SM_Key 1, the default sweep and poll intervals), started in the order FIRST (smd or opensm). Both have
# priority 0, so the lower port GUID wins (IBA 14.4.1.1): smd on host-0 (0x...100001) over OpenSM on
# host-1 (0x...100003). In either order the subnet ends with exactly one master, smd, and OpenSM its
# STANDBY, for good. Witnesses: sminfo at each SM's port, OpenSM's log, check_fabric.py.
. "$(dirname "${BASH_SOURCE[0]}")/opensm_common.sh"
ibsim_start "${SMD_SOURCE_DIR}/tests/fabrics/leafspine.net"
write_policy "${IBSIM_WORKDIR}/a.yaml" "${IBSIM_WORKDIR}/state-a"  # no election key: all defaults
start=${SECONDS}
if [[ "${FIRST}" == smd ]]; then
  start_daemon a "${IBSIM_WORKDIR}/a.yaml" SIM_HOST=host-0
  wait_log a "SUBNET UP" 60
  start=${SECONDS}
  start_opensm osm "" host-1
else
  start_opensm osm "" host-1
  wait_log osm "SUBNET UP" 60
  start=${SECONDS}
  start_daemon a "${IBSIM_WORKDIR}/a.yaml" SIM_HOST=host-0
fi
# OpenSM's defaults poll every 10 s and sweep every 10 s: one master well within 40 s.
wait_states host-3 40 "${SMD}=MASTER" "${OSM}=STANDBY" >/dev/null
echo "exactly one master (smd) $((SECONDS - start)) s after the second SM started"
wait_log a "SUBNET UP" 30
# Stable: through a whole OpenSM poll and sweep interval, still one master.
for _ in 1 2 3 4 5 6; do
  [[ $(sm_state host-3 "${SMD}") == MASTER && $(sm_state host-3 "${OSM}") == STANDBY ]]
  sleep 2
done
sm_line host-3 "${SMD}"
sm_line host-3 "${OSM}"
osm_never osm "ERR 2F18"
check_with_diags --expect-switches 6 --expect-cas 16
