# Eigen chooses its SIMD code at compile time, so the portable binary holds one copy of the Eigen GEMM
# per ISA level and picks one at run time (kernels/cpu/gemm_eigen.cpp). Template code instantiated in
# several objects is normally merged by the linker, which could run an AVX-512 copy on a CPU without
# it; so each copy is compiled with hidden visibility and its object rewritten with every hidden symbol
# made local and its COMDAT groups dropped (objcopy --localize-hidden -R .group): the copies can no
# longer be merged with each other or with Eigen code elsewhere. Only the entry points stay global.

# roofline_eigen_variant(<target> <variant> <flags>): adds the localized object of
# kernels/cpu/gemm_eigen_variant.cpp built with <flags> to <target>.
function(roofline_eigen_variant target variant flags)
  if(NOT CMAKE_OBJCOPY)
    message(FATAL_ERROR "roofline: objcopy (binutils) is needed to build the Eigen ISA variants")
  endif()
  set(obj roofline_eigen_${variant})
  add_library(${obj} OBJECT ${CMAKE_CURRENT_SOURCE_DIR}/gemm_eigen_variant.cpp)
  roofline_warnings(${obj})
  separate_arguments(flag_list UNIX_COMMAND "${flags}")
  target_compile_options(${obj} PRIVATE ${flag_list} -fvisibility=hidden -fvisibility-inlines-hidden
                                        -fno-gnu-unique -Wno-maybe-uninitialized)
  target_compile_definitions(${obj} PRIVATE ROOFLINE_EIGEN_VARIANT=${variant})
  target_link_libraries(${obj} PRIVATE Eigen3::Eigen OpenMP::OpenMP_CXX)
  set(local_obj ${CMAKE_CURRENT_BINARY_DIR}/roofline_eigen_${variant}_local.o)
  add_custom_command(
    OUTPUT ${local_obj}
    COMMAND ${CMAKE_OBJCOPY} --localize-hidden -R .group $<TARGET_OBJECTS:${obj}> ${local_obj}
    DEPENDS ${obj} $<TARGET_OBJECTS:${obj}>
    COMMENT "Localizing the Eigen ${variant} copy's symbols"
    VERBATIM)
  set_source_files_properties(${local_obj} PROPERTIES EXTERNAL_OBJECT TRUE GENERATED TRUE)
  target_sources(${target} PRIVATE ${local_obj})
endfunction()
