#!/usr/bin/env bash
# Installs what intentd needs on Debian and finds the Swift toolchain.
# Sourced by run.sh and test.sh; safe to run again (installs only what is missing).
set -euo pipefail

packages=(libzmq3-dev libssl-dev libsqlite3-dev libedit-dev pkg-config bubblewrap tmux python3-jsonschema python3 python3-zmq chromium python3-websocket)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
    echo "setup: installing ${missing[*]}" >&2
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if ! command -v swift >/dev/null 2>&1; then
    for dir in /opt/swift/usr/bin /usr/share/swift/usr/bin; do
        [ -x "$dir/swift" ] && export PATH="$dir:$PATH" && break
    done
fi
if ! command -v swift >/dev/null 2>&1; then
    echo "setup: no Swift toolchain found; install Swift 6.2 or newer and put it on PATH" >&2
    exit 1
fi
