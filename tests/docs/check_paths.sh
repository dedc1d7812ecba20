#!/usr/bin/env bash
# Every repository path that README.md, ARCHITECTURE.md and results/README.md name exists (issue 35): a doc that
# names a file or folder that moved is wrong. A path is a word starting with one of the top-level folders
# (analysis/, bench/, kernels/, common/, scripts/, results/, tests/, cmake/, .ci/); names with a placeholder
# (<isa>, *, {a,b}, ...) are patterns, not paths, and are skipped, and so are the files a run writes under results/
# (only results/reference/ and results/README.md are tracked there).
#   tests/docs/check_paths.sh REPOSITORY_ROOT
set -euo pipefail
root="${1:?usage: check_paths.sh REPOSITORY_ROOT}"
cd "$root"
missing=0
checked=0
for doc in README.md ARCHITECTURE.md results/README.md; do
  while IFS= read -r path; do
    path="${path%%[.,:;)]}"
    path="${path%%[.,:;)]}"
    case "$path" in *'<'*|*'>'*|*'*'*|*'{'*|*'}'*|*'...'*|*'$'*) continue ;; esac
    # What a run writes under results/ (results/new.json, results/llm/...) is an example, not a tracked path.
    case "$path" in results/reference/*|results/README.md) ;; results/*) continue ;; esac
    checked=$((checked + 1))
    # A path may be named relative to the doc's folder (results/README.md names reference/...).
    if [[ ! -e "$path" && ! -e "$(dirname "$doc")/$path" ]]; then
      echo "$doc: names '$path', which does not exist"
      missing=$((missing + 1))
    fi
  done < <(grep -oE '(^|[^A-Za-z0-9_./-])\.?(analysis|bench|kernels|common|scripts|results|tests|cmake|\.ci)/[A-Za-z0-9_./+<>*{}$-]*[A-Za-z0-9_+/>*}-]' "$doc" |
           sed -E 's/^[^A-Za-z0-9_.]//' | sort -u)
done
echo "$checked paths checked in README.md, ARCHITECTURE.md and results/README.md, $missing missing"
[[ "$missing" == 0 ]]
