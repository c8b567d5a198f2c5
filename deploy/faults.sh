#!/usr/bin/env bash
# A longer fault run than the tests: List-o-Mat (two instances, release build) takes a
# stream of AddTasks from several clients while its instances are stopped (SIGSTOP),
# killed (kill -9) and blocked on their database's write lock, at random. Each client
# does what a careful client should: `intentctl send --idempotency-key KEY`, and on exit 6
# (outcome unknown) or a lost answer, the same again with the same key until the answer is
# known. At the end List-o-Mat's SQLite database is read and set against every answer.
#   deploy/faults.sh                     # 120 s, 4 clients, a fault every ~4 s
#   DURATION=600 CLIENTS=8 deploy/faults.sh
# Prints the figures; exits 1 if any answer was not the truth (an acknowledged write
# missing, a write answered failed but stored, a write stored twice).
set -euo pipefail
cd "$(dirname "$0")/.."
source deploy/setup.sh
duration="${DURATION:-120}"
clients="${CLIENTS:-4}"
timeout_ms="${REQUEST_TIMEOUT_MS:-2000}"
swift build -c release >&2
bin="$(swift build -c release --show-bin-path)"
state="$(mktemp -d /tmp/intentd-faults-XXXXXX)"
chmod 700 "$state"
db="$state/sandboxes/com.listomat.intents/listomat.sqlite"
ctl() { "$bin/intentctl" "$@" --state-dir "$state"; }

"$bin/intentd" --state-dir "$state" --extensions lists:2 --request-timeout "$timeout_ms" >"$state/intentd.log" 2>&1 &
host=$!
children=()
cleanup() {
    for pid in "${children[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in $(pids); do kill -CONT "$pid" 2>/dev/null || true; done
    kill "$host" 2>/dev/null || true
    wait "$host" 2>/dev/null || true
}
pids() { ctl status --json 2>/dev/null | python3 -c 'import json,sys
try: print(" ".join(str(p) for e in json.load(sys.stdin)["extensions"] for p in e["processIdentifiers"]))
except Exception: pass'; }
trap cleanup EXIT
ctl wait List-o-Mat --for 60 >/dev/null
ctl send ListOMat CreateTaskList title="Chaos" >/dev/null

# One client: unique titles, one key each; retries an unknown outcome with the same key.
client() {
    local n=$1 i=0 end=$((SECONDS + duration))
    while ((SECONDS < end)); do
        local title="c$n-$i" key="chaos-$n-$i" tries=0 first="" code=""
        while :; do
            tries=$((tries + 1))
            set +e
            ctl send ListOMat AddTasks targetTaskList=Chaos taskTitles="$title" --idempotency-key "$key" --timeout 30 >/dev/null 2>&1
            code=$?
            set -e
            [ -n "$first" ] || first=$code
            # 0 done, 3/4/5 known not done; 6 unknown and 2 (no answer) are retried with the key.
            case $code in 0 | 3 | 4 | 5) break ;; esac
            ((tries < 100)) || break
            sleep 0.2
        done
        echo "$title $key $first $code $tries" >>"$state/answers-$n.txt"
        i=$((i + 1))
    done
}

# Faults at random: stop an instance for 1-6 s, kill one, or hold the write lock 1-6 s.
faults() {
    local end=$((SECONDS + duration)) kind pid
    while ((SECONDS < end)); do
        sleep "$((2 + RANDOM % 4))"
        read -r -a live <<<"$(pids)"
        ((${#live[@]})) || continue
        pid=${live[$((RANDOM % ${#live[@]}))]}
        kind=$((RANDOM % 3))
        case $kind in
        0) echo "stop $pid" >>"$state/faults.txt"; kill -STOP "$pid"; sleep "$((1 + RANDOM % 6))"; kill -CONT "$pid" ;;
        1) echo "kill $pid" >>"$state/faults.txt"; kill -9 "$pid" ;;
        2) echo "lock" >>"$state/faults.txt"
           python3 -c 'import sqlite3,sys,time
c = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=10); c.execute("BEGIN IMMEDIATE"); time.sleep(float(sys.argv[2])); c.execute("ROLLBACK")' "$db" "$((1 + RANDOM % 6))" ;;
        esac
    done
}

echo "faults: ${duration}s, $clients clients, request timeout ${timeout_ms} ms, state $state" >&2
for n in $(seq 1 "$clients"); do client "$n" & children+=($!); done
faults & children+=($!)
for pid in "${children[@]}"; do wait "$pid"; done
children=()
ctl wait List-o-Mat --for 60 >/dev/null

python3 - "$db" "$state" <<'EOF'
import glob, sqlite3, sys
db, state = sys.argv[1], sys.argv[2]
answers = [line.split() for f in glob.glob(state + "/answers-*.txt") for line in open(f)]
stored = dict(sqlite3.connect(db).execute("SELECT title, COUNT(*) FROM task WHERE title LIKE 'c%' GROUP BY title"))
faults = [line.split()[0] for line in open(state + "/faults.txt")] if glob.glob(state + "/faults.txt") else []
first_unknown = sum(1 for a in answers if a[2] not in ("0", "3", "4", "5"))
acked = [a for a in answers if a[3] == "0"]
failed = [a for a in answers if a[3] in ("3", "4", "5")]
unsettled = [a for a in answers if a[3] not in ("0", "3", "4", "5")]
missing = [a[0] for a in acked if stored.get(a[0]) != 1]
failed_stored = [a[0] for a in failed if a[0] in stored]
duplicates = [t for t, n in stored.items() if n > 1]
print(f"faults: {len(faults)} ({faults.count('stop')} stop, {faults.count('kill')} kill -9, {faults.count('lock')} lock)")
print(f"writes: {len(answers)}; first answer unknown (exit 6 or none): {first_unknown}; retries in all: {sum(int(a[4]) - 1 for a in answers)}")
print(f"final answers: {len(acked)} done, {len(failed)} failed, {len(unsettled)} still unknown after 100 tries")
print(f"stored rows: {sum(stored.values())} for {len(stored)} titles")
print(f"acknowledged but not stored once: {len(missing)}; answered failed but stored: {len(failed_stored)}; stored twice or more: {len(duplicates)}")
print(f"stored without a final 'done' (only possible for still-unknown ones): {len([t for t in stored if t not in {a[0] for a in acked}])}")
print(f"state directory (host log, database), left for a look: {state}")
sys.exit(1 if missing or failed_stored or duplicates else 0)
EOF
