#!/usr/bin/env python3
"""Register maps from one SystemRDL description per block (docs/axi_shell.md, docs/regs/README.md).

    python3 scripts/gen_regs.py rtl/<blk>/<blk>_regs.rdl [--check]

Compiles the description with systemrdl-compiler (include path rtl/common, where
cc_shell_regs.rdl holds the common registers) and writes

    rtl/<blk>/<blk>_regs.v   the register file: a Verilog-2005 module <blk>_regs (this script)
    sw/<blk>/<blk>_regs.h    the C header (peakrdl-cheader, plus the register offsets)
    docs/regs/<blk>.md       the documentation page (peakrdl-markdown)

The addrmap must be named <blk>. Only what the project uses is supported: 32-bit registers
directly in the addrmap, and fields of five kinds (sw/hw access, reset, singlepulse,
onwrite = woclr with hwset, name, desc); anything else stops the script with one line naming
the field. With --check nothing is written: the script exits non-zero naming the first output
that differs from what it would write (a freshness check). Output is deterministic.
"""
import argparse
import os
import re
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOOL = "gen_regs"

# Properties a description may set, per component (anything else is an error).
FIELD_PROPS = {"sw", "hw", "reset", "singlepulse", "onwrite", "hwset", "name", "desc"}
REG_PROPS = {"name", "desc", "regwidth", "accesswidth"}
MAP_PROPS = {"name", "desc"}

# Field kinds, as the generated header comment and the docs page name them
KIND_TEXT = {
    "rw": "rw",
    "hwin": "r, hw input",
    "pulse": "w, pulse",
    "w1c": "rw1c, hw set",
    "const": "r, const",
}


class GenError(Exception):
    pass


def die(msg):
    sys.stderr.write("%s: %s\n" % (TOOL, msg))
    sys.exit(1)


def rel(path):
    """A path relative to the repository (as given when it lies outside)."""
    r = os.path.relpath(os.path.abspath(path), ROOT).replace(os.sep, "/")
    return path if r.startswith("../") else r


# ------------------------------------------------------------------------------------ compile

def compile_rdl(rdl_path):
    from systemrdl import RDLCompiler, RDLCompileError
    from systemrdl.messages import MessagePrinter, Severity

    class OneLinePrinter(MessagePrinter):
        """One line per compiler message: '<file>:<line>:<col>: error: <text>'."""

        def format_message(self, severity, text, src_ref):
            where = ""
            path = getattr(src_ref, "path", None)
            if path:
                where = rel(path)
                if getattr(src_ref, "line", None) is not None:
                    where += ":%d" % src_ref.line
                where += ": "
            return ["%s: %s%s: %s" % (TOOL, where, severity.name.lower(),
                                      " ".join(str(text).split()))]

        def emit_message(self, lines):
            for line in lines:
                sys.stderr.write(line + "\n")

    rdlc = RDLCompiler(message_printer=OneLinePrinter())
    try:
        rdlc.compile_file(rdl_path, incl_search_paths=[os.path.join(ROOT, "rtl", "common")])
        return rdlc.elaborate()
    except RDLCompileError:
        sys.exit(1)


# ----------------------------------------------------------------------------------- the model

class Field:
    def __init__(self, reg, node):
        self.reg = reg
        self.node = node
        self.name = node.inst_name
        self.lsb = node.lsb
        self.msb = node.msb
        self.width = node.width
        self.path = "%s.%s" % (reg.path, self.name)
        self.base = ("%s_%s" % (reg.name, self.name)).lower()
        self.kind = None
        self.reset = 0

    @property
    def readable(self):
        return self.kind in ("rw", "hwin", "w1c", "const")

    @property
    def writable(self):
        return self.kind in ("rw", "pulse", "w1c")

    @property
    def storage(self):
        return self.kind in ("rw", "pulse", "w1c")

    def ports(self):
        """(direction, name, width) of the field's hardware ports."""
        b = self.base
        if self.kind == "rw" or self.kind == "pulse":
            return [("output", b + "_o", self.width)]
        if self.kind == "hwin":
            return [("input", b + "_i", self.width)]
        if self.kind == "w1c":
            return [("input", b + "_set_i", self.width), ("output", b + "_o", self.width)]
        return []


class Reg:
    def __init__(self, node, blk):
        self.node = node
        self.name = node.inst_name
        self.lname = self.name.lower()
        self.offset = node.address_offset
        self.path = "%s.%s" % (blk, self.name)
        self.fields = []

    @property
    def readable(self):
        return any(f.readable for f in self.fields)

    @property
    def writable(self):
        return any(f.writable for f in self.fields)


def classify(f):
    """Sets f.kind and f.reset from the field's properties, or raises GenError."""
    from systemrdl.rdltypes import AccessType, OnWriteType
    node = f.node
    props = node.list_properties()
    bad = sorted(p for p in props if p not in FIELD_PROPS)
    if bad:
        raise GenError("field %s: unsupported property '%s'" % (f.path, bad[0]))
    if not node.get_property("desc"):
        raise GenError("field %s: no desc" % f.path)
    sw = node.get_property("sw")
    hw = node.get_property("hw")
    onwrite = node.get_property("onwrite")
    singlepulse = node.get_property("singlepulse")
    hwset = node.get_property("hwset")
    reset = node.get_property("reset")
    if reset is not None and not isinstance(reset, int):
        raise GenError("field %s: reset must be a constant" % f.path)
    extra = [n for n, v in (("onwrite", onwrite), ("singlepulse", singlepulse), ("hwset", hwset))
             if v]
    combo = "sw=%s, hw=%s%s" % (sw.name, hw.name, "".join(
        ", " + ("onwrite=" + onwrite.name if e == "onwrite" else e) for e in extra))
    unsupported = GenError("field %s: unsupported access (%s)" % (f.path, combo))
    if sw == AccessType.rw and hw == AccessType.r and not extra:
        f.kind = "rw"
    elif sw == AccessType.r and hw == AccessType.w and not extra:
        f.kind = "hwin"
    elif sw == AccessType.w and hw == AccessType.r and extra == ["singlepulse"]:
        f.kind = "pulse"
    elif (sw == AccessType.rw and hw == AccessType.r and onwrite == OnWriteType.woclr
          and extra == ["onwrite", "hwset"]):
        f.kind = "w1c"
    elif sw == AccessType.r and hw == AccessType.na and not extra:
        f.kind = "const"
    else:
        raise unsupported
    if f.kind == "hwin" and reset is not None:
        raise GenError("field %s: a hardware-written field (sw=r, hw=w) has no storage: "
                       "drop its reset" % f.path)
    if f.kind in ("rw", "w1c", "const") and reset is None:
        raise GenError("field %s: needs a reset value (%s)" % (f.path, combo))
    if f.kind == "pulse" and reset:
        raise GenError("field %s: a singlepulse field resets to 0" % f.path)
    f.reset = reset or 0


def build_model(root, blk):
    from systemrdl.node import RegNode
    top = root.top
    if top.inst_name != blk:
        raise GenError("addrmap %s: must be named after the block (%s)" % (top.inst_name, blk))
    bad = sorted(p for p in top.list_properties() if p not in MAP_PROPS)
    if bad:
        raise GenError("addrmap %s: unsupported property '%s'" % (blk, bad[0]))
    regs = []
    for child in top.children():
        path = "%s.%s" % (blk, child.inst_name)
        if not isinstance(child, RegNode):
            raise GenError("%s: only registers directly in the addrmap are supported" % path)
        if child.is_array:
            raise GenError("register %s: register arrays are not supported" % path)
        if child.external:
            raise GenError("register %s: external registers are not supported" % path)
        bad = sorted(p for p in child.list_properties() if p not in REG_PROPS)
        if bad:
            raise GenError("register %s: unsupported property '%s'" % (path, bad[0]))
        if child.get_property("regwidth") != 32 or child.get_property("accesswidth") != 32:
            raise GenError("register %s: only 32-bit registers are supported" % path)
        if not child.get_property("desc"):
            raise GenError("register %s: no desc" % path)
        r = Reg(child, blk)
        for fn in child.fields():
            f = Field(r, fn)
            classify(f)
            r.fields.append(f)
        regs.append(r)
    regs.sort(key=lambda r: r.offset)
    fixed = {"clk_i", "rst_ni", "reg_we_i", "reg_re_i", "reg_addr_i", "reg_wdata_i",
             "reg_wstrb_i", "reg_rdata_o", "reg_err_o"}
    seen = {}
    for r in regs:
        for f in r.fields:
            for _, p, _ in f.ports():
                if p in fixed or p in seen:
                    raise GenError("field %s: port name %s is taken (by %s)"
                                   % (f.path, p, seen.get(p, "the register bus")))
                seen[p] = f.path
    size = max(r.offset + 4 for r in regs)
    map_w = max(3, (size - 1).bit_length())
    return top, regs, map_w


# ------------------------------------------------------------------------------------- Verilog

def vhex(width, value):
    return "%d'h%0*x" % (width, (width + 3) // 4, value)


def rng(width):
    return "" if width == 1 else "[%d:0]" % (width - 1)


def bits(msb, lsb):
    return "[%d]" % lsb if msb == lsb else "[%d:%d]" % (msb, lsb)


def byte_chunks(msb, lsb):
    """The field's bits split at byte boundaries, high byte first: (byte, nbits)."""
    out = []
    b = lsb
    while b <= msb:
        hi = min(msb, (b // 8) * 8 + 7)
        out.append((b // 8, hi - b + 1))
        b = hi + 1
    return list(reversed(out))


def wrap_terms(head, terms, sep, tail, indent):
    """head + terms + tail within 100 columns. sep "|": lines broken before "| " (aligned at
    indent); sep ",": terms joined by ", ", lines broken after the comma."""
    lines = []
    cur = head + terms[0]
    for t in terms[1:]:
        piece = (" | " if sep == "|" else ", ") + t
        if len(cur) + len(piece) + len(tail) > 100:
            lines.append(cur + ("" if sep == "|" else ","))
            cur = " " * indent + ("| " if sep == "|" else "") + t
        else:
            cur += piece
    lines.append(cur + tail)
    return lines


def bit_ranges(used, width):
    """Ranges (msb, lsb) of the bits in 0..width-1 not in 'used', high first."""
    out = []
    b = width - 1
    while b >= 0:
        if b in used:
            b -= 1
            continue
        hi = b
        while b >= 0 and b not in used:
            b -= 1
        out.append((hi, b + 1))
    return out


def gen_verilog(blk, rdl_rel, regs, map_w):
    mod = blk + "_regs"
    ww = map_w - 2  # word-index bits
    L = []
    w = L.append

    # ---- header comment
    rule = "/" * 100
    w(rule)
    w("//")
    w("// Filename:  %s.v" % mod)
    w("//")
    purpose = [
        "Control/status register file of %s: the register side of the AXI shell, behind" % blk,
        "cc_axil_slave (docs/axi_shell.md, \"The register bus\", \"Register semantics\").",
    ] + (["Generated by scripts/gen_regs.py from %s -- do not edit." % rdl_rel]
         if len(rdl_rel) <= 32 else
         ["Generated by scripts/gen_regs.py from %s --" % rdl_rel, "do not edit."]) + [
        "",
        "Register map (byte offsets; fields and meanings in docs/regs/%s.md):" % blk,
    ]
    name_w = max(len(r.name) for r in regs)
    for r in regs:
        items = []
        for f in sorted(r.fields, key=lambda f: -f.lsb):
            t = "%s%s %s" % (f.name, bits(f.msb, f.lsb), KIND_TEXT[f.kind])
            if f.kind == "const" or (f.storage and f.reset):
                t += " %s" % vhex(f.width, f.reset)
            items.append(t)
        prefix = "  0x%02X  %-*s  " % (r.offset, name_w, r.name)
        line = prefix
        for i, it in enumerate(items):
            piece = it + (", " if i + 1 < len(items) else "")
            if len(line) + len(piece.rstrip()) > 100 - 15 and line.strip() != prefix.strip():
                purpose.append(line.rstrip())
                line = " " * len(prefix)
            line += piece
        purpose.append(line.rstrip())
    purpose += [
        "",
        "Access rules: an address with no register, or a write to a register with no",
        "software-writable field, raises reg_err_o (SLVERR) and changes nothing; reg_rdata_o",
        "and reg_err_o are combinational from reg_addr_i, reg_we_i and reg_re_i; fields that",
        "software cannot read read as 0; byte strobes are honoured per byte. Field kinds and",
        "their ports (<reg>_<field> in lower case):",
        "  rw            storage, output _o",
        "  r, hw input   no storage, input _i read back as is",
        "  w, pulse      output _o high for the one cycle after a write of 1 (singlepulse)",
        "  rw1c, hw set  storage, input _set_i (a 1 sets the bit and wins over a clear in",
        "                the same cycle), output _o; software writes 1 to clear (woclr)",
        "  r, const      the reset value, no port",
    ]
    w("// Purpose:   " + purpose[0])
    for p in purpose[1:]:
        w(("//            " + p).rstrip() if p else "//")
    w("//")
    w("// Parameters:")
    w("//   AddrW  register address bits (byte address, >= %d); bits [1:0] are ignored and the"
      % map_w)
    w("//          bits above bit %d must be zero for an access to reach a register" % (map_w - 1))
    w("//")
    w(rule)
    w("`default_nettype none")
    w('`include "cc_param_check.vh"')
    w("")

    # ---- ports
    ports = [
        ("input", "clk_i", 1, None), ("input", "rst_ni", 1, None),
        ("input", "reg_we_i", 1, "register bus (cc_axil_slave)"), ("input", "reg_re_i", 1, None),
        ("input", "reg_addr_i", "[AddrW-1:0]", None), ("input", "reg_wdata_i", 32, None),
        ("input", "reg_wstrb_i", 4, None), ("output", "reg_rdata_o", 32, None),
        ("output", "reg_err_o", 1, None),
    ]
    for r in regs:
        first = True
        for f in r.fields:
            for d, p, wd in f.ports():
                ports.append((d, p, wd, ("%s (0x%02X)" % (r.name, r.offset)) if first else None))
                first = False
    rng_w = max(len(wd if isinstance(wd, str) else rng(wd)) for _, _, wd, _ in ports)
    w("module %s #(" % mod)
    w("  parameter integer AddrW = %d" % map_w)
    w(") (")
    for i, (d, p, wd, comment) in enumerate(ports):
        if comment:
            w("  // " + comment)
        r_s = wd if isinstance(wd, str) else rng(wd)
        w("  %-6s wire %-*s %s%s" % (d, rng_w, r_s, p, "," if i + 1 < len(ports) else ""))
    w(");")
    w("")

    # ---- parameter check and decode
    w("  // Address bits the map needs (the last register ends at 0x%02X)." %
      max(r.offset + 4 for r in regs))
    w("  localparam integer MapW = %d;" % map_w)
    w("")
    w("  // ---------------------------------------------------------------- parameter checks")
    w("  if (AddrW < MapW) begin : gen_check_addrw")
    w("    `CC_PARAM_FAIL(%s__AddrW_must_be_at_least_%d)" % (mod, map_w))
    w("  end")
    w("")
    w("  // ---------------------------------------------------------------- address decode")
    w("  // Word index reg_addr_i[MapW-1:2]; the bits above the map must be zero, bits [1:0] are")
    w("  // ignored (the bus is word aligned).")
    w("  wire [%d:0] word = reg_addr_i[MapW-1:2];" % (ww - 1))
    w("  wire       addr_hi_ok;")
    w("  if (AddrW > MapW) begin : gen_addr_hi")
    w("    assign addr_hi_ok = ~|reg_addr_i[AddrW-1:MapW];")
    w("  end else begin : gen_addr_exact")
    w("    assign addr_hi_ok = 1'b1;")
    w("  end")
    w("  wire unused_addr = ^reg_addr_i[1:0];")
    w("")
    sel_w = max(len(r.lname) for r in regs)
    for r in regs:
        w("  wire sel_%-*s = addr_hi_ok && (word == %s);"
          % (sel_w, r.lname, vhex(ww, r.offset >> 2)))
    w("")

    # byte write enables, per register and byte a writable field touches
    wdata_used = set()
    strb_used = set()
    be_names = []
    for r in regs:
        bytes_ = sorted({b for f in r.fields if f.writable for b, _ in byte_chunks(f.msb, f.lsb)})
        for b in bytes_:
            be_names.append(("we_%s_b%d" % (r.lname, b), r.lname, b))
            strb_used.add(b)
        for f in r.fields:
            if f.writable:
                wdata_used.update(range(f.lsb, f.msb + 1))
    if be_names:
        w("  // Write enables per register and byte lane (only the lanes a writable field uses).")
        be_w = max(len(n) for n, _, _ in be_names)
        for n, rl, b in be_names:
            w("  wire %-*s = reg_we_i && sel_%s && reg_wstrb_i[%d];" % (be_w, n, rl, b))
        w("")
    unused = []
    for hi, lo in bit_ranges(wdata_used, 32):
        unused.append("reg_wdata_i" + bits(hi, lo))
    for hi, lo in bit_ranges(strb_used, 4):
        unused.append("reg_wstrb_i" + bits(hi, lo))
    if unused:
        w("  // Write-data bits and strobes no writable field uses.")
        for ln in wrap_terms("  wire unused_wdata = ^{", unused, ",", "};", 23):
            w(ln)
        w("")

    # ---- storage
    stor = [f for r in regs for f in r.fields if f.storage]
    if stor:
        w("  // ---------------------------------------------------------------- storage")
    for f in stor:
        r = f.reg
        wm = []
        for b, n in byte_chunks(f.msb, f.lsb):
            e = "we_%s_b%d" % (r.lname, b)
            wm.append(e if n == 1 else "{%d{%s}}" % (n, e))
        wm_s = wm[0] if len(wm) == 1 else "{" + ", ".join(wm) + "}"
        rs = rng(f.width)
        decl = ("%s " % rs) if rs else ""
        wd = "reg_wdata_i" + bits(f.msb, f.lsb)
        b = f.base
        w("  // %s.%s%s: %s" % (r.name, f.name, bits(f.msb, f.lsb), KIND_TEXT[f.kind]))
        w("  reg  %s%s_q;" % (decl, b))
        head = "  wire %s%s_wm = " % (decl, b)
        if len(wm) == 1 or len(head) + len(wm_s) + 1 <= 100:
            w(head + wm_s + ";")
        else:
            for ln in wrap_terms(head + "{", wm, ",", "};", len(head) + 1):
                w(ln)
        head = "  wire %s%s_d  = " % (decl, b)
        if f.kind == "rw":
            terms = ["(%s_q & ~%s_wm)" % (b, b), "(%s & %s_wm)" % (wd, b)]
        elif f.kind == "pulse":
            terms = ["%s & %s_wm" % (wd, b)]
        else:
            terms = ["%s_set_i" % b, "(%s_q & ~(%s & %s_wm))" % (b, wd, b)]
        for ln in wrap_terms(head, terms, "|", ";", len(head) - 2):
            w(ln)
        w("  assign %s_o = %s_q;" % (b, b))
        w("")
    if stor:
        w("  always @(posedge clk_i or negedge rst_ni) begin")
        w("    if (!rst_ni) begin")
        qw = max(len(f.base) for f in stor) + 2
        for f in stor:
            w("      %-*s <= %s;" % (qw, f.base + "_q", vhex(f.width, f.reset)))
        w("    end else begin")
        for f in stor:
            w("      %-*s <= %s_d;" % (qw, f.base + "_q", f.base))
        w("    end")
        w("  end")
        w("")
    else:
        w("  wire unused_clk = clk_i ^ rst_ni;")
        w("")

    # ---- read data
    w("  // ---------------------------------------------------------------- read data")
    w("  // Per register: its readable fields in place, everything else 0.")
    rd_regs = [r for r in regs if r.readable]
    rd_w = max(len(r.lname) for r in rd_regs) if rd_regs else 0
    for r in rd_regs:
        parts = []
        pos = 31
        for f in sorted(r.fields, key=lambda f: -f.msb):
            if f.msb < pos:
                parts.append(vhex(pos - f.msb, 0))
            if not f.readable:
                parts.append(vhex(f.width, 0))
            elif f.kind == "const":
                parts.append(vhex(f.width, f.reset))
            elif f.kind == "hwin":
                parts.append(f.base + "_i")
            else:
                parts.append(f.base + "_q")
            pos = f.lsb - 1
        if pos >= 0:
            parts.append(vhex(pos + 1, 0))
        # merge adjacent constants (the sized literals "<w>'h<v>")
        merged = []
        for p in parts:
            if merged and re.match(r"^\d+'h", p) and re.match(r"^\d+'h", merged[-1]):
                w1, v1 = merged[-1].split("'h")
                w2, v2 = p.split("'h")
                merged[-1] = vhex(int(w1) + int(w2), (int(v1, 16) << int(w2)) | int(v2, 16))
            else:
                merged.append(p)
        val = merged[0] if len(merged) == 1 else "{" + ", ".join(merged) + "}"
        head = "  wire [31:0] rd_%-*s = " % (rd_w, r.lname)
        if len(head) + len(val) + 1 > 100:
            for ln in wrap_terms(head + "{", merged, ",", "};", len(head) + 1):
                w(ln)
        else:
            w(head + val + ";")
    if rd_regs:
        terms = ["({32{sel_%s}} & rd_%s)" % (r.lname, r.lname) for r in rd_regs]
        for ln in wrap_terms("  assign reg_rdata_o = ", terms, "|", ";", 21):
            w(ln)
    else:
        w("  assign reg_rdata_o = 32'h0;")
    w("")

    # ---- errors
    w("  // ---------------------------------------------------------------- errors")
    w("  // SLVERR: a read of an address with no register, a write of one with no writable field.")
    for ln in wrap_terms("  wire hit    = ", ["sel_" + r.lname for r in regs], "|", ";", 13):
        w(ln)
    wr = ["sel_" + r.lname for r in regs if r.writable] or ["1'b0"]
    for ln in wrap_terms("  wire wr_hit = ", wr, "|", ";", 13):
        w(ln)
    w("  assign reg_err_o = (reg_re_i && !hit) || (reg_we_i && !wr_hit);")
    w("")
    w("endmodule")
    w("")
    w("`default_nettype wire")
    text = "\n".join(L) + "\n"
    for i, ln in enumerate(text.splitlines(), 1):
        if len(ln) > 100:
            raise GenError("%s.v:%d: generated line longer than 100 columns (names too long)"
                           % (mod, i))
    return text


# ------------------------------------------------------------------------------ C header, docs

# ------------------------------------------------------------------------ CSR wrapper (shell)
COMMON_REGS = ["ID", "CTRL", "STATUS", "ERR_CODE", "INTR_STATUS", "INTR_ENABLE", "INTR_TEST",
               "CYC_BUSY", "CYC_STALL", "RD_BURSTS", "WR_BURSTS"]

# The register file's common ports and what the wrapper connects them to.
COMMON_CONN = [
    ("ctrl_start_o", "start"), ("ctrl_clear_o", "clear"),
    ("status_busy_i", "job_busy_i"), ("status_done_i", "st_done"), ("status_error_i", "st_error"),
    ("err_code_code_i", "err_code"), ("err_code_resp_i", "err_resp"),
    ("intr_status_done_set_i", "job_done_i || intr_test[0]"),
    ("intr_status_done_o", "intr_status[0]"),
    ("intr_status_error_set_i", "job_err_i || intr_test[1]"),
    ("intr_status_error_o", "intr_status[1]"),
    ("intr_enable_done_o", "intr_enable[0]"), ("intr_enable_error_o", "intr_enable[1]"),
    ("intr_test_done_o", "intr_test[0]"), ("intr_test_error_o", "intr_test[1]"),
    ("cyc_busy_val_i", "cyc_busy"), ("cyc_stall_val_i", "cyc_stall"),
    ("rd_bursts_val_i", "rd_bursts"), ("wr_bursts_val_i", "wr_bursts"),
]

AXIL_PORTS = [
    ("input", "awvalid_i", 1), ("output", "awready_o", 1), ("input", "awaddr_i", "AddrW"),
    ("input", "awprot_i", 3), ("input", "wvalid_i", 1), ("output", "wready_o", 1),
    ("input", "wdata_i", 32), ("input", "wstrb_i", 4), ("output", "bvalid_o", 1),
    ("input", "bready_i", 1), ("output", "bresp_o", 2), ("input", "arvalid_i", 1),
    ("output", "arready_o", 1), ("input", "araddr_i", "AddrW"), ("input", "arprot_i", 3),
    ("output", "rvalid_o", 1), ("input", "rready_i", 1), ("output", "rdata_o", 32),
    ("output", "rresp_o", 2),
]

JOB_PORTS = [
    ("output", "job_start_o", 1, "CTRL.START (idle: clears STATUS.DONE/ERROR, ERR_CODE)"),
    ("output", "job_clear_o", 1, "CTRL.CLEAR: zero the block's own counters"),
    ("input", "job_busy_i", 1, "STATUS.BUSY, and counted into CYC_BUSY"),
    ("input", "job_stall_i", 1, "counted into CYC_STALL while busy"),
    ("input", "job_done_i", 1, "the job ended: STATUS.DONE, INTR_STATUS.DONE"),
    ("input", "job_err_i", 1, "an error: STATUS.ERROR, INTR_STATUS.ERROR, first code kept"),
    ("input", "job_err_code_i", 8, "its ERR_CODE.CODE"),
    ("input", "job_err_resp_i", 2, "its ERR_CODE.RESP (bus errors)"),
    ("input", "job_rd_burst_i", 1, "counted into RD_BURSTS"),
    ("input", "job_wr_burst_i", 1, "counted into WR_BURSTS"),
    ("output", "irq_o", 1, "the level interrupt"),
]


def width_decl(wd):
    if wd == 1:
        return ""
    if isinstance(wd, str):
        return "[%s-1:0]" % wd
    return "[%d:0]" % (wd - 1)


def gen_csr(blk, rdl_rel, regs, map_w):
    """The shell's register side of a block in one module: cc_axil_slave + <blk>_regs +
    cc_job_ctrl with the common registers wired, so a <blk>_axi top connects the AXI4-Lite port,
    the job interface and its own fields only."""
    names = [r.name for r in regs]
    missing = [n for n in COMMON_REGS if n not in names]
    if missing:
        raise GenError("the common registers are missing (%s): `CC_SHELL_REGS" % ", ".join(missing))
    mod = blk + "_csr"
    own = [(d, p, wd) for r in regs if r.name not in COMMON_REGS for f in r.fields
           for (d, p, wd) in f.ports()]
    common = {p for r in regs if r.name in COMMON_REGS for f in r.fields for (_, p, _) in f.ports()}
    conn = dict(COMMON_CONN)
    if set(conn) != common:
        raise GenError("the common registers' ports differ from the shell's: %s"
                       % ", ".join(sorted(set(conn) ^ common)))
    L = []
    w = L.append
    rule = "/" * 100
    w(rule)
    w("//")
    w("// Filename:  %s.v" % mod)
    w("//")
    w("// Purpose:   The AXI shell's register side of %s (docs/axi_shell.md): cc_axil_slave," % blk)
    w("//            the register file %s_regs and cc_job_ctrl, with the common registers" % blk)
    w("//            (STATUS, ERR_CODE, interrupts, counters) wired. The %s_axi top connects the" % blk)
    w("//            AXI4-Lite port, the job interface and the block's own register fields.")
    if len(rdl_rel) <= 32:
        w("//            Generated by scripts/gen_regs.py from %s -- do not edit." % rdl_rel)
    else:
        w("//            Generated by scripts/gen_regs.py from %s --" % rdl_rel)
        w("//            do not edit.")
    w("//")
    w("//            Job interface:")
    for d, p, wd, what in JOB_PORTS:
        w("//              %-16s %s" % (p, what))
    w("//")
    w("// Parameters:")
    w("//   AddrW   AXI4-Lite address bits (>= %d: the map's)" % map_w)
    w("//")
    w(rule)
    w("`default_nettype none")
    w("module %s #(" % mod)
    w("  parameter integer AddrW = %d" % max(8, map_w))
    w(") (")
    ports = [("input", "clk_i", 1), ("input", "rst_ni", 1)]
    ports += [(d, "s_axil_" + p, wd) for d, p, wd in AXIL_PORTS]
    ports += [(d, p, wd) for d, p, wd, _ in JOB_PORTS]
    ports += own
    decls = []
    for d, p, wd in ports:
        decls.append("  %-6s wire %-12s %s" % (d, width_decl(wd), p))
    for i, dcl in enumerate(decls):
        w(dcl.rstrip() + ("," if i + 1 < len(decls) else ""))
    w(");")
    w("  wire        reg_we, reg_re, reg_err;")
    w("  wire [AddrW-1:0] reg_addr;")
    w("  wire [31:0] reg_wdata, reg_rdata;")
    w("  wire [3:0]  reg_wstrb;")
    w("  wire        start, clear, st_done, st_error;")
    w("  wire [7:0]  err_code;")
    w("  wire [1:0]  err_resp, intr_status, intr_enable, intr_test;")
    w("  wire [31:0] cyc_busy, cyc_stall, rd_bursts, wr_bursts;")
    w("")
    w("  cc_axil_slave #(.AddrW(AddrW)) u_axil (")
    conns = [("clk_i", "clk_i"), ("rst_ni", "rst_ni")]
    conns += [("s_axil_" + p, "s_axil_" + p) for _, p, _ in AXIL_PORTS]
    conns += [("reg_we_o", "reg_we"), ("reg_re_o", "reg_re"), ("reg_addr_o", "reg_addr"),
              ("reg_wdata_o", "reg_wdata"), ("reg_wstrb_o", "reg_wstrb"),
              ("reg_rdata_i", "reg_rdata"), ("reg_err_i", "reg_err")]
    pw = max(len(a) for a, _ in conns)
    for i, (a, b) in enumerate(conns):
        w("    .%-*s(%s)%s" % (pw, a, b, "," if i + 1 < len(conns) else ""))
    w("  );")
    w("")
    w("  %s_regs #(.AddrW(AddrW)) u_regs (" % blk)
    conns = [("clk_i", "clk_i"), ("rst_ni", "rst_ni"), ("reg_we_i", "reg_we"),
             ("reg_re_i", "reg_re"), ("reg_addr_i", "reg_addr"), ("reg_wdata_i", "reg_wdata"),
             ("reg_wstrb_i", "reg_wstrb"), ("reg_rdata_o", "reg_rdata"), ("reg_err_o", "reg_err")]
    for r in regs:
        for f in r.fields:
            for _, p, _ in f.ports():
                conns.append((p, conn.get(p, p)))
    pw = max(len(a) for a, _ in conns)
    for i, (a, b) in enumerate(conns):
        w("    .%-*s(%s)%s" % (pw, a, b, "," if i + 1 < len(conns) else ""))
    w("  );")
    w("")
    w("  // CTRL.START reaches the block as is; it starts a new job's status only with the block")
    w("  // idle (a block refusing a job reports it through job_done_i / job_err_i at once).")
    w("  assign job_start_o = start;")
    w("  assign job_clear_o = clear;")
    w("")
    w("  cc_job_ctrl u_job (")
    conns = [("clk_i", "clk_i"), ("rst_ni", "rst_ni"),
             ("start_i", "start && !job_busy_i"), ("clear_i", "clear"), ("busy_i", "job_busy_i"), ("stall_i", "job_stall_i"),
             ("done_i", "job_done_i"), ("err_i", "job_err_i"), ("err_code_i", "job_err_code_i"),
             ("err_resp_i", "job_err_resp_i"), ("rd_burst_i", "job_rd_burst_i"),
             ("wr_burst_i", "job_wr_burst_i"), ("intr_status_i", "intr_status"),
             ("intr_enable_i", "intr_enable"), ("status_done_o", "st_done"),
             ("status_error_o", "st_error"), ("err_code_o", "err_code"),
             ("err_resp_o", "err_resp"), ("cyc_busy_o", "cyc_busy"),
             ("cyc_stall_o", "cyc_stall"), ("rd_bursts_o", "rd_bursts"),
             ("wr_bursts_o", "wr_bursts"), ("irq_o", "irq_o")]
    pw = max(len(a) for a, _ in conns)
    for i, (a, b) in enumerate(conns):
        w("    .%-*s(%s)%s" % (pw, a, b, "," if i + 1 < len(conns) else ""))
    w("  );")
    w("endmodule")
    w("`default_nettype wire")
    return "\n".join(L) + "\n"


def gen_header(root, blk, rdl_rel, regs, map_w, tmp):
    from peakrdl_cheader.exporter import CHeaderExporter
    path = os.path.join(tmp, blk + "_regs.h")
    CHeaderExporter().export(root.top, path, reuse_typedefs=False)
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    ub = blk.upper()
    head = ("// Generated by scripts/gen_regs.py from %s -- do not edit.\n"
            "// Register offsets (%s__<REG>_OFFSET), field masks, positions, widths and reset\n"
            "// values (%s__<REG>__<FIELD>_bm/_bp/_bw/_reset) and the register struct %s_t.\n"
            "//\n" % (rdl_rel, ub, ub, blk))
    offs = ["// Register byte offsets"]
    nw = max(len(r.name) for r in regs)
    for r in regs:
        offs.append("#define %s__%-*s 0x%02xu" % (ub, nw + 7, r.name + "_OFFSET", r.offset))
    # the whole map, for a test of the decode (tb/common/tb_axi.h tb_axil_check_decode): every
    # register's offset, and the address bits the map spans (bits above must be 0)
    offs.append("")
    offs.append("// Every register's offset, and the register file's address bits (MapW)")
    offs.append("#define %s__ALL_OFFSETS \\" % ub)
    terms = ["%s__%s_OFFSET" % (ub, r.name) for r in regs]
    line = "    {"
    for i, t in enumerate(terms):
        t += "}" if i == len(terms) - 1 else ","
        if len(line) + len(t) + 1 > 96:
            offs.append(line + " \\")
            line = "     " + t
        else:
            line += ("" if line.endswith("{") else " ") + t
    offs.append(line)
    offs.append("#define %s__MAP_W %d" % (ub, map_w))
    marker = "\n#ifdef __cplusplus\n}\n#endif"
    k = text.rfind(marker)
    if k < 0:
        raise GenError("peakrdl-cheader output: footer not found")
    text = head + text[:k].rstrip("\n") + "\n\n" + "\n".join(offs) + "\n" + text[k:]
    return text


def gen_markdown(root, blk, rdl_rel, regs, tmp):
    from peakrdl_markdown.exporter import MarkdownExporter
    path = os.path.join(tmp, blk + ".md")
    MarkdownExporter().export(root.top, path, input_files=[rdl_rel])
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    intro = ("# %s registers\n\n"
             "Generated by `scripts/gen_regs.py` from `%s` (do not edit), like the\n"
             "register file `rtl/%s/%s_regs.v` and the C header `sw/%s/%s_regs.h`.\n"
             "Register semantics and the common registers: [axi_shell.md](../axi_shell.md); the\n"
             "generator: [README.md](README.md). The hardware ports of each field are listed at"
             " the\nend of the page.\n\n" % (blk, rdl_rel, blk, blk, blk, blk))
    text = "\n".join(ln.rstrip() for ln in text.splitlines()).rstrip("\n") + "\n"
    ports = ["", "## Hardware ports of %s_regs" % blk, "",
             "Besides the register bus (`clk_i`, `rst_ni`, `reg_*`); kinds as in"
             " [README.md](README.md).", "",
             "| Register | Field | Bits | Kind | Ports |", "|---|---|---|---|---|"]
    for r in regs:
        for f in r.fields:
            p = ", ".join("`%s%s`" % (n, "" if wd == 1 else "[%d:0]" % (wd - 1))
                          for _, n, wd in f.ports()) or "none"
            ports.append("| %s | %s | %s | %s | %s |" % (r.name, f.name, bits(f.msb, f.lsb)[1:-1],
                                                         KIND_TEXT[f.kind], p))
    return intro + text + "\n".join(ports) + "\n"


# ----------------------------------------------------------------------------------------- main

def main():
    ap = argparse.ArgumentParser(description="Register file, C header and docs page from RDL.")
    ap.add_argument("rdl", help="rtl/<blk>/<blk>_regs.rdl")
    ap.add_argument("--check", action="store_true",
                    help="write nothing; fail if a committed output is stale")
    a = ap.parse_args()
    if not os.path.isfile(a.rdl):
        die("%s: no such file" % a.rdl)
    base = os.path.basename(a.rdl)
    if not base.endswith("_regs.rdl"):
        die("%s: the description must be named <blk>_regs.rdl" % a.rdl)
    blk = base[:-len("_regs.rdl")]
    rdl_rel = rel(a.rdl)
    root = compile_rdl(a.rdl)
    try:
        _, regs, map_w = build_model(root, blk)
        outs = {}
        outs["rtl/%s/%s_regs.v" % (blk, blk)] = gen_verilog(blk, rdl_rel, regs, map_w)
        outs["rtl/%s/%s_csr.v" % (blk, blk)] = gen_csr(blk, rdl_rel, regs, map_w)
        with tempfile.TemporaryDirectory() as tmp:
            outs["sw/%s/%s_regs.h" % (blk, blk)] = gen_header(root, blk, rdl_rel, regs, map_w, tmp)
            outs["docs/regs/%s.md" % blk] = gen_markdown(root, blk, rdl_rel, regs, tmp)
    except GenError as e:
        die("%s: %s" % (rdl_rel, e))
    for path, text in outs.items():
        full = os.path.join(ROOT, path)
        old = None
        if os.path.isfile(full):
            with open(full, encoding="utf-8") as fh:
                old = fh.read()
        if a.check:
            if old != text:
                die("%s is %s: run python3 scripts/gen_regs.py %s"
                    % (path, "stale" if old is not None else "missing", rdl_rel))
        elif old != text:
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "w", encoding="utf-8") as fh:
                fh.write(text)
            print("%s: wrote %s" % (TOOL, path))
    if a.check:
        print("%s: %s: outputs up to date" % (TOOL, rdl_rel))


if __name__ == "__main__":
    main()
