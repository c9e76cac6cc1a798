#!/usr/bin/env bash
# The work tree's state against its commit, one line per path that differs (git's status and the
# content's hash): nothing for a clean tree. `.ci/run` takes it first and, last, fails when it differs
# (`--unchanged-since FILE`), printing what changed: a run may change no tracked file and leave no file
# git does not ignore (on a fresh clone: the tree stays clean).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

state() {
	git status --porcelain=v1 --untracked-files=all -z | while IFS= read -r -d '' entry; do
		local path="${entry:3}"
		# A rename's entry is followed by its old path.
		case "${entry:0:1}" in R | C) IFS= read -r -d '' _ ;; esac
		if [ -f "$path" ]; then
			echo "${entry:0:2} $path $(git hash-object -- "$path")"
		else
			echo "${entry:0:2} $path (gone)"
		fi
	done
}

if [ "${1:-}" = --unchanged-since ]; then
	if ! changes="$(diff <(cat "$2") <(state))"; then
		echo "[tree] the run changed the work tree (< before, > after):" >&2
		echo "$changes" >&2
		exit 1
	fi
	echo "[tree] unchanged: no tracked file changed, no file left that git does not ignore"
else
	state
fi
