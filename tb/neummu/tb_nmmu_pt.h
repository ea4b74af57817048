// tb_nmmu_pt.h -- page-table builder for the NeuMMU harnesses (tb_neummu.cpp, tb_neummu_npu.cpp
// through tb_nmmu_env.h, and tb_neummu_axi.cpp) on top of the model's sparse memory (neummu.h).
#ifndef TB_NMMU_PT_H
#define TB_NMMU_PT_H

#include <cstdint>

#include "neummu.h"

// Page-table builder: tables are allocated from next_table upward, one 4 KB page each.
struct PtBuilder {
  nmmu_mem_t *mem;
  uint64_t next_table;
  explicit PtBuilder(nmmu_mem_t *m, uint64_t root = 0x1000) : mem(m), next_table(root + 0x1000) {
    nmmu_mem_set_root(mem, root);
  }
  static unsigned idx(uint64_t va, int level) {  // level 4..1
    return (unsigned)((va >> (12 + 9 * (level - 1))) & 511);
  }
  uint64_t entry_pa(uint64_t table, uint64_t va, int level) { return table + 8ull * idx(va, level); }
  // Table reached at `level` (4 = root) for va, creating missing intermediate tables with
  // P|W|U.  Returns the table's PA.
  uint64_t table_for(uint64_t va, int level) {
    uint64_t t = nmmu_mem_root(mem);
    for (int l = 4; l > level; l--) {
      uint64_t e = entry_pa(t, va, l);
      uint64_t v = nmmu_mem_read(mem, e);
      if (!(v & NMMU_PTE_P) || (v & NMMU_PTE_PS)) {
        uint64_t nt = next_table;
        next_table += 0x1000;
        v = nt | NMMU_PTE_P | NMMU_PTE_W | NMMU_PTE_U;
        nmmu_mem_write(mem, e, v);
      }
      t = v & NMMU_PTE_FRAME;
    }
    return t;
  }
  // Writes the entry of va at `level` (creating the tables above it).
  void set_entry(uint64_t va, int level, uint64_t val) {
    nmmu_mem_write(mem, entry_pa(table_for(va, level), va, level), val);
  }
  uint64_t get_entry(uint64_t va, int level) {
    return nmmu_mem_read(mem, entry_pa(table_for(va, level), va, level));
  }
  void map4k(uint64_t va, uint64_t pa, uint64_t flags = NMMU_PTE_W | NMMU_PTE_U) {
    set_entry(va, 1, (pa & NMMU_PTE_FRAME) | NMMU_PTE_P | flags);
  }
  void map2m(uint64_t va, uint64_t pa, uint64_t flags = NMMU_PTE_W | NMMU_PTE_U) {
    set_entry(va, 2, (pa & NMMU_PTE_FRAME_2M) | NMMU_PTE_P | NMMU_PTE_PS | flags);
  }
};

#endif
