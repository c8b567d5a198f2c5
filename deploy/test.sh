#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test: unit tests per module and
# integration tests that start real intentd and extension processes.
set -euo pipefail
cd "$(dirname "$0")/.."
source deploy/setup.sh
swift build --build-tests
swift test --skip-build "$@"
