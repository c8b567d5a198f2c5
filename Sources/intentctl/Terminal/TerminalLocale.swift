import Foundation

/// The character set libedit works in.
///
/// A Swift program starts in the "C" locale whatever `LANG` says, and libedit then cannot
/// decode a prompt that is not ASCII ("… "): it dereferences a null pointer and the process
/// dies. So before libedit starts, the terminal's locale is taken from the environment, with
/// C.UTF-8 where the environment names none that speaks UTF-8; where no UTF-8 locale exists
/// at all, prompts fall back to ASCII.
enum TerminalLocale {
    /// Sets the character-type locale for line editing; true if it speaks UTF-8.
    static func adoptUTF8() -> Bool {
        if setlocale(LC_CTYPE, "") != nil, speaksUTF8 { return true }
        for name in ["C.UTF-8", "C.utf8", "en_US.UTF-8"] where setlocale(LC_CTYPE, name) != nil {
            if speaksUTF8 { return true }
        }
        setlocale(LC_CTYPE, "C")
        return false
    }

    /// `text` as libedit can show it in the current locale: unchanged in UTF-8, else with
    /// "…" spelled "..." and any other character outside ASCII as "?".
    static func displayable(_ text: String, utf8: Bool) -> String {
        guard !utf8 else { return text }
        return String(String.UnicodeScalarView(text.replacingOccurrences(of: "…", with: "...").unicodeScalars.map {
            $0.isASCII ? $0 : "?"
        }))
    }

    private static var speaksUTF8: Bool {
        guard let codeset = nl_langinfo(nl_item(CODESET)) else { return false }
        let name = String(cString: codeset).uppercased()
        return name == "UTF-8" || name == "UTF8"
    }
}
