#!/usr/bin/env python3
"""Keeps docs/man/smd.yaml.5 and the documented default policy (config/smd.yaml) naming the same keys.

The policy's keys are read by indentation, as the README check before it did (a key with nested
keys is a section, only its leaves count; a flow map such as `qos.ca: {max_vls: 15}` is one key). Keys the
file shows commented out are keys too: a whole commented section (`# qos:` at column 0 and the comment
lines under it) and a single `  # key: value` line at a section's indentation (sa.services_file).

The man page documents a key as
    .TP
    .B section.key
    \\fITYPE\\fR; default \\fBVALUE\\fR.
Fails (exit 1, one line each) on a key in one and not the other, a key the man page lists twice, a key
without its type/default line, and, for every key the policy sets uncommented to a scalar or a flow value,
a default that differs (both read as YAML, so 0x12 equals 18). A commented key's value is an example, and a
block value (partitions.list) is shown as one, so neither is compared.

    check_policy_man_page.py --policy config/smd.yaml --man docs/man/smd.yaml.5
    check_policy_man_page.py --self-test
"""
import argparse
import re
import sys

import yaml

KEY_RE = re.compile(r"^( *)([a-z_0-9]+):(.*)$")
COMMENTED_SECTION_RE = re.compile(r"^# ([a-z_0-9]+):\s*$")
COMMENTED_KEY_RE = re.compile(r"^( +)# ([a-z_0-9]+): (\S+)$")
TYPE_DEFAULT_RE = re.compile(r"^\\fI(?P<type>[^\\]+)\\fR; default \\fB(?P<default>.*?)\\fR")


def strip_comment(value):
    """The value text of a key line without a trailing ` # comment` (outside quotes)."""
    quote = None
    for i, ch in enumerate(value):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "\"'":
            quote = ch
        elif ch == "#" and (i == 0 or value[i - 1] == " "):
            return value[:i].strip()
    return value.strip()


def leaf_keys(text):
    """Block YAML text -> [(dotted key, value text or "" for a block value)], leaves only."""
    keys, stack = [], []
    lines = [l for l in text.splitlines() if l.strip() and not l.lstrip().startswith("#")]
    inside_list = None  # indent of a key whose value is a block sequence: its items are not keys
    for i, line in enumerate(lines):
        indent = len(line) - len(line.lstrip(" "))
        if inside_list is not None:
            if indent > inside_list:
                continue
            inside_list = None
        m = KEY_RE.match(line)
        if not m:
            continue
        name, rest = m.group(2), strip_comment(m.group(3))
        while stack and stack[-1][0] >= indent:
            stack.pop()
        path = ".".join([n for _, n in stack] + [name])
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        nxt_indent = len(nxt) - len(nxt.lstrip(" "))
        if rest == "" and nxt_indent > indent and not nxt.lstrip().startswith("- "):
            stack.append((indent, name))
            continue
        if rest == "" and nxt.lstrip().startswith("- "):
            inside_list = indent
        keys.append((path, rest))
    return keys


def policy_keys(text):
    """config/smd.yaml -> ({key: value text} set live, {key} shown commented out)."""
    live = dict(leaf_keys(text))
    commented = set()
    lines = text.splitlines()
    i = 0
    section_of_indent = []  # (indent, dotted path) of the live sections, for single commented keys
    while i < len(lines):
        line = lines[i]
        m = COMMENTED_SECTION_RE.match(line)
        if m:
            block = [line[2:]]
            i += 1
            while i < len(lines) and lines[i].startswith("#"):
                block.append(lines[i][2:] if lines[i].startswith("# ") else "")
                i += 1
            if len(block) > 1:
                commented.update(k for k, _ in leaf_keys("\n".join(block)))
            continue
        k = KEY_RE.match(line)
        if k and not line.lstrip().startswith("#"):
            indent = len(k.group(1))
            while section_of_indent and section_of_indent[-1][0] >= indent:
                section_of_indent.pop()
            parent = section_of_indent[-1][1] + "." if section_of_indent else ""
            section_of_indent.append((indent, parent + k.group(2)))
        c = COMMENTED_KEY_RE.match(line)
        if c:
            indent = len(c.group(1))
            parents = [p for ind, p in section_of_indent if ind < indent]
            if parents:
                commented.add(parents[-1] + "." + c.group(2))
        i += 1
    return live, commented - set(live)


def unroff(text):
    """The few groff escapes a default may carry -> plain text."""
    return text.replace("\\-", "-").replace("\\(dq", '"').replace("\\e", "\\").replace("\\&", "")


def man_keys(source):
    """Man page source -> ({key: (type, default text) or None}, [keys listed twice])."""
    keys, twice = {}, []
    lines = source.splitlines()
    for i, line in enumerate(lines):
        if line.strip() != ".TP" or i + 1 >= len(lines):
            continue
        m = re.match(r"^\.B ([a-z_0-9]+(?:\.[a-z_0-9]+)+)\s*$", lines[i + 1])
        if not m:
            continue
        key = m.group(1)
        if key in keys:
            twice.append(key)
        td = TYPE_DEFAULT_RE.match(lines[i + 2]) if i + 2 < len(lines) else None
        keys[key] = (td.group("type"), unroff(td.group("default"))) if td else None
    return keys, twice


def as_yaml(text):
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError:
        return text


def problems(policy_text, man_source):
    live, commented = policy_keys(policy_text)
    documented, twice = man_keys(man_source)
    out = []
    for key in sorted(set(live) | commented):
        if key not in documented:
            out.append(f"smd.yaml.5 does not document {key}")
    for key in sorted(documented):
        if key not in live and key not in commented:
            out.append(f"smd.yaml.5 documents {key}, which config/smd.yaml does not have")
    out += [f"smd.yaml.5 documents {key} twice" for key in twice]
    for key, td in sorted(documented.items()):
        if td is None:
            out.append(f"smd.yaml.5: {key} has no '\\fITYPE\\fR; default \\fBVALUE\\fR' line after its tag")
            continue
        value = live.get(key)
        if value:  # a scalar or flow value set live: the man page's default must be the same value
            if as_yaml(td[1]) != as_yaml(value):
                out.append(f"smd.yaml.5 gives {key} the default {td[1]!r}; config/smd.yaml has {value!r}")
    return out, len(set(live) | commented)


SELF_POLICY = """\
# comment: not a key
sm:
  # prose line
  priority: 0
  sm_key: 0x0000000000000001
  nested:
    deep: [a, b]
sa:
  max: 0x12
  # services_file: /x/y.json
  list:
    - name: x
      pkey: 1
# qos:
#   # prose
#   enabled: true
#   ca: {max_vls: 15}
"""


def self_test():
    good = "\n".join(
        [".TP\n.B sm.priority\n\\fIinteger\\fR; default \\fB0\\fR.",
         ".TP\n.B sm.sm_key\n\\fIinteger\\fR; default \\fB0x1\\fR.",
         ".TP\n.B sm.nested.deep\n\\fIlist\\fR; default \\fB[a, b]\\fR.",
         ".TP\n.B sa.max\n\\fIinteger\\fR; default \\fB18\\fR.",
         ".TP\n.B sa.services_file\n\\fIpath\\fR; default \\fBanything\\fR.",
         ".TP\n.B sa.list\n\\fIlist\\fR; default \\fBone entry\\fR.",
         ".TP\n.B qos.enabled\n\\fIboolean\\fR; default \\fBfalse\\fR.",
         ".TP\n.B qos.ca\n\\fImap\\fR; default \\fB(none)\\fR."])
    found, n = problems(SELF_POLICY, good)
    assert found == [] and n == 8, (found, n)
    bad = good.replace("\\fB18\\fR", "\\fB17\\fR").replace(".B qos.ca\n", ".B qos.cb\n")
    bad = bad.replace("\\fIboolean\\fR; default \\fBfalse\\fR.", "no type line") + "\n.TP\n.B sm.priority\nx"
    found, _ = problems(SELF_POLICY, bad)
    expect = ["smd.yaml.5 does not document qos.ca",
              "smd.yaml.5 documents qos.cb, which config/smd.yaml does not have",
              "smd.yaml.5 documents sm.priority twice",
              "smd.yaml.5: qos.enabled has no '\\fITYPE\\fR; default \\fBVALUE\\fR' line after its tag",
              "smd.yaml.5 gives sa.max the default '17'; config/smd.yaml has '0x12'",
              "smd.yaml.5: sm.priority has no '\\fITYPE\\fR; default \\fBVALUE\\fR' line after its tag"]
    assert found == expect, found
    print("check_policy_man_page: self-test passed")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--policy")
    ap.add_argument("--man")
    ap.add_argument("--self-test", action="store_true")
    a = ap.parse_args()
    if a.self_test:
        self_test()
        return 0
    if not a.policy or not a.man:
        ap.error("--policy and --man are required")
    found, n = problems(open(a.policy, encoding="utf-8").read(), open(a.man, encoding="utf-8").read())
    if n < 80:
        print(f"{a.policy}: only {n} keys read; the reader is wrong", file=sys.stderr)
        return 1
    for p in found:
        print(p, file=sys.stderr)
    if found:
        return 1
    print(f"check_policy_man_page: {a.man} documents all {n} keys of {a.policy}, defaults agree")
    return 0


if __name__ == "__main__":
    sys.exit(main())
