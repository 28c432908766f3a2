#!/usr/bin/env bash
# tests/web/run.sh FILE...: runs browser tests of the web page (node --test), as ctest does with
# PILFER_BIN set to the pilfer under test. Each test starts its own pilfer serve on 127.0.0.1 and
# drives Debian's chromium with playwright-core; scripts/test installs node, npm and chromium and
# runs npm ci here first.
set -euo pipefail
cd "$(dirname "$0")"
command -v node >/dev/null || { echo "node is missing: scripts/deps --web installs it"; exit 1; }
[ -x "${CHROMIUM:-/usr/bin/chromium}" ] || { echo "chromium is missing: scripts/deps --web installs it"; exit 1; }
[ -d node_modules/playwright-core ] || { echo "tests/web/node_modules is missing: run npm ci in tests/web (scripts/test does)"; exit 1; }
exec node --test "$@"
