#!/usr/bin/env bash
# A ring is no fat tree: ftree declines, updn routes it (deadlock-free), read back with ibroute.
. "$(dirname "$0")/once_common.sh"
once_bringup "${SMD_SOURCE_DIR}/tests/fabrics/ring.net" 4 8
grep -q "routing:  engine updn; declined ftree: " "${ONCE_OUT}"
check_with_diags --expect-switches 4 --expect-cas 8
