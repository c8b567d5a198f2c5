"""An extension's handlers in unit tests, with no host and no socket.

    with Tester(Notes) as tester:
        response = tester.handle("CreateNote", {"title": "Ideas"})
        assert response.code == "success"

`Tester` answers resolve, confirm and handle exactly as the SDK does when the host asks:
a handle runs in the sandbox database's transaction (`intent.store`), records its
idempotency key, commits, then runs its `after_commit` actions. Each tester has a sandbox of
its own, empty at first and removed at the end."""

import json
import logging
import os
import shutil
import tempfile

from . import wire
from .api import ExtensionContext, IntentResponse, UpdatePublisher, VocabularyPublisher
from .dispatch import Dispatcher
from .journal import Journal


class Tester:
    """An instance of `extension_type` in a new sandbox. What it publishes is kept in
    `updates` (topic and payload) and `vocabulary` (the requests, in order)."""

    def __init__(self, extension_type, bundle_identifier="com.example.tested"):
        self.sandbox_directory = tempfile.mkdtemp(prefix="intentd-test-")
        self.journal = Journal(os.path.join(self.sandbox_directory, "intentd.sqlite"))
        self._posted = []
        context = ExtensionContext(self.sandbox_directory, bundle_identifier, self.journal.path,
                                   UpdatePublisher(self._posted.append), VocabularyPublisher(self._posted.append),
                                   logging.getLogger(bundle_identifier))
        self.extension = extension_type(context)
        self._dispatcher = Dispatcher(self.extension, self.journal, context.log)

    @property
    def updates(self):
        return [(item[1], item[2]) for item in self._posted if item[0] == "update"]

    @property
    def vocabulary(self):
        return [item[1] for item in self._posted if item[0] == "vocabulary"]

    def resolve(self, intent, parameter, parameters=None, required=False):
        """The results resolving `parameter` gives, as the host reads them: a list of
        `{"kind": ..., "value": ...}` objects."""
        body = {"parameters": parameters or {}, "parameter": parameter, "required": required}
        return self._reply(wire.RESOLVE, intent, body)["results"]

    def confirm(self, intent, parameters=None):
        """The IntentResponse confirm gives."""
        return self._response(self._reply(wire.CONFIRM, intent, {"parameters": parameters or {}}))

    def handle(self, intent, parameters=None, idempotency_key=None):
        """The IntentResponse handle gives, once its changes are committed. Sent again with
        the same `idempotency_key`, the first response comes back and nothing is done again."""
        body = {"parameters": parameters or {}}
        if idempotency_key is not None:
            body["idempotencyKey"] = idempotency_key
        return self._response(self._reply(wire.HANDLE, intent, body))

    def close(self):
        """Lets the extension close its stores, and removes the sandbox."""
        try:
            self.extension.stop()
            self.journal.close()
        finally:
            shutil.rmtree(self.sandbox_directory, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *_):
        self.close()

    def _reply(self, stage, intent, body):
        answer = json.loads(self._dispatcher.reply(stage, intent, json.dumps(body).encode("utf-8")))
        if "error" in answer:  # what the host would get: an ErrorReply
            raise AssertionError("%s %s answered an error: %s" % (intent, wire.STAGES[stage], answer["error"]))
        return answer

    @staticmethod
    def _response(answer):
        return IntentResponse(answer["code"], answer.get("response"), answer.get("userActivity"))
