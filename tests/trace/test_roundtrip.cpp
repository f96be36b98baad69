// Writes one row of every fact family through TraceWriter and reads every field back.
#include "core/trace/reader.h"
#include "core/trace/schema.h"
#include "core/trace/trace_error.h"
#include "core/trace/unsealed_policy.h"
#include "core/trace/writer.h"
#include "test_util.h"

#include <gtest/gtest.h>

#include <map>

using namespace cs::trace;

namespace {
using Rows = std::vector<std::vector<std::string>>;

Rows rows(const TraceReader& r, const std::string& table) {
    Rows out;
    r.query("SELECT * FROM " + table + " ORDER BY rowid", [&](const cs::trace::Row& st) {
        std::vector<std::string> row;
        for (int i = 0; i < st.columnCount(); ++i)
            row.push_back(st.isNull(i)
                              ? "NULL"
                              : st.text(i));
        out.push_back(row);
    });
    return out;
}

std::string s(std::int64_t v) { return std::to_string(v); }
}  // namespace

TEST(TraceRoundTrip, EveryFactFamilyEveryField) {
    cs::test::TempDir dir;
    auto path = dir.file("all.cstrace");
    std::map<std::string, StringId> ids;
    {
        TraceWriter w(path);
        auto I = [&](const std::string& t) { return ids[t] = w.intern(t); };
        auto sess = w.addSession({.pid = 4242, .ppid = 1, .parentSessionId = std::nullopt, .host = I("host-a"),
                                  .cmdline = I("python train.py"), .runtime = I("nitro"), .source = 0,
                                  .clock = I("CLOCK_MONOTONIC"), .startNs = 100, .endNs = std::nullopt,
                                  .exitStatus = std::nullopt});
        w.endSession(sess, 9000, 3);
        auto track = w.addTrack({.sessionId = sess, .kind = CS_TRACK_DEVICE, .tid = 7, .name = I("cuda:0"),
                                 .parentTrackId = std::nullopt});
        auto span = w.addSpan({.trackId = track, .startNs = 200, .durNs = 50, .category = CS_CAT_COMPILE,
                               .name = I("gradient"), .detail = I("train.jl:12")});
        auto span2 = w.addSpan({.trackId = track, .startNs = 300, .durNs = std::nullopt,
                                .category = CS_CAT_LAUNCH, .name = 0});
        w.addSpanArg(span, I("bytes"), std::int64_t{123});
        w.addSpanArg(span, I("ratio"), 0.5);
        w.addSpanArg(span, I("note"), std::string_view("hello"));
        w.addFlow({.fromSpanId = span, .toSpanId = span2, .name = I("causes")});
        w.addStep({.sessionId = sess, .trackId = track, .tsNs = 150, .step = 1, .epoch = 0, .label = I("train")});
        auto lookup = w.addCacheLookup({.sessionId = sess, .trackId = track, .tsNs = 210, .cache = I("program_cache"),
                                        .program = I("gradient"), .handle = I("nitro#1"), .verdict = CS_VERDICT_MISS,
                                        .compileNs = 496000, .fingerprint = I("fp:abc"), .step = 1});
        w.addKeyComponent({.lookupId = lookup, .ordinal = 2, .name = I("shape of arg 2"), .role = CS_ROLE_SHAPE,
                           .digest = I("d:128x64"), .value = I("128x64")});
        w.addCounter({.sessionId = sess, .tsNs = 220, .scope = I("program_cache"), .name = I("misses"), .value = 2});
        w.addMethod({.sessionId = sess, .tsNs = 230, .event = CS_METHOD_REDEFINE, .method = I("Model.helper"),
                     .signature = I("helper(x)"), .module = I("Model"), .file = I("model.jl"), .line = 12,
                     .world = 31000});
        w.addClosure({.lookupId = lookup, .method = ids["Model.helper"], .world = 30999});
        w.addInvalidationItem({.sessionId = sess, .list = CS_INVLIST_EDGES, .ordinal = 5,
                               .kind = CS_INVITEM_TAG, .text = I("\"verify_methods\"")});
        auto load = w.addModuleLoad({.sessionId = sess, .trackId = track, .startNs = 240, .durNs = 60,
                                     .name = I("warp.sim"), .hash = I("abc1234"), .device = I("cuda:0"),
                                     .blockDim = 256, .result = CS_MODULE_COMPILED, .compileNs = 40,
                                     .sourceBytes = 4096, .ltoArtifacts = 2, .origin = I("warp.log:3")});
        w.addModuleOption({.loadId = load, .key = I("fast_math"), .value = I("True")});
        w.addModuleKernel({.loadId = load, .kernel = I("integrate"), .digest = I("k:1"), .generic = I("float32")});
        auto prog = w.addCudaProgram({.sessionId = sess, .trackId = track, .api = CS_CUDA_NVJITLINK,
                                      .startNs = 250, .durNs = 70, .name = I("link.cubin"),
                                      .sourceDigest = I("sha:1"), .result = 0, .logBytes = 11,
                                      .outputBytes = 2048});
        w.addCudaProgramOption({.programId = prog, .ordinal = 0, .option = I("-arch=sm_90")});
        w.addCudaProgramInput({.programId = prog, .ordinal = 1, .kind = I("ltoir"), .name = I("a.ltoir"),
                               .bytes = 512});
        w.addCudaJit({.sessionId = sess, .startNs = 260, .durNs = 5, .entryType = CS_JIT_ENTRY_PTX_TO_CUBIN,
                      .operation = CS_JIT_OP_CACHE_STORE, .device = 0, .correlationId = 77,
                      .jitCorrelationId = 78, .cachePath = I("/tmp/cache"), .cacheBytes = 1 << 20});
        w.addCudaModule({.sessionId = sess, .tsNs = 270, .op = CS_CUDA_MODULE_UNLOAD, .moduleId = 9,
                         .cubinBytes = 3000, .digest = I("cubin:9")});
        w.addKernelLaunch({.sessionId = sess, .trackId = track, .startNs = 280, .durNs = 3, .name = I("k"),
                           .gridX = 1, .gridY = 2, .gridZ = 3, .blockX = 4, .blockY = 5, .blockZ = 6,
                           .sharedBytes = 48, .stream = 13, .correlationId = 99});
        auto ph = w.addPhaseTiming({.sessionId = sess, .tool = CS_PHASE_TOOL_NVCC, .input = I("k.cu"),
                                    .phase = I("cicc"), .arch = I("compute_90"), .startNs = std::nullopt,
                                    .durNs = 225400000, .parentId = std::nullopt});
        w.addPhaseTiming({.sessionId = sess, .tool = CS_PHASE_TOOL_CLANG, .input = 0, .phase = I("Frontend"),
                          .arch = 0, .startNs = 5, .durNs = 6, .parentId = ph});
        w.addStat(sess, "malformed_record", "warp-log", 2, "line 3: bad");
        w.addStat(sess, "malformed_record", "warp-log", 1, "line 9: later");
        w.addStat(std::nullopt, "dropped_events", "collector", 5);
        w.setMeta("source_host", "ci-7");
        w.finalize();
    }
    auto r = TraceReader::open(path);
    auto sid = [&](const std::string& t) { return s(ids.at(t)); };
    EXPECT_EQ(r->meta("source_host"), "ci-7");
    EXPECT_EQ(r->meta("format_version"), "2");
    EXPECT_EQ(r->str(ids["cuda:0"]), "cuda:0");

    EXPECT_EQ(rows(*r, "sessions"),
              (Rows{{"1", "4242", "1", "NULL", sid("host-a"), sid("python train.py"), sid("nitro"), "NULL",
                     sid("CLOCK_MONOTONIC"), "100", "9000", "3"}}));
    EXPECT_EQ(rows(*r, "tracks"), (Rows{{"1", "1", "1", "7", sid("cuda:0"), "NULL"}}));
    EXPECT_EQ(rows(*r, "spans"), (Rows{{"1", "1", "200", "50", "1", sid("gradient"), sid("train.jl:12")},
                                       {"2", "1", "300", "NULL", "4", "NULL", "NULL"}}));
    EXPECT_EQ(rows(*r, "span_args"),
              (Rows{{"1", sid("bytes"), "123"}, {"1", sid("ratio"), "0.5"}, {"1", sid("note"), "hello"}}));
    EXPECT_EQ(rows(*r, "flows"), (Rows{{"1", "1", "2", sid("causes")}}));
    EXPECT_EQ(rows(*r, "steps"), (Rows{{"1", "1", "1", "150", "1", "0", sid("train")}}));
    EXPECT_EQ(rows(*r, "cache_lookups"),
              (Rows{{"1", "1", "1", "210", sid("program_cache"), sid("gradient"), sid("nitro#1"), "2", "496000",
                     sid("fp:abc"), "1"}}));
    EXPECT_EQ(rows(*r, "key_components"), (Rows{{"1", "2", sid("shape of arg 2"), "3", sid("d:128x64"), sid("128x64")}}));
    EXPECT_EQ(rows(*r, "counters"), (Rows{{"1", "1", "220", sid("program_cache"), sid("misses"), "2"}}));
    EXPECT_EQ(rows(*r, "methods"), (Rows{{"1", "1", "230", "1", sid("Model.helper"), sid("helper(x)"), sid("Model"),
                                          sid("model.jl"), "12", "31000"}}));
    EXPECT_EQ(rows(*r, "closures"), (Rows{{"1", sid("Model.helper"), "30999"}}));
    EXPECT_EQ(rows(*r, "invalidation_items"), (Rows{{"1", "1", "1", "5", "3", sid("\"verify_methods\"")}}));
    EXPECT_EQ(rows(*r, "module_loads"),
              (Rows{{"1", "1", "1", "240", "60", sid("warp.sim"), sid("abc1234"), sid("cuda:0"), "256", "1", "40",
                     "4096", "2", sid("warp.log:3")}}));
    EXPECT_EQ(rows(*r, "module_options"), (Rows{{"1", sid("fast_math"), sid("True")}}));
    EXPECT_EQ(rows(*r, "module_kernels"), (Rows{{"1", sid("integrate"), sid("k:1"), sid("float32")}}));
    EXPECT_EQ(rows(*r, "cuda_programs"), (Rows{{"1", "1", "1", "1", "250", "70", sid("link.cubin"), sid("sha:1"), "0",
                                                "11", "2048"}}));
    EXPECT_EQ(rows(*r, "cuda_program_options"), (Rows{{"1", "0", sid("-arch=sm_90")}}));
    EXPECT_EQ(rows(*r, "cuda_program_inputs"), (Rows{{"1", "1", sid("ltoir"), sid("a.ltoir"), "512"}}));
    EXPECT_EQ(rows(*r, "cuda_jit"), (Rows{{"1", "1", "260", "5", "1", "2", "0", "77", "78", sid("/tmp/cache"),
                                           "1048576"}}));
    EXPECT_EQ(rows(*r, "cuda_modules"), (Rows{{"1", "1", "270", "1", "9", "3000", sid("cubin:9")}}));
    EXPECT_EQ(rows(*r, "kernel_launches"), (Rows{{"1", "1", "1", "280", "3", sid("k"), "1", "2", "3", "4", "5", "6",
                                                  "48", "13", "99"}}));
    EXPECT_EQ(rows(*r, "phase_timings"),
              (Rows{{"1", "1", "1", sid("k.cu"), sid("cicc"), sid("compute_90"), "NULL", "225400000", "NULL"},
                    {"2", "1", "3", "NULL", sid("Frontend"), "NULL", "5", "6", "1"}}));
    // Stats with the same key add up and keep the first example.
    EXPECT_EQ(rows(*r, "stats"), (Rows{{"1", "1", "malformed_record", "warp-log", "3", "line 3: bad"},
                                       {"2", "NULL", "dropped_events", "collector", "5", "NULL"}}));
    EXPECT_EQ(r->integrityCheck(), "ok");
}

TEST(TraceRoundTrip, EveryTableIsCoveredAbove) {
    // Guards the test above: a new table must be added to it.
    EXPECT_EQ(schemaTables().size(), 26u);
}

TEST(TraceRoundTrip, EnumsTableNamesEveryCode) {
    cs::test::TempDir dir;
    auto path = dir.file("e.cstrace");
    TraceWriter(path).finalize();
    auto r = TraceReader::open(path);
    std::string name;
    r->query("SELECT name FROM enums WHERE type='category' AND value=1",
             [&](const cs::trace::Row& st) { name = st.text(0); });
    EXPECT_EQ(name, "compile");
    EXPECT_EQ(r->rowCount("enums"), static_cast<std::int64_t>(enumRows().size()));
}

TEST(TraceRoundTrip, InternReturnsSameIdAndKeepsBytes) {
    cs::test::TempDir dir;
    auto path = dir.file("s.cstrace");
    std::string weird = std::string("a\0b", 3) + "\xe2\x8b\xae </script>";
    StringId a, b, c;
    {
        TraceWriter w(path);
        a = w.intern("x");
        b = w.intern("x");
        c = w.intern(weird);
        w.finalize();
    }
    EXPECT_EQ(a, b);
    EXPECT_NE(a, c);
    auto r = TraceReader::open(path);
    EXPECT_EQ(r->str(c), weird);
    EXPECT_EQ(r->str(0), "");
}

TEST(TraceRoundTrip, RefusesToOverwriteUnlessAsked) {
    cs::test::TempDir dir;
    auto path = dir.file("o.cstrace");
    TraceWriter(path).finalize();
    try {
        TraceWriter again(path);
        FAIL() << "expected a refusal";
    } catch (const TraceError& e) {
        EXPECT_EQ(e.kind(), TraceErrorKind::Write);
        EXPECT_NE(std::string(e.what()).find("already exists"), std::string::npos);
    }
    TraceWriter(path, {.overwrite = true}).finalize();
}

TEST(TraceRoundTrip, UnwritableDirectoryIsAClearError) {
    try {
        TraceWriter w("/proc/no-such-dir/x.cstrace");
        FAIL() << "expected an error";
    } catch (const TraceError& e) {
        EXPECT_EQ(e.kind(), TraceErrorKind::Write);
        EXPECT_NE(std::string(e.what()).find("/proc/no-such-dir/x.cstrace"), std::string::npos);
    }
}

TEST(TraceRoundTrip, CommittedRowsSurviveWithoutFinalize) {
    cs::test::TempDir dir;
    auto path = dir.file("c.cstrace");
    {
        TraceWriter w(path);
        auto sess = w.addSession({.startNs = 1});
        w.addStep({.sessionId = sess, .tsNs = 5, .step = 1});
        w.commit();
        // Destroyed without finalize(): as if the recorder stopped between commits.
    }
    // Unsealed and no longer recorded: refused unless trusted (issue 40), then every committed row reads.
    EXPECT_THROW(TraceReader::open(path), TraceError);
    cs::trace::TrustUnsealedScope trust;
    auto r = TraceReader::open(path);
    EXPECT_EQ(r->rowCount("steps"), 1);
    EXPECT_EQ(r->integrityCheck(), "ok");
}
