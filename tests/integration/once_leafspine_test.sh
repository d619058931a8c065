#!/usr/bin/env bash
# smd --once on tests/fabrics/leafspine.net; infiniband-diags must see every LID, every link Active and
# every switch delivering every LID; state_dir must hold the RoCE plan and one FRR config per switch.
. "$(dirname "$0")/once_common.sh"
once_bringup "${SMD_SOURCE_DIR}/tests/fabrics/leafspine.net" 6 16
check_with_diags --expect-switches 6 --expect-cas 16
check_roce_state 6 16
# The SM port was opened through the call this libibumad has: umad_open_smi_port where umad.h declares the
# SMI/GSI pairing (rdma-core 53+, Debian 13), umad_open_port before it (Debian 12). ibsim's ports are one
# device for both interfaces.
if grep -q umad_get_smi_gsi_pair_by_ca_name /usr/include/infiniband/umad.h; then open_call=umad_open_smi_port; else open_call=umad_open_port; fi
grep -q "opened (${open_call}; SMI and GSI on one device)" "${IBSIM_WORKDIR}/smd.err" || {
  echo "FAIL: smd's log does not say the port was opened through ${open_call}:" >&2
  grep "SM port" "${IBSIM_WORKDIR}/smd.err" >&2
  exit 1
}
echo "SM port opened through ${open_call}"
