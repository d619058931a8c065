#!/usr/bin/env python3
"""The join-storm table (bench/mcast_join_storm.sh): one row per SM, and the ratio smd / OpenSM.

    mcast_join_storm_report.py RAW CHECK_MFT SM...

For each SM, RAW/SM/ holds verdict.txt (t0_ns: first join sent; mft_watch's settled_unix_ns: the first MFT
round of the settled state), trace.txt (smpcount.so: "ns method attr" per SMP the SM sent), members.count,
join.jsonl (the client's answers and summary), ibnetdiscover*.txt and ibroute-M.txt (the MFTs read back). The read-back
is judged by CHECK_MFT (tests/integration/check_mft.py), which knows nothing of either SM.
"""
import json
import re
import subprocess
import sys

SET = 0x02
ATTR_MFT = 0x001B


def read_kv(path):
    kv = {}
    try:
        for word in open(path, encoding="utf-8").read().split():
            if "=" in word:
                k, v = word.split("=", 1)
                kv[k] = v
    except FileNotFoundError:
        pass
    return kv


def smps_between(trace, t0, t1):
    total = mft_sets = 0
    last_mft = 0
    try:
        for line in open(trace, encoding="utf-8"):
            f = line.split()
            if len(f) != 3:
                continue
            ns, method, attr = int(f[0]), int(f[1], 16), int(f[2], 16)
            if t0 <= ns <= t1:
                total += 1
                if method == SET and attr == ATTR_MFT:
                    mft_sets += 1
            if ns >= t0 and method == SET and attr == ATTR_MFT:
                last_mft = max(last_mft, ns)
    except FileNotFoundError:
        return None, None, None
    return total, mft_sets, last_mft


def check(check_mft, d, mlid):
    """check_mft.py over the read-back: ok, and "used of total switch links" from its summary line."""
    members = open(f"{d}/members.txt", encoding="utf-8").read().split()
    with open(f"{d}/groups.txt", "w", encoding="utf-8") as out:
        out.write(f"{mlid} {' '.join(members)}\n")
    cmd = [sys.executable, check_mft, "--netdiscover", f"{d}/ibnetdiscover.txt", "--mft", f"{d}/ibroute-M.txt",
           "--groups", f"{d}/groups.txt", "--expect-groups", "1"]
    r = subprocess.run(cmd, capture_output=True, text=True, check=False)
    m = re.search(r"\((\d+) of (\d+) switch links used\)", r.stdout)
    out = {"ok": r.returncode == 0, "tree_links": f"{m.group(1)} of {m.group(2)}" if m else "-"}
    if r.returncode != 0:
        out["error"] = (r.stderr or r.stdout).strip().splitlines()[:1] or ["no output"]
    return out


def join_summary(path):
    """The sa_client join summary line: ports asked, failed."""
    try:
        for line in open(path, encoding="utf-8"):
            if '"summary"' in line:
                j = json.loads(line)
                return f"{j['ports'] - j['failed']} of {j['ports']}"
    except (FileNotFoundError, json.JSONDecodeError, KeyError):
        pass
    return "-"


def snm_joins(d):
    """--mode snm: over every join answer (the first port's and the storm's): answered, refused, the MLIDs the
    answers carry, and the latency p50/p99 (ms) of the answered ones."""
    ok = refused = 0
    mlids, lat = set(), []
    for name in ("join-first.jsonl", "join.jsonl"):
        try:
            lines = open(f"{d}/{name}", encoding="utf-8").read().splitlines()
        except FileNotFoundError:
            continue
        for line in lines:
            j = json.loads(line)
            if "summary" in j:
                continue
            if "record" in j:  # the client keeps the record of status-0 answers only
                ok += 1
                mlids.add(j["record"]["mlid"].lower())
                lat.append(j.get("latency_us", 0) / 1000)
            else:
                refused += 1
    lat.sort()

    def pct(p):
        return f"{lat[min(len(lat) - 1, int(p * len(lat)))]:.1f}" if lat else "-"

    return {"ok": ok, "refused": refused, "mlids": len(mlids), "p50": pct(0.50), "p99": pct(0.99)}


def snm_table(raw, sms):
    print("\n| SM (--mode snm) | joins answered | joins refused | MLIDs used | join latency p50 (ms) | p99 (ms) |")
    print("|---|---|---|---|---|---|")
    for sm in sms:
        s = snm_joins(f"{raw}/{sm}")
        print(f"| {sm} | {s['ok']} | {s['refused']} | {s['mlids']} | {s['p50']} | {s['p99']} |")


def main():
    if len(sys.argv) < 4:
        print(__doc__, file=sys.stderr)
        return 2
    raw, check_mft, sms = sys.argv[1], sys.argv[2], sys.argv[3:]
    rows = {}
    print("| SM | members | joins answered | time to settled MFTs (ms) | SMPs sent | MFT Sets | "
          "last MFT Set (ms) | read-back | tree links |")
    print("|---|---|---|---|---|---|---|---|---|")
    for sm in sms:
        d = f"{raw}/{sm}"
        v = read_kv(f"{d}/verdict.txt")
        if v.get("settled") != "1":
            print(f"| {sm} | - | - | not settled | - | - | - | - | - |")
            continue
        t0, t1 = int(v["t0_ns"]), int(v["settled_unix_ns"])
        total, mft_sets, last_mft = smps_between(f"{d}/trace.txt", t0, t1)
        members = open(f"{d}/members.count", encoding="utf-8").read().strip()
        c = check(check_mft, d, v.get("mlid", "0xc000"))
        ms = max(0.0, (t1 - t0) / 1e6)
        rows[sm] = ms
        last = f"{(last_mft - t0) / 1e6:.0f}" if last_mft else "-"
        verdict = "ok" if c.get("ok") else "FAIL " + " ".join(c.get("error", []))
        print(f"| {sm} | {members} | {join_summary(f'{d}/join.jsonl')} | {ms:.0f} | {total} | {mft_sets} | {last} | "
              f"{verdict} | {c.get('tree_links', '-')} |")
    if "smd" in rows and "opensm" in rows and rows["opensm"] > 0:
        print(f"\nsmd / OpenSM time: {rows['smd'] / rows['opensm']:.2f}x")
    if any(read_kv(f"{raw}/{sm}/verdict.txt").get("mode") == "snm" for sm in sms):
        snm_table(raw, sms)
    return 0


if __name__ == "__main__":
    sys.exit(main())
