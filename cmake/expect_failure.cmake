# cmake -DCOMMAND="prog|arg|..." -DEXPECT=<regex> -P expect_failure.cmake
# A test of a refusal: passes when COMMAND (arguments separated by "|") exits
# non-zero and its output (stdout and stderr) matches EXPECT. ctest's
# PASS_REGULAR_EXPRESSION alone would ignore the exit status. Used by the RTL
# parameter-check tests (rtl/rtl.cmake, rtl_param_check.*).
string(REPLACE "|" ";" command "${COMMAND}")
execute_process(COMMAND ${command} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(output "${out}${err}")
if(status EQUAL 0)
  message(FATAL_ERROR "expected a failure, the command succeeded:\n${output}")
endif()
if(NOT output MATCHES "${EXPECT}")
  message(FATAL_ERROR "exit status ${status}, but the output does not match '${EXPECT}':\n${output}")
endif()
message(STATUS "refused as expected (exit status ${status}): ${CMAKE_MATCH_0}")
