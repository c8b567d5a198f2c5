#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test: unit tests per module and
# integration tests that start real intentd and extension processes, and the Python SDK's tests;
# then, unless given arguments for `swift test` (such as --filter) or FUZZ_SECONDS=0, runs each
# fuzz target for FUZZ_SECONDS seconds (default 15; deploy/fuzz.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
source deploy/setup.sh
# The Python SDK's unit tests, with Debian's python3 (which has python3-zmq).
"${INTENTD_PYTHON:-/usr/bin/python3}" -m unittest discover -s sdk/python/tests
swift build --build-tests
swift test --skip-build "$@"
if (($# == 0)) && [ "${FUZZ_SECONDS:-15}" != 0 ]; then
    deploy/fuzz.sh "${FUZZ_SECONDS:-15}"
fi
