"""Jotter: a small notes app for the ListsAndNotes domain, written with the Python SDK.

Notes live in the SQLite database of the extension's sandbox. CreateNote makes one;
AppendToNote adds to one, found by its title: an unclear title asks which note
(disambiguation), a near miss asks to confirm, a missing text asks for it (needsValue).
Each change is pushed as an update (topic `note`) and the note titles are published as
user vocabulary (`notebookItemTitle`)."""

import pathlib

import intentd
from intentd import IntentResponse, Resolution

SEED = ["Shopping list", "Shopping for the party", "Packing"]


class Jotter(intentd.Extension):
    manifest = pathlib.Path(__file__).parent / "Manifest" / "Info.plist"

    def __init__(self, context):
        super().__init__(context)
        with context.connect() as db:
            db.execute("CREATE TABLE IF NOT EXISTS notes ("
                       "id INTEGER PRIMARY KEY, title TEXT NOT NULL UNIQUE, content TEXT NOT NULL)")
            if db.execute("SELECT count(*) FROM notes").fetchone()[0] == 0:
                db.executemany("INSERT INTO notes (title, content) VALUES (?, '')", [(t,) for t in SEED])
        self.publish_titles()

    def titles(self):
        with self.context.connect() as db:
            return [row[0] for row in db.execute("SELECT title FROM notes ORDER BY id").fetchall()]

    def publish_titles(self, db=None):
        if db is None:
            with self.context.connect() as db:
                return self.publish_titles(db)
        rows = db.execute("SELECT title FROM notes ORDER BY id DESC LIMIT 1000").fetchall()
        self.context.vocabulary.set([row[0] for row in rows], type="notebookItemTitle")

    def handler(self, intent):
        if intent.name == "CreateNote":
            return CreateNote(self)
        if intent.name == "AppendToNote":
            return AppendToNote(self)
        return None


def note_json(db, title):
    row = db.execute("SELECT id, title, content FROM notes WHERE title = ?", (title,)).fetchone()
    return {"identifier": "note-%d" % row[0], "title": row[1], "content": row[2]}


class CreateNote(intentd.Handler):
    def __init__(self, app):
        self.app = app
        self.resolvers = {"title": self.resolve_title, "groupName": lambda intent: Resolution.not_required()}

    def resolve_title(self, intent):
        title = intent["title"]
        if not isinstance(title, str) or not title.strip():
            return Resolution.needs_value()
        if title.strip().lower() in (t.lower() for t in self.app.titles()):
            return Resolution.unsupported()  # a note of that title exists
        return Resolution.success(title.strip())

    def handle(self, intent):
        db = intent.store  # the handle's transaction, which also records its idempotency key
        title, content = intent["title"], intent.get("content") or ""
        if not isinstance(title, str) or not isinstance(content, str):
            return IntentResponse("failure", {"reason": "a note needs a title"})
        db.execute("INSERT INTO notes (title, content) VALUES (?, ?)", (title, content))
        note = note_json(db, title)
        # Told once it is stored: a handle rolled back (its deadline passed) tells nothing.
        intent.after_commit(lambda: self.app.context.updates.publish("note", {"event": "created", "note": note}))
        intent.after_commit(self.app.publish_titles)
        return IntentResponse("success", {"createdNote": note})


class AppendToNote(intentd.Handler):
    def __init__(self, app):
        self.app = app
        self.resolvers = {"targetNote": self.resolve_target}

    def resolve_target(self, intent):
        wanted = intent["targetNote"]
        if not isinstance(wanted, str) or not wanted.strip():
            return Resolution.needs_value()
        wanted = wanted.strip().lower()
        titles = self.app.titles()
        exact = [t for t in titles if t.lower() == wanted]
        if exact:
            return Resolution.success(exact[0])
        containing = [t for t in titles if wanted in t.lower()]
        if len(containing) > 1:
            return Resolution.disambiguation(containing)
        if containing:
            return Resolution.confirmation_required(containing[0])
        return Resolution.unsupported()

    def confirm(self, intent):
        with self.app.context.connect() as db:
            found = db.execute("SELECT 1 FROM notes WHERE title = ?", (intent["targetNote"],)).fetchone()
        return IntentResponse("ready" if found else "failure")

    def handle(self, intent):
        db = intent.store
        title, content = intent["targetNote"], intent["content"]
        if not isinstance(content, str):
            return IntentResponse("failure", {"reason": "nothing to add"})
        row = db.execute("SELECT content FROM notes WHERE title = ?", (title,)).fetchone()
        if row is None:
            return IntentResponse("failure", {"reason": "no note %s" % title})
        text = (row[0] + "\n" + content) if row[0] else content
        db.execute("UPDATE notes SET content = ? WHERE title = ?", (text, title))
        note = note_json(db, title)
        intent.after_commit(lambda: self.app.context.updates.publish("note", {"event": "appended", "note": note}))
        return IntentResponse("success", {"note": note})
