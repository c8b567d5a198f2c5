// libedit's readline interface (BSD licensed), for intentctl chat's line editing.
#include <stdio.h>
#include <editline/readline.h>

/// Lets the program handle signals itself: libedit then installs no handlers of its own
/// around each read (Swift cannot assign an imported C global under strict concurrency).
static inline void intentctl_rl_leave_signals_alone(void) { rl_catch_signals = 0; }

/// How long the line being edited is, in bytes of the locale's encoding.
static inline int intentctl_rl_line_length(void) { return rl_end; }

/// The most bytes a line may have. libedit's readline layer sets `rl_line_buffer` once,
/// into a 1 KiB buffer it reallocates when the line outgrows it, and after every key
/// writes a NUL through that pointer: a long line outside ASCII corrupted the heap and
/// crashed the chat. Lines are kept under that size, and no key may add more than a few
/// bytes at once (`intentctl_rl_one_key_one_character`); a line that passes the limit is
/// dropped.
#define INTENTCTL_MAX_LINE_BYTES 1000

/// Unbinds the keys that add many characters at once, so that a line cannot jump past
/// the limit before it is dropped: a count prefix (Esc and digits), the yank of killed text
/// (Ctrl-Y) and completion (Tab, which then inserts a tab).
static inline void intentctl_rl_one_key_one_character(void) {
    static const char *const bindings[] = {
        "bind '^Y' ed-unassigned", "bind '^I' ed-insert",
        "bind '\\e0' ed-unassigned", "bind '\\e1' ed-unassigned", "bind '\\e2' ed-unassigned",
        "bind '\\e3' ed-unassigned", "bind '\\e4' ed-unassigned", "bind '\\e5' ed-unassigned",
        "bind '\\e6' ed-unassigned", "bind '\\e7' ed-unassigned", "bind '\\e8' ed-unassigned",
        "bind '\\e9' ed-unassigned", "bind '\\e-' ed-unassigned",
    };
    for (size_t i = 0; i < sizeof bindings / sizeof *bindings; i++) rl_parse_and_bind(bindings[i]);
}

/// Whether a line may go to the history: one libedit can load back within the line limit,
/// and can write to the file. It escapes each byte into a buffer of four bytes per byte
/// (at least 1 KiB), but writes five for some bytes outside ASCII ("\\M-^X"): a long such
/// line overran it, a crash that also emptied the file.
static inline int intentctl_history_fits(const char *line) {
    size_t length = 0;
    int ascii = 1;
    for (const unsigned char *p = (const unsigned char *)line; *p; p++, length++) {
        if (*p >= 0x80) ascii = 0;
    }
    return length <= INTENTCTL_MAX_LINE_BYTES && (ascii || length <= 200);
}

/// Drops the history entries that do not fit (from a file an older version wrote), newest
/// first so the positions of those left do not move.
static inline void intentctl_history_drop_unfit(void) {
    for (int i = history_length - 1; i >= 0; i--) {
        HIST_ENTRY *entry = history_get(history_base + i);
        if (entry && entry->line && !intentctl_history_fits(entry->line)) {
            HIST_ENTRY *removed = remove_history(i);
            if (removed) free_history_entry(removed);
        }
    }
}
