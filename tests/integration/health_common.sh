# Helpers for the PerfMgr and health tests: smctl against the test's daemon, waiting on its JSON answers,
# and a metrics scrape.
. "$(dirname "${BASH_SOURCE[0]}")/daemon_common.sh"

SMCTL_BIN="${SMD_BUILD_DIR}/smd/smctl"
# smctl ARGS...: smctl on the test daemon's control socket (state_dir is $IBSIM_WORKDIR/state).
smctl() { "${SMCTL_BIN}" --socket "${IBSIM_WORKDIR}/state.control.socket" "$@"; }

# wait_json SECONDS PYTHON_EXPR SMCTL_ARGS...: poll `smctl --json ARGS` until EXPR (over `r`, the parsed
# answer) holds; the last answer is left in $IBSIM_WORKDIR/last.json.
wait_json() {
  local seconds=$1 expr=$2
  shift 2
  local deadline=$((SECONDS + seconds))
  while ((SECONDS < deadline)); do
    if smctl --json "$@" >"${IBSIM_WORKDIR}/last.json" 2>/dev/null &&
      python3 -c "import json,sys; r=json.load(open(sys.argv[1])); sys.exit(0 if (${expr}) else 1)" \
        "${IBSIM_WORKDIR}/last.json"; then
      return 0
    fi
    sleep 0.3
  done
  echo "FAIL: smctl $* never satisfied: ${expr}" >&2
  head -c 3000 "${IBSIM_WORKDIR}/last.json" >&2
  tail -n 30 "${IBSIM_WORKDIR}/smd.log" >&2
  return 1
}

# passes: how many counter passes the PerfMgr has completed.
passes() { smctl --json counters | python3 -c "import json,sys; print(json.load(sys.stdin)['result']['passes'])"; }

# scrape_metrics FILE: the Prometheus endpoint's text (its port is in the log: the policy asks for port 0).
scrape_metrics() {
  local port
  port=$(grep -o -E "metrics listening on 127.0.0.1:[0-9]+" "${IBSIM_WORKDIR}/smd.log" | head -n1 | sed 's/.*://')
  python3 - "${port}" "$1" <<'PY'
import sys, urllib.request
with urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/metrics", timeout=10) as r:
    open(sys.argv[2], "w").write(r.read().decode())
PY
}
