#!/usr/bin/env python3
"""Yosys area flow: synthesizes every block's configurations and writes the area table.

The configurations come from the block descriptions (rtl/<block>/block.toml, 'synth'; shared
folder first, then the blocks by name), or from a file given with --configs. A configuration of
a block sees only rtl/common and that block's folder. For each configuration
(`<config-name> <top-module> [Param=value ...] [@nocheck] [@nomemmap] [@keep=<module>,...]`;
flags: docs/synth.md) three Yosys runs are made:

  generic  read_verilog -defer <top file>; chparam ...; hierarchy -check -top X;
           synth -top X -flatten; check; stat; stat -tech cmos
           -> total generic cell count, cells by type (raw log), CMOS transistor estimate
  ice40    the same front end, then synth_ice40 -top X -flatten; stat
           -> SB_LUT4, flip-flops (every SB_DFF*), SB_RAM40_4K*, SB_CARRY, SB_MAC16
  ecp5     the same front end, then synth_ecp5 -top X -flatten; stat (default options, so
           multipliers map to MULT18X18D)
           -> LUT4, CCU2C, TRELLIS_FF, DP16KD + PDPW16KD, TRELLIS_DPR16X4, MULT18X18D
              (PFUMX / L6MUX21 wide-LUT muxes and any other primitive go to the notes)

Outputs: the Markdown table (--out, `make synth` uses docs/area.md), the machine-readable
$BUILD/synth/area.tsv, and the raw logs / scripts / JSON statistics under $BUILD/synth/.

--check runs only Yosys's front end (hierarchy, proc, memory inference; no optimization,
mapping, iCE40 or ECP5 run) with `check -assert` and no latch allowed, on every configuration
plus every other RTL module with its default parameters, and ends with 'N passed, N failed'.

A configuration whose top module has no file yet is skipped with a note.
"""
import argparse
import concurrent.futures as cf
import json
import os
import re
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import blocks  # noqa: E402  (the block descriptions)
BUILD = os.environ.get("BUILD", "build")

# Generic gate types that Yosys 0.23 `stat -tech cmos` has a transistor cost for
# (kernel/cost.h). Every other cell (flip-flops with enable/reset, latches) is uncounted
# and Yosys prints the estimate with a trailing '+'.
CMOS_COSTED = {"$_BUF_", "$_NOT_", "$_AND_", "$_NAND_", "$_OR_", "$_NOR_", "$_ANDNOT_",
               "$_ORNOT_", "$_XOR_", "$_XNOR_", "$_AOI3_", "$_OAI3_", "$_AOI4_", "$_OAI4_",
               "$_MUX_", "$_NMUX_", "$_DFF_P_", "$_DFF_N_"}

TSV_COLS = ["config", "module", "params", "cells", "transistors", "lut", "ff", "bram", "carry",
            "mac16", "uncosted_cells",
            "ecp5_lut", "ecp5_ff", "ecp5_bram", "ecp5_ccu2c", "ecp5_dsp", "ecp5_dpram"]
ECP5_COLS = [c for c in TSV_COLS if c.startswith("ecp5_")]

# synth_ecp5 primitives counted in the ECP5 columns (area.tsv column -> cell types); every
# other ECP5 cell type (PFUMX, L6MUX21, ALU54B, ...) is listed in the ECP5 table's notes.
ECP5_TYPES = {"ecp5_lut": ("LUT4",), "ecp5_ff": ("TRELLIS_FF",),
              "ecp5_bram": ("DP16KD", "PDPW16KD"), "ecp5_ccu2c": ("CCU2C",),
              "ecp5_dsp": ("MULT18X18D",), "ecp5_dpram": ("TRELLIS_DPR16X4",)}

FLOWS = ["generic", "ice40", "ecp5"]



# Per-configuration flags of a synthesis line (docs/synth.md, "Flags").
FLAGS = {"@nocheck": "left out of --check",
         "@keep=": "@keep=<module>[,<module>...]: those modules stay their own modules (each "
                   "synthesized once per parameter set, counts summed over the instances); the "
                   "rest is flattened as usual",
         "@nomemmap": "generic flow: inferred memories stay memory cells (bits reported apart)"}
KEEP_RE = re.compile(r"^@keep=([A-Za-z_][A-Za-z0-9_]*(?:,[A-Za-z_][A-Za-z0-9_]*)*)$")


class Config:
    def __init__(self, name, top, params, origin, dirs=None):
        self.name, self.top, self.params, self.origin = name, top, params, origin
        self.nocheck = False   # '@nocheck': left out of --check
        self.flags = set()     # '@nomemmap' (and '@nocheck')
        self.keep = []         # '@keep=a,b': modules kept as hierarchy
        self.dirs = dirs       # the RTL folders it sees (None: every rtl/ folder)

    def param_str(self):
        return " ".join("%s=%s" % kv for kv in self.params)


def die(msg):
    print("run_synth: error: " + msg, file=sys.stderr)
    sys.exit(2)


def config_lines(path):
    """(where, text, dirs) of every configuration line: of the block descriptions, or of a
    file (--configs) whose configurations see every rtl/ folder."""
    if path is None:
        try:
            every = blocks.load()
        except blocks.DescriptionError as e:
            die(str(e))
        return [("%s: synth line %d" % (b.path, n), text, b.rtl_dirs())
                for b in every for n, text in b.synth_configs()]
    try:
        f = open(path)
    except OSError as e:
        die("cannot read %s: %s" % (path, e.strerror))
    with f:
        return [("%s:%d" % (path, n), raw.split("#", 1)[0].strip(), None)
                for n, raw in enumerate(f, 1) if raw.split("#", 1)[0].strip()]


def load_configs(path):
    configs, seen = [], {}
    for where, line, dirs in config_lines(path):
        try:
            name, top, params, raw_flags = blocks.parse_config_line(
                line, where, seen, "<config-name> <top-module> [Param=value ...]")
        except blocks.DescriptionError as e:
            die(str(e))
        flags, keep = set(), []
        for p in raw_flags:
            if p.startswith("@keep"):
                m = KEEP_RE.match(p)
                if not m:
                    die("%s: bad flag '%s' (expected @keep=<module>[,<module>...])" % (where, p))
                keep += m.group(1).split(",")
            elif p in FLAGS:
                flags.add(p)
            else:
                die("%s: unknown flag '%s' (known: %s)" % (where, p, " ".join(FLAGS)))
        configs.append(Config(name, top, params, where, dirs))
        configs[-1].nocheck = "@nocheck" in flags
        configs[-1].flags = flags
        configs[-1].keep = keep
    return configs


def rtl_dirs(rtl_root):
    """rtl/common first, then every other rtl/<block> directory, as paths relative to rtl_root."""
    base = os.path.join(rtl_root, "rtl")
    if not os.path.isdir(base):
        die("no rtl/ directory under %s" % rtl_root)
    dirs = sorted(d for d in os.listdir(base) if os.path.isdir(os.path.join(base, d)))
    if "common" in dirs:
        dirs.remove("common")
        dirs.insert(0, "common")
    return ["rtl/" + d for d in dirs]


def vfiles(rtl_root, d):
    return sorted("%s/%s" % (d, f) for f in os.listdir(os.path.join(rtl_root, d))
                  if f.endswith(".v"))


def find_top(rtl_root, dirs, top):
    for d in dirs:
        if os.path.isfile(os.path.join(rtl_root, d, top + ".v")):
            return d
    return None


def declared_params(path):
    """Best-effort list of parameter names declared in a Verilog file (for error hints)."""
    try:
        src = open(path, errors="replace").read()
    except OSError:
        return None
    src = re.sub(r"//[^\n]*|/\*.*?\*/", " ", src, flags=re.S)
    names = set()
    for m in re.finditer(r"\b(?:parameter|localparam)\b([^;)]*)", src):
        body = re.sub(r"\b(integer|real|signed|unsigned|reg|wire)\b|\[[^\]]*\]", " ", m.group(1))
        for part in body.split(","):
            mm = re.match(r"\s*(?:parameter\s+)?([A-Za-z_][A-Za-z0-9_$]*)\s*=", part)
            if mm:
                names.add(mm.group(1))
    return names


def yosys_script(cfg, top_file, incdirs, flow, json_path, check_mode):
    """The top module's file is read with -defer (so chparam applies before elaboration); every
    other module is loaded on demand by `hierarchy -libdir` from <dir>/<module>.v, so a broken
    file only fails the configurations that use it."""
    s = ["# generated by synth/run_synth.py (%s, %s)" % (cfg.name, flow),
         "verilog_defaults -add %s" % " ".join("-I" + d for d in incdirs),
         "read_verilog -defer %s" % top_file]
    if cfg.params:
        s.append("chparam %s %s" % (" ".join("-set %s %s" % kv for kv in cfg.params), cfg.top))
    s.append("hierarchy -check %s -top %s" % (" ".join("-libdir " + d for d in incdirs), cfg.top))
    # @keep=a,b: modules a and b (every parameter set) get keep_hierarchy, so `flatten` leaves
    # them as their own modules, each synthesized once; the numbers are per-module counts summed
    # over the instances (module_stats). Yosys 0.23 writes broken JSON from `stat -json` when it
    # prints the hierarchy, so the JSON statistics are taken with no top attribute.
    # --check keeps the hierarchy: each module (per parameter set) is checked once, however
    # often it is instantiated (a network of 16 routers checks one router: 52 s -> 9 s); the
    # statistics are then summed over the instances as for @keep.
    flat = "" if check_mode else " -flatten"
    hier = bool(cfg.keep) or check_mode
    if cfg.keep:
        s.append("setattr -mod -set keep_hierarchy 1 %s" % " ".join(
            "%s $paramod*\\%s $paramod\\%s\\*" % (m, m, m) for m in cfg.keep))
    top_opt = (" -top %s" % cfg.top) if hier else ""
    json_stat = (["setattr -mod -unset top"] if hier else [])
    if flow == "generic":
        if check_mode:
            # The front end only: proc (processes to cells: latches show up here as $dlatch,
            # and an unsupported construct fails here) and memory inference, then `check
            # -assert` (multiple drivers, undriven used signals, combinational loops). The
            # rest of synth's coarse and fine steps (opt, fsm, wreduce, alumacc, share,
            # techmap, ABC) transform a netlist that got this far and cannot fail on it; they
            # took two thirds of the check's time (373 s of CPU with synth -run :fine -noshare
            # -noabc, 2026-11-29), and make synth runs them in full.
            s += ["proc", "opt_clean", "memory -nomap", "opt_clean", "check -assert"]
        elif "@nomemmap" in cfg.flags:
            # synth's script without memory_map (its 'fine' step): memories stay $mem_v2 cells
            s += ["synth -top %s%s -run :fine" % (cfg.top, flat), "opt -fast -full", "opt -full",
                  "techmap", "opt -fast", "abc -fast", "opt -fast", "hierarchy -check", "check",
                  "tee -q -o %s dump t:$mem_v2" % (json_path[:-len(".json")] + ".mem.il")]
        else:
            s.append("synth -top %s%s" % (cfg.top, flat))
            s.append("check")
        s += ["stat" + top_opt, "stat -tech cmos" + top_opt] + json_stat + [
            "tee -q -o %s stat -json -tech cmos" % json_path]
    elif flow == "ice40":
        s += ["synth_ice40 -top %s -flatten" % cfg.top,
              "stat" + top_opt] + json_stat + ["tee -q -o %s stat -json" % json_path]
    elif flow == "ecp5":
        s += ["synth_ecp5 -top %s -flatten" % cfg.top,
              "stat" + top_opt] + json_stat + ["tee -q -o %s stat -json" % json_path]
    else:
        raise ValueError("unknown flow %r" % flow)
    return "\n".join(s) + "\n"


def run_yosys(script_path, log_path, cwd, timeout):
    """Runs yosys; returns (ok, seconds, message)."""
    t0 = time.time()
    with open(log_path, "w") as log:
        try:
            p = subprocess.Popen(["yosys", "-s", script_path], cwd=cwd, stdout=log,
                                 stderr=subprocess.STDOUT, start_new_session=True)
        except OSError as e:
            return False, 0.0, "cannot start yosys: %s" % e.strerror
        try:
            rc = p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            p.wait()
            return False, time.time() - t0, "timed out after %d s" % timeout
    dt = time.time() - t0
    if rc == 0:
        return True, dt, ""
    err = ""
    with open(log_path, errors="replace") as log:
        lines = log.read().splitlines()
    for i, l in enumerate(lines):
        if "ERROR:" in l:
            err = l.strip()
            # Yosys sometimes continues the message on the following lines
            for extra in lines[i + 1:i + 4]:
                if extra.strip() and not extra.startswith(("End of script", "Yosys ", "Time")):
                    err += " " + extra.strip()
                else:
                    break
            break
    if not err:
        err = "yosys exited with status %d" % rc
    if "check -assert" in err:
        # name the problems: the Warning lines of the last CHECK pass
        start = max([i for i, l in enumerate(lines) if "Executing CHECK pass" in l] or [0])
        warns = [l[len("Warning: "):].strip() for l in lines[start:] if l.startswith("Warning:")]
        if warns:
            err += " " + "; ".join(warns[:3])
    return False, dt, err[:400]


def _unescape(name):
    return name[1:] if name.startswith("\\") else name


def load_stat_json(path):
    """`stat -json` output. Yosys 0.23 breaks it for a hierarchical design: the hierarchy's text
    lines land in the JSON, and without a top module a trailing comma is left; both are
    removed before parsing."""
    with open(path) as f:
        text = f.read()
    try:
        return json.loads(text)
    except ValueError:
        lines = [l for l in text.splitlines() if not re.match(r'^\s+[^\s"{}\[\]]', l)]
        return json.loads(re.sub(r",(\s*[}\]])", r"\1", "\n".join(lines)))


def instance_counts(mods, top):
    """{module: instances under top} of a hierarchical `stat -json` (modules by unescaped name)."""
    counts = {}

    def walk(m, mult):
        counts[m] = counts.get(m, 0) + mult
        for t, n in mods[m].get("num_cells_by_type", {}).items():
            if _unescape(t) in mods:
                walk(_unescape(t), mult * n)
    walk(top, 1)
    return counts


def module_stats(json_path, top=None):
    """(cells, cells by type, transistors) of a `stat -json` file. A hierarchical netlist
    (@keep: several modules) gives the sums over every instance under top: leaf cells of
    each module times its number of instances."""
    j = load_stat_json(json_path)
    mods = {_unescape(k): v for k, v in j.get("modules", {}).items()}
    if len(mods) <= 1 or top not in mods:
        # flat: the design's totals (a single module without a top attribute has none: its own)
        d = j["design"] if "design" in j or len(mods) != 1 else next(iter(mods.values()))
        return d.get("num_cells", 0), d.get("num_cells_by_type", {}), d.get(
            "estimated_num_transistors")
    counts = instance_counts(mods, top)
    bytype, tr = {}, 0
    for m, k in counts.items():
        est = str(mods[m].get("estimated_num_transistors", "0") or "0")
        tr += k * int(est.rstrip("+") or 0)
        for t, n in mods[m].get("num_cells_by_type", {}).items():
            if _unescape(t) not in mods:
                bytype[t] = bytype.get(t, 0) + k * n
    has_tr = any("estimated_num_transistors" in v for v in mods.values())
    return sum(bytype.values()), bytype, (str(tr) if has_tr else None)


def memory_bits(dump_path, json_path, top):
    """(memory cells, bits) of a `dump t:$mem_v2` file (@nomemmap), counted over instances."""
    per, cur = {}, None
    try:
        with open(dump_path) as f:
            text = f.read()
    except OSError:
        return 0, 0
    size = width = None
    for line in text.splitlines():
        t = line.split()
        if t[:1] == ["module"]:
            cur = _unescape(t[1])
        elif t[:2] == ["cell", "$mem_v2"]:
            size = width = None
        elif t[:2] == ["parameter", "\\SIZE"]:
            size = int(t[2])
        elif t[:2] == ["parameter", "\\WIDTH"]:
            width = int(t[2])
        if size is not None and width is not None:
            n, b = per.get(cur, (0, 0))
            per[cur] = (n + 1, b + size * width)
            size = width = None
    mods = {_unescape(k): v for k, v in load_stat_json(json_path).get("modules", {}).items()}
    counts = instance_counts(mods, top) if top in mods else {}
    cells = sum(n * counts.get(m, 1) for m, (n, _) in per.items())
    bits = sum(b * counts.get(m, 1) for m, (_, b) in per.items())
    return cells, bits


def reusable(script, text, js, log, rtl_root, dirs):
    """--reuse: an earlier run's results stand when its script is the same, it finished, and
    its statistics are newer than every RTL file it could read."""
    try:
        if open(script).read() != text or "End of script" not in open(log, errors="replace").read():
            return False
        t = os.path.getmtime(js)
    except OSError:
        return False
    return all(os.path.getmtime(os.path.join(rtl_root, d, f)) < t for d in dirs
               for f in os.listdir(os.path.join(rtl_root, d)) if f.endswith((".v", ".vh")))


def run_task(cfg, flow, a, dirs):
    """One Yosys run; returns a dict with 'ok', 'msg', 'time' and the parsed numbers."""
    outdir = a.logdir
    dirs = cfg.dirs or dirs
    home = find_top(a.rtl_root, dirs, cfg.top)
    base = os.path.join(outdir, "%s.%s" % (cfg.name, flow))
    script, log, js = base + ".ys", base + ".log", base + ".json"
    text = yosys_script(cfg, "%s/%s.v" % (home, cfg.top), dirs, flow, os.path.abspath(js), a.check)
    reused = getattr(a, "reuse", False) and reusable(script, text, js, log, a.rtl_root, dirs)
    if reused:
        ok, dt, msg = True, 0.0, "reused"
    else:
        for p in (js,):
            if os.path.exists(p):
                os.remove(p)
        with open(script, "w") as f:
            f.write(text)
        ok, dt, msg = run_yosys(os.path.abspath(script), log, a.rtl_root, a.timeout)
    res = {"ok": ok, "msg": msg, "time": dt, "log": log, "reused": reused}
    if ok:
        try:
            res["cells"], res["bytype"], res["transistors"] = module_stats(js, cfg.top)
            if flow == "generic" and "@nomemmap" in cfg.flags and not a.check:
                res["mem_cells"], res["mem_bits"] = memory_bits(base + ".mem.il", js, cfg.top)
        except (OSError, ValueError, KeyError) as e:
            res.update(ok=False, msg="cannot read statistics %s: %s" % (js, e))
        # coarse cells ($dlatch, --check) or gates ($_DLATCH_P_ ...)
        latches = sum(n for t, n in res.get("bytype", {}).items() if "latch" in t.lower())
        if a.check and latches:
            res.update(ok=False, msg="%d latch cell(s) inferred (a signal not assigned on every "
                                     "path of a combinational always block?)" % latches)
    elif "defparam" in msg or "parameter" in msg:
        declared = declared_params(os.path.join(a.rtl_root, home, cfg.top + ".v"))
        missing = [k for k, _ in cfg.params if declared is not None and k not in declared]
        if missing:
            res["msg"] += " [hint: %s.v does not declare parameter(s) %s]" % (
                cfg.top, ", ".join(missing))
    if ok and flow == "generic" and not a.check:
        with open(log, errors="replace") as f:
            m = re.findall(r"Found and reported (\d+) problems", f.read())
        res["problems"] = int(m[-1]) if m else 0
    return res


def flag_notes(cfg, gen):
    """The notes a configuration's flags (@keep, @nomemmap) put in its rows: (generic/iCE40
    notes, ECP5 notes). gen: the generic run's results (mem_cells / mem_bits for @nomemmap)."""
    notes, ecp5_notes = [], []
    if cfg.keep:
        ecp5_notes.append("@keep=%s: LUT4 is an over-estimate (up to ~1.8x the flat count, "
                          "synth.md)" % ",".join(cfg.keep))
        notes.append("@keep=%s: %s kept as %s own module%s (synthesized once per parameter "
                     "set, counts summed over the instances; no optimization across "
                     "%s boundary)" % (",".join(cfg.keep), ", ".join(cfg.keep),
                                       "their" if len(cfg.keep) > 1 else "its",
                                       "s" if len(cfg.keep) > 1 else "",
                                       "their" if len(cfg.keep) > 1 else "its"))
    if "@nomemmap" in cfg.flags and "mem_bits" not in gen:
        notes.append("@nomemmap: in the generic flow the inferred memories stay `$mem_v2` cells "
                     "(one generic cell each, no transistors) instead of flip-flops and muxes "
                     "(their bit count is in that run's files, no longer here)")
    elif "@nomemmap" in cfg.flags:
        notes.append("@nomemmap: in the generic flow %d inferred memor%s (%d bits) stay "
                     "`$mem_v2` cells (one generic cell each, no transistors) instead of "
                     "flip-flops and muxes (iCE40/ECP5 map them to BRAM as usual)" % (
                         gen.get("mem_cells", 0),
                         "y" if gen.get("mem_cells", 0) == 1 else "ies",
                         gen.get("mem_bits", 0)))
    return notes, ecp5_notes


def earlier_flag_notes(cfg, logdir):
    """flag_notes of a configuration kept from an earlier run (--only): the memory count of
    @nomemmap comes from that run's files, when they are still there."""
    gen = {}
    if "@nomemmap" in cfg.flags:
        base = os.path.join(logdir, "%s.generic" % cfg.name)
        try:
            gen["mem_cells"], gen["mem_bits"] = memory_bits(base + ".mem.il", base + ".json",
                                                            cfg.top)
        except (OSError, ValueError, KeyError):
            pass
    return flag_notes(cfg, gen)


def summarize(cfg, gen, ice, ecp):
    """Builds one table row (dict of TSV columns + status/notes; 'ecp5_notes' for the ECP5
    table)."""
    row = {"config": cfg.name, "module": cfg.top, "params": cfg.param_str(), "notes": [],
           "ecp5_notes": []}
    bt = gen["bytype"]
    tr = gen["transistors"]
    row["cells"] = gen["cells"]
    row["transistors"] = int(str(tr).rstrip("+")) if tr is not None else 0
    unc = sum(n for t, n in bt.items() if t not in CMOS_COSTED)
    row["uncosted_cells"] = unc
    latches = sum(n for t, n in bt.items() if "LATCH" in t)
    if latches:
        row["notes"].append("%d latch cell(s) inferred" % latches)
    if gen.get("problems"):
        row["notes"].append("yosys `check`: %d problem(s), see log" % gen["problems"])
    notes, ecp5_notes = flag_notes(cfg, gen)
    row["notes"] += notes
    row["ecp5_notes"] += ecp5_notes
    ib = ice["bytype"]
    row["lut"] = ib.get("SB_LUT4", 0)
    row["ff"] = sum(n for t, n in ib.items() if t.startswith("SB_DFF"))
    row["bram"] = sum(n for t, n in ib.items() if t.startswith("SB_RAM40_4K"))
    row["carry"] = ib.get("SB_CARRY", 0)
    row["mac16"] = ib.get("SB_MAC16", 0)
    if row["mac16"]:
        row["notes"].append("%d SB_MAC16" % row["mac16"])
    other = sorted(t for t in ib if not (t == "SB_LUT4" or t.startswith("SB_DFF") or
                                         t.startswith("SB_RAM40_4K") or t in
                                         ("SB_CARRY", "SB_MAC16")))
    if other:
        row["notes"].append("also " + ", ".join("%d %s" % (ib[t], t) for t in other))
    eb = ecp["bytype"]
    counted = set()
    for col, types in ECP5_TYPES.items():
        row[col] = sum(eb.get(t, 0) for t in types)
        counted.update(types)
    other = sorted(t for t in eb if t not in counted)
    if other:
        row["ecp5_notes"].append(", ".join("%d %s" % (eb[t], t) for t in other))
    return row


def read_tsv(path):
    rows = {}
    try:
        with open(path) as f:
            lines = f.read().splitlines()
    except OSError:
        return rows
    if not lines:
        return rows
    head = lines[0].split("\t")
    for l in lines[1:]:
        v = l.split("\t")
        if len(v) == len(head):
            r = dict(zip(head, v))
            rows[r.get("config")] = r
    return rows


def write_tsv(path, rows):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write("\t".join(TSV_COLS) + "\n")
        for r in rows:
            f.write("\t".join(str(r[c]) for c in TSV_COLS) + "\n")
    os.replace(tmp, path)


def read_times(path):
    times = {}
    try:
        with open(path) as f:
            for l in f:
                v = l.rstrip("\n").split("\t")
                if len(v) == 3:
                    times[(v[0], v[1])] = float(v[2])
    except (OSError, ValueError):
        pass
    return times


def write_times(path, times):
    with open(path, "w") as f:
        for (name, flow), t in sorted(times.items()):
            f.write("%s\t%s\t%.1f\n" % (name, flow, t))


def yosys_version():
    try:
        return subprocess.run(["yosys", "-V"], stdout=subprocess.PIPE,
                              universal_newlines=True).stdout.strip()
    except OSError:
        return "Yosys (version unknown)"


def old_markdown_rows(path):
    """Rows of an existing area report, by section ("gen", "ecp5") and config name: a run with
    --only keeps the rows of the configurations it did not run (when module and parameters still
    match), so docs/area.md can be updated one block at a time."""
    rows = {"gen": {}, "ecp5": {}}
    if not os.path.exists(path):
        return rows
    section = None
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("## "):
                section = "ecp5" if "ECP5" in line else "gen"
            elif section and line.startswith("| ") and not line.startswith("| config "):
                cells = [c.strip() for c in line.strip("|").split("|")]
                rows[section][cells[0]] = (line, cells)
    return rows


def write_markdown(path, configs, table, version, configs_path):
    old = old_markdown_rows(path)

    def kept(cfg):
        """The earlier report's row pair for cfg, if this run did not synthesize it."""
        if table[cfg.name]["status"] != "not run":
            return None
        g, e = old["gen"].get(cfg.name), old["ecp5"].get(cfg.name)
        if g and e and len(g[1]) > 3 and g[1][1] == cfg.top and g[1][2] == (cfg.param_str() or "(defaults)") \
                and g[1][3] != "—":
            return g[0], e[0]
        return None
    keep = {c.name: kept(c) for c in configs}
    out = []
    out.append("# Area report (Yosys)\n")
    cpath = (os.path.relpath(os.path.abspath(configs_path), ROOT) if configs_path
             else "the block descriptions (`rtl/*/block.toml`, `synth`)")
    out.append("Generated by `make synth` (`synth/run_synth.py`) from %s; do not edit by hand. "
               "See [synth.md](synth.md) for the flow and how to add a configuration.\n" % cpath)
    out.append(
        "Numbers come from %s. Every configuration is synthesized three times (generic, iCE40, "
        "ECP5) with the same front end: `read_verilog -defer` of the top module's file, "
        "`chparam` with the listed parameters, `hierarchy -check -top X` (other modules load "
        "from `rtl/common` and the block's own folder via `-libdir`). No place-and-route is run (no "
        "Fmax; `make fpga` places and routes some configurations: [fpga.md](fpga.md)). A few very "
        "large configurations carry a flag (`@keep=...`, `@nomemmap`: [synth.md](synth.md#flags-per-configuration)), "
        "named in their notes.\n"
        % version)
    out.append(
        "*Generic*: `synth -top X -flatten; stat; stat -tech cmos` "
        "— *generic cells* is the total count of Yosys internal "
        "gates (`$_AND_`, `$_MUX_`, `$_DFF*_`, ...; inferred memories become flip-flops here) and "
        "*transistors* is the `stat -tech cmos` estimate, which counts simple gates and plain "
        "flip-flops only: a trailing `+` means flip-flops with enable/reset or latches are present "
        "and not counted, so it is a lower bound. *iCE40*: `synth_ice40 -top X -flatten` with "
        "default options: LUT4 = `SB_LUT4`, FF = all `SB_DFF*`, BRAM = `SB_RAM40_4K*`, carry = "
        "`SB_CARRY`; without `-dsp` multipliers map to LUTs, not `SB_MAC16` (a note says if one "
        "is used).\n")
    out.append(
        "*ECP5* (second table): `synth_ecp5 -top X -flatten` with default options: LUT4 = `LUT4`, "
        "carry = `CCU2C` (a 2-bit carry-chain cell with two LUT4s of its own, not included in "
        "the LUT4 column), FF = `TRELLIS_FF`, BRAM = `DP16KD` + `PDPW16KD` (18 kbit each), "
        "DPRAM = `TRELLIS_DPR16X4` (16x4 distributed RAM, e.g. small asynchronous-read memories), "
        "DSP = `MULT18X18D`: by default `synth_ecp5` maps every multiplier whose operands are "
        "both at least 2 bits wide to `MULT18X18D`s (several for operands over 18 bits), so "
        "unlike the iCE40 LUT4 count the ECP5 LUT4 count does not include multipliers. Other "
        "cells, mainly `PFUMX` / `L6MUX21` (the slice muxes that combine LUT4s into wider "
        "functions), are listed under *other cells*.\n")
    out.append("Per-type cell counts are in `build/synth/<config>.{generic,ice40,ecp5}.log`. A run "
               "with `--only` rewrites its own rows and keeps the other rows of the previous report "
               "(when module and parameters are unchanged); *not synthesized yet* marks a configuration with no "
               "result yet.\n")
    out.append("## Generic and iCE40\n")
    out.append("| config | module | parameters | generic cells | transistors (cmos est.) "
               "| iCE40 LUT4 | FF | BRAM | carry | notes |")
    out.append("|---|---|---|--:|--:|--:|--:|--:|--:|---|")
    for cfg in configs:
        if keep[cfg.name]:
            out.append(keep[cfg.name][0])
            continue
        r = table[cfg.name]
        params = r.get("params", cfg.param_str()) or "(defaults)"
        notes = "; ".join(r.get("notes", [])).replace("|", "\\|")
        if r["status"] == "ok":
            tr = "%s%s" % (r["transistors"], "+" if int(r["uncosted_cells"]) else "")
            out.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
                cfg.name, cfg.top, params, r["cells"], tr, r["lut"], r["ff"], r["bram"],
                r["carry"], notes))
        else:
            out.append("| %s | %s | %s | — | — | — | — | — | — | %s |" % (
                cfg.name, cfg.top, params, notes))
    out.append("")
    out.append("## ECP5\n")
    out.append("| config | LUT4 | carry (CCU2C) | FF | BRAM (DP16KD, PDPW16KD) | DPRAM (DPR16X4) "
               "| DSP (MULT18X18D) | other cells / notes |")
    out.append("|---|--:|--:|--:|--:|--:|--:|---|")
    for cfg in configs:
        if keep[cfg.name]:
            out.append(keep[cfg.name][1])
            continue
        r = table[cfg.name]
        if r["status"] == "ok" and r["ecp5_lut"] == "":
            out.append("| %s | — | — | — | — | — | — | not run (earlier result from before the "
                       "ECP5 flow; see --only) |" % cfg.name)
        elif r["status"] == "ok":
            notes = list(r.get("ecp5_notes", []))
            if r.get("earlier"):
                notes.append("from an earlier run")
            notes = "; ".join(notes).replace("|", "\\|")
            out.append("| %s | %s | %s | %s | %s | %s | %s | %s |" % (
                cfg.name, r["ecp5_lut"], r["ecp5_ccu2c"], r["ecp5_ff"], r["ecp5_bram"],
                r["ecp5_dpram"], r["ecp5_dsp"], notes))
        else:
            notes = "; ".join(r.get("notes", [])).replace("|", "\\|")
            out.append("| %s | — | — | — | — | — | — | %s |" % (cfg.name, notes))
    out.append("")
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write("\n".join(out))
    os.replace(tmp, path)


def default_configs(rtl_root, dirs, configs, from_blocks):
    """One configuration per RTL module that is not the top of any listed configuration (the
    modules each block description lists, seeing that block's folders)."""
    tops = {c.top for c in configs}
    if from_blocks:
        mods = [(f, b.rtl_dirs()) for b in blocks.load() for f in b.rtl]
    else:
        mods = [(f, None) for d in dirs for f in vfiles(rtl_root, d)]
    extra = []
    for f, fdirs in mods:
        m = os.path.basename(f)[:-2]
        if m not in tops:
            extra.append(Config(m + "__default", m, [], "%s (default parameters)" % f, fdirs))
    return extra


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--jobs", type=int, default=2, help="parallel Yosys runs (default 2)")
    ap.add_argument("--out", default=None, help="Markdown table to write (e.g. docs/area.md)")
    ap.add_argument("--only", default="", help="comma-separated config names to run")
    ap.add_argument("--check", action="store_true",
                    help="Yosys front end (hierarchy, proc, memory; check -assert, no latch) of every "
                         "configuration and every other module with default parameters; prints "
                         "'N passed, N failed'")
    ap.add_argument("--configs-only", action="store_true",
                    help="with --check: do not add the default-parameter runs of other modules")
    ap.add_argument("--timeout", type=int, default=900, help="seconds per Yosys run (default 900)")
    ap.add_argument("--configs", default=None,
                    help="a configuration file instead of the block descriptions")
    ap.add_argument("--rtl-root", default=ROOT, help="directory holding rtl/ (default: repo)")
    ap.add_argument("--reuse", action="store_true",
                    help="take a flow's results from the previous run in the build directory when "
                         "its Yosys script is unchanged and newer than every RTL file (rewrites "
                         "rows without synthesizing again)")
    ap.add_argument("--build", default=None,
                    help="output directory for logs and area.tsv (default $BUILD/synth)")
    a = ap.parse_args()
    if a.jobs < 1:
        die("--jobs must be >= 1")
    a.rtl_root = os.path.abspath(a.rtl_root)
    build = a.build or os.path.join(BUILD, "synth")
    a.logdir = os.path.join(build, "check") if a.check else build
    os.makedirs(a.logdir, exist_ok=True)

    configs = load_configs(a.configs)
    dirs = rtl_dirs(a.rtl_root)
    if a.check:
        # A wider copy of a configuration that is already checked adds minutes, not coverage.
        configs = [c for c in configs if not c.nocheck]
    if a.check and not a.configs_only:
        configs += default_configs(a.rtl_root, dirs, configs, a.configs is None)
    selected = configs
    if a.only:
        want = [w for w in a.only.split(",") if w]
        names = {c.name for c in configs}
        bad = [w for w in want if w not in names]
        if bad:
            die("--only: unknown config(s) %s (see %s)" % (", ".join(bad),
                                                          a.configs or "rtl/*/block.toml"))
        selected = [c for c in configs if c.name in want]

    flows = ["generic"] if a.check else FLOWS
    table, runnable = {}, []
    for c in selected:
        home = find_top(a.rtl_root, c.dirs or dirs, c.top)
        if home is None:
            table[c.name] = {"status": "skipped", "notes": ["skipped: no rtl/*/%s.v yet" % c.top]}
            print("SKIP %-32s %s.v not found under rtl/ (not written yet)" % (c.name, c.top),
                  flush=True)
        else:
            runnable.append(c)

    t0 = time.time()
    results = {}
    with cf.ThreadPoolExecutor(max_workers=a.jobs) as ex:
        # Longest first (by the durations of the previous run, if any) to shorten the wall time.
        prev = read_times(os.path.join(a.logdir, "times.tsv"))
        order = [(c, fl) for c in runnable for fl in flows]

        def expected(t):
            # a run without a recorded duration (new configuration or flow) is assumed to take
            # as long as the slowest recorded flow of the same configuration
            if (t[0].name, t[1]) in prev:
                return prev[(t[0].name, t[1])]
            return max([v for (n, _), v in prev.items() if n == t[0].name] or [0.0])
        order.sort(key=lambda t: -expected(t))
        futs = {ex.submit(run_task, c, fl, a, dirs): (c, fl) for c, fl in order}
        for fut in cf.as_completed(futs):
            c, fl = futs[fut]
            try:
                r = fut.result()
            except Exception as e:  # a bug here must not lose the other results
                r = {"ok": False, "msg": "internal error: %r" % e, "time": 0.0, "log": ""}
            results[(c.name, fl)] = r
            if r["ok"]:
                extra = "cells=%d" % r["cells"]
                if fl == "ice40":
                    extra = "SB_LUT4=%d" % r["bytype"].get("SB_LUT4", 0)
                elif fl == "ecp5":
                    extra = "LUT4=%d" % r["bytype"].get("LUT4", 0)
                print("PASS %-32s %-7s %s  %s" % (c.name, fl, "reused  " if r.get("reused")
                                                  else "%6.1f s" % r["time"], extra), flush=True)
            else:
                print("FAIL %-32s %-7s %6.1f s  %s (log: %s)" % (c.name, fl, r["time"], r["msg"],
                                                                r["log"]), flush=True)

    prev.update({k: r["time"] for k, r in results.items() if r["ok"] and not r.get("reused")})
    write_times(os.path.join(a.logdir, "times.tsv"), prev)

    npass = nfail = 0
    for c in runnable:
        rs = [results[(c.name, fl)] for fl in flows]
        bad = [(fl, r) for fl, r in zip(flows, rs) if not r["ok"]]
        if bad:
            nfail += 1
            msgs = {}
            for fl, r in bad:
                msgs.setdefault(r["msg"], []).append(fl)
            table[c.name] = {"status": "failed", "notes": [
                "FAILED (%s): %s" % (", ".join(fls), m) for m, fls in msgs.items()]}
        else:
            npass += 1
            if not a.check:
                row = summarize(c, *rs)
                row["status"] = "ok"
                table[c.name] = row

    if a.check:
        print("synth check: %d configurations run, %d skipped (not written yet), %.0f s; logs in %s"
              % (len(runnable), len(selected) - len(runnable), time.time() - t0, a.logdir))
        print("%d passed, %d failed" % (npass, nfail))
        sys.exit(1 if nfail or not npass else 0)

    # Keep earlier results of configurations not run this time (--only), if still listed.
    tsv = os.path.join(build, "area.tsv")
    old = read_tsv(tsv)
    for c in configs:
        if c.name not in table:
            o = old.get(c.name)
            if o and o.get("module") == c.top and o.get("params") == c.param_str():
                notes, ecp5_notes = earlier_flag_notes(c, a.logdir)
                if str(o.get("mac16", "0")) not in ("", "0"):
                    notes.append("%s SB_MAC16" % o["mac16"])
                table[c.name] = dict(o, status="ok", notes=notes + ["from an earlier run"],
                                     ecp5_notes=ecp5_notes, earlier=True)
                # an area.tsv written before the ECP5 flow existed: keep the row, ECP5 empty
                for k in ECP5_COLS:
                    table[c.name].setdefault(k, "")
            else:
                table[c.name] = {"status": "not run", "notes": [
                    "not synthesized yet: no result since the configuration was added or changed "
                    "(`synth/run_synth.py --only %s --out docs/area.md`)" % c.name]}
    for r in table.values():
        if r["status"] == "ok":
            r.setdefault("mac16", 0)
            r.setdefault("uncosted_cells", 0)
    write_tsv(tsv, [dict(table[c.name]) for c in configs if table[c.name]["status"] == "ok"])
    if a.out:
        os.makedirs(os.path.dirname(os.path.abspath(a.out)), exist_ok=True)
        write_markdown(a.out, configs, table, yosys_version(), a.configs)
    nskip = len(selected) - len(runnable)
    print("synth: %d configurations synthesized, %d failed, %d skipped (not written yet), %.0f s"
          % (npass, nfail, nskip, time.time() - t0))
    print("wrote %s%s" % (tsv, (" and " + a.out) if a.out else ""))
    sys.exit(1 if nfail else 0)


if __name__ == "__main__":
    main()
