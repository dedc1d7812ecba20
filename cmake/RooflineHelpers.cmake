# Small helpers shared by the folders: one way to add a library, a test binary, an ISA-specific source.

# roofline_add_library(NAME <target> ALIAS <ns::alias> SOURCES ... PUBLIC_DEPS ... PRIVATE_DEPS ...)
function(roofline_add_library)
  cmake_parse_arguments(ARG "" "NAME;ALIAS" "SOURCES;PUBLIC_DEPS;PRIVATE_DEPS" ${ARGN})
  add_library(${ARG_NAME} STATIC ${ARG_SOURCES})
  add_library(${ARG_ALIAS} ALIAS ${ARG_NAME})
  target_include_directories(${ARG_NAME} PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}/include)
  target_link_libraries(${ARG_NAME} PUBLIC ${ARG_PUBLIC_DEPS} PRIVATE ${ARG_PRIVATE_DEPS})
  roofline_warnings(${ARG_NAME})
endfunction()

# roofline_warnings(<target>): the warning flags every target of ours builds with (-Werror when
# ROOFLINE_WARNINGS_AS_ERRORS is on, as in CI).
function(roofline_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra)
  if(ROOFLINE_WARNINGS_AS_ERRORS)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()

# roofline_isa_sources(<target> <flags> <sources...>): compiles these sources with an ISA's target flags
# only, so one binary runs on any x86-64 and picks the kernels the CPU has at run time.
function(roofline_isa_sources target flags)
  target_sources(${target} PRIVATE ${ARGN})
  separate_arguments(flag_list UNIX_COMMAND "${flags}")
  set_source_files_properties(${ARGN} PROPERTIES COMPILE_OPTIONS "${flag_list}")
endfunction()

# roofline_add_test(NAME <binary> SOURCES ... DEPS ... [LABELS ...]): one GoogleTest binary, its tests
# discovered into ctest.
function(roofline_add_test)
  cmake_parse_arguments(ARG "" "NAME" "SOURCES;DEPS;LABELS" ${ARGN})
  add_executable(${ARG_NAME} ${ARG_SOURCES})
  target_link_libraries(${ARG_NAME} PRIVATE ${ARG_DEPS} GTest::gtest GTest::gtest_main)
  roofline_warnings(${ARG_NAME})
  # The shared test helpers: #include "support/...".
  target_include_directories(${ARG_NAME} PRIVATE ${PROJECT_SOURCE_DIR}/tests)
  target_compile_definitions(${ARG_NAME} PRIVATE
    ROOFLINE_TEST_DATA_DIR="${PROJECT_SOURCE_DIR}/tests/data"
    ROOFLINE_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
  include(GoogleTest)
  # gtest_discover_tests writes its PROPERTIES into set_tests_properties split at every ';' (CMake 3.25; CMake issue
  # 17812), so a second label ("cli;opencl") became a stray word and was lost: `ctest -L opencl` missed test_cli_opencl.
  # The discovery gets the first label (every test it finds, whatever its name); a file ctest includes after the
  # discovery's own then gives the tests it listed (${NAME}_TESTS: all but names with brackets) every label.
  set(first_label "")
  if(ARG_LABELS)
    list(GET ARG_LABELS 0 first_label)
  endif()
  gtest_discover_tests(${ARG_NAME} DISCOVERY_TIMEOUT 60 TEST_LIST ${ARG_NAME}_TESTS PROPERTIES LABELS "${first_label}")
  list(LENGTH ARG_LABELS label_count)
  if(label_count GREATER 1)
    set(labels_file ${CMAKE_CURRENT_BINARY_DIR}/${ARG_NAME}_labels.cmake)
    file(WRITE ${labels_file}
         "if(DEFINED ${ARG_NAME}_TESTS)\n  set_tests_properties(\${${ARG_NAME}_TESTS} PROPERTIES LABELS \"${ARG_LABELS}\")\nendif()\n")
    set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES ${labels_file})
  endif()
endfunction()
