"""A test extension whose handle takes half a second: Jotter's manifest, one slow handler."""

import pathlib
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
import intentd  # noqa: E402


class Slow(intentd.Handler):
    def handle(self, intent):
        time.sleep(0.5)
        return intentd.IntentResponse("success", {"slept": 0.5})


class Slowpoke(intentd.Extension):
    manifest = pathlib.Path(__file__).resolve().parent.parent / "examples" / "jotter" / "Manifest" / "Info.plist"

    def handler(self, intent):
        return Slow()

    def stop(self):
        print("stopped", flush=True)


intentd.run(Slowpoke)
