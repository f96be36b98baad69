// The public headers compiled as C++20 with -Wold-style-cast, and the macros compiled IN: the
// RAII span, the cached literal and the inline enabled check must work from C++.
#define CS_ENABLED 1
#include <compilescope/compilescope.h>
#include <compilescope/compilescope_macros.h>
#include <compilescope/wire_protocol.h>

#include <cstdio>

static_assert(sizeof(cs_wire_header) == 8, "wire header layout");
static_assert(CS_NONE < 0 && CS_NOW == 0 && CS_THREAD_TRACK == 0u, "sentinels");

int main() {
    {
        CS_SPAN(CS_CAT_COMPILE, "scoped");
        CS_STEP(1);
        CS_COUNTER("scope", "n", 1);
    }
    if (CS_ACTIVE() || cs_enabled()) return 1;  // never started: off
    std::puts("C++ header ok");
    return 0;
}
