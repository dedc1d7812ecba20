#!/usr/bin/env bash
# Every repository path that the code names exists (issue 47, step 5), like check_paths.sh for the docs: comments and
# string literals (the notes, stop rules and warnings a run writes into a results file) name source files, headers and
# scripts, and go stale when those move. One word scan over the whole file covers comments and literals alike. Read:
# the tracked *.cpp *.hpp *.h *.cu *.cuh *.cl, CMakeLists.txt, *.cmake, scripts/*, .ci/*, *.sh and *.py under tests/,
# and results/fields.txt; not the recorded data under tests/data, nor #include lines (the compiler checks those). A
# path is
#   (a) a word starting with a top-level folder (analysis/, bench/, kernels/, common/, records/, scripts/, results/, tests/,
#       cmake/, .ci/), which must exist from the repository root or from the file's folder, or
#   (b) a header named the way it is included, roofline/<prefix>/<name>.hpp (also .h, .cuh), which must be under one
#       of the include folders (common/include, records/include, kernels/*/include, bench/*/include, bench/targets/*/include,
#       analysis/*/include).
# Skipped, as in check_paths.sh: names with a placeholder (<isa>, *, {a,b}, ..., $VAR), and what a run writes under
# results/ (only results/reference/, results/README.md and results/fields.txt are tracked there). Bare file names
# without a folder ("target_roofline.cpp") are not checked: too many of them are not repository paths. A file that
# writes a made-up tree for a self-test names paths of that tree, not of the repository: a line starting
# "# code-paths: made-up tree" turns the check off for that file.
#   tests/docs/check_code_paths.sh REPOSITORY_ROOT    (a git checkout: its tracked files; otherwise every file)
set -euo pipefail
root="${1:?usage: check_code_paths.sh REPOSITORY_ROOT}"
cd "$root"

patterns=('*.cpp' '*.hpp' '*.h' '*.cu' '*.cuh' '*.cl' '*.cmake' 'CMakeLists.txt' '*/CMakeLists.txt' 'scripts/*'
          '.ci/*' 'tests/*.sh' 'tests/*.py' 'results/fields.txt')
files=()
if [[ "$(git rev-parse --show-toplevel 2>/dev/null)" == "$(pwd -P)" ]]; then
  mapfile -t files < <(git ls-files -- "${patterns[@]}" ':!:tests/data/*')
else
  # A made-up tree (the self-test) or an unpacked source: the same selection, from the files there, less build outputs.
  mapfile -t files < <(find . \( -name .git -o -path ./build \) -prune -o -type f -print | sed 's#^\./##' |
                       while IFS= read -r f; do
    for p in "${patterns[@]}"; do
      # shellcheck disable=SC2053  # a glob on purpose; like git's pathspec, * matches across folders
      if [[ "$f" == $p && "$f" != tests/data/* ]]; then echo "$f"; break; fi
    done
  done | sort)
fi
skip=()
if ((${#files[@]})); then
  mapfile -t skip < <(grep -lE '^# code-paths: made-up tree' -- "${files[@]}" || true)
fi
declare -A skipped=()
for f in "${skip[@]}"; do skipped[$f]=1; done
# #include lines are the compiler's to check, with its include path (tests/ is on it for tests' own headers).
declare -A include_line=()
if ((${#files[@]})); then
  while IFS=: read -r file line _; do include_line[$file:$line]=1; done \
    < <(grep -nHE '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]' -- "${files[@]}" || true)
fi

include_dirs=()
for d in common/include records/include kernels/*/include bench/*/include bench/targets/*/include analysis/*/include; do
  [[ -d "$d" ]] && include_dirs+=("$d")
done

stale=()
checked_a=0
checked_b=0
report() {  # file:line path
  stale+=("$1: names '$2', which does not exist")
}
placeholder() {
  case "$1" in *'<'*|*'>'*|*'*'*|*'{'*|*'}'*|*'...'*|*'$'*) return 0 ;; esac
  return 1
}

scan() {  # kind regex: prints file:line:word for each match in the files read
  ((${#files[@]})) || return 0
  grep -onHE -- "$2" "${files[@]}" | sed -E 's/^([^:]*:[0-9]+:)[^A-Za-z0-9_.]/\1/' | sort -u -t: -k1,1 -k2,2n -k3 || true
}

# (a) paths from the repository root or the file's folder.
while IFS=: read -r file line path; do
  [[ -n "${skipped[$file]:-}" || -n "${include_line[$file:$line]:-}" ]] && continue
  path="${path%%[.,:;)]}"
  placeholder "$path" && continue
  # What a run writes under results/ (results/new.json, results/llm/...) is an example, not a tracked path.
  case "$path" in results/reference/*|results/README.md|results/fields.txt|results|results/) ;; results/*) continue ;; esac
  checked_a=$((checked_a + 1))
  if [[ ! -e "$path" && ! -e "$(dirname "$file")/$path" ]]; then
    report "$file:$line" "$path"
  fi
done < <(scan a '(^|[^A-Za-z0-9_./-])\.?(analysis|bench|kernels|common|records|scripts|results|tests|cmake|\.ci)/[A-Za-z0-9_./+<>*{}$-]*[A-Za-z0-9_+/>*}-]')

# (b) headers named as included: roofline/<prefix>/<name>.hpp under some include folder.
while IFS=: read -r file line header; do
  [[ -n "${skipped[$file]:-}" || -n "${include_line[$file:$line]:-}" ]] && continue
  placeholder "$header" && continue
  checked_b=$((checked_b + 1))
  found=""
  for d in "${include_dirs[@]}"; do
    if [[ -e "$d/$header" ]]; then found=1; break; fi
  done
  [[ -n "$found" ]] || report "$file:$line" "$header"
done < <(scan b '(^|[^A-Za-z0-9_./-])roofline/[A-Za-z0-9_/<>*{}$-]+\.(hpp|h|cuh)\b')

# One line per stale path, by file and line.
if ((${#stale[@]})); then printf '%s\n' "${stale[@]}" | sort -t: -k1,1 -k2,2n -s; fi
echo "$((checked_a + checked_b)) paths checked ($checked_a from a top-level folder, $checked_b headers by include name) in" \
     "${#files[@]} source and build files (made-up trees skipped: ${#skip[@]}), ${#stale[@]} missing"
[[ "${#stale[@]}" == 0 ]]
