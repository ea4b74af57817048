// tb_neummu_npu.cpp -- NPU performance model driving the NeuMMU RTL (docs/results/neummu.md,
// "Method").
//
// Runs an NPU DMA trace (sw/neummu/nmmu_trace.h, made by nmmu_trace) through the RTL MMU and
// through an oracle MMU, and reports the NPU's run time with each -- the paper's metric is
// oracle / MMU ("normalized performance", Figs. 8, 10, 11).
//
// NPU model (paper Table 1; one cycle = 1 ns at 1 GHz):
//   * DMA: issues at most one translation request per cycle, in trace order, tile by tile. It
//     holds a request until the MMU accepts it (req_ready_o low = the MMU stalls the DMA).
//     With +xlate_ahead=N (ours, not the paper's NPU) it translates up to N transactions ahead
//     of their data instead, across buffer gates and layer barriers, and issues each
//     transaction's data, in order and one per cycle, once its gate is open and its answer has
//     come (class Dma); the data then moves from the issue cycle.
//   * Data: after a transaction's translation response with status OK its data moves with
//     memory latency L (+memlat_data, default 100 cycles) and bandwidth B (+bw, default 600
//     bytes/cycle = 600 GB/s) through one fluid bandwidth cursor shared by reads and writes, in
//     response order:  start = max(resp_cycle, cursor);  cursor = start + bytes/B;
//     done = start + bytes/B + L.  A faulted transaction moves no data (done = resp_cycle).
//   * Double buffering: the DMA may start issuing tile n's transactions only once tile n-2's
//     compute has finished (two SPM buffers). Tile n's compute starts at max(every read
//     transaction of tile n done, tile n-1's compute done, the DMA having issued all of tile n)
//     and lasts the tile's compute_cycles. Write transactions (the write-back of the previous
//     tile's outputs) do not gate compute.
//   * Layers: a layer's first request may issue only once the previous layer has completed
//     (every compute ended, every transaction's data done): layer l+1 reads what layer l
//     wrote. A layer's cycles run from that point (its start) to its last completion (last
//     compute end or write done); total time = the last layer's end.
//   * Sampling: a trace's `layer <name> <scale>` line says the layer's sampled tiles stand for
//     scale times as many. Raw totals are the plain run; weighted totals are
//     sum over layers of (layer cycles x scale), for the MMU run and for the oracle alike.
//   * Oracle MMU: the same model with every translation answered (as a TLB hit, status from
//     the model) in the cycle it is issued, one request per cycle; computed in plain C++
//     without the RTL.
//   * RTL MMU: the page-table memory answers each read after +memlat cycles (paper: 100 per
//     level), at most one response per cycle (tb_nmmu_env.h); no backpressure on the response
//     port. Fast-forward: when the DMA has nothing to issue before some cycle T (it waits for
//     a buffer or for the layer barrier) and the MMU has been quiet for 8 cycles (no request
//     outstanding, no page-table read in flight), the time jumps to T without ticking the RTL
//     (an idle MMU does not change state).
//
// Checks (the result line counts them): every response's PA and status equal nmmu_translate()
// on the image for that request (matched by ID; an unknown or duplicate ID fails, and every
// request must be answered), the number of faulted responses equals the number the trace's
// layout predicts (a hole, an address outside every segment, a write to a read-only segment),
// page-table reads <= 4 x walks, the RTL's read counter equals the reads the memory accepted,
// hits + walks + merges = requests accepted, no timeout; the RTL's stall counters by cause add
// up to the cycles the DMA was stalled, and its request-cycle counters by place add up to the
// sum of every request's latency (response cycle - accept cycle).
//
// Plusargs:
//   +workload=<trace file>   the DMA trace (+trace stays the waveform option of tb_lib)
//   +image=<image file>      the page-table memory image (nmmu_ptgen)
//   +walkers=N +slots=M +tpreg=0|1   run-time configuration (0 walkers = all built)
//   +memlat=N                page-table read latency, cycles (default 100)
//   +memlat_data=N +bw=B     data memory latency (default 100) and bytes/cycle (default 600)
//   +max_xfers=N             stop the trace after N transactions (0 = all)
//   +layers=1                print one line per layer
//   +oracle_lat=N            the oracle answers each translation N cycles after it is issued
//                            (default 0: the paper's oracle); with N = TlbLatency + 1 it is an
//                            MMU whose every translation hits, at the RTL's hit latency
//   +oracle_only=1           run the oracle only (no RTL): prints "npu: oracle_only oracle=..."
//   +xlate_ahead=N           the DMA translates up to N transactions ahead of its data (ours,
//                            not the paper's NPU; class Dma): default 0, translate at issue
// Output: "npu: cycles=<weighted MMU> oracle=<weighted oracle> perf=<oracle/MMU> ..." and the
// result line "N passed, N failed".
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <queue>
#include <string>
#include <vector>

#include "neummu/nmmu_trace.h"
#include "tb_nmmu_env.h"


static const double kInf = 1e300;

static uint64_t ceil_cycle(double x) { return x <= 0 ? 0 : (uint64_t)std::ceil(x - 1e-9); }

// ------------------------------------------------------------------------------------------
// NPU timing model: tiles, double buffering, data transfers and layer barriers.
struct LayerRec {
  std::string name;
  double scale;
  double start, end;
  uint64_t xfers;
};

class NpuModel {
 public:
  double bw = 600.0;
  double lat = 100.0;
  std::vector<LayerRec> layers;

  struct Tile {
    double compute;
    uint64_t nreads = 0, reads_done = 0;
    double rd_t = 0;
    bool closed = false;
    double close_t = 0;
    bool ended = false;
    double end = 0;
  };

  bool layer_open() const { return open_; }
  void start_layer(const char *name, double scale, double t) {
    open_ = true;
    tiles_.clear();
    first_unended_ = 0;
    pending_ = 0;
    layer_last_ = t;
    layers.push_back(LayerRec{name, scale, t, t, 0});
  }
  void new_tile(double compute) {
    Tile tl;
    tl.compute = compute;
    tiles_.push_back(tl);
  }
  bool have_tile() const { return !tiles_.empty(); }
  void close_tile(double t) {
    if (tiles_.empty() || tiles_.back().closed) return;
    tiles_.back().closed = true;
    tiles_.back().close_t = t;
    advance();
  }
  // Earliest cycle the current (last) tile may issue; kInf while unknown.
  double gate() const {
    size_t n = tiles_.size() - 1;
    if (n < 2) return layers.back().start;
    const Tile &p = tiles_[n - 2];
    return p.ended ? p.end : kInf;
  }
  // A transaction of the current tile was issued; returns its tile index.
  size_t issue(bool wr) {
    pending_++;
    layers.back().xfers++;
    if (!wr) tiles_.back().nreads++;
    return tiles_.size() - 1;
  }
  void respond(size_t tile, uint32_t bytes, bool wr, bool ok, double t) {
    double done = t;
    if (ok) {
      double start = t > cursor_ ? t : cursor_;
      cursor_ = start + bytes / bw;
      done = cursor_ + lat;
    }
    pending_--;
    if (wr) {
      if (done > layer_last_) layer_last_ = done;
    } else {
      Tile &tl = tiles_[tile];
      tl.reads_done++;
      if (done > tl.rd_t) tl.rd_t = done;
      advance();
    }
  }
  // The layer is complete once the DMA is past it (caller), nothing is pending and every
  // tile has computed; returns its end time, or kInf.
  double layer_end() const {
    if (pending_ || first_unended_ < tiles_.size()) return kInf;
    return layer_last_;
  }
  void end_layer() {
    layers.back().end = layer_last_;
    open_ = false;
  }
  uint64_t pending() const { return pending_; }

 private:
  bool open_ = false;
  std::deque<Tile> tiles_;
  size_t first_unended_ = 0;
  uint64_t pending_ = 0;
  double cursor_ = 0;
  double layer_last_ = 0;

  void advance() {
    while (first_unended_ < tiles_.size()) {
      Tile &tl = tiles_[first_unended_];
      if (!tl.closed || tl.reads_done != tl.nreads) return;
      double s = tl.close_t;
      if (tl.rd_t > s) s = tl.rd_t;
      if (first_unended_ > 0 && tiles_[first_unended_ - 1].end > s)
        s = tiles_[first_unended_ - 1].end;
      if (layers.back().start > s) s = layers.back().start;
      tl.end = s + tl.compute;
      tl.ended = true;
      if (tl.end > layer_last_) layer_last_ = tl.end;
      first_unended_++;
    }
  }
};

// ------------------------------------------------------------------------------------------
// DMA: walks the trace and decides, cycle by cycle, whether it offers a transaction.
//
// Two modes. With ahead = 0 (the paper's NPU) a transaction's translation request is its issue:
// the DMA offers it once its tile's buffer gate is open, and its data moves when the answer
// comes. With ahead = N > 0 (ours, docs/results/neummu.md "Translation run-ahead") the DMA
// translates ahead of its data: a translation side sends the trace's transactions in order, at
// most one per cycle and at most N beyond the last one whose data has issued, without waiting
// for buffer gates or layer barriers; the data side issues, in trace order and at most one per
// cycle, each transaction whose gate is open and whose answer has come (an answer of cycle c
// can issue its data in cycle c), and its data moves from that cycle. The events between are
// queued (ahead_); the data side's current event is the queue's front.
class Dma {
 public:
  enum { READY = 1, WAIT = 0, DONE = 2, ERR = -1 };
  NpuModel model;
  nmmu_trace_reader_t rd;
  nmmu_event_t ev;  // with READY: the transaction to issue (a copy of the queue's front)
  uint64_t max_xfers = 0;
  uint64_t ahead = 0;   // translation run-ahead window, transactions (0: translate at issue)
  uint64_t issued = 0;  // transactions issued (data side)
  uint64_t wait_until = 0;  // with WAIT: cycle at which the DMA can go on (UINT64_MAX: unknown)
  std::string err;

  // Sets the NPU model's data bandwidth and latency, the transaction cap and the run-ahead
  // window, then opens the trace (false with err set when it cannot be read).
  bool start(const char *path, double bw_, double lat_, uint64_t max_xfers_,
             uint64_t ahead_xfers = 0) {
    model.bw = bw_;
    model.lat = lat_;
    max_xfers = max_xfers_;
    ahead = ahead_xfers;
    return open(path);
  }
  bool open(const char *path) {
    if (nmmu_trace_open(&rd, path) != 0) {
      err = rd.err;
      return false;
    }
    opened_ = true;
    return true;
  }
  void close() {
    if (opened_) nmmu_trace_close(&rd);
    opened_ = false;
  }
  ~Dma() { close(); }

  // Data side: processes control events up to the next transaction; READY when ev (a
  // transaction) may be issued in cycle t -- its gate is open and, with ahead > 0, its
  // translation has been answered (otherwise WAIT with wait_until = UINT64_MAX).
  int poll(uint64_t t) {
    for (;;) {
      const nmmu_event_t &e = head();
      switch (e.kind) {
        case NMMU_EV_ERROR:
          err = rd.err;
          return ERR;
        case NMMU_EV_LAYER:
        case NMMU_EV_END:
          if (model.layer_open()) {
            model.close_tile((double)t);
            double le = model.layer_end();
            if (le >= kInf) {
              wait_until = UINT64_MAX;
              return WAIT;
            }
            if (t < ceil_cycle(le)) {
              wait_until = ceil_cycle(le);
              return WAIT;
            }
            model.end_layer();
          }
          if (e.kind == NMMU_EV_END) return DONE;
          if (!(e.scale > 0)) {
            err = "layer " + std::string(e.name) + " has a scale that is not > 0";
            return ERR;
          }
          model.start_layer(e.name, e.scale, (double)t);
          consume();
          break;
        case NMMU_EV_TILE:
          model.close_tile((double)t);
          model.new_tile((double)e.compute_cycles);
          consume();
          break;
        case NMMU_EV_XFER: {
          if (!model.have_tile()) {  // the reader rejects this; be safe
            err = "transaction before any tile";
            return ERR;
          }
          double g = model.gate();
          if (g >= kInf) {
            wait_until = UINT64_MAX;
            return WAIT;
          }
          if (t < ceil_cycle(g)) {
            wait_until = ceil_cycle(g);
            return WAIT;
          }
          if (ahead && (ans_.empty() || ans_.front() < 0)) {
            wait_until = UINT64_MAX;
            return WAIT;
          }
          ev = e;
          return READY;
        }
        default:
          err = "unexpected trace event";
          return ERR;
      }
    }
  }
  // ahead = 0: the MMU accepted the request of the transaction poll() returned READY for;
  // returns its tile index (its data moves when the answer comes: model.respond).
  size_t accept() {
    consume();
    issued++;
    return model.issue(ev.is_write != 0);
  }
  // ahead > 0: the transaction poll() returned READY for issues its data in cycle t, with the
  // answer it holds.
  void issue_data(uint64_t t) {
    const bool ok = ans_.front() > 0;
    ans_.pop_front();
    const size_t tile = accept();
    model.respond(tile, ev.bytes, ev.is_write != 0, ok, (double)t);
  }

  // Translation side (ahead > 0): the next transaction to translate, or null when the window
  // is full or the trace holds no further transaction.
  const nmmu_event_t *xlate_peek() {
    if (!ahead || ans_.size() >= ahead) return nullptr;
    for (;;) {
      if (xscan_ == q_.size() && !fill()) return nullptr;
      const nmmu_event_t &e = q_[xscan_];
      if (e.kind == NMMU_EV_XFER) return &e;
      if (e.kind == NMMU_EV_END || e.kind == NMMU_EV_ERROR) return nullptr;
      xscan_++;
    }
  }
  // The transaction xlate_peek() returned was sent; returns its sequence number (trace order
  // of transactions, from 0; also the order translations are sent in).
  uint64_t xlate_send() {
    xscan_++;
    ans_.push_back(-1);
    return xsent_++;
  }
  // The answer for transaction `seq` came (ok: status OK).
  void xlate_answer(uint64_t seq, bool ok) { ans_[seq - issued] = ok ? 1 : 0; }

 private:
  bool opened_ = false;
  bool ended_ = false;          // the queue holds the trace's END or an ERROR event
  uint64_t read_xfers_ = 0;     // transactions read from the trace (the max_xfers cap)
  std::deque<nmmu_event_t> q_;  // events read, not yet consumed by the data side
  size_t xscan_ = 0;            // index in q_ of the translation side's next event
  uint64_t xsent_ = 0;          // translations sent
  std::deque<int8_t> ans_;      // per transaction sent, not issued: -1 pending, 0 fault, 1 OK

  // Reads one event into the queue; false once the trace has ended.
  bool fill() {
    if (ended_) return false;
    nmmu_event_t e;
    if (max_xfers && read_xfers_ >= max_xfers) {
      e.kind = NMMU_EV_END;
    } else {
      e.kind = nmmu_trace_next(&rd, &e);
      if (e.kind == NMMU_EV_XFER) read_xfers_++;
    }
    if (e.kind == NMMU_EV_END || e.kind == NMMU_EV_ERROR) ended_ = true;
    q_.push_back(e);
    return true;
  }
  const nmmu_event_t &head() {
    if (q_.empty()) fill();
    return q_.front();
  }
  void consume() {
    q_.pop_front();
    if (xscan_) xscan_--;
  }
};

// Status the trace's layout gives a transaction (independent of the image).
static int layout_status(const nmmu_layout_t *l, uint64_t va, bool wr) {
  for (size_t i = 0; i < l->nholes; i++)
    if (va >= l->holes[i].va && va - l->holes[i].va < l->holes[i].bytes) return NMMU_ST_NOT_PRESENT;
  for (size_t i = 0; i < l->nsegs; i++) {
    const nmmu_seg_t &s = l->segs[i];
    const uint64_t pg = s.page_2m ? (2ull << 20) : 4096ull;
    const uint64_t len = (s.bytes + pg - 1) / pg * pg;
    if (va >= s.va && va - s.va < len) return (wr && s.read_only) ? NMMU_ST_PERM : NMMU_ST_OK;
  }
  return NMMU_ST_NOT_PRESENT;
}

// One-line error about a file: "npu: <path>: <reason>" (the reason may already name the path).
static void file_error(const char *path, const std::string &why) {
  if (why.compare(0, std::strlen(path), path) == 0)
    std::fprintf(stderr, "neummu_npu: %s\n", why.c_str());
  else
    std::fprintf(stderr, "neummu_npu: %s: %s\n", path, why.c_str());
}

static double layer_weighted(const std::vector<LayerRec> &ls) {
  double w = 0;
  for (const LayerRec &l : ls) w += (l.end - l.start) * l.scale;
  return w;
}

// Accumulates a 32-bit wrapping RTL counter.
struct Ctr {
  uint32_t last = 0;
  uint64_t total = 0;
  void sample(uint32_t v) {
    total += (uint32_t)(v - last);
    last = v;
  }
};

// The latency replay: the DMA never stalled (every request accepted in the cycle it is
// offered) with each translation answered lat[k] cycles after it was sent (k: send order; all
// 0 when lat is null). Returns the weighted cycles and sets *sent to the translations sent, or
// returns -1 (err set) when the trace cannot be read.
static double replay_run(const char *path, double bw, double data_lat, uint64_t max_xfers,
                         uint64_t ahead, const nmmu_mem_t *mem, const std::vector<uint32_t> *lat,
                         uint64_t *sent, std::string *err) {
  Dma rp;
  if (!rp.start(path, bw, data_lat, max_xfers, ahead)) {
    *err = rp.err;
    return -1;
  }
  struct Due {
    uint64_t t, seq;
    size_t tile;
    uint32_t bytes;
    bool wr, ok;
    bool operator<(const Due &o) const { return t != o.t ? t > o.t : seq > o.seq; }
  };
  std::priority_queue<Due> due;
  uint64_t tt = 0, seq = 0;
  auto lat_of = [&](uint64_t k) -> uint64_t {
    return (lat && k < lat->size()) ? (*lat)[k] : 0;
  };
  for (;;) {
    if (ahead) {
      // the order of the RTL run's cycle: the data side issues with the answers it has, the
      // translation side sends one request, this cycle's answers come, and (if it did not
      // issue yet) the data side may issue with them
      bool issued = false;
      int st = rp.poll(tt);
      if (st == Dma::ERR || st == Dma::DONE) break;
      if (st == Dma::READY) {
        rp.issue_data(tt);
        issued = true;
      }
      if (const nmmu_event_t *xe = rp.xlate_peek()) {
        const bool ok = nmmu_translate(mem, xe->va, xe->is_write).status == NMMU_ST_OK;
        const uint64_t k = rp.xlate_send();
        due.push(Due{tt + lat_of(k), k, 0, 0, false, ok});
        seq++;
      }
      while (!due.empty() && due.top().t <= tt) {
        rp.xlate_answer(due.top().seq, due.top().ok);
        due.pop();
      }
      if (!issued) {
        st = rp.poll(tt);
        if (st == Dma::ERR || st == Dma::DONE) break;
        if (st == Dma::READY) {
          rp.issue_data(tt);
          issued = true;
        }
      }
      uint64_t next = tt + 1;
      if (!issued && !rp.xlate_peek()) {
        next = rp.wait_until;
        if (!due.empty() && due.top().t < next) next = due.top().t;
        if (next == UINT64_MAX) break;  // cannot happen: every request is answered
      }
      tt = next > tt ? next : tt + 1;
      continue;
    }
    // as in the RTL run, a response of cycle c is seen by the DMA from cycle c + 1
    while (!due.empty() && due.top().t < tt) {
      const Due d = due.top();
      due.pop();
      rp.model.respond(d.tile, d.bytes, d.wr, d.ok, (double)d.t);
    }
    int st = rp.poll(tt);
    if (st == Dma::ERR || st == Dma::DONE) break;
    if (st == Dma::WAIT) {
      uint64_t next = rp.wait_until;
      if (!due.empty() && due.top().t + 1 < next) next = due.top().t + 1;
      if (next == UINT64_MAX) break;  // cannot happen: every request was answered
      tt = next > tt ? next : tt + 1;
      continue;
    }
    const nmmu_event_t x = rp.ev;
    const bool ok = nmmu_translate(mem, x.va, x.is_write).status == NMMU_ST_OK;
    const size_t tile = rp.accept();
    due.push(Due{tt + lat_of(seq), seq, tile, x.bytes, x.is_write != 0, ok});
    seq++;
    tt++;
  }
  if (!rp.err.empty()) {
    *err = rp.err;
    return -1;
  }
  *sent = seq;
  return layer_weighted(rp.model.layers);
}

int main(int argc, char **argv) {
  TbArgs a;
  tb_init(argc, argv, "neummu_npu", 0, &a,
          {{"workload", "=<file>: the trace (nmmu_trace)"},
           {"image", "=<file>: its page-table image (nmmu_ptgen)"},
           {"walkers", "=N: walkers enabled (0 all)"},
           {"slots", "=N: merge slots per walker"},
           {"tpreg", "=0|1: translation-path register"},
           {"memlat", "=N: page-table memory latency (cycles)"},
           {"memlat_data", "=N: data memory latency (cycles)"},
           {"bw", "=B: data memory bandwidth (bytes per cycle)"},
           {"max_xfers", "=N: stop after N transfers (0 all)"},
           {"layers", "[=0|1]: print the per-layer table"},
           {"oracle_lat", "=N: a fixed translation latency instead of the MMU (0 off)"},
           {"oracle_only", "[=0|1]: only the oracle run"},
           {"xlate_ahead", "=N: translations issued N transfers ahead (0 off)"}});
  TbScore score("neummu_npu");
  const char *trace_path = tb_plusarg("workload");
  const char *image_path = tb_plusarg("image");
  if (!trace_path || !*trace_path || !image_path || !*image_path)
    tb_fail("needs +workload=<trace file> and +image=<image file>");
  const unsigned walkers = static_cast<unsigned>(tb_plusarg_num("walkers", 0, TB_Walkers, TB_Walkers));
  const unsigned slots = static_cast<unsigned>(tb_plusarg_num("slots", 0, TB_Slots, TB_Slots));
  const unsigned tpreg = static_cast<unsigned>(tb_plusarg_num("tpreg", 0, 1, 1));
  const unsigned memlat = static_cast<unsigned>(tb_plusarg_num("memlat", 1, 1000000, 100));
  const unsigned long max_xfers = static_cast<unsigned long>(tb_plusarg_num("max_xfers", 0, 1ull << 40, 0));
  const double data_lat = static_cast<double>(tb_plusarg_num("memlat_data", 0, 1000000, 100));
  const double bw = static_cast<double>(tb_plusarg_num("bw", 1, 1000000, 600));
  const bool print_layers = tb_plusarg_flag("layers", false);
  const unsigned long oracle_lat = static_cast<unsigned long>(tb_plusarg_num("oracle_lat", 0, 1000000, 0));
  const bool oracle_only = tb_plusarg_flag("oracle_only", false);
  const unsigned long ahead = static_cast<unsigned long>(tb_plusarg_num("xlate_ahead", 0, 1ull << 20, 0));
  if (ahead && oracle_lat) tb_fail("+xlate_ahead and +oracle_lat exclude each other");

  char err[256] = {0};
  nmmu_mem_t *mem = nmmu_mem_load(image_path, err, sizeof err);
  if (!mem) {
    file_error(image_path, err);
    return 2;
  }
  std::printf("npu: config walkers=%u slots=%u tpreg=%u memlat=%u data_lat=%.0f bw=%.0f "
              "oracle_lat=%lu xlate_ahead=%lu built=%d/%d/IdW%d workload=%s image=%s\n",
              walkers ? walkers : TB_Walkers, slots, tpreg, memlat, data_lat, bw, oracle_lat, ahead,
              TB_Walkers, TB_Slots, TB_IdW, trace_path, image_path);
  const auto wall0 = std::chrono::steady_clock::now();

  // ---------------------------------------------------------------- oracle MMU
  Dma orc;
  if (!orc.start(trace_path, bw, data_lat, max_xfers)) {
    file_error(trace_path, orc.err);
    nmmu_mem_free(mem);
    return 2;
  }
  uint64_t t = 0;
  uint64_t exp_faults = 0, layout_mismatch = 0;
  for (;;) {
    int s = orc.poll(t);
    if (s == Dma::ERR) {
      file_error(trace_path, orc.err);
      nmmu_mem_free(mem);
      return 2;
    }
    if (s == Dma::DONE) break;
    if (s == Dma::WAIT) {
      if (orc.wait_until == UINT64_MAX) {  // cannot happen: every response is immediate
        std::fprintf(stderr, "npu: oracle stuck at cycle %" PRIu64 "\n", t);
        return 2;
      }
      t = orc.wait_until;
      continue;
    }
    const nmmu_event_t x = orc.ev;
    const nmmu_xlat_t r = nmmu_translate(mem, x.va, x.is_write);
    const int ls = layout_status(&orc.rd.layout, x.va, x.is_write != 0);
    if (ls != NMMU_ST_OK) exp_faults++;
    if ((ls == NMMU_ST_OK) != (r.status == NMMU_ST_OK)) layout_mismatch++;
    const size_t tile = orc.accept();
    orc.model.respond(tile, x.bytes, x.is_write != 0, r.status == NMMU_ST_OK,
                      (double)(t + oracle_lat));
    t++;
  }
  const double orc_raw = orc.model.layers.empty() ? 0 : orc.model.layers.back().end;
  // the run's time limit is derived from it (as a 64-bit cycle count): bound it first
  if (!(orc_raw < 1e13))
    tb_fail("%s: the oracle's run takes %.3g cycles, beyond this harness's limit of 10^13", trace_path, orc_raw);
  const double orc_w = layer_weighted(orc.model.layers);
  const uint64_t nxfers = orc.issued;
  orc.close();
  if (oracle_only) {
    std::printf("npu: oracle_only oracle=%.0f raw_oracle=%.0f xfers=%" PRIu64 " layers=%zu\n",
                orc_w, orc_raw, nxfers, orc.model.layers.size());
    score.expect(nxfers > 0, "the oracle issued the trace's transactions", nxfers);
    score.check("image statuses disagreeing with the layout", 0, 0, layout_mismatch);
    const int rc = score.finish();
    nmmu_mem_free(mem);
    return rc;
  }

  // ---------------------------------------------------------------- RTL MMU
  const uint64_t timeout = a.timeout ? a.timeout : 2000ull * (uint64_t)orc_raw + 10000000ull;
  MmuEnv env(a, timeout, mem);
  env.lat_lo = env.lat_hi = memlat;
  env.mem_stall_pct = 0;
  env.rsp_stall_pct = 0;
  env.reset();
  env.config(walkers, slots, tpreg);

  Dma dma;
  if (!dma.start(trace_path, bw, data_lat, max_xfers, ahead)) {
    file_error(trace_path, dma.err);
    return 2;
  }
  struct Inflight {
    bool busy;
    bool wr;
    uint8_t status;
    uint32_t bytes;
    uint64_t tile;
    uint64_t pa;
    uint64_t acc;  // cycle accepted (ticked cycles)
    uint64_t seq;  // accept order (with xlate_ahead also the transaction's trace order)
  };
  std::vector<uint32_t> lat_by_seq;  // each request's latency, in accept order (the replay)
  const uint32_t nids = 1u << TB_IdW;
  std::vector<Inflight> inflight(nids);
  std::vector<uint32_t> free_ids;
  for (uint32_t i = nids; i-- > 0;) free_ids.push_back(i);
  bool have_id = false;
  uint32_t offer_id = 0;
  uint64_t skip = 0;          // cycles fast-forwarded
  uint64_t outstanding = 0;   // requests accepted, not answered
  uint64_t responses = 0, rtl_faults = 0;
  uint64_t dma_stalls = 0;    // cycles the DMA offered a request the MMU did not take
  uint64_t quiet = 0;         // consecutive cycles without anything in flight
  uint64_t last_activity = 0;
  bool stuck = false, fatal = false;
  std::vector<MmuRsp> rsps;
  Ctr c_hits, c_walks, c_merges, c_reads, c_l4, c_l3, c_l2;
  Ctr c_st_rsp, c_st_down, c_st_prmb, c_st_walk, c_dup;
  auto sample = [&]() {
    c_st_rsp.sample(env.top->stat_stall_rsp_o);
    c_st_down.sample(env.top->stat_stall_down_o);
    c_st_prmb.sample(env.top->stat_stall_prmb_o);
    c_st_walk.sample(env.top->stat_stall_walk_o);
    c_dup.sample(env.top->stat_dup_walks_o);
    c_hits.sample(env.top->stat_hits_o);
    c_walks.sample(env.top->stat_walks_o);
    c_merges.sample(env.top->stat_merges_o);
    c_reads.sample(env.top->stat_reads_o);
    c_l4.sample(env.top->stat_tp_l4_o);
    c_l3.sample(env.top->stat_tp_l3_o);
    c_l2.sample(env.top->stat_tp_l2_o);
  };
  sample();
  size_t nlayers_seen = 0;

  for (;;) {
    const uint64_t now = env.sim.cycle + skip;
    int s = dma.poll(now);
    if (dma.model.layers.size() != nlayers_seen) {  // a layer ended: keep the counters exact
      nlayers_seen = dma.model.layers.size();
      sample();
    }
    if (s == Dma::ERR) {  // the oracle pass read the same file without error
      file_error(trace_path, dma.err);
      fatal = true;
      break;
    }
    if (s == Dma::DONE) break;
    bool issued_now = false;
    const nmmu_event_t *xe = nullptr;  // the request offered to the MMU
    if (ahead) {
      if (s == Dma::READY) {  // the data side issues with an answer that came earlier
        dma.issue_data(now);
        issued_now = true;
      }
      xe = dma.xlate_peek();
    } else if (s == Dma::READY) {
      xe = &dma.ev;
    }
    bool offer = false;
    if (xe) {
      if (!have_id && !free_ids.empty()) {
        offer_id = free_ids.back();
        free_ids.pop_back();
        have_id = true;
      }
      offer = have_id;
    }
    if (s == Dma::WAIT && dma.wait_until == UINT64_MAX && outstanding == 0 && !offer) {
      std::fprintf(stderr, "npu: DMA waits on responses with none outstanding (cycle %" PRIu64
                           ")\n", now);
      fatal = true;
      break;
    }
    // Fast-forward over an idle MMU.
    if (s == Dma::WAIT && dma.wait_until != UINT64_MAX && !offer && outstanding == 0 &&
        env.idle_mem() && quiet >= 8) {
      skip += dma.wait_until - now;
      last_activity = env.sim.cycle;
      continue;
    }
    rsps.clear();
    const nmmu_event_t x = xe ? *xe : nmmu_event_t{};
    const bool took = env.step(offer, offer_id, x.va, x.is_write != 0, rsps);
    if (offer && !took) dma_stalls++;
    if (took) {
      const nmmu_xlat_t r = nmmu_translate(mem, x.va, x.is_write);
      Inflight &f = inflight[offer_id];
      f.busy = true;
      f.wr = x.is_write != 0;
      f.bytes = x.bytes;
      f.status = (uint8_t)r.status;
      f.pa = r.pa;
      f.acc = env.sim.cycle - 1;
      f.seq = lat_by_seq.size();
      lat_by_seq.push_back(0);
      if (ahead)
        dma.xlate_send();  // returns f.seq: translations are sent in trace order
      else
        f.tile = dma.accept();
      have_id = false;
      outstanding++;
      last_activity = env.sim.cycle;
    }
    for (const MmuRsp &r : rsps) {
      last_activity = env.sim.cycle;
      if (!score.expect(r.id < nids && inflight[r.id].busy, "response for an ID in flight", r.id))
        continue;
      Inflight &f = inflight[r.id];
      score.check("status", r.id, f.status, (uint64_t)r.status);
      score.check("pa", r.id, f.pa, r.pa);
      if (r.status != NMMU_ST_OK) rtl_faults++;
      f.busy = false;
      lat_by_seq[f.seq] = (uint32_t)(r.cycle - f.acc);
      free_ids.push_back(r.id);
      outstanding--;
      responses++;
      if (ahead)
        dma.xlate_answer(f.seq, r.status == NMMU_ST_OK);
      else
        dma.model.respond(f.tile, f.bytes, f.wr, r.status == NMMU_ST_OK, (double)(r.cycle + skip));
    }
    // ahead mode: an answer of this cycle may issue its data in this cycle
    if (ahead && !issued_now) {
      s = dma.poll(now);
      if (s == Dma::ERR) {
        file_error(trace_path, dma.err);
        fatal = true;
        break;
      }
      if (s == Dma::READY) dma.issue_data(now);
    }
    quiet = (outstanding == 0 && env.idle_mem()) ? quiet + 1 : 0;
    if (env.sim.timed_out) {
      fatal = true;
      break;
    }
    if (outstanding > 0 && env.sim.cycle - last_activity > 1000000) {
      std::fprintf(stderr, "npu: no response for 10^6 cycles with %" PRIu64
                           " requests outstanding (cycle %" PRIu64 ")\n", outstanding, now);
      stuck = true;
      break;
    }
  }
  // Let the walkers finish their TLB fills before the last counter sample.
  bool extra_rsp = false;
  for (int i = 0; i < 8 && !fatal && !stuck; i++) {
    rsps.clear();
    env.step(false, 0, 0, false, rsps);
    extra_rsp |= !rsps.empty();
  }
  score.expect(!extra_rsp, "no response after the last request was answered", 0);
  sample();
  // ---------------------------------------------------------------- latency replay
  // The oracle's DMA (never stalled) with every translation answered after the latency the RTL
  // gave it (matched by accept order): the run time this costs over the oracle is the share of
  // the MMU's loss due to translation latency; the rest (RTL - replay) is due to the cycles the
  // DMA was stalled (docs/results/neummu.md, "Where the cycles go").
  double rep_w = 0;
  if (!fatal && !stuck && lat_by_seq.size() == nxfers) {
    std::string rerr;
    uint64_t sent = 0;
    rep_w = replay_run(trace_path, bw, data_lat, max_xfers, ahead, mem, &lat_by_seq, &sent,
                       &rerr);
    if (rep_w < 0) {
      file_error(trace_path, rerr);
      return 2;
    }
    score.check("latency replay: transactions", 0, nxfers, sent);
    if (ahead) {
      // The oracle is the same with the run-ahead DMA: zero-latency answers never hold data.
      uint64_t sent0 = 0;
      const double orc_ahead =
          replay_run(trace_path, bw, data_lat, max_xfers, ahead, mem, nullptr, &sent0, &rerr);
      score.check("oracle with the run-ahead DMA vs the oracle (weighted cycles)", 0,
                  (uint64_t)std::llround(orc_w), (uint64_t)std::llround(orc_ahead));
    }
  }

  const double mmu_raw = dma.model.layers.empty() ? 0 : dma.model.layers.back().end;
  const double mmu_w = layer_weighted(dma.model.layers);
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();

  if (print_layers) {
    for (size_t i = 0; i < dma.model.layers.size() && i < orc.model.layers.size(); i++) {
      const LayerRec &m = dma.model.layers[i], &o = orc.model.layers[i];
      std::printf("npu: layer %s scale=%g xfers=%" PRIu64 " cycles=%.0f oracle=%.0f perf=%.4f\n",
                  m.name.c_str(), m.scale, m.xfers, m.end - m.start, o.end - o.start,
                  (m.end > m.start) ? (o.end - o.start) / (m.end - m.start) : 1.0);
    }
  }

  // ---------------------------------------------------------------- checks
  score.expect(!fatal && !stuck, "run completed (no timeout, no hang)", env.sim.cycle);
  score.check("requests answered", 0, dma.issued, responses);
  score.check("requests outstanding at the end", 0, 0, outstanding);
  score.check("transactions, RTL run vs oracle run", 0, nxfers, dma.issued);
  score.check("faulted responses vs the layout's prediction", 0, exp_faults, rtl_faults);
  score.check("image statuses disagreeing with the layout", 0, 0, layout_mismatch);
  score.expect(c_reads.total <= 4 * c_walks.total, "page-table reads <= 4 x walks",
               c_reads.total);
  score.check("RTL read counter vs reads the memory accepted", 0, env.reads_total,
              c_reads.total);
  score.check("hits + walks + merges vs requests", 0, dma.issued,
              c_hits.total + c_walks.total + c_merges.total);
  score.check("layers, RTL run vs oracle run", 0, orc.model.layers.size(),
              dma.model.layers.size());
  // Accounting (docs/neummu.md, "Counters"): every stalled cycle has one cause, and the
  // request-cycles by place add up to every request's latency.
  const uint64_t st_sum = c_st_rsp.total + c_st_down.total + c_st_prmb.total + c_st_walk.total;
  score.check("stall cycles by cause vs DMA stall cycles", 0, dma_stalls, st_sum);
  const uint64_t l_pipe = env.top->stat_lat_pipe_o, l_hol = env.top->stat_lat_hol_o,
                 l_port = env.top->stat_lat_port_o, l_mem = env.top->stat_lat_mem_o,
                 l_ans = env.top->stat_lat_ans_o, l_out = env.top->stat_lat_out_o;
  uint64_t lat_sum = 0;  // sum over responses of (response cycle - accept cycle)
  for (uint32_t l : lat_by_seq) lat_sum += l;
  score.check("request-cycles by place vs the sum of latencies", 0, lat_sum,
              l_pipe + l_hol + l_port + l_mem + l_ans + l_out);

  std::printf("npu: cycles=%.0f oracle=%.0f perf=%.6f raw_cycles=%.0f raw_oracle=%.0f "
              "raw_perf=%.6f xfers=%" PRIu64 " layers=%zu walks=%" PRIu64 " reads=%" PRIu64
              " merges=%" PRIu64 " hits=%" PRIu64 " tp_l4=%" PRIu64 " tp_l3=%" PRIu64
              " tp_l2=%" PRIu64 " stalls=%" PRIu64 " faults=%" PRIu64 " expected_faults=%" PRIu64
              " ticked=%" PRIu64 " skipped=%" PRIu64 " wall=%.1f\n",
              mmu_w, orc_w, mmu_w > 0 ? orc_w / mmu_w : 1.0, mmu_raw, orc_raw,
              mmu_raw > 0 ? orc_raw / mmu_raw : 1.0, dma.issued, dma.model.layers.size(),
              c_walks.total, c_reads.total, c_merges.total, c_hits.total, c_l4.total,
              c_l3.total, c_l2.total, dma_stalls, rtl_faults, exp_faults, (uint64_t)env.sim.cycle, skip,
              wall);
  std::printf("npu: replay cycles=%.0f (oracle DMA, the RTL's latencies) latency_loss=%.0f "
              "stall_loss=%.0f\n", rep_w, rep_w - orc_w, mmu_w - rep_w);
  std::printf("npu: acct stall_rsp=%" PRIu64 " stall_down=%" PRIu64 " stall_prmb=%" PRIu64
              " stall_walk=%" PRIu64 " dup_walks=%" PRIu64 " lat_sum=%" PRIu64 " lat_pipe=%"
              PRIu64 " lat_hol=%" PRIu64 " lat_port=%" PRIu64 " lat_mem=%" PRIu64 " lat_ans=%"
              PRIu64 " lat_out=%" PRIu64 "\n",
              c_st_rsp.total, c_st_down.total, c_st_prmb.total, c_st_walk.total, c_dup.total,
              lat_sum, l_pipe, l_hol, l_port, l_mem, l_ans, l_out);
  dma.close();
  const int rc = score.finish();
  nmmu_mem_free(mem);
  return rc;
}
