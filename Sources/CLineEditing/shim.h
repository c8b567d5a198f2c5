// libedit's readline interface (BSD licensed), for intentctl chat's line editing.
#include <stdio.h>
#include <editline/readline.h>
