#!/usr/bin/env bash
# smd --once on tests/fabrics/ring.net; infiniband-diags must see every LID, every link Active and
# every switch delivering every LID.
. "$(dirname "$0")/once_common.sh"
once_bringup "${SMD_SOURCE_DIR}/tests/fabrics/ring.net" 4 8
check_with_diags --expect-switches 4 --expect-cas 8
