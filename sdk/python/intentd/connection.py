"""The connection to the host (wire.md sections 6 and 7): registration with back-off,
heartbeats, reconnection when the host falls silent, requests handed to worker threads, and
a clean stop. Only the thread that runs `Connection.run` touches the socket."""

import collections
import concurrent.futures
import json
import os
import shlex
import sys
import time

import zmq
from zmq.utils.monitor import recv_monitor_message

from . import identity, wire
from .dispatch import REPLY_HEADER, error_reply, raised_reply

MAX_IN_FLIGHT = 256
MAX_HELD = 1000
STOP_GRACE = 1.5  # the host sends SIGKILL 2 s after SIGTERM


class Rejected(Exception):
    """The host rejected the registration: exit 78, do not come back unchanged."""


class Connection:
    def __init__(self, endpoint, registration, keys, server_key, dispatcher, log,
                 parent_pid=None, workers=8, state_dir=None):
        self.endpoint = endpoint
        self.registration = json.dumps(registration, separators=(",", ":")).encode("utf-8")
        self.keys, self.server_key = keys, server_key
        self.dispatcher = dispatcher
        self.log = log
        self.parent_pid = parent_pid
        self.pool = concurrent.futures.ThreadPoolExecutor(max_workers=workers, thread_name_prefix="intent")
        self.outbox = collections.deque()  # appended by any thread, drained by the connection thread
        self.held = collections.deque(maxlen=MAX_HELD)  # updates and vocabulary until registered
        self.taught = {}  # the user vocabulary taught, by type, to teach again after a user's reset
        self.wake_read, self.wake_write = os.pipe()
        os.set_blocking(self.wake_read, False)
        os.set_blocking(self.wake_write, False)
        self.in_flight = 0
        self.max_message_bytes = 1048576  # the host's limit, from REGISTERED
        self.stopping = False
        self.context = zmq.Context.instance()
        self.socket = None
        self.refusals = None  # the socket's handshake events (see `_connect`)
        self.told_refused = False
        self.registered = False
        self.state_dir = state_dir  # whose trust store the host reads, for the trust command

    # Called from any thread (and from signal handlers).
    def post(self, item):
        self.outbox.append(item)
        self.wake()

    def wake(self):
        try:
            os.write(self.wake_write, b"\0")
        except (BlockingIOError, OSError):
            pass

    def request_stop(self):
        self.stopping = True
        self.wake()

    def _connect(self):
        if self.socket is not None:
            self.socket.disable_monitor()
            self.refusals.close(linger=0)
            self.socket.close(linger=0)
        socket = self.context.socket(zmq.DEALER)
        socket.linger = 0
        socket.sndhwm = socket.rcvhwm = 100000
        identity.apply(socket, self.endpoint, self.keys, self.server_key)
        # A host that refuses this extension's key says so only in the handshake.
        self.refusals = socket.get_monitor_socket(zmq.EVENT_HANDSHAKE_FAILED_AUTH)
        socket.connect(self.endpoint)
        self.socket = socket

    def _send(self, frame):
        try:
            self.socket.send(frame, zmq.NOBLOCK)
        except zmq.Again:
            if self.registered:
                self.log.warning("the host's queue is full; a message was dropped")
            # Else no host is connected: the registration goes again after its wait.
        self.last_sent = time.monotonic()

    def _read_refusals(self):
        while True:
            try:
                event = recv_monitor_message(self.refusals, zmq.NOBLOCK)
            except zmq.Again:
                return
            if event["event"] == zmq.EVENT_HANDSHAKE_FAILED_AUTH and not self.told_refused:
                self.told_refused = True
                self.log.error("the host refused this extension's key (%s): it does not trust it yet. Started by hand, "
                               "trust it once with: %s", event["value"], self._trust_command())

    def _trust_command(self):
        """The command that trusts this extension's key: this program with --print-identity,
        into `intentctl extensions trust -` (on the host's machine, for a host across the network)."""
        argv = list(getattr(sys, "orig_argv", sys.argv))
        # Its key is found through the state directory unless given: one that came from the
        # environment is said, or a shell without it would print another key.
        if self.state_dir is not None and "--state-dir" not in argv and "--identity" not in argv:
            argv += ["--state-dir", self.state_dir]
        command = " ".join(shlex.quote(part) for part in argv)
        if not self.endpoint.startswith("ipc://"):
            # A host across the network keeps its trust store on its own machine.
            return ("%s --print-identity here, and give what it prints to `intentctl extensions trust -` "
                    "on the host's machine (with the host's --state-dir)" % command)
        trust = "intentctl extensions trust -" + ("" if self.state_dir is None else " --state-dir " + shlex.quote(self.state_dir))
        return "%s --print-identity | %s" % (command, trust)

    def _note_taught(self, request):
        if request.get("reset"):
            self.taught.clear()
        taught = request.get("set")
        if isinstance(taught, dict) and isinstance(taught.get("type"), str):
            self.taught.pop(taught["type"], None)
            if taught.get("terms"):
                self.taught[taught["type"]] = {"set": taught}

    def _register(self):
        self.registered = False
        self._send(wire.register(self.registration))

    def _reconnect(self, why):
        self.log.info("reconnecting: %s", why)
        self._connect()
        self._register()

    def run(self):
        """Runs until stopped (returns) or rejected (raises Rejected)."""
        interval, liveness, backoff = 1.0, 3, 1.0
        self._connect()
        self._register()
        self.last_heard = time.monotonic()
        stop_started = None
        while True:
            poller = zmq.Poller()
            poller.register(self.socket, zmq.POLLIN)
            poller.register(self.wake_read, zmq.POLLIN)
            poller.register(self.refusals, zmq.POLLIN)
            events = dict(poller.poll(50))
            if self.refusals in events:
                self._read_refusals()
            if self.wake_read in events:
                try:
                    while os.read(self.wake_read, 4096):
                        pass
                except BlockingIOError:
                    pass
            if self.socket in events:
                while True:
                    try:
                        frame = self.socket.recv(zmq.NOBLOCK, copy=True)
                    except zmq.Again:
                        break
                    message = self._parse(frame)
                    if message is None:
                        continue
                    self.last_heard = time.monotonic()
                    command = message[0]
                    if command == wire.REGISTERED:
                        self.told_refused = False
                        interval, liveness = self._registered(message[1], interval, liveness)
                        backoff = 1.0
                    elif command == wire.REJECTED:
                        # A manifest changed on purpose is accepted by trusting the key again.
                        accept = ". To accept the change: %s" % self._trust_command() if message[1] == "manifestChanged" else ""
                        raise Rejected("the host rejected this extension (%s): %s%s" % (message[1], message[2][:200], accept))
                    elif command == wire.REQUEST:
                        self._request(*message[1:])
                    elif command == wire.VOCABULARY:
                        # What the app taught still names its data: it is taught again.
                        self.log.info("the user reset this app's vocabulary; teaching the host its %d types again", len(self.taught))
                        for request in list(self.taught.values()):
                            self._send(wire.vocabulary(json.dumps(request, separators=(",", ":")).encode("utf-8")))
                    elif command == wire.DISCONNECT and not self.stopping and self.registered:
                        # One registration answers them all: a host that restarted answers
                        # each heartbeat queued while it was away with a DISCONNECT.
                        self.log.info("the host asked for a new registration (%s)", message[1][:200])
                        self._register()
            self._drain()
            now = time.monotonic()
            if self.parent_pid is not None and os.getppid() != self.parent_pid:
                self.log.info("the host that launched this extension is gone; exiting")
                self.close()
                return
            if self.stopping:
                if stop_started is None:
                    stop_started = now
                    self._send(wire.disconnect())  # take no new request, finish those in flight
                if self.in_flight == 0 or now - stop_started >= STOP_GRACE:
                    self._drain()
                    self.close()
                    return
                continue
            if not self.registered and now - self.last_sent >= backoff:
                self._reconnect("no answer to registration")
                backoff = min(backoff * 2, 32.0)
            elif self.registered and now - self.last_heard > interval * liveness:
                self._reconnect("no word from the host for %.1f s" % (interval * liveness))
            elif self.registered and now - self.last_sent >= interval:
                self._send(wire.heartbeat())

    def close(self):
        """Closes the socket (the last messages are dropped after `linger`) and the workers."""
        self.pool.shutdown(wait=False)
        if self.socket is not None:
            self.socket.disable_monitor()
            self.refusals.close(linger=0)
            self.socket.close(linger=100)
            self.socket = None

    def _parse(self, frame):
        try:
            return wire.parse(frame)
        except wire.Malformed as error:
            self.log.warning("dropped a malformed message: %s", error)
            return None

    def _registered(self, body, interval, liveness):
        # Whatever the body holds, the values used stay in bounds (as the Swift SDK's):
        # a heartbeat of 10 ms to an hour, a liveness of 1 to 100, a limit of at least 1 KiB.
        try:
            ack = json.loads(body)
            beat, lives = ack["heartbeatMilliseconds"], ack["liveness"]
            if isinstance(beat, int) and not isinstance(beat, bool):
                interval = min(max(beat, 10), 3600000) / 1000.0
            if isinstance(lives, int) and not isinstance(lives, bool):
                liveness = min(max(lives, 1), 100)
            limit = ack.get("maxMessageBytes")
            if isinstance(limit, int) and not isinstance(limit, bool):
                self.max_message_bytes = min(max(limit, 1024), 1 << 30)
                self.dispatcher.max_reply_bytes = self.max_message_bytes - REPLY_HEADER
            self.log.info("registered as %s", str(ack.get("extensionId"))[:160])
        except Exception:  # any body at all: deep nesting, huge numbers, another shape
            self.log.warning("REGISTERED with an unreadable body; keeping the default heartbeat")
        self.registered = True
        while self.held:
            self.outbox.appendleft(self.held.pop())
        return interval, liveness

    def _request(self, request_id, stage, intent, body):
        if self.stopping:
            return  # after DISCONNECT the host no longer counts on this instance
        if self.in_flight >= MAX_IN_FLIGHT:
            self._send(wire.reply(request_id, error_reply("too many requests in flight")))
            return
        self.in_flight += 1
        metadata = {"request": request_id, "stage": stage, "intent": intent[:80]}
        trace = wire.trace_id(body)
        if trace:
            metadata["trace"] = trace
        self.log.debug("request", extra={"metadata": metadata})

        def work():
            try:
                reply = self.dispatcher.reply(stage, intent, body)
            except BaseException as error:  # never lose the in-flight count
                reply = raised_reply(error)
            self.post(("reply", request_id, reply))
        self.pool.submit(work)

    def _drain(self):
        while self.outbox:
            item = self.outbox.popleft()
            kind = item[0]
            if kind == "reply":
                self.in_flight -= 1
                if item[2] is not None:
                    frame = wire.reply(item[1], item[2])
                    if len(frame) > self.max_message_bytes:  # the host would drop it unread
                        frame = wire.reply(item[1], error_reply("the reply is larger than the host's limit of %d bytes"
                                                                % self.max_message_bytes))
                    self._send(frame)
            elif not self.registered:
                self.held.append(item)
            elif kind == "update":
                try:
                    body = json.dumps(item[2], separators=(",", ":")).encode("utf-8")
                    frame = wire.update(item[1], body)
                    if len(frame) > self.max_message_bytes:
                        raise ValueError("%d bytes, over the host's limit" % len(frame))
                    self._send(frame)
                except (TypeError, ValueError) as error:
                    self.log.error("update not sent: %s", error)
            elif kind == "vocabulary":
                self._send(wire.vocabulary(json.dumps(item[1], separators=(",", ":")).encode("utf-8")))
                self._note_taught(item[1])
