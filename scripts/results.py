"""Reading what the project's programs print, and writing tables: one module for every script.

- harness and regression output: the result line 'N passed, M failed' and 'key=value' fields;
- the area report's machine-readable table ($BUILD/synth/area.tsv, written by synth/run_synth.py);
- shell commands run from the repository root; Markdown tables.

Import from a script anywhere in the tree with
    sys.path.insert(0, os.path.join(ROOT, "scripts")); import results
"""
import csv
import os
import re
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.environ.get("BUILD", "build")

# The last line of every harness and of the regression (tb_lib.h TbScore::finish, run_tests.py).
RESULT = re.compile(r"^(\d+) passed, (\d+) failed\s*$", re.M)
FIELD = re.compile(r"([A-Za-z_][\w.]*)=(\S+)")


def result_counts(text):
    """(passed, failed) of the last result line in text, or None if there is none."""
    m = list(RESULT.finditer(text))
    return (int(m[-1].group(1)), int(m[-1].group(2))) if m else None


def clean_pass(text):
    """True when text ends its checks with 'N passed, 0 failed' and N > 0."""
    c = result_counts(text)
    return bool(c) and c[0] > 0 and c[1] == 0


def number(s):
    """int or float of a printed number ('12' -> 12, '0.50' -> 0.5); the string if neither."""
    try:
        return int(s)
    except ValueError:
        try:
            return float(s)
        except ValueError:
            return s


def fields(line, numbers=True):
    """The key=value fields of one output line as a dict ('cycles=12 perf=0.5' -> {...})."""
    return {k: (number(v) if numbers else v) for k, v in FIELD.findall(line)}


def line_fields(text, prefix, numbers=True):
    """fields() of the last line of text that starts with prefix, or None."""
    found = None
    for l in text.splitlines():
        if l.startswith(prefix):
            found = l
    return fields(found, numbers) if found is not None else None


def run(cmd, cwd=None, timeout=None):
    """Runs a shell command from the repository root; returns (exit status, stdout+stderr)."""
    p = subprocess.run(cmd, shell=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       cwd=cwd or ROOT, timeout=timeout)
    return p.returncode, p.stdout.decode(errors="replace")


def area_tsv(build=None):
    return os.path.join(build or BUILD, "synth", "area.tsv")


def read_area(build=None):
    """Rows of $BUILD/synth/area.tsv by configuration name ({} if there is no report yet)."""
    path = area_tsv(build)
    if not os.path.exists(path):
        return {}
    with open(path) as f:
        return {r["config"]: r for r in csv.DictReader(f, delimiter="\t")}


def md_table(head, rows, align=None):
    """Markdown table lines; align is a string of 'l'/'r' per column (default all left)."""
    align = align or "l" * len(head)
    out = ["| " + " | ".join(head) + " |",
           "|" + "|".join("--:" if a == "r" else "---" for a in align) + "|"]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return out


def text_table(head, rows):
    """A fixed-width text table (for terminal summaries), as lines."""
    rows = [[str(c) for c in r] for r in rows]
    widths = [max(len(x[i]) for x in rows + [head]) for i in range(len(head))]
    line = lambda r: "| " + " | ".join(c.ljust(widths[i]) for i, c in enumerate(r)) + " |"
    return [line(head), "|" + "|".join("-" * (w + 2) for w in widths) + "|"] + [line(r) for r in rows]
