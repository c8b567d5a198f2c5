"""An extension with the Python SDK whose handle is done in time but answered late: it
commits the note, then waits LATE_NOTES_SECONDS (1.5 by default) before its reply leaves.
Its confirm fails for a title that has a note, as an app whose first run is done would."""

import os
import pathlib
import time

import intentd
from intentd import IntentResponse


class CreateNote(intentd.Handler):
    def __init__(self, app):
        self.app = app

    def confirm(self, intent):
        with self.app.context.connect() as db:
            found = db.execute("SELECT 1 FROM notes WHERE title = ?", (intent["title"],)).fetchone()
        return IntentResponse("failure" if found else "ready")

    def handle(self, intent):
        intent.store.execute("INSERT INTO notes (title) VALUES (?)", (intent["title"],))
        intent.after_commit(lambda: time.sleep(float(os.environ.get("LATE_NOTES_SECONDS", "1.5"))))
        return IntentResponse("success", {"createdNote": {"identifier": "n", "title": intent["title"], "content": ""}})


class LateNotes(intentd.Extension):
    manifest = pathlib.Path(__file__).with_name("LateNotes.plist")

    def __init__(self, context):
        super().__init__(context)
        with context.connect() as db:
            db.execute("CREATE TABLE IF NOT EXISTS notes (title TEXT NOT NULL)")

    def handler(self, intent):
        return CreateNote(self)


intentd.run(LateNotes)
