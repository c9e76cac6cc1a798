#!/usr/bin/env bash
# `npm run test:any-day`: `npm test` again with the machine's clock moved 400 days ahead for every
# process it starts (Debian's faketime), so a test that holds only on the day it was written fails
# here. Timers keep the real monotonic clock. Arguments go to jest, as with `npm test`; the type check
# is `npm test`'s alone (CLOOPEN_TYPECHECK=0), since types do not depend on the date.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

if ! command -v faketime >/dev/null 2>&1; then
	echo "[test:any-day] installing Debian's faketime" >&2
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq faketime >/dev/null
fi
shift_by="${CLOOPEN_CLOCK_SHIFT:-+400d}"
echo "[test:any-day] clock moved ${shift_by}: $(FAKETIME_DONT_FAKE_MONOTONIC=1 faketime -f "$shift_by" date -u)" >&2
CLOOPEN_TYPECHECK=0 FAKETIME_DONT_FAKE_MONOTONIC=1 exec faketime -f "$shift_by" bash dev/testOnNode24.sh "$@"
