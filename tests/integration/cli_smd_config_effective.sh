#!/usr/bin/env bash
# `smd config --effective` and the overrides end to end, no fabric: -p before or after `config` shows
# sm.priority 5 from the command line; a key of the file shows FILE:LINE:COLUMN (counted here by hand); the
# YAML printed loads (check-config) and yields the same values key by key (the JSON of both compared by
# python, origins aside); -R refuses an unknown engine with the list; -g wins over a GUID --instance.
# Not named *_test.sh: it needs no ibsim (registered by name in CMakeLists.txt).
set -euo pipefail
SMD_BIN="${SMD_BUILD_DIR:?SMD_BUILD_DIR must point at the build tree}/smd/smd"
work="$(mktemp -d)"
trap 'rm -rf "${work}"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
smd() { timeout 20 "${SMD_BIN}" "$@"; }

printf 'sm:\n  priority: 3\n  sweep_interval: 20\nrouting:\n  engines: [updn, minhop]\n  updn:\n    roots: [0x10]\n' \
  >"${work}/smd.yaml"
chmod 0600 "${work}/smd.yaml"

for order in before after; do
  if [[ ${order} == before ]]; then
    smd -p 5 -c "${work}/smd.yaml" config --effective >"${work}/out.yaml"
  else
    smd config --effective -F "${work}/smd.yaml" -p 5 >"${work}/out.yaml"
  fi
  grep -qx '  priority: 5  # --priority' "${work}/out.yaml" || { cat "${work}/out.yaml"; fail "-p ${order} config: no priority 5 from --priority"; }
  grep -qx "  sweep_interval: 20  # ${work}/smd.yaml:3:3" "${work}/out.yaml" || fail "sweep_interval's origin"
  grep -qx '  engines: \[updn, minhop\]  # '"${work}"'/smd.yaml:5:3' "${work}/out.yaml" || fail "engines' origin"
  grep -qx '  mad:' "${work}/out.yaml" && fail "mad is a top-level section"
  grep -qx '  window: 32  # default' "${work}/out.yaml" || fail "mad.window default"
done
echo "smd -p 5 config --effective and smd config --effective -p 5: sm.priority 5 from --priority"

# The output is a policy: it loads, and every key has the same value as in the run that printed it.
chmod 0600 "${work}/out.yaml"
smd check-config "${work}/out.yaml" >/dev/null || fail "the effective YAML does not load"
smd config --effective --json -c "${work}/smd.yaml" -p 5 >"${work}/first.json"
smd config --effective --json -c "${work}/out.yaml" >"${work}/again.json"
python3 - "${work}/first.json" "${work}/again.json" <<'PY' || fail "values differ after loading the output"
import json, sys
def values(path):
    doc = json.load(open(path))
    # qos is listed key by key from defaults, whole when a file writes it: compare the rest.
    return {k["key"]: k["value"] for k in doc["keys"] if k["key"] != "qos" and not k["key"].startswith("qos.")}, doc
first, doc1 = values(sys.argv[1])
again, doc2 = values(sys.argv[2])
assert len(first) > 60, len(first)
diff = {k: (first.get(k), again.get(k)) for k in set(first) | set(again) if first.get(k) != again.get(k)}
assert not diff, diff
origins = {k["key"]: k["origin"] for k in doc1["keys"]}
assert origins["sm.priority"] == "--priority", origins["sm.priority"]
assert first["sm.priority"] == 5 and first["routing.updn.roots"] == ["0x0000000000000010"], first
assert doc1["source"] == sys.argv[1].replace("first.json", "smd.yaml"), doc1["source"]
print(len(first), "keys equal after a round trip")
PY

# The shipped annotated policy (every key, qos included) prints and loads back to the same summary.
smd config --effective -c "${SMD_SOURCE_DIR}/config/smd.yaml" >"${work}/shipped.yaml"
a=$(smd check-config --skip-permissions "${SMD_SOURCE_DIR}/config/smd.yaml" | tail -n 1)
b=$(smd check-config --skip-permissions "${work}/shipped.yaml" | tail -n 1)
[[ -n ${a} && ${a} == "${b}" ]] || fail "config/smd.yaml's effective policy loads differently: ${a} / ${b}"

# Bad override values: exit 2 with the option named.
if smd config --effective -R ftree,chaos 2>"${work}/err"; then fail "-R chaos accepted"; else rc=$?; fi
[[ ${rc} == 2 ]] || fail "-R chaos: exit ${rc}"
grep -qF -- "--routing-engine 'ftree,chaos': unknown engine 'chaos'; known: dfsssp, dnup, dor, file, ftree, lash, minhop, nue, sssp, torus-2QoS, updn" "${work}/err" ||
  fail "-R: $(cat "${work}/err")"
if smd -p 16 config --effective 2>"${work}/err"; then fail "-p 16 accepted"; fi
grep -qF -- "--priority '16'" "${work}/err" || fail "-p 16: $(cat "${work}/err")"

# -g wins over the port GUID an --instance name selects; the instance's other changes stay its own.
smd --instance 0x0002c90300000001 -g 0x0002c90300000002 config --effective >"${work}/inst.yaml"
grep -qx '  port_guid: 0x0002c90300000002  # --guid' "${work}/inst.yaml" || fail "-g did not win over --instance"
grep -qx '  state_dir: /var/lib/smd/0x0002c90300000001  # instance 0x0002c90300000001' "${work}/inst.yaml" ||
  fail "state_dir's origin under --instance"
# A path is bytes, not UTF-8 (log.file /tmp/x\xff\xfe\xc3 loads): --json writes U+FFFD for each byte that
# is not UTF-8, as every JSON writer of smd does, instead of aborting in the JSON library.
printf 'log:\n  file: "/tmp/x\xff\xfe\xc3"\n' >"${work}/bytes.yaml"
chmod 0600 "${work}/bytes.yaml"
smd -c "${work}/bytes.yaml" config --effective --json >"${work}/bytes.json" 2>"${work}/err" ||
  fail "--json with a non-UTF-8 path: exit $?: $(head -c 300 "${work}/err")"
python3 - "${work}/bytes.json" <<'PY' || fail "--json with a non-UTF-8 path: wrong value"
import json, sys
keys = {k["key"]: k["value"] for k in json.load(open(sys.argv[1], encoding="utf-8"))["keys"]}
assert keys["log.file"] == "/tmp/x\ufffd\ufffd\ufffd", keys["log.file"]
PY
echo "config --effective --json: a path that is not UTF-8 is written with U+FFFD"
# A string key whose text reads as another type ("123", "true", YAML 1.1's "1:30") is written quoted: PyYAML
# (YAML 1.1, an independent reader) gets the string back, and smd's --json says "string" too.
for v in 123 true yes off '~' 1:30 1_000 0x10 /var/log/smd.log; do
  printf 'log:\n  file: "%s"\n' "${v}" >"${work}/typed.yaml"
  chmod 0600 "${work}/typed.yaml"
  smd -c "${work}/typed.yaml" config --effective >"${work}/typed.out.yaml"
  smd -c "${work}/typed.yaml" config --effective --json >"${work}/typed.json"
  python3 - "${work}/typed.out.yaml" "${work}/typed.json" "${v}" <<'PY' || fail "log.file '${v}' did not stay a string"
import json, sys, yaml
got = yaml.safe_load(open(sys.argv[1]))["log"]["file"]
assert got == sys.argv[3], (got, sys.argv[3])
keys = {k["key"]: k["value"] for k in json.load(open(sys.argv[2]))["keys"]}
assert keys["log.file"] == sys.argv[3], keys["log.file"]
PY
done
echo "config --effective: string keys that read as numbers or booleans are quoted"
echo "PASS: config --effective shows values and origins, loads back, and the overrides are checked"
