#!/usr/bin/env bash
# smd --once on tests/fabrics/twoswitch.net; infiniband-diags must see every LID, every link Active and
# every switch delivering every LID.
. "$(dirname "$0")/once_common.sh"
once_bringup "${SMD_SOURCE_DIR}/tests/fabrics/twoswitch.net" 2 4
check_with_diags --expect-switches 2 --expect-cas 4
