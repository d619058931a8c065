#!/usr/bin/env bash
# The minhop engine alone on a leaf/spine fabric, read back with ibroute.
. "$(dirname "$0")/once_common.sh"
once_bringup "${SMD_SOURCE_DIR}/tests/fabrics/leafspine.net" 6 16 "routing:" "  engines: [minhop]"
grep -q "routing:  engine minhop" "${ONCE_OUT}"
check_with_diags --expect-switches 6 --expect-cas 16
