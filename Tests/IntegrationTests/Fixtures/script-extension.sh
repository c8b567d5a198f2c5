#!/bin/sh
# A launched extension that is no Swift program and does not register: it notes that it
# started, and on SIGTERM notes that too and exits at once.
trap 'echo "$$" > "$HOME/got-sigterm"; exit 0' TERM
echo "started" > "$HOME/started"
while :; do sleep 0.05; done
