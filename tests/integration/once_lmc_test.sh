#!/usr/bin/env bash
# LMC 2: every CA port owns 4 aligned LIDs and every switch delivers each of them (ibroute read-back).
. "$(dirname "$0")/once_common.sh"
once_bringup "${SMD_SOURCE_DIR}/tests/fabrics/leafspine.net" 6 16 "lid:" "  lmc: 2"
check_with_diags --lmc 2 --expect-switches 6 --expect-cas 16
