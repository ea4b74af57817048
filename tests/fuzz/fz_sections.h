/* fz_sections.h -- forced (-include) in front of every project source of the fuzz build
 * (scripts/fuzz.py): puts the file's writable globals and function-level statics into the
 * sections fz_data and fz_bss, which the fuzz driver (tests/fuzz/fz_common.c) restores before
 * every execution, so that one input's run never sees what an earlier one left in a static. */
#if defined(__clang__)
#pragma clang section bss = "fz_bss" data = "fz_data"
#endif
