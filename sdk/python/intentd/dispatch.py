"""Turns one REQUEST into one REPLY body by calling the extension's handler."""

import asyncio
import inspect
import json
import time

from . import wire
from .api import DeadlineExceeded, Intent, IntentResponse, Resolution
from .journal import KEY


def _json(value):
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode("utf-8")


def error_reply(text):
    return _json({"error": str(text)[:500]})


def _call(function, intent):
    """Calls a handler function; a coroutine runs to the deadline and is cancelled there."""
    result = function(intent)
    if inspect.isawaitable(result):
        remaining = intent.remaining()
        if remaining is not None and remaining <= 0:
            result.close() if hasattr(result, "close") else None
            raise DeadlineExceeded("the deadline passed")

        async def bounded():
            try:
                return await asyncio.wait_for(result, timeout=remaining)
            except asyncio.TimeoutError:
                raise DeadlineExceeded("cancelled at the deadline") from None
        result = asyncio.run(bounded())
    return result


def default_resolution(value, required):
    """Without a resolver: success with each value given; needsValue or notRequired if none."""
    if value is None or value == []:
        return [Resolution.needs_value() if required else Resolution.not_required()]
    return [Resolution.success(v) for v in (value if isinstance(value, list) else [value])]


def _checked(result):
    if not isinstance(result, Resolution):
        raise TypeError("a resolver returned %r, not a Resolution" % (result,))
    if result.kind == "disambiguation":  # 2 to 10 options, as the protocol requires
        return Resolution.disambiguation(result.members.get("options") or [])
    return result


class Dispatcher:
    def __init__(self, extension, journal):
        self.extension = extension
        self.journal = journal

    def reply(self, stage, intent_name, body):
        """The REPLY body, or None when the deadline passed (the host stopped waiting)."""
        try:
            request = json.loads(body)
        except (ValueError, UnicodeDecodeError) as error:
            return error_reply("the request body is not JSON: %s" % error)
        if not isinstance(request, dict):
            return error_reply("the request body is not a JSON object")
        intent = Intent(intent_name, wire.STAGES[stage], request)
        if intent.deadline is not None and time.time() >= intent.deadline:
            return None  # section 5a: start no work whose deadline passed
        try:
            handler = self.extension.handler(intent)
            if handler is None:
                return error_reply("this extension has no handler for %s" % intent_name)
            if stage == wire.RESOLVE:
                return self._resolve(handler, intent)
            if stage == wire.CONFIRM:
                return _json(self._response(_call(handler.confirm, intent)))
            return self._handle(handler, intent)
        except DeadlineExceeded:
            return None
        except Exception as error:  # an extension's bug is an ErrorReply, not a dead extension
            return error_reply("%s: %s" % (type(error).__name__, error))

    def _resolve(self, handler, intent):
        if intent.parameter is None:
            return error_reply("a resolve request must name its parameter")
        resolver = (handler.resolvers or {}).get(intent.parameter)
        if resolver is None:
            results = default_resolution(intent[intent.parameter], intent.required)
        else:
            results = _call(resolver, intent)
            results = results if isinstance(results, list) else [results]
            if not results:
                results = [Resolution.needs_value()]
        return _json({"results": [_checked(r).to_json() for r in results]})

    @staticmethod
    def _response(response):
        if not isinstance(response, IntentResponse):
            raise TypeError("confirm and handle return an IntentResponse, not %r" % (response,))
        return response.to_json()

    def _handle(self, handler, intent):
        key = intent.idempotency_key
        if key is not None and not KEY.match(key):
            return error_reply("the idempotency key is not 1 to 128 letters, digits, '-', '_', '.' or ':'")
        with self.journal.lock:  # handles run one at a time
            intent.check_deadline()  # the wait for the one before may have used it up
            if key is not None:
                recorded = self.journal.lookup(key)
                if recorded is not None:
                    if recorded[0] != intent.name:
                        return error_reply("the idempotency key was used for %s" % recorded[0])
                    return recorded[1]
            db = self.journal.db
            db.execute("BEGIN IMMEDIATE")
            try:
                intent.store = db
                reply = _json(self._response(_call(handler.handle, intent)))
                intent.check_deadline()  # never commit a handle after its deadline
                if key is not None:
                    self.journal.record(key, intent.name, reply)
                db.execute("COMMIT")
                return reply
            except BaseException:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                raise
