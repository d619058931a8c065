#!/usr/bin/env bash
# kill -9 of the daemon and a restart: no LID changes (ibnetdiscover before and after), and the new
# process finds every port already right (0 PortInfo Sets in its first sweep).
. "$(dirname "$0")/daemon_common.sh"
ibsim_start "${SMD_SOURCE_DIR}/tests/fabrics/kary4-3.net"
write_policy "${IBSIM_WORKDIR}/smd.yaml" "${IBSIM_WORKDIR}/state"
start_daemon first "${IBSIM_WORKDIR}/smd.yaml"
wait_log first "SUBNET UP" 60
sim timeout 60 ibnetdiscover 2>/dev/null | grep -Eo '"[a-z0-9-]+"[^"]*lid [0-9]+' | sort >"${IBSIM_WORKDIR}/lids.before"
kill -9 "${DAEMON_PID_first}"
wait "${DAEMON_PID_first}" 2>/dev/null || true
start_daemon second "${IBSIM_WORKDIR}/smd.yaml"
wait_log second "SUBNET UP" 60
grep -q "endports configured" "${IBSIM_WORKDIR}/second.log"
sim timeout 60 ibnetdiscover 2>/dev/null | grep -Eo '"[a-z0-9-]+"[^"]*lid [0-9]+' | sort >"${IBSIM_WORKDIR}/lids.after"
[[ $(wc -l <"${IBSIM_WORKDIR}/lids.after") -ge 64 ]]  # one LID line per CA port at least
diff "${IBSIM_WORKDIR}/lids.before" "${IBSIM_WORKDIR}/lids.after"
check_with_diags --expect-switches 48 --expect-cas 64
