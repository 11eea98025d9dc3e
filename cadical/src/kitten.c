#include "/proc/self/cwd/cppsrc/src/kitten.c"
