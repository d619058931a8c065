#!/usr/bin/env python3
"""Every key of the documented default policy (config/smd.yaml) is named in the README's "## Policy" section.

The README lists "the keys smd reads today"; this keeps that list true when a key is added. Keys are read
from the YAML by indentation (the file is block-style YAML with two-space indents and no flow maps);
a key with nested keys is a section and is not listed itself, only its leaves.
usage: check_readme_policy_keys.py --policy config/smd.yaml --readme README.md
"""
import argparse
import re
import sys


def policy_keys(text):
    keys, stack = [], []  # stack: (indent, name) of the enclosing sections
    lines = [l for l in text.splitlines() if l.strip() and not l.lstrip().startswith("#")]
    inside_list = None  # indent of a key whose value is a block sequence: its items are not keys
    for i, line in enumerate(lines):
        indent = len(line) - len(line.lstrip(" "))
        if inside_list is not None:
            if indent > inside_list:
                continue
            inside_list = None
        m = re.match(r"^( *)([a-z_0-9]+):(.*)$", line)
        if not m:
            continue
        name, rest = m.group(2), m.group(3).strip()
        while stack and stack[-1][0] >= indent:
            stack.pop()
        path = ".".join([n for _, n in stack] + [name])
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        nxt_indent = len(nxt) - len(nxt.lstrip(" "))
        if (rest == "" or rest.startswith("#")) and nxt_indent > indent and not nxt.lstrip().startswith("- "):
            stack.append((indent, name))  # a section: its keys are listed, not it
            continue
        if (rest == "" or rest.startswith("#")) and nxt.lstrip().startswith("- "):
            inside_list = indent
        keys.append(path)
    return keys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--policy", required=True)
    ap.add_argument("--readme", required=True)
    a = ap.parse_args()
    keys = policy_keys(open(a.policy, encoding="utf-8").read())
    readme = open(a.readme, encoding="utf-8").read()
    start = readme.find("## Policy")
    end = readme.find("\n## ", start + 1)
    if start < 0:
        print(f"{a.readme}: no '## Policy' section", file=sys.stderr)
        return 1
    section = readme[start:end if end > 0 else len(readme)]
    missing = [k for k in keys if f"`{k}`" not in section]
    if len(keys) < 40:
        print(f"{a.policy}: only {len(keys)} keys read; the reader is wrong", file=sys.stderr)
        return 1
    if missing:
        print(f"{a.readme} '## Policy' does not name {len(missing)} key(s) of {a.policy}: " + ", ".join(missing),
              file=sys.stderr)
        return 1
    print(f"check_readme_policy_keys: the README names all {len(keys)} keys of {a.policy}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
