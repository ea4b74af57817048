# tb_san.mk -- the ASan/UBSan build of a Verilator harness, beside its normal build.
#
# Purpose: read after a harness's generated makefile (make -C <dir> -f V<top>.mk -f tb_san.mk
#   $(SAN_BIN)); it compiles the harness's own C++ (VM_USER_CLASSES: the harness main and
#   tb_lib) with AddressSanitizer and UndefinedBehaviorSanitizer into san_*.o and links them with
#   the same Verilated model and run-time objects as the normal build, and with the sanitized
#   build of the C models instead of the plain one.
#   What is instrumented: the harness, tb_lib and the C models -- the hand-written C and C++.
#   What is not: Verilator's generated model and its run-time library. They come from the
#   normal build unchanged (ASan accepts uninstrumented objects), so the sanitized harness
#   costs two C++ compiles, not a second Verilator build (docs/harness.md, "Sanitized harnesses").
# Variables (from the Makefile's HARNESS_SAN_RULE):
#   SAN_BIN        the binary to make (<harness>-san)
#   SAN_FLAGS      the sanitizer flags
#   MODEL_LIB      the plain model library in the harness's link line (absolute path)
#   SAN_MODEL_LIB  its sanitized replacement (absolute path)
SAN_OBJS := $(addprefix san_,$(addsuffix .o,$(VM_USER_CLASSES)))

san_%.o: %.cpp
	$(OBJCACHE) $(CXX) $(CXXFLAGS) $(CPPFLAGS) -O1 -g $(SAN_FLAGS) -c -o $@ $<

$(SAN_BIN): $(SAN_OBJS) $(VK_GLOBAL_OBJS) $(VM_PREFIX)__ALL.a $(VM_HIER_LIBS)
	$(LINK) $(LDFLAGS) $(SAN_FLAGS) $^ $(LOADLIBES) \
	  $(patsubst $(MODEL_LIB),$(SAN_MODEL_LIB),$(LDLIBS)) $(LIBS) -o $@
