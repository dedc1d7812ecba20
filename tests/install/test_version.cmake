# `roofline --version` says the release, the commit and the build date (issue 63), and the commit is found where
# it is known: in a checkout (git describe) and in a `git archive` tarball (cmake/archive_revision.txt, which
# export-subst fills), never taken from a repository the tree happens to be unpacked in.
#   cmake -DROOFLINE=<binary> -DSOURCE_DIR=<checkout> -DWORK_DIR=<scratch folder> -P test_version.cmake
execute_process(COMMAND ${ROOFLINE} --version OUTPUT_VARIABLE out RESULT_VARIABLE rc OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT rc EQUAL 0 OR NOT out MATCHES "^[0-9]+\\.[0-9]+\\.[0-9]+ \\(commit [^ ,]+, built [0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]\\)$")
  message(FATAL_ERROR "roofline --version printed '${out}' (exit ${rc}); expected 'X.Y.Z (commit REV, built YYYY-MM-DD)'")
endif()
message(STATUS "roofline --version: ${out}")

# Writes the header for a source tree with the given cmake/archive_revision.txt and returns its revision.
function(revision_of archived result)
  set(tree ${WORK_DIR}/tree)
  file(REMOVE_RECURSE ${tree})
  file(WRITE ${tree}/cmake/archive_revision.txt "${archived}\n")
  execute_process(COMMAND ${CMAKE_COMMAND} -DSOURCE_DIR=${tree} -DOUTPUT=${WORK_DIR}/revision.hpp
                          -P ${SOURCE_DIR}/cmake/WriteGitRevision.cmake RESULT_VARIABLE rc)
  file(STRINGS ${WORK_DIR}/revision.hpp line REGEX "ROOFLINE_GIT_REVISION")
  string(REGEX REPLACE ".*ROOFLINE_GIT_REVISION \"([^\"]*)\".*" "\\1" revision "${line}")
  file(STRINGS ${WORK_DIR}/revision.hpp date REGEX "ROOFLINE_BUILD_DATE \"[0-9]+-[0-9]+-[0-9]+\"")
  if(NOT rc EQUAL 0 OR NOT date)
    message(FATAL_ERROR "WriteGitRevision.cmake failed (exit ${rc}) or wrote no build date")
  endif()
  set(${result} "${revision}" PARENT_SCOPE)
endfunction()

# WORK_DIR lies inside the build folder, and maybe inside a checkout: the tree has no .git of its own.
revision_of("0123456789abcdef0123456789abcdef01234567" from_archive)
if(NOT from_archive STREQUAL "0123456789ab")
  message(FATAL_ERROR "an archive's commit gave revision '${from_archive}', expected '0123456789ab'")
endif()
revision_of("\$Format:%H\$" unsubstituted)
if(NOT unsubstituted STREQUAL "unknown")
  message(FATAL_ERROR "an unsubstituted archive_revision.txt gave revision '${unsubstituted}', expected 'unknown'")
endif()
message(STATUS "archive commit read, unsubstituted placeholder unknown")
