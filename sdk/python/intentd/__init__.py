"""Write intentd extensions in Python (wire protocol version 2).

    import intentd

    class Notes(intentd.Extension):
        manifest = pathlib.Path(__file__).parent / "Manifest" / "Info.plist"
        def handler(self, intent):
            return CreateNoteHandler() if intent.name == "CreateNote" else None

    class CreateNoteHandler(intentd.Handler):
        def handle(self, intent):
            return intentd.IntentResponse("success", {"title": intent["title"]})

    intentd.run(Notes)

The SDK owns the connection to the host: registration, heartbeats, reconnection, identity,
deadlines, idempotency keys and a clean stop; the extension only answers resolve, confirm
and handle."""

from .api import (DeadlineExceeded, Extension, ExtensionContext, Handler, Intent, IntentResponse,
                  Resolution, UpdatePublisher, VocabularyPublisher)
from .runner import run

__all__ = ["DeadlineExceeded", "Extension", "ExtensionContext", "Handler", "Intent", "IntentResponse",
           "Resolution", "UpdatePublisher", "VocabularyPublisher", "run"]
