"""Shared cocotb bench for the <blk>_axi wrappers: clock, reset, the AXI4-Lite master with
random pauses, the protocol checker, and the common-register tests every shell must pass
(docs/axi_verification.md)."""
import os
import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, RisingEdge, with_timeout
from cocotbext.axi import AxiLiteBus, AxiLiteMaster

from axi_checker import AxiChecker, load_regmap, OKAY, SLVERR

SEED = int(os.environ.get("TB_SEED", "1"))
FAULT = int(os.environ.get("FAULT", "0"))
# --quick (TB_QUICK=1): the sizes below; the full run multiplies the random parts by SCALE
SCALE = 1 if os.environ.get("TB_QUICK", "1") == "1" else 3

# common register offsets (docs/axi_shell.md)
ID, CTRL, STATUS, ERR_CODE = 0x00, 0x04, 0x08, 0x0C
INTR_STATUS, INTR_ENABLE, INTR_TEST = 0x10, 0x14, 0x18
CYC_BUSY, CYC_STALL, RD_BURSTS, WR_BURSTS = 0x20, 0x24, 0x28, 0x2C


def pauses(rng, p):
    """An endless pause generator: True (pause) with probability p, in short runs."""
    while True:
        if rng.random() < p:
            for _ in range(rng.randint(1, 4)):
                yield True
        else:
            yield False


def set_pauses(channels, rng, p):
    for ch in channels:
        ch.set_pause_generator(pauses(random.Random(rng.getrandbits(32)), p))


def add_error_window(ram, base):
    """Accesses at or above `base` fail (AxiRam then answers SLVERR)."""
    rd, wr = ram.read_if._read, ram.write_if._write

    async def err_read(address, length):
        if address >= base:
            raise ValueError("error window")
        return await rd(address, length)

    async def err_write(address, data):
        if address >= base:
            raise ValueError("error window")
        return await wr(address, data)
    ram.read_if._read, ram.write_if._write = err_read, err_write
    ram.read_if.log.setLevel("ERROR")               # no "operation failed" warnings
    ram.write_if.log.setLevel("ERROR")


class Tb:
    def __init__(self, dut, blk, name):
        self.dut, self.blk = dut, blk
        self.rng = random.Random(f"{SEED}:{blk}:{name}")
        random.seed(f"{SEED}:{blk}:{name}")
        self.regmap = load_regmap(blk)
        self.log = dut._log
        log_path = os.environ.get("AXI_CHECK_LOG")
        self.chk = AxiChecker(dut.clk, dut.rst_n, log_path=log_path, log=self.log)

    async def start(self, pause=0.3):
        dut = self.dut
        cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
        dut.rst_n.value = 0
        self.axil = AxiLiteMaster(AxiLiteBus.from_prefix(dut, "s_axil"), dut.clk, dut.rst_n,
                                  reset_active_level=False)
        self.axil.write_if.log.setLevel("WARNING")
        self.axil.read_if.log.setLevel("WARNING")
        wi, ri = self.axil.write_if, self.axil.read_if
        set_pauses([wi.aw_channel, wi.w_channel, wi.b_channel, ri.ar_channel, ri.r_channel],
                   self.rng, pause)
        self.chk.add_axil_slave(dut, "s_axil", self.regmap)

    async def reset(self):
        dut = self.dut
        dut.rst_n.value = 0
        await ClockCycles(dut.clk, 5)
        dut.rst_n.value = 1
        await ClockCycles(dut.clk, 2)
        self.chk.start()

    # -------------------------------------------------------------- register access
    async def read(self, addr):
        r = await self.axil.read(addr, 4)
        return int.from_bytes(bytes(r), "little"), int(r.resp)

    async def write(self, addr, value, nbytes=4):
        r = await self.axil.write(addr, int(value).to_bytes(4, "little")[:nbytes])
        return int(r.resp)

    async def rd(self, addr):
        v, resp = await self.read(addr)
        assert resp == OKAY, f"read of 0x{addr:02x} answered {resp}"
        return v

    async def wr(self, addr, value):
        resp = await self.write(addr, value)
        assert resp == OKAY, f"write of 0x{addr:02x} answered {resp}"

    async def wait_irq(self, timeout_cycles):
        dut = self.dut
        for _ in range(timeout_cycles):
            await RisingEdge(dut.clk)
            if str(dut.irq.value) == "1":
                return
        raise AssertionError(f"irq_o not raised within {timeout_cycles} cycles")

    def finish(self):
        self.log.info("checker: %d cycles; handshakes/stall cycles: %s", self.chk.cycles,
                      self.chk.summary())
        self.chk.final()
        self.chk.stop()
        self.chk.assert_clean()


# ------------------------------------------------------------------ common register tests
async def common_register_tests(tb):
    """ID; every register readable with OKAY; unmapped -> SLVERR (read and write); read-only
    -> SLVERR and unchanged; CTRL / INTR_TEST read 0; INTR_TEST -> irq through INTR_ENABLE;
    W1C; rw registers with byte strobes (the checker compares every read with its shadow)."""
    rm = tb.regmap
    dut = tb.dut
    idreg = rm[ID]
    v = await tb.rd(ID)
    assert v == idreg.reset_value("const"), f"ID reads 0x{v:08x}"
    tb.log.info("ID = 0x%08x", v)
    # every mapped register answers OKAY
    before = {}
    for off in sorted(rm):
        before[off] = await tb.rd(off)
    # unmapped addresses: every word address of the 8-bit space that is not a register
    for off in range(0, 0x100, 4):
        if off in rm:
            continue
        v, resp = await tb.read(off)
        assert resp == SLVERR and v == 0, f"read of unmapped 0x{off:02x}: resp {resp}, 0x{v:x}"
        resp = await tb.write(off, 0xFFFFFFFF)
        assert resp == SLVERR, f"write to unmapped 0x{off:02x}: resp {resp}"
    # read-only registers: SLVERR, no effect (idle: their values hold)
    for off, reg in sorted(rm.items()):
        if reg.writable:
            continue
        resp = await tb.write(off, 0xFFFFFFFF)
        assert resp == SLVERR, f"write to read-only {reg.name}: resp {resp}"
        resp = await tb.write(off, 0)
        assert resp == SLVERR, f"write to read-only {reg.name}: resp {resp}"
        v = await tb.rd(off)
        assert v == before[off], f"read-only {reg.name} changed: 0x{before[off]:x} -> 0x{v:x}"
    # write-only registers read 0 after writes (CTRL.CLEAR only: no job starts)
    await tb.wr(CTRL, 0x2)
    assert await tb.rd(CTRL) == 0, "CTRL does not read 0"
    await tb.wr(INTR_ENABLE, 0)
    await tb.wr(INTR_TEST, 0x3)
    assert await tb.rd(INTR_TEST) == 0, "INTR_TEST does not read 0"
    # interrupt path: INTR_TEST sets INTR_STATUS; irq only through INTR_ENABLE; W1C
    assert (await tb.rd(INTR_STATUS)) & 3 == 3, "INTR_TEST did not set INTR_STATUS"
    await ClockCycles(dut.clk, 3)
    assert str(dut.irq.value) == "0", "irq high with INTR_ENABLE = 0"
    await tb.wr(INTR_STATUS, 0x3)                    # W1C both
    assert (await tb.rd(INTR_STATUS)) & 3 == 0, "W1C did not clear INTR_STATUS"
    for bit in (0, 1):
        await tb.wr(INTR_ENABLE, 1 << bit)
        await ClockCycles(dut.clk, 3)
        assert str(dut.irq.value) == "0", "irq high with INTR_STATUS = 0"
        await tb.wr(INTR_TEST, 1 << bit)
        await ClockCycles(dut.clk, 2)
        assert str(dut.irq.value) == "1", f"INTR_TEST bit {bit} did not raise irq"
        await tb.wr(INTR_STATUS, 0)                  # writing 0 clears nothing
        assert (await tb.rd(INTR_STATUS)) & 3 == 1 << bit, "W1C of 0 changed INTR_STATUS"
        await tb.wr(INTR_STATUS, 1 << bit)
        await ClockCycles(dut.clk, 2)
        assert str(dut.irq.value) == "0", f"irq still high after W1C of bit {bit}"
        assert (await tb.rd(INTR_STATUS)) & 3 == 0, "W1C did not clear INTR_STATUS"
    await tb.wr(INTR_ENABLE, 0)
    # rw registers: random values with random byte strobes; the checker's shadow compares
    rw_regs = [r for r in rm.values() if r.mask("rw") and not r.mask("w1c")]
    for _ in range(2 * SCALE):
        for reg in rw_regs:
            val = tb.rng.getrandbits(32)
            lane = tb.rng.choice([None, 0, 1, 2, 3])
            if lane is None:
                assert await tb.write(reg.offset, val) == OKAY
            else:   # one byte lane: wstrb = 1 << lane
                r = await tb.axil.write(reg.offset + lane, bytes([val & 0xFF]))
                assert int(r.resp) == OKAY
            await tb.rd(reg.offset)
    # a final read of everything (const fields and shadows checked by the checker)
    for off in sorted(rm):
        await tb.rd(off)
    await concurrent_register_traffic(tb)


async def concurrent_register_traffic(tb, n=None):
    """Reads and writes in flight at the same time (the slave alternates them): writes of rw
    registers, reads of random mapped and unmapped addresses; the responses are checked here
    (SLVERR exactly for unmapped) and by the checker (shadows, stability under BREADY/RREADY
    pauses)."""
    rm = tb.regmap
    n = n or 12 * SCALE
    rw_regs = [r.offset for r in rm.values() if r.mask("rw") and not r.mask("w1c")]
    rng = tb.rng

    async def writer():
        for _ in range(n):
            off = rng.choice(rw_regs)
            assert await tb.write(off, rng.getrandbits(32)) == OKAY

    async def reader():
        for _ in range(n):
            off = rng.randrange(0, 0x100, 4)
            v, resp = await tb.read(off)
            assert resp == (OKAY if off in rm else SLVERR), f"read 0x{off:02x}: resp {resp}"

    tasks = [cocotb.start_soon(writer()), cocotb.start_soon(reader()),
             cocotb.start_soon(reader())]
    for t in tasks:
        await t


async def soft(coro, tb):
    """Awaits coro; under a fault its own assertions may fail (logged, the checker judges);
    with FAULT = 0 they count."""
    try:
        await coro
    except AssertionError as e:
        if FAULT == 0:
            raise
        tb.log.warning("under FAULT=%d: %s", FAULT, e)


async def run_fault_scenario(tb, scenario, timeout_us=400):
    """test_fault_injection's body: the scenario with FAULT broken in. FAULT = 0: the scenario
    must complete and the checker stay silent; else the checker must report FAULT_EXPECT."""
    expect = os.environ.get("FAULT_EXPECT", "")
    try:
        await with_timeout(scenario(), timeout_us, "us")
        err = None
    except Exception as e:  # noqa: BLE001  (a fault may break the scenario itself)
        err = e
        tb.log.warning("scenario ended under FAULT=%d: %r", FAULT, e)
    tb.log.info("checker: %d cycles; handshakes/stall cycles: %s", tb.chk.cycles,
                tb.chk.summary())
    tb.chk.final()
    tb.chk.stop()
    if FAULT == 0:
        if err is not None:
            raise err
        tb.chk.assert_clean()
        return
    assert tb.chk.found(expect), f"FAULT={FAULT}: checker did not report '{expect}'; " \
        f"it reported {tb.chk.errors[:3]}"
    tb.log.info("FAULT=%d detected: %s", FAULT, next(e for e in tb.chk.errors if expect in e))

