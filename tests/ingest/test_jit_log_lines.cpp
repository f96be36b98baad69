// The grammars under the PyTorch / JAX importers, line by line: log prefixes (glog, elided, launcher
// tags, Python logging), compile ids, guard-failure texts, the 2023 tuple form, JAX cache lines, and
// the MD5 that checks TORCH_TRACE payloads. Lines are the public samples of tests/data/*/README.md
// unless a test says otherwise.
#include "core/formats/jax_log_lines.h"
#include "core/formats/log_prefix.h"
#include "core/formats/torch_recompile_lines.h"
#include "core/util/md5.h"

#include <compilescope/trace_constants.h>

#include <gtest/gtest.h>

using namespace cs::ingest;

TEST(Md5, Rfc1321TestSuite) {
    EXPECT_EQ(cs::util::md5Hex(""), "d41d8cd98f00b204e9800998ecf8427e");
    EXPECT_EQ(cs::util::md5Hex("abc"), "900150983cd24fb0d6963f7d28e17f72");
    EXPECT_EQ(cs::util::md5Hex("message digest"), "f96b697d7cb7938d525a2f31aaf161d0");
    EXPECT_EQ(cs::util::md5Hex("12345678901234567890123456789012345678901234567890123456789012345678901234567890"),
              "57edf4a22be3c955ac49da2e2107b67a");
    cs::util::Md5 parts;  // fed in pieces across the 64-byte block boundary
    parts.update("1234567890123456789012345678901234567890");
    parts.update("1234567890123456789012345678901234567890");
    EXPECT_EQ(parts.hexDigest(), "57edf4a22be3c955ac49da2e2107b67a");
}

TEST(LogPrefix, GlogWithCompileIdAndWindowsPath) {
    auto p = splitLogPrefix("[2025-08-12 03:18:23.088] V0812 03:18:23.088000 19120 Lib\\site-packages\\torch\\_dynamo\\guards.py:3508] "
                            "[6/2] [__recompiles] Recompiling function forward in C:\\AI\\model.py:221");
    ASSERT_TRUE(p.glog);
    EXPECT_EQ(p.level, 'V');
    EXPECT_EQ(p.thread, 19120);
    EXPECT_EQ(p.source, "Lib\\site-packages\\torch\\_dynamo\\guards.py:3508");
    ASSERT_TRUE(p.tsNs);
    // 1970-08-12 03:18:23.088 (glog has no year)
    EXPECT_EQ(*p.tsNs, ((223LL * 24 + 3) * 3600 + 18 * 60 + 23) * 1000000000LL + 88000000LL);
    auto m = p.message;
    CompileId id;
    ASSERT_TRUE(takeCompileId(m, id));
    EXPECT_EQ(id.text(), "6/2");
    EXPECT_EQ(m.substr(0, 14), "[__recompiles]");
}

TEST(LogPrefix, ElidedRankTaggedAndPythonLogging) {
    auto e = splitLogPrefix(".../torch/_dynamo/guards.py:2772] [16/8] [__recompiles_verbose]     guard 0 failures:");
    EXPECT_TRUE(e.glog);
    EXPECT_FALSE(e.tsNs);
    EXPECT_EQ(e.message, "[16/8] [__recompiles_verbose]     guard 0 failures:");

    auto r = splitLogPrefix("[rank6]:W1101 02:43:39.336000 143 site-packages/torch/_dynamo/convert_frame.py:896] [1/64]    last reason: x");
    EXPECT_TRUE(r.glog);
    EXPECT_EQ(r.level, 'W');
    EXPECT_EQ(r.message, "[1/64]    last reason: x");

    auto py = splitLogPrefix("[2023-11-15 16:13:26,741] torch._dynamo.guards.__recompiles_verbose: [DEBUG]     - len(L['x']) == 3");
    EXPECT_FALSE(py.glog);
    EXPECT_EQ(py.source, "torch._dynamo.guards.__recompiles_verbose");
    EXPECT_EQ(py.message, "    - len(L['x']) == 3");
    ASSERT_TRUE(py.tsNs);

    auto jax = splitLogPrefix("WARNING:2025-04-13 17:56:45,045:jax._src.pjit:1365: TRACING CACHE MISS at x because:");
    EXPECT_EQ(jax.source, "jax._src.pjit:1365");
    EXPECT_EQ(jax.message, "TRACING CACHE MISS at x because:");
    EXPECT_EQ(splitLogPrefix("2024-07-22 11:56:03,008 - DEBUG - Writing f").message, "Writing f");
    EXPECT_EQ(splitLogPrefix("WARNING:absl:Finished XLA compilation of f in 1.2 sec").message,
              "Finished XLA compilation of f in 1.2 sec");
    EXPECT_EQ(splitLogPrefix("just text").message, "just text");
}

TEST(CompileIdText, AttemptsAndGarbage) {
    CompileId id;
    ASSERT_TRUE(parseCompileId("1/1_1", id));
    EXPECT_EQ(id.frame, 1);
    EXPECT_EQ(id.attempt, 1);
    EXPECT_EQ(id.text(), "1/1_1");
    EXPECT_FALSE(parseCompileId("1/", id));
    EXPECT_FALSE(parseCompileId("a/1", id));
    EXPECT_FALSE(parseCompileId("12345678901/1", id));
    std::string_view s = "[rank0] x";
    EXPECT_FALSE(takeCompileId(s, id));
}

TEST(GuardFailureText, TensorMismatchesAndConstants) {
    auto size = torch::parseGuardFailure("5/2: tensor 'L['x']' size mismatch at index 1. expected 1024, actual 128");
    ASSERT_TRUE(size.entry);
    EXPECT_EQ(*size.entry, "5/2");
    EXPECT_EQ(size.subject, "size of L['x'] at index 1");
    EXPECT_EQ(size.expected, "1024");
    EXPECT_EQ(size.actual, "128");
    EXPECT_EQ(size.role, CS_ROLE_SHAPE);

    auto param = torch::parseGuardFailure("2/7: tensor 'X[0]' size mismatch at index 1. expected 640, actual 8. Guard failed on a "
                                          "parameter, consider using torch._dynamo.config.force_parameter_static_shapes = False "
                                          "to allow dynamism on parameters.");
    EXPECT_EQ(param.actual, "8");

    auto dtype = torch::parseGuardFailure("tensor 'L['tgt']' dtype mismatch. expected Half, actual Float");
    EXPECT_FALSE(dtype.entry);
    EXPECT_EQ(dtype.subject, "dtype of L['tgt']");
    EXPECT_EQ(dtype.role, CS_ROLE_TYPE);
    EXPECT_EQ(dtype.expected, "Half");

    auto eq = torch::parseGuardFailure("0/7: y == 7                                                   # return x + y  # "
                                       "pt/pytorch/lightning-thunder/test_thunder_recompile.py:5 in foo");
    EXPECT_EQ(eq.text, "y == 7");
    EXPECT_EQ(eq.subject, "y");
    EXPECT_EQ(eq.expected, "7");

    auto trailing = torch::parseGuardFailure("16/2: ___check_type_id(L['self']._modules['mixer'], 157671424)    ");
    EXPECT_EQ(trailing.text, "___check_type_id(L['self']._modules['mixer'], 157671424)");
    EXPECT_EQ(trailing.subject, trailing.text);

    auto empty = torch::parseGuardFailure("0/0: ");
    ASSERT_TRUE(empty.entry);
    EXPECT_EQ(*empty.entry, "0/0");
    EXPECT_EQ(empty.text, "");
}

TEST(RecompileLineText, TupleFormOf2023) {
    auto l = torch::parseRecompileLine("('Recompiling function inner in /home/jonch/Desktop/Programming/mlsys/pytorch/torch/_dynamo/"
                                       "external_utils.py:15', 'triggered by the following guard failures: "
                                       "[\\'___guarded_code.valid\\', \"___check_obj_id(L[\\'args\\'][1], 140039813517312), with "
                                       "LHS value: {\\'id\\': 140040114487792}\"]')");
    ASSERT_EQ(l.kind, torch::RecompileLineKind::Tuple);
    EXPECT_EQ(l.function, "inner");
    ASSERT_EQ(l.failures.size(), 2u);
    EXPECT_EQ(l.failures[0].text, "___guarded_code.valid");
    EXPECT_EQ(l.failures[1].text, "___check_obj_id(L['args'][1], 140039813517312), with LHS value: {'id': 140040114487792}");
}

TEST(RecompileLineText, LimitWarningWithWindowsPath) {
    // Synthetic: no public log of this warning with a Windows path was found; the path shape is the
    // one ComfyUI prints for `Recompiling function forward in C:\AI\...` (tests/data/torch/README.md).
    auto f = torch::parseRecompileLine("   function: 'forward' (C:\\AI\\ComfyUI\\comfy\\ldm\\qwen_image\\model.py:221)");
    ASSERT_EQ(f.kind, torch::RecompileLineKind::LimitFunction);
    EXPECT_EQ(f.file, "C:\\AI\\ComfyUI\\comfy\\ldm\\qwen_image\\model.py:221");
    auto hit = torch::parseRecompileLine("torch._dynamo hit config.cache_size_limit (64)");
    ASSERT_EQ(hit.kind, torch::RecompileLineKind::LimitHit);
    EXPECT_EQ(hit.limitName, "cache_size_limit");
    EXPECT_EQ(hit.limitValue, 64);
    EXPECT_EQ(torch::parseRecompileLine("torch._dynamo hit config.recompile_limit (").kind, torch::RecompileLineKind::Other);
}

TEST(JaxLineText, CacheAndCompileLines) {
    auto miss = jax::parseJaxLine("TRACING CACHE MISS at /x/api_test.py:4488:8 (APITest.t) costing 1.250 ms because:");
    ASSERT_EQ(miss.kind, jax::JaxLineKind::TracingMiss);
    EXPECT_EQ(miss.callsite, "/x/api_test.py:4488:8 (APITest.t)");
    EXPECT_DOUBLE_EQ(miss.costMs, 1.25);
    auto hit = jax::parseJaxLine("Persistent compilation cache hit for 'jit_convert_element_type'");
    ASSERT_EQ(hit.kind, jax::JaxLineKind::PersistentHit);
    EXPECT_EQ(hit.key, "");
    auto w = jax::parseJaxLine("Writing jit_matrix_multiply to persistent compilation cache with key 'jit_matrix_multiply-fa47'");
    ASSERT_EQ(w.kind, jax::JaxLineKind::PersistentWrite);
    EXPECT_EQ(w.function, "jit_matrix_multiply");
    EXPECT_EQ(w.key, "jit_matrix_multiply-fa47");
    auto t = jax::parseJaxLine("Finished tracing + transforming f for jit in 2.244359254837036 sec");
    ASSERT_EQ(t.kind, jax::JaxLineKind::TraceDone);
    EXPECT_EQ(t.function, "f");
    EXPECT_EQ(jax::parseJaxLine("Persistent compilation cache hit for 'unterminated").kind, jax::JaxLineKind::Other);
    auto change = jax::parseMissReasonLine("        * at x, now f32[8] and before f32[4]");
    ASSERT_EQ(change.kind, jax::MissReasonLine::Kind::Change);
    EXPECT_EQ(change.subject, "x");
    EXPECT_EQ(change.now, "f32[8]");
    EXPECT_EQ(change.before, "f32[4]");
    auto ctx = jax::parseMissReasonLine("      [6]: now raise and before warn");
    EXPECT_EQ(ctx.subject, "[6]");
}
