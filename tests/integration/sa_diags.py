"""Shared helpers of the sa_check_*.py checkers: run saquery and the SMP diags (infiniband-diags), each
under a timeout, and parse their dumps into plain dicts.

Run under the umad2sim shim (the checkers are started by sa_common.sh's sa_check, which sets LD_PRELOAD,
IBSIM_SOCKNAME and the working directory). Nothing here knows smd.
"""
import os
import re
import subprocess

QUERY_TIMEOUT = int(os.environ.get('SA_QUERY_TIMEOUT', '10'))
SMKEY = os.environ.get('SA_TEST_SMKEY', '1')

# "Key.......value", "Key:.......value" (libibmad's mad_dump layouts, the same in saquery and smpquery).
FIELD = re.compile(r'^\s*([^.:\s][^.:]*?)\s*:?\.{3,}:?\s*(.*?)\s*$')
SA_STATUS = re.compile(r'returned (0x[0-9a-fA-F]+)')

# Record status values that are not SA status codes.
TIMEOUT = 'timeout'
ERROR = 'error'


def run(cmd, timeout=QUERY_TIMEOUT):
    """(returncode, stdout, stderr); 124 when the command outlives `timeout` seconds."""
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return 124, '', f'{cmd[0]}: no answer within {timeout} s'
    return p.returncode, p.stdout, p.stderr


def must(cmd, timeout=QUERY_TIMEOUT):
    """stdout of a witness command that has to work (a failed witness is a broken test, not an SA bug)."""
    rc, out, err = run(cmd, timeout)
    if rc != 0:
        raise SystemExit(f"witness {' '.join(cmd)} failed ({rc}): {err.strip()[-300:]}")
    return out


def num(text):
    """An integer from a dump value ("0x40", "64", "0x000000a1"), or None."""
    try:
        return int(text.split()[0], 0)
    except (ValueError, IndexError):
        return None


def parse_dump(text):
    """Records of a saquery dump: a record starts at an unindented line ending in ':'. Each record is
    {'_title': ..., '_lines': [raw lines], field: value, ...}; a field seen twice keeps the first."""
    records, cur = [], None
    for line in text.splitlines():
        if not line.strip():
            continue
        if not line[0].isspace() and line.rstrip().endswith(':') and not line.startswith('ERROR'):
            cur = {'_title': line.strip()[:-1], '_lines': []}
            records.append(cur)
            continue
        if cur is None:
            continue
        cur['_lines'].append(line)
        m = FIELD.match(line)
        if m:
            cur.setdefault(m.group(1), m.group(2))
    return records


def parse_fields(text):
    """The fields of one smpquery dump (first occurrence of each)."""
    out = {}
    for line in text.splitlines():
        m = FIELD.match(line)
        if m:
            out.setdefault(m.group(1), m.group(2))
    return out


# Queries that got no answer at first (saquery waits 1 s and sends once: the shim ignores retries) and
# were sent again; the checkers print how many.
RETRIES = {'count': 0, 'last': ''}


def saquery(*args, smkey=False, tries=3):
    """(status, records): status 0 with the records, an SA status code (0x0300 ...), TIMEOUT or ERROR.
    A query with no answer at all is sent up to `tries` times (an SA status is final)."""
    cmd = ['saquery'] + (['--smkey', SMKEY] if smkey else []) + list(args)
    for attempt in range(tries):
        if attempt:
            RETRIES['count'] += 1
            RETRIES['last'] = ' '.join(cmd)
        rc, out, err = run(cmd)
        if rc == 0:
            return 0, parse_dump(out)
        m = SA_STATUS.search(out + err)
        if m:
            return int(m.group(1), 16), []
    return (TIMEOUT if rc == 124 else ERROR), []


def one(status, records, what):
    """The single record of a filtered query, or an error string."""
    if status != 0:
        return None, f"{what}: status {status if isinstance(status, str) else hex(status)}"
    if len(records) != 1:
        return None, f"{what}: {len(records)} records, expected 1"
    return records[0], None


def bar_row(lines, label):
    """The integers of a "LABEL: a| b| c|" row (SL2VL and VLArb dumps), one list per such row."""
    rows = []
    for line in lines:
        s = line.strip()
        if s.startswith(label):
            rows.append([int(v, 0) for v in re.split(r'[|\s]+', s.split(':', 1)[1]) if v])
    return rows
