#!/usr/bin/env python3
"""An `smd plan --report` page against the `--format json` output of the same run (no smd code).

Parsed with html.parser alone. Checks:
  - self-contained: no element loads anything (src, href to a URL, <link>, <iframe>, <img>) and the only
    <script> is the non-executed application/json data block, which equals the JSON's comparison;
  - the collectives chart comes first and holds one bar per (job, collective, scheme) of the JSON, in the
    JSON's order, each bar's width = relative_time x the chart's px-per-unit (0.01 px), none of zero width;
    with --fail a second chart after the loss on the same scale;
  - the fabric sketch marks exactly the hottest cables the JSON gives for the result whose schemes differ
    most (the focus, recomputed here from the JSON), in each scheme's colour order, and its label names it;
  - the findings name every marked cable ("FROM[P] -> TO[Q]") and, for each collective whose schemes
    differ, its slowest scheme with its relative time;
  - with --lost NODE PORT: the sketch after draws that cable as lost.
usage: check_report.py REPORT.html PLAN.json [--lost NODE PORT]
"""
import html.parser
import json
import math
import sys


class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.elements = []  # (tag, attrs, section, chart index, sketch when)
        self.section = None
        self.chart = -1
        self.sketch = None
        self.findings = []
        self.in_li = False
        self.scripts = []
        self.in_script = False
        self.first_svg_class = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "section":
            self.section = a.get("id")
        if tag == "svg" and "collectives-chart" in a.get("class", ""):
            self.chart += 1
        if tag == "svg" and self.first_svg_class is None:
            self.first_svg_class = a.get("class", "")
        if tag == "div" and a.get("class") == "sketch":
            self.sketch = a
        if tag == "li" and self.section == "findings":
            self.in_li = True
            self.findings.append("")
        if tag == "script":
            self.in_script = True
            self.scripts.append([a, ""])
        self.elements.append((tag, a, self.section, self.chart, self.sketch))

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag):
        if tag == "li":
            self.in_li = False
        if tag == "script":
            self.in_script = False
        if tag == "div":
            self.sketch = None if tag == "div" and self.sketch is not None else self.sketch

    def handle_data(self, data):
        if self.in_li:
            self.findings[-1] += data
        if self.in_script:
            self.scripts[-1][1] += data


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def spread(values):
    finite = [v for v in values if v is not None]
    return max(finite) / min(finite) if len(finite) >= 2 and min(finite) > 0 else 1.0


def focus_of(cmp):
    """The result the sketch marks, by the rule report_text.h states, worked out from the JSON."""
    best, widest = None, 0
    for c in cmp["collectives"]:
        s = spread([f["relative_time"] for f in c["schemes"]])
        if best is None or s > widest * (1 + 1e-12):
            best, widest = c, s
    if best is not None:
        label = best["name"] + " (" + ("whole fabric" if best["job"] == "all" else "job " + best["job"]) + ")"
        return label, best
    for p in cmp["patterns"]:
        s = spread([f["max_switch_link_load"] for f in p["schemes"]])
        if best is None or s > widest * (1 + 1e-12):
            best, widest = p, s
    return "pattern " + best["name"], best


def cable(c):
    return f'{c["from"]}[{c["from_port"]}] -> {c["to"]}[{c["to_port"]}]'


def main():
    page = Page()
    page.feed(open(sys.argv[1], encoding="utf-8").read())
    doc = json.load(open(sys.argv[2]))["roce"]
    lost = sys.argv[4:6] if len(sys.argv) >= 6 and sys.argv[3] == "--lost" else None
    runs = [doc["comparison"]] + ([doc["after_loss"]["comparison"]] if "after_loss" in doc else [])

    # Self-contained.
    for tag, a, *_ in page.elements:
        if tag in ("img", "iframe", "link", "object", "embed") or "src" in a:
            fail(f"<{tag}> loads something: {a}")
        if "href" in a and not a["href"].startswith("#"):
            fail(f"<{tag}> links out: {a}")
    if len(page.scripts) != 1 or page.scripts[0][0].get("type") != "application/json":
        fail(f"scripts other than the JSON data block: {[s[0] for s in page.scripts]}")
    embedded = json.loads(page.scripts[0][1])
    if embedded["comparison"] != doc["comparison"]:
        fail("the embedded comparison is not the JSON's")
    if page.first_svg_class != "collectives-chart":
        fail(f"the first chart is {page.first_svg_class!r}, not the collectives'")

    # Bars: one per (job, collective, scheme), width = relative time x px per unit.
    ppus = [float(a["data-px-per-unit"]) for t, a, *_ in page.elements if t == "svg" and "data-px-per-unit" in a]
    if len(ppus) != len(runs) or len(set(ppus)) != 1:
        fail(f"want {len(runs)} collectives charts on one scale, got px-per-unit {ppus}")
    bars = 0
    for k, cmp in enumerate(runs):
        drawn = [a for t, a, _, chart, _ in page.elements if t == "rect" and a.get("class") == "bar" and chart == k]
        want = [(c["job"], c["name"], f) for c in cmp["collectives"] for f in c["schemes"]]
        if [(a["data-job"], a["data-collective"], a["data-scheme"]) for a in drawn] != \
                [(j, n, f["name"]) for j, n, f in want]:
            fail(f"chart {k}: bars are not the JSON's collectives and schemes in order")
        for a, (job, name, f) in zip(drawn, want):
            width = float(a["width"])
            if f["relative_time"] is None:
                if a["data-value"] != "unrouted":
                    fail(f"{job} {name} {f['name']}: unrouted in the JSON, bar says {a['data-value']}")
                continue
            if width <= 0 or abs(width - f["relative_time"] * ppus[0]) > 0.01:
                fail(f"{job} {name} {f['name']}: width {width}, want {f['relative_time']} x {ppus[0]}")
            bars += 1

    # Sketches: the focus's hottest cables, and the text naming them.
    text = "\n".join(page.findings)
    for k, cmp in enumerate(runs):
        when = "before" if k == 0 else "after"
        label, item = focus_of(cmp)
        sketch_divs = {a.get("data-when"): a for t, a, *_ in page.elements if t == "div" and a.get("class") == "sketch"}
        if sketch_divs.get(when, {}).get("data-focus") != label:
            fail(f"sketch {when}: focus {sketch_divs.get(when, {}).get('data-focus')!r}, want {label!r}")
        marked = [(a["data-scheme"], a["data-from"], int(a["data-from-port"]), a["data-to"], int(a["data-to-port"]),
                   float(a["data-load"]))
                  for t, a, _, _, sk in page.elements if t == "line" and a.get("class") == "hot" and sk and
                  sk.get("data-when") == when]
        want = [(f["name"], c["from"], c["from_port"], c["to"], c["to_port"], c["load"])
                for f in item["schemes"] for c in f["hottest_cables"]]
        if len(marked) != len(want) or any(m[:5] != w[:5] or not math.isclose(m[5], w[5], rel_tol=1e-5)
                                           for m, w in zip(marked, want)):
            fail(f"sketch {when}: marked {marked}\n want {want}")
        if not want:
            fail(f"sketch {when}: nothing to mark (the test's fabric should load some switch cable)")
        for f in item["schemes"]:
            for c in f["hottest_cables"]:
                if cable(c) not in text:
                    fail(f"the findings do not name {f['name']}'s hot cable {cable(c)}")
        for c in cmp["collectives"]:
            times = [f["relative_time"] for f in c["schemes"]]
            finite = [t for t in times if t is not None]
            if not finite or max(finite) - min(finite) <= 1e-9:
                continue
            slowest = max(finite)
            names = [f["name"] for f in c["schemes"] if f["relative_time"] == slowest]
            if k == 0 and not any(c["name"] in line and names[0] in line and f"slowest at {slowest:.3f}" in line
                                  for line in page.findings):
                fail(f"no finding says {names[0]} is slowest at {slowest:.3f} in {c['name']} ({c['job']})")
    if lost:
        drawn_lost = [(a["data-from"], a["data-from-port"], a["data-to"], a["data-to-port"])
                      for t, a, _, _, sk in page.elements if t == "line" and a.get("class") == "lost"]
        if not any((f == lost[0] and fp == lost[1]) or (to == lost[0] and tp == lost[1])
                   for f, fp, to, tp in drawn_lost):
            fail(f"the lost cable {lost} is not drawn lost: {drawn_lost}")
        if "After losing" not in text:
            fail("no finding about the loss")
    print(f"report: {bars} bars at the JSON's lengths, hottest cables marked and named, {len(page.findings)} findings")


main()
