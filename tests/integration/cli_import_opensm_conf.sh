#!/usr/bin/env bash
# `smd import-opensm-conf` against OpenSM itself, no fabric: Debian's opensm writes its full default
# configuration (`opensm -c`), and
#  - every option it writes is in smd's table with the same default (so no OpenSM option goes unhandled),
#    and docs/opensm-options.md is the table smd prints;
#  - the untouched file converts to a policy with nothing to report that `smd check-config` accepts;
#  - a site's file (options changed with sed, a partitions.conf beside it) converts, what smd lacks is
#    listed with its line, and check-config's summary shows the converted values.
# Not named *_test.sh: it needs no ibsim (registered by name in CMakeLists.txt).
set -euo pipefail
SMD_BIN="${SMD_BUILD_DIR:?SMD_BUILD_DIR must point at the build tree}/smd/smd"
work="$(mktemp -d)"
trap 'rm -rf "${work}"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v opensm >/dev/null || fail "opensm is not installed (.ci/install-deps.sh installs it)"

# opensm -c writes the file and exits; it needs no port for that.
timeout 30 opensm -c "${work}/opensm.conf" >"${work}/opensm.out" 2>&1 || true
[[ -s "${work}/opensm.conf" ]] || fail "opensm -c wrote nothing: $(cat "${work}/opensm.out")"

"${SMD_BIN}" import-opensm-conf --options-table >"${work}/table.md"
python3 - "${work}/opensm.conf" "${work}/table.md" "${SMD_SOURCE_DIR}/docs/opensm-options.md" <<'PY'
import sys
conf, table, doc = sys.argv[1:4]
opensm = {}
for line in open(conf):
    line = line.strip()
    if not line or line.startswith("#"):
        continue
    name, _, value = line.partition(" ")
    opensm[name] = value.strip()
rows = {}
for line in open(table):
    cells = [c.strip() for c in line.strip().strip("|").split("|")]
    if len(cells) == 5 and cells[0].startswith("`"):
        rows[cells[0].strip("`")] = cells[1].strip("`")
missing = sorted(set(opensm) - set(rows))
extra = sorted(set(rows) - set(opensm))
wrong = sorted(n for n in opensm if n in rows and rows[n] != opensm[n])
assert not missing, f"OpenSM options not in smd's table: {missing}"
assert not extra, f"options in smd's table that this OpenSM does not write: {extra}"
assert not wrong, "defaults differ: " + ", ".join(f"{n} opensm={opensm[n]!r} smd={rows[n]!r}" for n in wrong)
doc_rows = [l for l in open(doc) if l.startswith("|")]
table_rows = [l for l in open(table) if l.startswith("|")]
assert doc_rows == table_rows, "docs/opensm-options.md differs from `smd import-opensm-conf --options-table`"
print(f"{len(opensm)} OpenSM options, all in smd's table with OpenSM's defaults; the doc matches")
PY

# The untouched default: nothing carried, nothing lost, and the result loads. (Its partitions file is
# pointed away from /etc/opensm, which may hold a real one on this machine.)
sed "s#^partition_config_file .*#partition_config_file ${work}/absent.conf#" "${work}/opensm.conf" >"${work}/default.conf"
"${SMD_BIN}" import-opensm-conf "${work}/default.conf" -o "${work}/default.yaml" 2>"${work}/default.err" ||
  fail "default file: exit $?: $(cat "${work}/default.err")"
tail -n 1 "${work}/default.err"
grep -q "0 carried over, 0 not carried, 159 at OpenSM's default" "${work}/default.err" || fail "default file: $(cat "${work}/default.err")"
"${SMD_BIN}" check-config "${work}/default.yaml" >/dev/null || fail "check-config refused the converted default"

# A site's file.
cat >"${work}/partitions.conf" <<'PART'
Default=0x7fff,ipoib : ALL=full ;
storage=0x0a01,ipoib : 0x0002c90300001234=full, ALL_SWITCHES=full ;
PART
sed -e 's/^sm_priority .*/sm_priority 9/' -e 's/^routing_engine .*/routing_engine updn,chaos/' \
  -e 's/^perfmgr .*/perfmgr TRUE/' -e 's/^avoid_throttled_links .*/avoid_throttled_links TRUE/' \
  -e "s#^partition_config_file .*#partition_config_file ${work}/partitions.conf#" -e 's/^part_enforce .*/part_enforce out/' \
  -e 's/^sminfo_polling_timeout .*/sminfo_polling_timeout 3000/' -e 's/^perfmgr_max_outstanding_queries .*/perfmgr_max_outstanding_queries 1000/' \
  "${work}/opensm.conf" >"${work}/site.conf"
"${SMD_BIN}" import-opensm-conf "${work}/site.conf" >"${work}/site.yaml" 2>"${work}/site.err" ||
  fail "site file: exit $?: $(cat "${work}/site.err")"
cat "${work}/site.err"
line_of() { grep -n "^$1 " "${work}/site.conf" | cut -d: -f1; }
grep -qF "not carried: ${work}/site.conf:$(line_of avoid_throttled_links): avoid_throttled_links TRUE: missing" "${work}/site.err" ||
  fail "avoid_throttled_links not reported with its line"
grep -qF "not carried: ${work}/site.conf:$(line_of routing_engine): routing_engine updn,chaos: missing: engine chaos" \
  "${work}/site.err" || fail "chaos not reported"
grep -qF "perfmgr_max_outstanding_queries 1000: refused by smd: perfmgr.max_outstanding" "${work}/site.err" ||
  fail "an out-of-range value was not moved out"
chmod 0644 "${work}/site.yaml"
summary=$("${SMD_BIN}" check-config "${work}/site.yaml") || fail "check-config refused the converted site file"
echo "${summary}"
for want in "engines=updn,minhop" "priority=9" "perfmgr=60s" "partitions=2" "enforcement=out"; do
  grep -qF "${want}" <<<"${summary}" || fail "check-config summary lacks ${want}"
done
grep -qF "poll_interval: 3  # ${work}/site.conf:$(line_of sminfo_polling_timeout) sminfo_polling_timeout 3000" \
  "${work}/site.yaml" || fail "poll_interval not converted with its source line"

# The file names go into YAML comments escaped: the site file under a folder whose name holds a newline, a
# '#', quotes and an escape byte converts to a policy PyYAML reads (the same mapping as above: only the
# comments differ), with the newline shown as \x0a.
odd="${work}/odd"$'\n'"name: #1 \"q\" 'x' "$'\x1b'
mkdir "${odd}"
cp "${work}/site.conf" "${odd}/site.conf"
"${SMD_BIN}" import-opensm-conf "${odd}/site.conf" -o "${work}/odd.yaml" 2>"${work}/odd.err" ||
  fail "site file under an odd name: exit $?: $(cat "${work}/odd.err")"
python3 - "${work}/odd.yaml" "${work}/site.yaml" <<'PY' || fail "the odd name broke the YAML: $(head -c 600 "${work}/odd.yaml")"
import sys, yaml
odd, site = (yaml.safe_load(open(p, encoding="utf-8")) for p in sys.argv[1:3])
assert odd == site, (odd, site)
text = open(sys.argv[1], encoding="utf-8").read()
assert "odd\\x0aname: #1 \"q\" 'x' \\x1b/site.conf" in text, text[:300]
print("odd file name: escaped in the comments, the policy reads as the plain one")
PY

# File names as VALUES: written as escaped double-quoted scalars that PyYAML (here) and yaml-cpp (smd
# check-config, and tests/unit/config/yaml_scalar_test.cpp) both read back as the same bytes, U+0085 and
# U+2028 (line breaks to YAML 1.1), a C1 control, U+FFFE, quotes and a backslash included; a name that is
# not UTF-8 is not carried, with its line. Before the fix, U+0085 made PyYAML read another name.
python3 - "${work}" "${SMD_BIN}" <<'PY' || fail "file names as values"
import os, subprocess, sys, yaml
work, smd = sys.argv[1], sys.argv[2]
# (C0 controls and DEL never get this far: the opensm.conf reader refuses them at their column.)
names = ["nel\u0085.map", "ls\u2028ps\u2029.map", "c1\u009b[31m.map", "q\"u'o\\b.map", "\ufeffbom\ufffe.map"]
for name in names:
    # node_name_map_name: a file the loader reads, so check-config proves yaml-cpp found the very bytes.
    path = os.path.join(work, name)
    open(path.encode("utf-8"), "wb").close()
    conf = os.path.join(work, "values.conf")
    with open(conf, "wb") as f:
        f.write(b"node_name_map_name " + path.encode("utf-8") + b"\n")
    out = os.path.join(work, "values.yaml")
    r = subprocess.run([smd, "import-opensm-conf", conf, "-o", out], capture_output=True, timeout=30)
    assert r.returncode == 0, (name, r.stderr)
    assert b"not carried:" not in r.stderr, (name, r.stderr)
    got = yaml.safe_load(open(out, "rb"))["sm"]["node_name_map"]
    assert got == path, (name, got)
    c = subprocess.run([smd, "check-config", out], capture_output=True, timeout=30)
    assert c.returncode == 0, (name, c.stderr)
with open(conf, "wb") as f:
    f.write(b"sm_priority 3\nnode_name_map_name /x/bad\xff\xfe.map\n")
r = subprocess.run([smd, "import-opensm-conf", conf, "-o", out], capture_output=True, timeout=30)
assert r.returncode == 0, r.stderr
assert b"values.conf:2: node_name_map_name" in r.stderr and b"not valid UTF-8 at byte 6" in r.stderr, r.stderr
assert "node_name_map" not in (yaml.safe_load(open(out, "rb")) or {}).get("sm", {}), open(out, "rb").read()
# -o naming its own input (by another spelling): refused, exit 2, both named, the input untouched.
before = open(conf, "rb").read()
r = subprocess.run([smd, "import-opensm-conf", conf, "-o", os.path.join(work, ".", "values.conf")],
                   capture_output=True, timeout=30)
assert r.returncode == 2, (r.returncode, r.stderr)
assert b"is the same file as FILE" in r.stderr, r.stderr
assert open(conf, "rb").read() == before
print(f"{len(names)} awkward file names read back by PyYAML and check-config; a non-UTF-8 one not carried; -o over FILE refused")
PY

# A broken partitions.conf stops the conversion: exit 2, its line, nothing written.
printf 'Default=0x7fff : ALL=full\n' >"${work}/partitions.conf"
if "${SMD_BIN}" import-opensm-conf "${work}/site.conf" -o "${work}/broken.yaml" 2>"${work}/broken.err"; then
  fail "a partitions.conf without ';' was accepted"
fi
grep -qF "${work}/partitions.conf:" "${work}/broken.err" || fail "the partitions error does not name the file"
[[ ! -e "${work}/broken.yaml" ]] || fail "output written after an error"
echo "PASS"
