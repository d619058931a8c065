#!/usr/bin/env bash
# The SA's records, one at a time, against the ports themselves: ClassPortInfo, NodeRecord, PortInfoRecord,
# SwitchInfoRecord, LinkRecord, SMInfoRecord, LFTRecord, GUIDInfoRecord, PKeyTableRecord (refused without
# the SM_Key, then with it), SL2VLTableRecord and VLArbTableRecord, each compared with smpquery/smpdump/
# sminfo/ibnetdiscover (sa_check_records.py); one whole-table query per type returns one MAD's worth.
# twoswitch: 6 nodes, parallel cables, small enough to ask for every record of every port.
# SA_TEST_SM=opensm runs the same checks against OpenSM's SA (sa_common.sh).
. "$(dirname "$0")/sa_common.sh"
sa_bringup "${SMD_SOURCE_DIR}/tests/fabrics/twoswitch.net" sm host-0 10
check_with_diags --expect-switches 2 --expect-cas 4
sa_check records --expect-sms 1
