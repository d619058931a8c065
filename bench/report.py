#!/usr/bin/env python3
"""Collect the raw outputs of bench/run.sh into one table (stdout) and bench/results/latest.{md,json}.

Every figure is read from files the run wrote: run.txt (wall clock), time.txt (/usr/bin/time -v),
smpcount.txt (the umad_send counting shim), sm.out / opensm.log (the SMs' own output), readback.json,
quality.json (tables as read back from the switches), stats.json (netfile counts, SMP lower bound).
"""
import argparse
import datetime
import json
import os
import platform
import re
import subprocess
import time

FABRIC_TITLES = {
    'ls512': '2-level leaf/spine, 32 leaves x 16 hosts, 16 spines',
    'k8': '3-level 8-ary tree',
    'k12': '3-level 12-ary tree',
    'k16': '3-level 16-ary tree',
    'k20': '3-level 20-ary tree',
    'k24': '3-level 24-ary tree',
    'k28': '3-level 28-ary tree',
    'k30': '3-level 30-ary tree',
    'torus': '8x8 torus, 2 hosts/switch',
    'random': 'random, 64 switches, degree 4, 2 hosts/switch, seed 1',
}


# SMP attributes the lower bound does not count (P_Key, SL2VL and VLArb tables, MFT, SMInfo, GUIDInfo):
# a complete SM sends them, and each SM's ratio to the bound is taken over the others only.
OUTSIDE_BOUND = {'0x0016', '0x0017', '0x0018', '0x001b', '0x0020', '0x0014'}


def read(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return None


def kv(text, sep='='):
    out = {}
    for line in (text or '').splitlines():
        if sep in line:
            k, v = line.split(sep, 1)
            out[k.strip()] = v.strip()
    return out


def sh(cmd):
    try:
        return subprocess.run(cmd, capture_output=True, text=True, timeout=30).stdout.strip()
    except Exception:
        return ''


def osm_log_info(text, start):
    info = {}
    if not text:
        return info
    year = time.localtime(start).tm_year
    for line in text.splitlines():
        m = re.match(r'^(\w{3} +\d+ \d\d:\d\d:\d\d) (\d{6}) \[[0-9A-Fa-f]+\] 0x\w\w -> (.*)$', line)
        if not m:
            continue
        msg = m.group(3)
        if msg.strip() == 'SUBNET UP' and 'subnet_up_s' not in info:
            ts = time.mktime(time.strptime(f"{year} {m.group(1)}", "%Y %b %d %H:%M:%S")) + int(m.group(2)) / 1e6
            info['subnet_up_s'] = ts - start
        m2 = re.search(r'(\S+) tables configured on all switches', msg)
        if m2:
            info['engine'] = m2.group(1)
        if 'ERR ' in msg:
            info['errors'] = info.get('errors', 0) + 1
    return info


def read_kv(path):
    """The key=value words of a probe's or replay's output file; {} when it is missing."""
    return dict(tok.partition('=')[::2] for tok in (read(path) or '').split())


def smd_out_info(text):
    info = {}
    if not text:
        return info
    m = re.search(r'SMPs:\s+(\d+) sent, (\d+) retries, (\d+) timeouts', text)
    if m:
        info['smps_own'], info['retries'], info['timeouts'] = int(m.group(1)), int(m.group(2)), int(m.group(3))
    # The summary's line ("  routing:  engine updn; declined ftree: ..."), not the log's "routing: engine ftree declined".
    m = re.search(r'^\s+routing:\s+engine ([^;\s]+)', text, re.M)
    if m:
        info['engine'] = m.group(1)
    info['subnet_up'] = bool(re.search(r'\bSUBNET UP\b', text)) and 'SUBNET NOT UP' not in text
    m = re.search(r'^\s+total\s+([\d.]+) ms', text, re.M)
    if m:
        info['own_total_s'] = float(m.group(1)) / 1000
    # The summary's phases, grouped as smp_replay's segments are: reads, writes up to Armed, Active.
    phases = {k.strip(): float(v) for k, v in re.findall(r'^    ([^\n]+?)\s{2,}([\d.]+) ms$', text, re.M)}
    if 'heavy sweep: fabric discovered' in phases and 'links active' in phases:
        writes = [v for k, v in phases.items() if k.split(' (')[0] in (
            'endports configured', 'switches configured', 'partitions configured', 'multicast configured',
            'QoS configured', 'links armed')]
        info['phase_ms'] = dict(reads=phases['heavy sweep: fabric discovered'], writes=sum(writes),
                                active=phases['links active'])
    return info


def collect(raw, fab, sm):
    d = os.path.join(raw, fab, sm)
    r = {'fabric': fab, 'sm': sm, 'dir': d}
    run = kv(read(os.path.join(d, 'run.txt')))
    if not run:
        r['missing'] = True
        return r
    r['rc'] = int(run.get('rc', -1))
    r['start'] = float(run['start'])
    r['wall_s'] = float(run['end']) - float(run['start'])
    r['readback_rc'] = int(run.get('readback_rc', -1))
    t = kv(read(os.path.join(d, 'time.txt')), ':')
    if 'Maximum resident set size (kbytes)' in t:
        r['rss_mb'] = int(t['Maximum resident set size (kbytes)']) / 1024
    if 'User time (seconds)' in t and 'System time (seconds)' in t:
        r['cpu_user_s'] = float(t['User time (seconds)'])
        r['cpu_sys_s'] = float(t['System time (seconds)'])
    cnt = kv(read(os.path.join(d, 'smpcount.txt')), ' ')
    if 'smp_total' in cnt:
        r['smps_shim'] = int(cnt['smp_total'])
        r['smp_by_attr'] = {k: int(v) for k, v in cnt.items() if k.startswith('attr_')}
        r['mad_other'] = int(cnt.get('mad_other', 0))
        # The SMPs the lower bound counts: all but the tables it leaves out (bench/README.md).
        r['smps_bounded'] = r['smps_shim'] - sum(v for k, v in r['smp_by_attr'].items()
                                                 if k.split('_')[-1] in OUTSIDE_BOUND)
    out = read(os.path.join(d, 'sm.out'))
    if sm == 'smd':
        r.update(smd_out_info(out))
    else:
        r.update(osm_log_info(read(os.path.join(d, 'opensm.log')), r['start']))
        r['subnet_up'] = 'subnet_up_s' in r
        root = read(os.path.join(d, 'root_guids.txt'))
        if root and 'engine' in r:
            r['engine'] += f", root {root.strip()}"
    rb = read(os.path.join(d, 'readback.json'))
    if rb:
        rb = json.loads(rb)
        r['links_not_active'] = rb['link_ends_not_active']
        r['link_ends'] = rb['link_ends']
        r['readback_errors'] = rb['errors'][:5]
        r['readback_s'] = rb['seconds']
    q = read(os.path.join(d, 'quality.json'))
    if q:
        r['quality'] = json.loads(q)
    r['out_tail'] = (out or '').splitlines()[-25:]
    return r


def fmt(v, spec='', none='-'):
    if v is None:
        return none
    return format(v, spec)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--raw', required=True)
    ap.add_argument('--fabrics', required=True)
    ap.add_argument('--cmd', required=True)
    ap.add_argument('--engines', required=True)
    ap.add_argument('--smd', default='')
    ap.add_argument('--md', required=True)
    ap.add_argument('--json', required=True)
    args = ap.parse_args()

    fabrics = args.fabrics.split(',')
    rows, fab_info = [], {}
    for f in fabrics:
        st = read(os.path.join(args.raw, f, 'stats.json'))
        fab_info[f] = json.loads(st) if st else {}
        fab_info[f]['generator'] = (read(os.path.join(args.raw, f, 'generator.txt')) or '').strip()
        fab_info[f]['ibsim_args'] = (read(os.path.join(args.raw, f, 'ibsim_args.txt')) or '').strip()
        probe = read_kv(os.path.join(args.raw, f, 'probe', 'probe.txt'))
        if probe.get('probe_rc') == '0' and 'reread_mad_per_s' in probe:
            fab_info[f]['probe_smps_per_s'] = float(probe['reread_mad_per_s'])
            fab_info[f]['probe_smps'] = int(probe['reread_smps'])
        replay = read_kv(os.path.join(args.raw, f, 'replay', 'replay.txt'))
        if replay.get('replay_rc') == '0' and 'replay_ms' in replay:
            fab_info[f]['replay_ms'] = float(replay['replay_ms'])
            fab_info[f]['replay_smps'] = int(replay['replay_smps'])
            fab_info[f]['replay_seg_ms'] = [float(x) for x in replay.get('seg_ms', '').split(',') if x]
        for sm in ('opensm', 'smd'):
            rows.append(collect(args.raw, f, sm))

    mem_gb = os.sysconf('SC_PAGE_SIZE') * os.sysconf('SC_PHYS_PAGES') / 2**30
    cpu = ''
    for line in (read('/proc/cpuinfo') or '').splitlines():
        if line.startswith('model name'):
            cpu = line.split(':', 1)[1].strip()
            break
    ver = lambda p: sh(['dpkg-query', '-W', '-f', '${Version}', p])
    meta = dict(date=datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC'),
                nproc=os.cpu_count(), ram_gb=round(mem_gb, 1), cpu=cpu, kernel=platform.release(),
                opensm=ver('opensm'), ibsim=ver('ibsim-utils'), diags=ver('infiniband-diags'),
                smd_commit=sh(['git', '-C', os.path.dirname(os.path.abspath(__file__)), 'rev-parse', '--short', 'HEAD']),
                smd_dirty=bool(sh(['git', '-C', os.path.dirname(os.path.abspath(__file__)), 'status', '--porcelain',
                                   '--untracked-files=no'])),
                smd_binary=args.smd, smd_binary_mtime=(time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime(
                    os.path.getmtime(args.smd))) if args.smd and os.path.exists(args.smd) else ''),
                loadavg=(read('/proc/loadavg') or '').split()[:3],
                command=args.cmd, smd_engines=args.engines, raw=args.raw)

    # ---- main table
    hdr = ['fabric', 'hosts/sw', 'SM (engine)', 'exit', 'wall s', 'SUBNET UP s', 'SMPs sent', 'SMPs/LB',
           'RSS MB', 'links !Active', 'bad routes', 'shift max (shifts)', 'perm mean', 'eBB', 'CDG acyclic']
    lines = []
    for r in rows:
        fi = fab_info[r['fabric']]
        lb = fi.get('lower_bound')
        q = r.get('quality', {})
        if q and q.get('routes_checked') and q.get('undelivered') == q.get('routes_checked'):
            q = dict(undelivered=q['undelivered'])  # nothing routed: load figures would be meaningless
        if r.get('missing'):
            lines.append([r['fabric'], '', r['sm'], 'not run'] + [''] * (len(hdr) - 4))
            continue
        smps = r.get('smps_shim')
        smp_txt = fmt(smps)
        if r['sm'] == 'smd' and 'smps_own' in r:
            smp_txt = f"{r['smps_own']} own / {fmt(smps)} shim"
        up = r.get('subnet_up_s') if r['sm'] == 'opensm' else r.get('own_total_s')
        up_txt = fmt(up, '.2f')
        if r['sm'] == 'smd' and up is not None:
            up_txt += ' (own)'
        if not r.get('subnet_up'):
            up_txt = 'NOT UP'
        lines.append([
            r['fabric'], f"{fi.get('cas', '?')}/{fi.get('switches', '?')}",
            f"{r['sm']} ({r.get('engine', '?')})", str(r['rc']), fmt(r['wall_s'], '.2f'), up_txt, smp_txt,
            fmt(r['smps_bounded'] / lb if r.get('smps_bounded') and lb else None, '.2f'), fmt(r.get('rss_mb'), '.1f'),
            f"{fmt(r.get('links_not_active'))}/{fmt(r.get('link_ends'))}",
            fmt(q.get('undelivered')),
            f"{fmt(q.get('shift_max'))} ({fmt(q.get('shifts_run'))})", fmt(q.get('perm_mean'), '.2f'),
            fmt(q.get('ebb'), '.3f'),
            {True: 'yes', False: f"NO ({q.get('cdg_channels_on_cycles')} ch)", None: '-'}[q.get('deadlock_free')]])

    # ---- ratios
    rhdr = ['fabric', 'time smd/OpenSM', 'SMPs smd/OpenSM', 'SMP lower bound', 'SMPs smd/LB', 'RSS smd/OpenSM',
            'targets (k12: time <= 0.5, SMPs <= 1.1 LB, RSS <= 1)']
    rlines = []
    verdicts = {}
    for f in fabrics:
        o = next(r for r in rows if r['fabric'] == f and r['sm'] == 'opensm')
        s = next(r for r in rows if r['fabric'] == f and r['sm'] == 'smd')
        lb = fab_info[f].get('lower_bound')

        def ratio(a, b):
            return a / b if a is not None and b else None
        ok_s = s.get('rc') == 0 and s.get('subnet_up')
        tr = ratio(s.get('wall_s'), o.get('wall_s')) if ok_s else None
        # a failed smd run has no meaningful ratios
        sr = ratio(s.get('smps_shim'), o.get('smps_shim')) if ok_s else None
        lr = ratio(s.get('smps_bounded'), lb) if ok_s else None
        mr = ratio(s.get('rss_mb'), o.get('rss_mb')) if ok_s else None
        if s.get('missing'):
            verdict = 'smd not run'
        elif not ok_s:
            verdict = 'smd FAILED'
        else:
            verdict = ', '.join([
                f"time {'met' if tr is not None and tr <= 0.5 else 'missed'}",
                f"SMPs {'met' if lr is not None and lr <= 1.1 else 'missed'}",
                f"RSS {'met' if mr is not None and mr <= 1.0 else 'missed'}"])
        verdicts[f] = verdict
        rlines.append([f, fmt(tr, '.2f'), fmt(sr, '.2f'), fmt(lb), fmt(lr, '.2f'), fmt(mr, '.2f'), verdict])

    # ---- SMP rate: each SM's SMPs over its bring-up time against ibsim's steady rate (bench/probe_one.sh)
    phdr = ['fabric', 'ibsim probe SMP/s (window 64)', 'smd SMP/s (sweep)', 'smd/probe', 'OpenSM SMP/s (to SUBNET UP)',
            'OpenSM/probe']
    plines = []
    for f in fabrics:
        o = next(r for r in rows if r['fabric'] == f and r['sm'] == 'opensm')
        s = next(r for r in rows if r['fabric'] == f and r['sm'] == 'smd')
        pr = fab_info[f].get('probe_smps_per_s')
        sr = s['smps_shim'] / s['own_total_s'] if s.get('smps_shim') and s.get('own_total_s') else None
        orate = o['smps_shim'] / o['subnet_up_s'] if o.get('smps_shim') and o.get('subnet_up_s') else None
        fab_info[f]['smd_smps_per_s'] = sr
        fab_info[f]['opensm_smps_per_s'] = orate
        plines.append([f, fmt(pr, '.0f'), fmt(sr, '.0f'), fmt(sr / pr if sr and pr else None, '.2f'),
                       fmt(orate, '.0f'), fmt(orate / pr if orate and pr else None, '.2f')])

    # ---- the floor: smd's own SMPs sent again by smp_replay on a fresh ibsim (bench/replay_one.sh)
    fhdr = ['fabric', 'replay ms (reads / writes / Active)', 'smd sweep ms (reads / writes / Active)',
            'smd/replay rate', 'floor: replay/OpenSM', 'smd/OpenSM (wall)']
    flines = []
    for f in fabrics:
        o = next(r for r in rows if r['fabric'] == f and r['sm'] == 'opensm')
        s = next(r for r in rows if r['fabric'] == f and r['sm'] == 'smd')
        fi = fab_info[f]
        rms, seg = fi.get('replay_ms'), fi.get('replay_seg_ms') or []
        ph = s.get('phase_ms')
        own_ms = s['own_total_s'] * 1000 if s.get('own_total_s') else None
        ratio = rms / own_ms if rms and own_ms else None
        fi['smd_over_replay_rate'] = ratio
        fi['replay_over_opensm'] = rms / 1000 / o['wall_s'] if rms and o.get('wall_s') else None
        seg_txt = ' / '.join(fmt(x, '.0f') for x in seg[:3]) if len(seg) >= 3 else '-'
        ph_txt = f"{ph['reads']:.0f} / {ph['writes']:.0f} / {ph['active']:.0f}" if ph else '-'
        flines.append([f, f"{fmt(rms, '.0f')} ({seg_txt})", f"{fmt(own_ms, '.0f')} ({ph_txt})", fmt(ratio, '.2f'),
                       fmt(fi['replay_over_opensm'], '.2f'),
                       fmt(s['wall_s'] / o['wall_s'] if s.get('wall_s') and o.get('wall_s') else None, '.2f')])

    # ---- process CPU per SMP sent (issue 43 target 3): whole process, start to exit, user + system, the
    # shim's own work included for both SMs (the same LD_PRELOAD); a machine-independent efficiency figure
    chdr = ['fabric', 'smd CPU s (user + sys)', 'smd us/SMP', 'OpenSM CPU s (user + sys)', 'OpenSM us/SMP',
            'smd/OpenSM per SMP']
    clines = []
    for f in fabrics:
        o = next(r for r in rows if r['fabric'] == f and r['sm'] == 'opensm')
        s = next(r for r in rows if r['fabric'] == f and r['sm'] == 'smd')

        def per_smp(r):
            if 'cpu_user_s' not in r or not r.get('smps_shim'):
                return None, None
            cpu = r['cpu_user_s'] + r['cpu_sys_s']
            return cpu, cpu / r['smps_shim'] * 1e6
        s_cpu, s_us = per_smp(s)
        o_cpu, o_us = per_smp(o)
        fab_info[f]['smd_us_per_smp'] = s_us
        fab_info[f]['opensm_us_per_smp'] = o_us
        clines.append([f, f"{fmt(s_cpu, '.2f')} ({fmt(s.get('cpu_user_s'), '.2f')} + {fmt(s.get('cpu_sys_s'), '.2f')})",
                       fmt(s_us, '.1f'),
                       f"{fmt(o_cpu, '.2f')} ({fmt(o.get('cpu_user_s'), '.2f')} + {fmt(o.get('cpu_sys_s'), '.2f')})",
                       fmt(o_us, '.1f'), fmt(s_us / o_us if s_us and o_us else None, '.2f')])

    def table(h, ls):
        out = ['| ' + ' | '.join(h) + ' |', '|' + '|'.join(['---'] * len(h)) + '|']
        out += ['| ' + ' | '.join(str(c) for c in l) + ' |' for l in ls]
        return '\n'.join(out)

    def plain(h, ls):
        w = [max(len(str(x)) for x in col) for col in zip(h, *ls)]
        out = ['  '.join(str(c).ljust(w[i]) for i, c in enumerate(h))]
        out += ['  '.join(str(c).ljust(w[i]) for i, c in enumerate(l)) for l in ls]
        return '\n'.join(out)

    print()
    print(plain(hdr, lines))
    print()
    print(plain(rhdr, rlines))
    print()
    print(plain(phdr, plines))
    print()
    print(plain(fhdr, flines))
    print()
    print(plain(chdr, clines))

    md = [f"# smd vs OpenSM on ibsim — {meta['date']}", '',
          f"- command: `{meta['command']}` (smd engines: `[{meta['smd_engines']}]`)",
          f"- machine: {meta['nproc']} CPUs ({meta['cpu']}), {meta['ram_gb']} GiB RAM, Linux {meta['kernel']}",
          f"- versions: opensm {meta['opensm']}, ibsim-utils {meta['ibsim']}, infiniband-diags {meta['diags']}, "
          f"repository at {meta['smd_commit']}{' + uncommitted changes' if meta['smd_dirty'] else ''}; "
          f"smd binary `{meta['smd_binary']}` built {meta['smd_binary_mtime']}",
          f"- raw outputs: `{meta['raw']}`", '',
          'One run of each SM per fabric, each against a fresh ibsim on the same netfile. How to read this: '
          'bench/README.md.', '', '## Results', '', table(hdr, lines), '', '## smd against OpenSM and the lower bound', '',
          table(rhdr, rlines), '', '## SMP rate against ibsim\'s own', '',
          'ibsim probe: bench/probe_one.sh on a fresh ibsim (`smp_probe --window 64 --reread 20`, NodeInfo Gets '
          'over directed routes, the window kept full); smd: its SMPs over its own sweep time; OpenSM: its SMPs '
          'over the time to SUBNET UP. `-` where the probe was not built.', '',
          table(phdr, plines), '', '## smd against ibsim\'s floor for its own SMPs', '',
          'replay: bench/replay_one.sh on a fresh ibsim (`smp_replay --window 32`): every SMP smd sent in its run, '
          'in its order, sent again with the window kept full; it waits only between reads and writes and before '
          'the links go Active (discovery without its breadth-first waits, so the floor is if anything too low). '
          'The replay\'s three parts beside smd\'s phases: discovery; LIDs, LFT/P_Key/MFT blocks and Armed; Active '
          '(smd\'s sweep also holds its routing and LID computation, which the replay does not). smd/replay rate: '
          'replay time over smd\'s sweep time for the same SMPs. floor: the replay\'s time over OpenSM\'s wall '
          'time, the lowest smd/OpenSM ratio these SMPs allow on ibsim. `-` where the replay was not built.', '',
          table(fhdr, flines), '', '## Process CPU per SMP sent', '',
          'Each SM\'s whole process, start to exit (`/usr/bin/time -v`: user + system seconds), over the SMPs the '
          'counting shim saw it send: a figure the machine\'s load and speed change far less than wall time. Both '
          'carry the same LD_PRELOAD shims (umad2sim, smpcount); smd\'s also holds its --once extras (RoCE plan, '
          'state files). Issue 43 aims at smd/OpenSM <= 0.3.', '',
          table(chdr, clines), '', '## Fabrics', '']
    for f in fabrics:
        fi = fab_info[f]
        md.append(f"- **{f}**: {FABRIC_TITLES.get(f, '')}: `smd-fabric {fi.get('generator', '')}`, ibsim "
                  f"`{fi.get('ibsim_args') or '(defaults)'}`; {fi.get('cas')} hosts, {fi.get('switches')} switches, "
                  f"{fi.get('cables')} cables, max LID {fi.get('max_lid')}, SMP lower bound {fi.get('lower_bound')}")
    md += ['', '## SMPs by attribute (counting shim; get/set)', '']
    attrs = {'0x0010': 'NodeDesc', '0x0011': 'NodeInfo', '0x0012': 'SwitchInfo', '0x0015': 'PortInfo',
             '0x0016': 'PKeyTable', '0x0017': 'SL2VL', '0x0018': 'VLArb', '0x0019': 'LFT', '0x001b': 'MFT',
             '0x0020': 'SMInfo', '0x0014': 'GUIDInfo'}
    for r in rows:
        if r.get('smp_by_attr'):
            parts = []
            for k, v in sorted(r['smp_by_attr'].items(), key=lambda kv_: kv_[0][-6:]):
                _, meth, a = k.split('_')
                parts.append(f"{attrs.get(a, a)} {meth} {v}")
            md.append(f"- {r['fabric']} / {r['sm']}: " + ', '.join(parts) +
                      (f"; non-SMP MADs {r['mad_other']}" if r.get('mad_other') else ''))
    md += ['', '## Daemon link-failure timing', '',
           'Measured by `bench/repair.sh` (both SMs as daemons, one cable unlinked and relinked): see '
           '`results/repair.md`.', '']
    failures = [r for r in rows if not r.get('missing') and (r['rc'] != 0 or not r.get('subnet_up')
                                                              or r.get('readback_rc', 0) != 0)]
    if failures:
        md += ['## Failures (captured output)', '']
        for r in failures:
            md.append(f"### {r['fabric']} / {r['sm']}: exit {r['rc']}, subnet up: {r.get('subnet_up')}, "
                      f"read-back exit {r.get('readback_rc')}")
            md += ['', '```'] + r['out_tail'] + ['```', '']
    with open(args.md, 'w') as fh:
        fh.write('\n'.join(md) + '\n')
    with open(args.json, 'w') as fh:
        json.dump(dict(meta=meta, fabrics=fab_info, runs=[{k: v for k, v in r.items() if k != 'out_tail'} for r in rows],
                       verdicts=verdicts), fh, indent=1)
    print(f"\nwritten: {args.md}, {args.json}")


if __name__ == '__main__':
    main()
