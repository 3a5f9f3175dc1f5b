#!/usr/bin/env bash
# What the tests need besides the Python packages, from Debian's packages:
# - Debian's chromium, driven by Playwright for the browser tests (tests/web; Playwright's own
#   browser download is not used);
# - PostgreSQL's server programs (initdb, pg_ctl, postgres): the server tests start a
#   throwaway cluster of their own (tests/support/postgres.py);
# - redis-server: the cluster tests (tests/cluster) start their own on a free port. The Debian
#   package starts no service here (no systemd in CI containers);
# - Node.js and npm: the browser client's type check, lint and unit tests (`make jstest`).
#
# Idempotent: installs only what is missing. Installs with apt-get as root, or through sudo
# when that works without a password; otherwise says what to do and fails.
# CAMBIO_CHROMIUM names another browser binary (the tests read the same variable), and
# CAMBIO_REDIS_SERVER another redis-server.
set -euo pipefail

CHROMIUM="${CAMBIO_CHROMIUM:-/usr/bin/chromium}"
REDIS="${CAMBIO_REDIS_SERVER:-/usr/bin/redis-server}"
PACKAGES=()
if [ ! -x "$CHROMIUM" ]; then
    PACKAGES+=(chromium fonts-dejavu-core)   # the fonts carry the card suits ♣ ♦ ♥ ♠
fi
if ! command -v initdb >/dev/null 2>&1 && ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1
then
    PACKAGES+=(postgresql)
fi
if [ ! -x "$REDIS" ]; then
    PACKAGES+=(redis-server)
fi
# Node.js and npm: the browser client's type check, lint and unit tests (make jstest).
if ! command -v node >/dev/null 2>&1; then
    PACKAGES+=(nodejs)
fi
if ! command -v npm >/dev/null 2>&1; then
    PACKAGES+=(npm)
fi

if [ ${#PACKAGES[@]} -eq 0 ]; then
    exit 0
fi

fail() {
    echo "install-test-deps: $*" >&2
    echo "install-test-deps: the tests need ${PACKAGES[*]} (Debian: apt-get install" \
         "${PACKAGES[*]}; for the browser, CAMBIO_CHROMIUM=/path/to/chromium instead)." >&2
    exit 1
}

if [ ! -x "$CHROMIUM" ] && [ "$CHROMIUM" != /usr/bin/chromium ]; then
    fail "CAMBIO_CHROMIUM=$CHROMIUM does not exist"
fi
if [ ! -x "$REDIS" ] && [ "$REDIS" != /usr/bin/redis-server ]; then
    fail "CAMBIO_REDIS_SERVER=$REDIS does not exist"
fi
command -v apt-get >/dev/null 2>&1 || fail "apt-get is not available on this machine"

if [ "$(id -u)" -eq 0 ]; then
    SUDO=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    SUDO=(sudo -n)
else
    fail "not root, and sudo is missing or needs a password"
fi

echo "install-test-deps: installing ${PACKAGES[*]} with apt-get" >&2
export DEBIAN_FRONTEND=noninteractive
"${SUDO[@]}" apt-get update -qq || fail "apt-get update failed"
"${SUDO[@]}" apt-get install -y -qq "${PACKAGES[@]}" >/dev/null || fail "apt-get install failed"
[ -x "$CHROMIUM" ] || fail "apt-get finished but $CHROMIUM is still missing"
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || command -v initdb >/dev/null 2>&1 \
    || fail "apt-get finished but PostgreSQL's initdb is still missing"
[ -x "$REDIS" ] || fail "apt-get finished but $REDIS is still missing"
echo "install-test-deps: installed ${PACKAGES[*]}" >&2
