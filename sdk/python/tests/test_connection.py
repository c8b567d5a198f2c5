"""The SDK's connection against a stand-in host (a ROUTER socket with PLAIN authentication,
as the real host uses on ipc): registration, heartbeats, DISCONNECT, REJECTED and SIGTERM.
The real host is driven by Tests/IntegrationTests/PythonSDKTests.swift."""

import json
import os
import pathlib
import signal
import struct
import subprocess
import sys
import tempfile
import time
import unittest

import zmq
from zmq.auth.thread import ThreadAuthenticator

HERE = pathlib.Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent)]
from intentd import wire  # noqa: E402


class StandInHost:
    def __init__(self, directory):
        self.context = zmq.Context()
        self.public, self.secret = (k.decode() for k in zmq.curve_keypair())
        self.auth = ThreadAuthenticator(self.context)
        self.auth.start()
        self.auth.configure_plain(domain="*", passwords={self.public: self.secret})
        self.router = self.context.socket(zmq.ROUTER)
        self.router.plain_server = True
        self.router.linger = 0
        self.endpoint = "ipc://%s/extensions.sock" % directory
        self.router.bind(self.endpoint)
        self.peer = None
        self.silent = False  # True: never answer heartbeats, as a host that died would


    def receive(self, timeout=5.0):
        """The next message from the extension as (command, rest)."""
        if not self.router.poll(int(timeout * 1000)):
            raise AssertionError("nothing from the extension in %.1f s" % timeout)
        self.peer, frame = self.router.recv_multipart()
        assert frame[:9] == wire.SIGNATURE, frame
        if frame[9] == wire.HEARTBEAT and not self.silent:  # the host heartbeats too, so the extension hears from it
            self.send(wire.heartbeat())
        return frame[9], frame[10:]

    def receive_command(self, command, timeout=5.0):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            got, rest = self.receive(deadline - time.monotonic())
            if got == command:
                return rest
        raise AssertionError("no command %02x" % command)

    def send(self, frame):
        self.router.send_multipart([self.peer, frame])

    def close(self):
        self.router.close()
        self.auth.stop()
        self.context.term()


class ExtensionProcess(unittest.TestCase):
    """An extension process (`command`, Jotter unless a subclass says otherwise) launched
    with the keys and variables the host gives, connected to a stand-in host."""

    command = ["-m", "jotter"]

    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.host = StandInHost(self.dir.name)
        sandbox = os.path.join(self.dir.name, "sandbox")
        os.mkdir(sandbox, 0o700)
        environment = {
            "PATH": "/usr/bin:/bin", "PYTHONPATH": "%s:%s" % (HERE.parent, HERE.parent / "examples"),
            "INTENTD_EXTENSION_ENDPOINT": self.host.endpoint, "INTENTD_SANDBOX_DIR": sandbox,
            "INTENTD_LAUNCH_TOKEN": "token-1", "INTENTD_CURVE_PUBLICKEY": self.host.public,
            "INTENTD_CURVE_SECRETKEY": self.host.secret, "INTENTD_CURVE_SERVERKEY": self.host.public,
        }
        self.extension = subprocess.Popen([sys.executable] + self.command, env=environment, cwd=sandbox,
                                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)

    def tearDown(self):
        if self.extension.poll() is None:
            self.extension.kill()
        self.extension.wait()
        self.extension.stdout.close()
        self.host.close()
        self.dir.cleanup()

    def register(self):
        body = json.loads(self.host.receive_command(wire.REGISTER))
        self.host.send(wire.SIGNATURE + bytes([wire.REGISTERED]) + json.dumps(
            {"extensionId": "org.example.jotter#1", "heartbeatMilliseconds": 200, "liveness": 3,
             "maxMessageBytes": 1048576}).encode())
        return body



class ConnectionTests(ExtensionProcess):
    def test_it_registers_with_its_manifest_pid_and_launch_token_then_heartbeats(self):
        body = self.register()
        self.assertEqual(body["appName"], "Jotter")
        self.assertEqual(body["launchToken"], "token-1")
        self.assertEqual(body["processIdentifier"], self.extension.pid)
        beats, started = 0, time.monotonic()
        while beats < 3:
            command, _ = self.host.receive(2)
            beats += command == wire.HEARTBEAT
        self.assertLess(time.monotonic() - started, 5)

    def test_it_answers_a_request_with_the_same_id(self):
        self.register()
        self.host.send(wire.SIGNATURE + bytes([wire.REQUEST]) + struct.pack(">QB", 99, wire.RESOLVE)
                       + wire.name("AppendToNote")
                       + b'{"parameter":"targetNote","parameters":{"targetNote":"shopping"},"required":true}')
        rest = self.host.receive_command(wire.REPLY)
        self.assertEqual(struct.unpack(">Q", rest[:8])[0], 99)
        self.assertEqual(json.loads(rest[8:])["results"][0]["kind"], "disambiguation")

    def test_a_silent_host_is_left_for_a_new_connection_and_a_new_registration(self):
        self.register()
        first = self.host.peer
        self.host.silent = True
        self.host.receive_command(wire.REGISTER, timeout=5)  # after liveness x 200 ms without a word
        self.assertNotEqual(self.host.peer, first, "a new socket, so a new routing id")

    def test_an_update_and_the_end_of_long_work_reach_the_host_once_registered(self):
        self.register()
        self.host.send(wire.SIGNATURE + bytes([wire.REQUEST]) + struct.pack(">QB", 5, wire.HANDLE)
                       + wire.name("CreateNote") + b'{"sessionId":"S-1","parameters":{"title":"Trip"}}')
        rest = self.host.receive_command(wire.UPDATE)
        topic_length = rest[0]
        self.assertEqual(rest[1:1 + topic_length], b"note")
        self.assertEqual(json.loads(rest[1 + topic_length:])["note"]["title"], "Trip")
        self.assertEqual(json.loads(self.host.receive_command(wire.REPLY)[8:])["code"], "success")

    def test_disconnect_from_the_host_makes_it_register_again(self):
        self.register()
        self.host.send(wire.SIGNATURE + bytes([wire.DISCONNECT]) + b"not registered; register first")
        self.assertEqual(json.loads(self.host.receive_command(wire.REGISTER))["appName"], "Jotter")

    def test_a_users_vocabulary_reset_is_answered_with_what_it_taught(self):
        self.register()
        taught = json.loads(self.host.receive_command(wire.VOCABULARY))
        self.assertEqual(taught["set"]["type"], "notebookItemTitle")
        self.host.send(wire.SIGNATURE + bytes([wire.VOCABULARY]) + b'{"reset":true}')
        self.assertEqual(json.loads(self.host.receive_command(wire.VOCABULARY)), {"set": taught["set"]})

    def test_after_rejected_it_exits_78(self):
        self.host.receive_command(wire.REGISTER)
        self.host.send(wire.SIGNATURE + bytes([wire.REJECTED]) + wire.name("appTaken") + b"taken")
        self.assertEqual(self.extension.wait(10), 78)

    def test_sigterm_sends_disconnect_and_exits_0(self):
        self.register()
        self.host.receive_command(wire.HEARTBEAT)
        self.extension.send_signal(signal.SIGTERM)
        self.assertEqual(self.host.receive_command(wire.DISCONNECT), b"")
        self.assertEqual(self.extension.wait(10), 0)



class StopTests(ExtensionProcess):
    """A clean stop with a request in flight, with an extension whose handle is slow."""

    command = [str(HERE / "slow_extension.py")]

    def test_sigterm_finishes_the_request_in_flight_takes_no_new_one_then_calls_stop(self):
        self.register()
        request = lambda n: (wire.SIGNATURE + bytes([wire.REQUEST]) + struct.pack(">QB", n, wire.HANDLE)
                             + wire.name("CreateNote") + b'{"parameters":{}}')
        self.host.send(request(1))
        time.sleep(0.1)
        self.extension.send_signal(signal.SIGTERM)
        self.assertEqual(self.host.receive_command(wire.DISCONNECT), b"")
        self.host.send(request(2))
        rest = self.host.receive_command(wire.REPLY)
        self.assertEqual(struct.unpack(">Q", rest[:8])[0], 1, "the request in flight is answered")
        self.assertEqual(self.extension.wait(10), 0)
        self.assertEqual(self.extension.stdout.read(), b"stopped\n")
        while self.host.router.poll(100):
            frame = self.host.router.recv_multipart()[1]
            self.assertNotEqual(frame[9], wire.REPLY, "no request is taken after the stop began")


if __name__ == "__main__":
    unittest.main()
