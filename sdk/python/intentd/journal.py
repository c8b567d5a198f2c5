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

    def __init__(self, path, keep_bytes=KEEP_BYTES, keep_newest=KEEP_NEWEST):
        self.path = path
        self.keep_bytes = keep_bytes
        self.keep_newest = keep_newest
        self.lock = threading.Lock()
        try:
            self.db = sqlite3.connect(path, timeout=5, isolation_level=None, check_same_thread=False)
            check = self.db.execute("PRAGMA quick_check").fetchone()
        except sqlite3.DatabaseError as error:
            raise DamagedStore("%s: %s" % (path, error)) from None
        if not check or check[0] != "ok":
            raise DamagedStore("%s fails its integrity check: %s" % (path, check and check[0]))
        self.db.execute("PRAGMA journal_mode = WAL")
        self.db.execute("PRAGMA busy_timeout = 5000")
        # The keys and bytes kept are counted in a table of their own, by triggers, so that a
        # prune reads two numbers and the oldest rows, never the whole journal. Made in one
        # transaction, so that instances opening together count a journal made before once.
        self.db.execute("BEGIN IMMEDIATE")
        try:
            self.db.execute("CREATE TABLE IF NOT EXISTS intentd_handled ("
                            "key TEXT PRIMARY KEY, intent TEXT NOT NULL, reply BLOB NOT NULL, time REAL NOT NULL)")
            self.db.execute("CREATE INDEX IF NOT EXISTS intentd_handled_time ON intentd_handled (time)")
            self.db.execute("CREATE TABLE IF NOT EXISTS intentd_handled_totals ("
                            "id INTEGER PRIMARY KEY CHECK (id = 1), keys INTEGER NOT NULL, bytes INTEGER NOT NULL)")
            self.db.execute("INSERT OR IGNORE INTO intentd_handled_totals "
                            "SELECT 1, COUNT(*), IFNULL(SUM(length(reply)), 0) FROM intentd_handled")
            self.db.execute("CREATE TRIGGER IF NOT EXISTS intentd_handled_added AFTER INSERT ON intentd_handled BEGIN "
                            "UPDATE intentd_handled_totals SET keys = keys + 1, bytes = bytes + length(NEW.reply); END")
            self.db.execute("CREATE TRIGGER IF NOT EXISTS intentd_handled_removed AFTER DELETE ON intentd_handled BEGIN "
                            "UPDATE intentd_handled_totals SET keys = keys - 1, bytes = bytes - length(OLD.reply); END")
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise

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
        self.db.execute("DELETE FROM intentd_handled WHERE time < ?", (now - KEEP_SECONDS,))
        # Then the oldest keys but this one, while over either bound.
        while True:
            over = self.db.execute("SELECT MAX(1, keys - ?) FROM intentd_handled_totals WHERE keys > ? OR bytes > ?",
                                   (self.keep_newest, self.keep_newest, self.keep_bytes)).fetchone()
            if over is None:
                return
            deleted = self.db.execute("DELETE FROM intentd_handled WHERE key IN "
                                      "(SELECT key FROM intentd_handled WHERE key != ? ORDER BY time LIMIT ?)", (key, over[0]))
            if deleted.rowcount <= 0:
                return

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
