"""Turns one REQUEST into one REPLY body by calling the extension's handler."""

import asyncio
import inspect
import json
import logging
import time

from . import wire
from .api import DeadlineExceeded, Intent, IntentResponse, Resolution
from .journal import KEY


def _json(value):
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode("utf-8")


def error_reply(text):
    return _json({"error": str(text)[:500]})


def raised_reply(error):
    """The ErrorReply for an exception a handler raised: its words, which the user may hear
    ("It said: ..."), or its class's name when it has none. The traceback, class and all,
    goes to the extension's log, for its author."""
    return error_reply(str(error) or type(error).__name__)


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


def expected_count(given, is_list):
    """How many results a resolve gives: one per element of a list (one when absent), else one."""
    return max(1, len(given) if isinstance(given, list) else 0) if is_list else 1


def continues(results, given, is_list):
    """Whether a batch goes on after these results: all settled and as many as expected."""
    settled = all(isinstance(r, dict) and r.get("kind") in ("success", "notRequired") for r in results)
    return settled and len(results) == expected_count(given, is_list)


def apply_results(results, name, is_list, parameters):
    """Puts resolved values in place as the host does (wire.md, section 9 step 4)."""
    if is_list:
        given = parameters.get(name) if isinstance(parameters.get(name), list) else []
        kept = []
        for index, result in enumerate(results):
            if result["kind"] == "success":
                kept.append(result.get("value"))
            elif result["kind"] != "notRequired" and index < len(given):
                kept.append(given[index])
        if kept:
            parameters[name] = kept
        else:
            parameters.pop(name, None)
    elif results[0]["kind"] == "success":
        parameters[name] = results[0].get("value")
    elif results[0]["kind"] == "notRequired":
        parameters.pop(name, None)


MAXIMUM_RESOLVES = 64  # wire.md, section 5b: a batch resolves each parameter once, at most 64


def _batch_reply(replies):
    """A BatchReply, or None when not even the first step ran (its deadline had passed)."""
    return b'{"replies":[' + b",".join(replies) + b"]}" if replies else None


REPLY_HEADER = 32  # a REPLY's bytes besides its body, with room to spare (wire.py)


class Store:
    """The handle's connection to the sandbox database, inside the transaction that also
    records its idempotency key: `execute`, `executemany` and `cursor` as on a sqlite3
    connection. The SDK commits (after the handler returns, before its deadline) or rolls
    back, so `commit`, `rollback`, `executescript` and `with store:` are refused: each
    would end the transaction early, and the key would be recorded apart from the work."""

    def __init__(self, db):
        self._db = db

    def execute(self, *arguments):
        return self._db.execute(*arguments)

    def executemany(self, *arguments):
        return self._db.executemany(*arguments)

    def cursor(self):
        return self._db.cursor()

    def _refused(self, *arguments):
        raise RuntimeError("a handle's store commits when the handler returns; do not commit, "
                           "roll back or run scripts on it")

    commit = rollback = executescript = close = __enter__ = __exit__ = _refused


class Dispatcher:
    def __init__(self, extension, journal, log=None):
        self.extension = extension
        self.journal = journal
        #: The extension's log (its name, not the host's, heads each line).
        self.log = log or logging.getLogger("intentd")
        #: The largest REPLY body the host takes: its `maxMessageBytes` (from REGISTERED,
        #: set by the connection) less the header.
        self.max_reply_bytes = 1048576 - REPLY_HEADER

    def reply(self, stage, intent_name, body, budget=None):
        """The REPLY body, or None when the deadline passed (the host stopped waiting).
        `budget`: bytes a handle's reply may take (within a batch, less than the whole)."""
        try:
            request = json.loads(body)
        except (ValueError, UnicodeDecodeError) as error:
            return error_reply("the request body is not JSON: %s" % error)
        if not isinstance(request, dict):
            return error_reply("the request body is not a JSON object")
        if request.get("batch") is not None:
            return self._batch(stage, intent_name, request)
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
            return self._handle(handler, intent, self.max_reply_bytes if budget is None else budget)
        except DeadlineExceeded:
            self.log.warning("%s %s: not done, its deadline passed", intent_name, wire.STAGES[stage])
            return None
        except Exception as error:  # an extension's bug is an ErrorReply, not a dead extension
            # The traceback goes to the extension's log (its standard error), for its author.
            self.log.exception("%s %s failed", intent_name, wire.STAGES[stage])
            return raised_reply(error)

    def _batch(self, stage, intent_name, request):
        """Runs a batch (wire.md, section 5b) as the stages one by one: each through
        `reply` with the body the host would have sent for it, resolved values put in place
        for the next by the host's rule, stopping at the first resolve that is not settled,
        at a confirm that is not `ready` and at an error. Answers a BatchReply."""
        batch = request["batch"]
        entries = batch.get("resolve") if isinstance(batch, dict) else None
        if not isinstance(entries, list) or not all(isinstance(e, dict) and isinstance(e.get("parameter"), str) for e in entries):
            return error_reply("request.batch must be an object with a resolve list of parameters")
        names = [e["parameter"] for e in entries]
        if len(names) > MAXIMUM_RESOLVES or len(set(names)) != len(names):
            return error_reply("request.batch.resolve has at most %d entries, each parameter once" % MAXIMUM_RESOLVES)
        confirm, handle = batch.get("confirm") is True, batch.get("handle") is True
        if handle and not confirm:
            return error_reply("request.batch.handle needs confirm")
        last = wire.HANDLE if handle else wire.CONFIRM if confirm else wire.RESOLVE
        if last != stage:
            return error_reply("a batch that ends with %s came as a %s request" % (wire.STAGES[last], wire.STAGES[stage]))
        parameters = dict(request.get("parameters") or {}) if isinstance(request.get("parameters"), dict) else {}
        key = request.get("idempotencyKey")
        replies = []

        def run(step, budget=None, **members):
            body = {k: v for k, v in request.items() if k not in ("batch", "idempotencyKey")}
            body["parameters"] = dict(parameters)
            body.update(members)
            answer = self.reply(step, intent_name, _json(body), budget)
            if answer is not None:
                replies.append(answer)
            return None if answer is None else json.loads(answer)

        for entry in entries:
            name, is_list = entry["parameter"], entry.get("list") is True
            answer = run(wire.RESOLVE, parameter=name, required=entry.get("required") is True)
            results = answer.get("results") if isinstance(answer, dict) else None
            if not isinstance(results, list) or not continues(results, parameters.get(name), is_list):
                return _batch_reply(replies)
            apply_results(results, name, is_list, parameters)
        if confirm:
            answer = run(wire.CONFIRM)
            if handle and isinstance(answer, dict) and answer.get("code") == "ready":
                # The handle's reply must fit beside the replies before it.
                budget = self.max_reply_bytes - len(_batch_reply(replies) or b"") - 2
                run(wire.HANDLE, budget=budget, **({} if key is None else {"idempotencyKey": key}))
        return _batch_reply(replies)

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

    def _handle(self, handler, intent, budget):
        key = intent.idempotency_key
        if key is not None and not KEY.match(key):
            return error_reply("the idempotency key is not 1 to 128 letters, digits, '-', '_', '.' or ':'")
        # Handles of this process run one at a time; waiting for the one before ends at
        # this one's deadline (then the host has stopped waiting too: no answer).
        remaining = intent.remaining()
        if remaining is not None and remaining <= 0:
            raise DeadlineExceeded("the deadline passed")
        if not self.journal.lock.acquire(timeout=-1 if remaining is None else remaining):
            raise DeadlineExceeded("the handle before this one still runs")
        try:
            intent.check_deadline()
            db = self.journal.db
            # The store's write lock, which other instances sharing the sandbox take too: the
            # key is looked up under it, so a retry sent to another instance while this one
            # commits the first run finds that run recorded instead of running again.
            db.execute("BEGIN IMMEDIATE")
            try:
                if key is not None:
                    recorded = self.journal.lookup(key)
                    if recorded is not None:
                        if recorded[0] != intent.name:
                            return error_reply("the idempotency key was used for %s" % recorded[0])
                        return recorded[1]
                intent.store = Store(db)
                reply = _json(self._response(_call(handler.handle, intent)))
                # Nothing is committed that the host could not read: the answer would have
                # to be an error then, though the work was done.
                if len(reply) > budget:
                    return error_reply("the handle's reply of %d bytes is over the host's limit of %d; "
                                       "nothing was done" % (len(reply), budget))
                intent.check_deadline()  # never commit a handle after its deadline
                if key is not None:
                    self.journal.record(key, intent.name, reply)
                db.execute("COMMIT")
            finally:
                if db.in_transaction:
                    db.execute("ROLLBACK")
        finally:
            self.journal.lock.release()
        for action in intent.committed_actions:
            try:
                action()
            except Exception as error:  # the handle is done; its reply still goes
                self.journal.log_failure(error)
        return reply
