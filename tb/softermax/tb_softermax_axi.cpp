// tb_softermax_axi.cpp -- softermax_axi run from C through its driver (sw/softermax/smx_driver.h)
// over the simulated bus (tb/common/tb_axi.h: AXI4-Lite master BFM, AXI4 memory model with
// random backpressure and latency that checks the master's protocol), every output row checked
// against the golden model (softermax_ref). Build-time configuration: TB_Vec, TB_MaxLen,
// TB_RecipSegBits, TB_SumFrac (rtl/softermax/block.toml, [harness.softermax_axi]).
//
//   +workload=<file>   rows of score codes (sw/softermax/smx_scores), one a line: run as jobs of
//                      consecutive rows of equal length (make sim-softermax-axi)
//   (always)           +n random jobs (random length, rows, strides and addresses), the
//                      register map's error responses, every job error (length, alignment, AXI
//                      SLVERR/DECERR on reads and writes) followed by a good job, the counters,
//                      and a reset in the middle of a job followed by a good job.
// Last line: "N passed, N failed".
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "Vsoftermax_axi.h"
#include "softermax.h"
#include "softermax/smx_driver.h"
#include "softermax/softermax_regs.h"
#include "tb_axi.h"
#include "tb_lib.h"

namespace {

typedef Vsoftermax_axi Top;
const uint64_t kMemBytes = 8u << 20;
const uint64_t kTimeout = 4000000;

struct Env {
  TbArgs a;
  TbScore sc{"softermax_axi"};
  TbSim<Top> sim;
  TbCycle<Top> clk;
  TbAxilMaster<Top> axil;
  TbAxiMem<Top> mem;
  TbAccelBus<Top> tb;
  smx_cfg_t cfg;
  smx_dev_t dev;
  explicit Env(const TbArgs &args)
      : a(args), sim(args, 400000000ull), clk(sim), axil(clk, &sc, 8, args.gap_pct, args.stall_pct),
        mem(clk, &sc, kMemBytes, args.stall_pct, args.gap_pct), tb(clk, axil, &mem) {
    smx_cfg_default(&cfg, TB_Vec, TB_MaxLen);
    cfg.recip_seg_bits = TB_RecipSegBits;
    cfg.sum_frac = TB_SumFrac;
  }
  accel_bus *bus() { return &tb.bus; }
};

// A random score code (int8, Q(6,2)); a few large values make the max move.
int8_t rand_code() {
  if (tb_chance(5)) return static_cast<int8_t>(tb_rand_range(0, 255));
  return static_cast<int8_t>(static_cast<int>(tb_rand_range(0, 64)) - 32);
}

// Expected probabilities of one row from the model.
void model_row(Env &e, const int8_t *x, int n, uint8_t *y) {
  std::vector<int32_t> xi(n);
  for (int i = 0; i < n; i++) xi[i] = x[i];
  if (softermax_ref(&e.cfg, xi.data(), n, y, nullptr) != 0) std::memset(y, 0xEE, n);
}

uint32_t round_up(uint32_t v, uint32_t m) { return (v + m - 1) / m * m; }

// One job with explicit placement: writes the rows, fills the destination area with a pattern,
// runs, checks each row against the model, the padding (0) and the gaps (untouched). Returns the
// driver's result.
int run_job(Env &e, const std::vector<std::vector<int8_t>> &rows, uint32_t len, uint64_t src,
            uint64_t dst, uint32_t sstride, uint32_t dstride, uint64_t id, bool check = true) {
  const uint32_t vec = TB_Vec;
  const uint32_t nrows = static_cast<uint32_t>(rows.size());
  std::vector<uint8_t> pat(static_cast<size_t>(dstride) * nrows + vec);
  for (size_t i = 0; i < pat.size(); i++) pat[i] = static_cast<uint8_t>(0xA5 ^ (i * 7));
  e.mem.write(dst, pat.data(), pat.size());
  for (uint32_t r = 0; r < nrows; r++) {
    std::vector<uint8_t> buf(round_up(len, vec));
    for (size_t i = 0; i < buf.size(); i++) buf[i] = static_cast<uint8_t>(tb_rand());
    std::memcpy(buf.data(), rows[r].data(), len);
    e.mem.write(src + static_cast<uint64_t>(r) * sstride, buf.data(), buf.size());
  }
  smx_job_t j = {src, dst, nrows, len, sstride, dstride};
  int rc = smx_drv_run(&e.dev, &j, kTimeout);
  if (!check) return rc;
  e.sc.check("job result (0 = done, no error)", id, 0, static_cast<uint64_t>(rc));
  std::vector<uint8_t> y(len), got(dstride);
  for (uint32_t r = 0; r < nrows; r++) {
    model_row(e, rows[r].data(), static_cast<int>(len), y.data());
    e.mem.read(dst + static_cast<uint64_t>(r) * dstride, got.data(), dstride);
    int bad = -1;
    for (uint32_t i = 0; i < len && bad < 0; i++)
      if (got[i] != y[i]) bad = static_cast<int>(i);
    if (!e.sc.expect(bad < 0, "output row equals the model's", id * 1000 + r))
      std::printf("  job %" PRIu64 " row %u element %d: expected 0x%02x got 0x%02x (len %u)\n", id,
                  r, bad, y[bad], got[bad], len);
    uint32_t padded = round_up(len, vec);
    bool pad_ok = true, gap_ok = true;
    for (uint32_t i = len; i < padded; i++) pad_ok &= got[i] == 0;
    for (uint32_t i = padded; i < dstride; i++) gap_ok &= got[i] == pat[static_cast<size_t>(r) * dstride + i];
    e.sc.expect(pad_ok, "bytes of the last beat past LEN are written 0", id * 1000 + r);
    e.sc.expect(gap_ok, "bytes between output rows are untouched", id * 1000 + r);
  }
  return rc;
}

uint64_t alloc(Env &e, size_t bytes) {
  uint64_t a = e.tb.bus.mem_alloc(e.tb.bus.ctx, bytes, TB_Vec);
  if (!a) {  // wrap the arena: jobs are independent
    e.tb.alloc_reset(0x1000);
    a = e.tb.bus.mem_alloc(e.tb.bus.ctx, bytes, TB_Vec);
  }
  return a;
}

std::vector<std::vector<int8_t>> rand_rows(uint32_t n, uint32_t len) {
  std::vector<std::vector<int8_t>> rows(n, std::vector<int8_t>(len));
  for (auto &r : rows)
    for (auto &x : r) x = rand_code();
  return rows;
}

// A good job after an error: the block keeps working.
void good_job(Env &e, uint64_t id) {
  uint32_t len = tb_rand_range(1, TB_MaxLen), rows = tb_rand_range(1, 3);
  uint32_t st = round_up(len, TB_Vec);
  uint64_t src = alloc(e, st * rows), dst = alloc(e, st * rows + TB_Vec);
  run_job(e, rand_rows(rows, len), len, src, dst, st, st, id);
}

// Every register's reset value (rtl/softermax/softermax_regs.rdl; docs/axi_shell.md): the rw
// fields reset to 0, STATUS, ERR_CODE, INTR_STATUS, INTR_ENABLE and the counters are 0 before
// any job, irq_o is low. Run right after reset.
void test_reset_values(Env &e) {
  accel_bus *b = e.bus();
  const struct { uint32_t off; const char *name; } regs[] = {
      {SOFTERMAX__CTRL_OFFSET, "CTRL"}, {SOFTERMAX__STATUS_OFFSET, "STATUS"},
      {SOFTERMAX__ERR_CODE_OFFSET, "ERR_CODE"}, {SOFTERMAX__INTR_STATUS_OFFSET, "INTR_STATUS"},
      {SOFTERMAX__INTR_ENABLE_OFFSET, "INTR_ENABLE"}, {SOFTERMAX__INTR_TEST_OFFSET, "INTR_TEST"},
      {SOFTERMAX__CYC_BUSY_OFFSET, "CYC_BUSY"}, {SOFTERMAX__CYC_STALL_OFFSET, "CYC_STALL"},
      {SOFTERMAX__RD_BURSTS_OFFSET, "RD_BURSTS"}, {SOFTERMAX__WR_BURSTS_OFFSET, "WR_BURSTS"},
      {SOFTERMAX__SRC_ADDR_OFFSET, "SRC_ADDR"}, {SOFTERMAX__DST_ADDR_OFFSET, "DST_ADDR"},
      {SOFTERMAX__ROWS_OFFSET, "ROWS"}, {SOFTERMAX__LEN_OFFSET, "LEN"},
      {SOFTERMAX__SRC_STRIDE_OFFSET, "SRC_STRIDE"}, {SOFTERMAX__DST_STRIDE_OFFSET, "DST_STRIDE"}};
  for (auto &r : regs) {
    char what[64];
    std::snprintf(what, sizeof what, "%s after reset", r.name);
    e.sc.check(what, r.off, 0, accel_rd(b, r.off));
  }
  e.sc.expect(!e.tb.irq(), "irq low after reset", 0);
  e.sc.check("register reads after reset that were expected to succeed", 0, 0, b->errors);
  accel_err_clear(b);
}

void test_registers(Env &e) {
  uint32_t v = 0;
  accel_bus *b = e.bus();
  e.sc.check("ID.BLOCK", 0, SMX_DRV_BLOCK_ID, accel_rd(b, SOFTERMAX__ID_OFFSET) & 0xFFFF);
  e.sc.expect(b->read32(b->ctx, 0x7C, &v) != 0, "read of an unmapped address: SLVERR", 0x7C);
  e.sc.check("SLVERR read data", 0x7C, 0, v);
  e.sc.expect(b->write32(b->ctx, 0xF0, 1) != 0, "write of an unmapped address: SLVERR", 0xF0);
  uint32_t hw = accel_rd(b, SOFTERMAX__HWCFG_OFFSET);
  e.sc.expect(b->write32(b->ctx, SOFTERMAX__HWCFG_OFFSET, 0) != 0,
              "write of a read-only register: SLVERR", SOFTERMAX__HWCFG_OFFSET);
  e.sc.check("read-only register unchanged by the write", 0, hw, accel_rd(b, SOFTERMAX__HWCFG_OFFSET));
  e.sc.check("HWCFG.VEC", 0, TB_Vec, hw & 0xFF);
  e.sc.check("HWCFG.MAXLEN", 0, TB_MaxLen, hw >> 16);
  // byte strobes: write one byte of LEN
  accel_wr(b, SOFTERMAX__LEN_OFFSET, 0x1234);
  e.tb.axil.write32(SOFTERMAX__LEN_OFFSET, 0x0000AB00, 0x2);
  e.sc.check("byte strobe writes only its byte", 0, 0xAB34, accel_rd(b, SOFTERMAX__LEN_OFFSET));
  // every strobe pattern on every rw register: exactly the strobed bytes change (fields that do
  // not exist read 0)
  const TbRwReg rw[] = {
      {SOFTERMAX__SRC_ADDR_OFFSET, 0xFFFFFFFFu, "SRC_ADDR (strobed write)"},
      {SOFTERMAX__DST_ADDR_OFFSET, 0xFFFFFFFFu, "DST_ADDR (strobed write)"},
      {SOFTERMAX__ROWS_OFFSET, 0xFFFFFFFFu, "ROWS (strobed write)"},
      {SOFTERMAX__LEN_OFFSET, 0xFFFFu, "LEN (strobed write)"},
      {SOFTERMAX__SRC_STRIDE_OFFSET, 0xFFFFFFFFu, "SRC_STRIDE (strobed write)"},
      {SOFTERMAX__DST_STRIDE_OFFSET, 0xFFFFFFFFu, "DST_STRIDE (strobed write)"},
      {SOFTERMAX__INTR_ENABLE_OFFSET, 0x3u, "INTR_ENABLE (strobed write)"}};
  tb_axil_check_strobes(e.tb.axil, b, e.sc, rw, sizeof rw / sizeof rw[0]);
  // INTR_TEST and INTR_STATUS's write-1-to-clear need byte 0's strobe
  accel_wr(b, SOFTERMAX__INTR_ENABLE_OFFSET, 0);
  accel_wr(b, SOFTERMAX__INTR_STATUS_OFFSET, 3);
  e.tb.axil.write32(SOFTERMAX__INTR_TEST_OFFSET, 0xFFFFFFFFu, 0xE);
  e.sc.check("INTR_TEST without byte 0's strobe sets nothing", 0, 0, accel_rd(b, SOFTERMAX__INTR_STATUS_OFFSET));
  accel_wr(b, SOFTERMAX__INTR_TEST_OFFSET, 1);
  e.sc.check("INTR_TEST.DONE sets INTR_STATUS.DONE only", 0, 1, accel_rd(b, SOFTERMAX__INTR_STATUS_OFFSET));
  e.tb.axil.write32(SOFTERMAX__INTR_STATUS_OFFSET, 0xFFFFFFFFu, 0xE);
  e.sc.check("INTR_STATUS write 1 without byte 0's strobe: kept", 0, 1, accel_rd(b, SOFTERMAX__INTR_STATUS_OFFSET));
  accel_wr(b, SOFTERMAX__INTR_STATUS_OFFSET, 1);
  e.sc.check("INTR_STATUS.DONE cleared by writing 1", 0, 0, accel_rd(b, SOFTERMAX__INTR_STATUS_OFFSET));
  accel_wr(b, SOFTERMAX__LEN_OFFSET, 0x1234);
  accel_wr(b, SOFTERMAX__INTR_ENABLE_OFFSET, 0);
  accel_wr(b, SOFTERMAX__INTR_STATUS_OFFSET, 3);
  // INTR_TEST sets the status (and raises irq once enabled); CTRL/INTR_TEST read 0
  accel_wr(b, SOFTERMAX__INTR_TEST_OFFSET, 2);
  e.sc.check("INTR_TEST sets INTR_STATUS", 0, 2, accel_rd(b, SOFTERMAX__INTR_STATUS_OFFSET));
  e.sc.check("INTR_TEST reads 0", 0, 0, accel_rd(b, SOFTERMAX__INTR_TEST_OFFSET));
  e.sc.check("CTRL reads 0", 0, 0, accel_rd(b, SOFTERMAX__CTRL_OFFSET));
  e.sc.expect(!e.tb.irq(), "irq low while the cause is disabled", 0);
  accel_wr(b, SOFTERMAX__INTR_ENABLE_OFFSET, 2);
  e.tb.bus.idle(e.tb.bus.ctx, 3);
  e.sc.expect(e.tb.irq(), "irq high with the cause enabled", 0);
  accel_wr(b, SOFTERMAX__INTR_STATUS_OFFSET, 2);
  e.tb.bus.idle(e.tb.bus.ctx, 3);
  e.sc.expect(!e.tb.irq(), "write 1 clears the cause and irq falls", 0);
  // the decode (tb_axi.h): every register OKAY, every hole SLVERR with data 0; the refused
  // all-ones writes change no rw register
  const uint32_t regs[] = SOFTERMAX__ALL_OFFSETS;
  tb_axil_check_decode(e.tb.axil, e.sc, regs, sizeof regs / sizeof regs[0], SOFTERMAX__MAP_W, rw,
                       sizeof rw / sizeof rw[0]);
  e.sc.check("INTR_STATUS unchanged by the refused writes", 1, 0, accel_rd(b, SOFTERMAX__INTR_STATUS_OFFSET));
  e.sc.check("register accesses that were expected to succeed", 0, 0, b->errors);
  accel_err_clear(b);
}

void test_errors(Env &e, uint64_t &id) {
  accel_bus *b = e.bus();
  uint32_t st = round_up(TB_MaxLen, TB_Vec);
  uint64_t src = alloc(e, st * 2), dst = alloc(e, st * 2 + TB_Vec);
  auto rows = rand_rows(2, 8 < TB_MaxLen ? 8 : TB_MaxLen);
  uint32_t l = static_cast<uint32_t>(rows[0].size());
  struct Case {
    const char *what;
    uint32_t len;
    uint64_t src, dst;
    uint32_t ss;
    int code;
  } cases[] = {
      {"LEN 0", 0, src, dst, st, SMX_ERR_LEN},
      {"LEN above MaxLen", TB_MaxLen + 1, src, dst, st, SMX_ERR_LEN},
      {"misaligned source", l, src + 1, dst, st, SMX_ERR_ALIGN},
      {"misaligned stride", l, src, dst, st + 1, SMX_ERR_ALIGN},
  };
  for (const Case &c : cases) {
    smx_job_t j = {c.src, c.dst, 2, c.len, c.ss, st};
    int rc = smx_drv_run(&e.dev, &j, kTimeout);
    e.sc.check(c.what, id, c.code, static_cast<uint64_t>(rc));
    e.sc.check("STATUS after a refused job: DONE|ERROR, not BUSY", id, 6, accel_rd(b, SOFTERMAX__STATUS_OFFSET));
    good_job(e, ++id);
  }
  // AXI errors: SLVERR on a read, DECERR beyond the memory, SLVERR on a write
  e.mem.slverr.push_back({src, src + st});
  int rc = run_job(e, rows, l, src, dst, st, st, ++id, false);
  e.sc.check("SLVERR on a row read: ERR_CODE 0xF1, RESP 2", id, 0x2F1, static_cast<uint64_t>(rc));
  e.mem.slverr.clear();
  good_job(e, ++id);
  smx_job_t j = {kMemBytes * 4, dst, 1, l, st, st};  // beyond the memory: DECERR
  rc = smx_drv_run(&e.dev, &j, kTimeout);
  e.sc.check("DECERR on a read beyond memory: ERR_CODE 0xF1, RESP 3", id, 0x3F1, static_cast<uint64_t>(rc));
  good_job(e, ++id);
  e.mem.slverr.push_back({dst + st, dst + 2 * st});
  rc = run_job(e, rows, l, src, dst, st, st, ++id, false);
  e.sc.check("SLVERR on a row write: ERR_CODE 0xF2, RESP 2", id, 0x2F2, static_cast<uint64_t>(rc));
  e.mem.slverr.clear();
  good_job(e, ++id);
  e.sc.check("register accesses that were expected to succeed", 1, 0, b->errors);
  accel_err_clear(b);
}

void test_counters(Env &e, uint64_t id) {
  accel_bus *b = e.bus();
  accel_counters_clear(b);
  uint32_t len = TB_MaxLen, rows = 3, st = round_up(len, TB_Vec) + 4 * TB_Vec;
  // place the source so that rows cross 4 KB boundaries
  uint64_t src = (alloc(e, st * rows + 8192) | 4095) + 1 - 2 * TB_Vec, dst = alloc(e, st * rows + TB_Vec);
  run_job(e, rand_rows(rows, len), len, src, dst, st, st, id);
  accel_counters_t c;
  accel_counters_read(b, &c);
  uint32_t beats = round_up(len, TB_Vec) / TB_Vec, rb = 0, wb = 0;
  for (uint32_t r = 0; r < rows; r++) {
    rb += tb_axi_bursts(src + static_cast<uint64_t>(r) * st, beats, TB_Vec, TB_MaxBurst);
    wb += tb_axi_bursts(dst + static_cast<uint64_t>(r) * st, beats, TB_Vec, TB_MaxBurst);
  }
  e.sc.check("RD_BURSTS = bursts of the rows (4 KB / 256-beat splits)", id, rb, c.rd_bursts);
  e.sc.check("WR_BURSTS = bursts of the rows", id, wb, c.wr_bursts);
  e.sc.expect(c.cyc_busy >= rows * beats, "CYC_BUSY at least one cycle per beat", c.cyc_busy);
  e.sc.expect(c.cyc_stall < c.cyc_busy, "CYC_STALL below CYC_BUSY", c.cyc_stall);
  std::printf("counters: busy=%u stall=%u rd_bursts=%u wr_bursts=%u\n", c.cyc_busy, c.cyc_stall,
              c.rd_bursts, c.wr_bursts);
}

void test_reset_mid_job(Env &e, uint64_t &id) {
  accel_bus *b = e.bus();
  uint32_t len = TB_MaxLen, rows = 8, st = round_up(len, TB_Vec);
  uint64_t src = alloc(e, st * rows), dst = alloc(e, st * rows + TB_Vec);
  auto rr = rand_rows(rows, len);
  for (uint32_t r = 0; r < rows; r++) e.mem.write(src + r * st, rr[r].data(), len);
  accel_wr(b, SOFTERMAX__SRC_ADDR_OFFSET, static_cast<uint32_t>(src));
  accel_wr(b, SOFTERMAX__DST_ADDR_OFFSET, static_cast<uint32_t>(dst));
  accel_wr(b, SOFTERMAX__ROWS_OFFSET, rows);
  accel_wr(b, SOFTERMAX__LEN_OFFSET, len);
  accel_wr(b, SOFTERMAX__SRC_STRIDE_OFFSET, st);
  accel_wr(b, SOFTERMAX__DST_STRIDE_OFFSET, st);
  accel_job_start(b);
  b->idle(b->ctx, tb_rand_range(5, 60));
  e.sc.expect((accel_rd(b, SOFTERMAX__STATUS_OFFSET) & 1) != 0, "BUSY during the job", id);
  e.clk.reset();
  e.sc.check("STATUS after reset", id, 0, accel_rd(b, SOFTERMAX__STATUS_OFFSET));
  e.sc.check("LEN after reset (reset value)", id, 0, accel_rd(b, SOFTERMAX__LEN_OFFSET));
  good_job(e, ++id);
  accel_err_clear(b);
}

bool read_rows(const char *path, std::vector<std::vector<int8_t>> *rows) {
  FILE *f = std::fopen(path, "r");
  if (!f) return false;
  char line[1 << 16];
  bool ok = true;
  while (ok && std::fgets(line, sizeof line, f)) {
    std::vector<int8_t> r;
    char *p = line, *end;
    for (;;) {
      long v = std::strtol(p, &end, 10);
      if (end == p) break;
      if (v < -128 || v > 127) ok = false;
      r.push_back(static_cast<int8_t>(v));
      p = end;
    }
    if (!r.empty()) rows->push_back(r);
  }
  std::fclose(f);
  return ok && !rows->empty();
}

}  // namespace

int main(int argc, char **argv) {
  TbArgs a;
  tb_init(argc, argv, "softermax_axi", 200, &a, {{"workload", "=<file>: rows of a score file (smx_scores)"}});
  Env e(a);
  e.clk.reset();
  e.sc.check("driver open (ID, HWCFG)", 0, 0, static_cast<uint64_t>(smx_drv_open(&e.dev, e.bus())));
  uint64_t id = 0;
  test_reset_values(e);

  const char *wl = tb_plusarg("workload");
  if (wl) {
    std::vector<std::vector<int8_t>> rows;
    if (!e.sc.expect(read_rows(wl, &rows), "workload file readable, codes in -128..127", 0))
      return e.sc.finish();
    uint64_t c0 = e.clk.now();
    size_t i = 0, jobs = 0;
    while (i < rows.size()) {
      size_t k = i;
      while (k < rows.size() && rows[k].size() == rows[i].size()) k++;
      std::vector<std::vector<int8_t>> part(rows.begin() + i, rows.begin() + k);
      uint32_t len = static_cast<uint32_t>(rows[i].size());
      if (!e.sc.expect(len <= TB_MaxLen, "workload row fits MaxLen", i)) break;
      // one job through the driver's host-to-host call, then the same rows checked
      std::vector<int8_t> flat;
      for (auto &r : part) flat.insert(flat.end(), r.begin(), r.end());
      std::vector<uint8_t> out(flat.size()), y(len);
      e.tb.alloc_reset(0x1000);
      int rc = smx_drv_softmax(&e.dev, flat.data(), out.data(), static_cast<uint32_t>(part.size()), len, kTimeout);
      e.sc.check("workload job result", jobs, 0, static_cast<uint64_t>(rc));
      for (size_t r = 0; r < part.size(); r++) {
        model_row(e, part[r].data(), static_cast<int>(len), y.data());
        e.sc.expect(std::memcmp(out.data() + r * len, y.data(), len) == 0,
                    "workload row equals the model's", i + r);
      }
      jobs++;
      i = k;
    }
    uint64_t cyc = e.clk.now() - c0;
    std::printf("axi workload: %zu rows in %zu jobs, %" PRIu64 " cycles (%.1f cycles/row, register "
                "accesses and copies included)\n", rows.size(), jobs, cyc,
                static_cast<double>(cyc) / rows.size());
  }

  test_registers(e);
  test_errors(e, id);
  test_counters(e, ++id);
  test_reset_mid_job(e, id);
  // random jobs: +n rows in all
  long done_rows = 0;
  while (done_rows < a.n) {
    uint32_t len = tb_rand_range(1, TB_MaxLen), rows = tb_rand_range(1, 6);
    uint32_t ss = round_up(len, TB_Vec) + TB_Vec * tb_rand_range(0, 3);
    uint32_t ds = round_up(len, TB_Vec) + TB_Vec * tb_rand_range(0, 3);
    uint64_t src = alloc(e, static_cast<size_t>(ss) * rows + 4096);
    uint64_t dst = alloc(e, static_cast<size_t>(ds) * rows + 4096 + TB_Vec);
    // sometimes start just before a 4 KB boundary
    if (tb_chance(30)) src = ((src | 4095) + 1) - TB_Vec * tb_rand_range(1, 4);
    if (tb_chance(30)) dst = ((dst | 4095) + 1) - TB_Vec * tb_rand_range(1, 4);
    run_job(e, rand_rows(rows, len), len, src, dst, ss, ds, ++id);
    done_rows += rows;
  }
  e.sc.check("AXI protocol violations seen by the memory model", 0, 0, static_cast<uint64_t>(e.mem.violations));
  e.sc.check("AXI4-Lite violations seen by the master", 0, 0, static_cast<uint64_t>(e.axil.violations));
  std::printf("axi: %ld random rows, %" PRIu64 " jobs, %" PRIu64 " cycles; memory: %ld read bursts, %ld write bursts\n",
              done_rows, id, e.clk.now(), e.mem.rd_bursts, e.mem.wr_bursts);
  return e.sc.finish();
}
