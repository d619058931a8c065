#!/usr/bin/env python3
"""The layering rule of docs/architecture.md, checked against the code.

docs/architecture.md holds two tables between marker comments:
  <!-- layering:includes -->    | folder | may include |          which folders a folder's files may include
  <!-- layering:forbidden -->   | folder | must not include |     system headers a folder must not include
A forbidden row may also name single files (`smd/sa/sa_snapshot.h`) and forbid project headers by pattern
(`mad/transport/*`, no angle brackets): a file obeys its folder's row and every row that names it.
Every source file under mad/, routing/, config/ and smd/ belongs to the folder it sits in; a folder is
governed by the row that names it exactly, else by the longest pattern row that matches it (fnmatch: `*`
also crosses `/`). An `#include "a/b/c.h"` is allowed when a/b is the file's own folder or matches one of the
row's patterns. The libraries a folder's CMakeLists.txt links (smd_library ... DEPS) are held to the same
row. A folder no row governs is an error too: a new folder needs its place in the table.

Usage: check_layering.py [--root DIR]     exit 0 when the tree keeps the rule, 1 with every violation listed
       check_layering.py --self-test      shows on a small made-up tree that each kind of violation is caught
"""

import argparse
import fnmatch
import os
import re
import sys
import tempfile

SOURCE_ROOTS = ("mad", "routing", "config", "smd")
SOURCE_SUFFIXES = (".h", ".cpp")
INCLUDE_RE = re.compile(r'^\s*#\s*include\s*([<"])([^">]+)[">]')
TABLE_MARKERS = {"includes": "<!-- layering:includes -->", "forbidden": "<!-- layering:forbidden -->"}
LIBRARY_RE = re.compile(r"smd_library\(\s*(\w+)([^)]*)\)", re.S)


def read_table(doc_text, marker, doc_name):
    """Rows of the markdown table that follows `marker`: [(folder patterns, value patterns)]."""
    start = doc_text.find(marker)
    if start < 0:
        raise SystemExit(f"{doc_name}: no '{marker}' table")
    rows = []
    for line in doc_text[start + len(marker):].lstrip("\n").splitlines():
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 2 or set(cells[0]) <= set("-: "):
            continue
        if cells[0].lower() == "folder":
            continue
        keys = re.findall(r"`([^`]+)`", cells[0])
        values = re.findall(r"`([^`]+)`", cells[1])
        if not keys:
            raise SystemExit(f"{doc_name}: a row of '{marker}' names no folder: {line}")
        rows.append((keys, values))
    if not rows:
        raise SystemExit(f"{doc_name}: the '{marker}' table has no rows")
    return rows


def governing_row(folder, rows):
    """The row for `folder`: an exact name wins, else the longest matching pattern; None when none."""
    best, best_len = None, -1
    for keys, values in rows:
        for key in keys:
            if key == folder:
                return values
            if any(ch in key for ch in "*?[") and fnmatch.fnmatchcase(folder, key) and len(key) > best_len:
                best, best_len = values, len(key)
    return best


def file_rows(rel, rows):
    """The values of every row that names the file `rel` itself (a key with a file suffix)."""
    out = []
    for keys, values in rows:
        if any(key.endswith(SOURCE_SUFFIXES) and fnmatch.fnmatchcase(rel, key) for key in keys):
            out.extend(values)
    return out


def allowed(target, own, patterns):
    return target == own or any(fnmatch.fnmatchcase(target, p) for p in patterns)


def source_files(root):
    for top in SOURCE_ROOTS:
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, top)):
            dirnames.sort()
            for name in sorted(filenames):
                if name.endswith(SOURCE_SUFFIXES):
                    yield os.path.join(dirpath, name)


def library_folders(root):
    """{library name: folder} from every smd_library() call, and {folder: [(line, dep)]} of their DEPS."""
    owner, deps = {}, {}
    for top in SOURCE_ROOTS:
        for dirpath, _, filenames in os.walk(os.path.join(root, top)):
            if "CMakeLists.txt" not in filenames:
                continue
            path = os.path.join(dirpath, "CMakeLists.txt")
            folder = os.path.relpath(dirpath, root).replace(os.sep, "/")
            text = open(path, encoding="utf-8").read()
            for m in LIBRARY_RE.finditer(text):
                owner[m.group(1)] = folder
                args = m.group(2).split()
                line = text.count("\n", 0, m.start()) + 1
                section = None
                for word in args:
                    if word in ("DEPS", "EXTERNAL", "EXCLUDE"):
                        section = word
                    elif section == "DEPS":
                        deps.setdefault(folder, []).append((line, word))
    return owner, deps


def check(root, doc):
    doc_text = open(doc, encoding="utf-8").read()
    include_rows = read_table(doc_text, TABLE_MARKERS["includes"], doc)
    forbidden_rows = read_table(doc_text, TABLE_MARKERS["forbidden"], doc)
    problems = []
    for path in source_files(root):
        rel = os.path.relpath(path, root).replace(os.sep, "/")
        folder = os.path.dirname(rel)
        may = governing_row(folder, include_rows)
        if may is None:
            problems.append(f"{rel}: folder {folder} has no row in the layering table of {doc}")
            continue
        must_not = (governing_row(folder, forbidden_rows) or []) + file_rows(rel, forbidden_rows)
        must_not_project = [p for p in must_not if not p.startswith("<")]
        with open(path, encoding="utf-8", errors="replace") as f:
            for lineno, line in enumerate(f, 1):
                m = INCLUDE_RE.match(line)
                if not m:
                    continue
                kind, target = m.groups()
                if kind == "<":
                    if any(fnmatch.fnmatchcase(target, p.strip("<>")) for p in must_not):
                        problems.append(f"{rel}:{lineno}: includes <{target}>, which {folder} must not use")
                    continue
                if "/" not in target:
                    continue  # a file of the same folder, included by its bare name
                if any(fnmatch.fnmatchcase(target, p) for p in must_not_project):
                    problems.append(f"{rel}:{lineno}: includes {target}, which {rel} must not use")
                    continue
                target_folder = os.path.dirname(target)
                if not allowed(target_folder, folder, may):
                    problems.append(f"{rel}:{lineno}: includes {target}: {folder} may not include {target_folder}")
    owner, deps = library_folders(root)
    for folder, entries in sorted(deps.items()):
        may = governing_row(folder, include_rows) or []
        for line, dep in entries:
            dep_folder = owner.get(dep)
            if dep_folder is None:
                problems.append(f"{folder}/CMakeLists.txt:{line}: links {dep}, which no smd_library() defines")
            elif not allowed(dep_folder, folder, may):
                problems.append(f"{folder}/CMakeLists.txt:{line}: links {dep} ({dep_folder}): "
                                f"{folder} may not include {dep_folder}")
    return problems


SELF_TEST_DOC = """# rule
<!-- layering:includes -->
| folder | may include |
|---|---|
| `routing/base` | — |
| `routing/*` | `routing/base` |
| `mad/codec` | `routing/base` |
| `smd/*` | `mad/*` `routing/*` |

<!-- layering:forbidden -->
| folder | must not include |
|---|---|
| `routing/*` | `<fstream>` `<infiniband/*>` |
| `smd/sa/snap.h` | `mad/transport/*` |
"""


def self_test():
    """A tree that keeps the rule passes; each planted violation is reported by file and line."""
    with tempfile.TemporaryDirectory() as root:
        def write(rel, text):
            path = os.path.join(root, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
        write("docs/architecture.md", SELF_TEST_DOC)
        write("routing/base/ids.h", "#pragma once\n#include <cstdint>\n")
        write("routing/model/topology.h", '#include "routing/base/ids.h"\n#include "local.h"\n')
        write("mad/codec/smp.h", '#include "routing/base/ids.h"\n')
        write("smd/sweep/discovery.cpp", '#include "mad/codec/smp.h"\n#include "routing/model/topology.h"\n')
        write("smd/sweep/CMakeLists.txt", "smd_library(smd_sweep DEPS smd_mad_codec)\n")
        write("smd/sa/snap.h", '#include "mad/codec/smp.h"\n')
        write("smd/sa/agent.h", '#include "mad/transport/umad.h"\n')  # only snap.h is held to its row
        write("mad/codec/CMakeLists.txt", "smd_library(smd_mad_codec)\n")
        doc = os.path.join(root, "docs/architecture.md")
        clean = check(root, doc)
        if clean:
            print("self-test: a clean tree was refused:\n  " + "\n  ".join(clean))
            return 1
        write("routing/model/lft.cpp", '#include <fstream>\n#include "mad/codec/smp.h"\n')
        write("mad/codec/CMakeLists.txt", "smd_library(smd_mad_codec DEPS smd_sweep)\n")
        write("config/policy.h", "#pragma once\n")
        write("smd/sa/snap.h", '#include "mad/codec/smp.h"\n#include "mad/transport/umad.h"\n')
        got = check(root, doc)
        wanted = [
            "routing/model/lft.cpp:1: includes <fstream>",
            "routing/model/lft.cpp:2: includes mad/codec/smp.h: routing/model may not include mad/codec",
            "config/policy.h: folder config has no row",
            "mad/codec/CMakeLists.txt:1: links smd_sweep (smd/sweep): mad/codec may not include smd/sweep",
            "smd/sa/snap.h:2: includes mad/transport/umad.h, which smd/sa/snap.h must not use",
        ]
        missing = [w for w in wanted if not any(g.startswith(w) for g in got)]
        if missing or len(got) != len(wanted):
            print("self-test: expected exactly these violations:\n  " + "\n  ".join(wanted))
            print("got:\n  " + "\n  ".join(got))
            return 1
    print("self-test: clean tree accepted; 5 planted violations reported")
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=os.path.join(os.path.dirname(__file__), "..", ".."))
    parser.add_argument("--self-test", action="store_true")
    args = parser.parse_args()
    if args.self_test:
        return self_test()
    root = os.path.abspath(args.root)
    problems = check(root, os.path.join(root, "docs", "architecture.md"))
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} layering violation(s); the rule is the table in docs/architecture.md")
        return 1
    print("layering: every include and every library link keeps the rule of docs/architecture.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
