// cc_param_check.vh -- the elaboration-time parameter check, one macro for all three tools.
//
// Purpose: `CC_PARAM_FAIL(<module>__<rule>) inside a generate-if whose condition is the broken
//   rule stops elaboration with the rule as the message (rtl/common/README.md, "Parameters and
//   their checks"):
//
//     if (Depth < 1) begin : gen_check_depth
//       `CC_PARAM_FAIL(cc_fifo__Depth_must_be_at_least_1)
//     end
//
//   Icarus and Yosys look up only the modules of the generate branches they elaborate, so there
//   it is the instance of a module that does not exist, named after the rule. Verilator looks
//   up every instance before it evaluates a generate condition (it would reject the missing
//   module even with legal parameters), so there it is an elaboration-time $fatal. The rule is
//   a plain identifier; the Verilator form turns it into the message string.
//
//   No include guard: every file that uses the macro includes this one, and the definition is
//   the same each time. Icarus 11 crashes on a guarded macro with an argument used in a file it
//   loads from a -y library (the guard is set, and the macro it carries over is broken).
`ifdef VERILATOR
`define CC_PARAM_FAIL(rule) $fatal(1, `"rule`");
`else
`define CC_PARAM_FAIL(rule) rule u_param_error ();
`endif
