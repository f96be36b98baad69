/* A program built against the installed collector SDK: records one compile span. */
#include <compilescope/compilescope.h>

int main(void) {
    cs_start("consumer", 0);
    cs_span_complete(CS_THREAD_TRACK, CS_CAT_COMPILE, cs_intern("installed sdk"), CS_NOW, 1000);
    cs_stop();
    return 0;
}
