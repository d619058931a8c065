#!/usr/bin/env python3
"""The bash completion (systemd/smd-completion.bash) against the programs' own --help: every subcommand,
every option and every fixed word (a positional's {a,b} choices, a nested subcommand) that `smctl --help`,
`smd --help` and each `PROGRAM SUBCOMMAND --help` print must be offered, so a command added without its
completion fails here. Also checks that sourcing the script in bash registers `complete -p smctl` and
`complete -p smd`. --self-test: the check fails on a copy of the script with a subcommand and an option
removed."""
import argparse
import os
import re
import subprocess
import sys
import tempfile


def help_text(program, *words):
    run = subprocess.run([program, *words, "--help"], capture_output=True, text=True, timeout=20)
    if run.returncode != 0:
        sys.exit(f"{program} {' '.join(words)} --help exited {run.returncode}: {run.stderr}")
    return run.stdout


def parse_help(text):
    """(options, subcommands, choices) of one CLI11 help text."""
    options, subcommands, choices = [], [], []
    section = None
    for line in text.splitlines():
        if re.match(r"^(Options|Subcommands|Positionals):", line):
            section = line.split(":")[0]
            continue
        if not line.startswith("  ") or line.startswith("    "):
            continue
        first = line.strip().split()[0]
        if section == "Options" and first.startswith("-"):
            for name in first.split(","):
                if name != "-h":
                    options.append(name)
        elif section == "Subcommands":
            subcommands.append(first)
        elif section == "Positionals":
            for group in re.findall(r"\{([^}]*)\}", line):
                choices.extend(group.split(","))
    return options, subcommands, choices


def complete(script, words):
    """What the completion offers for the command line `words` (the last one being completed)."""
    function = "_" + words[0]
    array = " ".join("'" + w.replace("'", "'\\''") + "'" for w in words)
    code = (f"source '{script}'; COMP_WORDS=({array}); COMP_CWORD={len(words) - 1}; "
            f"COMP_LINE='{' '.join(words)}'; COMP_POINT=${{#COMP_LINE}}; {function}; "
            'printf "%s\\n" "${COMPREPLY[@]}"')
    run = subprocess.run(["bash", "--norc", "--noprofile", "-c", code], capture_output=True, text=True, timeout=20)
    if run.returncode != 0:
        raise RuntimeError(f"completion of {words} failed: {run.stderr}")
    return set(run.stdout.split())


def check(script, programs):
    problems = []
    for program in programs:
        name = os.path.basename(program)
        run = subprocess.run(["bash", "--norc", "--noprofile", "-c", f"source '{script}' && complete -p {name}"],
                             capture_output=True, text=True, timeout=20)
        if run.returncode != 0 or f"_{name} {name}" not in run.stdout:
            problems.append(f"complete -p {name} after sourcing: {run.stdout.strip()} {run.stderr.strip()}")
        options, subcommands, _ = parse_help(help_text(program))
        offered = complete(script, [name, ""])
        problems += [f"{name}: subcommand {s} not completed" for s in subcommands if s not in offered]
        offered = complete(script, [name, "-"])
        problems += [f"{name}: option {o} not completed" for o in options if o not in offered]
        for sub in subcommands:
            sub_options, nested, choices = parse_help(help_text(program, sub))
            offered = complete(script, [name, sub, "-"])
            problems += [f"{name} {sub}: option {o} not completed" for o in sub_options if o not in offered]
            offered = complete(script, [name, sub, ""])
            problems += [f"{name} {sub}: word {w} not completed" for w in nested + choices if w not in offered]
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--script", required=True)
    parser.add_argument("--program", action="append", default=[], help="smctl and smd binaries")
    parser.add_argument("--self-test", action="store_true")
    args = parser.parse_args()
    if args.self_test:
        text = open(args.script).read()
        broken = text.replace(" report ", " ", 1).replace(' words+=" --errors"', " :", 1)
        assert broken != text
        with tempfile.NamedTemporaryFile("w", suffix=".bash", delete=False) as f:
            f.write(broken)
        try:
            problems = check(f.name, args.program)
        finally:
            os.unlink(f.name)
        want = {"smctl: subcommand report not completed", "smctl counters: option --errors not completed"}
        if not want <= set(problems):
            sys.exit(f"self-test: the broken script was not caught: {problems}")
        print("self-test: a missing subcommand and a missing option are caught")
        return
    problems = check(args.script, args.program)
    for p in problems:
        print("FAIL:", p)
    if problems:
        sys.exit(1)
    print(f"completion covers every subcommand, option and fixed word of {len(args.program)} programs")


if __name__ == "__main__":
    main()
