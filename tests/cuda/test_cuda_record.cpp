// End to end: `compilescope record --cuda` around a real CUDA host program (nvrtc_demo) that compiles
// four NVRTC programs (different options, one identical program twice) and links two PTX inputs with
// nvJitLink, all on the CPU. The trace must hold each program, its options in order, positive
// durations, the sizes the program itself saw, and the link's inputs; the program's own output must
// be the same as without recording (the interposer never changes a call).
#include "core/engine/analysis/trace_analysis.h"
#include "core/trace/reader.h"
#include "test_util.h"
#include "trace_query.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <set>
#include <sstream>

using cs::test::scalar;
using cs::test::text;

namespace {
struct DemoLine {
    std::string name;
    int result = -1;
    long long bytes = 0;
    std::vector<std::string> options;
};

// "compile NAME RESULT BYTES OPTS..." lines of nvrtc_demo's output.
std::vector<DemoLine> compileLines(const std::string& out) {
    std::vector<DemoLine> lines;
    std::istringstream in(out);
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream f(line);
        std::string word;
        f >> word;
        if (word != "compile") continue;
        DemoLine d;
        f >> d.name >> d.result >> d.bytes;
        for (std::string o; f >> o;) d.options.push_back(o);
        lines.push_back(d);
    }
    return lines;
}

int run(const std::string& cmd) { return std::system(cmd.c_str()); }

std::string cliBinary() { return std::string(COMPILESCOPE_BINARY_DIR) + "/app/compilescope"; }

// An LD_PRELOADed library loads before the sanitizer runtime, which then refuses to start
// ("ASan runtime does not come first"): injected code is tested outside sanitizer builds (docs/practices.md 12).
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kSanitizerBuild = true;
#else
constexpr bool kSanitizerBuild = false;
#endif
}  // namespace

TEST(CudaRecord, NvrtcAndNvJitLinkUnderRecordCuda) {
#ifndef COMPILESCOPE_NVRTC_DEMO
    GTEST_SKIP() << "NVRTC / nvJitLink not found at configure time; the interposer end-to-end test is skipped";
#else
    if (kSanitizerBuild) GTEST_SKIP() << "sanitizer build: the LD_PRELOAD interposer is tested in the dev build";
    cs::test::TempDir dir;
    const std::string cli = std::string(COMPILESCOPE_BINARY_DIR) + "/app/compilescope";
    const std::string demo = COMPILESCOPE_NVRTC_DEMO;
    ASSERT_EQ(run(demo + " > " + dir.file("plain.out") + " 2>&1"), 0) << cs::test::readFile(dir.file("plain.out"));
    const auto trace = dir.file("cuda.cstrace");
    int rc = run(cli + " record --cuda -o " + trace + " -- " + demo + " > " + dir.file("rec.out") + " 2> " +
                 dir.file("rec.err"));
    auto err = cs::test::readFile(dir.file("rec.err"));
    ASSERT_EQ(rc, 0) << err;
    auto out = cs::test::readFile(dir.file("rec.out"));
    EXPECT_EQ(out, cs::test::readFile(dir.file("plain.out"))) << "recording changed what the program saw";
    // The demo never initialises CUDA on a device, so CUPTI cannot have shaken hands: the launcher says so.
    EXPECT_NE(err.find("no CUPTI handshake arrived"), std::string::npos) << err;

    auto r = cs::trace::TraceReader::open(trace);
    auto expected = compileLines(out);
    ASSERT_EQ(expected.size(), 4u) << out;
    ASSERT_EQ(scalar(*r, "SELECT count(*) FROM cuda_programs WHERE api=0"), 4);
    ASSERT_EQ(scalar(*r, "SELECT count(*) FROM cuda_programs WHERE api=1"), 1);
    EXPECT_EQ(text(*r, "SELECT s.str FROM sessions x JOIN strings s ON s.id=x.runtime_sid"), "cuda");

    // Programs in the order they ran: name, result, output size, options in order, positive duration.
    std::vector<std::int64_t> ids;
    r->query("SELECT id FROM cuda_programs WHERE api=0 ORDER BY start_ns", [&](const cs::trace::Row& st) {
        ids.push_back(st.integer(0));
    });
    std::vector<std::string> digests;
    for (size_t i = 0; i < ids.size(); ++i) {
        auto id = std::to_string(ids[i]);
        const DemoLine& e = expected[i];
        SCOPED_TRACE("program " + e.name);
        EXPECT_EQ(text(*r, "SELECT s.str FROM cuda_programs p JOIN strings s ON s.id=p.name_sid WHERE p.id=" + id), e.name);
        EXPECT_EQ(scalar(*r, "SELECT result FROM cuda_programs WHERE id=" + id), e.result);
        EXPECT_EQ(scalar(*r, "SELECT output_bytes FROM cuda_programs WHERE id=" + id), e.bytes);
        EXPECT_GT(scalar(*r, "SELECT dur_ns FROM cuda_programs WHERE id=" + id), 0);
        EXPECT_GT(scalar(*r, "SELECT log_bytes FROM cuda_programs WHERE id=" + id), 0);
        std::vector<std::string> options;
        r->query("SELECT s.str FROM cuda_program_options o JOIN strings s ON s.id=o.option_sid WHERE o.program_id=" + id +
                     " ORDER BY o.ordinal",
                 [&](const cs::trace::Row& st) { options.emplace_back(st.text(0)); });
        EXPECT_EQ(options, e.options);
        digests.push_back(text(*r, "SELECT s.str FROM cuda_programs p JOIN strings s ON s.id=p.source_digest_sid WHERE "
                                   "p.id=" + id));
    }
    // The identical program compiled twice has one digest; scale.cu and scale_dbg.cu share the source
    // (only options differ); saxpy and scale differ.
    ASSERT_EQ(digests.size(), 4u);
    EXPECT_EQ(digests[0].size(), 16u);
    EXPECT_EQ(digests[0], digests[1]);
    EXPECT_EQ(digests[2], digests[3]);
    EXPECT_NE(digests[0], digests[2]);

    // The link: its option, two PTX inputs with the sizes the program compiled, the linked cubin size.
    auto link = std::to_string(scalar(*r, "SELECT id FROM cuda_programs WHERE api=1"));
    EXPECT_GT(scalar(*r, "SELECT dur_ns FROM cuda_programs WHERE id=" + link), 0);
    EXPECT_EQ(scalar(*r, "SELECT result FROM cuda_programs WHERE id=" + link), 0);
    EXPECT_EQ(text(*r, "SELECT s.str FROM cuda_program_options o JOIN strings s ON s.id=o.option_sid WHERE program_id=" + link),
              "-arch=sm_90");
    EXPECT_EQ(scalar(*r, "SELECT count(*) FROM cuda_program_inputs i JOIN strings k ON k.id=i.kind_sid WHERE k.str='ptx' "
                         "AND program_id=" + link),
              2);
    EXPECT_EQ(scalar(*r, "SELECT bytes FROM cuda_program_inputs i JOIN strings n ON n.id=i.name_sid WHERE "
                         "n.str='scale.ptx' AND program_id=" + link),
              expected[2].bytes);
    auto linkLine = out.substr(out.find("link "));
    EXPECT_EQ(std::to_string(scalar(*r, "SELECT output_bytes FROM cuda_programs WHERE id=" + link)),
              linkLine.substr(linkLine.rfind(' ') + 1, linkLine.find('\n') - linkLine.rfind(' ') - 1));
    // The link starts after the compiles that fed it ended.
    EXPECT_GT(scalar(*r, "SELECT start_ns FROM cuda_programs WHERE id=" + link),
              scalar(*r, "SELECT max(start_ns + dur_ns) FROM cuda_programs WHERE api=0"));
#endif
}

// Program identity on real NVRTC compiles (docs/cuda.md): 20 identical programs are one
// repeated-compile finding with the cost of the 19 after the first; scale.cu built twice with
// different options is not a repeat; a date in the options changes the identity from run to run and
// is named as what defeats caching.
TEST(CudaRecord, ProgramIdentityFindingsOnRealNvrtc) {
#ifndef COMPILESCOPE_NVRTC_DEMO
    GTEST_SKIP() << "NVRTC not found at configure time";
#else
    if (kSanitizerBuild) GTEST_SKIP() << "sanitizer build: the LD_PRELOAD interposer is tested in the dev build";
    const std::string cli = cliBinary();
    cs::test::TempDir dir;
    auto recordRun = [&](const std::string& trace, const std::string& stamp) {
        return run(cli + " record --cuda -o " + dir.file(trace) + " -- " + COMPILESCOPE_NVRTC_DEMO + " --identity " +
                   stamp + " > " + dir.file(trace + ".out") + " 2>&1");
    };
    ASSERT_EQ(recordRun("monday.cstrace", "2026-11-30T09:00:00"), 0) << cs::test::readFile(dir.file("monday.cstrace.out"));
    ASSERT_EQ(recordRun("tuesday.cstrace", "2026-12-01T09:00:00"), 0) << cs::test::readFile(dir.file("tuesday.cstrace.out"));

    auto reader = cs::trace::TraceReader::open(dir.file("monday.cstrace"));
    ASSERT_EQ(scalar(*reader, "SELECT count(*) FROM cuda_programs"), 23);
    // The interposer wrote the compiler's version, part of the identity.
    EXPECT_GE(scalar(*reader, "SELECT c.value FROM counters c JOIN strings s ON s.id=c.scope_sid JOIN strings n ON "
                              "n.id=c.name_sid WHERE s.str='nvrtc' AND n.str='version'"),
              12000);
    auto a = cs::engine::analyseTrace(*reader);
    ASSERT_TRUE(a->cudaPrograms);
    std::vector<const cs::engine::Finding*> repeated, defeats;
    for (const auto& f : a->findings) {
        if (f.kind == "cuda.repeated_compile") repeated.push_back(&f);
        if (f.kind == "cuda.options_defeat_caching") defeats.push_back(&f);
    }
    ASSERT_EQ(repeated.size(), 1u) << "scale.cu's two option sets must not be a repeat";
    EXPECT_NE(repeated[0]->title.find("saxpy.cu compiled 20 times"), std::string::npos) << repeated[0]->title;
    EXPECT_EQ(repeated[0]->evidence.size(), 20u);
    // Cost: the 19 compiles after the first, as the trace timed them.
    const std::string saxpy = "SELECT dur_ns FROM cuda_programs p JOIN strings n ON n.id=p.name_sid WHERE n.str='saxpy.cu' ";
    std::int64_t all = scalar(*reader, "SELECT sum(dur_ns) FROM (" + saxpy + ")");
    std::int64_t first = scalar(*reader, saxpy + "ORDER BY start_ns LIMIT 1");
    ASSERT_TRUE(repeated[0]->costNs.has_value());
    EXPECT_EQ(*repeated[0]->costNs, all - first);
    EXPECT_GT(*repeated[0]->costNs, 0);
    EXPECT_NE(repeated[0]->fix.find("cache"), std::string::npos);

    ASSERT_EQ(defeats.size(), 1u);
    EXPECT_NE(defeats[0]->title.find("stamp.cu"), std::string::npos) << defeats[0]->title;
    EXPECT_NE(defeats[0]->mechanism.find("-DBUILD_STAMP=\"2026-11-30T09:00:00\""), std::string::npos)
        << defeats[0]->mechanism;
    EXPECT_NE(defeats[0]->title.find("a date"), std::string::npos) << defeats[0]->title;

    // scale.cu: one source digest, two identities (the options differ).
    std::set<std::string> scaleDigests, scaleIdentities;
    for (const auto& p : a->cudaPrograms->programs)
        if (p.name == "scale.cu") scaleDigests.insert(p.sourceDigest), scaleIdentities.insert(p.identity);
    EXPECT_EQ(scaleDigests.size(), 1u);
    EXPECT_EQ(scaleIdentities.size(), 2u);

    // The next day's run: saxpy keeps its identity, stamp.cu gets a new one from the date alone.
    auto b = cs::engine::analyseTraceFile(dir.file("tuesday.cstrace"));
    ASSERT_TRUE(b->cudaPrograms);
    auto identityOf = [](const cs::engine::TraceAnalysis& t, const std::string& name) {
        for (const auto& p : t.cudaPrograms->programs)
            if (p.name == name) return p.identity;
        return std::string();
    };
    EXPECT_EQ(identityOf(*a, "saxpy.cu"), identityOf(*b, "saxpy.cu"));
    EXPECT_NE(identityOf(*a, "stamp.cu"), identityOf(*b, "stamp.cu"));
    EXPECT_EQ(identityOf(*a, "stamp.cu").size(), 16u);

    // Both runs in one trace: saxpy.cu and scale.cu's two builds, each compiled with one identity in
    // both runs, were never kept between them; stamp.cu's identity differs between runs, so it is
    // no repeat of itself.
    const auto merged = dir.file("week.cstrace");
    ASSERT_EQ(run(cli + " import " + dir.file("monday.cstrace") + " " + dir.file("tuesday.cstrace") + " -o " + merged +
                  " > " + dir.file("merge.out") + " 2>&1"),
              0)
        << cs::test::readFile(dir.file("merge.out"));
    auto week = cs::engine::analyseTraceFile(merged);
    std::multiset<std::string> everyRun;
    auto weekReader = cs::trace::TraceReader::open(merged);
    // The later run's first saxpy.cu compile; its other 19 are that run's repeated-compile cost.
    const std::int64_t secondRunFirst = scalar(
        *weekReader, "SELECT dur_ns FROM cuda_programs p JOIN strings n ON n.id=p.name_sid WHERE n.str='saxpy.cu' AND "
                     "p.session_id=(SELECT max(session_id) FROM cuda_programs) ORDER BY start_ns LIMIT 1");
    for (const auto& f : week->findings) {
        if (f.kind != "cuda.recompiled_every_run") continue;
        everyRun.insert(f.title);
        EXPECT_GT(f.costNs.value_or(0), 0) << f.title;
        if (f.title.find("saxpy.cu") != std::string::npos) {
            EXPECT_EQ(f.costNs, secondRunFirst);
        }
    }
    EXPECT_EQ(everyRun, (std::multiset<std::string>{"NVRTC program saxpy.cu compiled in 2 runs with one identity",
                                                    "NVRTC program scale.cu compiled in 2 runs with one identity",
                                                    "NVRTC program scale.cu compiled in 2 runs with one identity"}));

    // Every view lists them: the CLI's findings command prints the same kinds.
    ASSERT_EQ(run(cli + " findings " + dir.file("monday.cstrace") + " > " + dir.file("findings.out") + " 2>&1"), 0);
    auto printed = cs::test::readFile(dir.file("findings.out"));
    EXPECT_NE(printed.find("cuda.repeated_compile: NVRTC program saxpy.cu compiled 20 times"), std::string::npos) << printed;
    EXPECT_NE(printed.find("cuda.options_defeat_caching"), std::string::npos) << printed;
#endif
}

TEST(CudaRecord, WithoutCudaFlagNothingIsInjected) {
#ifndef COMPILESCOPE_NVRTC_DEMO
    GTEST_SKIP() << "NVRTC / nvJitLink not found at configure time";
#else
    if (kSanitizerBuild) GTEST_SKIP() << "sanitizer build: recording a job is tested in the dev build";
    cs::test::TempDir dir;
    const std::string cli = std::string(COMPILESCOPE_BINARY_DIR) + "/app/compilescope";
    const auto trace = dir.file("plain.cstrace");
    ASSERT_EQ(run(cli + " record -o " + trace + " -- " + COMPILESCOPE_NVRTC_DEMO + " > /dev/null 2> " + dir.file("err")), 0);
    auto r = cs::trace::TraceReader::open(trace);
    EXPECT_EQ(r->rowCount("cuda_programs"), 0);
    EXPECT_EQ(cs::test::readFile(dir.file("err")).find("CUPTI"), std::string::npos);
#endif
}
