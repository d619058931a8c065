#!/usr/bin/env bash
# smd --once on tests/fabrics/kary4-3.net; infiniband-diags must see every LID, every link Active and
# every switch delivering every LID.
. "$(dirname "$0")/once_common.sh"
once_bringup "${SMD_SOURCE_DIR}/tests/fabrics/kary4-3.net" 48 64
check_with_diags --expect-switches 48 --expect-cas 64
