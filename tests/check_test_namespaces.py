#!/usr/bin/env python3
"""Every unit test file declares its names in a namespace named for the file (docs/building.md, "Unity
batches for the tests"): the unity batches of the test executables put up to 16 files in one translation
unit, where two files' file-local helpers of the same name would clash. The shared rigs (a .cpp with a .h
beside it) define what their header declares and are left out.

Usage: check_test_namespaces.py ROOT      (exit 1 and one line per file that breaks the rule)"""
import pathlib
import re
import sys

TOP_NAMESPACE = re.compile(r'^namespace ([A-Za-z_][A-Za-z0-9_:]*) \{', re.M)


def problems(root: pathlib.Path):
    for path in sorted((root / 'tests' / 'unit').rglob('*.cpp')):
        if path.with_suffix('.h').exists():
            continue
        names = TOP_NAMESPACE.findall(path.read_text(encoding='utf-8'))
        rel = path.relative_to(root)
        if not names:
            yield f'{rel}:1: no namespace: declare the tests in namespace smd::{path.stem}'
        for name in names:
            if name.split('::')[-1] != path.stem:
                yield f'{rel}: namespace {name} does not end in ::{path.stem}'


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    found = list(problems(pathlib.Path(sys.argv[1])))
    for line in found:
        print(line)
    return 1 if found else 0


if __name__ == '__main__':
    sys.exit(main())
