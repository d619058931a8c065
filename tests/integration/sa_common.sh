# shellcheck shell=bash
# Shared body of the Subnet Administrator (SA, class 0x03) tests: bring a fabric up with the SM under test,
# wait until its SA answers, and run saquery against it with a bound on every call.
#
#   SA_TEST_SM=smd (default) | opensm
#     smd:    the smd daemon (SMD_BUILD_DIR/smd/smd) is the SM and the SA under test.
#     opensm: OpenSM 3.3.23 is; this proves the checks themselves on a real SA. OpenSM runs with
#             `qos TRUE` so that it reads and programs SL2VL and VLArb (with qos off its SA answers zeros
#             for them, not what the ports hold).
#   SA_TEST_SMKEY (default 1, smd's and OpenSM's default key): the SM_Key saquery sends for trusted
#             queries (PKeyTableRecord).
#
#   sa_bringup NETFILE NAME HOST PRIORITY   # one SM called NAME at HOST (SIM_HOST), master once up
#   sa_wait_sa SECONDS                      # until the SA answers ClassPortInfo, or fail
#   saq ARGS...                             # saquery ARGS under the shim, at most SA_QUERY_TIMEOUT s
#   SA_CHECK_DIR                            # where the sa_check_*.py checkers live
. "$(dirname "${BASH_SOURCE[0]}")/opensm_common.sh"

SA_TEST_SM=${SA_TEST_SM:-smd}
SA_TEST_SMKEY=${SA_TEST_SMKEY:-1}
SA_QUERY_TIMEOUT=${SA_QUERY_TIMEOUT:-10}
SA_CHECK_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
export SA_TEST_SM SA_TEST_SMKEY SA_QUERY_TIMEOUT
case "${SA_TEST_SM}" in
  smd | opensm) ;;
  *)
    echo "sa_common: SA_TEST_SM must be smd or opensm, not '${SA_TEST_SM}'" >&2
    exit 2
    ;;
esac
echo "SA under test: ${SA_TEST_SM}"

saq() { sim timeout "${SA_QUERY_TIMEOUT}" saquery "$@"; }

# sa_start_sm NAME HOST PRIORITY [opensm.conf lines]: start one SM of the kind SA_TEST_SM at HOST (no
# wait); the extra lines go to OpenSM's configuration only.
sa_start_sm() {
  local name=$1 host=$2 prio=$3
  shift 3
  if [[ ${SA_TEST_SM} == opensm ]]; then
    start_opensm "${name}" "${prio}" "${host}" "qos TRUE" "sminfo_polling_timeout 1000" "polling_retry_number 2" "$@"
  else
    write_policy "${IBSIM_WORKDIR}/${name}.yaml" "${IBSIM_WORKDIR}/state-${name}" "  priority: ${prio}" \
      "  poll_interval: 1" "  poll_retries: 2"
    start_daemon "${name}" "${IBSIM_WORKDIR}/${name}.yaml" SIM_HOST="${host}"
  fi
}

# sa_wait_up NAME SECONDS: the SM NAME has brought the subnet up (its own log says so).
sa_wait_up() { wait_log "$1" "SUBNET UP" "$2"; }

# sa_wait_standby NAME SECONDS: the SM NAME stands by.
sa_wait_standby() {
  if [[ ${SA_TEST_SM} == opensm ]]; then wait_log "$1" "Entering STANDBY state" "$2"; else wait_log "$1" "-> STANDBY" "$2"; fi
}

# sa_wait_sa SECONDS: poll ClassPortInfo (saquery -c, from the first node) until the SA answers. An SA
# answers only as master after its first sweep; the shim's sysfs sm_lid is a snapshot taken when each
# saquery starts, so a fresh saquery per try sees the MasterSMLID the SM set.
sa_wait_sa() {
  local deadline=$((SECONDS + $1))
  while ((SECONDS < deadline)); do
    if sim timeout 5 saquery -c >"${IBSIM_WORKDIR}/cpi.wait" 2>&1; then return 0; fi
    sleep 0.5
  done
  echo "FAIL: the ${SA_TEST_SM} SA did not answer ClassPortInfo within $1 s" >&2
  cat "${IBSIM_WORKDIR}/cpi.wait" >&2
  return 1
}

# sa_bringup NETFILE NAME HOST PRIORITY: ibsim on NETFILE, one SM, subnet up, SA answering.
sa_bringup() {
  ibsim_start "$1"
  sa_start_sm "$2" "$3" "$4"
  sa_wait_up "$2" 60
  sa_wait_sa 20
}

# sa_check NAME ARGS...: run the checker sa_check_NAME.py under the shim (cwd = the ibsim workdir), at most
# SA_CHECK_TIMEOUT (default 100) seconds.
sa_check() {
  local name=$1
  shift
  sim timeout "${SA_CHECK_TIMEOUT:-100}" python3 "${SA_CHECK_DIR}/sa_check_${name}.py" "$@"
}
