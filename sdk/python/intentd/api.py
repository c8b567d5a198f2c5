"""What an extension author writes against, shaped like the Swift SDK (IntentExtensionKit):
an Extension hands out a Handler per intent; a Handler has one resolver per parameter,
confirm (ready by default) and handle."""

import logging
import sqlite3
import time

MAXIMUM_OPTIONS = 10


class Resolution:
    """One resolution result (wire.md section 10.5): build it with the class methods."""

    KINDS = ("success", "disambiguation", "confirmationRequired", "needsValue", "notRequired", "unsupported")

    def __init__(self, kind, **members):
        if kind not in self.KINDS:
            raise ValueError("no resolution kind %r" % kind)
        self.kind, self.members = kind, members

    @classmethod
    def success(cls, value):
        """Matched: the host uses `value` from now on."""
        return cls("success", value=value)

    @classmethod
    def disambiguation(cls, options):
        """The user must pick one of `options`. One option is a success; none, or more than
        10, is needsValue: ask the user to be more specific rather than read a long list."""
        options = list(options)
        if len(options) == 1:
            return cls.success(options[0])
        if not options or len(options) > MAXIMUM_OPTIONS:
            return cls.needs_value()
        return cls("disambiguation", options=options)

    @classmethod
    def confirmation_required(cls, value, reason=None):
        """The user must confirm `value`; `reason`, one of the parameter's confirmationReasons in
        the catalog, says why (listShouldBeCreated)."""
        return cls("confirmationRequired", value=value, **({} if reason is None else {"reason": reason}))

    @classmethod
    def needs_value(cls):
        """Required and missing."""
        return cls("needsValue")

    @classmethod
    def not_required(cls):
        """The app ignores this parameter; the host drops the value."""
        return cls("notRequired")

    @classmethod
    def unsupported(cls, reason=None):
        """The value cannot be used; `reason` is one of the parameter's unsupportedReasons."""
        return cls("unsupported", reason=reason) if reason else cls("unsupported")

    def to_json(self):
        return dict(self.members, kind=self.kind)

    def __eq__(self, other):
        return isinstance(other, Resolution) and self.to_json() == other.to_json()

    def __repr__(self):
        return "Resolution(%r)" % self.to_json()


class IntentResponse:
    """The answer to confirm and handle (section 10.6): a code from the intent's
    responseCodes, what the app reports, and optionally a user activity."""

    def __init__(self, code, response=None, user_activity=None):
        self.code, self.response, self.user_activity = code, dict(response or {}), user_activity

    def to_json(self):
        body = {"code": self.code, "response": self.response}
        if self.user_activity is not None:
            body["userActivity"] = self.user_activity
        return body

    def __repr__(self):
        return "IntentResponse(%r)" % self.to_json()


class DeadlineExceeded(Exception):
    """The host stopped waiting for this request (section 5a): do not commit its work."""


class Intent:
    """One request: the intent's name and parameters, and for resolve the parameter asked."""

    def __init__(self, name, stage, body, store=None):
        self.name = name
        self.stage = stage
        self.session_id = body.get("sessionId") if isinstance(body.get("sessionId"), str) else ""
        self.language = body.get("language") if isinstance(body.get("language"), str) else "en"
        parameters = body.get("parameters")
        self.parameters = parameters if isinstance(parameters, dict) else {}
        self.parameter = body.get("parameter") if isinstance(body.get("parameter"), str) else None
        self.required = body.get("required") is True
        deadline = body.get("deadline")
        # Milliseconds since 1970 (wire.md section 5a); absent from hosts that do not send it.
        self.deadline = deadline / 1000.0 if isinstance(deadline, (int, float)) and not isinstance(deadline, bool) else None
        key = body.get("idempotencyKey")
        self.idempotency_key = key if isinstance(key, str) else None
        #: In handle: the sandbox database, inside the transaction that also records this
        #: handle's idempotency key (a `Store`). Write the handle's changes through it.
        self.store = store
        self.committed_actions = []

    def after_commit(self, action):
        """In handle: runs `action()` once the handle's changes are committed, never if they
        are rolled back. Push updates and vocabulary that tell of those changes from here."""
        self.committed_actions.append(action)

    def __getitem__(self, parameter):
        return self.parameters.get(parameter)

    def get(self, parameter, default=None):
        return self.parameters.get(parameter, default)

    def remaining(self):
        """Seconds until the deadline (None when the host sent none)."""
        return None if self.deadline is None else self.deadline - time.time()

    def check_deadline(self):
        """Raises DeadlineExceeded when the deadline has passed: call before committing."""
        if self.deadline is not None and time.time() >= self.deadline:
            raise DeadlineExceeded("the deadline of this %s passed" % self.name)


class Handler:
    """Handles one kind of intent. Set `resolvers` to {parameter: function(intent)} returning
    a Resolution (or a list, one per element of a list parameter). A parameter without a
    resolver resolves to success with the value given, or needsValue / notRequired when
    it is missing. Functions may be plain or `async def`: a coroutine is cancelled at the
    request's deadline; a plain function should check `intent.check_deadline()`. Requests run
    on worker threads; handles run one at a time, each in its own database transaction."""

    resolvers = {}

    def confirm(self, intent):
        """Whether the intent can be done; ready by default."""
        return IntentResponse("ready")

    def handle(self, intent):
        """Does it, and describes the result."""
        raise NotImplementedError("%s has no handle" % type(self).__name__)


class Extension:
    """An Intents extension: its manifest (class attribute `manifest`, a path) and a
    handler per intent. Created once, with an ExtensionContext, before it registers."""

    manifest = None
    #: Whether the host may send several stages of an intent in one request (wire.md,
    #: section 5b); the SDK runs them exactly as it runs them one by one.
    takes_batched_stages = True

    def __init__(self, context):
        self.context = context

    def handler(self, intent):
        """The Handler for `intent` (an Intent; look at `intent.name`), or None."""
        return None

    def stop(self):
        """Called once on a clean stop, after the host was told and the requests in flight
        were answered: close stores here."""


class UpdatePublisher:
    """Pushes updates that the host publishes as APP/TOPIC (section 19a). Thread-safe."""

    def __init__(self, post):
        self._post = post

    def publish(self, topic, payload):
        self._post(("update", topic, payload))

    def complete(self, intent, response):
        """Reports the end of long work that answered inProgress (topic `completion`)."""
        self.publish("completion", {"sessionId": intent.session_id, "intent": intent.name,
                                    "code": response.code, "response": response.response})


class VocabularyPublisher:
    """Sets user-specific vocabulary (section 19b): per type an ordered list of terms."""

    def __init__(self, post):
        self._post = post

    MAXIMUM_TERMS = 10000

    def set(self, terms, type):
        """Replaces the terms of `type` (such as `contactName`); an empty list removes them.
        Repeated terms are sent once, the first of each. Returns False, and sends nothing,
        when more than 10 000 different terms remain: the host would refuse them whole."""
        unique = list(dict.fromkeys(terms))
        if len(unique) > self.MAXIMUM_TERMS:
            return False
        self._post(("vocabulary", {"set": {"type": type, "terms": unique}}))
        return True

    def remove_all(self):
        self._post(("vocabulary", {"reset": True}))


class ExtensionContext:
    """What the SDK gives an extension when it starts."""

    def __init__(self, sandbox_directory, bundle_identifier, database, updates, vocabulary, log=None):
        #: The extension's private directory: keep all its data here.
        self.sandbox_directory = sandbox_directory
        self.bundle_identifier = bundle_identifier
        #: The SQLite file in the sandbox that also holds the idempotency journal.
        self.database = database
        self.updates = updates
        self.vocabulary = vocabulary
        self.log = log or logging.getLogger(bundle_identifier)

    def connect(self):
        """A new connection to the sandbox database (one per thread). Use it in a `with`
        block: it commits (or rolls back) and closes at the end."""
        return _ClosingConnection(self.database)


class _ClosingConnection:
    def __init__(self, path):
        self.db = sqlite3.connect(path, timeout=5)

    def __enter__(self):
        return self.db

    def __exit__(self, kind, error, trace):
        try:
            if kind is None:
                self.db.commit()
            else:
                self.db.rollback()
        finally:
            self.db.close()
