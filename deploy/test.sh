#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test: unit tests per module and
# integration tests that start real intentd and extension processes; then, unless given
# arguments for `swift test` (such as --filter) or FUZZ_SECONDS=0, runs each fuzz target
# for FUZZ_SECONDS seconds (default 15; deploy/fuzz.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
source deploy/setup.sh
swift build --build-tests
swift test --skip-build "$@"
if (($# == 0)) && [ "${FUZZ_SECONDS:-15}" != 0 ]; then
    deploy/fuzz.sh "${FUZZ_SECONDS:-15}"
fi
