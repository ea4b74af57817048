"""cocotb tests of softermax_axi (wrapper: Vec 4, MaxLen 64, MaxBurst 8, 2 bursts in flight per
direction): registers, jobs through AxiRam with random pauses on all five channels, and the
fault-injection scenario. Output rows are checked structurally only (bytes in [0, 129], sum
about 128 = 1.0 in Q(1,7), largest output at the largest input, padding 0, rows at their
strides, every other byte untouched); the bit-exact check against the C model is the Verilator
harness's (tests/softermax.list)."""

import cocotb
from cocotb.triggers import ClockCycles
from cocotbext.axi import AxiBus, AxiRam

from tb_common import (Tb, common_register_tests, run_fault_scenario, soft, set_pauses, SCALE,
                       add_error_window,
                       CTRL, STATUS, ERR_CODE, INTR_STATUS, INTR_ENABLE, RD_BURSTS, WR_BURSTS)

SRC_ADDR, DST_ADDR, ROWS, LEN, SRC_STRIDE, DST_STRIDE, HWCFG = (0x40, 0x44, 0x48, 0x4C, 0x50,
                                                                 0x54, 0x58)
VEC, MAXLEN = 4, 64
RAM_SIZE = 0x4000
ERR_BASE = 0x8000    # addresses from here answer SLVERR (AxiRam itself wraps at its size)
FILL = 0xA5
SUM_TOL = 6          # |sum of a row's Q(1,7) outputs - 128| allowed (rounding of LEN terms)
# Largest legal output byte: 1.0 = 128, plus one LSB: the unit's approximations (pow2, the
# piecewise-linear reciprocal) give 129 for some rows; the C model does the same (softermax_ref
# of the single element x = 2 (mod 4) returns 129), so this is the algorithm, not the shell.
Y_MAX = 129


async def setup(dut, name, pause=0.3, ram_pause=0.3):
    tb = Tb(dut, "softermax", name)
    await tb.start(pause)
    tb.ram = AxiRam(AxiBus.from_prefix(dut, "m_axi"), dut.clk, dut.rst_n,
                    reset_active_level=False, size=RAM_SIZE)
    for s in ("read_if", "write_if"):
        getattr(tb.ram, s).log.setLevel("WARNING")
    add_error_window(tb.ram, ERR_BASE)
    ram_pauses(tb, ram_pause, ram_pause)
    tb.chk.add_axi_master(dut, "m_axi")
    await tb.reset()
    return tb


def ram_pauses(tb, rd, wr):
    """Random pauses of the memory: probability rd on AR and R, wr on AW, W and B."""
    wi, ri = tb.ram.write_if, tb.ram.read_if
    set_pauses([ri.ar_channel, ri.r_channel], tb.rng, rd)
    set_pauses([wi.aw_channel, wi.w_channel, wi.b_channel], tb.rng, wr)


async def run_job(tb, src, dst, rows, ln, ss, ds, timeout=30000, expect_err=0, restart=False):
    """Programs and runs one job; returns (STATUS, ERR_CODE). expect_err: the job must end
    with that ERR_CODE (a refused job moves no data; a bus error (0x2F1 / 0x2F2) does).
    restart: START again while the job runs (must be ignored)."""
    for off, v in ((SRC_ADDR, src), (DST_ADDR, dst), (ROWS, rows), (LEN, ln),
                   (SRC_STRIDE, ss), (DST_STRIDE, ds)):
        await tb.wr(off, v)
    await tb.wr(INTR_STATUS, 3)
    await tb.wr(INTR_ENABLE, 1)                    # DONE (an error mid-job must not end it)
    await tb.wr(CTRL, 2)                           # CLEAR: counters from 0
    ar0, aw0 = tb.chk.axi["ar"], tb.chk.axi["aw"]
    await tb.wr(CTRL, 1)                           # START
    if restart:
        st = await tb.rd(STATUS)
        assert st & 1, f"STATUS.BUSY not set while the job runs (0x{st:x})"
        await tb.wr(CTRL, 1)                       # ignored while BUSY
    await tb.wait_irq(timeout)
    st = await tb.rd(STATUS)
    ec = await tb.rd(ERR_CODE)
    ist = await tb.rd(INTR_STATUS)
    assert st & 1 == 0, f"STATUS.BUSY still set after the interrupt (0x{st:x})"
    assert st & 2, f"STATUS.DONE not set (0x{st:x})"
    if expect_err:
        assert st & 4 and ec == expect_err, f"expected error 0x{expect_err:x}: " \
            f"STATUS 0x{st:x} ERR_CODE 0x{ec:x}"
        assert ist & 2, "INTR_STATUS.ERROR not set"
        if expect_err < 0x100:
            assert tb.chk.axi["ar"] == ar0 and tb.chk.axi["aw"] == aw0, \
                "a refused job moved data"
    else:
        assert st & 4 == 0 and ec == 0, f"job error: STATUS 0x{st:x} ERR_CODE 0x{ec:x}"
        assert ist & 1, "INTR_STATUS.DONE not set"
        rb, wb = await tb.rd(RD_BURSTS), await tb.rd(WR_BURSTS)
        nar, naw = tb.chk.axi["ar"] - ar0, tb.chk.axi["aw"] - aw0
        assert rb == nar, f"RD_BURSTS {rb} != AR bursts seen {nar}"
        assert wb == naw, f"WR_BURSTS {wb} != AW bursts seen {naw}"
    await tb.wr(INTR_STATUS, 3)
    return st, ec


def span(ln):
    """Bytes a row occupies in memory: whole beats."""
    return (ln + VEC - 1) // VEC * VEC


async def job_and_check(tb, src, dst, rows, ln, ss, ds, kind="random", restart=False,
                        timeout=30000):
    rng = tb.rng
    mem = bytearray([FILL]) * RAM_SIZE
    scores = []
    for r in range(rows):
        if kind == "peaked":
            row = [rng.randint(-40, 0) for _ in range(ln)]
            row[rng.randrange(ln)] = 100
        else:
            row = [rng.randint(-128, 127) for _ in range(ln)]
        scores.append(row)
        mem[src + r * ss: src + r * ss + ln] = bytes(x & 0xFF for x in row)
    tb.ram.write(0, bytes(mem))
    await run_job(tb, src, dst, rows, ln, ss, ds, restart=restart, timeout=timeout)
    out = tb.ram.read(0, RAM_SIZE)
    expect = bytearray(mem)
    for r in range(rows):
        a = dst + r * ds
        row = list(out[a: a + ln])
        assert all(0 <= y <= Y_MAX for y in row), f"row {r}: byte outside [0, {Y_MAX}]: {row}"
        s = sum(row)
        assert abs(s - 128) <= SUM_TOL, f"row {r}: sum {s}, not 128 +- {SUM_TOL}: {row}"
        mx = max(scores[r])
        assert all(row[i] == max(row) for i in range(ln) if scores[r][i] == mx), \
            f"row {r}: largest output not at the largest score"
        pad = list(out[a + ln: a + span(ln)])
        assert all(p == 0 for p in pad), f"row {r}: padding bytes {pad} not 0"
        expect[a: a + span(ln)] = out[a: a + span(ln)]
        tb.log.info("row %d at 0x%04x: sum %d", r, a, s)
    diff = [i for i in range(RAM_SIZE) if out[i] != expect[i]]
    assert not diff, f"{len(diff)} bytes outside the output rows changed, first at 0x{diff[0]:04x}"


@cocotb.test()
async def test_regs(dut):
    """Common registers, HWCFG, SLVERR rules, interrupt path, rw registers."""
    tb = await setup(dut, "regs")
    await common_register_tests(tb)
    hw = await tb.rd(HWCFG)
    assert hw == VEC | VEC << 8 | MAXLEN << 16, f"HWCFG 0x{hw:08x}"
    tb.finish()


@cocotb.test()
async def test_jobs(dut):
    """Jobs through AxiRam: rows across 4 KB boundaries (split bursts), LEN with padding, the
    longest row (two bursts of MaxBurst), a one-element row, a slow write side (the DUT holds
    RREADY low), START while busy, ROWS = 0, refused jobs and bus errors."""
    tb = await setup(dut, "jobs")
    # rows of 18 (5 beats, 2 padding bytes); source and destination rows cross 0x1000 / 0x2000
    await job_and_check(tb, 0x0FF0, 0x1FF4, 4 * SCALE, 18, 28, 24)
    # MaxLen rows: 16 beats = 2 bursts of 8; START again while busy (ignored)
    await job_and_check(tb, 0x0400, 0x2800, 3, 64, 0x40, 0x50, kind="peaked", restart=True)
    # one element per row: probability 1.0
    await job_and_check(tb, 0x0600, 0x2A00, 2, 1, 4, 8)
    # fast reads, slow writes: the unit backs up into R (RREADY low with RVALID high)
    ram_pauses(tb, 0.0, 0.9)
    r0 = tb.chk.channels_by_name["m_axi R"].stalls
    await job_and_check(tb, 0x0800, 0x3000, 6 * SCALE, 64, 64, 64)
    assert tb.chk.channels_by_name["m_axi R"].stalls > r0, "no R backpressure exercised"
    ram_pauses(tb, 0.3, 0.3)
    # ROWS = 0: done at once, no traffic
    ar0 = tb.chk.axi["ar"]
    await run_job(tb, 0x0400, 0x2800, 0, 8, 8, 8)
    assert tb.chk.axi["ar"] == ar0, "ROWS = 0 read memory"
    # refused jobs: no bus traffic, STATUS.ERROR with the code
    await run_job(tb, 0x0400, 0x2800, 1, 0, 0x40, 0x40, expect_err=1)
    await run_job(tb, 0x0400, 0x2800, 1, MAXLEN + 1, 0x80, 0x80, expect_err=1)
    await run_job(tb, 0x0402, 0x2800, 1, 8, 0x40, 0x40, expect_err=2)
    await run_job(tb, 0x0400, 0x2800, 2, 8, 0x42, 0x40, expect_err=2)
    # bus errors: AxiRam answers SLVERR beyond its size; the job runs to its end
    await run_job(tb, ERR_BASE + 0x100, 0x2800, 2, 8, 8, 8, expect_err=0x2F1)
    await run_job(tb, 0x0400, ERR_BASE + 0x100, 2, 8, 8, 8, expect_err=0x2F2)
    # a good job after the errors
    await job_and_check(tb, 0x0100, 0x3000, 2, 8, 8, 8)
    await ClockCycles(dut.clk, 10)
    tb.finish()


@cocotb.test()
async def test_fault_injection(dut):
    """Runs jobs and register accesses with the wrapper's FAULT broken in; passes when the
    checker reported the expected violation (env FAULT_EXPECT); with FAULT = 0 the same
    scenario must pass with a silent checker."""
    tb = await setup(dut, "fault", pause=0.5, ram_pause=0.5)

    async def scenario():
        await soft(common_register_tests(tb), tb)
        await job_and_check(tb, 0x0FF0, 0x1FF4, 3, 18, 28, 24, timeout=5000)

    await run_fault_scenario(tb, scenario)
