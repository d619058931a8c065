#!/usr/bin/env bash
# Two fabrics, each brought up by its own smd (A priority 10, B priority 5), joined by one cable through
# ibsim's console (issue 13). Both assigned LIDs from 1, so most of B's clash with A's. Afterwards: one
# master (A; B hands its half over and stands by), A's LIDs all where they were, B's LIDs moved only where
# they clashed with A's, and every route delivers. Witnesses: sminfo at both SM ports, ibnetdiscover of
# each half before and of the whole fabric after, check_fabric.py (ibroute read-back).
. "$(dirname "$0")/opensm_common.sh"
# The netfile is written here (the bundled ones come from smd-fabric, which makes one fabric): half A has
# one spine, two leaves, four hosts; half B one spine, three leaves, six hosts; a free port on each spine.
net="${IBSIM_WORKDIR}/twohalves.net"
{
  for h in 0 1 2 3; do printf 'Hca 1 "a-host-%d"\n[1] "a-leaf-%d"[%d]\n\n' "${h}" $((h / 2)) $((h % 2 + 1)); done
  for h in 0 1 2 3 4 5; do printf 'Hca 1 "b-host-%d"\n[1] "b-leaf-%d"[%d]\n\n' "${h}" $((h / 2)) $((h % 2 + 1)); done
  for l in 0 1; do
    printf 'Switch 4 "a-leaf-%d"\n[1] "a-host-%d"[1]\n[2] "a-host-%d"[1]\n[3] "a-spine"[%d]\n\n' "${l}" \
      $((2 * l)) $((2 * l + 1)) $((l + 1))
  done
  printf 'Switch 4 "a-spine"\n[1] "a-leaf-0"[3]\n[2] "a-leaf-1"[3]\n\n'
  for l in 0 1 2; do
    printf 'Switch 4 "b-leaf-%d"\n[1] "b-host-%d"[1]\n[2] "b-host-%d"[1]\n[3] "b-spine"[%d]\n\n' "${l}" \
      $((2 * l)) $((2 * l + 1)) $((l + 1))
  done
  printf 'Switch 4 "b-spine"\n[1] "b-leaf-0"[3]\n[2] "b-leaf-1"[3]\n[3] "b-leaf-2"[3]\n\n'
} >"${net}"
ibsim_start "${net}"
for name in a b; do
  prio=$([[ ${name} == a ]] && echo 10 || echo 5)
  write_policy "${IBSIM_WORKDIR}/${name}.yaml" "${IBSIM_WORKDIR}/state-${name}" "  priority: ${prio}" \
    "  sweep_interval: 2" "  poll_interval: 1" "  poll_retries: 2"
done
start_daemon a "${IBSIM_WORKDIR}/a.yaml" SIM_HOST=a-host-0
start_daemon b "${IBSIM_WORKDIR}/b.yaml" SIM_HOST=b-host-0
wait_log a "SUBNET UP" 60
wait_log b "SUBNET UP" 60
# From a-host-1 A's port is DR 0,1,1; from b-host-1 B's is DR 0,1,1 and A's, once cabled, 0,1,3,4,1,1.
wait_states a-host-1 10 "0,1,1=MASTER" >/dev/null
wait_states b-host-1 10 "0,1,1=MASTER" >/dev/null
# lids FROM FILE: "node-name lid" for every node ibnetdiscover finds from FROM (switches by their port 0,
# CAs by their port), sorted.
lids() {
  sim env SIM_HOST="$1" timeout 60 ibnetdiscover 2>/dev/null | grep -Eo '"[a-z0-9-]+"[^"]*lid [0-9]+' |
    sed -E 's/^"([^"]+)".* lid ([0-9]+)$/\1 \2/' | sort -u >"$2"
  [[ -s "$2" ]]
}
lids a-host-1 "${IBSIM_WORKDIR}/lids.a"
lids b-host-1 "${IBSIM_WORKDIR}/lids.b"
cat "${IBSIM_WORKDIR}/lids.a" "${IBSIM_WORKDIR}/lids.b"

ibsim_console 'Link "a-spine"[3] "b-spine"[4]'
start=${SECONDS}
t=$(wait_states b-host-1 30 "0,1,3,4,1,1=MASTER" "0,1,1=STANDBY")
echo "one master (A) ${t} s after the cable"
wait_log a "HANDOVER from SM" 10
wait_log a "SUBNET UP" 30 2
echo "the joined subnet up $((SECONDS - start)) s after the cable"
sleep 3  # several light sweeps and polls: still one master
[[ $(sm_state b-host-1 0,1,3,4,1,1) == MASTER && $(sm_state b-host-1 0,1,1) == STANDBY ]]
sm_line b-host-1 0,1,3,4,1,1
sm_line b-host-1 0,1,1
lids a-host-1 "${IBSIM_WORKDIR}/lids.after"
cat "${IBSIM_WORKDIR}/lids.after"
python3 - "${IBSIM_WORKDIR}/lids.a" "${IBSIM_WORKDIR}/lids.b" "${IBSIM_WORKDIR}/lids.after" <<'PY'
import sys
def read(p):
    return dict(l.split() for l in open(p) if l.strip())
a, b, after = read(sys.argv[1]), read(sys.argv[2]), read(sys.argv[3])
assert len(after) == len(a) + len(b), f"{len(after)} nodes after, {len(a)} + {len(b)} before"
assert len(set(after.values())) == len(after), "a LID is held twice"
for node, lid in a.items():
    assert after[node] == lid, f"{node} of the master's half moved from LID {lid} to {after[node]}"
moved = kept = 0
for node, lid in b.items():
    if lid in a.values():
        moved += after[node] != lid
    else:
        assert after[node] == lid, f"{node} moved from LID {lid} to {after[node]} though nothing held {lid}"
        kept += 1
print(f"LIDs: the master's {len(a)} kept; of the other half's {len(b)}, {kept} kept and {moved} moved (each clashed)")
PY
# The election as both daemons count it (smctl status --json): B handed over, A took the HANDOVER; each
# now sees one master.
for name in a b; do
  "${SMD_BUILD_DIR}/smd/smctl" --socket "${IBSIM_WORKDIR}/state-${name}.control.socket" --json status \
    >"${IBSIM_WORKDIR}/status-${name}.json"
done
python3 - "${IBSIM_WORKDIR}/status-a.json" "${IBSIM_WORKDIR}/status-b.json" <<'PY'
import json, sys
a, b = (json.load(open(p))["result"]["election"] for p in sys.argv[1:3])
print("A:", a, "\nB:", b)
assert a["masters_seen"] == 1 and b["masters_seen"] == 1, "one master as each daemon sees it"
# Whichever found the other first (A's gate B as a lower master, or B's gate A as a higher one), B handed
# its half over to A.
assert a["handovers_received"] >= 1, "A took B's HANDOVER"
assert b["handovers_sent"] >= 1, "B handed over"
PY
"${SMD_BUILD_DIR}/smd/smctl" --socket "${IBSIM_WORKDIR}/state-a.control.socket" status | grep -E "Election|Other SM"
check_with_diags --expect-switches 7 --expect-cas 10
