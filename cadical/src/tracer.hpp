#include "/proc/self/cwd/cppsrc/src/tracer.hpp"
