// libedit's own interface (BSD licensed), for intentctl chat's line editing. Its calls
// that take variable arguments, which Swift cannot make, are wrapped here.
//
// The wide-character interface is used throughout: libedit keeps the line in wide
// characters, and its narrow calls convert the line into a scratch buffer that the next
// call reallocates (its readline layer kept a pointer into that buffer and corrupted the
// heap on long lines outside ASCII).
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>
#include <histedit.h>

// ---- reading keys: bracketed paste --------------------------------------------------------
//
// While a line is read, the terminal is asked to mark what is pasted ("bracketed paste",
// ESC [200~ … ESC [201~). A pasted line end is then a space, not Enter: pasted lines are
// one line, sent when the user presses Enter, not line by line as they arrive.

/// What the key reader keeps between calls: whether a paste is under way, and bytes read
/// ahead that were no paste mark, to be read first.
struct intentctl_input {
    int pasting;
    int after_return;
    int after_escape;
    unsigned char ahead[16];
    int count;
};

static inline struct intentctl_input *intentctl_input_state(void) {
    static struct intentctl_input state;
    return &state;
}

/// Whether bytes read ahead wait to be read (the chat's loop reads them before it waits
/// for the terminal again).
static inline int intentctl_input_pending(void) { return intentctl_input_state()->count > 0; }

/// Forgets the bytes read ahead (typed ahead of a question). A paste under way stays one:
/// what is left of it is still text, its line ends spaces, until its end mark.
static inline void intentctl_input_discard(void) { intentctl_input_state()->count = 0; }

/// Puts `n` bytes back before those read ahead, to be read next.
static inline void intentctl_input_unread(const unsigned char *bytes, int n) {
    struct intentctl_input *s = intentctl_input_state();
    if (n <= 0 || s->count + n > (int)sizeof s->ahead) return;
    memmove(s->ahead + n, s->ahead, (size_t)s->count);
    memcpy(s->ahead, bytes, (size_t)n);
    s->count += n;
}

/// One byte of input: one read ahead first, else from the terminal if one comes within
/// `wait_ms`. -1 at the end of input, -2 when nothing came in time, -3 on an error.
static inline int intentctl_input_byte(int wait_ms) {
    struct intentctl_input *s = intentctl_input_state();
    if (s->count > 0) {
        int byte = s->ahead[0];
        memmove(s->ahead, s->ahead + 1, (size_t)--s->count);
        return byte;
    }
    struct pollfd ready = { .fd = STDIN_FILENO, .events = POLLIN, .revents = 0 };
    int n;
    do { n = poll(&ready, 1, wait_ms); } while (n < 0 && errno == EINTR);
    if (n == 0) return -2;
    if (n < 0) return -3;
    unsigned char byte;
    for (;;) {
        ssize_t got = read(STDIN_FILENO, &byte, 1);
        if (got == 1) return byte;
        if (got < 0 && errno == EINTR) continue;
        return got == 0 ? -1 : -3;
    }
}

/// The character of a UTF-8 sequence that starts with `lead`, its other bytes read as they
/// come; U+FFFD for one that is no UTF-8 (a stray or overlong byte, a surrogate, past
/// U+10FFFF, cut short), whose byte that starts something else is read again.
static inline wchar_t intentctl_input_utf8(int lead) {
    int more;
    unsigned int value, least;
    if (lead >= 0xc2 && lead <= 0xdf) { more = 1; value = (unsigned int)lead & 0x1f; least = 0x80; }
    else if (lead >= 0xe0 && lead <= 0xef) { more = 2; value = (unsigned int)lead & 0x0f; least = 0x800; }
    else if (lead >= 0xf0 && lead <= 0xf4) { more = 3; value = (unsigned int)lead & 0x07; least = 0x10000; }
    else return 0xfffd;
    for (int i = 0; i < more; i++) {
        int next = intentctl_input_byte(100);
        if (next < 0) return 0xfffd;
        if ((next & 0xc0) != 0x80) {
            unsigned char again = (unsigned char)next;
            intentctl_input_unread(&again, 1);
            return 0xfffd;
        }
        value = (value << 6) | ((unsigned int)next & 0x3f);
    }
    if (value < least || value > 0x10ffff || (value >= 0xd800 && value <= 0xdfff)) return 0xfffd;
    return (wchar_t)value;
}

/// libedit's character reader (EL_GETCFN): UTF-8 from the terminal, the paste marks taken
/// out, a line end inside a paste read as a space. 1 with a character, 0 at the end of
/// input, -1 with errno 0 when no key has come (the chat's loop then waits for one, hearing
/// Ctrl-C, the host and the question's time meanwhile), -1 on an error.
static inline int intentctl_read_char(EditLine *editor, wchar_t *out) {
    (void)editor;
    struct intentctl_input *s = intentctl_input_state();
    for (;;) {
        // An escape typed alone is followed by the key it goes with (Escape, then b): that
        // one is waited for, as libedit's own reader does.
        int byte = intentctl_input_byte(s->after_escape ? -1 : 0);
        s->after_escape = 0;
        if (byte == -2) { errno = 0; return -1; }
        if (byte == -1) return 0;
        if (byte < 0) return -1;
        if (byte == 0x1b) {
            // A terminal sends a mark whole: what follows an escape at once is read ahead.
            static const char start[] = "[200~", end[] = "[201~";
            unsigned char seen[5];
            int n = 0;
            while (n < 5) {
                int next = intentctl_input_byte(25);
                if (next < 0) break;
                seen[n++] = (unsigned char)next;
                if (seen[n - 1] != (unsigned char)start[n - 1] && seen[n - 1] != (unsigned char)end[n - 1]) break;
            }
            if (n == 5 && memcmp(seen, start, 5) == 0) { s->pasting = 1; s->after_return = 0; continue; }
            if (n == 5 && memcmp(seen, end, 5) == 0) { s->pasting = 0; continue; }
            // Another key (an arrow, Alt with a key): its bytes follow the escape.
            intentctl_input_unread(seen, n);
            s->after_escape = n == 0;
            *out = 0x1b;
            return 1;
        }
        if (s->pasting && (byte == '\r' || byte == '\n')) {
            // CR LF is one line end.
            int second = byte == '\n' && s->after_return;
            s->after_return = byte == '\r';
            if (second) continue;
            *out = L' ';
            return 1;
        }
        s->after_return = 0;
        *out = byte < 0x80 ? (wchar_t)byte : intentctl_input_utf8(byte);
        return 1;
    }
}

/// The prompt function libedit calls: the text kept as the editor's client data.
static inline char *intentctl_editor_prompt(EditLine *editor) {
    char *prompt = NULL;
    el_get(editor, EL_CLIENTDATA, &prompt);
    return prompt ? prompt : (char *)"";
}

/// An editor on the terminal with emacs keys, the user's ~/.editrc, `history` for the up
/// arrow, and no signal handlers of its own (the program handles Ctrl-C itself).
static inline EditLine *intentctl_editor_open(const char *program, HistoryW *history) {
    EditLine *editor = el_init(program, stdin, stdout, stderr);
    if (!editor) return NULL;
    el_set(editor, EL_SIGNAL, 0);
    el_set(editor, EL_EDITOR, "emacs");
    el_set(editor, EL_PROMPT, intentctl_editor_prompt);
    el_wset(editor, EL_HIST, history_w, history);
    // Tab inserts itself (emacs keys leave it unbound, and a pasted tab was lost).
    el_set(editor, EL_BIND, "^I", "ed-insert", NULL);
    el_wset(editor, EL_GETCFN, intentctl_read_char);
    el_source(editor, NULL);
    return editor;
}

/// Sets the prompt drawn from the next refresh on.
static inline void intentctl_editor_set_prompt(EditLine *editor, const char *prompt) {
    char *old = NULL;
    el_get(editor, EL_CLIENTDATA, &old);
    el_set(editor, EL_CLIENTDATA, strdup(prompt));
    free(old);
}

/// Starts a line: the terminal in raw mode, the line empty, the prompt drawn. From then
/// on each `el_wgets` reads one key and returns the line so far.
/// The terminal marks what is pasted while the line is read.
static inline void intentctl_editor_begin_line(EditLine *editor) {
    fputs("\033[?2004h", stdout);
    fflush(stdout);
    el_set(editor, EL_UNBUFFERED, 1);
}

/// Ends the line being read and gives the terminal back its modes.
static inline void intentctl_editor_end_line(EditLine *editor) {
    // A paste under way goes on into the next line (a line dropped as too long): only its
    // end mark ends it.
    el_set(editor, EL_UNBUFFERED, 0);
    fputs("\033[?2004l", stdout);
    fflush(stdout);
}

/// The terminal's width as libedit took it when the line began.
static inline int intentctl_editor_columns(EditLine *editor) {
    int columns = 0;
    if (el_get(editor, EL_GETTC, "co", &columns, NULL) != 0 || columns <= 0) return 80;
    return columns;
}

/// Draws the prompt and the line again, from where the cursor is.
static inline void intentctl_editor_redraw(EditLine *editor) { el_set(editor, EL_REFRESH); }

/// Takes the terminal's new size and draws the prompt and the line again, from where the
/// cursor is.
static inline void intentctl_editor_resize(EditLine *editor) {
    el_resize(editor);
    intentctl_editor_redraw(editor);
}

static inline void intentctl_editor_close(EditLine *editor) {
    char *prompt = NULL;
    el_get(editor, EL_CLIENTDATA, &prompt);
    el_end(editor);
    free(prompt);
}

/// A history of at most `size` lines that skips a line equal to the one before it.
static inline HistoryW *intentctl_history_open(int size) {
    HistoryW *history = history_winit();
    if (!history) return NULL;
    HistEventW event;
    history_w(history, &event, H_SETSIZE, size);
    history_w(history, &event, H_SETUNIQUE, 1);
    return history;
}

static inline void intentctl_history_add(HistoryW *history, const wchar_t *line) {
    HistEventW event;
    history_w(history, &event, H_ENTER, line);
}
