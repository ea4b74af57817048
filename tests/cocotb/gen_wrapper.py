#!/usr/bin/env python3
"""Generates the cocotb wrapper of a <blk>_axi top (docs/axi_verification.md).

The wrapper `<top>_wrap`:
  * renames the top's ports to the plain AXI names cocotbext-axi's from_prefix() looks for
    (s_axil_awvalid_i -> s_axil_awvalid, clk_i -> clk, rst_ni -> rst_n, irq_o -> irq);
  * splits flattened per-lane stream ports into one stream per lane where asked
    (neunoc_axi: s_axis_pe_tvalid_i[p] -> s_axis_pe<p>_tvalid, ...);
  * instantiates the top with the chosen small parameters (the wrapper re-declares every
    parameter of the top with the same expressions, so derived widths stay right);
  * holds the fault injector: parameter FAULT (0 = none) breaks the DUT's outputs between the
    DUT and the bus (the list is FAULTS below and in docs/axi_verification.md).

The port and parameter lists are read from the top's source, so a new top needs only an entry
in CONFIGS. Output: build/cocotb/<top>_wrap.v (or --out).

    python3 tests/cocotb/gen_wrapper.py softermax_axi [--out FILE]
"""
import argparse
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# Per top: where it lives, the chosen (small) parameters, and lane splits of flattened streams.
CONFIGS = {
    "softermax_axi": {
        "src": "rtl/softermax/softermax_axi.v",
        "params": {"Vec": 4, "MaxLen": 64, "MaxBurst": 4, "RdOutstanding": 2,
                   "WrOutstanding": 2},
    },
    "neummu_axi": {
        "src": "rtl/neummu/neummu_axi.v",
        "params": {"Walkers": 2, "Slots": 2, "TlbEntries": 16, "TlbWays": 2, "Tlb2M": 2},
    },
    "neunoc_axi": {
        "src": "rtl/neunoc/neunoc_axi.v",
        "params": {"K": 2, "Cols": 2, "Rows": 1, "Depth": 4},
        # flattened ports of NP lanes: bit p of the 1-bit signals, bits [p*TW +: TW] of tdata
        "split": {"prefixes": ["s_axis_pe_", "m_axis_pe_"], "lanes": 4, "count": "NP"},
    },
}

# Fault numbers (the wrapper's FAULT parameter) and what each breaks. Used by run.py too.
FAULTS = {
    1: "AR/AW VALID dropped one cycle after assertion while READY is low",
    2: "W data (or m_axis tdata) changed while VALID && !READY",
    3: "AR/AW burst address moved so that the burst crosses a 4 KB boundary",
    4: "WLAST one beat early",
    5: "AXI-Lite RRESP/BRESP forced to OKAY (unmapped register answers OKAY)",
    6: "AXI-Lite read data of CTRL leaks a non-zero bit",
    7: "ARBURST/AWBURST forced to FIXED",
    8: "RREADY stuck low after the first R beat (bursts not consumed)",
    9: "AXI-Lite RVALID dropped one cycle while RREADY is low",
    10: "a write to the read-only ID register takes effect (ID reads change)",
    11: "m_axis TVALID dropped one cycle while TREADY is low",
    12: "a write to the read-only ID register answered OKAY (BRESP forced)",
    13: "AXI-Lite WSTRB ignored (the DUT sees every byte strobe set)",
}


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def split_top(s):
    """Splits s at commas outside parentheses/brackets/braces."""
    out, depth, cur = [], 0, ""
    for c in s:
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        if c == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += c
    if cur.strip():
        out.append(cur)
    return [x.strip() for x in out]


def parse_top(path, top):
    text = strip_comments(open(path).read())
    m = re.search(r"\bmodule\s+%s\s*#\s*\(" % re.escape(top), text)
    if not m:
        sys.exit(f"gen_wrapper: module {top} with a parameter list not found in {path}")
    # parameter list: up to the ')' that closes '#('
    i, depth = m.end(), 1
    while depth:
        depth += {"(": 1, ")": -1}.get(text[i], 0)
        i += 1
    params = []
    for item in split_top(text[m.end():i - 1]):
        pm = re.match(r"parameter\s+(?:integer\s+)?(\w+)\s*=\s*(.+)$", item, re.S)
        if not pm:
            sys.exit(f"gen_wrapper: cannot parse parameter '{item}'")
        params.append((pm.group(1), " ".join(pm.group(2).split())))
    # port list: from the '(' after the parameter list to its ')'
    j = text.index("(", i)
    k, depth = j + 1, 1
    while depth:
        depth += {"(": 1, ")": -1}.get(text[k], 0)
        k += 1
    ports = []
    for item in split_top(text[j + 1:k - 1]):
        pm = re.match(r"(input|output)\s+(?:wire\s+|reg\s+)?(\[[^\]]+\])?\s*(\w+)$", item, re.S)
        if not pm:
            sys.exit(f"gen_wrapper: cannot parse port '{item}'")
        ports.append((pm.group(1), " ".join((pm.group(2) or "").split()), pm.group(3)))
    return params, ports


def plain(name):
    """The AXI name of a port: the project's direction suffix dropped."""
    for suf in ("_ni", "_no", "_i", "_o"):
        if name.endswith(suf):
            return name[: -len(suf)] + ("_n" if suf in ("_ni", "_no") else "")
    return name


def lane_width(width, count):
    """[NP-1:0] -> '' (one bit per lane); [NP*TW-1:0] -> [TW-1:0]."""
    m = re.match(r"\[\s*%s\s*-\s*1\s*:\s*0\s*\]$" % count, width)
    if m:
        return "", None
    m = re.match(r"\[\s*%s\s*\*\s*(\w+)\s*-\s*1\s*:\s*0\s*\]$" % count, width)
    if m:
        return f"[{m.group(1)}-1:0]", m.group(1)
    sys.exit(f"gen_wrapper: cannot split a port of width {width} into {count} lanes")


class Wrapper:
    def __init__(self, top, cfg):
        self.top, self.cfg = top, cfg
        self.params, self.ports = parse_top(os.path.join(ROOT, cfg["src"]), top)
        self.pnames = [p for p, _ in self.params]
        for p in cfg["params"]:
            if p not in self.pnames:
                sys.exit(f"gen_wrapper: {top} has no parameter {p}")
        # wrapper ports: name -> (dir, width); DUT-side net of each: d_<name>
        self.wports = []           # (dir, width, name)
        self.glue = []             # lines joining DUT nets and per-lane nets
        self.dut_nets = []         # (width, net) of the DUT's ports
        self.conns = []            # (dut port, net)
        split = cfg.get("split")
        for d, w, n in self.ports:
            pn = plain(n)
            self.dut_nets.append((w, "d_" + pn))
            self.conns.append((n, "d_" + pn))
            pre = split and next((p for p in split["prefixes"] if pn.startswith(p)), None)
            if not pre:
                self.wports.append((d, w, pn))
                continue
            lw, lwid = lane_width(w, split["count"])
            sig = pn[len(pre):]
            for lane in range(split["lanes"]):
                ln = f"{pre.rstrip('_')}{lane}_{sig}"
                self.wports.append((d, lw, ln))
                sel = f"[{lane}]" if not lwid else f"[{lane}*{lwid} +: {lwid}]"
                self.glue.append((d, lw, ln, f"d_{pn}{sel}"))
        self.names = {n for _, _, n in self.wports}
        self.width = {n: w for _, w, n in self.wports}
        self.dir = {n: d for d, _, n in self.wports}
        self.over = {}             # wrapper-side net -> its faulty drive expression
        self.fault_lines = []

    def has(self, *names):
        return all(n in self.names for n in names)

    # ------------------------------------------------------------------ fault injector
    def stall_counter(self, tag, valid, ready):
        """Counts the cycles the DUT held `valid` without a handshake (saturating at 3)."""
        self.fault_lines += [
            f"  reg [1:0] st_{tag}_q;   // cycles {valid} held without a handshake",
            "  always @(posedge clk or negedge rst_n)",
            f"    if (!rst_n) st_{tag}_q <= 2'd0;",
            f"    else if (d_{valid} && !d_{ready})",
            f"      st_{tag}_q <= (st_{tag}_q == 2'd3) ? 2'd3 : st_{tag}_q + 2'd1;",
            f"    else st_{tag}_q <= 2'd0;",
        ]

    def hide_valid(self, fault, tag, valid, ready):
        """FAULT: VALID hidden for one cycle (the second cycle of a stall); READY hidden too,
        so the DUT sees no handshake."""
        self.fault_lines.append(
            f"  wire hide_{tag} = (FAULT == {fault}) && (st_{tag}_q == 2'd1);")
        self.over[valid] = f"d_{valid} && !hide_{tag}"
        self.over["d_" + ready] = f"{ready} && !hide_{tag}"

    def flip_payload(self, fault, tag, data):
        """FAULT: bit 0 of the payload flipped in the second cycle of a stall."""
        self.over[data] = (f"d_{data} ^ (((FAULT == {fault}) && (st_{tag}_q == 2'd1)) ? "
                           "1'b1 : 1'b0)")

    def build_faults(self):
        L = self.fault_lines
        # ---- AXI4 master channels
        for ch in ("ar", "aw"):
            v, r = f"m_axi_{ch}valid", f"m_axi_{ch}ready"
            if self.has(v, r):
                self.stall_counter(ch, v, r)
                self.hide_valid(1, ch, v, r)                                   # fault 1
                a, ln, sz = f"m_axi_{ch}addr", f"m_axi_{ch}len", f"m_axi_{ch}size"
                msb = re.match(r"\[(.+):0\]$", self.width[a]).group(1)
                self.over[a] = (f"((FAULT == 3) && (d_{ln} != 8'd0)) ? "           # fault 3
                                f"{{d_{a}[{msb}:12], 12'hFFF & ~((12'd1 << d_{sz}) - 12'd1)}}"
                                f" : d_{a}")
                self.over[f"m_axi_{ch}burst"] = f"(FAULT == 7) ? 2'b00 : d_m_axi_{ch}burst"  # 7
        if self.has("m_axi_wvalid", "m_axi_wready", "m_axi_wdata"):
            self.stall_counter("w", "m_axi_wvalid", "m_axi_wready")
            self.flip_payload(2, "w", "m_axi_wdata")                            # fault 2
            # fault 4: WLAST one beat early, from the wrapper's own queue of AWLENs
            L += [
                "  // fault 4: the wrapper's queue of AW lengths and its W beat count",
                "  reg [7:0] awq_mem [0:15];",
                "  reg [3:0] awq_wr_q, awq_rd_q;",
                "  reg [7:0] wbeat_q;",
                "  wire awq_push = m_axi_awvalid && m_axi_awready;",
                "  wire wfire    = m_axi_wvalid && m_axi_wready;",
                "  wire awq_any  = (awq_wr_q != awq_rd_q);",
                "  wire [7:0] wlen = awq_mem[awq_rd_q];",
                "  always @(posedge clk) if (awq_push) awq_mem[awq_wr_q] <= m_axi_awlen;",
                "  always @(posedge clk or negedge rst_n)",
                "    if (!rst_n) begin awq_wr_q <= 4'd0; awq_rd_q <= 4'd0; wbeat_q <= 8'd0; end",
                "    else begin",
                "      if (awq_push) awq_wr_q <= awq_wr_q + 4'd1;",
                "      if (wfire && awq_any && wbeat_q == wlen) begin",
                "        awq_rd_q <= awq_rd_q + 4'd1;",
                "        wbeat_q  <= 8'd0;",
                "      end else if (wfire) wbeat_q <= wbeat_q + 8'd1;",
                "    end",
            ]
            self.over["m_axi_wlast"] = ("((FAULT == 4) && awq_any && wlen != 8'd0) ? "
                                        "(wbeat_q == wlen - 8'd1) : d_m_axi_wlast")
        if self.has("m_axi_rvalid", "m_axi_rready"):
            # fault 8: RREADY (and RVALID towards the DUT) stuck low after the first R beat
            L += [
                "  reg r_seen_q;",
                "  always @(posedge clk or negedge rst_n)",
                "    if (!rst_n) r_seen_q <= 1'b0;",
                "    else if (m_axi_rvalid && m_axi_rready) r_seen_q <= 1'b1;",
                "  wire r_block = (FAULT == 8) && r_seen_q;",
            ]
            self.over["m_axi_rready"] = "d_m_axi_rready && !r_block"
            self.over["d_m_axi_rvalid"] = "m_axi_rvalid && !r_block"
        # ---- AXI4-Lite slave
        if self.has("s_axil_rvalid", "s_axil_rready"):
            self.stall_counter("lr", "s_axil_rvalid", "s_axil_rready")
            self.hide_valid(9, "lr", "s_axil_rvalid", "s_axil_rready")            # fault 9
            self.over["s_axil_rresp"] = "(FAULT == 5) ? 2'b00 : d_s_axil_rresp"  # fault 5
            self.over["s_axil_bresp"] = ("((FAULT == 5) || ((FAULT == 12) && "  # faults 5, 12
                                         "lw_addr_q[7:2] == 6'd0)) ? 2'b00 : d_s_axil_bresp")
            self.over["d_s_axil_wstrb"] = "(FAULT == 13) ? 4'hF : s_axil_wstrb"  # fault 13
            L += [
                "  // faults 6, 10, 12: the addresses of the read and the write in flight, a",
                "  // write to ID seen",
                "  reg [7:0] lr_addr_q, lw_addr_q;",
                "  reg       id_written_q;",
                "  always @(posedge clk)",
                "    if (s_axil_arvalid && s_axil_arready) lr_addr_q <= s_axil_araddr;",
                "  always @(posedge clk)",
                "    if (s_axil_awvalid && s_axil_awready) lw_addr_q <= s_axil_awaddr;",
                "  always @(posedge clk or negedge rst_n)",
                "    if (!rst_n) id_written_q <= 1'b0;",
                "    else if (s_axil_awvalid && s_axil_awready && s_axil_awaddr[7:2] == 6'd0)",
                "      id_written_q <= 1'b1;",
            ]
            self.over["s_axil_rdata"] = (
                "d_s_axil_rdata ^ {31'd0, ((FAULT == 6) && lr_addr_q[7:2] == 6'd1) ||"
                " ((FAULT == 10) && id_written_q && lr_addr_q[7:2] == 6'd0)}")
        # ---- AXI4-Stream masters (every m_axis stream / lane)
        for n in sorted(self.names):
            m = re.match(r"(m_axis_\w+)_tvalid$", n)
            if not m:
                continue
            pre = m.group(1)
            tag = pre.replace("m_axis_", "mx_")
            self.stall_counter(tag, n, pre + "_tready")
            self.hide_valid(11, tag, n, pre + "_tready")                           # fault 11
            if pre + "_tdata" in self.names:
                self.flip_payload(2, tag, pre + "_tdata")                          # fault 2

    # ------------------------------------------------------------------ output
    def emit(self):
        self.build_faults()
        P = self.cfg["params"]
        out = [
            f"// Generated by tests/cocotb/gen_wrapper.py from {self.cfg['src']} -- do not edit.",
            f"// cocotb wrapper of {self.top}: plain AXI port names, chosen parameters, and the",
            "// fault injector (FAULT = 0: none; docs/axi_verification.md lists the faults).",
            "`default_nettype none",
            f"module {self.top}_wrap #(",
            "  parameter integer FAULT = 0,",
        ]
        pl = []
        for n, e in self.params:
            pl.append(f"  parameter integer {n} = {P.get(n, e)}")
        out.append(",\n".join(pl))
        out.append(") (")
        out.append(",\n".join(f"  {d} wire {w + ' ' if w else ''}{n}" for d, w, n in self.wports))
        out.append(");")
        # nets on the DUT side
        for w, n in self.dut_nets:
            out.append(f"  wire {w + ' ' if w else ''}{n};")
        for d, w, ln, sel in self.glue:
            out.append(f"  wire {w + ' ' if w else ''}d_{ln};")
            if d == "output":
                out.append(f"  assign d_{ln} = {sel};")
            else:
                out.append(f"  assign {sel} = d_{ln};")
        out.append("")
        out += self.fault_lines
        out.append("")
        # drives: wrapper outputs from DUT nets, DUT inputs from wrapper inputs (maybe faulty)
        for d, w, n in self.wports:
            if d == "output":
                out.append(f"  assign {n} = {self.over.get(n, 'd_' + n)};")
            else:
                out.append(f"  assign d_{n} = {self.over.get('d_' + n, n)};")
        out.append("")
        ov = ", ".join(f".{n}({n})" for n in self.pnames if n in P)
        out.append(f"  {self.top} #({ov}) dut (")
        out.append(",\n".join(f"    .{p}({n})" for p, n in self.conns))
        out.append("  );")
        out.append("endmodule")
        out.append("`default_nettype wire")
        return "\n".join(out) + "\n"


def generate(top, out=None):
    if top not in CONFIGS:
        sys.exit(f"gen_wrapper: unknown top {top} (known: {', '.join(CONFIGS)})")
    out = out or os.path.join(ROOT, "build", "cocotb", f"{top}_wrap.v")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    text = Wrapper(top, CONFIGS[top]).emit()
    if not os.path.exists(out) or open(out).read() != text:
        with open(out, "w") as f:
            f.write(text)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("top", choices=sorted(CONFIGS))
    ap.add_argument("--out")
    a = ap.parse_args()
    print(generate(a.top, a.out))


if __name__ == "__main__":
    main()
