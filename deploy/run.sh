#!/usr/bin/env bash
# Installs what is missing, builds, and starts intentd with the extensions in
# deploy/intentd.json (MonkeyChat, List-o-Mat, Zippy). Extra arguments go to intentd, e.g.
#   deploy/run.sh --state-dir /tmp/intentd --locked
set -euo pipefail
cd "$(dirname "$0")/.."
source deploy/setup.sh
swift build
bin="$(swift build --show-bin-path)"
cat >&2 <<HINT
intentd is starting. In another terminal, try:
  $bin/intentctl status
  $bin/intentctl send MonkeyChat SendMessage recipients=Bobo content="send more bananas"
  $bin/intentctl send MonkeyChat SendMessage recipients="Bobo the Great" content="send more bananas"
  $bin/intentctl lock; $bin/intentctl unlock
  $bin/intentctl send ListOMat CreateTaskList title="Grocery Store"
  $bin/intentctl send ListOMat AddTasks targetTaskList=grocery taskTitles="rice, onions and olives"
  $bin/intentctl watch Zippy    # then, elsewhere:
  $bin/intentctl send Zippy RequestRide dropOffLocation="Ferry Building" --confirm
Stop it with Ctrl-C.
HINT
exec "$bin/intentd" --config deploy/intentd.json "$@"
