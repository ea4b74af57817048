"""The structure test (`python3 scripts/blocks.py check`, regression entry structure/blocks_complete).

Every block has every part, and the project's generic files name no block:
  - the description parses, names files that exist, and lists every rtl/<block>/*.v exactly once,
    in dependency order (a module after every module of its folder it instantiates);
  - file names in rtl/<block>, cmodel/<block>, sw/<block>, tb/<block> carry the block's name or
    its one prefix (docs/conventions.md, "Naming");
  - a block (kind = "block") has its docs page docs/<block>.md, a README row linking it, at least
    one regression entry, one synthesis configuration, one workload for `make` whose harness it
    describes, and a top module;
  - every harness's sources exist and its parameters are parameters of its top;
  - every regression list belongs to at most one description, and its entries' first column is
    that block's name; a list no description claims (lint, synth, structure) names no block;
  - the Makefile, scripts/*, synth/*.py, tests/run_tests.py and .ci/run name no block.
Prints one line per check and ends with 'N passed, N failed'.
"""
import glob
import os
import re

import blocks

ROOT = blocks.ROOT
GENERIC = ["Makefile", ".ci/run", "tests/run_tests.py"] + \
    sorted(glob.glob("scripts/*", root_dir=ROOT)) + sorted(glob.glob("synth/*.py", root_dir=ROOT))


class Checker:
    def __init__(self):
        self.npass = self.nfail = 0

    def check(self, ok, what, why=""):
        if ok:
            self.npass += 1
        else:
            self.nfail += 1
            print("FAIL %s%s" % (what, (": " + why) if why else ""))
        return ok


def read(path):
    with open(os.path.join(ROOT, path), errors="replace") as f:
        return f.read()


def instantiated(path, names):
    src = re.sub(r"//[^\n]*|/\*.*?\*/", " ", read(path), flags=re.S)
    return {m for m in re.findall(r"^\s*(\w+)\s*(?:#\s*\(|\w+\s*\()", src, re.M) if m in names}


def list_entries(path):
    out = []
    for n, line in enumerate(read(path).splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if line:
            out.append((n, line.split(None, 2)))
    return out


def check_block(c, b, every):
    name = b.name
    # RTL files: exist, all listed, dependency order
    on_disk = sorted(os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, b.rtl_dir, "*.v")))
    c.check(sorted(b.rtl) == on_disk and len(set(b.rtl)) == len(b.rtl),
            "%s: rtl lists every %s/*.v once" % (b.path, b.rtl_dir),
            "listed but missing %s; on disk but not listed %s" % (
                sorted(set(b.rtl) - set(on_disk)), sorted(set(on_disk) - set(b.rtl))))
    mods = {os.path.basename(f)[:-2]: i for i, f in enumerate(b.rtl)}
    for f in b.rtl:
        if not os.path.isfile(os.path.join(ROOT, f)):
            continue
        m = os.path.basename(f)[:-2]
        late = sorted(x for x in instantiated(f, mods) if x != m and mods[x] > mods[m])
        c.check(not late, "%s: %s after the modules it instantiates" % (b.path, f),
                "it instantiates %s, listed later" % ", ".join(late))
    # naming
    for d in (b.rtl_dir, "cmodel/" + name, "sw/" + name, "tb/" + name):
        for p in sorted(glob.glob(os.path.join(ROOT, d, "*"))):
            base = os.path.basename(p)
            if base in ("block.toml", "lint.vlt", "iverilog.waive", "README.md") or os.path.isdir(p):
                continue
            if name == "common":
                continue  # the shared folders hold many families of cells (cc_*, fp_*, tb_lib)
            c.check(b.owns(base), "%s/%s carries the name '%s' or prefix '%s'" % (d, base, name,
                                                                                 b.prefix))
    # harnesses
    for h in b.harnesses:
        for f in [h.cpp] + h.verilog + h.deps:
            c.check(os.path.isfile(os.path.join(ROOT, f)), "%s: harness %s: %s exists" % (b.path, h.name, f))
        try:
            h.all_params()
            c.check(True, "")
        except blocks.DescriptionError as e:
            c.check(False, "%s: harness %s parameters" % (b.path, h.name), str(e))
    # sanitized harnesses (docs/harness.md): one configuration of each regression harness
    # source is built with sanitize = true, and a list entry runs it
    san = {h.cpp: h.name for h in b.harnesses if h.sanitize}
    runs = " ".join(parts[2] for l in b.lists if os.path.isfile(os.path.join(ROOT, l))
                    for _, parts in list_entries(l) if len(parts) == 3)
    for cpp in sorted({h.cpp for h in b.harnesses if not h.bench}):
        if c.check(cpp in san, "%s: %s has a configuration with sanitize = true" % (b.path, cpp)):
            c.check("/%s-san" % san[cpp] in runs, "%s: a list entry runs %s-san" % (b.path, san[cpp]))
    # lists
    entries = 0
    for l in b.lists:
        if not c.check(os.path.isfile(os.path.join(ROOT, l)), "%s: list %s exists" % (b.path, l)):
            continue
        for n, parts in list_entries(l):
            entries += 1
            c.check(len(parts) == 3 and parts[0] == name, "%s:%d: entry belongs to block '%s'"
                    % (l, n, name), "first column is '%s'" % parts[0])
    c.check(entries > 0, "%s: at least one regression entry" % b.path)
    c.check(len(b.synth_configs()) > 0, "%s: at least one synthesis configuration" % b.path)
    for d in b.docs:
        c.check(os.path.isfile(os.path.join(ROOT, d)), "%s: docs page %s exists" % (b.path, d))
    if b.bench:
        c.check(os.path.isfile(os.path.join(ROOT, b.bench.get("script", ""))),
                "%s: bench script %s exists" % (b.path, b.bench.get("script")))
    if b.kind != "block":
        return
    page = "docs/%s.md" % name
    c.check(page in b.docs and os.path.isfile(os.path.join(ROOT, page)),
            "%s: docs page %s (listed in docs)" % (b.path, page))
    readme = read("README.md")
    c.check(re.search(r"^\|.*\(%s\).*\|\s*$" % re.escape(page), readme, re.M) is not None,
            "README.md: a table row linking %s" % page)
    c.check(bool(b.top) and os.path.isfile(os.path.join(ROOT, b.rtl_dir, b.top + ".v")),
            "%s: top %s.v in %s" % (b.path, b.top, b.rtl_dir))
    c.check(os.path.isfile(os.path.join(ROOT, "cmodel/include/%s.h" % name)),
            "%s: model header cmodel/include/%s.h" % (b.path, name))
    w = b.workload
    if c.check(w is not None, "%s: a [workload] for make" % b.path):
        missing = [k for k in blocks.WORKLOAD_KEYS if k not in w]
        c.check(not missing, "%s: [workload] has every key" % b.path, "missing " + ", ".join(missing))
        c.check(w.get("harness") in {h.name for h in b.harnesses if not h.bench},
                "%s: [workload] harness %r is one of its (non-bench) harnesses" % (b.path, w.get("harness")))
        names = {n for _, text in b.synth_configs() for n in text.split()[:1]}
        c.check(w.get("area") in names, "%s: [workload] area %r is one of its synthesis "
                "configurations" % (b.path, w.get("area")))


def check_lists(c, every):
    claimed = {}
    for b in every:
        for l in b.lists:
            c.check(l not in claimed, "%s is claimed by one description" % l,
                    "also by %s" % claimed.get(l))
            claimed[l] = b.name
    names = {b.name for b in every}
    for l in sorted(glob.glob("tests/*.list", root_dir=ROOT)):
        if l in claimed:
            continue
        bad = sorted({parts[0] for _, parts in list_entries(l) if parts[0] in names})
        c.check(not bad, "%s (a project list) holds no block's entries" % l,
                "entries of %s: add the list to that block's description" % ", ".join(bad))


def check_generic(c, every):
    words = sorted({w for b in every if b.kind == "block" for w in (b.name, b.prefix)})
    if not words:
        return
    pat = re.compile(r"\b(?:%s)\w*" % "|".join(map(re.escape, words)), re.I)
    for f in GENERIC:
        if not os.path.isfile(os.path.join(ROOT, f)) or f.endswith(".pyc"):
            continue
        hits = sorted(set(pat.findall(read(f))))
        c.check(not hits, "%s names no block" % f, "found %s" % ", ".join(hits))


def run(every):
    c = Checker()
    for b in every:
        check_block(c, b, every)
    check_lists(c, every)
    check_generic(c, every)
    print("structure: %d block descriptions (%s)" % (len(every), ", ".join(b.name for b in every)))
    print("%d passed, %d failed" % (c.npass, c.nfail))
    return 1 if c.nfail else 0
