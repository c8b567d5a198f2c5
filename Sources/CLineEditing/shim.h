// libedit's own interface (BSD licensed), for intentctl chat's line editing. Its calls
// that take variable arguments, which Swift cannot make, are wrapped here.
//
// The wide-character interface is used throughout: libedit keeps the line in wide
// characters, and its narrow calls convert the line into a scratch buffer that the next
// call reallocates (its readline layer kept a pointer into that buffer and corrupted the
// heap on long lines outside ASCII).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <histedit.h>

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
static inline void intentctl_editor_begin_line(EditLine *editor) { el_set(editor, EL_UNBUFFERED, 1); }

/// Ends the line being read and gives the terminal back its modes.
static inline void intentctl_editor_end_line(EditLine *editor) { el_set(editor, EL_UNBUFFERED, 0); }

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
