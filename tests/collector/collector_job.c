/* A recorded "job" for the collector tests, written in C to prove the header works from C.
 *
 *   collector_job threads N M      N threads record M complete spans each, then exit 0
 *   collector_job family           records, fork()s a child that records, fork+execs `child`
 *   collector_job child            records 10 spans (the exec'd child)
 *   collector_job steady FILE N MS records counters seq = 0, 1, ... (bursts of N, one per ms) for MS
 *                                  milliseconds (0 = forever), storing the last recorded seq in FILE
 *                                  (mmap'd, so it survives a kill -9 of the job)
 *   collector_job workers N M      forks N children that record M spans each and end with _exit(0)
 *                                  (as worker pools do), then records M spans itself
 *   collector_job every            calls every event function of compilescope.h once
 *   collector_job exit CODE        records 5 spans and exits with CODE
 *   collector_job threads-exit N M  records 1 span, then N threads record M spans each, then the
 *                                  process ends with _exit(0)
 *   collector_job outlive FILE N STAY  forks a child that records N spans and writes its pid to FILE;
 *                                  the job (this process) then returns. The child waits until the job
 *                                  has ended; STAY 1: it then waits to be killed; STAY 0: it records N
 *                                  more spans and exits
 *   collector_job recompiles FILE MS  a program compiled at step 1 and again at step 2 (its key's
 *                                  shape moved), writes the time of that flush to FILE.flushed,
 *                                  then waits MS milliseconds and creates FILE
 */
#define CS_ENABLED 1
#include <compilescope/compilescope.h>
#include <compilescope/compilescope_macros.h>

#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long g_perThread;
static cs_str g_name;

static void* worker(void* arg) {
    (void)arg;
    for (long i = 0; i < g_perThread; ++i) cs_span_complete(CS_THREAD_TRACK, CS_CAT_COMPILE, g_name, CS_NOW, 100);
    return NULL;
}

static int threads(int n, long m) {
    pthread_t t[64];
    if (n > 64) n = 64;
    g_perThread = m;
    g_name = cs_intern("work");
    for (int i = 0; i < n; ++i) pthread_create(&t[i], NULL, worker, NULL);
    for (int i = 0; i < n; ++i) pthread_join(t[i], NULL);
    return 0;
}

static void spans(const char* name, int n) {
    cs_str s = cs_intern(name);
    for (int i = 0; i < n; ++i) cs_span_complete(CS_THREAD_TRACK, CS_CAT_OTHER, s, CS_NOW, 10);
}

static int family(const char* self) {
    spans("parent", 10);
    pid_t forked = fork();
    if (forked == 0) {
        spans("forked-child", 10);
        cs_stop();
        _exit(0);
    }
    pid_t execd = fork();
    if (execd == 0) {
        execl(self, self, "child", (char*)NULL);
        _exit(127);
    }
    int st1 = 0, st2 = 0;
    waitpid(forked, &st1, 0);
    waitpid(execd, &st2, 0);
    spans("parent-after", 10);
    return WIFEXITED(st1) && WEXITSTATUS(st1) == 0 && WIFEXITED(st2) && WEXITSTATUS(st2) == 0 ? 0 : 3;
}

static int workers(int n, int m) {
    cs_str name = cs_intern("worker");
    int failed = 0;
    for (int i = 0; i < n; ++i) {
        pid_t pid = fork();
        if (pid == 0) {
            for (int k = 0; k < m; ++k) cs_span_complete(CS_THREAD_TRACK, CS_CAT_COMPILE, name, CS_NOW, 10);
            _exit(0); /* no atexit, no cs_stop: what the rings hold must survive anyway */
        }
        if (pid < 0) ++failed;
    }
    int st = 0;
    while (wait(&st) > 0)
        if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) ++failed;
    spans("parent", m);
    return failed ? 3 : 0;
}

static int steady(const char* file, int burst, long durationMs) {
    int fd = open(file, O_RDWR | O_CREAT | O_TRUNC, 0600);
    if (fd < 0 || ftruncate(fd, 4096) != 0) return 4;
    volatile int64_t* last = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (last == MAP_FAILED) return 4;
    *last = -1;
    cs_str scope = cs_intern("test"), name = cs_intern("seq");
    struct timespec ms = {0, 1000000};
    const int64_t start = cs_now_ns();
    for (int64_t seq = 0;; ) {
        for (int i = 0; i < burst; ++i, ++seq) {
            cs_counter(scope, name, seq);
            *last = seq; /* the page survives the process: the test reads it after kill -9 */
        }
        nanosleep(&ms, NULL);
        if (durationMs > 0 && cs_now_ns() - start > durationMs * 1000000) break;
    }
    return 0;
}

static int every(void) {
    cs_str a = cs_intern("a"), b = cs_intern("b"), c = cs_intern("c");
    cs_track lane = cs_track_create(cs_intern("lane"), CS_TRACK_RUNTIME, 7);
    cs_span_begin(CS_THREAD_TRACK, CS_CAT_COMPILE, a);
    cs_span_arg_int(b, 42);
    cs_span_begin(lane, CS_CAT_INFERENCE, b);
    cs_span_end(lane);
    cs_span_arg_str(b, c);
    cs_span_end(CS_THREAD_TRACK);
    cs_span_complete(lane, CS_CAT_CODEGEN, c, CS_NOW, 5);
    cs_span_begin(CS_THREAD_TRACK, CS_CAT_STEP, c); /* never ended: dur_ns NULL */
    cs_step(1, 0, a);
    cs_key_component key[2] = {{a, CS_ROLE_SHAPE, b, c}, {b, CS_ROLE_DEVICE, 0, c}};
    cs_closure_entry closure[1] = {{c, 0, 12}};
    cs_cache_lookup l = {CS_NOW, a, b, c, CS_VERDICT_MISS, 1000, a, CS_THREAD_TRACK, 1, key, 2, 1, closure};
    cs_lookup id = cs_cache_lookup_record(&l);
    cs_closure_add(id, b, CS_NONE);
    cs_counter(a, b, 3);
    cs_method_info m = {CS_NOW, CS_METHOD_REDEFINE, a, b, c, a, 0, 12, 33};
    cs_method(&m);
    cs_invalidation_item(CS_INVLIST_METHODS, 0, CS_INVITEM_TAG, "jl_method_table_insert");
    cs_module_option opts[1] = {{a, b}};
    cs_module_kernel kernels[2] = {{a, b, 0, 0}, {b, c, a, 0}};
    cs_module_load ml = {CS_NOW, 100, a, b, c, CS_MODULE_COMPILED, 256, 50, 1000, CS_NONE, lane, 1, opts, kernels, 2, 0};
    cs_module_load_record(&ml);
    cs_str copts[2] = {a, b};
    cs_cuda_input inputs[1] = {{a, b, 99}};
    cs_cuda_program cp = {CS_NOW, 10, CS_CUDA_NVJITLINK, a, b, CS_THREAD_TRACK, 0, 5, 77, copts, 2, 1, inputs};
    cs_cuda_program_record(&cp);
    cs_cuda_jit jit = {CS_NONE, CS_NONE, CS_JIT_ENTRY_PTX_TO_CUBIN, CS_JIT_OP_CACHE_LOAD, 0, 5, 6, 1024, a, 0};
    cs_cuda_jit_record(&jit);
    cs_cuda_module(CS_NOW, CS_CUDA_MODULE_LOAD, 3, 4096, a);
    cs_kernel_launch kl = {CS_NOW, 20, a, CS_THREAD_TRACK, {1, 2, 3}, {4, 5, 6}, 0, 1, 9};
    cs_kernel_launch_record(&kl);
    cs_phase_timing(CS_PHASE_TOOL_NVRTC, a, b, c, CS_NONE, 17);
    {
        CS_SPAN(CS_CAT_INIT, "macro-span");
        CS_STEP(2);
        CS_COUNTER("macro", "n", 1);
    }
    return 0;
}

/* A cached program whose key moves at step 2: the acceptance check fails (a recompile after the
 * first step). The job then lives on for `waitMs`, so a watcher can be seen reporting it live. */
static int recompiles(const char* doneFile, long waitMs) {
    cs_str cache = cs_intern("program_cache"), program = cs_intern("gradient"), handle = cs_intern("n1");
    cs_str shapeName = cs_intern("shape of arg 2"), s1 = cs_intern("128x64"), s2 = cs_intern("100x64");
    for (int step = 1; step <= 2; ++step) {
        cs_step(step, 1, 0);
        cs_key_component key[1] = {{shapeName, CS_ROLE_SHAPE, 0, step == 1 ? s1 : s2}};
        cs_cache_lookup l = {CS_NOW, cache, program, handle, CS_VERDICT_MISS, 2000000, 0, CS_THREAD_TRACK, step, key, 1, 0, NULL};
        cs_cache_lookup_record(&l);
        cs_flush();
    }
    /* When the recompile left this process (CLOCK_MONOTONIC ns), for the watch latency test. */
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    char flushed[4096];
    snprintf(flushed, sizeof flushed, "%s.flushed", doneFile);
    FILE* t = fopen(flushed, "w");
    if (t) {
        fprintf(t, "%lld\n", (long long)now.tv_sec * 1000000000LL + now.tv_nsec);
        fclose(t);
    }
    struct timespec w = {waitMs / 1000, (waitMs % 1000) * 1000000L};
    nanosleep(&w, NULL);
    FILE* f = fopen(doneFile, "w");
    if (f) fclose(f);
    return 0;
}

/* One span, a nap that lets the flusher make its first pass (so that with a long COMPILESCOPE_FLUSH_MS
 * the burst stays unsent), N threads x M spans, then _exit(0) without cs_stop(). */
static int threadsExit(int n, long m) {
    spans("first", 1);
    struct timespec nap = {0, 20000000};
    nanosleep(&nap, NULL);
    threads(n, m);
    _exit(0);
}

static int outlive(const char* pidFile, int n, int stay) {
    const pid_t parent = getpid();
    struct timespec ms = {0, 1000000};
    pid_t child = fork();
    if (child < 0) return 5;
    if (child > 0) {
        while (access(pidFile, F_OK) != 0) nanosleep(&ms, NULL);
        return 0;
    }
    /* The first span connects this child; the nap lets its flusher make its first pass, so that with a
     * long COMPILESCOPE_FLUSH_MS the other spans stay in the ring (the test retries when they did not). */
    spans("early", 1);
    struct timespec nap = {0, 20000000};
    nanosleep(&nap, NULL);
    spans("early", n - 1);
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", pidFile);
    FILE* f = fopen(tmp, "w");
    if (f) {
        fprintf(f, "%d\n", (int)getpid());
        fclose(f);
        rename(tmp, pidFile);
    }
    while (getppid() == parent) nanosleep(&ms, NULL);
    if (stay)
        for (;;) pause();
    spans("late", n);
    return 0;
}

int main(int argc, char** argv) {
    if (argc < 2) return 2;
    cs_start("test-job", NULL);
    int rc = 2;
    if (!strcmp(argv[1], "threads") && argc == 4) rc = threads(atoi(argv[2]), atol(argv[3]));
    else if (!strcmp(argv[1], "family")) rc = family(argv[0]);
    else if (!strcmp(argv[1], "child")) { spans("exec-child", 10); rc = 0; }
    else if (!strcmp(argv[1], "steady") && argc == 5) rc = steady(argv[2], atoi(argv[3]), atol(argv[4]));
    else if (!strcmp(argv[1], "workers") && argc == 4) rc = workers(atoi(argv[2]), atoi(argv[3]));
    else if (!strcmp(argv[1], "every")) rc = every();
    else if (!strcmp(argv[1], "recompiles") && argc == 4) rc = recompiles(argv[2], atol(argv[3]));
    else if (!strcmp(argv[1], "exit") && argc == 3) { spans("x", 5); rc = atoi(argv[2]); }
    else if (!strcmp(argv[1], "threads-exit") && argc == 4) rc = threadsExit(atoi(argv[2]), atol(argv[3]));
    else if (!strcmp(argv[1], "outlive") && argc == 5) rc = outlive(argv[2], atoi(argv[3]), atoi(argv[4]));
    if (argc >= 2 && getenv("COLLECTOR_JOB_PRINT_DROPS"))
        fprintf(stdout, "dropped=%llu\n", (unsigned long long)cs_dropped_count());
    return rc;
}
