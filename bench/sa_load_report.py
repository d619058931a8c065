#!/usr/bin/env python3
"""bench/sa_load.sh's table: one row per SM from RAW/<sm>/ (client-*.json, lat-*.txt, verdict.txt).

  sa_load_report.py RAW SM...

answers/s is the sum over the clients of each client's answers / its own load seconds. p50/p99/max are
nearest-rank percentiles over every client's latencies together (lat-*.txt, microseconds, send to the
matching answer). timeouts counts requests with no answer within 1 s (no retries); "status != 0" counts
answers with a non-zero MAD status. light sweeps is smd's smd_sweeps_total{kind="light"} before -> after
the load ("-" for OpenSM: not exposed). Also writes RAW/report.json.
"""
import glob
import json
import math
import os
import sys



def cpu_text(v, key, answers):
    """CPU microseconds per answer of the SM process (or of smd's SA thread) over the load window."""
    try:
        ticks, hz = int(v[key]), int(v['hz'])
    except (KeyError, ValueError):
        return '-'
    if not answers or (key == 'cpu_sa_ticks' and ticks == 0 and v.get('cpu_sm_ticks') in (None, '0')):
        return '-'
    return f"{ticks / hz * 1e6 / answers:.1f}"


def light_text(v):
    """Light sweeps counted over the idle window and over the load window (same length): 'idle / load'."""
    def delta(a, b):
        try:
            return str(int(float(v[b])) - int(float(v[a])))
        except (KeyError, ValueError):
            return '-'
    return f"{delta('idle_before', 'idle_after')} / {delta('light_before', 'light_after')}"

def pct(sorted_values, q):
    """Nearest-rank percentile q (0..100) of a sorted list; 0 when empty."""
    if not sorted_values:
        return 0
    rank = max(1, math.ceil(q / 100 * len(sorted_values)))
    return sorted_values[rank - 1]


def verdict(d):
    """verdict.txt as a dict of key=value words, or {'text': line} when it is a sentence."""
    path = os.path.join(d, 'verdict.txt')
    if not os.path.exists(path):
        return {'text': 'not run'}
    text = open(path).read().strip()
    if '=' not in text:
        return {'text': text}
    return dict(w.split('=', 1) for w in text.split())


def sm_row(raw, sm):
    """The figures of one SM, or None with a reason."""
    d = os.path.join(raw, sm)
    v = verdict(d)
    if 'text' in v:
        return {'sm': sm, 'note': v['text']}
    clients = [json.load(open(f)) for f in sorted(glob.glob(os.path.join(d, 'client-*.json'))) if os.path.getsize(f)]
    lat = []
    for f in glob.glob(os.path.join(d, 'lat-*.txt')):
        lat.extend(int(x) for x in open(f).read().split())
    lat.sort()
    return {
        'sm': sm,
        'clients': len(clients),
        'window': clients[0]['window'] if clients else 0,
        'answers': sum(c['answers'] for c in clients),
        'answers_per_s': sum(c['answers_per_s'] for c in clients),
        'p50_us': pct(lat, 50),
        'p99_us': pct(lat, 99),
        'max_us': lat[-1] if lat else 0,
        'timeouts': sum(c['timeouts'] + c['unroutable'] for c in clients),
        'status_errors': sum(c['status_errors'] for c in clients),
        'light_sweeps': light_text(v),
        'cpu_sm': cpu_text(v, 'cpu_sm_ticks', sum(c['answers'] for c in clients)),
        'cpu_sa': cpu_text(v, 'cpu_sa_ticks', sum(c['answers'] for c in clients)) if sm == 'smd' else '-',
        'clients_rc': v.get('clients_rc', '-'),
    }


def main():
    raw, sms = sys.argv[1], sys.argv[2:]
    rows = [sm_row(raw, sm) for sm in sms]
    print('| SM | clients x window | answers | answers/s | p50 us | p99 us | max us | timeouts | status != 0 | light sweeps idle / under load | SM CPU us/answer | SA thread CPU us/answer |')
    print('|---|---|---|---|---|---|---|---|---|---|---|---|')
    for r in rows:
        if 'note' in r:
            print(f"| {r['sm']} | {r['note']} | | | | | | | | | | |")
            continue
        print(f"| {r['sm']} | {r['clients']} x {r['window']} | {r['answers']} | {r['answers_per_s']:.0f} | "
              f"{r['p50_us']} | {r['p99_us']} | {r['max_us']} | {r['timeouts']} | {r['status_errors']} | "
              f"{r['light_sweeps']} | {r['cpu_sm']} | {r['cpu_sa']} |")
    with open(os.path.join(raw, 'report.json'), 'w') as f:
        json.dump(rows, f, indent=1)
    return 0


if __name__ == '__main__':
    sys.exit(main())
