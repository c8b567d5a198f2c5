"""Who the extension is to the host (wire.md section 21): the key pair a launched extension
gets in its environment, else a key file of its own (made on first use, mode 0600), and the
host's public key."""

import json
import os
import re

import zmq

_Z85_KEY = re.compile(r"^[0-9A-Za-z.\-:+=^!/*?&<>()\[\]{}@%$#]{40}$")


class IdentityError(Exception):
    """A key file or host key that cannot be used."""


def is_key(text):
    """Whether `text` is a Z85 CURVE key (40 characters)."""
    return isinstance(text, str) and bool(_Z85_KEY.match(text))


class Keys:
    """A CURVE key pair, Z85 text."""

    def __init__(self, public, secret):
        self.public, self.secret = public, secret

    @classmethod
    def from_secret(cls, secret):
        """The pair of a secret key, or None when it is not one."""
        if not is_key(secret):
            return None
        return cls(zmq.curve_public(secret.encode()).decode(), secret)


def load(path):
    """The key pair in a key file: JSON {"publicKey": …, "secretKey": …}."""
    try:
        with open(path, "rb") as f:
            stored = json.loads(f.read())
        keys = Keys.from_secret(stored["secretKey"])
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise IdentityError("cannot read the key file %s: %s" % (path, error)) from None
    if keys is None or keys.public != stored.get("publicKey"):
        raise IdentityError("%s does not hold a CURVE key pair" % path)
    return keys


def make_private_directory(path):
    """Creates `path` and any missing parent, each readable by this user only (os.makedirs
    gives parents the umask's mode, and the host refuses a state directory open to others)."""
    path = os.path.abspath(path)
    if os.path.isdir(path):
        return
    make_private_directory(os.path.dirname(path))
    try:
        os.mkdir(path, 0o700)
    except FileExistsError:
        pass


def load_or_create(path):
    """The key pair in `path`, first made there if there is none. Two processes creating
    the same file at once end up with the same pair."""
    if os.path.exists(path):
        return load(path)
    make_private_directory(os.path.dirname(os.path.abspath(path)))
    public, secret = zmq.curve_keypair()
    data = json.dumps({"publicKey": public.decode(), "secretKey": secret.decode()}).encode()
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
    except FileExistsError:
        return load(path)
    with os.fdopen(fd, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    return Keys(public.decode(), secret.decode())


def public_key(key_or_file):
    """A public key given as 40 Z85 characters, or a file holding one (`server.pub`, or a
    key file whose public half is taken)."""
    if is_key(key_or_file):
        return key_or_file
    try:
        with open(key_or_file, "rb") as f:
            text = f.read().decode("utf-8", "replace")
    except OSError:
        raise IdentityError("%r is neither a CURVE public key (40 Z85 characters) nor a readable file"
                            % key_or_file[:80]) from None
    try:
        stored = json.loads(text)
        if isinstance(stored, dict) and is_key(stored.get("publicKey")):
            return stored["publicKey"]
    except ValueError:
        pass
    if not is_key(text.strip()):
        raise IdentityError("%s does not hold a CURVE public key" % key_or_file)
    return text.strip()


def uses_plain(endpoint, environment=os.environ):
    """Whether an endpoint authenticates with PLAIN rather than CURVE (section 21)."""
    return endpoint.startswith("ipc://") and environment.get("INTENTD_IPC_MECHANISM", "plain") != "curve"


def apply(socket, endpoint, keys, server_key, environment=os.environ):
    """Sets up `socket` to prove `keys` to the host at `endpoint`; call before connect."""
    if uses_plain(endpoint, environment):
        socket.plain_username = keys.public.encode()
        socket.plain_password = keys.secret.encode()
    else:
        socket.curve_secretkey = keys.secret.encode()
        socket.curve_publickey = keys.public.encode()
        socket.curve_serverkey = server_key.encode()
