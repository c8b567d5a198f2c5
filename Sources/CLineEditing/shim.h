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
/// ahead that were no paste mark.
struct intentctl_input {
    int pasting;
    int after_return;
    unsigned char ahead[8];
    int count, next;
};

static inline struct intentctl_input *intentctl_input_state(void) {
    static struct intentctl_input state;
    return &state;
}

/// One byte of input: one read ahead first, else from the terminal, waiting at most
/// `wait_ms` (-1: as long as it takes). -1 at the end of input, -2 when nothing came in
/// time, -3 on an error.
static inline int intentctl_input_byte(int wait_ms) {
    struct intentctl_input *s = intentctl_input_state();
    if (s->next < s->count) return s->ahead[s->next++];
    s->next = s->count = 0;
    if (wait_ms >= 0) {
        struct pollfd ready = { .fd = STDIN_FILENO, .events = POLLIN, .revents = 0 };
        int n;
        do { n = poll(&ready, 1, wait_ms); } while (n < 0 && errno == EINTR);
        if (n == 0) return -2;
        if (n < 0) return -3;
    }
    unsigned char byte;
    for (;;) {
        ssize_t n = read(STDIN_FILENO, &byte, 1);
        if (n == 1) return byte;
        if (n < 0 && errno == EINTR) continue;
        return n == 0 ? -1 : -3;
    }
}

/// libedit's character reader (EL_GETCFN): UTF-8 from the terminal, the paste marks taken
/// out, a line end inside a paste read as a space. 1 with a character, 0 at the end of
/// input, -1 on an error.
static inline int intentctl_read_char(EditLine *editor, wchar_t *out) {
    (void)editor;
    struct intentctl_input *s = intentctl_input_state();
    for (;;) {
        int fresh = s->next >= s->count;
        int byte = intentctl_input_byte(-1);
        if (byte < 0) return byte == -1 ? 0 : -1;
        if (byte == 0x1b && fresh) {
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
            memcpy(s->ahead, seen, (size_t)n);
            s->count = n;
            s->next = 0;
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
        if (byte < 0x80) { *out = (wchar_t)byte; return 1; }
        // A character of several bytes; one that is no UTF-8 is U+FFFD.
        int more = byte >= 0xf0 && byte < 0xf8 ? 3 : byte >= 0xe0 ? 2 : byte >= 0xc0 ? 1 : -1;
        if (more < 0) { *out = 0xfffd; return 1; }
        unsigned int value = (unsigned int)byte & (0x3fu >> more);
        for (int i = 0; i < more; i++) {
            int next = intentctl_input_byte(100);
            if (next < 0 || (next & 0xc0) != 0x80) {
                if (next >= 0) { s->ahead[0] = (unsigned char)next; s->count = 1; s->next = 0; }
                value = 0xfffd;
                break;
            }
            value = (value << 6) | ((unsigned int)next & 0x3f);
        }
        *out = (wchar_t)value;
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
    el_set(editor, EL_UNBUFFERED, 0);
    intentctl_input_state()->pasting = 0;
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
