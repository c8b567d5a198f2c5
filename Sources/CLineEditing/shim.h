// libedit's readline interface (BSD licensed), for intentctl chat's line editing.
#include <stdio.h>
#include <editline/readline.h>

/// Lets the program handle signals itself: libedit then installs no handlers of its own
/// around each read (Swift cannot assign an imported C global under strict concurrency).
static inline void intentctl_rl_leave_signals_alone(void) { rl_catch_signals = 0; }

/// How long the line being edited is, in bytes of the locale's encoding.
static inline int intentctl_rl_line_length(void) { return rl_end; }

/// The line being edited, in the locale's encoding.
static inline const char *intentctl_rl_line(void) { return rl_line_buffer ? rl_line_buffer : ""; }

/// Replaces the line being edited with `text`, the cursor at its end.
static inline void intentctl_rl_set_line(const char *text) { rl_replace_line(text, 0); rl_point = rl_end; }
