#!/usr/bin/env bash
# smd --once on tests/fabrics/leafspine.net; infiniband-diags must see every LID, every link Active and
# every switch delivering every LID.
. "$(dirname "$0")/once_common.sh"
once_bringup "${SMD_SOURCE_DIR}/tests/fabrics/leafspine.net" 6 16
check_with_diags --expect-switches 6 --expect-cas 16
