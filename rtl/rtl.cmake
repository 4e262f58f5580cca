# RTL: Verilated models of the controller blocks (C++ mode, not --sc), the
# lock-step cross-check tests against the C++ golden models, and lint/Yosys
# checks. Included from the top-level CMakeLists.txt (include(rtl/rtl.cmake)).
#
#   gpupm_rtl_models   static library: every verilated configuration (gpupm_model links it)
#   gpupm_rtl_golden   static library: the golden models' sources (plain C++)
#   gpupm_rtl_tests    GoogleTest executable (tb/*_tb.cc), one ctest per test
#   gpupm_lockstep_tests  GoogleTest executable (tests/lockstep_tests.cc): `gpupm run`
#                      with controller_impl cpp / rtl / lockstep, one ctest per test
#   rtl_lint.*         ctest: verilator --lint-only -Wall per top and parameter set
#   rtl_yosys.*        ctest: yosys read_verilog -sv + synth + check -assert per top
#   rtl_param_check.*  ctest: an illegal parameter value stops Verilator and Yosys
#                      with the module's message (the elaboration-time checks)
#
# Full-length run: GPUPM_TB_CYCLES=1000000 build/gpupm_rtl_tests (ctest uses 200000).
# Synthesis, timing and equivalence report: scripts/rtl/synth.py (docs/rtl_report.md).

set(GPUPM_RTL_DIR ${CMAKE_CURRENT_LIST_DIR})

# Parameter sets: prefix|top|sources variable|-G overrides (comma-separated).
# Adding one here is all the platform needs (controller_impl rtl / lockstep
# find it through the generated rtl_configs.h); the testbenches (tb/) name
# each prefix with its own stimulus.
set(GPUPM_RTL_CONFIGS
  "Veq_sm_block|eq_sm_block|GPUPM_EQ_SM_BLOCK_SV|"
  "Veq_sm_block_w64s2e3|eq_sm_block|GPUPM_EQ_SM_BLOCK_SV|-GWARPS=64,-GSAMPLE_LOG2=2,-GEPOCH_LOG2=3"
  "Veq_sm_block_w13s0e1|eq_sm_block|GPUPM_EQ_SM_BLOCK_SV|-GWARPS=13,-GSAMPLE_LOG2=0,-GEPOCH_LOG2=1"
  "Veq_sm_block_w64|eq_sm_block|GPUPM_EQ_SM_BLOCK_SV|-GWARPS=64"
  "Vvote_arbiter|vote_arbiter|GPUPM_VOTE_ARBITER_SV|"
  "Vvote_arbiter_n4|vote_arbiter|GPUPM_VOTE_ARBITER_SV|-GN_SMS=4"
  "Vvote_arbiter_n64|vote_arbiter|GPUPM_VOTE_ARBITER_SV|-GN_SMS=64"
  "Vvote_arbiter_n60|vote_arbiter|GPUPM_VOTE_ARBITER_SV|-GN_SMS=60"
  "Vdroop_predictor|droop_predictor|GPUPM_DROOP_PREDICTOR_SV|"
  "Vdroop_predictor_s1|droop_predictor|GPUPM_DROOP_PREDICTOR_SV|-GSLOTS=1"
  "Vdroop_predictor_s4|droop_predictor|GPUPM_DROOP_PREDICTOR_SV|-GSLOTS=4"
  "Vstagger_unit|stagger_unit|GPUPM_STAGGER_UNIT_SV|"
  "Vstagger_unit_n32r16|stagger_unit|GPUPM_STAGGER_UNIT_SV|-GN_SMS=32,-GREPORT_PERIOD=16"
  "Vstagger_unit_n4r1w1|stagger_unit|GPUPM_STAGGER_UNIT_SV|-GN_SMS=4,-GREPORT_PERIOD=1,-GWINDOW_SLOTS=1"
  "Vstagger_unit_n60|stagger_unit|GPUPM_STAGGER_UNIT_SV|-GN_SMS=60")
# Tops verilated for their testbench only (not in the platform, not in rtl_configs.h):
# eq_decision alone at the default sums, the widest (16-bit sums, ThrW < SUM_W) and a
# narrow one (5-bit sums, ThrW > SUM_W).
set(GPUPM_RTL_TB_CONFIGS
  "Veq_decision|eq_decision|GPUPM_EQ_DECISION_SV|"
  "Veq_decision_s16e9|eq_decision|GPUPM_EQ_DECISION_SV|-GSUM_W=16,-GEPOCH_LOG2=9"
  "Veq_decision_s5e1|eq_decision|GPUPM_EQ_DECISION_SV|-GSUM_W=5,-GEPOCH_LOG2=1"
  # The stagger unit's widest (64 SMs: the 7-bit pending count, a report every cycle) and
  # 33 SMs (the smallest above 32: a last step copy of one SM).
  "Vstagger_unit_n64r1w1|stagger_unit|GPUPM_STAGGER_UNIT_SV|-GN_SMS=64,-GREPORT_PERIOD=1,-GWINDOW_SLOTS=1"
  "Vstagger_unit_n33|stagger_unit|GPUPM_STAGGER_UNIT_SV|-GN_SMS=33")

# The parameter sets as C++ (build/generated/rtl_configs.h) for the blocks'
# factories (sc_model/controllers/*_controller.cc, the only sources that include it),
# also in builds without Verilator (they refuse rtl / lockstep with the list).
include(${CMAKE_SOURCE_DIR}/cmake/rtl_configs.cmake)
gpupm_write_rtl_configs(${CMAKE_BINARY_DIR}/generated/rtl_configs.h)
file(GLOB _gpupm_controller_factories CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/sc_model/controllers/*_controller.cc)
set_property(SOURCE ${_gpupm_controller_factories} APPEND PROPERTY INCLUDE_DIRECTORIES ${CMAKE_BINARY_DIR}/generated)

find_package(verilator HINTS /usr/share/verilator $ENV{VERILATOR_ROOT})
if(NOT verilator_FOUND)
  message(STATUS "gpupm RTL: Verilator not found, RTL co-simulation tests disabled")
  return()
endif()
find_program(GPUPM_VERILATOR_EXE verilator HINTS ${VERILATOR_ROOT}/bin)
find_program(GPUPM_YOSYS_EXE yosys)

set(GPUPM_EQ_DECISION_SV
  ${GPUPM_RTL_DIR}/gpupm_pkg.sv
  ${GPUPM_RTL_DIR}/eq_decision.sv)
set(GPUPM_EQ_SM_BLOCK_SV
  ${GPUPM_RTL_DIR}/gpupm_pkg.sv
  ${GPUPM_RTL_DIR}/popcount8.sv
  ${GPUPM_RTL_DIR}/popcount.sv
  ${GPUPM_RTL_DIR}/eq_warp_sample.sv
  ${GPUPM_RTL_DIR}/eq_decision.sv
  ${GPUPM_RTL_DIR}/eq_sm_block.sv)
set(GPUPM_VOTE_ARBITER_SV
  ${GPUPM_RTL_DIR}/gpupm_pkg.sv
  ${GPUPM_RTL_DIR}/popcount8.sv
  ${GPUPM_RTL_DIR}/popcount.sv
  ${GPUPM_RTL_DIR}/vote_count.sv
  ${GPUPM_RTL_DIR}/vote_arbiter.sv)
set(GPUPM_DROOP_PREDICTOR_SV
  ${GPUPM_RTL_DIR}/gpupm_pkg.sv
  ${GPUPM_RTL_DIR}/droop_predictor.sv)
set(GPUPM_STAGGER_UNIT_SV
  ${GPUPM_RTL_DIR}/gpupm_pkg.sv
  ${GPUPM_RTL_DIR}/popcount8.sv
  ${GPUPM_RTL_DIR}/stagger_mult.sv
  ${GPUPM_RTL_DIR}/stagger_unit.sv)

# gpupm_rtl_fields(ENTRY VAR...): the "|"-separated fields of a table entry into VAR...
function(gpupm_rtl_fields entry)
  string(REPLACE "|" ";" fields "${entry}")
  set(i 0)
  foreach(var IN LISTS ARGN)
    list(GET fields ${i} value)
    set(${var} "${value}" PARENT_SCOPE)
    math(EXPR i "${i} + 1")
  endforeach()
endfunction()

# Each parameter set verilated, and linted (no waivers but gpupm_pkg's) as its own ctest.
add_library(gpupm_rtl_models STATIC)
foreach(cfg IN LISTS GPUPM_RTL_CONFIGS GPUPM_RTL_TB_CONFIGS)
  gpupm_rtl_fields("${cfg}" prefix top srcvar gparams)
  string(REPLACE "," ";" gparams "${gparams}")
  verilate(gpupm_rtl_models TRACE PREFIX ${prefix} TOP_MODULE ${top}
    SOURCES ${${srcvar}}
    VERILATOR_ARGS -Wall ${gparams})
  if(GPUPM_VERILATOR_EXE)
    string(REGEX REPLACE "^V" "" lint_name ${prefix})
    add_test(NAME rtl_lint.${lint_name}
      COMMAND ${GPUPM_VERILATOR_EXE} --lint-only -Wall --top-module ${top} ${gparams} ${${srcvar}})
    set_tests_properties(rtl_lint.${lint_name} PROPERTIES LABELS rtl)
  endif()
endforeach()

# One unity file per verilated model (a model's generated files are made to be
# concatenated; two models' files are not), the Verilator runtime in another.
get_target_property(_gpupm_rtl_srcs gpupm_rtl_models SOURCES)
foreach(src IN LISTS _gpupm_rtl_srcs)
  if(NOT src MATCHES "\\.(cpp|cc)$")
    continue()
  endif()
  if(src MATCHES "/(V[A-Za-z0-9_]+)\\.dir/")
    set_source_files_properties(${src} TARGET_DIRECTORY gpupm_rtl_models PROPERTIES UNITY_GROUP ${CMAKE_MATCH_1})
  else()
    set_source_files_properties(${src} TARGET_DIRECTORY gpupm_rtl_models PROPERTIES UNITY_GROUP verilated_runtime)
  endif()
endforeach()
set_target_properties(gpupm_rtl_models PROPERTIES UNITY_BUILD ON UNITY_BUILD_MODE GROUP)
target_compile_options(gpupm_rtl_models PRIVATE -O2 -w)
set_target_properties(gpupm_rtl_models PROPERTIES POSITION_INDEPENDENT_CODE ON)  # as gpupm_model: linkable into a shared library
# verilate() sets these privately; consumers of verilated.h need them too.
target_compile_definitions(gpupm_rtl_models INTERFACE VM_SC=0 VM_TRACE=1 VM_TRACE_VCD=1 VM_TRACE_FST=0
  VM_COVERAGE=0)
# Verilator's headers as system includes: the testbenches compile with -Wall -Wextra.
get_target_property(_gpupm_rtl_incs gpupm_rtl_models INTERFACE_INCLUDE_DIRECTORIES)
set_target_properties(gpupm_rtl_models PROPERTIES INTERFACE_SYSTEM_INCLUDE_DIRECTORIES "${_gpupm_rtl_incs}")
find_package(Threads REQUIRED)
target_link_libraries(gpupm_rtl_models PUBLIC Threads::Threads)

# The platform runs the controller blocks as RTL too (GPU config controller_impl
# rtl / lockstep; sc_model/controllers/eq_sm_block_controller.*, sc_model/controllers/vote_arbiter_controller.*):
# gpupm_model (and so gpupm, gpupm_tests) links the Verilated models.
target_link_libraries(gpupm_model PUBLIC gpupm_rtl_models)
target_compile_definitions(gpupm_model PUBLIC GPUPM_HAVE_RTL=1)
target_compile_definitions(gpupm_plugin_api INTERFACE GPUPM_HAVE_RTL=1)  # the same headers as the model's

# The golden models as plain C++ (no SystemC): gpupm_model links libsystemc,
# whose main() would call an sc_main this executable does not have.
add_library(gpupm_rtl_golden STATIC
  ${CMAKE_SOURCE_DIR}/sc_model/controllers/eq_decision.cc
  ${CMAKE_SOURCE_DIR}/sc_model/controllers/eq_sm_block.cc
  ${CMAKE_SOURCE_DIR}/sc_model/controllers/vote_arbiter.cc
  ${CMAKE_SOURCE_DIR}/sc_model/controllers/droop_predictor.cc
  ${CMAKE_SOURCE_DIR}/sc_model/controllers/stagger_unit.cc)
target_include_directories(gpupm_rtl_golden PUBLIC ${GPUPM_BUILD_INCLUDE})

add_executable(gpupm_rtl_tests
  ${CMAKE_SOURCE_DIR}/tb/eq_decision_tb.cc
  ${CMAKE_SOURCE_DIR}/tb/eq_sm_block_tb.cc
  ${CMAKE_SOURCE_DIR}/tb/vote_arbiter_tb.cc
  ${CMAKE_SOURCE_DIR}/tb/droop_predictor_tb.cc
  ${CMAKE_SOURCE_DIR}/tb/stagger_unit_tb.cc)
target_include_directories(gpupm_rtl_tests PRIVATE ${CMAKE_SOURCE_DIR}/tb)
target_link_libraries(gpupm_rtl_tests PRIVATE gpupm_rtl_models gpupm_rtl_golden GTest::gtest_main)
target_compile_definitions(gpupm_rtl_tests PRIVATE GPUPM_HAVE_RTL=1)  # controllers/rtl_harness.h
gtest_discover_tests(gpupm_rtl_tests
  PROPERTIES ENVIRONMENT "GPUPM_TB_CYCLES=200000" LABELS rtl
  DISCOVERY_TIMEOUT 60)

# The platform's controller_impl cpp / rtl / lockstep through `gpupm run`
# (tests/lockstep_tests.cc): bit-identical reports, injected faults caught, bad
# values rejected, and the CI subset of the Equalizer experiment in lockstep.
add_executable(gpupm_lockstep_tests ${CMAKE_SOURCE_DIR}/tests/lockstep_tests.cc
  ${CMAKE_SOURCE_DIR}/tests/support/test_support.cc ${CMAKE_SOURCE_DIR}/tests/support/report_runner.cc)
target_include_directories(gpupm_lockstep_tests PRIVATE ${CMAKE_SOURCE_DIR}/tests)
target_link_libraries(gpupm_lockstep_tests PRIVATE nlohmann_json::nlohmann_json GTest::gtest_main)
add_dependencies(gpupm_lockstep_tests gpupm)
gtest_discover_tests(gpupm_lockstep_tests
  PROPERTIES LABELS rtl TIMEOUT 900
  DISCOVERY_TIMEOUT 60)

# Yosys acceptance per top (lint: above, with the verilated sets).
if(GPUPM_YOSYS_EXE)
  foreach(top eq_decision eq_sm_block vote_arbiter droop_predictor stagger_unit)
    string(TOUPPER "GPUPM_${top}_SV" srcvar)
    set(srcs ${${srcvar}})
    list(JOIN srcs " " srcs)
    add_test(NAME rtl_yosys.${top}
      COMMAND ${GPUPM_YOSYS_EXE} -q -p "read_verilog -sv ${srcs}; synth -top ${top}; check -assert")
    set_tests_properties(rtl_yosys.${top} PROPERTIES LABELS rtl)
  endforeach()
endif()

# Elaboration-time parameter checks: top|sources variable|NAME=value[,NAME=value]
# (an illegal set)|the message expected (a regular expression). Each runs through
# Verilator (-G) and Yosys (chparam); both must exit non-zero with the message.
set(GPUPM_RTL_BAD_PARAMS
  "eq_sm_block|GPUPM_EQ_SM_BLOCK_SV|WARPS=65|eq_sm_block: WARPS must be 1..64"
  "eq_sm_block|GPUPM_EQ_SM_BLOCK_SV|SAMPLE_LOG2=12|eq_sm_block: SAMPLE_LOG2 . EPOCH_LOG2 must be 1..16"
  "eq_sm_block|GPUPM_EQ_SM_BLOCK_SV|WARPS=64,SAMPLE_LOG2=6,EPOCH_LOG2=10|eq_sm_block: the epoch sums need more than 16"
  "eq_sm_block|GPUPM_EQ_SM_BLOCK_SV|SUM_W=8|eq_sm_block: CNT_W, CYC_W and SUM_W are derived"
  "eq_decision|GPUPM_EQ_DECISION_SV|SUM_W=17|eq_decision: SUM_W must be 1..16"
  "vote_arbiter|GPUPM_VOTE_ARBITER_SV|N_SMS=65|vote_arbiter: N_SMS must be 1..64"
  "droop_predictor|GPUPM_DROOP_PREDICTOR_SV|SLOTS=5|droop_predictor: SLOTS must be 1..4"
  "stagger_unit|GPUPM_STAGGER_UNIT_SV|N_SMS=65|stagger_unit: N_SMS must be 1..64"
  "stagger_unit|GPUPM_STAGGER_UNIT_SV|REPORT_PERIOD=17|stagger_unit: REPORT_PERIOD must be 1..16"
  "stagger_unit|GPUPM_STAGGER_UNIT_SV|WINDOW_SLOTS=4|stagger_unit: WINDOW_SLOTS must be 1..3")
foreach(bad IN LISTS GPUPM_RTL_BAD_PARAMS)
  gpupm_rtl_fields("${bad}" top srcvar values expect)
  string(REPLACE "," ";" values "${values}")
  string(REPLACE ";" "_" name "${top}.${values}")
  string(REPLACE "=" "_" name "${name}")
  if(GPUPM_VERILATOR_EXE)
    list(TRANSFORM values PREPEND "-G" OUTPUT_VARIABLE gparams)
    list(JOIN gparams "|" gparams)
    list(JOIN ${srcvar} "|" srcs)
    add_test(NAME rtl_param_check.verilator.${name}
      COMMAND ${CMAKE_COMMAND} "-DEXPECT=${expect}"
              "-DCOMMAND=${GPUPM_VERILATOR_EXE}|--lint-only|-Wall|--top-module|${top}|${gparams}|${srcs}"
              -P ${CMAKE_SOURCE_DIR}/cmake/expect_failure.cmake)
    set_tests_properties(rtl_param_check.verilator.${name} PROPERTIES LABELS rtl)
  endif()
  if(GPUPM_YOSYS_EXE)
    list(JOIN ${srcvar} " " srcs)
    set(chparams "")
    foreach(v IN LISTS values)
      string(REPLACE "=" " " v "${v}")
      string(APPEND chparams "chparam -set ${v} ${top}\n")
    endforeach()
    set(script ${CMAKE_BINARY_DIR}/rtl_param_check/${name}.ys)
    file(WRITE ${script} "read_verilog -sv ${srcs}\n${chparams}hierarchy -check -top ${top}\n")
    add_test(NAME rtl_param_check.yosys.${name}
      COMMAND ${CMAKE_COMMAND} "-DEXPECT=${expect}" "-DCOMMAND=${GPUPM_YOSYS_EXE}|-q|-s|${script}"
              -P ${CMAKE_SOURCE_DIR}/cmake/expect_failure.cmake)
    set_tests_properties(rtl_param_check.yosys.${name} PROPERTIES LABELS rtl)
  endif()
endforeach()

# Area/timing report and the pre/post-synthesis equivalence check (Yosys, OpenSTA,
# OSU 0.18 um cells fetched on first use); minutes, so it runs beside the rest.
find_package(Python3 COMPONENTS Interpreter)
if(Python3_Interpreter_FOUND)
  add_test(NAME rtl_synth_report
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/scripts/rtl/synth.py --build-dir ${CMAKE_BINARY_DIR}
            --markdown ${CMAKE_BINARY_DIR}/rtl_report.md --check ${CMAKE_SOURCE_DIR}/docs/rtl_report.md)
  set_tests_properties(rtl_synth_report PROPERTIES LABELS "rtl;synth" TIMEOUT 1800 COST 90)
  # The register-correspondence proof (scripts/rtl/regcorr.py) on a small design: passes on a restructured
  # netlist, fails naming the register on a planted difference. Seconds.
  find_program(GPUPM_YOSYS_ABC_EXE yosys-abc)
  if(GPUPM_YOSYS_EXE AND GPUPM_YOSYS_ABC_EXE)
    add_test(NAME rtl_regcorr COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/scripts/rtl/regcorr_test.py)
    set_tests_properties(rtl_regcorr PROPERTIES LABELS rtl TIMEOUT 300)
  endif()
endif()
