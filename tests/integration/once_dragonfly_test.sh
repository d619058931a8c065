#!/usr/bin/env bash
# smd --once with the default chain on a generated dragonfly (9 groups x 4 routers x 8 hosts, 2 global
# cables per router: every pair of groups joined once). ftree declines it (no tree), updn routes it; the
# LFTs read back with ibroute must deliver every CA pair.
. "$(dirname "$0")/once_common.sh"
NET="${IBSIM_WORKDIR}/dragonfly.net"
FABRIC=(dragonfly --groups 9 --routers 4 --hosts-per-router 8 --global-links 2)
"${SMD_BUILD_DIR}/smd/smd-fabric" "${FABRIC[@]}" -o "${NET}"
read -r -a ONCE_IBSIM_ARGS <<<"$("${SMD_BUILD_DIR}/smd/smd-fabric" "${FABRIC[@]}" --ibsim-args)"
once_bringup "${NET}" 36 288
grep -q "routing:  engine updn" "${ONCE_OUT}"
check_with_diags --expect-switches 36 --expect-cas 288
