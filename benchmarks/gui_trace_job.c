/* The job whose trace the viewer benchmarks open (bench_gui_timeline), recorded through the real
 * collector: `compilescope record -o TRACE -- gui_trace_job THREADS EVENTS`.
 *
 * Why explicit timestamps: the benchmark needs the same trace shape on every machine and run (a JIT
 * that compiles one kernel after another, nested three deep: compile > inference, compile > codegen
 * > optimize), and spans long enough (a few us) that "any zoom" down to 10 us still shows a few of
 * them. Each thread therefore lays its spans on its own clock, 2 us per kernel, starting at the
 * real time the job began. Everything else is the real path: interned names, the per-thread ring,
 * the flusher, the socket, the recorder, SQLite. Events are recorded in the order a real runtime
 * ends them (children before their parent), so rowids are not in start order, as in real traces.
 */
#define CS_ENABLED 1
#include <compilescope/compilescope.h>

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

enum { kNames = 8, kEventsPerKernel = 4 };

static long g_kernelsPerThread;
static int64_t g_origin;
static cs_str g_names[kNames];

static void* worker(void* arg) {
    const long thread = (long)(intptr_t)arg;
    for (long i = 0; i < g_kernelsPerThread; ++i) {
        const int64_t t = g_origin + i * 2000 + thread * 137;
        const cs_str name = g_names[i % kNames];
        cs_span_complete(CS_THREAD_TRACK, CS_CAT_INFERENCE, name, t + 100, 600);
        cs_span_complete(CS_THREAD_TRACK, CS_CAT_OTHER, g_names[(i + 3) % kNames], t + 900, 400);
        cs_span_complete(CS_THREAD_TRACK, CS_CAT_CODEGEN, g_names[(i + 1) % kNames], t + 800, 900);
        cs_span_complete(CS_THREAD_TRACK, CS_CAT_COMPILE, name, t, 1800);
    }
    return NULL;
}

int main(int argc, char** argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: gui_trace_job THREADS EVENTS\n");
        return 2;
    }
    int threads = atoi(argv[1]);
    const long events = atol(argv[2]);
    if (threads < 1 || threads > 64 || events < kEventsPerKernel * threads) {
        fprintf(stderr, "gui_trace_job: THREADS must be 1..64 and EVENTS at least %d per thread\n", kEventsPerKernel);
        return 2;
    }
    if (cs_start("jit", NULL) != 1) {
        fprintf(stderr, "gui_trace_job: not recording (run it under `compilescope record`)\n");
        return 3;
    }
    char buf[32];
    for (int i = 0; i < kNames; ++i) {
        snprintf(buf, sizeof buf, "kernel_%d", i);
        g_names[i] = cs_intern(buf);
    }
    g_kernelsPerThread = events / kEventsPerKernel / threads;
    g_origin = cs_now_ns();
    pthread_t t[64];
    for (long i = 0; i < threads; ++i) pthread_create(&t[i], NULL, worker, (void*)(intptr_t)i);
    for (int i = 0; i < threads; ++i) pthread_join(t[i], NULL);
    cs_stop();
    printf("%ld events, %llu dropped\n", g_kernelsPerThread * kEventsPerKernel * threads,
           (unsigned long long)cs_dropped_count());
    return cs_dropped_count() == 0 ? 0 : 4;
}
