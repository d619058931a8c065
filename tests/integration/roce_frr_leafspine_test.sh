#!/usr/bin/env bash
# The RoCE plan of a 4-leaf / 2-spine fabric (2 hosts per leaf) on real FRR (roce_frr_common.sh).
. "$(dirname "$0")/roce_frr_common.sh"

"${SMD_FABRIC}" leafspine --leaves 4 --spines 2 --hosts-per-leaf 2 -o "${LAB_DIR}/leafspine.net"
roce_frr_plans "${LAB_DIR}/leafspine.net" leafspine 6 8
roce_frr_deploy leafspine
