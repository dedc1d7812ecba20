# test_code_paths: check_code_paths.sh on a made-up tree (written under WORK_DIR): a comment and a string literal
# each name a path that exists and one that does not, from a top-level folder and as an included header; exactly the
# stale ones are reported, one line each with file and line, and the check fails. Patterns, results files a run writes,
# #include lines, the recorded data under tests/data and build outputs are not read as paths.
#   cmake -DROOFLINE_SOURCE_DIR=<source dir> -DWORK_DIR=<scratch dir> -P test_code_paths.cmake
# code-paths: made-up tree (the paths below are files of that tree)
cmake_policy(VERSION 3.25)

set(root ${WORK_DIR}/tree)
file(REMOVE_RECURSE ${root})
function(put path)
  list(JOIN ARGN "\n" text)
  file(WRITE ${root}/${path} "${text}\n")
endfunction()

# What exists.
put(common/include/roofline/common/units.hpp "#pragma once")
put(bench/harness/include/roofline/harness/gemm_shape.hpp "#pragma once")
put(scripts/build "#!/bin/sh")
# The file under test: good and stale paths in comments and in strings.
file(WRITE ${root}/bench/harness/sweep.cpp [=[
// The sweep (bench/harness/sweep.cpp) and its shapes (roofline/harness/gemm_shape.hpp).
// Replaces bench/harness/sweep_stop.cpp; see roofline/harness/sweep_stop.hpp.
#include "roofline/harness/generated.hpp"
const char* kNote = "built by scripts/build, in units of roofline/common/units.hpp";
const char* kRule = "at most the budget (bench/targets/cpu/cpu_plan.hpp, roofline/cpu/cpu_plan.hpp)";
// Patterns and what a run writes: results/<host>_<date>.json, kernels/cpu/*.cpp, {a,b}/x, roofline/<p>/<n>.hpp,
// results/llm/model.json, $ROOT/bench/x.cpp, build/release/bench/x.cpp.
]=])
# Other kinds of files the check reads, and a stale path in each.
put(bench/CMakeLists.txt "# sources: bench/harness/sweep.cpp, bench/harness/stop.cpp")
put(tests/docs/tool.py "HELP = 'run scripts/build, then scripts/gone'")
# Not read: the docs (check_paths.sh's), recorded data, build outputs, another made-up tree.
put(README.md "bench/harness/missing.cpp")
put(tests/data/make_fixtures.py "# bench/harness/missing.cpp")
put(build/release/generated.cpp "// bench/harness/missing.cpp")
put(tests/other_tree.cmake "# code-paths: made-up tree" "# bench/harness/missing.cpp")

execute_process(COMMAND ${ROOFLINE_SOURCE_DIR}/tests/docs/check_code_paths.sh ${root}
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
string(REGEX REPLACE "\n$" "" out "${out}")
string(REPLACE "\n" ";" got "${out}")
list(POP_BACK got summary)
set(expected
  "bench/CMakeLists.txt:1: names 'bench/harness/stop.cpp', which does not exist"
  "bench/harness/sweep.cpp:2: names 'bench/harness/sweep_stop.cpp', which does not exist"
  "bench/harness/sweep.cpp:2: names 'roofline/harness/sweep_stop.hpp', which does not exist"
  "bench/harness/sweep.cpp:5: names 'bench/targets/cpu/cpu_plan.hpp', which does not exist"
  "bench/harness/sweep.cpp:5: names 'roofline/cpu/cpu_plan.hpp', which does not exist"
  "tests/docs/tool.py:1: names 'scripts/gone', which does not exist")
if(NOT got STREQUAL expected OR rc EQUAL 0 OR NOT err STREQUAL "")
  list(JOIN got "\n  " got_text)
  list(JOIN expected "\n  " expected_text)
  message(FATAL_ERROR "test_code_paths: exit ${rc}, got\n  ${got_text}\nexpected\n  ${expected_text}\nstderr: ${err}")
endif()
# 6 good and 6 stale paths; 7 files read (README.md, tests/data and build/ not among them), the marked one skipped.
string(CONCAT want "^12 paths checked \\(8 from a top-level folder, 4 headers by include name\\) in 7 source and build "
                   "files \\(made-up trees skipped: 1\\), 6 missing$")
if(NOT summary MATCHES "${want}")
  message(FATAL_ERROR "test_code_paths: summary '${summary}'")
endif()
list(LENGTH expected count)
message(STATUS "test_code_paths: the ${count} stale paths of the made-up tree found, and only those")
