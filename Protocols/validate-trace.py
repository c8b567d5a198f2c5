#!/usr/bin/env python3
"""Checks a wire trace against wire.md and the JSON Schemas in schemas/.

    intentd --trace-wire trace.jsonl ...        # then use it; then
    python3 Protocols/validate-trace.py trace.jsonl [--catalog DIR] [--require registration,outcome,...]

Each line of the trace is one message the host accepted or sent (wire.md section 13):
{"direction": "in"|"out", "endpoint": "client"|"extensions"|"updates", "peer": HEX,
"frames": [BASE64, ...]}. Every message is parsed by the framing of wire.md section 3,
written here from the text, not from the host's code, and every JSON body is checked: valid
UTF-8 JSON, no member name twice in one object, and its schema, chosen by its command
(a REPLY's and a STAGE RESULT's by the stage of the request they answer, a batch's REPLY
element by element (wire.md section 5b), a RESULT's by the
client request it answers). A STAGE body is opaque, and so is the REQUEST that forwards it.
The response of a confirm REPLY with a code of kind ready, and of a handle REPLY with a
code of kind success or inProgress, is checked against the intent's confirmResponse or
handleResponse in the catalog (--catalog, default domains/ beside this file; wire.md
section 16), counted as confirm-response and handle-response.

Prints how many bodies matched each schema; exits 1 if any body fails, or if a schema named
in --require matched none. Needs python3-jsonschema (4.10 or newer).
"""
import base64
import collections
import json
import os
import sys

import jsonschema

SIGNATURE = b"intentd/2"
# Command byte: name, header length, names after the header, what the rest is.
COMMANDS = {
    0x01: ("REGISTER", 10, 0, "body"), 0x02: ("REGISTERED", 10, 0, "body"),
    0x03: ("REJECTED", 10, 1, "text"), 0x04: ("REQUEST", 19, 1, "body"),
    0x05: ("REPLY", 18, 0, "body"), 0x06: ("HEARTBEAT", 10, 0, "none"),
    0x07: ("DISCONNECT", 10, 0, "text"), 0x08: ("UPDATE", 10, 1, "body"),
    0x09: ("VOCABULARY", 10, 0, "body"), 0x10: ("SUBMIT", 18, 2, "body"),
    0x11: ("STAGE", 19, 2, "opaque"), 0x12: ("RESULT", 18, 0, "body"),
    0x13: ("ERROR", 18, 1, "text"), 0x14: ("STATUS", 18, 0, "none"),
    0x15: ("LOCK", 19, 0, "none"), 0x16: ("VOCAB", 18, 1, "body"),
    0x17: ("AUTHORIZE", 18, 1, "body"), 0x18: ("SAY", 18, 0, "body"),
    0x19: ("RESTART", 18, 1, "none"),
}
# The schema of each body that does not depend on an earlier message.
SCHEMAS = {
    "REGISTER": "registration", "REGISTERED": "registered", "REQUEST": "stage-request",
    "VOCABULARY": "vocabulary-request", "SUBMIT": "submission", "VOCAB": "vocabulary-request",
    "AUTHORIZE": "authorization-request", "SAY": "utterance", "UPDATE": None,
}
# The schema of a RESULT, by the client request it answers.
RESULTS = {
    "SUBMIT": "outcome", "STATUS": "host-status", "LOCK": "lock-state", "VOCAB": "vocabulary-state",
    "AUTHORIZE": "authorization-state", "SAY": "turn", "RESTART": "restart-state",
}


class Problem(Exception):
    pass


def parse(frame):
    """Splits one frame into (command, id, flag, names, rest) as wire.md section 3 says."""
    if len(frame) < 10 or frame[:9] != SIGNATURE:
        raise Problem("does not start with the signature")
    if frame[9] not in COMMANDS:
        raise Problem("unknown command byte 0x%02x" % frame[9])
    name, header, count, rest_kind = COMMANDS[frame[9]]
    if len(frame) < header:
        raise Problem("%s shorter than its %d-byte header" % (name, header))
    request_id = int.from_bytes(frame[10:18], "big") if header >= 18 else None
    flag = frame[18] if header == 19 else None
    at, names = header, []
    for _ in range(count):
        if at >= len(frame) or frame[at] == 0 or at + 1 + frame[at] > len(frame):
            raise Problem("%s: a name is missing or runs past the frame" % name)
        names.append(frame[at + 1:at + 1 + frame[at]].decode("utf-8"))
        at += 1 + frame[at]
    rest = frame[at:]
    if rest_kind == "none" and rest:
        raise Problem("%s with bytes after its header" % name)
    return name, request_id, flag, names, rest


def no_repeats(pairs):
    names = [k for k, _ in pairs]
    if len(names) != len(set(names)):
        raise Problem("a member name repeated in one object: %r" % names)
    return dict(pairs)


def load_schemas(directory):
    schemas = {}
    for file in sorted(os.listdir(directory)):
        if file.endswith(".schema.json"):
            with open(os.path.join(directory, file), encoding="utf-8") as f:
                schemas[file[:-len(".schema.json")]] = json.load(f)
    try:  # jsonschema 4.18 and newer
        from referencing import Registry, Resource
        registry = Registry().with_resources(
            (s["$id"], Resource.from_contents(s)) for s in schemas.values())
        make = lambda s: jsonschema.Draft202012Validator(s, registry=registry)
    except ImportError:  # Debian 12's jsonschema 4.10
        store = {s["$id"]: s for s in schemas.values()}
        make = lambda s: jsonschema.Draft202012Validator(
            s, resolver=jsonschema.RefResolver.from_schema(s, store=store))
    for name, schema in schemas.items():
        jsonschema.Draft202012Validator.check_schema(schema)
    return {name: make(schema) for name, schema in schemas.items()}


def load_catalog(directory):
    """Intent name -> (response code kinds, confirm validator, handle validator)."""
    intents = {}
    for file in sorted(os.listdir(directory)):
        if not file.endswith(".json"):
            continue
        with open(os.path.join(directory, file), encoding="utf-8") as f:
            domain = json.load(f)
        types = domain.get("responseTypes", {})
        shape = lambda s: s and jsonschema.Draft202012Validator(dict(s, **{"$defs": types}))
        for intent in domain["intents"]:
            kinds = {code["name"]: code.get("kind") for code in intent["responseCodes"]}
            intents[intent["name"]] = (kinds, shape(intent.get("confirmResponse")), shape(intent.get("handleResponse")))
    return intents


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    required = []
    if "--require" in argv:
        required = argv[argv.index("--require") + 1].split(",")
    here = os.path.dirname(os.path.abspath(__file__))
    validators = load_schemas(os.path.join(here, "schemas"))
    catalog = load_catalog(argv[argv.index("--catalog") + 1] if "--catalog" in argv else os.path.join(here, "domains"))
    matched, problems = collections.Counter(), []
    client_requests, request_stages, stage_bodies = {}, {}, set()

    def check(body, schema, where):
        try:
            value = json.loads(body.decode("utf-8"), object_pairs_hook=no_repeats)
        except (UnicodeDecodeError, ValueError, Problem) as e:
            problems.append("%s: not a readable JSON body: %s" % (where, e))
            return
        if schema is None:
            matched["json"] += 1
            return
        try:
            errors = sorted(validators[schema].iter_errors(value), key=lambda e: list(e.path))
        except Exception as e:  # a schema that cannot be used, such as a $ref that resolves to nothing
            problems.append("%s: %s.schema.json cannot be applied: %r" % (where, schema, e))
            return
        if errors:
            problems.append("%s: does not match %s.schema.json: %s\n    body: %s" % (
                where, schema, "; ".join("%s: %s" % ("/".join(map(str, e.path)) or "(body)", e.message) for e in errors[:5]),
                body.decode("utf-8", "replace")[:600]))
        else:
            matched[schema] += 1

    def check_response(intent, stage, body, where):
        """The catalog's shape of a confirm or handle response (wire.md section 16)."""
        try:
            reply = json.loads(body)
        except ValueError:
            return
        if intent not in catalog or not isinstance(reply, dict) or "error" in reply:
            return
        kinds, confirm, handle = catalog[intent]
        kind = kinds.get(reply.get("code"))
        shape, name = (confirm, "confirm-response") if stage == 2 else (handle, "handle-response")
        if (stage == 2 and kind != "ready") or (stage == 3 and kind not in ("success", "inProgress")):
            return
        response = reply.get("response") or {}
        if shape is None:
            if response != {}:
                problems.append("%s: %s answers confirm with %s, but the catalog gives it no confirmResponse" % (where, intent, json.dumps(response)[:200]))
            return
        errors = list(shape.iter_errors(response))
        if errors:
            problems.append("%s: %s's response does not match the catalog's %sResponse: %s\n    response: %s" % (
                where, intent, "confirm" if stage == 2 else "handle",
                "; ".join("%s: %s" % ("/".join(map(str, e.path)) or "(response)", e.message) for e in errors[:5]),
                json.dumps(response)[:600]))
        else:
            matched[name] += 1

    def batch_stages(body):
        """The stages of a REQUEST that carries a batch (section 5b), in order; None otherwise."""
        try:
            batch = json.loads(body).get("batch")
        except (ValueError, AttributeError):
            return None
        if not isinstance(batch, dict) or not isinstance(batch.get("resolve"), list):
            return None
        confirm = batch.get("confirm") is True
        return [1] * len(batch["resolve"]) + ([2] if confirm else []) + ([3] if confirm and batch.get("handle") is True else [])

    def reply_schema(stage, body):
        try:
            value = json.loads(body)
            if isinstance(value, dict) and isinstance(value.get("error"), str):
                return "error-reply"
        except ValueError:
            pass
        return "resolve-reply" if stage == 1 else "intent-response"

    with open(argv[1], encoding="utf-8") as trace:
        for number, line in enumerate(trace, 1):
            entry = json.loads(line)
            frames = [base64.b64decode(f) for f in entry["frames"]]
            where = "line %d (%s %s)" % (number, entry["direction"], entry["endpoint"])
            peer = entry.get("peer")
            if entry["endpoint"] == "updates":
                if len(frames) != 2:
                    problems.append("%s: an update is two frames, not %d" % (where, len(frames)))
                    continue
                check(frames[1], "update", where + " update " + frames[0].decode("utf-8", "replace"))
                continue
            if len(frames) != 1:
                problems.append("%s: a message is one frame, not %d" % (where, len(frames)))
                continue
            try:
                command, request_id, flag, names, rest = parse(frames[0])
            except (Problem, UnicodeDecodeError) as e:
                problems.append("%s: %s" % (where, e))
                continue
            where += " " + command
            if command == "STAGE":
                client_requests[(peer, request_id)] = ("STAGE", flag)
                stage_bodies.add(rest)
            elif entry["direction"] == "in" and entry["endpoint"] == "client":
                client_requests[(peer, request_id)] = (command, None)
            if command == "REQUEST":
                request_stages[(peer, request_id)] = (flag, names[0], batch_stages(rest))
                if rest in stage_bodies:
                    continue  # a STAGE body, forwarded unread
            if command == "REPLY":
                stage, intent, stages = request_stages.pop((peer, request_id), (None, None, None))
                if stage is None:
                    continue  # late or unknown: the host drops it unread (section 4)
                if stages is not None and reply_schema(stage, rest) != "error-reply":
                    # A batch's reply (section 5b): each element as the reply to its stage.
                    check(rest, "batch-reply", where)
                    try:
                        replies = json.loads(rest).get("replies") or []
                    except (ValueError, AttributeError):
                        replies = []
                    if len(replies) > len(stages):
                        problems.append("%s: %d replies to a batch of %d stages" % (where, len(replies), len(stages)))
                    for step, reply in zip(stages, replies):
                        body = json.dumps(reply).encode("utf-8")
                        check(body, reply_schema(step, body), where + " batch element")
                        if step in (2, 3):
                            check_response(intent, step, body, where + " batch element to " + intent)
                    continue
                check(rest, reply_schema(stage, rest), where)
                if stage in (2, 3):
                    check_response(intent, stage, rest, where + " to " + intent)
            elif command == "RESULT":
                asked, stage = client_requests.pop((peer, request_id), (None, None))
                if asked == "STAGE":
                    check(rest, reply_schema(stage, rest), where + " to STAGE")
                elif asked in RESULTS:
                    check(rest, RESULTS[asked], where + " to " + asked)
                else:
                    problems.append("%s: answers no client request (id %s)" % (where, request_id))
            elif command == "ERROR":
                client_requests.pop((peer, request_id), None)
            elif command in SCHEMAS:
                check(rest, SCHEMAS[command], where)
    for name in required:
        if matched[name] == 0:
            problems.append("no body matched %s.schema.json: the run did not exercise it" % name)
    print(json.dumps(dict(sorted(matched.items()))))
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
