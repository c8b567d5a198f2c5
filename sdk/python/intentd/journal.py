"""The idempotency journal (wire.md section 5a): for each handle key completed, the intent
and the REPLY body sent, in the sandbox's SQLite database, recorded in the same transaction
as the handle's own changes (made through `intent.store`)."""

import logging
import re
import sqlite3
import threading
import time

KEY = re.compile(r"^[A-Za-z0-9_.:\-]{1,128}$")
KEEP_SECONDS = 86400
KEEP_NEWEST = 10000
KEEP_BYTES = 64 << 20
DAMAGED_EXIT = 74


class DamagedStore(Exception):
    """The sandbox database fails its integrity check: exit 74 instead of registering."""


class Journal:
    """One connection to the sandbox database, used by one handle at a time."""

    def __init__(self, path, keep_bytes=KEEP_BYTES):
        self.path = path
        self.keep_bytes = keep_bytes
        self.lock = threading.Lock()
        self.recorded = 0
        try:
            self.db = sqlite3.connect(path, timeout=5, isolation_level=None, check_same_thread=False)
            check = self.db.execute("PRAGMA quick_check").fetchone()
        except sqlite3.DatabaseError as error:
            raise DamagedStore("%s: %s" % (path, error)) from None
        if not check or check[0] != "ok":
            raise DamagedStore("%s fails its integrity check: %s" % (path, check and check[0]))
        self.db.execute("PRAGMA journal_mode = WAL")
        self.db.execute("PRAGMA busy_timeout = 5000")
        self.db.execute("CREATE TABLE IF NOT EXISTS intentd_handled ("
                        "key TEXT PRIMARY KEY, intent TEXT NOT NULL, reply BLOB NOT NULL, time REAL NOT NULL)")

    def lookup(self, key):
        """(intent, reply bytes) recorded for `key`, or None. Call holding `lock`."""
        row = self.db.execute("SELECT intent, reply FROM intentd_handled WHERE key = ?", (key,)).fetchone()
        return (row[0], bytes(row[1])) if row else None

    def record(self, key, intent, reply):
        """Records `key` in the open transaction, which looked it up first. Call holding
        `lock`. A key recorded already is an error: the first run's reply is never replaced."""
        now = time.time()
        self.db.execute("INSERT INTO intentd_handled (key, intent, reply, time) VALUES (?, ?, ?, ?)",
                        (key, intent, reply, now))
        self.recorded += 1
        if self.recorded % 100 == 1:
            self.db.execute("DELETE FROM intentd_handled WHERE time < ? OR key NOT IN "
                            "(SELECT key FROM intentd_handled ORDER BY time DESC LIMIT ?)",
                            (now - KEEP_SECONDS, KEEP_NEWEST))
            # And by size: the newest replies that come to KEEP_BYTES.
            self.db.execute("DELETE FROM intentd_handled WHERE key IN (SELECT key FROM ("
                            "SELECT key, SUM(length(reply)) OVER (ORDER BY time DESC) AS running FROM intentd_handled) "
                            "WHERE running > ?)", (self.keep_bytes,))

    @staticmethod
    def log_failure(error):
        """Logs an action run after a commit that failed (the handle is done regardless)."""
        logging.getLogger("intentd").error("after the commit: %s: %s", type(error).__name__, error)

    def close(self):
        """Checkpoints the write-ahead log and closes."""
        with self.lock:
            try:  # best effort: a connection the extension left reading keeps the log
                self.db.execute("PRAGMA busy_timeout = 100")
                self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            finally:
                self.db.close()
