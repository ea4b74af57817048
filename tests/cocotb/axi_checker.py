"""AXI protocol checker for the <blk>_axi shells (docs/axi_verification.md).

cocotbext-axi drives the buses; this module judges them. One coroutine samples every monitored
channel once per clock, at the falling edge (cocotbext-axi and the DUT change signals only just
after the rising edge, so the falling-edge value is the one the next rising edge samples).

Checks (each violation is one message; the message texts are what the fault tests look for):

  every channel the DUT drives (AXI4 master AR, AW, W; AXI4-Lite slave R, B; m_axis streams):
    "VALID dropped before READY"                VALID fell while the previous cycle had
                                                VALID && !READY
    "payload changed while VALID && !READY"     a payload signal changed during a stall
  AXI4 master (the DUT's memory port):
    "burst crosses a 4 KB boundary"             (AxADDR mod 4K) + (AxLEN+1) * 2^AxSIZE > 4K
    "AxLEN > 255" / "AxBURST != INCR" / "AxSIZE wider than the bus"
    "WLAST wrong"                               WLAST not exactly on beat AWLEN+1 of its burst
    "R burst not consumed"                      the DUT left RVALID waiting (RREADY low) for
                                                more than `max_stall` cycles, or at the end of
                                                the test R beats of bursts it requested are
                                                outstanding (likewise "B response not consumed")
    "RLAST wrong" / "R beat with no outstanding AR burst" / "B response with no outstanding
    AW burst"                                   the memory side's view, for completeness
  AXI4-Lite register semantics (from the generated map: sw/<blk>/<blk>_regs.h for offsets,
  masks and reset values, docs/regs/<blk>.md for each field's kind):
    "unmapped ... not SLVERR"                   read or write of an address with no register
    "write to read-only register ... not SLVERR" a register with no software-writable field
    "write-only bits ... read non-zero"         singlepulse fields (CTRL, INTR_TEST, ...) read 0
    "reserved bits ... read non-zero"           bits of no field read 0
    "read-only register ... changed"            a constant field (ID) reads other than its value
    "rw register ... reads"                     an rw (storage) field reads other than the last
                                                value written (byte strobes honoured), or its
                                                reset value
    "answered SLVERR, expected OKAY"            a legal access refused

Use:
    chk = AxiChecker(dut.clk, dut.rst_n, log_path)
    chk.add_axi_master(dut, "m_axi")
    chk.add_axil_slave(dut, "s_axil", load_regmap("softermax"))
    chk.add_axis_master(dut, "m_axis_rsp")
    chk.start() ... chk.final(); chk.assert_clean()
"""
import os
import re

import cocotb
from cocotb.triggers import FallingEdge

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

OKAY, EXOKAY, SLVERR, DECERR = 0, 1, 2, 3
RESP_NAME = {0: "OKAY", 1: "EXOKAY", 2: "SLVERR", 3: "DECERR"}


# ---------------------------------------------------------------------------- register map
class Field:
    def __init__(self, name, mask, pos, reset, kind):
        self.name, self.mask, self.pos, self.reset, self.kind = name, mask, pos, reset, kind


class Reg:
    def __init__(self, name, offset):
        self.name, self.offset, self.fields = name, offset, []

    def mask(self, *kinds):
        m = 0
        for f in self.fields:
            if not kinds or f.kind in kinds:
                m |= f.mask
        return m

    @property
    def writable(self):
        """Has a software-writable field (else a write must be refused with SLVERR)."""
        return any(f.kind in ("rw", "w1c", "wo") for f in self.fields)

    def reset_value(self, *kinds):
        v = 0
        for f in self.fields:
            if (not kinds or f.kind in kinds) and f.reset is not None:
                v |= (f.reset << f.pos) & f.mask
        return v


KINDS = {"r, const": "const", "r, hw input": "hw", "rw": "rw", "rw1c, hw set": "w1c",
         "w, pulse": "wo"}


def load_regmap(blk):
    """{offset: Reg} from the generated C header (offsets, masks, resets) and the generated
    Markdown page (each field's kind)."""
    up = blk.upper()
    hdr = open(os.path.join(ROOT, "sw", blk, f"{blk}_regs.h")).read()
    md = open(os.path.join(ROOT, "docs", "regs", f"{blk}.md")).read()
    regs = {}
    byname = {}
    for m in re.finditer(r"#define %s__(\w+)_OFFSET\s+(0x[0-9a-fA-F]+)u?" % up, hdr):
        r = Reg(m.group(1), int(m.group(2), 16))
        regs[r.offset] = r
        byname[r.name] = r
    defs = dict(re.findall(r"#define %s__(\w+)\s+(0x[0-9a-fA-F]+|\d+)" % up, hdr))
    ports = md[md.index("## Hardware ports"):]
    row = re.compile(r"^\|\s*(\w+)\s*\|\s*(\w+)\s*\|\s*[\d:]+\s*\|\s*([^|]+?)\s*\|", re.M)
    for m in row.finditer(ports):
        rn, fn, kind = m.group(1), m.group(2), m.group(3)
        if rn == "Register" or rn not in byname:
            continue
        key = f"{rn}__{fn}"
        mask = int(defs[key + "_bm"], 0)
        pos = int(defs[key + "_bp"], 0)
        reset = int(defs[key + "_reset"], 0) if key + "_reset" in defs else None
        if kind not in KINDS:
            raise ValueError(f"load_regmap({blk}): unknown field kind '{kind}' of {key}")
        byname[rn].fields.append(Field(fn, mask, pos, reset, KINDS[kind]))
    for r in regs.values():
        if not r.fields:
            raise ValueError(f"load_regmap({blk}): register {r.name} has no fields")
    return regs


# ---------------------------------------------------------------------------- helpers
def _s(h):
    return str(h.value)


def _int(h):
    s = str(h.value)
    try:
        return int(s, 2)
    except ValueError:
        return None


def _hex(bits):
    """A sampled value as hex (as is when it holds X or Z)."""
    try:
        return "0x%x" % int(bits, 2)
    except ValueError:
        return bits


class _Channel:
    """One valid/ready channel: stability rules (if DUT-driven) and a beat callback."""

    def __init__(self, chk, name, valid, ready, payload, on_beat=None, dut_driven=True):
        self.chk, self.name = chk, name
        chk.channels_by_name[name] = self
        self.valid, self.ready, self.payload = valid, ready, payload   # payload: {name: handle}
        self.on_beat, self.dut_driven = on_beat, dut_driven
        self.pending = False          # previous cycle: VALID && !READY
        self.held = None              # payload values during that stall
        self.beats = 0
        self.stalls = 0               # cycles with VALID && !READY

    def sample(self):
        v = _s(self.valid) == "1"
        r = _s(self.ready) == "1"
        if self.dut_driven and self.pending:
            if not v:
                self.chk.error(f"{self.name}: VALID dropped before READY")
            else:
                for n, h in self.payload.items():
                    val = _s(h)
                    if val != self.held[n]:
                        self.chk.error(f"{self.name}: payload changed while VALID && !READY "
                                       f"({n}: {_hex(self.held[n])} -> {_hex(val)})")
                        break
        if v and not r:
            self.stalls += 1
            if not self.pending:
                self.held = {n: _s(h) for n, h in self.payload.items()}
            self.pending = True
        else:
            self.pending = False
        if v and r:
            self.beats += 1
            if self.on_beat:
                self.on_beat({n: _int(h) for n, h in self.payload.items()})
        return v, r


# ---------------------------------------------------------------------------- the checker
class AxiChecker:
    def __init__(self, clock, reset_n, log_path=None, max_stall=2000, log=None):
        self.clock, self.reset_n = clock, reset_n
        self.log_path = log_path if log_path is not None else os.environ.get("AXI_CHECK_LOG")
        self.max_stall = max_stall
        self.log = log or cocotb.log
        self.errors = []
        self.channels = []
        self.channels_by_name = {}
        self.finals = []
        self.watchdogs = []
        self.task = None
        self.cycles = 0
        self.trace = os.environ.get("AXI_CHECK_TRACE", "0") == "1"

    # -------------------------------------------------------------- reporting
    def error(self, msg):
        msg = f"AXI-CHECK: {msg} (cycle {self.cycles})"
        self.errors.append(msg)
        if len(self.errors) <= 20:
            self.log.error(msg)
        if self.log_path:
            with open(self.log_path, "a") as f:
                f.write(msg + "\n")

    def found(self, text):
        return any(text in e for e in self.errors)

    def assert_clean(self):
        if self.errors:
            n = len(self.errors)
            raise AssertionError(f"{n} AXI protocol violation(s); first: " +
                                 "; ".join(self.errors[:5]))

    # -------------------------------------------------------------- AXI4 master (DUT)
    def add_axi_master(self, dut, prefix):
        g = lambda s: getattr(dut, f"{prefix}_{s}")  # noqa: E731
        data_bytes = len(g("wdata")) // 8
        st = {"r_out": [], "aw_lens": [], "w_pending": [], "w_idx": 0, "b_out": 0,
              "ar": 0, "aw": 0, "rbeat": 0, "rstall": 0, "bstall": 0}
        self.axi = st

        def addr_checks(ch, b):
            addr, ln, size, burst = b["addr"], b["len"], b["size"], b["burst"]
            if self.trace:
                self.log.info("TRACE %s %s addr 0x%x len %s (cycle %d)", prefix, ch, addr or 0,
                              ln, self.cycles)
            if None in (addr, ln, size, burst):
                self.error(f"{prefix} {ch}: X/Z on the address channel at a handshake")
                return False
            if ln > 255:
                self.error(f"{prefix} {ch}: {ch}LEN > 255 ({ln})")
            if burst != 1:
                self.error(f"{prefix} {ch}: {ch}BURST != INCR ({burst})")
            if (1 << size) > data_bytes:
                self.error(f"{prefix} {ch}: {ch}SIZE wider than the bus ({size})")
            nbytes = (ln + 1) << size
            if (addr & 0xFFF) + nbytes > 0x1000:
                self.error(f"{prefix} {ch}: burst crosses a 4 KB boundary "
                           f"(addr 0x{addr:x}, {ln + 1} beats of {1 << size} bytes)")
            return True

        def on_ar(b):
            st["ar"] += 1
            st["last_ar"] = b["addr"]
            if addr_checks("AR", b):
                st["r_out"].append(b["len"] + 1)

        def on_aw(b):
            st["aw"] += 1
            if addr_checks("AW", b):
                st["aw_lens"].append(b["len"])
                st["b_out"] += 1
                match_w()

        def on_w(b):
            if self.trace:
                self.log.info("TRACE %s W last %s (cycle %d)", prefix, b["last"], self.cycles)
            st["w_pending"].append(b["last"])
            match_w()

        def match_w():
            while st["aw_lens"] and st["w_pending"]:
                ln = st["aw_lens"][0]
                last = st["w_pending"].pop(0)
                idx = st["w_idx"]
                if bool(last) != (idx == ln):
                    self.error(f"{prefix} W: WLAST wrong: WLAST={last} on beat {idx + 1} of a "
                               f"burst of {ln + 1}")
                if idx == ln:
                    st["aw_lens"].pop(0)
                    st["w_idx"] = 0
                else:
                    st["w_idx"] = idx + 1

        def on_r(b):
            st["last_rresp"] = b["resp"]
            if not st["r_out"]:
                self.error(f"{prefix} R: R beat with no outstanding AR burst")
                return
            st["rbeat"] += 1
            last = st["rbeat"] == st["r_out"][0]
            if bool(b["last"]) != last:
                self.error(f"{prefix} R: RLAST wrong on beat {st['rbeat']} of {st['r_out'][0]}")
            if last:
                st["r_out"].pop(0)
                st["rbeat"] = 0

        def on_b(b):
            if st["b_out"] == 0 or len(st["aw_lens"]) >= st["b_out"]:
                # no burst whose data is complete is waiting for its response
                self.error(f"{prefix} B: B response with no outstanding AW burst")
                return
            st["b_out"] -= 1

        ax = lambda c: {"addr": g(c + "addr"), "len": g(c + "len"), "size": g(c + "size"),  # noqa
                        "burst": g(c + "burst"), "id": g(c + "id"), "lock": g(c + "lock"),
                        "cache": g(c + "cache"), "prot": g(c + "prot")}
        self.channels.append(_Channel(self, f"{prefix} AR", g("arvalid"), g("arready"),
                                      ax("ar"), on_ar))
        self.channels.append(_Channel(self, f"{prefix} AW", g("awvalid"), g("awready"),
                                      ax("aw"), on_aw))
        self.channels.append(_Channel(self, f"{prefix} W", g("wvalid"), g("wready"),
                                      {"data": g("wdata"), "strb": g("wstrb"), "last": g("wlast")},
                                      on_w))
        rch = _Channel(self, f"{prefix} R", g("rvalid"), g("rready"),
                       {"last": g("rlast"), "resp": g("rresp")}, on_r, dut_driven=False)
        bch = _Channel(self, f"{prefix} B", g("bvalid"), g("bready"), {"resp": g("bresp")},
                       on_b, dut_driven=False)
        self.channels += [rch, bch]

        def watchdog():
            # the DUT must take the R beats and B responses of the bursts it requested
            for ch, key, what in ((rch, "rstall", "R burst"), (bch, "bstall", "B response")):
                v = _s(ch.valid) == "1"
                r = _s(ch.ready) == "1"
                if v and not r:
                    st[key] += 1
                    if st[key] == self.max_stall:
                        self.error(f"{prefix} {what} not consumed: VALID waited {self.max_stall} "
                                   f"cycles with READY low")
                else:
                    st[key] = 0
        self.watchdogs.append(watchdog)

        def final():
            if st["r_out"]:
                self.error(f"{prefix} R burst not consumed at the end: {len(st['r_out'])} "
                           f"burst(s), {sum(st['r_out']) - st['rbeat']} beat(s) outstanding")
            if st["aw_lens"]:
                self.error(f"{prefix} W data missing at the end for {len(st['aw_lens'])} burst(s)")
            if st["b_out"]:
                self.error(f"{prefix} B response not consumed at the end: {st['b_out']} "
                           f"outstanding")
        self.finals.append(final)

    # -------------------------------------------------------------- AXI4-Lite slave (DUT)
    def add_axil_slave(self, dut, prefix, regmap):
        g = lambda s: getattr(dut, f"{prefix}_{s}")  # noqa: E731
        st = {"ar": [], "aw": [], "w": [], "aw_n": 0, "b_n": 0, "shadow": {}, "reads": 0,
              "writes": 0}
        self.axil = st
        for off, r in regmap.items():
            st["shadow"][off] = r.reset_value("rw")

        def on_ar(b):
            # remember how many writes had completed: a read is deterministic against the rw
            # shadow if no write was in flight between its AR and its R
            st["ar"].append((b["addr"], st["b_n"]))

        def on_aw(b):
            st["aw"].append(b["addr"])
            st["aw_n"] += 1

        def on_w(b):
            st["w"].append((b["data"], b["strb"]))

        def on_r(b):
            if not st["ar"]:
                self.error(f"{prefix} R: read response with no read address")
                return
            addr, b_at_ar = st["ar"].pop(0)
            st["reads"] += 1
            data, resp = b["data"], b["resp"]
            if addr is None or data is None or resp is None:
                self.error(f"{prefix} R: X/Z in a read (addr {addr}, data {data}, resp {resp})")
                return
            off = addr & ~3
            reg = regmap.get(off)
            if reg is None:
                if resp != SLVERR:
                    self.error(f"{prefix}: read of unmapped address 0x{off:02x} answered "
                               f"{RESP_NAME[resp]}, not SLVERR")
                elif data != 0:    # the shell's contract (cc_axil_slave): data 0 on SLVERR
                    self.error(f"{prefix}: read of unmapped address 0x{off:02x}: SLVERR with "
                               f"data 0x{data:08x}, not 0")
                return
            if resp != OKAY:
                self.error(f"{prefix}: read of {reg.name} answered {RESP_NAME[resp]}, "
                           f"expected OKAY")
                return
            if data & ~reg.mask() & 0xFFFFFFFF:
                self.error(f"{prefix}: reserved bits of {reg.name} read non-zero (0x{data:08x})")
            wo = reg.mask("wo")
            if data & wo:
                self.error(f"{prefix}: write-only bits of {reg.name} read non-zero "
                           f"(0x{data & wo:08x})")
            cm = reg.mask("const")
            if (data & cm) != reg.reset_value("const"):
                self.error(f"{prefix}: read-only register {reg.name} changed: reads "
                           f"0x{data & cm:08x}, constant 0x{reg.reset_value('const'):08x}")
            rw = reg.mask("rw")
            if rw and st["aw_n"] == b_at_ar and (data & rw) != (st["shadow"][off] & rw):
                self.error(f"{prefix}: rw register {reg.name} reads 0x{data & rw:08x}, "
                           f"last written 0x{st['shadow'][off] & rw:08x}")

        def on_b(b):
            if not st["aw"] or not st["w"]:
                self.error(f"{prefix} B: write response without address and data")
                return
            addr = st["aw"].pop(0)
            data, strb = st["w"].pop(0)
            st["b_n"] += 1
            st["writes"] += 1
            resp = b["resp"]
            if addr is None or resp is None or data is None or strb is None:
                self.error(f"{prefix} B: X/Z in a write (addr {addr}, resp {resp})")
                return
            off = addr & ~3
            reg = regmap.get(off)
            if reg is None:
                if resp != SLVERR:
                    self.error(f"{prefix}: write to unmapped address 0x{off:02x} answered "
                               f"{RESP_NAME[resp]}, not SLVERR")
                return
            if not reg.writable:
                if resp != SLVERR:
                    self.error(f"{prefix}: write to read-only register {reg.name} answered "
                               f"{RESP_NAME[resp]}, not SLVERR")
                return
            if resp != OKAY:
                self.error(f"{prefix}: write to {reg.name} answered {RESP_NAME[resp]}, "
                           f"expected OKAY")
                return
            bm = sum(0xFF << (8 * i) for i in range(4) if strb >> i & 1)
            rw = reg.mask("rw")
            st["shadow"][off] = (st["shadow"][off] & ~(bm & rw)) | (data & bm & rw)

        self.channels.append(_Channel(self, f"{prefix} AR", g("arvalid"), g("arready"),
                                      {"addr": g("araddr")}, on_ar, dut_driven=False))
        self.channels.append(_Channel(self, f"{prefix} AW", g("awvalid"), g("awready"),
                                      {"addr": g("awaddr")}, on_aw, dut_driven=False))
        self.channels.append(_Channel(self, f"{prefix} W", g("wvalid"), g("wready"),
                                      {"data": g("wdata"), "strb": g("wstrb")}, on_w,
                                      dut_driven=False))
        self.channels.append(_Channel(self, f"{prefix} R", g("rvalid"), g("rready"),
                                      {"data": g("rdata"), "resp": g("rresp")}, on_r))
        self.channels.append(_Channel(self, f"{prefix} B", g("bvalid"), g("bready"),
                                      {"resp": g("bresp")}, on_b))

    # -------------------------------------------------------------- AXI4-Stream master (DUT)
    def add_axis_master(self, dut, prefix):
        payload = {}
        for s in ("tdata", "tlast", "tid", "tdest", "tkeep", "tuser"):
            if hasattr(dut, f"{prefix}_{s}"):
                payload[s] = getattr(dut, f"{prefix}_{s}")
        ch = _Channel(self, prefix, getattr(dut, f"{prefix}_tvalid"),
                      getattr(dut, f"{prefix}_tready"), payload)
        self.channels.append(ch)
        return ch

    # -------------------------------------------------------------- running
    async def _run(self):
        while True:
            await FallingEdge(self.clock)
            if _s(self.reset_n) != "1":
                for ch in self.channels:
                    ch.pending = False
                continue
            self.cycles += 1
            for ch in self.channels:
                ch.sample()
            for w in self.watchdogs:
                w()

    def start(self):
        self.task = cocotb.start_soon(self._run())
        return self

    def stop(self):
        if self.task is not None:
            self.task.cancel()
            self.task = None

    def final(self):
        """End-of-test checks (call with the DUT idle)."""
        for f in self.finals:
            f()

    def summary(self):
        """'<channel> beats/stall cycles' of every channel, for the log."""
        return ", ".join(f"{c.name} {c.beats}/{c.stalls}" for c in self.channels if c.beats)
