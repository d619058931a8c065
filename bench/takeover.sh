#!/usr/bin/env bash
# Standby takeover benchmark (issue 6): for OpenSM and for smd, each with its DEFAULT polling policy, a
# master (priority 10, on host-0) and a standby (priority 5, on host-1) on a fresh ibsim; the master is
# killed with SIGKILL and the time until the standby logs MASTER and then SUBNET UP is measured from its
# log (polled every 0.1 s). Every process started is killed by PID on exit (bench/lib.sh).
#
#   bench/takeover.sh [--build DIR] [--fabric k12|k8|ls512] [--raw DIR]
#
# Writes bench/results/takeover.md.
set -euo pipefail
bench=$(cd "$(dirname "$0")" && pwd)
src=$(cd "${bench}/.." && pwd)
cmdline="bench/takeover.sh$(printf ' %q' "$@")"
. "${bench}/setup.sh"
build="" fabric="k12" raw=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --build) build=$2; shift ;;
    --fabric) fabric=$2; shift ;;
    --raw) raw=$2; shift ;;
    -h|--help) sed -n '2,9p' "$0"; exit 0 ;;
    *) echo "takeover.sh: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
build=$(bench_build_dir "${build}")
genargs=$(bench_fabric_args "${fabric}" k12,k8,ls512)
raw=$(bench_raw_dir "${raw}" smd-takeover)
simline=$(bench_netfile "${build}" "${genargs}" "${raw}/fabric.net")
read -r -a simargs <<<"${simline}"
echo "== ${fabric}: smd-fabric ${genargs}; raw outputs in ${raw}"

# One SM kind on a fresh ibsim, in a subshell so bench/lib.sh's EXIT trap ends everything it started.
run_one() (
  local sm=$1 out="${raw}/$1"
  mkdir -p "${out}"
  . "${bench}/lib.sh"
  bench_ibsim_start "${raw}/fabric.net" 900 "${simargs[@]}"
  start_sm() {  # start_sm NAME PRIORITY HOST
    local name=$1 prio=$2 host=$3 cmd
    if [[ "${sm}" == smd ]]; then
      bench_smd_policy "${IBSIM_WORKDIR}/${name}.yaml" "${IBSIM_WORKDIR}/state-${name}" \
        "${IBSIM_WORKDIR}/${name}.socket" "priority: ${prio}"
      cmd=("${build}/smd/smd" --config "${IBSIM_WORKDIR}/${name}.yaml")
    else
      mkdir -p "${IBSIM_WORKDIR}/cache-${name}"
      # OpenSM buffers its log file unless told otherwise; the benchmark watches it.
      echo "force_log_flush TRUE" >"${IBSIM_WORKDIR}/opensm.conf"
      cmd=(env OSM_CACHE_DIR="${IBSIM_WORKDIR}/cache-${name}" opensm -F "${IBSIM_WORKDIR}/opensm.conf" -p "${prio}"
        -R ftree -f "${out}/${name}.log")
    fi
    (cd "${IBSIM_WORKDIR}" && exec env SIM_HOST="${host}" LD_PRELOAD="${SIM_PRELOAD}" "${cmd[@]}" \
      >"${out}/${name}.out" 2>&1) &
    ibsim_track $!
    eval "pid_${name}=$!"
  }
  logf() { [[ "${sm}" == smd ]] && echo "${out}/$1.out" || echo "${out}/$1.log"; }
  wait_for() {  # wait_for NAME PATTERN SECONDS -> prints seconds waited
    local t0 t deadline=$((SECONDS + $3))
    t0=$(date +%s.%N)
    while ((SECONDS < deadline)); do
      if grep -q -e "$2" "$(logf "$1")" 2>/dev/null; then
        t=$(date +%s.%N)
        python3 -c "print(f'{$t - $t0:.1f}')"
        return 0
      fi
      sleep 0.1
    done
    echo "takeover.sh: '$2' not in $(logf "$1") within $3 s" >&2
    return 1
  }
  local master_pat standby_pat up_pat
  if [[ "${sm}" == smd ]]; then
    master_pat="-> MASTER" standby_pat="-> STANDBY" up_pat="SUBNET UP"
  else
    master_pat="Entering MASTER state" standby_pat="Entering STANDBY state" up_pat="SUBNET UP"
  fi
  start_sm master 10 host-0
  wait_for master "${up_pat}" 600 >/dev/null
  start_sm standby 5 host-1
  wait_for standby "${standby_pat}" 300 >/dev/null
  sleep 5
  local before_up
  before_up=$(grep -c -e "${up_pat}" "$(logf standby)" || true)
  # shellcheck disable=SC2154  # pid_master is set by start_sm's eval
  kill -9 "${pid_master}"
  local t0 t_master t_up
  t0=$(date +%s.%N)
  wait_for standby "${master_pat}" 300 >/dev/null
  t_master=$(date +%s.%N)
  # SUBNET UP once more than before the kill.
  local deadline=$((SECONDS + 300))
  while (( $(grep -c -e "${up_pat}" "$(logf standby)" || true) <= before_up )); do
    ((SECONDS < deadline)) || { echo "takeover.sh: ${sm} standby never came up" >&2; return 1; }
    sleep 0.1
  done
  t_up=$(date +%s.%N)
  python3 -c "print(f'${sm} {$t_master - $t0:.1f} {$t_up - $t0:.1f}')" >"${out}/result.txt"
  cat "${out}/result.txt"
)

for sm in opensm smd; do run_one "${sm}" || echo "  ${sm}: failed" >&2; done
commit=$(git -C "${src}" rev-parse --short HEAD 2>/dev/null || echo unknown)
{
  echo "# Standby takeover: smd vs OpenSM $(dpkg-query -W -f '${Version}' opensm 2>/dev/null), default policies"
  echo
  echo "\`${cmdline}\` at ${commit}, $(date -u +%Y-%m-%d), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)."
  echo "Fabric: smd-fabric ${genargs}. Master priority 10 on host-0, standby priority 5 on host-1; the master is"
  echo "killed with SIGKILL. smd: sm.poll_interval 2 s, sm.poll_retries 3 (defaults); OpenSM: its defaults"
  echo "(sminfo_polling_timeout 10 s, polling_retry_number 4)."
  echo
  echo "| SM | kill → standby is MASTER | kill → SUBNET UP again |"
  echo "|---|---|---|"
  for sm in opensm smd; do
    if [[ -s "${raw}/${sm}/result.txt" ]]; then
      read -r _ a b <"${raw}/${sm}/result.txt"
      echo "| ${sm} | ${a} s | ${b} s |"
    else
      echo "| ${sm} | failed | failed |"
    fi
  done
} >"${bench}/results/takeover.md"
cat "${bench}/results/takeover.md"
