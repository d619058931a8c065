#!/usr/bin/env python3
"""Keeps docs/man/smd.8 and docs/man/smctl.8 from drifting behind the binaries.

Runs `PROGRAM --help` and `PROGRAM <subcommand ...> --help` for every subcommand CLI11 lists (recursively,
so `smctl port clear` is found), and checks that the man page has:
  - every subcommand path ("plan", "port clear") at the start of a .TP tag or .SS heading
    (after an optional leading program name);
  - every option (-c, --config, --help, ...) in some .TP tag;
  - every positional in its subcommand's tag, by name (FILE, SWITCH) or, for a choice, by each value
    (export roce);
  - every choice value of an option ({trace,debug,...}) somewhere in the text;
  - for a program with --list-commands (smctl: the control commands' catalog the daemon's command table is
    checked against when it compiles, smd/protocol/control_commands.h): every listed command is a
    subcommand path of the program, so documented above, and every top-level subcommand is listed.
The man pages may document more than the binaries print (commands landing on other branches); the
reverse is what fails. Exit 0 when every page is complete, 1 with one line per omission.

    check_man_pages.py --man smd.8 --program build/smd/smd [--man smctl.8 --program build/smd/smctl]
    check_man_pages.py --self-test
"""
import argparse
import re
import subprocess
import sys

# --- CLI11 help text ----------------------------------------------------------------------------------

SECTION_RE = re.compile(r"^(Options|Positionals|Subcommands):\s*$")
# An entry starts two spaces in; its description's continuation lines are indented further.
ENTRY_RE = re.compile(r"^  (\S+)(?:\s+(\S+))?")
CHOICES_RE = re.compile(r"\{([^}]*)\}")


def parse_help(text):
    """CLI11 --help text -> {"options": [(names, choices)], "positionals": [(name, choices)],
    "subcommands": [name]}. names: ["-c", "--config"]; choices: [] or the {a,b} set's members."""
    parsed = {"options": [], "positionals": [], "subcommands": []}
    section = None
    for line in text.splitlines():
        m = SECTION_RE.match(line)
        if m:
            section = m.group(1).lower()
            continue
        if not line.strip():
            section = None  # CLI11 ends every section with a blank line
            continue
        m = ENTRY_RE.match(line)  # continuation lines are indented further and do not match
        if not m or section is None:
            continue
        first, second = m.group(1), m.group(2) or ""
        choices = []
        c = CHOICES_RE.search(second)
        if c:
            choices = [v for v in c.group(1).split(",") if v]
        if section == "options":
            parsed["options"].append(([n for n in first.split(",") if n.startswith("-")], choices))
        elif section == "positionals":
            parsed["positionals"].append((first, choices))
        else:
            parsed["subcommands"].append(first)
    return parsed


def collect(run_help, path=()):
    """Walk the subcommand tree: [(path tuple, parsed help)], the program itself first."""
    parsed = parse_help(run_help(list(path)))
    found = [(path, parsed)]
    for sub in parsed["subcommands"]:
        found += collect(run_help, path + (sub,))
    return found


# --- roff -------------------------------------------------------------------------------------------

ESCAPES = [(r"\-", "-"), (r"\(aq", "'"), (r"\(em", "-"), (r"\&", ""), (r"\e", "\\")]
FONT_RE = re.compile(r"\\f[BIRP]")
ALTERNATING = {".BR", ".RB", ".BI", ".IB", ".IR", ".RI"}


def roff_args(rest):
    """A macro line's arguments, split as roff does (double quotes group words)."""
    return [a[1:-1] if a.startswith('"') else a for a in re.findall(r'"[^"]*"|\S+', rest)]


def render_line(line):
    """One roff source line as the words a reader sees (fonts dropped)."""
    for old, new in ESCAPES:
        line = line.replace(old, new)
    if line.startswith("."):
        macro, _, rest = line.partition(" ")
        args = roff_args(rest)
        # The alternating-font macros glue their arguments together; .B and .I keep spaces.
        line = "".join(args) if macro in ALTERNATING else " ".join(args)
    return FONT_RE.sub("", line).strip()


def parse_man(source):
    """roff source -> (tags, text): the rendered tag of each .TP and each .SS heading, and all the text."""
    lines = [l for l in source.splitlines() if not l.startswith('.\\"')]
    tags, text = [], []
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith(".SS "):
            tags.append(render_line(line[4:]))
        elif line.strip() == ".TP" and i + 1 < len(lines):
            tags.append(render_line(lines[i + 1]))
        text.append(render_line(line))
        i += 1
    return tags, " ".join(text)


# --- the check --------------------------------------------------------------------------------------


def has_token(haystack, token):
    return re.search(r"(?<![\w-])" + re.escape(token) + r"(?![\w-])", haystack) is not None


def missing(program_name, tree, man_source):
    """Every omission of the man page, one message each."""
    tags, text = parse_man(man_source)
    # A tag names a subcommand path when it starts with it, after an optional program name.
    stripped = [t[len(program_name) + 1:] if t.startswith(program_name + " ") else t for t in tags]
    problems = []
    for path, parsed in tree:
        where = " ".join((program_name,) + path)
        own_tags = tags
        if path:
            cmd = " ".join(path)
            own_tags = [t for t in stripped if t == cmd or t.startswith(cmd + " ")]
            if not own_tags:
                problems.append(f"{where}: no .TP tag or .SS heading for the subcommand")
                continue
        for names, choices in parsed["options"]:
            for name in names:
                if not any(has_token(t, name) for t in tags):
                    problems.append(f"{where}: option {name} is in no .TP tag")
            for value in choices:
                if not has_token(text, value):
                    problems.append(f"{where}: {names[-1]}'s value {value} is not mentioned")
        for name, choices in parsed["positionals"]:
            wanted = choices or [name]
            for value in wanted:
                if not any(has_token(t.lower(), value.lower()) for t in own_tags):
                    problems.append(f"{where}: positional {value} is not in the subcommand's tag")
    return problems


def listed_paths(tree, listing):
    """The subcommand paths `--list-commands` names: per line, the usage's leading words that are
    subcommands ("port clear NODE PORT" -> port clear; "perfmgr pass|clear" -> both), and the problems:
    a listed command the program does not have, a top-level subcommand not listed."""
    children = {path: set(parsed["subcommands"]) for path, parsed in tree}
    problems, firsts = [], set()
    for line in listing.splitlines():
        usage = re.split(r"\s{2,}", line.strip())[0]
        if not usage:
            continue
        words = usage.split()
        firsts.add(words[0])
        paths = [()]
        for word in words:
            grown = [p + (alt,) for p in paths for alt in word.split("|") if alt in children.get(p, ())]
            if not grown:
                break
            paths = grown
        if paths == [()]:
            problems.append(f"--list-commands: '{usage}' is no subcommand of the program")
    problems += [f"subcommand {s} is not in --list-commands" for s in sorted(children[()] - firsts)]
    return problems


def run_list_of(program):
    done = subprocess.run([program, "--list-commands"], capture_output=True, text=True, timeout=30)
    if done.returncode != 0:
        raise SystemExit(f"{program} --list-commands: exit {done.returncode}: {done.stderr.strip()}")
    return done.stdout


def run_help_of(program):
    def run(path):
        done = subprocess.run([program] + path + ["--help"], capture_output=True, text=True, timeout=30)
        if done.returncode != 0:
            raise SystemExit(f"{program} {' '.join(path)} --help: exit {done.returncode}: {done.stderr.strip()}")
        return done.stdout
    return run


# --- self-test: the checker notices each kind of omission ---------------------------------------------

FAKE_HELP = {
    (): """tool: a fake
Usage: tool [OPTIONS] SUBCOMMAND

Options:
  -h,--help                   Print this help message and exit
  --mode TEXT:{fast,slow}     how
  --socket TEXT=/run/x        where
                              (continued description --not-an-option)

Subcommands:
  show                        show it
  port                        port things
""",
    ("show",): """show it
Usage: tool show [OPTIONS] [node]

Positionals:
  node TEXT                   a node

Options:
  -h,--help                   Print this help message and exit
""",
    ("port",): """port things
Usage: tool port [OPTIONS] SUBCOMMAND

Options:
  -h,--help                   Print this help message and exit

Subcommands:
  clear                       clear a mark
""",
    ("port", "clear"): """clear a mark
Usage: tool port clear [OPTIONS] what

Positionals:
  what TEXT:{mark} REQUIRED   what

Options:
  -h,--help                   Print this help message and exit
""",
}

FAKE_MAN = r""".TH TOOL 8
.SH OPTIONS
.TP
.BR \-h ", " \-\-help
Help.
.TP
.BI \-\-mode " MODE"
How: \fBfast\fR or slow.
.TP
.BI \-\-socket " PATH"
Where.
.SH COMMANDS
.TP
.BR show " [\fINODE\fR]"
Show it.
.TP
.B port clear mark
Clear.
"""


def self_test():
    tree = collect(lambda path: FAKE_HELP[tuple(path)])
    assert [p for p, _ in tree] == [(), ("show",), ("port",), ("port", "clear")], tree
    assert tree[0][1]["options"] == [(["-h", "--help"], []), (["--mode"], ["fast", "slow"]), (["--socket"], [])]
    assert missing("tool", tree, FAKE_MAN) == [], missing("tool", tree, FAKE_MAN)
    cases = {
        "option": (".BI \\-\\-socket \" PATH\"", ".B where", "tool: option --socket is in no .TP tag"),
        "value": ("How: \\fBfast\\fR or slow.", "How.", "tool: --mode's value slow is not mentioned"),
        "subcommand": (".B port clear mark", ".B port", "tool port clear: no .TP tag or .SS heading for the subcommand"),
        "positional": ('.BR show " [\\fINODE\\fR]"', ".B show", "tool show: positional node is not in the subcommand's tag"),
        "choice positional": (".B port clear mark", ".B port clear", "tool port clear: positional mark is not in the subcommand's tag"),
    }
    listing = "show [NODE]     show it\nport clear MARK  clear a mark\n"
    assert listed_paths(tree, listing) == [], listed_paths(tree, listing)
    assert listed_paths(tree, "show  show it\n") == ["subcommand port is not in --list-commands"]
    assert listed_paths(tree, listing + "bogus  what\n") == ["--list-commands: 'bogus' is no subcommand of the program"]
    for kind, (old, new, expected) in cases.items():
        assert old in FAKE_MAN, kind
        got = missing("tool", tree, FAKE_MAN.replace(old, new))
        assert expected in got, (kind, got)
    print("check_man_pages: self-test passed")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--man", action="append", default=[], help="a man page (roff source)")
    ap.add_argument("--program", action="append", default=[], help="its binary, in the same order")
    ap.add_argument("--self-test", action="store_true")
    args = ap.parse_args()
    if args.self_test:
        self_test()
        return 0
    if not args.man or len(args.man) != len(args.program):
        ap.error("give --man and --program in pairs")
    problems = []
    for man, program in zip(args.man, args.program):
        tree = collect(run_help_of(program))
        name = program.rstrip("/").rsplit("/", 1)[-1]
        with open(man, encoding="utf-8") as f:
            found = missing(name, tree, f.read())
        if any("--list-commands" in names for names, _ in tree[0][1]["options"]):
            found += listed_paths(tree, run_list_of(program))
        problems += [f"{man}: {p}" for p in found]
        print(f"check_man_pages: {man}: {len(tree)} commands, {'complete' if not found else f'{len(found)} omissions'}")
    for p in problems:
        print(p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
