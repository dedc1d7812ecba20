# The CUDA architectures to build for, derived from the nvcc found (issue 34): the compute capabilities of the
# peak table (bench/targets/cuda/peak_table.cpp) that this nvcc can compile, each as native code, and the newest
# also as PTX so a newer GPU runs it through the driver's JIT. nvcc 11.8 added sm_89/sm_90, 12.8 sm_100; a fixed
# "80 86 89 90 100" failed on every nvcc before 12.8.
#   roofline_cuda_architectures(<nvcc version> <out variable>)
# Run as a script (cmake -DROOFLINE_NVCC_VERSION=12.4 -P this file) it prints the list: tests/ checks it there.
function(roofline_cuda_architectures version out)
  set(archs "")
  # compute capability, first nvcc version that compiles it
  foreach(pair "80;11.1" "86;11.1" "89;11.8" "90;11.8" "100;12.8")
    list(GET pair 0 cc)
    list(GET pair 1 since)
    if(NOT version VERSION_LESS since)
      list(APPEND archs ${cc})
    endif()
  endforeach()
  if(NOT archs)
    set(${out} "" PARENT_SCOPE)
    return()
  endif()
  list(POP_BACK archs newest)
  set(result "")
  foreach(cc IN LISTS archs)
    list(APPEND result "${cc}-real")
  endforeach()
  list(APPEND result "${newest}")  # native code and PTX
  set(${out} "${result}" PARENT_SCOPE)
endfunction()

if(CMAKE_SCRIPT_MODE_FILE AND DEFINED ROOFLINE_NVCC_VERSION)
  roofline_cuda_architectures("${ROOFLINE_NVCC_VERSION}" archs)
  message("${archs}")
endif()
