#!/usr/bin/env bash
# smd --once on tests/fabrics/leafspine.net; infiniband-diags must see every LID, every link Active and
# every switch delivering every LID; state_dir must hold the RoCE plan and one FRR config per switch.
. "$(dirname "$0")/once_common.sh"
once_bringup "${SMD_SOURCE_DIR}/tests/fabrics/leafspine.net" 6 16
check_with_diags --expect-switches 6 --expect-cas 16
check_roce_state 6 16
