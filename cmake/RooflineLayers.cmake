# The layers enforced by the build (issues 35, 47), two rules:
#  - the targets' rule: no target includes another target's headers, the shared layers under the targets
#    (bench/harness, bench/facts) include none, and none of them includes an analysis header (roofline/model/,
#    report/, regress/, history/, fleet/, llm/: the measuring side measures, bench/cli and bench/drivers derive). A
#    target's includes are common, kernels, the harness and facts, and its own headers; what two targets both need
#    belongs in bench/harness (e.g. harness/include/roofline/harness/gemm_shape.hpp: the GEMM weight shape every
#    target starts from), and what the measuring side and the analysis both need belongs in a library below both.
#  - the prefix rule (issue 47, step 5): every library's headers have a prefix that names it (roofline/<prefix>/),
#    so each library folder lists the prefixes it may include (ROOFLINE_LAYER_USES, the edges ARCHITECTURE.md draws),
#    and an include of any other roofline/<prefix>/ header is a violation: the facts cannot reach the harness, the
#    kernels nothing above common, the model no renderer, the report no regress.
#
# Linking already keeps most of it (a library sees only the headers of what it links: the device targets link
# roofline::harness, not roofline::target_cpu), but not all: a library that links another for one reason sees all of
# its headers (and, through PUBLIC links, those of what it links), a target not built here (CUDA without nvcc) is
# never compiled, and a relative include ("../cpu/stream_arena.hpp") needs no include directory at all. So every
# #include of every file under those folders is read, resolved by name against each other target's folder and its
# include/ directory and the analysis headers' prefixes and folder, and its prefix held to its folder's list:
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
# What each library may include, by prefix (issue 47, step 5: every library's headers have a prefix that names it,
# roofline/<prefix>/, so an include says which layer it reaches into). "<folder>=<prefixes>": an include
# "roofline/<p>/..." from a file under <folder> needs <p> in its list; the edges are ARCHITECTURE.md's (the CMake
# links), so a header reached through a link made for another reason fails here. bench/cli, which puts everything
# together, is not listed: it may include any.
set(ROOFLINE_LAYER_USES
  "common=common"
  "records=common records"
  "kernels/cpu=common kernels/cpu"
  "kernels/cuda=common kernels/cuda"
  "bench/facts=common facts"
  "bench/harness=common records kernels/cpu facts harness"
  "bench/targets/cpu=common kernels/cpu facts harness cpu"
  "bench/targets/opencl=common facts harness opencl"
  "bench/targets/cuda=common kernels/cuda harness cuda"
  "bench/drivers=common kernels/cpu facts harness model regress fleet llm drivers"
  "analysis/model=common records model"
  "analysis/report=common records model report"
  "analysis/regress=common records model report regress"
  "analysis/history=common records model report regress history"
  "analysis/fleet=common records model report regress fleet"
  "analysis/llm=common records model report llm")

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
  foreach(uses IN LISTS ROOFLINE_LAYER_USES)
    string(REGEX REPLACE "=.*" "" dir "${uses}")
    foreach(ext IN LISTS ROOFLINE_LAYER_EXTENSIONS)
      list(APPEND patterns ${root}/${dir}/*.${ext})
    endforeach()
  endforeach()
  if(CMAKE_SCRIPT_MODE_FILE)
    file(GLOB_RECURSE files LIST_DIRECTORIES false ${patterns})
  else()
    file(GLOB_RECURSE files LIST_DIRECTORIES false CONFIGURE_DEPENDS ${patterns})
  endif()
  list(REMOVE_DUPLICATES files)
  list(SORT files)
  set(${out_var} ${files} PARENT_SCOPE)
endfunction()

# Every violation under `root`, one line each, in `out_var` (empty when the layers hold).
function(roofline_layer_violations root out_var)
  roofline_layer_files(${root} files)
  set(violations)
  foreach(file IN LISTS files)
    file(RELATIVE_PATH rel ${root} ${file})
    # The folder the file belongs to: a target (bench/targets/<t>/...) or a shared layer (bench/<layer>/...), which
    # the target rules below hold to; and the library folder of ROOFLINE_LAYER_USES it is in, with what it may use.
    set(measuring FALSE)
    set(own "")
    if(rel MATCHES "^bench/targets/([^/]+)/")
      set(own ${CMAKE_MATCH_1})
      set(own_name "the ${own} target")
      set(measuring TRUE)
    elseif(rel MATCHES "^(bench/[^/]+)/")
      set(own "")
      set(own_name "${CMAKE_MATCH_1}")
      string(REGEX REPLACE "^bench/" "" layer "${CMAKE_MATCH_1}")
      list(FIND ROOFLINE_LAYER_SHARED "${layer}" shared_at)
      if(shared_at GREATER -1)
        set(measuring TRUE)
      endif()
    endif()
    roofline_layer_uses(${rel} folder uses)
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
      list(LENGTH violations found_before)
      if(measuring)
        roofline_layer_targets_rule(${root} ${dir} "${own}" "${name}" reached)
        foreach(what IN LISTS reached)
          list(APPEND violations "${rel}:${line_number}: ${own_name} includes \"${name}\", ${what}")
        endforeach()
      endif()
      list(LENGTH violations found_after)
      # The prefix rule, where the target rules found nothing: roofline/<p>/... with <p> outside the folder's uses.
      if(found_after EQUAL found_before AND folder AND name MATCHES "^roofline/(kernels/[^/]+|[^/]+)/")
        set(prefix ${CMAKE_MATCH_1})
        list(FIND uses "${prefix}" used_at)
        if(used_at EQUAL -1)
          list(JOIN uses ", " uses_text)
          set(message "${rel}:${line_number}: ${folder} includes \"${name}\", a roofline/${prefix}/ header")
          list(APPEND violations "${message} (${folder} uses ${uses_text})")
        endif()
      endif()
    endforeach()
  endforeach()
  set(${out_var} ${violations} PARENT_SCOPE)
endfunction()

# The library folder of ROOFLINE_LAYER_USES that `rel` (a path under the root) is in, the longest that matches, in
# `folder_var` (empty when none: bench/cli, tests/, ...), and the prefixes it may include in `uses_var`.
function(roofline_layer_uses rel folder_var uses_var)
  set(best "")
  set(best_uses "")
  foreach(entry IN LISTS ROOFLINE_LAYER_USES)
    string(REGEX REPLACE "=.*" "" folder "${entry}")
    string(REGEX REPLACE "^[^=]*=" "" uses "${entry}")
    string(LENGTH "${folder}" length)
    string(LENGTH "${best}" best_length)
    string(FIND "${rel}" "${folder}/" at)
    if(at EQUAL 0 AND length GREATER best_length)
      set(best ${folder})
      string(REPLACE " " ";" best_uses "${uses}")
    endif()
  endforeach()
  set(${folder_var} "${best}" PARENT_SCOPE)
  set(${uses_var} "${best_uses}" PARENT_SCOPE)
endfunction()

# What the include `name` of a file in `dir` (of the target `own`, or "" for a shared layer) reaches that the target
# rules forbid, one description each in `out_var`: an analysis header, or a header of another target.
function(roofline_layer_targets_rule root dir own name out_var)
  set(reached)
  roofline_layer_analysis_header(${root} ${dir} "${name}" analysis)
  if(analysis)
    list(APPEND reached "${analysis}")
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
      list(APPEND reached "a header of the ${other} target (${found_rel})")
    endif()
  endforeach()
  set(${out_var} "${reached}" PARENT_SCOPE)
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
      "roofline/report/..., roofline/regress/..., roofline/history/..., roofline/fleet/..., roofline/llm/...), "
      "and each library includes only the prefixes ROOFLINE_LAYER_USES lists for it: move what two targets need into "
      "bench/harness, and what the measuring side and the analysis both need into a library below both; bench/cli and "
      "bench/drivers derive (cmake/RooflineLayers.cmake).")
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
