"""Unit tests of the Python SDK: framing, manifest, resolution rules, the dispatcher with its
idempotency journal and deadlines, and key files. Run: python3 -m unittest discover sdk/python/tests"""

import asyncio
import json
import os
import pathlib
import sqlite3
import struct
import sys
import logging
import tempfile
import threading
import time
import unittest

HERE = pathlib.Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent), str(HERE.parent / "examples")]

import intentd  # noqa: E402
from intentd import identity, manifest, wire  # noqa: E402
from intentd.connection import Connection  # noqa: E402
from intentd.dispatch import Dispatcher  # noqa: E402
from intentd.journal import DamagedStore, Journal  # noqa: E402
from intentd.api import IntentResponse, Resolution  # noqa: E402

JOTTER_MANIFEST = HERE.parent / "examples" / "jotter" / "Manifest" / "Info.plist"


def request(stage, intent, body):
    return wire.SIGNATURE + bytes([wire.REQUEST]) + struct.pack(">QB", 7, stage) + wire.name(intent) + body


class WireTests(unittest.TestCase):
    def test_a_request_is_read_with_its_id_stage_intent_and_body(self):
        self.assertEqual(wire.parse(request(wire.HANDLE, "CreateNote", b"{}")),
                         (wire.REQUEST, 7, wire.HANDLE, "CreateNote", b"{}"))

    def test_a_reply_carries_the_request_id_in_eight_big_endian_bytes(self):
        self.assertEqual(wire.reply(258, b"{}"), b"intentd/2\x05" + b"\0" * 6 + b"\x01\x02{}")

    def test_a_version_1_message_or_a_bad_stage_or_a_heartbeat_with_a_body_is_malformed(self):
        for frame in [b"intentd/1\x06", request(4, "X", b""), b"intentd/2\x06x", b"intentd/2\x04" + b"\0" * 9 + b"\x00",
                      b"intentd/2\x03\x09abc"]:
            with self.assertRaises(wire.Malformed, msg=frame):
                wire.parse(frame)

    def test_a_rejection_is_read_as_code_and_reason(self):
        self.assertEqual(wire.parse(b"intentd/2\x03" + wire.name("appTaken") + b"taken"), (wire.REJECTED, "appTaken", "taken"))

    def test_names_longer_than_255_bytes_are_refused(self):
        with self.assertRaises(ValueError):
            wire.update("x" * 256, b"{}")


class ManifestTests(unittest.TestCase):
    def test_the_manifest_becomes_a_registration_with_catalog_intent_names(self):
        registration = manifest.read(str(JOTTER_MANIFEST))
        self.assertEqual(registration["bundleIdentifier"], "org.example.jotter")
        self.assertEqual(registration["appName"], "Jotter")
        self.assertEqual(registration["intentsSupported"], ["CreateNote", "AppendToNote"])
        self.assertEqual(registration["protocolVersion"], 2)

    def test_sirikit_class_names_are_normalised_and_others_kept(self):
        self.assertEqual(manifest.normalise("INSendMessageIntent"), "SendMessage")
        self.assertEqual(manifest.normalise("INIntent"), "INIntent")
        self.assertEqual(manifest.normalise("CreateNote"), "CreateNote")

    def test_a_manifest_without_intents_is_refused(self):
        with tempfile.NamedTemporaryFile("wb", suffix=".plist") as f:
            import plistlib
            plistlib.dump({"CFBundleIdentifier": "a.b", "CFBundleName": "A"}, f)
            f.flush()
            with self.assertRaises(manifest.ManifestError):
                manifest.read(f.name)

    def test_bundle_identifiers_must_be_reverse_dns(self):
        self.assertIsNone(manifest.bundle_problem("org.example.jotter"))
        for bad in ["jotter", "../etc", "a..b", "-a.b", "a.b/c"]:
            self.assertIsNotNone(manifest.bundle_problem(bad), bad)


class ResolutionTests(unittest.TestCase):
    def test_disambiguation_keeps_two_to_ten_options(self):
        self.assertEqual(Resolution.disambiguation(["a", "b"]).to_json(), {"kind": "disambiguation", "options": ["a", "b"]})
        self.assertEqual(Resolution.disambiguation(["a"]).to_json(), {"kind": "success", "value": "a"})
        self.assertEqual(Resolution.disambiguation([]).kind, "needsValue")
        self.assertEqual(Resolution.disambiguation(range(11)).kind, "needsValue")

    def test_every_kind_has_the_members_the_protocol_names(self):
        self.assertEqual(Resolution.confirmation_required(1).to_json(), {"kind": "confirmationRequired", "value": 1})
        self.assertEqual(Resolution.unsupported("tooLong").to_json(), {"kind": "unsupported", "reason": "tooLong"})
        self.assertEqual(Resolution.unsupported().to_json(), {"kind": "unsupported"})
        self.assertEqual(Resolution.not_required().to_json(), {"kind": "notRequired"})


class Counting(intentd.Handler):
    """Counts its handles in the sandbox database; sleeps when asked to."""

    def __init__(self, sleep=0.0, asynchronous=False):
        self.sleep = sleep
        self.resolvers = {"title": lambda intent: Resolution.disambiguation(["A", "B"])}
        if asynchronous:
            self.handle = self.handle_async

    def handle(self, intent):
        time.sleep(self.sleep)
        intent.store.execute("INSERT INTO done (title) VALUES (?)", (intent["title"],))
        count = intent.store.execute("SELECT count(*) FROM done").fetchone()[0]
        return IntentResponse("success", {"count": count})

    async def handle_async(self, intent):
        intent.store.execute("INSERT INTO done (title) VALUES (?)", (intent["title"],))
        await asyncio.sleep(self.sleep)
        return IntentResponse("success", {})


class App(intentd.Extension):
    def __init__(self, handler):
        self._handler = handler

    def handler(self, intent):
        return self._handler if intent.name == "CreateNote" else None


class DispatcherTests(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.journal = Journal(os.path.join(self.dir.name, "intentd.sqlite"))
        self.journal.db.execute("CREATE TABLE done (title TEXT)")

    def tearDown(self):
        self.journal.close()
        self.dir.cleanup()

    def reply(self, stage, body, handler=None, intent="CreateNote"):
        dispatcher = Dispatcher(App(handler or Counting()), self.journal)
        raw = dispatcher.reply(stage, intent, json.dumps(body).encode() if not isinstance(body, bytes) else body)
        return None if raw is None else json.loads(raw)

    def done(self):
        return self.journal.db.execute("SELECT count(*) FROM done").fetchone()[0]

    def test_resolve_uses_the_resolver_or_the_value_as_given(self):
        self.assertEqual(self.reply(1, {"parameter": "title", "parameters": {}})["results"][0]["kind"], "disambiguation")
        self.assertEqual(self.reply(1, {"parameter": "content", "parameters": {"content": ["x", "y"]}}),
                         {"results": [{"kind": "success", "value": "x"}, {"kind": "success", "value": "y"}]})
        self.assertEqual(self.reply(1, {"parameter": "content", "parameters": {}, "required": True}),
                         {"results": [{"kind": "needsValue"}]})
        self.assertEqual(self.reply(1, {"parameter": "content", "parameters": {}}), {"results": [{"kind": "notRequired"}]})

    def test_a_batch_resolves_in_order_with_resolved_values_in_place_then_confirms_and_handles_with_the_key(self):
        batch = {"resolve": [{"parameter": "content", "required": True, "list": True}], "confirm": True, "handle": True}
        body = {"parameters": {"content": ["x"], "title": "t"}, "batch": batch, "idempotencyKey": "k-b"}
        answer = self.reply(3, body)
        self.assertEqual(answer["replies"], [
            {"results": [{"kind": "success", "value": "x"}]}, {"code": "ready", "response": {}},
            {"code": "success", "response": {"count": 1}}])
        self.assertEqual(self.reply(3, body)["replies"][2], {"code": "success", "response": {"count": 1}})
        self.assertEqual(self.done(), 1, "the key made the repeated batch's handle a replay")

    def test_a_batch_stops_at_the_first_resolution_that_needs_the_user_and_never_handles(self):
        batch = {"resolve": [{"parameter": "title", "required": True}, {"parameter": "content"}], "confirm": True, "handle": True}
        answer = self.reply(3, {"parameters": {}, "batch": batch, "idempotencyKey": "k-s"})
        self.assertEqual([r["results"][0]["kind"] for r in answer["replies"]], ["disambiguation"])
        self.assertEqual(self.done(), 0)

    def test_a_batch_whose_stage_byte_is_not_its_last_stage_is_refused(self):
        batch = {"resolve": [{"parameter": "content"}], "confirm": True, "handle": True}
        self.assertIn("error", self.reply(2, {"parameters": {}, "batch": batch}))
        self.assertEqual(self.done(), 0)

    def test_confirm_is_ready_by_default(self):
        self.assertEqual(self.reply(2, {"parameters": {}}), {"code": "ready", "response": {}})

    def test_bodies_that_are_not_stage_requests_and_unknown_intents_get_an_error_reply(self):
        for body in [b"not json", b"[1]", {"parameters": {}}]:
            stage = 1 if isinstance(body, dict) else 3
            self.assertIn("error", self.reply(stage, body), body)
        self.assertIn("error", self.reply(3, {"parameters": {}}, intent="AppendToNote"))

    def test_a_handler_that_raises_is_an_error_reply_and_its_traceback_goes_to_the_log(self):
        class Failing(Counting):
            def confirm(self, intent):
                raise ValueError("boom")
        with self.assertLogs("intentd", level="ERROR") as logged:
            self.assertEqual(self.reply(2, {"parameters": {}}, handler=Failing()), {"error": "boom"})
        self.assertIn("Traceback", "\n".join(logged.output))
        self.assertIn("CreateNote confirm failed", "\n".join(logged.output))
        self.assertIn("ValueError: boom", "\n".join(logged.output), "the class is in the log, not in the words")

    def test_a_handle_repeated_with_its_key_gets_the_first_answer_and_is_done_once(self):
        body = {"parameters": {"title": "t"}, "idempotencyKey": "k-1"}
        first = self.reply(3, body)
        self.assertEqual(self.reply(3, body), first)
        self.assertEqual(self.done(), 1)
        self.assertIsNotNone(self.journal.lookup("k-1"))
        self.assertEqual(self.reply(3, {"parameters": {"title": "t"}, "idempotencyKey": "k-2"})["response"]["count"], 2)

    def test_a_key_recorded_for_another_intent_gets_an_error_reply(self):
        self.reply(3, {"parameters": {"title": "t"}, "idempotencyKey": "k"})
        other = Dispatcher(App(None), self.journal)
        other.extension.handler = lambda intent: Counting()
        self.assertIn("error", json.loads(other.reply(3, "AppendToNote", b'{"parameters":{},"idempotencyKey":"k"}')))

    def test_a_malformed_key_is_refused(self):
        self.assertIn("error", self.reply(3, {"parameters": {"title": "t"}, "idempotencyKey": "a b"}))
        self.assertEqual(self.done(), 0)

    def test_handles_without_a_key_work_against_hosts_that_send_none(self):
        self.reply(3, {"parameters": {"title": "t"}})
        self.reply(3, {"parameters": {"title": "t"}})
        self.assertEqual(self.done(), 2)

    def test_work_whose_deadline_passed_is_not_started(self):
        past = int(time.time() * 1000) - 1
        self.assertIsNone(self.reply(3, {"parameters": {"title": "t"}, "deadline": past, "idempotencyKey": "k"}))
        self.assertIsNone(self.reply(1, {"parameter": "title", "parameters": {}, "deadline": past}))
        self.assertEqual(self.done(), 0)
        self.assertIsNone(self.journal.lookup("k"))

    def test_a_handle_that_ends_after_its_deadline_is_rolled_back_and_not_recorded(self):
        soon = int(time.time() * 1000) + 100
        body = {"parameters": {"title": "t"}, "deadline": soon, "idempotencyKey": "late"}
        self.assertIsNone(self.reply(3, body, handler=Counting(sleep=0.3)))
        self.assertEqual(self.done(), 0)
        self.assertIsNone(self.journal.lookup("late"))

    def test_an_async_handle_is_cancelled_at_its_deadline(self):
        soon = int(time.time() * 1000) + 100
        started = time.monotonic()
        self.assertIsNone(self.reply(3, {"parameters": {"title": "t"}, "deadline": soon},
                                     handler=Counting(sleep=30, asynchronous=True)))
        self.assertLess(time.monotonic() - started, 10)
        self.assertEqual(self.done(), 0)

    def test_a_retry_sent_to_another_instance_while_the_first_run_commits_is_not_done_twice(self):
        # Two instances share the sandbox: each its own connection and its own lock.
        other = Journal(os.path.join(self.dir.name, "intentd.sqlite"))
        self.addCleanup(other.close)
        body = json.dumps({"parameters": {"title": "t"}, "idempotencyKey": "shared"}).encode()
        replies = {}

        def first():
            replies["first"] = Dispatcher(App(Counting(sleep=0.5)), self.journal).reply(3, "CreateNote", body)
        thread = threading.Thread(target=first)
        thread.start()
        time.sleep(0.1)
        replies["retry"] = Dispatcher(App(Counting()), other).reply(3, "CreateNote", body)
        thread.join()
        self.assertEqual(self.done(), 1)
        self.assertEqual(replies["retry"], replies["first"])

    def test_a_handle_reply_over_the_hosts_limit_is_an_error_and_nothing_is_committed(self):
        class Large(Counting):
            def handle(self, intent):
                super().handle(intent)
                return IntentResponse("success", {"blob": "x" * 5000})
        dispatcher = Dispatcher(App(Large()), self.journal)
        dispatcher.max_reply_bytes = 4000
        raw = dispatcher.reply(3, "CreateNote", b'{"parameters":{"title":"t"},"idempotencyKey":"big"}')
        self.assertIn("nothing was done", json.loads(raw)["error"])
        self.assertEqual(self.done(), 0)
        self.assertIsNone(self.journal.lookup("big"))

    def test_the_store_refuses_to_commit_or_roll_back_the_handles_transaction(self):
        class Committing(Counting):
            def handle(self, intent):
                with intent.store:
                    intent.store.execute("INSERT INTO done (title) VALUES ('x')")
                return IntentResponse("success", {})
        self.assertIn("error", self.reply(3, {"parameters": {"title": "t"}, "idempotencyKey": "c"}, handler=Committing()))
        self.assertEqual(self.done(), 0)
        self.assertIsNone(self.journal.lookup("c"))

    def test_waiting_for_the_handle_before_ends_at_the_deadline(self):
        slow = threading.Thread(target=lambda: self.reply(3, {"parameters": {"title": "slow"}}, handler=Counting(sleep=2)))
        slow.start()
        time.sleep(0.1)
        started = time.monotonic()
        soon = int(time.time() * 1000) + 300
        self.assertIsNone(self.reply(3, {"parameters": {"title": "t"}, "deadline": soon}))
        self.assertLess(time.monotonic() - started, 1.5)
        slow.join()
        self.assertEqual(self.done(), 1)

    def test_actions_after_the_commit_run_once_it_is_committed_and_never_after_a_rollback(self):
        told = []

        class Telling(Counting):
            def handle(self, intent):
                intent.after_commit(lambda: told.append(self.sleep))
                return super().handle(intent)
        self.reply(3, {"parameters": {"title": "t"}}, handler=Telling())
        self.assertEqual(told, [0.0])
        soon = int(time.time() * 1000) + 100
        self.assertIsNone(self.reply(3, {"parameters": {"title": "t"}, "deadline": soon}, handler=Telling(sleep=0.3)))
        self.assertEqual(told, [0.0])

    def test_the_journal_keeps_at_most_its_bytes_of_replies_the_newest(self):
        journal = Journal(os.path.join(self.dir.name, "bounded.sqlite"), keep_bytes=100000)
        self.addCleanup(journal.close)
        large = b"a" * 10000
        for i in range(102):
            with journal.lock:
                journal.db.execute("BEGIN IMMEDIATE")
                journal.record("key-%d" % i, "CreateNote", large)
                journal.db.execute("COMMIT")
        kept = journal.db.execute("SELECT SUM(length(reply)) FROM intentd_handled").fetchone()[0]
        self.assertEqual(kept, 100000)
        self.assertEqual(journal.lookup("key-101"), ("CreateNote", large))
        self.assertIsNone(journal.lookup("key-91"))

    def record_all(self, journal, keys):
        for key in keys:
            with journal.lock:
                journal.db.execute("BEGIN IMMEDIATE")
                journal.record(key, "CreateNote", key.encode())
                journal.db.execute("COMMIT")

    def test_the_journal_keeps_exactly_its_newest_keys_and_counts_what_it_holds(self):
        journal = Journal(os.path.join(self.dir.name, "newest.sqlite"), keep_newest=5)
        self.addCleanup(journal.close)
        self.record_all(journal, ["key-%d" % i for i in range(40)])
        keys = [row[0] for row in journal.db.execute("SELECT key FROM intentd_handled ORDER BY time")]
        self.assertEqual(keys, ["key-%d" % i for i in range(35, 40)])
        counted = journal.db.execute("SELECT COUNT(*), SUM(length(reply)) FROM intentd_handled").fetchone()
        self.assertEqual(journal.db.execute("SELECT keys, bytes FROM intentd_handled_totals").fetchone(), counted)

    def test_a_journal_made_before_its_totals_were_kept_is_counted_when_opened(self):
        path = os.path.join(self.dir.name, "older.sqlite")
        old = sqlite3.connect(path)
        old.execute("CREATE TABLE intentd_handled (key TEXT PRIMARY KEY, intent TEXT NOT NULL, reply BLOB NOT NULL, time REAL NOT NULL)")
        old.executemany("INSERT INTO intentd_handled VALUES (?, 'CreateNote', x'010203', ?)",
                        [("old-%d" % i, time.time() - 10 + i) for i in range(6)])
        old.commit()
        old.close()
        journal = Journal(path, keep_newest=5)
        self.addCleanup(journal.close)
        self.assertEqual(journal.db.execute("SELECT keys, bytes FROM intentd_handled_totals").fetchone(), (6, 18))
        self.record_all(journal, ["new"])
        keys = sorted(row[0] for row in journal.db.execute("SELECT key FROM intentd_handled"))
        self.assertEqual(keys, ["new", "old-2", "old-3", "old-4", "old-5"])

    def test_a_damaged_database_is_reported_instead_of_used(self):
        path = os.path.join(self.dir.name, "damaged.sqlite")
        with open(path, "wb") as f:
            f.write(b"SQLite format 3\0" + b"\xff" * 4000)
        with self.assertRaises(DamagedStore):
            Journal(path)


class RegisteredTests(unittest.TestCase):
    def test_any_registered_body_keeps_the_extension_running_with_values_in_bounds(self):
        journal = Journal(os.path.join(tempfile.mkdtemp(), "intentd.sqlite"))
        self.addCleanup(journal.close)
        dispatcher = Dispatcher(App(None), journal)
        connection = Connection("ipc:///nonexistent", {}, None, None, dispatcher, logging.getLogger("test"))
        huge = "1" + "0" * 400
        bodies = [b'{"heartbeatMilliseconds": %s, "liveness": %s, "maxMessageBytes": %s}' % ((huge.encode(),) * 3),
                  b"[" * 100000 + b"]" * 100000,
                  b'{"heartbeatMilliseconds": 1, "liveness": 0, "maxMessageBytes": 1}', b"null", b"\xff"]
        for body in bodies:
            interval, liveness = connection._registered(body, 1.0, 3)
            self.assertTrue(0.01 <= interval <= 3600 and 1 <= liveness <= 100, body[:40])
            self.assertGreaterEqual(connection.max_message_bytes, 1024)
            self.assertLess(dispatcher.max_reply_bytes, connection.max_message_bytes)
        connection.close()


class PublisherTests(unittest.TestCase):
    def test_the_end_of_long_work_is_a_completion_update_with_the_session(self):
        posted = []
        intent = intentd.Intent("CreateNote", "handle", {"sessionId": "S-9", "parameters": {}})
        intentd.UpdatePublisher(posted.append).complete(intent, IntentResponse("success", {"done": True}))
        self.assertEqual(posted, [("update", "completion", {"sessionId": "S-9", "intent": "CreateNote", "code": "success",
                                                            "response": {"done": True}})])

    def test_vocabulary_is_replaced_whole_or_reset(self):
        posted = []
        vocabulary = intentd.VocabularyPublisher(posted.append)
        vocabulary.set(["Packing"], type="notebookItemTitle")
        vocabulary.remove_all()
        self.assertEqual(posted, [("vocabulary", {"set": {"type": "notebookItemTitle", "terms": ["Packing"]}}),
                                  ("vocabulary", {"reset": True})])

    def test_repeated_terms_are_sent_once_and_more_than_the_host_takes_are_not_sent(self):
        posted = []
        vocabulary = intentd.VocabularyPublisher(posted.append)
        self.assertTrue(vocabulary.set(["a", "b", "a"], type="contactName"))
        self.assertEqual(posted[0][1]["set"]["terms"], ["a", "b"])
        self.assertTrue(vocabulary.set([str(n % 10000) for n in range(20000)], type="contactName"))
        self.assertFalse(vocabulary.set([str(n) for n in range(10001)], type="contactName"))
        self.assertEqual(len(posted), 2)


class OptionsTests(unittest.TestCase):
    def test_the_host_given_keys_and_variables_are_read_and_flags_override_them(self):
        from intentd.runner import Options
        public, secret = (k.decode() for k in __import__("zmq").curve_keypair())
        options = Options(["--endpoint", "ipc:///e", "--manifest", "m.plist"], {
            "INTENTD_EXTENSION_ENDPOINT": "ipc:///given", "INTENTD_SANDBOX_DIR": "/var/sandbox",
            "INTENTD_LAUNCH_TOKEN": "t", "INTENTD_CURVE_SECRETKEY": secret, "INTENTD_CURVE_SERVERKEY": public,
            "INTENTD_PARENT_PID": "42"})
        self.assertEqual((options.endpoint, options.manifest, options.sandbox_directory, options.launch_token,
                          options.parent_pid), ("ipc:///e", "m.plist", "/var/sandbox", "t", 42))
        self.assertEqual(options.given[0].public, public)

    def test_unknown_options_and_missing_values_exit_2(self):
        from intentd.runner import Options
        import contextlib, io
        for arguments in (["--bogus"], ["--identity"]):
            with contextlib.redirect_stderr(io.StringIO()), self.assertRaises(SystemExit) as stopped:
                Options(arguments, {})
            self.assertEqual(stopped.exception.code, 2)

    def test_print_identity_prints_the_bundle_id_and_the_key_of_its_key_file(self):
        import subprocess
        with tempfile.TemporaryDirectory() as d:
            key = os.path.join(d, "id.key")
            out = subprocess.run([sys.executable, "-m", "jotter", "--print-identity", "--identity", key, "--state-dir", d],
                                 env={"PYTHONPATH": os.pathsep.join(sys.path[:2])}, capture_output=True, text=True, check=True)
            self.assertEqual(out.stdout.split(), ["org.example.jotter", identity.load(key).public])


class DamagedSandboxTests(unittest.TestCase):
    def test_an_extension_whose_database_is_damaged_exits_74_without_registering(self):
        import subprocess
        import zmq
        public, secret = (k.decode() for k in zmq.curve_keypair())
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "intentd.sqlite"), "wb") as f:
                f.write(b"SQLite format 3\0" + b"\xff" * 4000)
            done = subprocess.run([sys.executable, "-m", "jotter"], capture_output=True, text=True, timeout=30, env={
                "PYTHONPATH": os.pathsep.join(sys.path[:2]), "INTENTD_SANDBOX_DIR": d,
                "INTENTD_EXTENSION_ENDPOINT": "ipc://%s/nobody.sock" % d, "INTENTD_CURVE_SECRETKEY": secret,
                "INTENTD_CURVE_PUBLICKEY": public, "INTENTD_CURVE_SERVERKEY": public})
            self.assertEqual(done.returncode, 74, done.stderr)
            self.assertIn("not registering", done.stderr)


class IdentityTests(unittest.TestCase):
    def test_directories_made_for_a_key_or_a_sandbox_are_private_at_every_level(self):
        root = tempfile.mkdtemp()
        identity.load_or_create(os.path.join(root, "state", "sandboxes", "b", "identity.key"))
        for level in ("state", "state/sandboxes", "state/sandboxes/b"):
            self.assertEqual(os.stat(os.path.join(root, level)).st_mode & 0o777, 0o700, level)

    def test_a_key_file_is_made_once_private_and_read_back(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "keys", "identity.key")
            made = identity.load_or_create(path)
            self.assertEqual(os.stat(path).st_mode & 0o777, 0o600)
            again = identity.load_or_create(path)
            self.assertEqual((made.public, made.secret), (again.public, again.secret))
            self.assertEqual(identity.public_key(path), made.public)
            self.assertTrue(identity.is_key(made.public))

    def test_ipc_uses_plain_unless_curve_is_asked_for(self):
        self.assertTrue(identity.uses_plain("ipc:///x", {}))
        self.assertFalse(identity.uses_plain("ipc:///x", {"INTENTD_IPC_MECHANISM": "curve"}))
        self.assertFalse(identity.uses_plain("tcp://127.0.0.1:1", {}))


if __name__ == "__main__":
    unittest.main()


class TesterTests(unittest.TestCase):
    """intentd.testing.Tester runs handlers as the host's requests would, with no host."""

    def test_a_handle_commits_through_the_store_once_per_key_and_tells_after_commit(self):
        from intentd.testing import Tester
        import jotter
        with Tester(jotter.Jotter) as tester:
            first = tester.handle("CreateNote", {"title": "Ideas", "content": "tea"}, idempotency_key="k-1")
            again = tester.handle("CreateNote", {"title": "Ideas", "content": "tea"}, idempotency_key="k-1")
            self.assertEqual(first.code, "success")
            self.assertEqual(again.to_json(), first.to_json())
            with sqlite3.connect(tester.journal.path) as db:
                self.assertEqual(db.execute("SELECT count(*) FROM notes WHERE title = 'Ideas'").fetchone()[0], 1)
            self.assertEqual([topic for topic, _ in tester.updates], ["note"])
            self.assertEqual(tester.resolve("CreateNote", "title", {"title": "ideas"})[0]["kind"], "unsupported")
            self.assertEqual(tester.confirm("CreateNote", {"title": "Plans"}).code, "ready")
            sandbox = tester.sandbox_directory
        self.assertFalse(os.path.exists(sandbox))

    def test_an_error_the_host_would_get_fails_the_test(self):
        from intentd.testing import Tester
        import jotter
        with Tester(jotter.Jotter) as tester:
            with self.assertRaises(AssertionError):
                tester.handle("NoSuchIntent")
