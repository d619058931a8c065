#!/usr/bin/env python3
"""The table of bench/lossy.sh, from the raw directory its runs wrote (one RAW/FABRIC-RATE-SM/result.txt
and check.txt per measurement). Usage: lossy_report.py RAW "FABRICS" "RATES" "SMS" > results/lossy.md"""
import os
import re
import sys

LABEL = {
    'smd': 'smd --once (defaults: 3 retries, 3 re-sweeps)',
    'smd-r8': 'smd --once, mad.retries 8',
    'smd-daemon': 'smd daemon (defaults), until SUBNET UP',
    'opensm': 'OpenSM 3.3.23 `-o -R ftree`',
}
ROUTES = re.compile(r'(\d+)/(\d+) switch->LID routes deliver')


def main():
    raw, fabrics, rates, sms = sys.argv[1], sys.argv[2].split(), sys.argv[3].split(), sys.argv[4].split()
    print(f"Raw outputs: `{raw}`\n")
    print("| fabric | loss per switch port | SM | exit | wall s | sweeps | SMPs sent | retries "
          "| lost after all retries | links Active | LIDs set | routes deliver | check_fabric |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for f in fabrics:
        for r in rates:
            for sm in sms:
                d = os.path.join(raw, f"{f}-{r}-{sm}")
                if not os.path.exists(os.path.join(d, 'result.txt')):
                    print(f"| {f} | {r}% | {LABEL.get(sm, sm)} | (no result) |||||||||||")
                    continue
                v = dict(line.strip().split('=', 1) for line in open(os.path.join(d, 'result.txt')) if '=' in line)
                routes = '-'
                if os.path.exists(os.path.join(d, 'check.txt')):
                    m = ROUTES.search(open(os.path.join(d, 'check.txt')).read())
                    if m:
                        routes = f"{m.group(1)}/{m.group(2)}"
                print(f"| {f} | {r}% | {LABEL.get(sm, sm)} | {v.get('rc')} | {v.get('wall')} "
                      f"| {v.get('sweeps') or '-'} | {v.get('smps')} | {v.get('retries') or '-'} "
                      f"| {v.get('lost') or '-'} | {v.get('active', '?')}/{v.get('links', '?')} "
                      f"| {v.get('lids', '?')}/{v.get('endports', '?')} | {routes} | {v.get('check')} |")


if __name__ == '__main__':
    main()
