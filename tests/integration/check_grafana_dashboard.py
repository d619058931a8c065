#!/usr/bin/env python3
"""Every query of a Grafana dashboard asked of a real Prometheus: each must come back with data.

usage: check_grafana_dashboard.py DASHBOARD PROM_URL METRICS_TEXT --var NAME=VALUE... [--positive EXPR...]
                                  [--wait-seconds S] [--covers FAMILY...]

DASHBOARD is the JSON as shipped (Grafana's import format); its panels are read from the file, rows' nested
panels included. Before a query goes out, each --var replaces $NAME (longest names first, so $__rate_interval
is not read as $__rate). A query must come back `success` with at least one sample whose value is a finite
number; a dashboard whose panel is empty on a fabric where its events happened is a broken panel.
METRICS_TEXT is the endpoint's scrape: every smd_* family a query names must be one smd exported (a query of
a family smd does not export would only ever be empty). The dashboard's shape is checked as well: the
datasource is the ${DS_PROMETHEUS} import input everywhere, panel ids are unique, no query pads an empty
answer (`or vector(`). --positive EXPR (after the same substitution) must have a sample above 0 within
--wait-seconds, before any panel is asked: the events the test caused reached Prometheus. --covers FAMILY: some
panel's query must name the smd_* family FAMILY (a family the dashboard promises to show). Exits 1 naming the
panel and query that failed. Each dashboard variable (label_values(METRIC, LABEL)) must offer the value its
--var gave the queries.
"""
import argparse
import json
import math
import re
import sys
import time
import urllib.parse
import urllib.request

DS_UID = "${DS_PROMETHEUS}"


def fail(msg):
    print(f"FAIL: {msg}", file=sys.stderr)
    sys.exit(1)


def all_panels(panels):
    for p in panels:
        yield p
        yield from all_panels(p.get("panels", []))


def check_shape(dash):
    inputs = [i for i in dash.get("__inputs", []) if i.get("name") == "DS_PROMETHEUS"]
    if len(inputs) != 1 or inputs[0].get("pluginId") != "prometheus":
        fail("the dashboard has no DS_PROMETHEUS datasource input of plugin prometheus")
    ids = []
    for p in all_panels(dash["panels"]):
        ids.append(p.get("id"))
        if "gridPos" not in p:
            fail(f"panel '{p.get('title')}' has no gridPos")
        if p.get("type") == "row":
            continue
        if p.get("datasource", {}).get("uid") != DS_UID:
            fail(f"panel '{p.get('title')}' does not use the {DS_UID} input")
        if not p.get("targets"):
            fail(f"panel '{p.get('title')}' has no query")
        for tgt in p["targets"]:
            if tgt.get("datasource", {}).get("uid") != DS_UID:
                fail(f"panel '{p.get('title')}' query {tgt.get('refId')} does not use the {DS_UID} input")
            if re.search(r"\bor\b[^)]*\bvector\s*\(", tgt.get("expr", "")):
                fail(f"panel '{p.get('title')}' pads an empty answer: {tgt['expr']}")
    if len(ids) != len(set(ids)):
        fail(f"panel ids are not unique: {sorted(ids)}")
    for v in dash.get("templating", {}).get("list", []):
        if v.get("datasource", {}).get("uid") != DS_UID:
            fail(f"variable ${v.get('name')} does not use the {DS_UID} input")


def exported_families(metrics_text):
    families = set()
    for line in metrics_text.splitlines():
        m = re.match(r"# TYPE (\S+) (\S+)", line)
        if m:
            families.add(m.group(1))
            if m.group(2) == "histogram":
                families.update(m.group(1) + s for s in ("_bucket", "_sum", "_count"))
    return families


def substitute(expr, variables):
    for name in sorted(variables, key=len, reverse=True):
        expr = expr.replace("$" + name, variables[name])
    if "$" in expr:
        fail(f"a variable has no --var value: {expr}")
    return expr


def http_json(url, what):
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            return json.load(r)
    except urllib.error.HTTPError as e:
        fail(f"Prometheus refused {what}: HTTP {e.code}: {e.read().decode(errors='replace')}")
    except urllib.error.URLError as e:
        fail(f"Prometheus did not answer {what}: {e.reason}")


def query(prom, expr):
    answer = http_json(prom.rstrip("/") + "/api/v1/query?" + urllib.parse.urlencode({"query": expr}), expr)
    if answer.get("status") != "success":
        fail(f"Prometheus answered {answer} to {expr}")
    data = answer["data"]
    if data["resultType"] == "vector":
        return [(s["metric"], float(s["value"][1])) for s in data["result"]]
    if data["resultType"] == "scalar":
        return [({}, float(data["result"][1]))]
    fail(f"unexpected result type {data['resultType']} for {expr}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dashboard")
    ap.add_argument("prom_url")
    ap.add_argument("metrics_text")
    ap.add_argument("--var", action="append", default=[], help="NAME=VALUE for $NAME")
    ap.add_argument("--positive", action="append", default=[], help="a query that must have a sample > 0")
    ap.add_argument("--wait-seconds", type=float, default=0, help="how long the --positive queries may take to hold")
    ap.add_argument("--covers", action="append", default=[], help="an smd_* family some panel must show")
    a = ap.parse_args()
    dash = json.load(open(a.dashboard))
    variables = dict(v.split("=", 1) for v in a.var)
    check_shape(dash)
    families = exported_families(open(a.metrics_text).read())
    shown = set()
    for p in all_panels(dash["panels"]):
        for tgt in p.get("targets", []):
            for name in sorted(set(re.findall(r"\b(smd_[a-z0-9_]+)", tgt["expr"]))):
                if name not in families:
                    fail(f"panel '{p['title']}' asks for {name}, which smd does not export")
                shown.add(name)
    for family in a.covers:
        if family not in shown:
            fail(f"no panel shows {family}")
        print(f"ok  shown: {family}")
    # The events first: until they are in Prometheus, an empty panel proves nothing.
    deadline = time.monotonic() + a.wait_seconds
    for expr in a.positive:
        while True:
            samples = query(a.prom_url, substitute(expr, variables))
            if any(v > 0 for _, v in samples):
                break
            if time.monotonic() >= deadline:
                fail(f"expected a sample above 0 within {a.wait_seconds} s: {expr} -> {samples}")
            time.sleep(0.5)
        print(f"ok  > 0: {expr}")
    # The dashboard's variables: label_values(METRIC, LABEL) must offer the value the queries were given.
    for v in dash.get("templating", {}).get("list", []):
        q = v.get("query", {})
        q = q.get("query", "") if isinstance(q, dict) else q
        m = re.fullmatch(r"label_values\((\w+), *(\w+)\)", q)
        if not m:
            fail(f"variable ${v.get('name')}: not a label_values(METRIC, LABEL) query: {q}")
        metric, label = m.groups()
        if metric not in families:
            fail(f"variable ${v.get('name')} asks for {metric}, which smd does not export")
        url = f"{a.prom_url.rstrip('/')}/api/v1/label/{label}/values?" + urllib.parse.urlencode({"match[]": metric})
        offered = http_json(url, f"the values of {label}")["data"]
        if variables.get(v["name"]) not in offered:
            fail(f"variable ${v['name']} offers {offered}, not {variables.get(v['name'])}")
        print(f"ok  variable ${v['name']}: {offered}")
    asked = 0
    for p in all_panels(dash["panels"]):
        for tgt in p.get("targets", []):
            expr = tgt["expr"]
            samples = query(a.prom_url, substitute(expr, variables))
            finite = [v for _, v in samples if math.isfinite(v)]
            if not finite:
                fail(f"panel '{p['title']}' query {tgt['refId']} has no data: {expr} -> {samples}")
            asked += 1
            print(f"ok  {p['title']} [{tgt['refId']}]: {len(samples)} series")
    print(f"{asked} panel queries answered with data")


if __name__ == "__main__":
    main()
