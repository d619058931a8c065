#!/usr/bin/env bash
# The RoCE plan of a 3-level 4-ary tree (48 switches, 64 hosts) on real FRR (roce_frr_common.sh).
. "$(dirname "$0")/roce_frr_common.sh"

"${SMD_FABRIC}" kary --k 4 --n 3 -o "${LAB_DIR}/kary4_3.net"
roce_frr_plans "${LAB_DIR}/kary4_3.net" kary4_3 48 64
roce_frr_deploy kary4_3
