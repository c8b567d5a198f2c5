"""An extension with the Python SDK that registers and then answers wrongly: a number
where CreateNote's title is a string, a confirm code CreateNote does not have, and a stop
that takes longer than the host waits after SIGTERM."""

import pathlib
import time

import intentd
from intentd import IntentResponse, Resolution


class Wrong(intentd.Handler):
    resolvers = {"title": lambda intent: Resolution.success(42)}

    def confirm(self, intent):
        return IntentResponse("maybe")

    def handle(self, intent):
        return IntentResponse("success")


class BrokenNotes(intentd.Extension):
    manifest = pathlib.Path(__file__).with_name("BrokenNotes.plist")

    def handler(self, intent):
        return Wrong()

    def stop(self):
        time.sleep(5)


intentd.run(BrokenNotes)
