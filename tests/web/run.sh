#!/usr/bin/env bash
# tests/web/run.sh FILE...: runs browser tests of the web page (node --test), as ctest does with
# PILFER_BIN set to the pilfer under test. Each test starts its own pilfer serve on 127.0.0.1 and
# drives Debian's chromium with playwright-core; scripts/test installs node, npm and chromium and
# runs npm ci here (and in report/, for report.test.mjs) first. Without one of them the tests are
# skipped (exit 77, ctest's skip code), saying what is missing.
set -euo pipefail
cd "$(dirname "$0")"
skip() { echo "skipped: $1"; exit 77; }
command -v node >/dev/null || skip "node is missing: scripts/deps --web installs it"
[ -x "${CHROMIUM:-/usr/bin/chromium}" ] || skip "chromium is missing: scripts/deps --web installs it"
[ -d node_modules/playwright-core ] ||
  skip "tests/web/node_modules is missing: run npm ci in tests/web (scripts/test does)"
for f in "$@"; do
  if [ "$f" = report.test.mjs ] && [ ! -d "${PILFER_REPORT_DIR:-../../report}/node_modules/vega-embed" ]; then
    skip "report/node_modules is missing (analyze --html copies its libraries): run npm ci in report (scripts/test does)"
  fi
done
exec node --test "$@"
