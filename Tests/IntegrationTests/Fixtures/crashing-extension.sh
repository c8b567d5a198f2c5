#!/bin/sh
# A launched extension whose store is damaged until a file named "fixed" appears in its
# sandbox: until then it says why and exits with status 1, or with the status in the file
# "exit-status" (78: do not restart me). Once fixed, it runs until stopped (and ignores
# SIGTERM while a file named "ignore-term" is there).
if [ -e "$HOME/ignore-term" ]; then trap '' TERM; fi
if [ -e "$HOME/fixed" ]; then
    echo "$$" > "$HOME/started"
    while :; do sleep 0.05; done
fi
echo "fatal: the store $HOME/store.sqlite is damaged"
exit "$(cat "$HOME/exit-status" 2>/dev/null || echo 1)"
