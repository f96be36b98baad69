/* SPDX-License-Identifier: MIT
 *
 * Convenience macros over compilescope.h that compile to nothing unless CS_ENABLED is defined to 1.
 *
 * Why: a runtime can leave its call sites in release builds at zero cost (CS_ENABLED unset), and
 * when built with -DCS_ENABLED=1 each site costs one relaxed load of the library's enabled flag and
 * a branch while recording is off. String literals are interned once per call site and the handle
 * is cached in a static (a benign race: cs_intern returns the same handle to every thread).
 *
 *   CS_SPAN(category, "name")           scoped span on the calling thread (C++: RAII; C: GCC/Clang
 *                                       cleanup attribute), closed when the enclosing block ends
 *   CS_SPAN_BEGIN(category, "name") / CS_SPAN_END()
 *   CS_STEP(step)                       step marker without epoch or label
 *   CS_COUNTER("scope", "name", value)
 *   CS_STR("literal")                   the cached cs_str of a literal (0 when disabled)
 */
#ifndef COMPILESCOPE_COMPILESCOPE_MACROS_H
#define COMPILESCOPE_COMPILESCOPE_MACROS_H

#if defined(CS_ENABLED) && CS_ENABLED

#include <compilescope/compilescope.h>

/* The library's recording flag; read it only through CS_ACTIVE(). */
#ifdef __cplusplus
extern "C" {
#endif
CS_API extern int cs_active_flag;
#ifdef __cplusplus
}
#endif

#define CS_ACTIVE() (__builtin_expect(__atomic_load_n(&cs_active_flag, __ATOMIC_RELAXED), 0))

#define CS_CONCAT_(a, b) a##b
#define CS_CONCAT(a, b) CS_CONCAT_(a, b)

/* GNU statement expression: caches the interned literal in a per-site static. */
#define CS_STR(literal)                                                              \
    (__extension__({                                                                 \
        static cs_str cs_site_str_;                                                  \
        cs_str cs_s_ = __atomic_load_n(&cs_site_str_, __ATOMIC_RELAXED);             \
        if (!cs_s_) {                                                                \
            cs_s_ = cs_intern(literal);                                              \
            __atomic_store_n(&cs_site_str_, cs_s_, __ATOMIC_RELAXED);                \
        }                                                                            \
        cs_s_;                                                                       \
    }))

#define CS_SPAN_BEGIN(category, literal) \
    do { if (CS_ACTIVE()) cs_span_begin(CS_THREAD_TRACK, (category), CS_STR(literal)); } while (0)
#define CS_SPAN_END() \
    do { if (CS_ACTIVE()) cs_span_end(CS_THREAD_TRACK); } while (0)
#define CS_STEP(step) \
    do { if (CS_ACTIVE()) cs_step((step), CS_NONE, 0); } while (0)
#define CS_COUNTER(scope, name, value) \
    do { if (CS_ACTIVE()) cs_counter(CS_STR(scope), CS_STR(name), (value)); } while (0)

#ifdef __cplusplus
namespace compilescope_detail {
/* Closes the span at scope exit if it was opened (recording may have stopped in between). */
struct ScopedSpan {
    bool open;
    ScopedSpan(int category, cs_str name) : open(false) {
        if (CS_ACTIVE()) {
            cs_span_begin(CS_THREAD_TRACK, category, name);
            open = true;
        }
    }
    ~ScopedSpan() {
        if (open) cs_span_end(CS_THREAD_TRACK);
    }
    ScopedSpan(const ScopedSpan&) = delete;
    ScopedSpan& operator=(const ScopedSpan&) = delete;
};
}  // namespace compilescope_detail
#define CS_SPAN(category, literal) \
    ::compilescope_detail::ScopedSpan CS_CONCAT(cs_span_, __LINE__)((category), CS_ACTIVE() ? CS_STR(literal) : 0)
#else
static inline void cs_scoped_span_end_(int* open) {
    if (*open) cs_span_end(CS_THREAD_TRACK);
}
/* `unused`: only the cleanup reads the variable, which clang's -Wunused-variable does not count. */
#define CS_SPAN(category, literal)                                                                    \
    __attribute__((cleanup(cs_scoped_span_end_), unused)) int CS_CONCAT(cs_span_, __LINE__) = CS_ACTIVE() \
        ? (cs_span_begin(CS_THREAD_TRACK, (category), CS_STR(literal)), 1)                           \
        : 0
#endif

#else /* recording compiled out */

#define CS_ACTIVE() 0
#define CS_STR(literal) 0u
#define CS_SPAN_BEGIN(category, literal) ((void)0)
#define CS_SPAN_END() ((void)0)
#define CS_STEP(step) ((void)0)
#define CS_COUNTER(scope, name, value) ((void)0)
#define CS_SPAN(category, literal) ((void)0)

#endif

#endif /* COMPILESCOPE_COMPILESCOPE_MACROS_H */
