#!/usr/bin/env bash
# Everything `npm test` and `npm run demo` need on a fresh machine that has only Node 20 and npm:
# pnpm, the system packages the tests use for real (nats-server, bubblewrap, sympy, chromium, postgresql), and dependencies.
set -euo pipefail
cd "$(dirname "$0")/.."

PNPM_VERSION=12.4.2
SYSTEM_PACKAGES=(nats-server bubblewrap python3-sympy python3-numpy chromium util-linux postgresql)

log() { printf '[bootstrap] %s\n' "$*" >&2; }

if ! command -v pnpm >/dev/null 2>&1 || [ "$(pnpm --version 2>/dev/null)" != "$PNPM_VERSION" ]; then
  log "installing pnpm@$PNPM_VERSION"
  npm install --global --silent "pnpm@$PNPM_VERSION" >/dev/null
fi

missing=()
for package in "${SYSTEM_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  if ! command -v apt-get >/dev/null 2>&1; then
    log "missing system packages (${missing[*]}) and no apt-get: the tests that need them will fail"
  else
    sudo=""
    [ "$(id -u)" = 0 ] || sudo="sudo"
    log "installing system packages: ${missing[*]}"
    $sudo apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
fi

# Native addons (better-sqlite3) build against Node's own headers on this kind of machine.
export npm_config_nodedir="${npm_config_nodedir:-/usr}"
if [ -f pnpm-lock.yaml ]; then
  pnpm install --frozen-lockfile --reporter=silent
else
  pnpm install --reporter=silent
fi
