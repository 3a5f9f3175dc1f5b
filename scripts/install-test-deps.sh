#!/usr/bin/env bash
# What the browser tests (tests/web) need besides the Python packages: Debian's chromium,
# driven by Playwright (Playwright's own browser download is not used).
#
# Idempotent: does nothing when the browser is there. Installs with apt-get as root, or
# through sudo when that works without a password; otherwise says what to do and fails.
# CAMBIO_CHROMIUM names another browser binary (the tests read the same variable).
set -euo pipefail

CHROMIUM="${CAMBIO_CHROMIUM:-/usr/bin/chromium}"
PACKAGES=(chromium fonts-dejavu-core)   # the fonts carry the card suits ♣ ♦ ♥ ♠

if [ -x "$CHROMIUM" ]; then
    exit 0
fi

fail() {
    echo "install-test-deps: $*" >&2
    echo "install-test-deps: the browser tests need Chromium at $CHROMIUM" \
         "(Debian: apt-get install ${PACKAGES[*]}), or CAMBIO_CHROMIUM=/path/to/chromium." >&2
    exit 1
}

if [ "$CHROMIUM" != /usr/bin/chromium ]; then
    fail "CAMBIO_CHROMIUM=$CHROMIUM does not exist"
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
echo "install-test-deps: $("$CHROMIUM" --version 2>/dev/null || echo chromium) installed" >&2
