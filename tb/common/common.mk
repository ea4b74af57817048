# Harnesses of the shared cells in rtl/common (see rtl/common/README.md).
# $(eval $(call HARNESS,<name>,<top module>,<harness .cpp>,<verilator -G flags>))
