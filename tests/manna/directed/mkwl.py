#!/usr/bin/env python3
"""mkwl.py -- turns a directed MANNA program (tests/manna/directed/*.s) into a workload file
(docs/manna.md, "Workload files") for the harness manna_t2e4, and checks on the golden model
that every run of it ends the way the program says it should (its '#@ s' expectations).

  mkwl.py [--as MNA_AS] [--model LIB.so] [--outdir DIR] [--dump SPACE] FILE.s

The program is assembled with mna_as and loaded into every tile's IMEM from address 0. The
directives, comment lines of the form '#@ ...' (the assembler skips them), become the workload's
records in file order:

  #@ m T SPACE ADDR V ...   memory words (T: tile or '*'; SPACE: mb ms vb vs sreg; ADDR: a word
                            address, or lN for line N = word N*E). A value V is 0x hex (32 bits),
                            a decimal integer (two's complement), an fp32 literal with an f
                            suffix (1.5f, -0f, 1e-45f, inff, -inff, nanf, -nanf; decimal literals
                            are rounded to nearest even exactly), V*K (K copies), or
                            ramp:K:START:STEP (K fp32 values START + i*STEP).
  #@ p T ADDR W ...         IMEM words for one tile (or '*'): 16-digit hex words or, separated
                            by '|', instructions in assembly (one word each)
  #@ s PC EXPECT ...        START every tile at PC (a number or a label of the program) and run;
                            EXPECT is all=STATUS[@PC] or tN=STATUS[@PC] (STATUS a name of
                            docs/manna.md "Errors", PC a number or a label): the status and
                            stopping PC the model must report for that run, for every tile or
                            for tile N (the harness then checks that the RTL reports the same
                            status word, bit for bit)

The model is the golden model cmodel/manna/manna.c built as a shared library (run.sh builds
build/manna_dir/libmna_model.so), called through ctypes: mna_new, mna_host (the records, as the
harness sends them), mna_run, mna_tile_status.

The expected values of memories and registers are never written here: the harness computes them
with the golden model (tb/manna/tb_manna.cpp compares every word of every memory of every tile,
and every tile's status word after every run). The expectations checked here only make sure a
program does what its header says (a directed test that ran into an unintended error would
otherwise compare two equal but meaningless results).

Prints one line: the model's status of each run with the stopping PC, once when every tile has
the same, else tile by tile ("r1 DONE@40 r2 ADDR@7,COLL@3"); exit status 1 when an expectation
fails, 2 for a malformed file or a tool that fails. --dump prints a memory after the last run
(for writing a test, not used by run.sh).
"""
import argparse
import ctypes
import os
import re
import struct
import subprocess
import sys
import tomllib
from fractions import Fraction

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
HARNESS = "manna_t2e4"
STATUS = {"IDLE": 0, "DONE": 1, "OPCODE": 2, "FIELD": 3, "ADDR": 4, "LOOP": 5, "PC": 6, "COLL": 7,
          "TIMEOUT": 8, "RUN": 15}
STNAME = {v: k for k, v in STATUS.items()}
SPACES = {"imem": 0, "mb": 1, "ms": 2, "vb": 3, "vs": 4, "sreg": 5}


class Bad(Exception):
    pass


def config():
    """The harness's parameters (rtl/manna/block.toml)."""
    with open(os.path.join(ROOT, "rtl/manna/block.toml"), "rb") as f:
        p = tomllib.load(f)["harness"][HARNESS]["params"]
    return {"tiles": p["Tiles"], "emacs": p["Emacs"], "mb": p["MbLines"], "ms": p["MsLines"],
            "vb": p["VbLines"], "vs": p["VsLines"], "imem": p["ImemDepth"], "rf": p["RfRegs"],
            "fence": p["FenceTimeout"]}


# ---------------------------------------------------------------- values
def f32_from_fraction(q, neg):
    """The fp32 bits nearest to the exact rational |q| (ties to even), sign neg."""
    sign = 0x80000000 if neg else 0
    if q == 0:
        return sign
    e = q.numerator.bit_length() - q.denominator.bit_length()
    while Fraction(2) ** e > q:
        e -= 1
    while Fraction(2) ** (e + 1) <= q:
        e += 1
    if e < -126:
        e = -126
    m = q / Fraction(2) ** (e - 23)
    mi = m.numerator // m.denominator
    rem = m - mi
    if rem > Fraction(1, 2) or (rem == Fraction(1, 2) and (mi & 1)):
        mi += 1
    if mi == 1 << 24:
        mi >>= 1
        e += 1
    if e > 127:
        return sign | 0x7F800000
    if mi < 1 << 23:                       # subnormal (e == -126)
        return sign | mi
    return sign | ((e + 127) << 23) | (mi - (1 << 23))


def f32_literal(t):
    neg = t.startswith("-")
    body = t[1:] if t[0] in "+-" else t
    if body in ("inf", "infinity"):
        return (0x80000000 if neg else 0) | 0x7F800000
    if body == "nan":
        return (0x80000000 if neg else 0) | 0x7FC00000
    try:
        q = Fraction(body)
    except (ValueError, ZeroDivisionError):
        raise Bad("bad fp32 literal '%sf'" % t)
    return f32_from_fraction(q, neg)


def value(t):
    """One value token -> list of 32-bit words."""
    if t.startswith("ramp:"):
        parts = t.split(":")
        if len(parts) != 4:
            raise Bad("bad ramp '%s' (expected ramp:K:START:STEP)" % t)
        k = int(parts[1])
        start, step = Fraction(parts[2]), Fraction(parts[3])
        out = []
        for i in range(k):
            v = start + i * step
            out.append(f32_from_fraction(abs(v), v < 0))
        return out
    if "*" in t:
        v, k = t.rsplit("*", 1)
        return value(v) * int(k, 0)
    if len(t) > 1 and t[-1] in "fF" and not t.lower().lstrip("+-").startswith("0x"):
        return [f32_literal(t[:-1])]
    try:
        v = int(t, 0)
    except ValueError:
        raise Bad("bad value '%s'" % t)
    if not -(1 << 31) <= v < (1 << 32):
        raise Bad("value '%s' out of 32 bits" % t)
    return [v & 0xFFFFFFFF]


# ---------------------------------------------------------------- the program
def labels_of(src):
    """Label -> PC, counting words as mna_as does (one per instruction, one per .word value)."""
    labels, pc = {}, 0
    for line in src.splitlines():
        line = re.split(r"[#;]", line, 1)[0]
        s = line.strip()
        while True:
            m = re.match(r"^([A-Za-z_][A-Za-z0-9_.]*):\s*(.*)$", s)
            if not m:
                break
            labels[m.group(1)] = pc
            s = m.group(2).strip()
        if not s:
            continue
        parts = s.split(None, 1)
        if parts[0] == ".word":
            pc += len([x for x in re.split(r"[,\s]+", parts[1]) if x])
        else:
            pc += 1
    return labels, pc


def assemble(mna_as, text, name):
    p = subprocess.run([mna_as, "-"], input=text, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True)
    if p.returncode != 0:
        raise Bad("%s: %s" % (name, p.stderr.strip()))
    return [int(x, 16) for x in p.stdout.split()]


def pc_value(t, labels):
    if t in labels:
        return labels[t]
    try:
        return int(t, 0)
    except ValueError:
        raise Bad("unknown label or PC '%s'" % t)


def parse(path, cfg, mna_as):
    src = open(path).read()
    labels, nwords = labels_of(src)
    prog = assemble(mna_as, src, path)
    if len(prog) != nwords:
        raise Bad("label count mismatch: %d words assembled, %d counted" % (len(prog), nwords))
    if len(prog) > cfg["imem"]:
        raise Bad("program of %d words is longer than IMEM" % len(prog))
    recs = [("p", "*", 0, prog)] if prog else []
    E = cfg["emacs"]
    for no, line in enumerate(src.splitlines(), 1):
        if not line.startswith("#@"):
            continue
        tok = line[2:].split("#", 1)[0].split()
        try:
            if not tok:
                continue
            kind = tok[0]
            if kind == "m":
                tile, space, addr = tok[1], tok[2], tok[3]
                if space not in SPACES or space == "imem":
                    raise Bad("bad space '%s'" % space)
                a = int(addr[1:], 0) * E if addr.startswith("l") else int(addr, 0)
                words = []
                for t in tok[4:]:
                    words += value(t)
                if not words:
                    raise Bad("no values")
                recs.append(("m", tile, space, a, words))
            elif kind == "p":
                tile, addr = tok[1], pc_value(tok[2], labels)
                rest = line[2:].split("#", 1)[0].split(None, 3)[3]
                if re.fullmatch(r"(\s*[0-9a-fA-F]{16})+\s*", rest):
                    words = [int(x, 16) for x in rest.split()]
                else:
                    words = assemble(mna_as, "\n".join(rest.split("|")) + "\n",
                                     "%s:%d" % (path, no))
                recs.append(("p", tile, addr, words))
            elif kind == "s":
                pc = pc_value(tok[1], labels)
                exp = {}
                for t in tok[2:]:
                    m = re.fullmatch(r"(all|t(\d+))=([A-Z]+)(?:@(\S+))?", t)
                    if not m or m.group(3) not in STATUS:
                        raise Bad("bad expectation '%s' (expected all=STATUS or tN=STATUS[@PC])"
                                  % t)
                    wpc = pc_value(m.group(4), labels) if m.group(4) else None
                    want = (STATUS[m.group(3)], wpc)
                    tiles = range(cfg["tiles"]) if m.group(1) == "all" else [int(m.group(2))]
                    for ti in tiles:
                        if ti >= cfg["tiles"]:
                            raise Bad("tile %d: the build has %d tiles" % (ti, cfg["tiles"]))
                        exp[ti] = want
                if not exp:
                    raise Bad("a run without an expectation")
                recs.append(("s", pc, exp))
            else:
                raise Bad("unknown directive '%s'" % kind)
        except (Bad, IndexError, ValueError) as e:
            raise Bad("%s:%d: %s" % (path, no, e if isinstance(e, Bad) else "malformed directive"))
    if not any(r[0] == "s" for r in recs):
        raise Bad("%s: no run ('#@ s')" % path)
    return recs


def write_workload(path, recs, cfg, src_name):
    with open(path, "w") as f:
        f.write("# MANNA directed test %s (tests/manna/directed/mkwl.py)\n" % src_name)
        f.write("cfg tiles=%d emacs=%d mb=%d ms=%d vb=%d vs=%d imem=%d rf=%d\n" %
                (cfg["tiles"], cfg["emacs"], cfg["mb"], cfg["ms"], cfg["vb"], cfg["vs"],
                 cfg["imem"], cfg["rf"]))
        for r in recs:
            if r[0] == "p":
                for i in range(0, len(r[3]), 8):
                    f.write("p %s %d %s\n" % (r[1], r[2] + i,
                                              " ".join("%016x" % w for w in r[3][i:i + 8])))
            elif r[0] == "m":
                for i in range(0, len(r[4]), 16):
                    f.write("m %s %s %d %s\n" % (r[1], r[2], r[3] + i,
                                                 " ".join("%08x" % w for w in r[4][i:i + 16])))
            else:
                f.write("s %d\n" % r[1])


# ---------------------------------------------------------------- the golden model (ctypes)
class Cfg(ctypes.Structure):
    _fields_ = [(n, ctypes.c_int) for n in ("tiles", "emacs", "mb_lines", "ms_lines", "vb_lines",
                                            "vs_lines", "imem_depth", "rf_regs", "transpose",
                                            "emac_ops")] + [("fence_timeout", ctypes.c_uint32)]


class TileStatus(ctypes.Structure):
    _fields_ = [("status", ctypes.c_int), ("pc", ctypes.c_uint32), ("insns", ctypes.c_uint32),
                ("abort_valid", ctypes.c_int), ("abort_line", ctypes.c_uint32),
                ("abort_lines", ctypes.c_uint32)]


def model_runs(lib_path, recs, cfg, dump):
    lib = ctypes.CDLL(lib_path)
    lib.mna_new.restype = ctypes.c_void_p
    lib.mna_new.argtypes = [ctypes.POINTER(Cfg)]
    lib.mna_free.argtypes = [ctypes.c_void_p]
    lib.mna_host.restype = ctypes.c_int
    lib.mna_host.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int, ctypes.c_int,
                             ctypes.c_int, ctypes.c_uint32, ctypes.c_uint64,
                             ctypes.POINTER(ctypes.c_uint64)]
    lib.mna_run.restype = ctypes.c_int
    lib.mna_run.argtypes = [ctypes.c_void_p, ctypes.c_uint64]
    lib.mna_tile_status.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.POINTER(TileStatus)]
    c = Cfg()
    lib.mna_cfg_default(ctypes.byref(c))
    c.tiles, c.emacs = cfg["tiles"], cfg["emacs"]
    c.mb_lines, c.ms_lines, c.vb_lines, c.vs_lines = cfg["mb"], cfg["ms"], cfg["vb"], cfg["vs"]
    c.imem_depth, c.rf_regs, c.fence_timeout = cfg["imem"], cfg["rf"], cfg["fence"]
    m = lib.mna_new(ctypes.byref(c))
    if not m:
        raise Bad("mna_new failed")
    runs = []
    try:
        for r in recs:
            if r[0] in "pm":
                space = 0 if r[0] == "p" else SPACES[r[2]]
                addr, words = (r[2], r[3]) if r[0] == "p" else (r[3], r[4])
                for i, w in enumerate(words):
                    every = r[1] == "*"
                    rc = lib.mna_host(m, 0, 1 if every else 0, 0 if every else int(r[1]), space,
                                      addr + i, w, None)
                    if rc != 0:
                        raise Bad("host WRITE of %s word %d refused (%d)" % (r[0], addr + i, rc))
            else:
                if lib.mna_host(m, 2, 0, 0, 0, r[1], 0, None) != 0:
                    raise Bad("START refused")
                if lib.mna_run(m, 100000000) != 0:
                    raise Bad("the model ran past 10^8 instructions")
                sts = []
                for ti in range(cfg["tiles"]):
                    st = TileStatus()
                    lib.mna_tile_status(m, ti, ctypes.byref(st))
                    sts.append((st.status, st.pc, st.insns))
                runs.append((r[2], sts))
        if dump:
            n = 16 if dump == "sreg" else cfg[dump] * cfg["emacs"]
            v = ctypes.c_uint64()
            for ti in range(cfg["tiles"]):
                words = []
                for w in range(n):
                    lib.mna_host(m, 1, 0, ti, SPACES[dump], w, 0, ctypes.byref(v))
                    words.append(v.value)
                print("tile %d %s:" % (ti, dump))
                for i in range(0, n, cfg["emacs"]):
                    print("  %3d: %s" % (i, " ".join(
                        "%08x (%-12.6g)" % (x, struct.unpack("<f", struct.pack("<I", x))[0])
                        for x in words[i:i + cfg["emacs"]])))
    finally:
        lib.mna_free(m)
    return runs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("src")
    ap.add_argument("--as", dest="mna_as", default=os.path.join(ROOT, "build/sw/manna/mna_as"))
    ap.add_argument("--model", default=os.path.join(ROOT, "build/manna_dir/libmna_model.so"))
    ap.add_argument("--outdir", default=os.path.join(ROOT, "build/manna_dir"))
    ap.add_argument("--dump", choices=["mb", "ms", "vb", "vs", "sreg"],
                    help="print a memory of every tile after the last run (the model's)")
    a = ap.parse_args()
    cfg = config()
    name = os.path.splitext(os.path.basename(a.src))[0]
    try:
        recs = parse(a.src, cfg, a.mna_as)
        os.makedirs(a.outdir, exist_ok=True)
        write_workload(os.path.join(a.outdir, name + ".wl"), recs, cfg,
                       os.path.relpath(a.src, ROOT))
        runs = model_runs(a.model, recs, cfg, a.dump)
    except (Bad, OSError) as e:
        print("mkwl: %s" % e)
        return 2
    bad, parts = [], []
    for k, (exp, sts) in enumerate(runs, 1):
        each = ["%s@%d" % (STNAME.get(s, str(s)), pc) for s, pc, _ in sts]
        parts.append("r%d %s" % (k, each[0] if len(set(each)) == 1 else ",".join(each)))
        for ti, (want, wpc) in exp.items():
            s, pc, _ = sts[ti]
            if s != want or (wpc is not None and pc != wpc):
                bad.append("run %d tile %d: model %s pc %d, expected %s%s" %
                           (k, ti, STNAME.get(s, s), pc, STNAME[want],
                            "" if wpc is None else " pc %d" % wpc))
    print(" ".join(parts))
    for b in bad:
        print("mkwl: %s: %s" % (name, b))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
