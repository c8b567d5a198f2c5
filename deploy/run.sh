#!/usr/bin/env bash
# Installs what is missing, builds the release build (a first build takes a few minutes),
# puts intentd and intentctl on PATH (symlinks in
# ~/.local/bin), and starts intentd with the extensions in deploy/intentd.json (MonkeyChat,
# List-o-Mat, Zippy). Extra arguments go to intentd, e.g.
#   deploy/run.sh --state-dir /tmp/intentd --locked
set -euo pipefail
cd "$(dirname "$0")/.."
source deploy/setup.sh
swift build -c release
bin="$(swift build -c release --show-bin-path)"
links="${INTENTD_BIN_DIR:-$HOME/.local/bin}"
mkdir -p "$links"
for tool in intentd intentctl; do ln -sfn "$bin/$tool" "$links/$tool"; done
case ":$PATH:" in
  *":$links:"*) where="" ;;
  *) where=" (not on your PATH yet: export PATH=\"$links:\$PATH\")" ;;
esac
cat >&2 <<HINT
intentd and intentctl are in $links$where.
intentd is starting; it prints the console's address (a web page of the host, with its
token) as "console: http://127.0.0.1:8470/?token=…", also kept in STATE/console.url.
In another terminal, try:
  intentctl chat
  intentctl status
  intentctl send MonkeyChat SendMessage recipients="Bobo the Great" content="send more bananas"
  intentctl lock; intentctl unlock
  intentctl watch Zippy    # then, elsewhere:
  intentctl send Zippy RequestRide dropOffLocation="Ferry Building" --confirm
Stop it with Ctrl-C.
HINT
exec "$bin/intentd" --config deploy/intentd.json "$@"
