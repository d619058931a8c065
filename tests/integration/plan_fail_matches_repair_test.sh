#!/usr/bin/env bash
# `smd plan --fail CABLE` figures ib-static after the loss on the tables the running daemon's repair
# programs. smd runs as a daemon on a 4-leaf, 2-spine leaf/spine (4 hosts a leaf, one cable a pair);
# `smd plan --fail` of one leaf uplink with the daemon's guid2lid and policy gives the shift max link load
# of ib-static before and after. The witness is check_fabric.py: the same load computed from the LFTs
# ibroute reads back, over every shift of the daemon's state_dir/ca-order, once before and once after the
# cable is unlinked in ibsim and the daemon has repaired. Both must equal smd plan's figures (and after
# the loss leaf-0 has one uplink for 4 hosts: 4, by hand).
. "$(dirname "$0")/daemon_common.sh"
net="${IBSIM_WORKDIR}/leafspine.net"
"${SMD_BUILD_DIR}/smd/smd-fabric" leafspine --leaves 4 --spines 2 --hosts-per-leaf 4 -o "${net}"
ibsim_start "${net}"
write_policy "${IBSIM_WORKDIR}/smd.yaml" "${IBSIM_WORKDIR}/state" "  sweep_interval: 1"
start_daemon smd "${IBSIM_WORKDIR}/smd.yaml"
wait_log smd "SUBNET UP" 60
cable='"leaf-0"[6]'  # leaf ports: hosts 1-4, spine-0 on 5, spine-1 on 6
# The sweep writes ca-order after it logs SUBNET UP (the routes' files are outside its timed phases).
for _ in $(seq 300); do [[ -s "${IBSIM_WORKDIR}/state/ca-order" ]] && break; sleep 0.1; done
cp "${IBSIM_WORKDIR}/state/ca-order" "${IBSIM_WORKDIR}/ca-order"
set +e
timeout 60 "${SMD_BIN}" plan --topology "${net}" --config "${IBSIM_WORKDIR}/smd.yaml" \
  --guid2lid "${IBSIM_WORKDIR}/state/guid2lid" --fail "${cable}" --collectives none --seeds 1 --format json \
  >"${IBSIM_WORKDIR}/fail.json" 2>"${IBSIM_WORKDIR}/fail.err"
rc=$?
set -e
[[ ${rc} == 0 ]] || { cat "${IBSIM_WORKDIR}/fail.err" >&2; echo "FAIL: smd plan --fail exited ${rc}" >&2; exit 1; }
read -r before after made_by < <(python3 - "${IBSIM_WORKDIR}/fail.json" <<'PY'
import json, sys
roce = json.load(open(sys.argv[1]))["roce"]
def shift(c):
    p = next(p for p in c["patterns"] if p["name"] == "shift")
    s = next(s for s in p["schemes"] if s["name"] == "ib-static")
    assert s["unrouted"] == 0, s
    return int(s["max_link_load"])
print(shift(roce["comparison"]), shift(roce["after_loss"]["comparison"]),
      roce["after_loss"]["ib_static"]["made_by"].split()[0])
PY
)
echo "smd plan: ib-static shift max link load ${before} before, ${after} after (${made_by} repair)"
[[ ${after} == 4 ]] || { echo "FAIL: smd plan says ${after} after the loss, 4 by hand" >&2; exit 1; }

# The witness reads what the SM programmed; its shift uses the daemon's CA order from before the loss.
witness() {
  sim timeout 240 python3 "$(dirname "$0")/check_fabric.py" --ca-order "${IBSIM_WORKDIR}/ca-order" \
    --max-shift-load 1000 | sed -n 's/^check_fabric: shift max link load \([0-9]*\) .*/\1/p'
}
seen="$(witness)"
[[ ${seen} == "${before}" ]] || { echo "FAIL: before the loss the fabric's LFTs give ${seen}, smd plan ${before}" >&2; exit 1; }
ibsim_console "Unlink ${cable}"
wait_log smd "repair: fabric consistent" 30
wait_log smd "SUBNET UP" 30 2
seen="$(witness)"
[[ ${seen} == "${after}" ]] || { echo "FAIL: after the repair the fabric's LFTs give ${seen}, smd plan ${after}" >&2; exit 1; }
kill -TERM "${DAEMON_PID_smd}"
wait "${DAEMON_PID_smd}"
echo "PASS: plan_fail_matches_repair"
