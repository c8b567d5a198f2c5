"""The manifest (an Info.plist with Apple's Intents-extension keys, wire.md section 17)
and the app vocabulary beside it (AppIntentVocabulary.plist, section 19b), turned into the
Registration body (section 10.1)."""

import os
import plistlib
import re


class ManifestError(Exception):
    """A manifest that cannot be read or lacks a required key."""


def normalise(intent):
    """`INSendMessageIntent` → `SendMessage`; other names unchanged (section 17)."""
    if intent.startswith("IN") and intent.endswith("Intent") and len(intent) > 8:
        return intent[2:-6]
    return intent


_BUNDLE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9-]*(\.[A-Za-z0-9][A-Za-z0-9-]*)+$")


def bundle_problem(bundle):
    """Why a bundle id is not reverse-DNS (check I1 of section 6), or None."""
    if len(bundle) > 155 or not _BUNDLE.match(bundle):
        return "the bundle identifier %r is not reverse-DNS (letters, digits, '-' and '.')" % bundle[:80]
    return None


def _strings(value, what, path):
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ManifestError("%s: %s must be an array of strings" % (path, what))
    return [normalise(v.strip()) for v in value]


def read(path):
    """The Registration body (a dict, without processIdentifier and launchToken) of `path`."""
    try:
        with open(path, "rb") as f:
            plist = plistlib.load(f)
    except (OSError, plistlib.InvalidFileException, ValueError) as error:
        raise ManifestError("cannot read the manifest %s: %s" % (path, error)) from None
    if not isinstance(plist, dict):
        raise ManifestError("%s: not a dictionary" % path)
    bundle = plist.get("CFBundleIdentifier")
    app = plist.get("CFBundleDisplayName") or plist.get("CFBundleName")
    if not isinstance(bundle, str) or not bundle.strip():
        raise ManifestError("%s: CFBundleIdentifier is missing" % path)
    if not isinstance(app, str) or not app.strip():
        raise ManifestError("%s: CFBundleDisplayName (or CFBundleName) is missing" % path)
    attributes = (plist.get("NSExtension") or {}).get("NSExtensionAttributes") or {}
    supported = _strings(attributes.get("IntentsSupported"), "IntentsSupported", path)
    if not supported:
        raise ManifestError("%s: NSExtension/NSExtensionAttributes/IntentsSupported is missing or empty" % path)
    alternatives = []
    for entry in plist.get("INAlternativeAppNames") or []:
        if isinstance(entry, dict) and isinstance(entry.get("INAlternativeAppName"), str):
            alternative = {"name": entry["INAlternativeAppName"].strip()}
            hint = entry.get("INAlternativeAppNamePronunciationHint")
            if isinstance(hint, str):
                alternative["pronunciation"] = hint.strip()
            alternatives.append(alternative)
    usage = plist.get("NSSiriUsageDescription")
    registration = {
        "protocolVersion": 2,
        "bundleIdentifier": bundle.strip(),
        "appName": app.strip(),
        "alternativeAppNames": alternatives,
        "usageDescription": usage.strip() if isinstance(usage, str) else "",
        "intentsSupported": supported,
        "intentsRestrictedWhileLocked": _strings(
            attributes.get("IntentsRestrictedWhileLocked"), "IntentsRestrictedWhileLocked", path),
    }
    vocabulary = os.path.join(os.path.dirname(path), "AppIntentVocabulary.plist")
    if os.path.exists(vocabulary):
        registration["vocabulary"] = read_vocabulary(vocabulary)
    return registration


def read_vocabulary(path):
    """AppIntentVocabulary.plist as the REGISTER member `vocabulary` (section 19b)."""
    try:
        with open(path, "rb") as f:
            plist = plistlib.load(f)
    except (OSError, plistlib.InvalidFileException, ValueError) as error:
        raise ManifestError("cannot read %s: %s" % (path, error)) from None
    if not isinstance(plist, dict):
        raise ManifestError("%s must hold a dictionary" % path)
    result = {"parameterVocabularies": [], "intentPhrases": []}
    for entry in plist.get("ParameterVocabularies") or []:
        names = []
        for parameter in entry.get("ParameterNames") or []:
            intent, dot, rest = parameter.partition(".")
            names.append(normalise(intent) + dot + rest)
        items = []
        for item in entry.get("ParameterVocabulary") or []:
            if not isinstance(item.get("VocabularyItemIdentifier"), str):
                continue
            synonyms = []
            for s in item.get("VocabularyItemSynonyms") or []:
                if isinstance(s, dict) and isinstance(s.get("VocabularyItemPhrase"), str):
                    synonym = {"phrase": s["VocabularyItemPhrase"], "examples": list(s.get("VocabularyItemExamples") or [])}
                    if isinstance(s.get("VocabularyItemPronunciation"), str):
                        synonym["pronunciation"] = s["VocabularyItemPronunciation"]
                    synonyms.append(synonym)
            items.append({"identifier": item["VocabularyItemIdentifier"], "synonyms": synonyms})
        result["parameterVocabularies"].append({"parameterNames": names, "items": items})
    for entry in plist.get("IntentPhrases") or []:
        if isinstance(entry.get("IntentName"), str):
            result["intentPhrases"].append({"intent": normalise(entry["IntentName"]),
                                            "examples": list(entry.get("IntentExamples") or [])})
    return result
