#!/usr/bin/env bash
# Issue 17's multicast read-back: the 8-ary 3-tree (512 hosts, 192 switches) brought up by smd --once,
# then multicast trees programmed with smd's own tree builder, verifier and MFT programmer
# (tests/integration/tools/mcast_program: the IPoIB broadcast group 0xC000 with every host, plus 7 groups
# of a random half of the hosts each). The MFTs are read back with `ibroute -M` on every switch and walked
# by the independent checker: delivery to every member from every sender, exactly once, no loop.
. "$(dirname "$0")/once_common.sh"
NET="${IBSIM_WORKDIR}/kary8-3.net"
"${SMD_BUILD_DIR}/smd/smd-fabric" kary --k 8 --n 3 -o "${NET}"
once_bringup "${NET}" 192 512
GROUPS_FILE="${IBSIM_WORKDIR}/groups.txt"
sim timeout 120 "${SMD_BUILD_DIR}/tests/integration/mcast_program" --groups 8 --seed 17 >"${GROUPS_FILE}"
[[ $(wc -l <"${GROUPS_FILE}") -eq 8 ]]
sim timeout 240 python3 "$(cd "$(dirname "$0")" && pwd)/check_mft.py" --live --groups "${GROUPS_FILE}" --expect-groups 8
echo "PASS: mcast_mft"
