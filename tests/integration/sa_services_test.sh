#!/usr/bin/env bash
# ServiceRecords (IBA 15.2.5.14) through a takeover. Two smd daemons on leafspine share one services file
# (sa.services_file, as a master and its standby on shared storage would): "a" at host-0 (priority 10) is
# master, "b" at host-1 (priority 5) stands by. From host-3, sa_client (libibumad only) registers one
# service without a lease (forever) and one with an 8 s lease; both are found (the short one with 1..8 s
# left: 8 s, not less, so a loaded machine's slow Get still finds some left); after the lease the short
# one is gone while the other stays. Then "a" is killed: "b" takes over and must answer with the service
# that was registered with "a"; a Delete on "b" removes it (DeleteResp), and a Get then finds nothing.
. "$(dirname "$0")/sa_common.sh"
[[ ${SA_TEST_SM} == smd ]] || { echo "sa_services_test: smd only (the shared services file is smd's)"; exit 0; }
SA_CLIENT="${SMD_BUILD_DIR}/tests/integration/sa_client/sa_client"
services="${IBSIM_WORKDIR}/shared-sa-services.json"
ibsim_start "${SMD_SOURCE_DIR}/tests/fabrics/leafspine.net"
for sm in a:host-0:10 b:host-1:5; do
  IFS=: read -r name host prio <<<"${sm}"
  write_policy "${IBSIM_WORKDIR}/${name}.yaml" "${IBSIM_WORKDIR}/state-${name}" "  priority: ${prio}" \
    "  poll_interval: 1" "  poll_retries: 2" "sa:" "  services_file: ${services}"
done
start_daemon a "${IBSIM_WORKDIR}/a.yaml" SIM_HOST=host-0
wait_log a "SUBNET UP" 60
start_daemon b "${IBSIM_WORKDIR}/b.yaml" SIM_HOST=host-1
wait_log b "-> STANDBY" 30
sa_wait_sa 20

svc() {  # svc OP ID NAME [args]: sa_client service from host-3; prints its JSON line, fails on no answer
  local op=$1 id=$2 name=$3
  shift 3
  sim env SIM_HOST=host-3 timeout 20 "${SA_CLIENT}" service "${op}" --id "${id}" --name "${name}" "$@"
}
status_of() { python3 -c 'import json, sys; print(json.loads(sys.stdin.read())["status"])'; }
expect_status() {  # expect_status WANT OP ID NAME [args]
  local want=$1 got
  shift
  got=$(svc "$@" | status_of)
  [[ "${got}" == "${want}" || $((got)) -eq $((want)) ]] || { echo "FAIL: service $* answered status ${got}, want ${want}" >&2; exit 1; }
}

expect_status 0 set 0x1000 svc-forever
expect_status 0 set 0x2000 svc-short --lease 8
expect_status 0 get 0x1000 svc-forever
lease=$(svc get 0x2000 svc-short | python3 -c 'import json, sys; print(json.loads(sys.stdin.read())["record"]["lease"])')
((lease >= 1 && lease <= 8)) || { echo "FAIL: svc-short shows lease ${lease}, want 1..8 s left" >&2; exit 1; }
forever=$(svc get 0x1000 svc-forever | python3 -c 'import json, sys; print(json.loads(sys.stdin.read())["record"]["lease"])')
[[ ${forever} -eq 4294967295 ]] || { echo "FAIL: svc-forever shows lease ${forever}, want 0xFFFFFFFF" >&2; exit 1; }
grep -q '"svc-forever"' "${services}" || { echo "FAIL: ${services} does not hold svc-forever" >&2; exit 1; }
# Gone once the lease is over: polled for up to 20 s rather than one fixed sleep.
for _ in $(seq 40); do
  [[ $(($(svc get 0x2000 svc-short | status_of))) -eq $((0x0300)) ]] && break
  sleep 0.5
done
expect_status 0x0300 get 0x2000 svc-short
expect_status 0 get 0x1000 svc-forever
echo "svc-short expired after its lease; svc-forever stays"

kill -9 "${DAEMON_PID_a}"
wait_log b "-> MASTER" 30
wait_log b "SA: serving" 30
expect_status 0 get 0x1000 svc-forever
echo "the new master serves svc-forever"
expect_status 0 delete 0x1000 svc-forever
expect_status 0x0300 get 0x1000 svc-forever
grep -q '"svc-forever"' "${services}" && { echo "FAIL: ${services} still holds the deleted service" >&2; exit 1; }
echo "deleted on the new master; the file says so"
