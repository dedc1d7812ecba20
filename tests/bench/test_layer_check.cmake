# test_layer_check: the layer check of cmake/RooflineLayers.cmake on a made-up tree (written under WORK_DIR): each
# way of reaching another target's header, or an analysis header (issue 47), and each include of a prefix outside
# the folder's uses (issue 47, step 5), is found, with its file and line; what the layers allow is not.
#   cmake -DROOFLINE_SOURCE_DIR=<source dir> -DWORK_DIR=<scratch dir> -P test_layer_check.cmake
# code-paths: made-up tree (tests/docs/check_code_paths.sh: the bench/ paths below are files of that tree)
cmake_policy(VERSION 3.25)  # script mode sets none: keep the empty lines of a file (CMP0007)
include(${ROOFLINE_SOURCE_DIR}/cmake/RooflineLayers.cmake)

set(root ${WORK_DIR}/tree)
file(REMOVE_RECURSE ${root})
function(put path)
  list(JOIN ARGN "\n" text)
  file(WRITE ${root}/${path} "${text}\n")
endfunction()

# What exists: each target's public and private headers, a harness header with the same prefix as the CPU's.
put(bench/harness/include/roofline/harness/gemm_shape.hpp "#pragma once")
put(bench/targets/cpu/include/roofline/cpu/gemm_plan.hpp "#pragma once" "#include \"roofline/harness/gemm_shape.hpp\"")
put(bench/targets/cpu/stream_arena.hpp "#pragma once")
put(bench/targets/opencl/include/roofline/opencl/work.hpp "#pragma once")
put(bench/targets/cuda/include/roofline/cuda/plan.hpp "#pragma once")
# Allowed: the harness, the standard library, a target's own headers (public and private), any other folder.
put(bench/targets/opencl/ok.cpp "#include <vector>" "#include \"roofline/harness/gemm_shape.hpp\""
    "#include \"roofline/opencl/work.hpp\"" "#include \"roofline/common/units.hpp\"")
put(bench/targets/cpu/ok.cpp "#include \"stream_arena.hpp\"" "#include \"roofline/cpu/gemm_plan.hpp\"")
# Forbidden, one way each.
put(bench/targets/opencl/bad.cpp "// a device target" "#include <string>" "" "#include \"roofline/cpu/gemm_plan.hpp\"")
put(bench/targets/cuda/bad.cpp "#  include <roofline/opencl/work.hpp>")
put(bench/targets/cuda/relative.cpp "#include \"../cpu/stream_arena.hpp\"")
put(bench/targets/opencl/rooted.cpp "#include \"bench/targets/cuda/include/roofline/cuda/plan.hpp\"")
put(bench/targets/cpu/bad.hpp "#pragma once" "#include \"roofline/cuda/plan.hpp\"")
put(bench/harness/bad.cpp "#include \"roofline/cpu/gemm_plan.hpp\"")
put(bench/facts/bad.cpp "#include \"roofline/opencl/work.hpp\"")
# The prefix rule (issue 47, step 5): each library folder includes only the prefixes it uses (ROOFLINE_LAYER_USES).
put(kernels/cuda/x.cpp "#include \"roofline/cpu/gemm_plan.hpp\"")
put(kernels/cpu/ok.cpp "#include \"roofline/common/units.hpp\"" "#include \"roofline/kernels/cpu/stream.hpp\"")
put(kernels/cpu/bad.cpp "#include \"roofline/kernels/cuda/check.hpp\"" "#include \"roofline/facts/machine.hpp\"")
put(bench/facts/harness.cpp "#include \"roofline/facts/machine.hpp\"" "#include \"roofline/harness/gemm_shape.hpp\"")
put(analysis/model/renders.cpp "#include \"roofline/model/plateaus.hpp\"" "#include \"roofline/report/report.hpp\"")
put(analysis/report/ok.cpp "#include \"roofline/model/plateaus.hpp\"" "#include \"roofline/report/report.hpp\"")
put(analysis/regress/ok.cpp "#include \"roofline/report/report.hpp\"" "#include <nlohmann/json.hpp>")
put(analysis/llm/gate.cpp "#include \"roofline/llm/model.hpp\"" "#include \"roofline/regress/judge.hpp\"")
put(bench/drivers/measures.cpp "#include \"roofline/harness/measure.hpp\"" "#include \"roofline/cli/cli.hpp\"")
put(bench/cli/everything.cpp "#include \"roofline/history/history.hpp\"" "#include \"roofline/cpu/gemm_plan.hpp\"")
# Analysis headers (issue 47): the CLI and the drivers derive, so they may include them; the harness, facts and the
# targets may not, by prefix (roofline/model/, roofline/report/, ..., roofline/llm/) or by a path into analysis/.
put(analysis/model/include/roofline/model/plateaus.hpp "#pragma once")
put(bench/cli/ok.cpp "#include \"roofline/model/roofline_section.hpp\"" "#include \"roofline/llm/model.hpp\"")
put(bench/drivers/ok.cpp "#include \"roofline/model/roofline_section.hpp\"")
put(bench/harness/derives.cpp "#include <vector>" "#include \"roofline/model/roofline_section.hpp\"")
put(bench/targets/cpu/llm.cpp "#include <roofline/llm/model.hpp>")
put(bench/targets/opencl/curve.hpp "#pragma once" "#include \"../../../analysis/model/include/roofline/model/plateaus.hpp\"")

roofline_layer_violations(${root} got)
set(expected
  "analysis/llm/gate.cpp:2: analysis/llm includes \"roofline/regress/judge.hpp\", a roofline/regress/ header (analysis/llm uses common, records, model, report, llm)"
  "analysis/model/renders.cpp:2: analysis/model includes \"roofline/report/report.hpp\", a roofline/report/ header (analysis/model uses common, records, model)"
  "bench/drivers/measures.cpp:2: bench/drivers includes \"roofline/cli/cli.hpp\", a roofline/cli/ header (bench/drivers uses common, kernels/cpu, facts, harness, model, regress, fleet, llm, drivers)"
  "bench/facts/bad.cpp:1: bench/facts includes \"roofline/opencl/work.hpp\", a header of the opencl target (bench/targets/opencl/include/roofline/opencl/work.hpp)"
  "bench/facts/harness.cpp:2: bench/facts includes \"roofline/harness/gemm_shape.hpp\", a roofline/harness/ header (bench/facts uses common, facts)"
  "bench/harness/bad.cpp:1: bench/harness includes \"roofline/cpu/gemm_plan.hpp\", a header of the cpu target (bench/targets/cpu/include/roofline/cpu/gemm_plan.hpp)"
  "bench/harness/derives.cpp:2: bench/harness includes \"roofline/model/roofline_section.hpp\", an analysis header"
  "bench/targets/cpu/bad.hpp:2: the cpu target includes \"roofline/cuda/plan.hpp\", a header of the cuda target (bench/targets/cuda/include/roofline/cuda/plan.hpp)"
  "bench/targets/cpu/llm.cpp:1: the cpu target includes \"roofline/llm/model.hpp\", an analysis header"
  "bench/targets/cuda/bad.cpp:1: the cuda target includes \"roofline/opencl/work.hpp\", a header of the opencl target (bench/targets/opencl/include/roofline/opencl/work.hpp)"
  "bench/targets/cuda/relative.cpp:1: the cuda target includes \"../cpu/stream_arena.hpp\", a header of the cpu target (bench/targets/cpu/stream_arena.hpp)"
  "bench/targets/opencl/bad.cpp:4: the opencl target includes \"roofline/cpu/gemm_plan.hpp\", a header of the cpu target (bench/targets/cpu/include/roofline/cpu/gemm_plan.hpp)"
  "bench/targets/opencl/curve.hpp:2: the opencl target includes \"../../../analysis/model/include/roofline/model/plateaus.hpp\", an analysis header (analysis/model/include/roofline/model/plateaus.hpp)"
  "bench/targets/opencl/rooted.cpp:1: the opencl target includes \"bench/targets/cuda/include/roofline/cuda/plan.hpp\", a header of the cuda target (bench/targets/cuda/include/roofline/cuda/plan.hpp)"
  "kernels/cpu/bad.cpp:1: kernels/cpu includes \"roofline/kernels/cuda/check.hpp\", a roofline/kernels/cuda/ header (kernels/cpu uses common, kernels/cpu)"
  "kernels/cpu/bad.cpp:2: kernels/cpu includes \"roofline/facts/machine.hpp\", a roofline/facts/ header (kernels/cpu uses common, kernels/cpu)"
  "kernels/cuda/x.cpp:1: kernels/cuda includes \"roofline/cpu/gemm_plan.hpp\", a roofline/cpu/ header (kernels/cuda uses common, kernels/cuda)")
if(NOT got STREQUAL expected)
  list(JOIN got "\n  " got_text)
  list(JOIN expected "\n  " expected_text)
  message(FATAL_ERROR "test_layer_check: got\n  ${got_text}\nexpected\n  ${expected_text}")
endif()

# The repository itself holds its layers.
roofline_layer_violations(${ROOFLINE_SOURCE_DIR} real)
if(real)
  list(JOIN real "\n  " real_text)
  message(FATAL_ERROR "test_layer_check: the repository breaks its layers:\n  ${real_text}")
endif()
list(LENGTH expected count)
message(STATUS "test_layer_check: ${count} violations found in the made-up tree, none in the repository")
