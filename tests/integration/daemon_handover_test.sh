#!/usr/bin/env bash
# SM_Key and handover (IBA 14.4.1) between real smd daemons on ibsim, judged by infiniband-diags' sminfo:
#  - a rogue SMInfo Set(DISABLE) without the SM_Key is refused: the master stays MASTER;
#  - the SM_Key is withheld only under M_Key protection (IBA 14.2.4.1, as OpenSM does): with
#    MKeyProtectBits 1 a Get without the port's M_Key reads SM_Key 0, a Get with it reads the key;
#  - a higher-priority smd that appears later goes STANDBY, is handed the subnet (SMInfo Set HANDOVER),
#    and becomes MASTER while the old master becomes its STANDBY; no LID changes;
#  - the old master's log names the new SM when it joins, and its `smctl status` follows its polls of the
#    new master (Other SM ... MASTER, masters seen 1), not the list of its last election.
. "$(dirname "$0")/daemon_common.sh"
PROBE="${SMD_BUILD_DIR}/tests/integration/smp_probe"
ibsim_start "${SMD_SOURCE_DIR}/tests/fabrics/leafspine.net"
KEYS=("security:" "  m_key: 0x55" "  m_key_protect: 1")  # ibsim never checks M_Key; smd's SMInfo agent does
write_policy "${IBSIM_WORKDIR}/a.yaml" "${IBSIM_WORKDIR}/state-a" "  priority: 5" "  sm_key: 0x1234" \
  "  poll_interval: 1" "  poll_retries: 2" "${KEYS[@]}"
write_policy "${IBSIM_WORKDIR}/b.yaml" "${IBSIM_WORKDIR}/state-b" "  priority: 10" "  sm_key: 0x1234" \
  "  poll_interval: 1" "  poll_retries: 2" "${KEYS[@]}"
start_daemon a "${IBSIM_WORKDIR}/a.yaml" SIM_HOST=host-0
wait_log a "SUBNET UP" 60

# From host-2 the master's port (host-0) is DR path 1,1: out of host-2, then leaf-0 port 1.
probe() { sim timeout 20 env SIM_HOST=host-2 "${PROBE}" --sminfo 1,1 "$@"; }
out=$(probe) && echo "${out}"
grep -q "state=MASTER sm_key=0x0$" <<<"${out}"  # protected port, Get without its M_Key: key withheld
out=$(probe --m-key 0x55) && echo "${out}"
grep -q "state=MASTER sm_key=0x1234$" <<<"${out}"  # with the M_Key: the key, whatever the Get's SM_Key
out=$(probe --sminfo-set 3 --sm-key 0x9999 --m-key 0x55) && echo "${out}"
grep -q "state=MASTER" <<<"${out}"
wait_log a "refused in state MASTER: wrong SM_Key" 10
sim timeout 20 sminfo | tee "${IBSIM_WORKDIR}/sminfo"
grep -Eq "sm guid 0x100001, .* priority 5 state 3 SMINFO_MASTER" "${IBSIM_WORKDIR}/sminfo"
sim timeout 60 ibnetdiscover 2>/dev/null | grep -Eo '"[a-z0-9-]+"[^"]*lid [0-9]+' | sort >"${IBSIM_WORKDIR}/lids.before"

start_daemon b "${IBSIM_WORKDIR}/b.yaml" SIM_HOST=host-1
wait_log b "-> STANDBY" 30
wait_log a "handed over to higher-priority SM" 20
wait_log b "HANDOVER from" 5
wait_log b "SUBNET UP" 30
sim timeout 20 sminfo | tee "${IBSIM_WORKDIR}/sminfo"
grep -Eq "priority 10 state 3 SMINFO_MASTER" "${IBSIM_WORKDIR}/sminfo"
grep -q "MASTER -> STANDBY" "${IBSIM_WORKDIR}/a.log"
sim timeout 60 ibnetdiscover 2>/dev/null | grep -Eo '"[a-z0-9-]+"[^"]*lid [0-9]+' | sort >"${IBSIM_WORKDIR}/lids.after"
diff "${IBSIM_WORKDIR}/lids.before" "${IBSIM_WORKDIR}/lids.after"
[[ -s "${IBSIM_WORKDIR}/lids.after" ]]
check_with_diags --expect-switches 6 --expect-cas 16

grep -Eq "SM 0x[0-9a-f]+ \(priority 10, [A-Z]+, LID [0-9]+\) at DR path [0-9,]+ joined the subnet" "${IBSIM_WORKDIR}/a.log"
# a polls b every second (poll_interval 1): within a few polls its status shows b as the master.
B_GUID=$(grep -Eo "sm guid 0x[0-9a-f]+" "${IBSIM_WORKDIR}/sminfo" | awk '{print $3}')
for _ in $(seq 50); do
  timeout 10 "${SMD_BUILD_DIR}/smd/smctl" --socket "${IBSIM_WORKDIR}/state-a.control.socket" status --json \
    >"${IBSIM_WORKDIR}/a-status.json"
  if python3 - "${IBSIM_WORKDIR}/a-status.json" "${B_GUID}" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["result"]
e = r["election"]
others = {int(sm["guid"], 16): sm["state"] for sm in e["other_sms"]}
sys.exit(0 if r["state"] == "STANDBY" and others.get(int(sys.argv[2], 16)) == "MASTER" and e["masters_seen"] == 1 else 1)
PY
  then break; fi
  sleep 0.1
done
python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["result"]["election"])' "${IBSIM_WORKDIR}/a-status.json"
python3 - "${IBSIM_WORKDIR}/a-status.json" "${B_GUID}" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["result"]
e = r["election"]
others = {int(sm["guid"], 16): sm["state"] for sm in e["other_sms"]}
assert r["state"] == "STANDBY", r["state"]
assert others.get(int(sys.argv[2], 16)) == "MASTER", others
assert e["masters_seen"] == 1, e["masters_seen"]
PY
