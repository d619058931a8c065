#!/usr/bin/env bash
# updn alone on the 4-ary 3-tree: its up/down balancing must also make shifts congestion-free in its
# ca-order (max link load 1), read back with ibroute.
. "$(dirname "$0")/once_common.sh"
once_bringup "${SMD_SOURCE_DIR}/tests/fabrics/kary4-3.net" 48 64 "routing:" "  engines: [updn]"
grep -q "routing:  engine updn" "${ONCE_OUT}"
check_with_diags --expect-switches 48 --expect-cas 64 --ca-order "${ONCE_STATE}/ca-order" --max-shift-load 1
