// libedit's readline interface (BSD licensed), for intentctl chat's line editing.
#include <stdio.h>
#include <editline/readline.h>

/// Lets the program handle signals itself: libedit then installs no handlers of its own
/// around each read (Swift cannot assign an imported C global under strict concurrency).
static inline void intentctl_rl_leave_signals_alone(void) { rl_catch_signals = 0; }
