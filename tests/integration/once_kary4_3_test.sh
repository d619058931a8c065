#!/usr/bin/env bash
# smd --once with the default chain on a 4-ary 3-tree: ftree routes it, and the LFTs read back with
# ibroute make every shift permutation in smd's ca-order congestion-free (max link load 1).
. "$(dirname "$0")/once_common.sh"
once_bringup "${SMD_SOURCE_DIR}/tests/fabrics/kary4-3.net" 48 64
grep -q "routing:  engine ftree" "${ONCE_OUT}"
[[ $(grep -vc '^#' "${ONCE_STATE}/ca-order") -eq 64 ]]
check_with_diags --expect-switches 48 --expect-cas 64 --ca-order "${ONCE_STATE}/ca-order" --max-shift-load 1
