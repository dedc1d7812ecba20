#!/usr/bin/env bash
# Every repository path that the docs name exists (issues 35, 63): README.md, CONTRIBUTING.md, ARCHITECTURE.md,
# results/README.md and every docs/*.md. A doc that names a file or folder that moved is wrong.
# 1. Paths in the text: a word starting with one of the top-level folders (analysis/, bench/, kernels/, common/,
#    scripts/, results/, tests/, cmake/, docs/, .ci/), also after ../ (docs/ name the tree from their folder); names
#    with a placeholder (<isa>, *, {a,b}, ...) are patterns, not paths, and are skipped, and so are the files a run
#    writes under results/ (only results/reference/, results/README.md and results/fields.txt are tracked there).
# 2. Relative Markdown links, [text](target): the target exists relative to the doc's folder (a #fragment aside).
#   tests/docs/check_paths.sh REPOSITORY_ROOT
set -euo pipefail
root="${1:?usage: check_paths.sh REPOSITORY_ROOT}"
cd "$root"
missing=0
checked=0
docs=(README.md CONTRIBUTING.md ARCHITECTURE.md results/README.md docs/*.md)
for doc in "${docs[@]}"; do
  while IFS= read -r path; do
    path="${path%%[.,:;)]}"
    path="${path%%[.,:;)]}"
    while [[ "$path" == ../* ]]; do path="${path#../}"; done
    case "$path" in *'<'*|*'>'*|*'*'*|*'{'*|*'}'*|*'...'*|*'$'*) continue ;; esac
    # What a run writes under results/ (results/new.json, results/llm/...) is an example, not a tracked path.
    case "$path" in results/reference/*|results/README.md|results/fields.txt) ;; results/*) continue ;; esac
    checked=$((checked + 1))
    # A path may be named relative to the doc's folder (results/README.md names reference/...).
    if [[ ! -e "$path" && ! -e "$(dirname "$doc")/$path" ]]; then
      echo "$doc: names '$path', which does not exist"
      missing=$((missing + 1))
    fi
  done < <(grep -oE '(^|[^A-Za-z0-9_./-])(\.\./)*\.?(analysis|bench|kernels|common|scripts|results|tests|cmake|docs|\.ci)/[A-Za-z0-9_./+<>*{}$-]*[A-Za-z0-9_+/>*}-]' "$doc" |
           sed -E 's/^[^A-Za-z0-9_.]//' | sort -u)
  while IFS= read -r link; do
    target="${link#*](}"
    target="${target%)}"
    target="${target%%#*}"
    case "$target" in ''|http://*|https://*|mailto:*) continue ;; esac
    checked=$((checked + 1))
    if [[ ! -e "$(dirname "$doc")/$target" ]]; then
      echo "$doc: links to '$target', which does not exist (relative to $(dirname "$doc")/)"
      missing=$((missing + 1))
    fi
  done < <(grep -oE '\]\([^) ]+\)' "$doc" | sort -u)
done
echo "$checked paths and links checked in ${docs[*]}, $missing missing"
[[ "$missing" == 0 ]]
