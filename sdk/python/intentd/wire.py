"""Framing of wire protocol version 2 (Protocols/wire.md section 3): every message is one
frame, the header (signature, command byte, request id and stage where the command has
them), the command's names (a length byte, then 1 to 255 bytes of UTF-8), then the rest."""

import re
import struct

SIGNATURE = b"intentd/2"

REGISTER, REGISTERED, REJECTED, REQUEST, REPLY = 0x01, 0x02, 0x03, 0x04, 0x05
HEARTBEAT, DISCONNECT, UPDATE, VOCABULARY = 0x06, 0x07, 0x08, 0x09

RESOLVE, CONFIRM, HANDLE = 1, 2, 3
STAGES = {RESOLVE: "resolve", CONFIRM: "confirm", HANDLE: "handle"}


class Malformed(ValueError):
    """A message that breaks the framing rules (section 3)."""


def name(text):
    """One name: its length byte, then 1 to 255 bytes of UTF-8."""
    data = text.encode("utf-8")
    if not 1 <= len(data) <= 255:
        raise ValueError("a name is 1 to 255 bytes of UTF-8, not %d" % len(data))
    return bytes([len(data)]) + data


def register(body):
    return SIGNATURE + bytes([REGISTER]) + body


def reply(request_id, body):
    return SIGNATURE + bytes([REPLY]) + struct.pack(">Q", request_id) + body


def heartbeat():
    return SIGNATURE + bytes([HEARTBEAT])


def disconnect():
    return SIGNATURE + bytes([DISCONNECT])


def update(topic, body):
    return SIGNATURE + bytes([UPDATE]) + name(topic) + body


def vocabulary(body):
    return SIGNATURE + bytes([VOCABULARY]) + body


def _read_name(frame, at):
    if at >= len(frame) or frame[at] == 0 or at + 1 + frame[at] > len(frame):
        raise Malformed("a name is missing or runs past the end of the message")
    end = at + 1 + frame[at]
    try:
        return frame[at + 1:end].decode("utf-8"), end
    except UnicodeDecodeError:
        raise Malformed("a name is not valid UTF-8") from None


def _text(data):
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return ""


def parse(frame):
    """Reads one message from the host: a tuple whose first item is the command byte.

    REGISTERED: (cmd, body); REJECTED: (cmd, code, reason); REQUEST: (cmd, id, stage,
    intent, body); HEARTBEAT: (cmd,); DISCONNECT: (cmd, reason); VOCABULARY: (cmd,).
    Raises Malformed."""
    if len(frame) < 10 or frame[:9] != SIGNATURE:
        raise Malformed("not an intentd/2 message")
    command = frame[9]
    if command == REGISTERED:
        return (command, bytes(frame[10:]))
    if command == REJECTED:
        code, at = _read_name(frame, 10)
        return (command, code, _text(frame[at:]))
    if command == REQUEST:
        if len(frame) < 19:
            raise Malformed("a REQUEST is shorter than its header")
        stage = frame[18]
        if stage not in STAGES:
            raise Malformed("stage byte %02x" % stage)
        (request_id,) = struct.unpack(">Q", frame[10:18])
        intent, at = _read_name(frame, 19)
        return (command, request_id, stage, intent, bytes(frame[at:]))
    if command == HEARTBEAT:
        if len(frame) != 10:
            raise Malformed("a HEARTBEAT with bytes after its header")
        return (command,)
    if command == DISCONNECT:
        return (command, _text(frame[10:]))
    if command == VOCABULARY:
        return (command,)  # the user reset the app's user vocabulary (section 19b)
    raise Malformed("command %02x is not one the host sends to extensions" % command)


_TRACEPARENT = re.compile(rb'"traceparent":"00-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}"')


def trace_id(body):
    """The trace id of the W3C traceparent a REQUEST body carries (wire.md section 5b), or None."""
    found = _TRACEPARENT.search(bytes(body)) if body else None
    return found.group(1).decode("ascii") if found else None
