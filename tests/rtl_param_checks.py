#!/usr/bin/env python3
"""Elaboration-time parameter checks of the RTL (rtl/common, rtl/neummu, rtl/neunoc).

Every top and every shared cell checks its parameters: an illegal combination must fail the
build with a message naming the rule, `<module>__<rule>` (rtl/common/README.md, "Parameters and
their checks"), in all three tools the library supports:

  verilator --lint-only -Wall -y <dirs> <lint.vlt files> --top-module M -GP=V ... rtl/<blk>/M.v
  iverilog -g2005 -Wall -y <dirs> -I <dirs> -s M -PM.P=V ... -o /dev/null rtl/<blk>/M.v
  yosys     read_verilog -defer rtl/<blk>/M.v; chparam -set P V M;
            hierarchy -check -libdir <dirs> -top M

For each case of the table below (module, illegal overrides, expected rule text) each tool must
fail and print the rule; for each module of those folders the default parameters must pass
Yosys's hierarchy check. That the defaults pass Verilator and Icarus without a message is checked
by `make lint` (scripts/lint.py, the entry rtl_lint_all), with the same two commands on every
module; running them here again cost a minute of the regression and checked nothing new. One line per check, the last line
`N passed, N failed`; the exit status is 1 on any failure.

Usage: tests/rtl_param_checks.py [--jobs N] [--only REGEX] [--verbose]
"""
import argparse
import concurrent.futures
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
import iverilog_waivers  # noqa: E402  (waived Icarus warnings, one construct each)

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
BLOCK_DIRS = ["rtl/common", "rtl/neummu", "rtl/neunoc", "rtl/softermax"]

# (module, {parameter: illegal value}, rule text the tools must print). Where a top hands the
# parameter down, a tuple lists the sub-module's rule as an alternative: Verilator elaborates the
# sub-modules (running their checks, and stopping on the errors the illegal value causes there)
# before it runs the top's own elaboration tasks.
CASES = [
    # ---- shared cells
    ("cc_fifo", {"Width": 0}, "cc_fifo__Width_must_be_at_least_1"),
    ("cc_fifo", {"Depth": 0}, "cc_fifo__Depth_must_be_at_least_1"),
    ("cc_fifo", {"FallThrough": 2}, "cc_fifo__FallThrough_must_be_0_or_1"),
    ("cc_fifo_sram", {"Width": 0}, "cc_fifo_sram__Width_must_be_at_least_1"),
    ("cc_fifo_sram", {"Depth": 0}, "cc_fifo_sram__Depth_must_be_at_least_1"),
    ("cc_skid_buffer", {"Width": 0}, "cc_skid_buffer__Width_must_be_at_least_1"),
    ("cc_rr_arbiter", {"N": 0}, "cc_rr_arbiter__N_must_be_at_least_1"),
    ("cc_sram_1r1w", {"Width": 0}, "cc_sram_1r1w__Width_must_be_at_least_1"),
    ("cc_sram_1r1w", {"Depth": 0}, "cc_sram_1r1w__Depth_must_be_at_least_1"),
    ("cc_sram_1r1w", {"ReadFirst": 2}, "cc_sram_1r1w__ReadFirst_must_be_0_or_1"),
    ("cc_cam", {"KeyWidth": 0}, "cc_cam__KeyWidth_must_be_at_least_1"),
    ("cc_cam", {"Entries": 0}, "cc_cam__Entries_must_be_at_least_1"),
    ("cc_lzc", {"Width": 0}, "cc_lzc__Width_must_be_at_least_1"),
    ("cc_pipe", {"Width": 0}, "cc_pipe__Width_must_be_at_least_1"),
    ("cc_pipe", {"Depth": -1}, "cc_pipe__Depth_must_be_at_least_0"),
    ("cc_hold_check", {"Width": 0}, "cc_hold_check__Width_must_be_at_least_1"),
    # ---- float units: format (ExpW 2..30, ManW >= 2, ManW <= 2^ExpW) and latency
    ("fp_cmp", {"ExpW": 1}, "fp_cmp__ExpW_must_be_2_to_30"),
    ("fp_cmp", {"ManW": 1}, "fp_cmp__ManW_must_be_at_least_2"),
    ("fp_cmp", {"Latency": -1}, "fp_cmp__Latency_must_be_at_least_0"),
    ("fp_divsqrt", {"Iterative": 2}, "fp_divsqrt__Iterative_must_be_0_or_1"),
    ("fp_rti", {"ExpW": 1}, "fp_rti__ExpW_must_be_2_to_30"),
    ("fp_rti", {"ExpW": 31}, "fp_rti__ExpW_must_be_2_to_30"),
    ("fp_rti", {"ManW": 1}, "fp_rti__ManW_must_be_at_least_2"),
    ("fp_rti", {"ExpW": 4, "ManW": 8}, "fp_rti__ManW_must_be_at_most_the_exponent_bias"),
    ("fp_rti", {"Latency": -1}, "fp_rti__Latency_must_be_at_least_0"),
    ("fp_f2f", {"InExpW": 1}, "fp_f2f__InExpW_must_be_2_to_30"),
    ("fp_f2f", {"InManW": 1}, "fp_f2f__InManW_must_be_at_least_2"),
    ("fp_f2f", {"InExpW": 3, "InManW": 9}, "fp_f2f__InManW_must_be_at_most_2_pow_InExpW"),
    ("fp_f2f", {"OutExpW": 31}, "fp_f2f__OutExpW_must_be_2_to_30"),
    ("fp_f2f", {"OutManW": 1}, "fp_f2f__OutManW_must_be_at_least_2"),
    ("fp_f2f", {"OutExpW": 3, "OutManW": 9}, "fp_f2f__OutManW_must_be_at_most_2_pow_OutExpW"),
    ("fp_f2f", {"Latency": -1}, "fp_f2f__Latency_must_be_at_least_0"),
    ("fp_unpack", {"ExpW": 1}, "fp_unpack__ExpW_must_be_2_to_30"),
    ("fp_unpack", {"ManW": 1}, "fp_unpack__ManW_must_be_at_least_2"),
    ("fp_unpack", {"ExpW": 3, "ManW": 9}, "fp_unpack__ManW_must_be_at_most_2_pow_ExpW"),
    ("fp_unpack", {"EW": 9}, "fp_unpack__EW_must_be_at_least_ExpW_plus_2"),
    ("fp_round_pack", {"ExpW": 31}, "fp_round_pack__ExpW_must_be_2_to_30"),
    ("fp_round_pack", {"ManW": 1}, "fp_round_pack__ManW_must_be_at_least_2"),
    ("fp_round_pack", {"InW": 25}, "fp_round_pack__InW_must_be_at_least_ManW_plus_3"),
    ("fp_round_pack", {"EW": 9}, "fp_round_pack__EW_must_be_at_least_ExpW_plus_2"),
    ("fp_round_pack", {"ExpW": 3, "ManW": 2, "InW": 100, "EW": 5},
     "fp_round_pack__EW_must_exceed_clog2_of_InW_plus_1"),
    ("fp_add_core", {"SW": 1}, "fp_add_core__SW_must_be_at_least_2"),
    ("fp_add_core", {"EW": 5}, "fp_add_core__EW_must_exceed_clog2_of_SW_plus_4"),
    # ---- NeuMMU
    ("neummu", {"Walkers": 0}, "neummu__Walkers_must_be_at_least_1"),
    ("neummu", {"Slots": -1},
     ("neummu__Slots_must_be_at_least_0", "nmmu_ptw__Slots_must_be_at_least_0")),
    ("neummu", {"TpReg": 2}, "neummu__TpReg_must_be_0_or_1"),
    ("neummu", {"TlbEntries": 48}, "neummu__TlbEntries_must_be_a_power_of_2"),
    ("neummu", {"TlbWays": 3}, "neummu__TlbWays_must_be_a_power_of_2"),
    ("neummu", {"TlbEntries": 2, "TlbWays": 4}, "neummu__TlbEntries_must_be_at_least_TlbWays"),
    ("neummu", {"Tlb2M": 0}, "neummu__Tlb2M_must_be_at_least_1"),
    ("neummu", {"TlbLatency": 0}, "neummu__TlbLatency_must_be_at_least_1"),
    ("neummu", {"IdW": 0}, "neummu__IdW_must_be_at_least_1"),
    ("nmmu_tlb", {"Entries": 48}, "nmmu_tlb__Entries_must_be_a_power_of_2"),
    ("nmmu_tlb", {"Ways": 3}, "nmmu_tlb__Ways_must_be_a_power_of_2"),
    ("nmmu_tlb", {"Entries": 2, "Ways": 4}, "nmmu_tlb__Entries_must_be_at_least_Ways"),
    ("nmmu_tlb", {"Entries2M": 0}, "nmmu_tlb__Entries2M_must_be_at_least_1"),
    ("nmmu_ptw", {"Slots": -1}, "nmmu_ptw__Slots_must_be_at_least_0"),
    ("nmmu_ptw", {"TpReg": 2}, "nmmu_ptw__TpReg_must_be_0_or_1"),
    ("nmmu_ptw", {"IdW": 0}, "nmmu_ptw__IdW_must_be_at_least_1"),
    ("nmmu_pts", {"N": 0}, "nmmu_pts__N_must_be_at_least_1"),
    # ---- Neu-NoC
    ("neunoc", {"K": 0}, "neunoc__K_must_be_at_least_1"),
    ("neunoc", {"Cols": 0}, "neunoc__Cols_must_be_at_least_1"),
    ("neunoc", {"Rows": 0}, "neunoc__Rows_must_be_at_least_1"),
    ("neunoc", {"V": 0},
     ("neunoc__V_must_be_at_least_1", "nnoc_mesh_router__V_must_be_at_least_1")),
    ("neunoc", {"Depth": 1}, "neunoc__Depth_must_be_at_least_2"),
    ("neunoc", {"DataW": 0}, "neunoc__DataW_must_be_at_least_1"),
    ("neunoc", {"TagW": 0}, "neunoc__TagW_must_be_at_least_1"),
    ("neunoc", {"CntW": 0},
     ("neunoc__CntW_must_be_at_least_1", "nnoc_pack__CntW_must_be_1_to_FlitW_minus_2")),
    ("neunoc", {"Pack": 2}, "neunoc__Pack_must_be_0_or_1"),
    ("neunoc", {"DstCoord": 2}, "neunoc__DstCoord_must_be_0_or_1"),
    ("neunoc", {"DstCoord": 1, "DstW": 4},
     "neunoc__NR_NP_RIdW_PIdW_DstW_HdrW_PW_FlitW_are_derived_and_must_not_be_set"),
    ("neunoc", {"FlitW": 40},
     "neunoc__NR_NP_RIdW_PIdW_DstW_HdrW_PW_FlitW_are_derived_and_must_not_be_set"),
    ("nnoc_mesh_router", {"Cols": 0}, "nnoc_mesh_router__Cols_must_be_at_least_1"),
    ("nnoc_mesh_router", {"Rows": 0}, "nnoc_mesh_router__Rows_must_be_at_least_1"),
    ("nnoc_mesh_router", {"V": 0}, "nnoc_mesh_router__V_must_be_at_least_1"),
    ("nnoc_mesh_router", {"Depth": 1}, "nnoc_mesh_router__Depth_must_be_at_least_2"),
    ("nnoc_mesh_router", {"SingleBit": 2},
     "nnoc_mesh_router__SingleBit_must_be_above_the_destination_field_to_FlitW_minus_3"),
    ("nnoc_mesh_router", {"SingleBit": 22},
     "nnoc_mesh_router__SingleBit_must_be_above_the_destination_field_to_FlitW_minus_3"),
    ("nnoc_mesh_router", {"VcW": 3}, "nnoc_mesh_router__VcW_XW_YW_are_derived_and_must_not_be_set"),
    ("nnoc_mesh_router", {"DstCoord": 2}, "nnoc_mesh_router__DstCoord_must_be_0_or_1"),
    ("nnoc_mesh_router", {"SaHold": 2},
     "nnoc_mesh_router__VaPerPort_TailFree_SpecSa_SaGreedy_SaHold_VcMost_must_be_0_or_1"),
    ("nnoc_mesh_router", {"VcMost": 2},
     "nnoc_mesh_router__VaPerPort_TailFree_SpecSa_SaGreedy_SaHold_VcMost_must_be_0_or_1"),
    ("nnoc_mesh_router", {"SaPrio": 3}, "nnoc_mesh_router__SaPrio_must_be_0_1_or_2"),
    ("nnoc_mesh_router", {"SaPrio": -1}, "nnoc_mesh_router__SaPrio_must_be_0_1_or_2"),
    ("nnoc_mesh_router", {"SaPrioWait": 0}, "nnoc_mesh_router__SaPrioWait_must_be_1_to_255"),
    ("nnoc_mesh_router", {"SaPrioWait": 256}, "nnoc_mesh_router__SaPrioWait_must_be_1_to_255"),
    ("nnoc_sa_greedy", {"Hold": 2}, "nnoc_sa_greedy__Hold_must_be_0_or_1"),
    # coordinate heads: the destination field is XW + YW = 2 bits, so SingleBit 1 overlaps it
    ("nnoc_mesh_router", {"DstCoord": 1, "SingleBit": 1},
     "nnoc_mesh_router__SingleBit_must_be_above_the_destination_field_to_FlitW_minus_3"),
    ("nnoc_mesh_router_xy", {"X": 2}, "nnoc_mesh_router_xy__X_must_be_0_to_Cols_minus_1"),
    ("nnoc_mesh_router_xy", {"Y": -1}, "nnoc_mesh_router_xy__Y_must_be_0_to_Rows_minus_1"),
    ("nnoc_mesh_router_xy", {"Depth": 1}, "nnoc_mesh_router__Depth_must_be_at_least_2"),
    ("nnoc_mesh_router_xy", {"SingleBit": 23},
     "nnoc_mesh_router__SingleBit_must_be_above_the_destination_field_to_FlitW_minus_3"),
    ("nnoc_route", {"Cols": 0}, "nnoc_route__Cols_must_be_at_least_1"),
    ("nnoc_route", {"Rows": 0}, "nnoc_route__Rows_must_be_at_least_1"),
    ("nnoc_route", {"XW": 3}, "nnoc_route__XW_and_YW_are_derived_and_must_not_be_set"),
    ("nnoc_route_coord", {"Cols": 0}, "nnoc_route_coord__Cols_must_be_at_least_1"),
    ("nnoc_route_coord", {"Rows": 0}, "nnoc_route_coord__Rows_must_be_at_least_1"),
    ("nnoc_route_coord", {"YW": 3}, "nnoc_route_coord__XW_and_YW_are_derived_and_must_not_be_set"),
    ("nnoc_inject", {"V": 0}, "nnoc_inject__V_must_be_at_least_1"),
    ("nnoc_inject", {"Depth": 0}, "nnoc_inject__Depth_must_be_at_least_1"),
    ("nnoc_inject", {"SingleBit": 22}, "nnoc_inject__SingleBit_must_be_0_to_FlitW_minus_3"),
    ("nnoc_inject", {"VcW": 2}, "nnoc_inject__VcW_is_derived_and_must_not_be_set"),
    ("nnoc_inject", {"TailFree": 2}, "nnoc_inject__TailFree_VcMost_must_be_0_or_1"),
    ("nnoc_inject", {"VcMost": 2}, "nnoc_inject__TailFree_VcMost_must_be_0_or_1"),
    ("nnoc_eject", {"V": 0}, "nnoc_eject__V_must_be_at_least_1"),
    ("nnoc_eject", {"Depth": 0}, "nnoc_eject__Depth_must_be_at_least_1"),
    ("nnoc_eject", {"SingleBit": 22}, "nnoc_eject__SingleBit_must_be_0_to_FlitW_minus_3"),
    ("nnoc_eject", {"VcW": 2}, "nnoc_eject__VcW_is_derived_and_must_not_be_set"),
    ("nnoc_eject", {"WholeFirst": 2}, "nnoc_eject__WholeFirst_must_be_0_or_1"),
    ("nnoc_pack", {"CntW": 0}, "nnoc_pack__CntW_must_be_1_to_FlitW_minus_2"),
    ("nnoc_pack", {"CntW": 23}, "nnoc_pack__CntW_must_be_1_to_FlitW_minus_2"),
    ("nnoc_unpack", {"CntW": 0}, "nnoc_unpack__CntW_must_be_1_to_FlitW_minus_2"),
    ("nnoc_unpack", {"CntW": 23}, "nnoc_unpack__CntW_must_be_1_to_FlitW_minus_2"),
    ("nnoc_ring_send", {"SingleBit": 22}, "nnoc_ring_send__SingleBit_must_be_0_to_FlitW_minus_3"),
    ("nnoc_ring_send", {"SingleBit": -1}, "nnoc_ring_send__SingleBit_must_be_0_to_FlitW_minus_3"),
    ("nnoc_ring_recv", {"SingleBit": 22}, "nnoc_ring_recv__SingleBit_must_be_0_to_FlitW_minus_3"),
    ("nnoc_ring_recv", {"K": 0}, "nnoc_ring_recv__K_must_be_at_least_1"),
    ("nnoc_ring_recv", {"Pos": 4}, "nnoc_ring_recv__Pos_must_be_0_to_K_minus_1"),
    ("nnoc_ring_recv", {"PeBit": 19}, "nnoc_ring_recv__PeBit_plus_K_must_be_at_most_FlitW_minus_2"),
    ("nnoc_pe_guard", {"Cols": 0}, "nnoc_pe_guard__Cols_and_Rows_must_be_at_least_1"),
    ("nnoc_pe_guard", {"DstCoord": 2}, "nnoc_pe_guard__DstCoord_must_be_0_or_1"),
    ("nnoc_pe_guard", {"K": 0}, "nnoc_pe_guard__K_must_be_at_least_1"),
    ("nnoc_pe_guard", {"SingleBit": 7},
     "nnoc_pe_guard__SingleBit_must_be_DstW_plus_K_to_FlitW_minus_3"),
    ("nnoc_pe_guard", {"Depth": 1}, "nnoc_pe_guard__Depth_must_be_at_least_2"),
    # ---- Softermax (rtl/softermax): every top checks through smx_param_check, whose rules are
    # named after the block; Vec = 0 is left out (Verilator stops on zero-width count fields
    # before it reaches the check; Icarus and Yosys name the rule)
    ("softermax", {"Vec": 65}, "softermax__Vec_must_be_1_to_64"),
    ("softermax", {"MaxLen": 0}, "softermax__MaxLen_must_be_at_least_1"),
    ("softermax", {"InWidth": 17}, "softermax__InWidth_must_be_at_most_16"),
    ("softermax", {"InFrac": 1}, "softermax__InFrac_must_be_2_to_InWidth_minus_2"),
    ("softermax", {"InFrac": 7}, "softermax__InFrac_must_be_2_to_InWidth_minus_2"),
    ("softermax", {"RecipSegBits": 1}, "softermax__RecipSegBits_must_be_2_to_4"),
    ("softermax", {"RecipSegBits": 5}, "softermax__RecipSegBits_must_be_2_to_4"),
    ("softermax", {"SumFrac": 5}, "softermax__SumFrac_must_be_6_to_13"),
    ("softermax", {"SumFrac": 14}, "softermax__SumFrac_must_be_6_to_13"),
    ("softermax", {"CntW": 4}, "softermax__CntW_is_derived_and_must_not_be_set"),
    ("softermax_unnormed", {"Vec": 65}, "softermax__Vec_must_be_1_to_64"),
    ("softermax_unnormed", {"MaxLen": 0}, "softermax__MaxLen_must_be_at_least_1"),
    ("softermax_unnormed", {"InWidth": 17}, "softermax__InWidth_must_be_at_most_16"),
    ("softermax_unnormed", {"InFrac": 7}, "softermax__InFrac_must_be_2_to_InWidth_minus_2"),
    ("softermax_unnormed", {"SumFrac": 14}, "softermax__SumFrac_must_be_6_to_13"),
    ("softermax_unnormed", {"DWidth": 17}, "softermax__DWidth_is_derived_and_must_not_be_set"),
    ("softermax_unnormed", {"CntW": 6}, "softermax__CntW_is_derived_and_must_not_be_set"),
    ("softermax_unnormed", {"MWidth": 8}, "softermax__MWidth_is_derived_and_must_not_be_set"),
    ("softermax_unnormed", {"MaxSlices": 23},
     "softermax__MaxSlices_is_derived_and_must_not_be_set"),
    ("softermax_unnormed", {"SliceW": 6}, "softermax__SliceW_is_derived_and_must_not_be_set"),
    ("softermax_norm", {"Vec": 65}, "softermax__Vec_must_be_1_to_64"),
    ("softermax_norm", {"MaxLen": 0}, "softermax__MaxLen_must_be_at_least_1"),
    ("softermax_norm", {"InWidth": 17}, "softermax__InWidth_must_be_at_most_16"),
    ("softermax_norm", {"InFrac": 7}, "softermax__InFrac_must_be_2_to_InWidth_minus_2"),
    ("softermax_norm", {"RecipSegBits": 5}, "softermax__RecipSegBits_must_be_2_to_4"),
    ("softermax_norm", {"SumFrac": 5}, "softermax__SumFrac_must_be_6_to_13"),
    ("softermax_norm", {"DWidth": 15}, "softermax__DWidth_is_derived_and_must_not_be_set"),
    ("softermax_norm", {"SliceW": 7}, "softermax__SliceW_is_derived_and_must_not_be_set"),
    ("softermax_fp16_baseline", {"Vec": 65}, "softermax__Vec_must_be_1_to_64"),
    ("softermax_fp16_baseline", {"MaxLen": 0}, "softermax__MaxLen_must_be_at_least_1"),
    ("softermax_fp16_baseline", {"CntW": 6}, "softermax__CntW_is_derived_and_must_not_be_set"),
    ("softermax_fp16_unnormed", {"Vec": 65}, "softermax__Vec_must_be_1_to_64"),
    ("softermax_fp16_unnormed", {"MaxLen": 0}, "softermax__MaxLen_must_be_at_least_1"),
    ("softermax_fp16_unnormed", {"MaxSlices": 23},
     "softermax__MaxSlices_is_derived_and_must_not_be_set"),
    ("softermax_fp16_norm", {"Vec": 65}, "softermax__Vec_must_be_1_to_64"),
    ("softermax_fp16_norm", {"MaxLen": 0}, "softermax__MaxLen_must_be_at_least_1"),
    ("softermax_fp16_norm", {"SliceW": 7}, "softermax__SliceW_is_derived_and_must_not_be_set"),
    ("softermax_fp16_op", {"Op": 5}, "softermax_fp16_op__Op_must_be_0_to_4"),
    ("smx_stream", {"Fp16": 2}, "smx_stream__Fp16_must_be_0_or_1"),
    ("smx_stream", {"XW": 9}, "smx_stream__XW_YW_MW_DW_CntW_are_derived_and_must_not_be_set"),
    # ---- the AXI shell (rtl/common) and the blocks' AXI tops
    ("cc_axi_burst_gen", {"AddrW": 12}, "cc_axi_burst_gen__AddrW_must_be_at_least_16"),
    ("cc_axi_burst_gen", {"DataW": 48}, "cc_axi_burst_gen__DataW_must_be_a_power_of_two_8_to_1024"),
    ("cc_axi_burst_gen", {"BeatsW": 8}, "cc_axi_burst_gen__BeatsW_must_be_at_least_16"),
    ("cc_axi_burst_gen", {"MaxBurst": 512},
     "cc_axi_burst_gen__MaxBurst_must_be_a_power_of_two_1_to_256"),
    ("cc_axi_burst_gen", {"Outstanding": 0}, "cc_axi_burst_gen__Outstanding_must_be_1_to_255"),
    ("cc_axi_rd_master", {"Id": 2}, "cc_axi_rd_master__Id_must_fit_in_IdW_bits"),
    ("cc_axi_wr_master", {"Id": 2}, "cc_axi_wr_master__Id_must_fit_in_IdW_bits"),
    ("cc_axil_slave", {"AddrW": 2}, "cc_axil_slave__AddrW_must_be_at_least_3"),
    ("softermax_axi", {"Vec": 6}, "softermax_axi__Vec_must_be_a_power_of_two_4_to_128"),
    ("softermax_axi", {"AxiAddrW": 8}, "softermax_axi__AxiAddrW_must_be_16_to_64"),
    ("softermax_axi", {"AxiDataW": 64}, "softermax_axi__AxiDataW_is_derived_do_not_set"),
    ("neummu_axi", {"AxiAddrW": 60}, "neummu_axi__AxiAddrW_must_be_16_to_52"),
    ("neunoc_axi", {"TW": 32}, "neunoc_axi__TW_is_derived_do_not_set"),
    ("neunoc_axi", {"QuietCycles": 0}, "neunoc_axi__QuietCycles_must_be_1_to_65535"),
]

# The format and latency rules every arithmetic float unit shares.
for _m in ["fp_add", "fp_mul", "fp_fma", "fp_i2f", "fp_f2i", "fp_divsqrt"]:
    CASES += [
        (_m, {"ExpW": 1}, _m + "__ExpW_must_be_2_to_30"),
        (_m, {"ExpW": 31}, _m + "__ExpW_must_be_2_to_30"),
        (_m, {"ManW": 1}, _m + "__ManW_must_be_at_least_2"),
        (_m, {"ExpW": 3, "ManW": 9}, _m + "__ManW_must_be_at_most_2_pow_ExpW"),
        (_m, {"Latency": -1}, _m + "__Latency_must_be_at_least_0"),
    ]


def module_file(module):
    for d in BLOCK_DIRS:
        f = os.path.join(d, module + ".v")
        if os.path.isfile(os.path.join(ROOT, f)):
            return d, f
    raise SystemExit("rtl_param_checks: no file for module %s in %s"
                     % (module, " ".join(BLOCK_DIRS)))


def dirs_of(d):
    return ["rtl/common"] + ([d] if d != "rtl/common" else [])


def vlt_of(d):
    return [os.path.join(x, "lint.vlt") for x in dirs_of(d)
            if os.path.isfile(os.path.join(ROOT, x, "lint.vlt"))]


def run(cmd, timeout=300):
    try:
        p = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           timeout=timeout)
        return p.returncode, p.stdout.decode(errors="replace")
    except subprocess.TimeoutExpired:
        return -1, "timeout after %d s" % timeout
    except OSError as e:
        return -1, "cannot run %s: %s" % (cmd[0], e.strerror)


def tool_verilator(module, params):
    d, f = module_file(module)
    cmd = ["verilator", "--lint-only", "-Wall"]
    for x in dirs_of(d):
        cmd += ["-y", x]
    cmd += vlt_of(d) + ["--top-module", module]
    cmd += ["-G%s=%d" % kv for kv in sorted(params.items())] + [f]
    return run(cmd)


def tool_iverilog(module, params):
    d, f = module_file(module)
    cmd = ["iverilog", "-g2005", "-Wall"]
    for x in dirs_of(d):
        cmd += ["-y", x, "-I", x]
    cmd += ["-s", module] + ["-P%s.%s=%d" % (module, k, v) for k, v in sorted(params.items())]
    cmd += ["-o", os.devnull, f]
    rc, out = run(cmd)
    return rc, iverilog_waivers.strip(out)


def yosys_value(v):
    """chparam takes Verilog constants but no minus sign: a negative integer as its 32-bit
    two's complement, signed."""
    return "%d" % v if v >= 0 else "32'sh%08x" % (v & 0xFFFFFFFF)


def tool_yosys(module, params):
    d, f = module_file(module)
    script = ["verilog_defaults -add %s" % " ".join("-I" + x for x in dirs_of(d)),
              "read_verilog -defer %s" % f]
    if params:
        script.append("chparam %s %s" % (" ".join("-set %s %s" % (k, yosys_value(v))
                                                  for k, v in sorted(params.items())), module))
    script.append("hierarchy -check %s -top %s"
                  % (" ".join("-libdir " + x for x in dirs_of(d)), module))
    with tempfile.NamedTemporaryFile("w", suffix=".ys", delete=False) as t:
        t.write("\n".join(script) + "\n")
        path = t.name
    try:
        return run(["yosys", "-q", "-s", path])
    finally:
        os.unlink(path)


TOOLS = [("verilator", tool_verilator), ("iverilog", tool_iverilog), ("yosys", tool_yosys)]


def check_case(case, tool):
    """An illegal case: the tool fails and prints the rule (or one of the alternatives)."""
    module, params, rules = case
    rules = (rules,) if isinstance(rules, str) else rules
    rc, out = tool[1](module, params)
    if rc == 0:
        return False, "passed (expected a failure naming %s)" % " or ".join(rules), out
    named = [r for r in rules if r in out]
    if not named:
        return False, "failed without naming %s" % " or ".join(rules), out
    return True, "fails naming %s" % named[0], out


def check_default(module, tool):
    """Default parameters: the tool passes (Verilator and Icarus silently; main() runs only
    Yosys, scripts/lint.py the other two)."""
    rc, out = tool[1](module, {})
    if rc != 0:
        return False, "default parameters fail (exit %d)" % rc, out
    if tool[0] != "yosys" and out.strip():
        return False, "default parameters print messages", out
    return True, "default parameters pass", out


def all_modules():
    mods = []
    for d in BLOCK_DIRS:
        mods += sorted(os.path.basename(f)[:-2] for f in glob.glob(os.path.join(ROOT, d, "*.v")))
    return mods


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--jobs", type=int, default=2, help="parallel tool runs (default 2)")
    ap.add_argument("--only", help="regular expression over the module names")
    ap.add_argument("--verbose", action="store_true", help="print the tool output of failures")
    a = ap.parse_args()

    for t, _ in TOOLS:
        if shutil.which(t) is None:
            print("rtl_param_checks: %s not found (scripts/install_tools.sh installs it)" % t)
    only = re.compile(a.only) if a.only else None
    jobs = []
    for m in all_modules():
        if not only or only.search(m):
            for tool in TOOLS[2:]:  # Verilator and Icarus defaults: scripts/lint.py
                jobs.append(("%s defaults" % m, tool,
                             lambda m=m, tool=tool: check_default(m, tool)))
    for case in CASES:
        if not only or only.search(case[0]):
            desc = "%s %s" % (case[0], " ".join("%s=%d" % kv for kv in sorted(case[1].items())))
            for tool in TOOLS:
                jobs.append((desc, tool, lambda case=case, tool=tool: check_case(case, tool)))

    npass = nfail = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as ex:
        futs = [(desc, tool, ex.submit(fn)) for desc, tool, fn in jobs]
        for desc, tool, fut in futs:
            ok, what, out = fut.result()
            npass += ok
            nfail += not ok
            print("%-4s %-62s %-9s %s" % ("ok" if ok else "FAIL", desc, tool[0], what), flush=True)
            if not ok and a.verbose:
                print("\n".join("     | " + l for l in out.strip().split("\n")[:20]))
    print("%d passed, %d failed" % (npass, nfail))
    return 1 if nfail else 0


if __name__ == "__main__":
    sys.exit(main())
