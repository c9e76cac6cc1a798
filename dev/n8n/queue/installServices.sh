#!/usr/bin/env bash
# Installs what the queue-mode suite needs from Debian's packages when it is missing: Redis (n8n's
# queue) and PostgreSQL (the database main, workers and webhook processes share). Nothing is started
# here and no system service is enabled: the suite starts its own servers on 127.0.0.1 ports, in
# folders of its own, and stops them afterwards (services.ts).
set -euo pipefail
say() { printf '[installServices] %s\n' "$*" >&2; }

missing=()
command -v redis-server >/dev/null || missing+=(redis-server)
compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || missing+=(postgresql)
if [[ ${#missing[@]} -eq 0 ]]; then
	say "Redis and PostgreSQL are installed"
	exit 0
fi
if [[ $(id -u) -ne 0 ]]; then
	say "missing: ${missing[*]}; install them (apt-get install ${missing[*]}) or run this as root"
	exit 1
fi
say "apt-get install ${missing[*]}"
apt-get update -qq >&2
# policy-rc.d 101: the packages must not start their own system services (the suite runs its own).
if [[ ! -e /usr/sbin/policy-rc.d ]]; then
	printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d
	trap 'rm -f /usr/sbin/policy-rc.d' EXIT
fi
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
say "installed ${missing[*]}"
