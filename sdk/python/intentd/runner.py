"""Starts an extension the way the Swift SDK's ExtensionRunner does: options from the
command line or the environment the host sets for its children (wire.md section 2), the
manifest, the sandbox directory, the identity (section 21), then the connection until
SIGTERM or SIGINT (clean stop, exit 0) or REJECTED (exit 78)."""

import logging
import os
import signal
import sys
import time
import traceback

from . import identity, manifest
from .api import ExtensionContext, UpdatePublisher, VocabularyPublisher
from .connection import Connection, Rejected
from .dispatch import Dispatcher
from .journal import DAMAGED_EXIT, DamagedStore, Journal

REJECTED_EXIT = 78
USAGE = """usage: %s [--endpoint E] [--state-dir DIR] [--manifest FILE] [--identity FILE] [--server-key KEY] [--print-identity]
  --endpoint        the host's extension endpoint (default ipc://STATE/extensions.sock)
  --state-dir       the host's state directory (default $INTENTD_STATE_DIR or ~/.local/state/intentd)
  --manifest        the Info.plist-style manifest to register with
  --identity        this extension's key file, made on first use (default SANDBOX/identity.key)
  --server-key      the host's public key or its server.pub file (default STATE/server.pub)
  --print-identity  print the bundle id and public key to trust, then exit"""


class Options:
    """Options, from the command line or the environment."""

    def __init__(self, arguments, environment):
        env = lambda name: environment.get(name) or None
        self.endpoint = env("INTENTD_EXTENSION_ENDPOINT")
        self.state_directory = env("INTENTD_STATE_DIR")
        parent = env("INTENTD_PARENT_PID")
        self.parent_pid = int(parent) if parent and parent.isdigit() else None
        self.sandbox_directory = env("INTENTD_SANDBOX_DIR")
        self.launch_token = env("INTENTD_LAUNCH_TOKEN")
        self.identity = env("INTENTD_IDENTITY")
        self.server_key = env("INTENTD_SERVER_KEY")
        self.manifest = None
        self.print_identity = False
        self.given = None  # the keys the host hands to an extension it launches
        keys = identity.Keys.from_secret(environment.get("INTENTD_CURVE_SECRETKEY", ""))
        server = environment.get("INTENTD_CURVE_SERVERKEY", "")
        if keys is not None and identity.is_key(server):
            self.given = (keys, server)
        rest = list(arguments)
        flags = {"--endpoint": "endpoint", "--state-dir": "state_directory", "--manifest": "manifest",
                 "--identity": "identity", "--server-key": "server_key"}
        while rest:
            flag = rest.pop(0)
            if flag in flags:
                if not rest:
                    print("error: %s needs a value (try --help)" % flag, file=sys.stderr)
                    raise SystemExit(2)
                setattr(self, flags[flag], rest.pop(0))
            elif flag == "--print-identity":
                self.print_identity = True
            elif flag in ("-h", "--help"):
                print(USAGE % os.path.basename(sys.argv[0] or "extension"))
                raise SystemExit(0)
            else:
                print("error: unknown option %s (try --help)" % flag[:80], file=sys.stderr)
                raise SystemExit(2)

    def state(self, environment):
        if self.state_directory:
            return self.state_directory
        if environment.get("XDG_STATE_HOME"):
            return os.path.join(environment["XDG_STATE_HOME"], "intentd")
        return os.path.join(os.path.expanduser("~"), ".local", "state", "intentd")


class LineFormatter(logging.Formatter):
    """The host's line format: TIME NAME LEVEL [key=value ...]: MESSAGE, with the
    metadata given as extra={"metadata": {...}} (such as a request's trace id), so
    `intentctl logs --trace ID` finds this extension's lines too."""

    LEVELS = {"WARNING": "warning", "ERROR": "error", "CRITICAL": "critical", "INFO": "info", "DEBUG": "debug"}

    def format(self, record):
        time = self.formatTime(record, "%Y-%m-%dT%H:%M:%S") + ".%03d" % record.msecs
        metadata = getattr(record, "metadata", None) or {}
        meta = ""
        if metadata:
            meta = " [" + " ".join("%s=%s" % (k, _bare(str(v))) for k, v in sorted(metadata.items())) + "]"
        message = record.getMessage()
        if record.exc_info:  # the exception and where it came from, on the same line
            message += ": " + "".join(traceback.format_exception(*record.exc_info)).strip()
        message = message.replace("\\", "\\\\").replace("\n", "\\n").replace("\r", "\\r")
        return "%s %s %s%s: %s" % (time, record.name.replace(" ", "_"), self.LEVELS.get(record.levelname, "info"), meta, message)


def _bare(value):
    """A metadata value as the host writes it: bare, or quoted when it holds a space, =, ] or a quote."""
    value = "".join(c if c.isprintable() else "\\x%02X" % ord(c) for c in value)
    if value and not any(c in value for c in ' =]"'):
        return value
    return '"' + value.replace('"', '\\"') + '"'


def _log(name):
    level = os.environ.get("INTENTD_LOG_LEVEL", "info").upper()
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(LineFormatter())
    logging.basicConfig(level=getattr(logging, level, logging.INFO), handlers=[handler])
    return logging.getLogger(name)


def run(extension_type, arguments=None, environment=None):
    """Runs `extension_type` (an intentd.Extension subclass) until the host rejects it
    (exit 78) or the process is stopped (SIGTERM or SIGINT: exit 0). Never returns."""
    try:
        sys.exit(_run(extension_type, sys.argv[1:] if arguments is None else arguments,
                      os.environ if environment is None else environment))
    except (manifest.ManifestError, identity.IdentityError) as error:
        print("error: %s" % error, file=sys.stderr)
        sys.exit(REJECTED_EXIT)
    except DamagedStore as error:
        print("fatal: %s; not registering" % error, file=sys.stderr)
        sys.exit(DAMAGED_EXIT)


def _run(extension_type, arguments, environment):
    options = Options(arguments, environment)
    path = options.manifest or (str(extension_type.manifest) if extension_type.manifest else None)
    if not path:
        raise manifest.ManifestError("no manifest: pass --manifest FILE")
    registration = manifest.read(path)
    bundle = registration["bundleIdentifier"]
    problem = manifest.bundle_problem(bundle)
    if problem:
        raise manifest.ManifestError("%s: %s" % (path, problem))
    registration["processIdentifier"] = os.getpid()
    if options.launch_token:
        registration["launchToken"] = options.launch_token
    if extension_type.takes_batched_stages:
        registration["stages"] = ["batched"]
    log = _log(registration["appName"])
    state = options.state(environment)
    # The host names the sandbox of an extension it launched; one started by hand uses its
    # place in the state directory.
    sandbox = options.sandbox_directory or os.path.join(state, "sandboxes", bundle)
    identity.make_private_directory(sandbox)
    key_file = options.identity or os.path.join(sandbox, "identity.key")
    if options.print_identity:
        keys = options.given[0] if options.given else identity.load_or_create(key_file)
        print("%s %s" % (bundle, keys.public))
        return 0
    if options.given:
        keys, server_key = options.given
    else:
        server_file = os.path.join(state, "server.pub")
        if options.server_key is None and not os.path.exists(server_file):
            log.info("waiting for the host's key at %s", server_file)
            while not os.path.exists(server_file):
                time.sleep(0.2)
        keys = identity.load_or_create(key_file)
        server_key = identity.public_key(options.server_key or server_file)
    endpoint = options.endpoint or "ipc://%s/extensions.sock" % state

    journal = Journal(os.path.join(sandbox, "intentd.sqlite"))
    connection = None
    outbox = []  # what the extension posts before the connection exists

    def post(item):
        (connection.post if connection else outbox.append)(item)
    context = ExtensionContext(sandbox, bundle, journal.path, UpdatePublisher(post), VocabularyPublisher(post), log)
    instance = extension_type(context)
    connection = Connection(endpoint, registration, keys, server_key, Dispatcher(instance, journal, log), log,
                            parent_pid=options.parent_pid, state_dir=state)
    for item in outbox:
        connection.post(item)
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: connection.request_stop())
    # A parent may have left them blocked (the host's sandbox clears the mask; a shell or
    # another program starting this by hand may not).
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    try:
        connection.run()
    except Rejected as error:
        log.error("%s", error)
        return REJECTED_EXIT
    log.info("stopping")
    instance.stop()
    journal.close()
    return 0
