// TORCH_TRACE (PyTorch structured trace) import from tlparse's own test inputs (tests/data/torch/
// README.md): compiles with ids, stacks, metrics and phases; FX graph cache lookups with their
// per-component key hashes; AOT autograd bypasses; payload hash mismatches and a log cut mid-compile
// counted, never fatal; and `explain` naming the one component that moved between two misses of one
// key family, and relating a hit to the miss whose key it has.
#include "imported_trace.h"

using cs::test::process::runCli;
using Imported = cs::test::ImportedTrace;

namespace {
std::unique_ptr<Imported> importData(const std::string& name) {
    return cs::test::importPath(cs::test::sourceDir() + "/tests/data/torch/" + name, "torch-trace");
}

std::int64_t count(const Imported& im, const std::string& sql) { return im.count(sql); }

// Value of span arg `key` of the compile span with compile_id `id` (the n-th such span, 0-based).
std::string compileArg(const Imported& im, const std::string& id, const std::string& key, int nth = 0) {
    return im.text(
        "SELECT a.value FROM span_args a JOIN strings k ON k.id=a.key_sid WHERE k.str='" + key +
                      "' AND a.span_id=(SELECT s.id FROM spans s JOIN span_args c ON c.span_id=s.id JOIN strings ck ON "
                      "ck.id=c.key_sid WHERE s.category=1 AND ck.str='compile_id' AND c.value='" + id +
                      "' ORDER BY s.id LIMIT 1 OFFSET " + std::to_string(nth) + ")");
}

const char* kCompiles = "SELECT count(*) FROM spans WHERE category=1";
const char* kPhases = "SELECT count(*) FROM spans WHERE category=11";
std::string statCount(const std::string& name) {
    return "SELECT coalesce(sum(count),0) FROM stats WHERE name='" + name + "'";
}
}  // namespace

// tlparse tests/inputs/cache_hit_miss.log (records of the kinds we read, copied whole): six compiles
// of two frames; frame 1 looks up the FX graph cache three times: miss, hit with the same key, miss
// with a new key; the AOT autograd cache is bypassed each time.
TEST(TorchTraceImport, CacheHitMissLookupsAndComponents) {
    auto im = importData("cache_hit_miss_excerpt.log");
    EXPECT_EQ(count(*im, kCompiles), 6);
    EXPECT_EQ(count(*im, "SELECT count(*) FROM cache_lookups"), 3);
    EXPECT_EQ(count(*im, "SELECT count(*) FROM cache_lookups WHERE verdict=2"), 2);
    EXPECT_EQ(count(*im, "SELECT count(*) FROM cache_lookups WHERE verdict=1"), 1);
    EXPECT_EQ(im->text("SELECT group_concat(s.str) FROM (SELECT DISTINCT program_sid FROM cache_lookups) l "
                                 "JOIN strings s ON s.id=l.program_sid"),
              "frame 1");
    EXPECT_EQ(im->text("SELECT group_concat(s.str) FROM (SELECT DISTINCT handle_sid FROM cache_lookups) l "
                                 "JOIN strings s ON s.id=l.handle_sid"),
              "1/0");
    // 292 "[hash] name: value" components per lookup, named and hashed as printed.
    EXPECT_EQ(count(*im, "SELECT count(*) FROM key_components"), 3 * 292);
    EXPECT_EQ(im->text("SELECT d.str FROM key_components k JOIN strings n ON n.id=k.name_sid JOIN strings d ON "
                                 "d.id=k.digest_sid WHERE k.lookup_id=1 AND n.str='example_inputs[0]'"),
              "avf2u3luxvyabchjhbddapcjn5gev47wfdtkrprayuhv6lf2z6u");
    EXPECT_EQ(count(*im, "SELECT count(*) FROM key_components k JOIN strings n ON n.id=k.name_sid WHERE k.lookup_id=1 AND "
                         "n.str='gm' AND k.role=1"),
              1);
    // The miss's time_taken_ns is its compile time.
    EXPECT_EQ(count(*im, "SELECT compile_ns FROM cache_lookups WHERE id=1"), 4009141776);
    // Three AOT autograd bypasses, each with the reason PyTorch logged.
    EXPECT_EQ(count(*im, "SELECT count(*) FROM spans s JOIN strings n ON n.id=s.name_sid WHERE n.str='aot autograd cache bypass'"), 3);
    EXPECT_EQ(count(*im, statCount("payload_hash_mismatch")), 0);
    EXPECT_EQ(count(*im, statCount("malformed_record")), 0);
    EXPECT_EQ(im->text("SELECT group_concat(DISTINCT c.str) FROM cache_lookups l JOIN strings c ON c.id=l.cache_sid"),
              "fx graph cache (persistent)");
    // Compile metrics and the interned stack.
    EXPECT_EQ(compileArg(*im, "1/0", "co_name"), "fn");
    EXPECT_EQ(compileArg(*im, "1/0", "co_name", 2), "fn2");
    EXPECT_EQ(compileArg(*im, "0/0", "guard_count"), "58");
    EXPECT_EQ(compileArg(*im, "1/0", "graph_op_count"), "2");
    EXPECT_EQ(compileArg(*im, "1/0", "status"), "ok");
    auto stack = compileArg(*im, "1/0", "stack");
    EXPECT_EQ(stack.rfind("/data/users/xmfan/a/pytorch/test/inductor/test_codecache.py:", 0), 0u) << stack;

    auto findings = runCli({"findings", im->trace});
    EXPECT_NE(findings.out.find("aot autograd cache bypassed 3 time(s): Unsupported call_function target flex_attention. Function module: torch.ops.higher_order, Function name: flex_attention\n"),
              std::string::npos)
        << findings.out;
}

// DESIGN 4 miss attribution on PyTorch's own cache key: the second miss of frame 1 differs from the
// first in exactly one component, the graph module; the hit has the first miss's key.
TEST(TorchTraceImport, ExplainNamesTheOneComponentThatMovedAndRelatesTheHit) {
    auto im = importData("cache_hit_miss_excerpt.log");
    auto r = runCli({"explain", im->trace});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("lookups 3, misses 2, hits 1"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("key moved: gm: <lambda>(... [v4wl2w2eaw] -> <lambda>(... [osxu7jvxrx] (vs lookup #1)"),
              std::string::npos)
        << r.out;
    EXPECT_EQ(r.out.find("example_inputs"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("1 hit(s) with the key of miss lookup #1 (frame 1), first lookup #2"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("disagreement"), std::string::npos) << r.out;
}

// tlparse tests/inputs/multi_rank_logs/dedicated_log_torch_trace_rank_1.log, compiles 0/9 and 0/10 of a
// frame recompiled for each new square input: 0/9 hits both on-disk caches (entries an earlier run
// wrote), 0/10 misses both, and the one component that moved is the input's shape.
TEST(TorchTraceImport, PersistentCacheHitsThenMissesOnANewShape) {
    auto im = importData("multi_rank_rank1_compiles_9_10.log");
    EXPECT_EQ(count(*im, kCompiles), 2);
    EXPECT_EQ(im->text("SELECT group_concat(c.str || ':' || l.verdict, ',') FROM (SELECT * FROM cache_lookups ORDER BY ts_ns, id) l "
                       "JOIN strings c ON c.id=l.cache_sid"),
              "fx graph cache (persistent):1,aot autograd cache (persistent):1,fx graph cache (persistent):2,"
              "aot autograd cache (persistent):2");
    auto check = runCli({"check", im->trace});
    EXPECT_NE(check.out.find("replay: lookups 4, misses 2, hits 2, entries 4 (2 loaded from a persistent cache)"),
              std::string::npos)
        << check.out;
    auto explain = runCli({"explain", im->trace});
    EXPECT_NE(explain.out.find("miss lookup #3  frame 0  handle 0/10  compile 1.52 s\n    key moved: example_inputs[0]: "
                           "float32[11, 11] stride (11, 1) [rebcmuvf64] -> float32[12, 12] stride (12, 1) [c3caxoe3qj] "
                           "(vs lookup #1)"),
              std::string::npos)
        << explain.out;
    EXPECT_EQ(explain.out.find("disagreement"), std::string::npos) << explain.out;
}

// tlparse tests/inputs/comp_failure.log: one compile that fails in the backend, with its phases.
TEST(TorchTraceImport, FailedCompileWithPhases) {
    auto im = importData("comp_failure.log");
    EXPECT_EQ(count(*im, kCompiles), 1);
    EXPECT_EQ(compileArg(*im, "0/0", "status"), "failed");
    EXPECT_EQ(compileArg(*im, "0/0", "fail_type"), "BackendCompilerFailed");
    EXPECT_EQ(compileArg(*im, "0/0", "fail_reason"), "backend='broken_backend' raised:\nRuntimeError: broken backend");
    EXPECT_EQ(compileArg(*im, "0/0", "co_name"), "fn");
    EXPECT_EQ(count(*im, kPhases), 3);
    EXPECT_EQ(count(*im, statCount("payload_hash_mismatch")), 0);
}

// tlparse tests/inputs/simple_corrupted_json.log, its first 200 lines: the second record's payload lost
// a line (its MD5 no longer matches), and the cut falls inside compile 0/0.
TEST(TorchTraceImport, HashMismatchCountedAndCutCompileIncomplete) {
    auto im = importData("simple_corrupted_json_head200.log");
    EXPECT_EQ(count(*im, statCount("payload_hash_mismatch")), 1);
    EXPECT_NE(im->text("SELECT detail FROM stats WHERE name='payload_hash_mismatch'")
                  .find("line 13: has_payload 6762d47fdbf80071626529f25dc69013, payload md5 518bab1d9223ed1416e1300f821e4bc9"),
              std::string::npos);
    EXPECT_EQ(count(*im, kCompiles), 1);
    EXPECT_EQ(compileArg(*im, "0/0", "status"), "incomplete");
    // One clock from the first record (15:18:15.925) to the last (15:18:21.086); the cut compile
    // counts up to the last record.
    EXPECT_EQ(count(*im, "SELECT end_ns - start_ns FROM sessions"), 5161000000);
    EXPECT_EQ(count(*im, "SELECT start_ns + dur_ns FROM spans WHERE category=1"), 5161000000);
    EXPECT_EQ(count(*im, "SELECT min(start_ns) >= 0 FROM spans"), 1);
    auto findings = runCli({"findings", im->trace});
    // Named by the innermost frame of its dynamo_start stack: no compilation_metrics named it.
    EXPECT_NE(findings.out.find("compile 0/0 of forward did not finish in the log"), std::string::npos) << findings.out;
    EXPECT_EQ(findings.out.find("failed"), std::string::npos) << findings.out;
}

// A payload line before any record, and an envelope that is not JSON (its own payload lines are part
// of that one malformed record): counted, never fatal; the records between them are read as before.
TEST(TorchTraceImport, MalformedEnvelopesAreCounted) {
    cs::test::TempDir dir;
    auto in = dir.file("bad.log");
    const std::string good = cs::test::readFile(cs::test::sourceDir() + "/tests/data/torch/comp_failure.log");
    cs::test::writeFile(in, "\t{\"orphan\": 1}\n" + good +
                                "\nV1206 15:20:14.100000 1543231 torch/_dynamo/utils.py:1288] {\"chromium_event\": {}, \"frame_id\n"
                                "\t{\"name\": \"dynamo\",\n\t\"ph\": \"B\"}\n");
    auto im = cs::test::importPath(in, "torch-trace");
    EXPECT_EQ(count(*im, statCount("malformed_record")), 2);
    EXPECT_EQ(count(*im, statCount("payload_hash_mismatch")), 0);
    EXPECT_EQ(count(*im, kCompiles), 1);
    EXPECT_EQ(count(*im, kPhases), 3);
}
