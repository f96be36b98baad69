/* The public headers compiled as C11, with the convenience macros compiled OUT: every macro must
 * vanish, and every function must be callable while recording is off (nothing happens). */
#include <compilescope/compilescope.h>
#include <compilescope/compilescope_macros.h>

#include <stdio.h>

int main(void) {
    CS_SPAN(CS_CAT_COMPILE, "compiled out");
    CS_SPAN_BEGIN(CS_CAT_COMPILE, "x");
    CS_SPAN_END();
    CS_STEP(1);
    CS_COUNTER("s", "n", 1);
    if (CS_ACTIVE() || CS_STR("x") != 0) return 1;
    /* Not started: every call returns at once and nothing is counted. */
    cs_str s = cs_intern("x");
    cs_span_begin(CS_THREAD_TRACK, CS_CAT_OTHER, s);
    cs_span_end(CS_THREAD_TRACK);
    cs_span_complete(CS_THREAD_TRACK, CS_CAT_OTHER, s, CS_NOW, 1);
    cs_counter(s, s, 1);
    cs_cache_lookup l = {0};
    if (cs_cache_lookup_record(&l) != 0 || s != 0 || cs_enabled() || cs_dropped_count() != 0) return 1;
    if (cs_now_ns() <= 0) return 1;
    puts("C header ok");
    return 0;
}
