"""An extension with the Python SDK that registers and then answers wrongly: a number
where CreateNote's title is a string, and a confirm code CreateNote does not have."""

import pathlib

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


intentd.run(BrokenNotes)
