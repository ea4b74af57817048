#!/usr/bin/env python3
"""Rebuild scope: a harness depends only on its own block's RTL, model and sources and on the
shared code (rtl/common, cmodel/common, sw/common, tb/common, the shared headers), so touching one block
rebuilds only that block's harnesses (docs/conventions.md, "Rebuilds").

Reads the prerequisites make knows (`make -pn tools`: the rule database, nothing is built) and
checks every harness binary, every block's model library and its objects. Ends with
'N passed, N failed'.
"""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import blocks  # noqa: E402

BUILD = os.environ.get("BUILD", "build")


def database():
    p = subprocess.run(["make", "-pn", "tools"], cwd=ROOT, stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL, universal_newlines=True)
    rules = {}
    for line in p.stdout.splitlines():
        m = re.match(r"^([^\s#:=][^:=]*?):(?!=)\s*(.*)$", line)
        if m and "%" not in m.group(1):
            rules.setdefault(m.group(1).strip(), []).extend(m.group(2).split("|")[0].split())
    return rules


def main():
    every = blocks.load()
    rules = database()
    shared = [b for b in every if b.kind == "shared"]
    npass = nfail = 0

    def check(ok, what):
        nonlocal npass, nfail
        if ok:
            npass += 1
        else:
            nfail += 1
            print("FAIL " + what)
        return ok

    for b in every:
        hdrs = set(blocks.model_headers(b, every))
        ok_dirs = {"rtl/common/", b.rtl_dir + "/", "tb/common/", "cmodel/%s/" % b.name,
                   "sw/%s/" % b.name}
        lib = "%s/cmodel/lib%s.a" % (BUILD, b.name)
        for h in b.harnesses:
            target = "%s/tb/%s/%s" % (BUILD, h.name, h.name)
            pre = rules.get(target)
            if not check(pre is not None, "%s: make has no rule" % target):
                continue
            allowed = set(h.verilog + h.deps + [h.cpp])
            own = {"%s/tb/%s/flags.txt" % (BUILD, h.name), "%s/tb/_runtime/stamp" % BUILD,
                   "%s/tb/_runtime_nt/stamp" % BUILD, lib}
            bad = [p for p in pre if p not in allowed and p not in own and p not in hdrs
                   and not any(p.startswith(d) for d in ok_dirs | {os.path.dirname(h.cpp) + "/"})]
            check(not bad, "%s (%s) depends on %s" % (target, b.name, " ".join(bad[:5])))
            check(lib in pre, "%s depends on its block's model library %s" % (target, lib))
        objs = rules.get(lib, [])
        okobj = ("%s/cmodel/opt/cmodel/common/" % BUILD, "%s/cmodel/opt/sw/common/lib" % BUILD,
                 "%s/cmodel/opt/cmodel/%s/" % (BUILD, b.name),
                 "%s/cmodel/opt/sw/%s/lib" % (BUILD, b.name))
        bad = [o for o in objs if not o.startswith(okobj)]
        check(bool(objs) and not bad, "%s holds only shared and own objects (not %s)" % (lib, " ".join(bad[:5])))
        for o in objs:
            if "/cmodel/common/" in o or "/sw/common/" in o:
                continue
            # its own headers, the shared ones, and the shared host headers (sw/common: the
            # driver bus layer)
            extra = [p for p in rules.get(o, []) if p.endswith(".h") and p not in hdrs
                     and not p.startswith(("cmodel/%s/" % b.name, "sw/%s/" % b.name, "sw/common/"))]
            check(not extra, "%s depends on another block's header %s" % (o, " ".join(extra[:5])))
    for s in shared:
        for o in rules.get("%s/cmodel/lib%s.a" % (BUILD, s.name), []):
            extra = [p for p in rules.get(o, []) if p.endswith(".h")
                     and any(b.kind == "block" and b.owns(p) for b in every)]
            check(not extra, "%s (shared) depends on a block's header %s" % (o, " ".join(extra[:5])))
    print("rebuild scope: %d harnesses of %d blocks" % (sum(len(b.harnesses) for b in every), len(every)))
    print("%d passed, %d failed" % (npass, nfail))
    sys.exit(1 if nfail else 0)


if __name__ == "__main__":
    main()
