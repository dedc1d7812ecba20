# The layers of bench/ enforced by the build (issues 35, 47): no target includes another target's headers, the shared
# layers under the targets (bench/harness, bench/facts) include none, and none of them includes an analysis header
# (roofline/model/, report/, regress/, history/, fleet/, llm/: the measuring side measures, bench/cli and
# bench/drivers derive). A
# target's includes are common, kernels, the harness and facts, and its own headers; what two targets both need
# belongs in bench/harness (e.g. harness/include/roofline/harness/gemm_shape.hpp: the GEMM weight shape every target
# starts from), and what the measuring side and the analysis both need belongs in a library below both.
#
# Linking already keeps most of it (a library sees only the headers of what it links: the device targets link
# roofline::harness, not roofline::target_cpu), but not all: a library that links the model for another reason
# sees its headers, a target not built here (CUDA without nvcc) is never compiled, and a relative
# include ("../cpu/stream_arena.hpp") needs no include directory at all. So every #include of every file under
# those folders is resolved by name against each other target's folder and its include/ directory, and against the
# analysis headers' prefixes and folder:
#  - at configure time (roofline_check_layers() from the top-level CMakeLists.txt): a violation is a FATAL_ERROR;
#  - at build time: the target roofline_layer_check re-runs the same check whenever one of those files changes,
#    and the libraries of bench/ wait for it, so an include added after configuring fails the build too;
#  - tests/bench/test_layer_check.cmake (ctest test_layer_check) checks the check on a made-up tree.
# Script mode: cmake -DROOT=<source dir> [-DSTAMP=<file>] -P cmake/RooflineLayers.cmake

# The targets (bench/targets/<name>) and the shared layers below them (folders of bench/ that include no target).
set(ROOFLINE_LAYER_TARGETS cpu opencl cuda)
set(ROOFLINE_LAYER_SHARED harness facts)
set(ROOFLINE_LAYER_EXTENSIONS cpp hpp h cu cuh)
# The include prefixes of the analysis libraries (analysis/<lib>/include/roofline/<lib>/), as one regex alternation.
set(ROOFLINE_LAYER_ANALYSIS_PREFIXES "model|report|regress|history|fleet|llm")

# The files the check reads under `root`, in `out_var` (a check's input, not a source list: globbing is the point).
# In project mode the glob is CONFIGURE_DEPENDS, so that a file added later re-runs the configure-time check.
function(roofline_layer_files root out_var)
  set(patterns)
  foreach(dir IN LISTS ROOFLINE_LAYER_TARGETS)
    foreach(ext IN LISTS ROOFLINE_LAYER_EXTENSIONS)
      list(APPEND patterns ${root}/bench/targets/${dir}/*.${ext})
    endforeach()
  endforeach()
  foreach(dir IN LISTS ROOFLINE_LAYER_SHARED)
    foreach(ext IN LISTS ROOFLINE_LAYER_EXTENSIONS)
      list(APPEND patterns ${root}/bench/${dir}/*.${ext})
    endforeach()
  endforeach()
  if(CMAKE_SCRIPT_MODE_FILE)
    file(GLOB_RECURSE files LIST_DIRECTORIES false ${patterns})
  else()
    file(GLOB_RECURSE files LIST_DIRECTORIES false CONFIGURE_DEPENDS ${patterns})
  endif()
  list(SORT files)
  set(${out_var} ${files} PARENT_SCOPE)
endfunction()

# Every violation under `root`, one line each, in `out_var` (empty when the layers hold).
function(roofline_layer_violations root out_var)
  roofline_layer_files(${root} files)
  set(violations)
  foreach(file IN LISTS files)
    file(RELATIVE_PATH rel ${root} ${file})
    # The folder the file belongs to: a target (bench/targets/<t>/...) or a shared layer (bench/<layer>/...).
    if(rel MATCHES "^bench/targets/([^/]+)/")
      set(own ${CMAKE_MATCH_1})
      set(own_name "the ${own} target")
    elseif(rel MATCHES "^(bench/[^/]+)/")
      set(own "")
      set(own_name "${CMAKE_MATCH_1}")
    endif()
    get_filename_component(dir ${file} DIRECTORY)
    file(READ ${file} text)
    # The #include lines, with the newline before each (so that the first line counts too).
    string(REGEX MATCHALL "\n[ \t]*#[ \t]*include[ \t]*[<\"][^>\"\n]+[>\"]" lines "\n${text}")
    foreach(line IN LISTS lines)
      string(REGEX REPLACE "^\n[ \t]*#[ \t]*include[ \t]*[<\"]([^>\"]+)[>\"]$" "\\1" name "${line}")
      # Its line number, for the message: the newlines before its first occurrence, plus one.
      string(FIND "\n${text}" "${line}" at)
      string(SUBSTRING "\n${text}" 0 ${at} before)
      string(REGEX MATCHALL "\n" newlines "${before}")
      list(LENGTH newlines line_number)
      math(EXPR line_number "${line_number} + 1")
      roofline_layer_analysis_header(${root} ${dir} "${name}" analysis)
      if(analysis)
        list(APPEND violations "${rel}:${line_number}: ${own_name} includes \"${name}\", ${analysis}")
      endif()
      foreach(other IN LISTS ROOFLINE_LAYER_TARGETS)
        if(other STREQUAL own)
          continue()
        endif()
        set(other_dir ${root}/bench/targets/${other})
        set(found "")
        if(EXISTS ${other_dir}/include/${name})
          set(found ${other_dir}/include/${name})
        else()
          # A path relative to the including file, or to the repository root.
          foreach(base ${dir} ${root})
            get_filename_component(candidate ${name} ABSOLUTE BASE_DIR ${base})
            string(FIND "${candidate}" "${other_dir}/" at)
            if(at EQUAL 0 AND EXISTS ${candidate})
              set(found ${candidate})
              break()
            endif()
          endforeach()
        endif()
        if(found)
          file(RELATIVE_PATH found_rel ${root} ${found})
          list(APPEND violations
               "${rel}:${line_number}: ${own_name} includes \"${name}\", a header of the ${other} target (${found_rel})")
        endif()
      endforeach()
    endforeach()
  endforeach()
  set(${out_var} ${violations} PARENT_SCOPE)
endfunction()

# Whether the include `name` of a file in `dir` is an analysis header: `out_var` says so for the message ("an
# analysis header", with its analysis/ path when it was reached by a path), empty when it is not one.
function(roofline_layer_analysis_header root dir name out_var)
  set(what "")
  if(name MATCHES "^roofline/(${ROOFLINE_LAYER_ANALYSIS_PREFIXES})/")
    set(what "an analysis header")
  else()
    # A path relative to the including file, or to the repository root, into analysis/.
    foreach(base ${dir} ${root})
      get_filename_component(candidate ${name} ABSOLUTE BASE_DIR ${base})
      string(FIND "${candidate}" "${root}/analysis/" at)
      if(at EQUAL 0 AND EXISTS ${candidate})
        file(RELATIVE_PATH what ${root} ${candidate})
        set(what "an analysis header (${what})")
        break()
      endif()
    endforeach()
  endif()
  set(${out_var} "${what}" PARENT_SCOPE)
endfunction()

# FATAL_ERROR listing every violation under `root`; `stamp`, when given, is touched when there is none.
function(roofline_check_layers root)
  roofline_layer_violations(${root} violations)
  if(violations)
    list(LENGTH violations count)
    list(JOIN violations "\n  " text)
    message(FATAL_ERROR
      "roofline: layer check: ${count} include(s) across layers:\n  ${text}\n"
      "A target includes common, kernels, bench/harness, bench/facts and its own headers only, bench/harness and "
      "bench/facts include no target's, and none of them includes an analysis header (roofline/model/..., "
      "roofline/report/..., roofline/regress/..., roofline/history/..., roofline/fleet/..., roofline/llm/...): move what two targets need into bench/harness, and what the measuring side and the "
      "analysis both need into a library below both; bench/cli and bench/drivers derive (cmake/RooflineLayers.cmake).")
  endif()
  if(ARGC GREATER 1)
    file(TOUCH ${ARGV1})
  endif()
endfunction()

if(CMAKE_SCRIPT_MODE_FILE STREQUAL CMAKE_CURRENT_LIST_FILE AND DEFINED ROOT)
  if(DEFINED STAMP)
    roofline_check_layers(${ROOT} ${STAMP})
  else()
    roofline_check_layers(${ROOT})
  endif()
endif()
