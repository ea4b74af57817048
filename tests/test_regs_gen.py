#!/usr/bin/env python3
"""The register-map generator (scripts/gen_regs.py, docs/regs/README.md).

For every rtl/<blk>/<blk>_regs.rdl:
  - the committed outputs are fresh (gen_regs.py --check);
  - rtl/<blk>/<blk>_regs.v passes verilator --lint-only -Wall and iverilog -g2005 -Wall without a
    message, and Yosys synth;
  - sw/<blk>/<blk>_regs.h compiles as C11 (-Wall -Wextra -Werror -pedantic) and as C++.
Then: the freshness check notices a stale output (in a scratch copy) and the regeneration fixes
it; the Icarus testbench tests/regs_tb/regs_tb.v passes against the generated neummu_regs (every
field kind); the generator rejects bad descriptions with one line naming the field.

One line per check, the last line 'N passed, N failed'; exit status 1 on any failure.
"""
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
GEN = os.path.join(ROOT, "scripts", "gen_regs.py")
TB_BLOCK = "neummu"

npass = nfail = 0


def run(cmd, cwd=ROOT):
    p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True)
    return p.returncode, p.stdout, p.stderr


def check(ok, what, detail=""):
    global npass, nfail
    if ok:
        npass += 1
    else:
        nfail += 1
    tail = (": " + detail) if (detail and not ok) else ""
    print("%-4s %s%s" % ("ok" if ok else "FAIL", what, tail), flush=True)
    return ok


def first(text, n=5):
    lines = [l for l in text.strip().splitlines() if l.strip()]
    return " | ".join(lines[:n])


def check_block(blk, tmp):
    rdl = "rtl/%s/%s_regs.rdl" % (blk, blk)
    v = "rtl/%s/%s_regs.v" % (blk, blk)
    h = "sw/%s/%s_regs.h" % (blk, blk)
    rc, out, err = run([sys.executable, GEN, rdl, "--check"])
    check(rc == 0, "%s: outputs fresh (gen_regs.py --check)" % blk, first(err + out))
    vlt = [f for f in ("rtl/common/lint.vlt", "rtl/%s/lint.vlt" % blk) if os.path.isfile(
        os.path.join(ROOT, f))]
    rc, out, err = run(["verilator", "--lint-only", "-Wall", "-Irtl/common"] + vlt
                       + ["--top-module", blk + "_regs", v])
    check(rc == 0 and not (out + err).strip(), "%s: %s verilator --lint-only -Wall" % (blk, v),
          first(out + err))
    rc, out, err = run(["iverilog", "-g2005", "-Wall", "-Irtl/common", "-s", blk + "_regs",
                        "-o", os.devnull, v])
    check(rc == 0 and not (out + err).strip(), "%s: %s iverilog -g2005 -Wall" % (blk, v),
          first(out + err))
    rc, out, err = run(["yosys", "-q", "-p", "read_verilog -Irtl/common %s; synth -top %s_regs"
                        % (v, blk)])
    check(rc == 0 and "warning" not in (out + err).lower(), "%s: %s yosys synth" % (blk, v),
          first(out + err))
    src = os.path.join(tmp, "hdr_%s.c" % blk)
    with open(src, "w") as f:
        f.write('#include "%s_regs.h"\nint main(void) { return (int)(sizeof(%s_t) == 0u) + '
                '(int)(%s__ID_OFFSET != 0u); }\n' % (blk, blk, blk.upper()))
    cxx = os.path.join(tmp, "hdr_%s.cpp" % blk)
    shutil.copy(src, cxx)
    inc = "-I" + os.path.join(ROOT, "sw", blk)
    rc, out, err = run(["cc", "-std=c11", "-Wall", "-Wextra", "-Werror", "-pedantic", inc,
                        "-c", src, "-o", os.path.join(tmp, "hdr.o")])
    check(rc == 0, "%s: %s compiles as C11 (-Wall -Wextra -Werror -pedantic)" % (blk, h),
          first(out + err))
    rc, out, err = run(["c++", "-std=c++11", "-Wall", "-Wextra", "-Werror", inc,
                        "-c", cxx, "-o", os.path.join(tmp, "hdr.o")])
    check(rc == 0, "%s: %s compiles as C++" % (blk, h), first(out + err))


def check_stale(blk, tmp):
    """A scratch copy of the generator and one block: a changed output is reported, by name."""
    scratch = os.path.join(tmp, "stale")
    rdl = "rtl/%s/%s_regs.rdl" % (blk, blk)
    outs = ["rtl/%s/%s_regs.v" % (blk, blk), "sw/%s/%s_regs.h" % (blk, blk),
            "docs/regs/%s.md" % blk, "rtl/%s/%s_csr.v" % (blk, blk)]
    for f in ["scripts/gen_regs.py", "rtl/common/cc_shell_regs.rdl", rdl] + outs:
        os.makedirs(os.path.dirname(os.path.join(scratch, f)), exist_ok=True)
        shutil.copy(os.path.join(ROOT, f), os.path.join(scratch, f))
    gen = [sys.executable, os.path.join(scratch, "scripts", "gen_regs.py"), rdl]
    rc, out, err = run(gen + ["--check"], cwd=scratch)
    check(rc == 0, "freshness check passes in a scratch copy (%s)" % blk, first(err + out))
    for f in outs:
        with open(os.path.join(scratch, f), "a") as fh:
            fh.write("\n")
        rc, out, err = run(gen + ["--check"], cwd=scratch)
        shutil.copy(os.path.join(ROOT, f), os.path.join(scratch, f))
        lines = err.strip().splitlines()
        check(rc != 0 and len(lines) == 1 and f in lines[0] and "stale" in lines[0],
              "freshness check reports a stale %s in one line" % f, first(err + out))
    with open(os.path.join(scratch, outs[0]), "a") as fh:
        fh.write("\n")
    rc, out, err = run(gen, cwd=scratch)
    rc2, out2, err2 = run(gen + ["--check"], cwd=scratch)
    check(rc == 0 and rc2 == 0, "regeneration makes the scratch copy fresh again",
          first(err + err2))


def check_tb(tmp):
    vvp = os.path.join(tmp, "regs_tb.vvp")
    rc, out, err = run(["iverilog", "-g2005", "-Wall", "-Irtl/common", "-s", "regs_tb", "-o", vvp,
                        "tests/regs_tb/regs_tb.v", "rtl/%s/%s_regs.v" % (TB_BLOCK, TB_BLOCK)])
    if not check(rc == 0 and not (out + err).strip(), "tests/regs_tb/regs_tb.v compiles "
                 "(iverilog -g2005 -Wall)", first(out + err)):
        return
    rc, out, err = run(["vvp", "-n", vvp])
    lines = out.strip().splitlines()
    m = re.match(r"^(\d+) passed, (\d+) failed$", lines[-1]) if lines else None
    ok = rc == 0 and m is not None and int(m.group(1)) > 0 and int(m.group(2)) == 0
    check(ok, "simulation of %s_regs (regs_tb): %s"
          % (TB_BLOCK, lines[-1] if lines else "no output"),
          first("\n".join(l for l in lines if l.startswith("FAIL")) + err))


BAD = [
    # (what, field text inside reg R, expected words in the one-line error)
    ("unsupported property (rclr)",
     "field { sw = r; hw = w; rclr; desc = \"x\"; } F[0:0];", ["bad.R.F", "unsupported"]),
    ("unsupported property (counter)",
     "field { sw = r; hw = rw; counter; desc = \"x\"; } F[7:0] = 0;", ["bad.R.F", "unsupported"]),
    ("unsupported access (sw=rw, hw=rw)",
     "field { sw = rw; hw = rw; desc = \"x\"; } F[3:0] = 0;", ["bad.R.F", "sw=rw, hw=rw"]),
    ("unsupported access (woclr without hwset)",
     "field { sw = rw; hw = r; onwrite = woclr; desc = \"x\"; } F[0:0] = 0;", ["bad.R.F"]),
    ("rw field without a reset value",
     "field { sw = rw; hw = r; desc = \"x\"; } F[0:0];", ["bad.R.F", "reset"]),
]


def check_bad(tmp):
    d = os.path.join(tmp, "bad")
    os.makedirs(d, exist_ok=True)
    for what, field, words in BAD:
        path = os.path.join(d, "bad_regs.rdl")
        with open(path, "w") as f:
            f.write('`include "cc_shell_regs.rdl"\n'
                    'addrmap bad {\n  `CC_SHELL_REGS(0x1234, 1)\n'
                    '  reg { desc = "r"; %s } R @ 0x40;\n};\n' % field)
        # --check: nothing is written whatever happens
        rc, out, err = run([sys.executable, GEN, path, "--check"])
        lines = err.replace(d + os.sep, "").strip().splitlines()
        ok = rc != 0 and len(lines) == 1 and all(w in lines[0] for w in words)
        check(ok, "rejects %s in one line: %s" % (what, lines[0] if lines else "(nothing)"),
              first(err + out))


def main():
    # one description per block folder: rtl/<blk>/<blk>_regs.rdl (not rtl/common's shared part)
    blks = sorted(os.path.basename(os.path.dirname(p))
                  for p in glob.glob(os.path.join(ROOT, "rtl", "*", "*_regs.rdl"))
                  if os.path.basename(p) == os.path.basename(os.path.dirname(p)) + "_regs.rdl")
    check(TB_BLOCK in blks and len(blks) >= 1, "register descriptions: %s" % ", ".join(blks))
    with tempfile.TemporaryDirectory() as tmp:
        for b in blks:
            check_block(b, tmp)
        check_stale(blks[-1], tmp)
        check_tb(tmp)
        check_bad(tmp)
    print("%d passed, %d failed" % (npass, nfail))
    sys.exit(1 if nfail or not npass else 0)


if __name__ == "__main__":
    main()
