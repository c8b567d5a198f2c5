#!/bin/sh
# A launched extension that is no Swift program and does not register: it notes its
# environment and signal masks, and on SIGTERM notes that too and exits at once.
trap 'echo "$$" > "$HOME/got-sigterm"; exit 0' TERM
env > "$HOME/environment"
grep -E '^Sig(Blk|Ign):' /proc/self/status > "$HOME/signals"
echo "started" > "$HOME/started"
while :; do sleep 0.05; done
