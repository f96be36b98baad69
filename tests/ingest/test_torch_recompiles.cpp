// TORCH_LOGS=recompiles / recompiles_verbose and the recompile-limit warning, imported from logs
// PyTorch users posted (tests/data/torch/README.md names each issue): today's form with
// `[frame/compile]` ids, the 2.4 form whose failures name no entry, the form without any id, the 2023
// tuple form, a prefix elided as `...` with trailing blanks, a Windows path behind a launcher's time
// tag. Each compile is a cache lookup; each guard failure a key component tied to the entry it names.
#include "imported_trace.h"

namespace {
std::unique_ptr<cs::test::ImportedTrace> importData(const std::string& name) {
    return cs::test::importPath(cs::test::sourceDir() + "/tests/data/torch/" + name, "torch-recompiles");
}

// Handles of the lookups in time order, "a,b,c".
const char* kHandles = "SELECT group_concat(h, ',') FROM (SELECT s.str AS h FROM cache_lookups l JOIN strings s ON "
                       "s.id=l.handle_sid ORDER BY l.ts_ns, l.id)";
// Values of component `name` in lookup time order.
std::string valuesOf(const std::string& raw) {
    const std::string name = cs::test::sqlQuoted(raw);
    return "SELECT group_concat(v, ',') FROM (SELECT s.str AS v FROM cache_lookups l JOIN key_components k ON "
           "k.lookup_id=l.id JOIN strings n ON n.id=k.name_sid JOIN strings s ON s.id=k.value_sid WHERE n.str='" + name +
           "' ORDER BY l.ts_ns, l.id)";
}
std::string spanArg(const std::string& key) {
    return "SELECT group_concat(a.value, '|') FROM span_args a JOIN strings k ON k.id=a.key_sid WHERE k.str='" + key + "'";
}
const char* kMalformed = "SELECT coalesce(sum(count),0) FROM stats WHERE name='malformed_record'";
}  // namespace

// pytorch#148179: one Recompiling block that names three earlier entries, newest first.
TEST(TorchRecompilesImport, IdsNameTheEntryEachFailureCameFrom) {
    auto im = importData("recompiles_ids_issue148179.log");
    EXPECT_EQ(im->count("SELECT count(*) FROM cache_lookups WHERE verdict=2"), 4);
    EXPECT_EQ(im->text(kHandles), "5/0,5/1,5/2,5/3");
    EXPECT_EQ(im->text(valuesOf("size of L['x'] at index 1")), "256,512,1024,128");
    EXPECT_EQ(im->text("SELECT group_concat(DISTINCT s.str) FROM cache_lookups l JOIN strings s ON s.id=l.program_sid"),
              "forward (yolov7/inference/cpu/yolov7/models/common.py:35)");
    EXPECT_EQ(im->text(spanArg("guard failure 1")), "5/2: tensor 'L['x']' size mismatch at index 1. expected 1024, actual 128");
    EXPECT_EQ(im->text(spanArg("guard failure 3")), "5/0: tensor 'L['x']' size mismatch at index 1. expected 256, actual 128");
    EXPECT_EQ(im->count(kMalformed), 0);

    auto explain = im->cli("explain");
    EXPECT_NE(explain.find("size of L['x'] at index 1: 1024 -> 128 (vs lookup #3)"), std::string::npos) << explain;
    auto findings = im->cli("findings");
    EXPECT_NE(findings.find("4 compiles for size of L['x'] at index 1 (256, 512, 1024, 128)"), std::string::npos) << findings;
    EXPECT_NE(findings.find("mark_dynamic"), std::string::npos) << findings;
}

// pytorch#128071: recompiles_verbose, prefix elided as `.../`, one failure per `guard N failures:`
// group, trailing blanks after the guard text and after the tag.
TEST(TorchRecompilesImport, VerboseGroupsWithElidedPrefix) {
    auto im = importData("recompiles_verbose_elided_issue128071.log");
    EXPECT_EQ(im->text(kHandles), "16/2,16/6,16/7,16/8");
    EXPECT_EQ(im->text(spanArg("guard failure 2")), "16/2: ___check_type_id(L['self']._modules['mixer'], 157671424)");
    EXPECT_EQ(im->text(valuesOf("L['self']._modules['mixer']._modules['conv'].layer_idx")),
              "(not logged at 16/2),(not logged at 16/6),(8, 'conv'),(not logged at 16/8)");
    EXPECT_EQ(im->text(valuesOf("___check_type_id(L['self']._modules['mixer'], 157226352)")),
              "(not logged at 16/2),held,(not logged at 16/7),failed");
    EXPECT_EQ(im->count(kMalformed), 0);
}

// pytorch#123784 (no ids at all) and pytorch#128134 (the block's id, no entry in the failure).
TEST(TorchRecompilesImport, FormsWithoutEntryIds) {
    auto none = importData("recompiles_no_id_issue123784.log");
    EXPECT_EQ(none->text(kHandles), "#0,#1");
    EXPECT_EQ(none->text(valuesOf("___check_global_state()")), "held,failed");
    EXPECT_NE(none->cli("explain").find("___check_global_state(): held -> failed"), std::string::npos);
    auto findings = none->cli("findings");
    EXPECT_NE(findings.find("fn (/home/dberard/local/scripts/global_recompile.py:3): 1 recompile(s) after a global state "
                            "change"),
              std::string::npos)
        << findings;

    auto blockOnly = importData("recompiles_entry_less_issue128134.log");
    EXPECT_EQ(blockOnly->count("SELECT count(*) FROM cache_lookups"), 4);
    EXPECT_EQ(blockOnly->text(kHandles), "1/0,1/1,8/0,8/1");
    EXPECT_EQ(blockOnly->text(valuesOf("dtype of L['tgt']")), "Half,Float,Half,Float");
    EXPECT_EQ(blockOnly->count("SELECT count(DISTINCT program_sid) FROM cache_lookups"), 2);
}

// pytorch#99091: the 2023 tuple form, where a step counter is specialised: L['t'] == 0, 1, 2, 3.
TEST(TorchRecompilesImport, TupleFormIntegerSpecialisationChurn) {
    auto im = importData("recompiles_tuple_2023_issue99091.log");
    EXPECT_EQ(im->text(kHandles), "#0,#1,#2,#3,#4");
    EXPECT_EQ(im->text(valuesOf("L['t']")), "0,1,2,3,(not logged at #4)");
    auto explain = im->cli("explain");
    EXPECT_NE(explain.find("L['t']: 0 -> 1"), std::string::npos) << explain;
    auto findings = im->cli("findings");
    EXPECT_NE(findings.find("a compile per value of L['t'] (0, 1, 2, 3)"), std::string::npos) << findings;
    EXPECT_NE(findings.find("dynamic=True"), std::string::npos) << findings;
}

// ComfyUI#9289: Windows paths, a launcher's `[2025-08-12 03:18:23.088] ` tag, and a paste that starts
// inside an earlier block (its failure line has no block: counted).
TEST(TorchRecompilesImport, WindowsPathsAndACutPaste) {
    auto im = importData("recompiles_windows_comfyui9289.log");
    EXPECT_EQ(im->count(kMalformed), 1);
    EXPECT_EQ(im->text(kHandles), "6/0,6/1,6/2");
    EXPECT_EQ(im->text("SELECT group_concat(DISTINCT s.str) FROM cache_lookups l JOIN strings s ON s.id=l.program_sid"),
              "forward (C:\\AI\\ComfyUI_windows_portable\\ComfyUI\\comfy\\ldm\\qwen_image\\model.py:221)");
    EXPECT_EQ(im->text(valuesOf("size of image_rotary_emb at index 1")), "7104,(not logged at 6/1),6895");
    EXPECT_EQ(im->text(valuesOf("size of self._modules['img_mod']._modules['1']._parameters['weight'] at index 1")),
              "(not logged at 6/0),1728,2112");
}

// microsoft/dion#23, pytorch#164119 and pytorch#128090: the limit warning, new and old names.
TEST(TorchRecompilesImport, RecompileLimitBecomesAFinding) {
    auto dion = importData("recompile_limit_dion23.log");
    EXPECT_EQ(dion->text(spanArg("limit")), "recompile_limit");
    EXPECT_EQ(dion->text(spanArg("function")), "dion2_post_orthogonalize");
    EXPECT_EQ(dion->text(spanArg("compile_id")), "2/8");
    EXPECT_EQ(dion->text(spanArg("last_reason")).substr(0, 62), "2/7: tensor 'X[0]' size mismatch at index 1. expected 640, act");
    // Its pasted traceback line has no glog stamp: it is taken to be at the stamped lines (12:27:06.332
    // on 01-10), not at the start of the year, so every row lies within one instant.
    EXPECT_EQ(dion->count("SELECT max(start_ns) - min(start_ns) FROM spans"), 0);
    // Issue 35: the fullgraph=True exception is read (it was dropped while stats said nothing was).
    EXPECT_EQ(dion->text(spanArg("raised")).substr(0, 69),
              "FailOnRecompileLimitHit: recompile_limit reached with fullgraph=True.");
    EXPECT_EQ(dion->count("SELECT count(*) FROM stats"), 0);
    EXPECT_NE(dion->cli("findings").find("with fullgraph=True the call raised FailOnRecompileLimitHit"), std::string::npos);
    auto findings = dion->cli("findings");
    EXPECT_NE(findings.find("torch._dynamo hit config.recompile_limit (8) for 'dion2_post_orthogonalize'"), std::string::npos)
        << findings;

    auto verbose = importData("recompile_limit_verbose_issue164119.log");
    EXPECT_EQ(verbose->count(kMalformed), 1);  // its `- 0/0: ` line came without the Recompiling header
    EXPECT_EQ(verbose->text(spanArg("limit_value")), "1");
    EXPECT_EQ(verbose->text(spanArg("last_reason")), "0/0: ");

    auto old = importData("cache_size_limit_issue128090.log");
    EXPECT_EQ(old->text(spanArg("limit")), "cache_size_limit");
    EXPECT_EQ(old->text(spanArg("last_reason")), "name 'Trunc' is not defined");
    EXPECT_NE(old->cli("findings").find("torch._dynamo hit config.cache_size_limit (8) for 'forward'"), std::string::npos);
}

// Issue 35: pytorch#128071's paste lost its glog prefix (`.../`), so no line has a time stamp. The
// trace keeps the order and the compiles, and has no time: no 1 ms per line, no time span, and its
// compile time is unknown (the recompiles log names compiles, never their time), not 0 ns.
TEST(TorchRecompilesImport, ALogWithoutTimestampsGetsNoInventedTime) {
    auto im = importData("recompiles_verbose_elided_issue128071.log");
    EXPECT_EQ(im->count("SELECT count(DISTINCT ts_ns) FROM cache_lookups"), 1);
    EXPECT_EQ(im->count("SELECT count(*) FROM spans WHERE start_ns <> (SELECT min(ts_ns) FROM cache_lookups)"), 0);
    EXPECT_EQ(im->count("SELECT coalesce(end_ns, 0) - coalesce(start_ns, 0) FROM sessions"), 0);
    const std::string info = im->cli("info");
    EXPECT_NE(info.find("time span: - (no timestamps"), std::string::npos) << info;
    EXPECT_NE(info.find("compile time: unknown"), std::string::npos) << info;
    EXPECT_NE(info.find("untimed"), std::string::npos);
    // A stamped log keeps its own clock and its span.
    auto stamped = importData("recompiles_tuple_2023_issue99091.log");
    EXPECT_GT(stamped->count("SELECT max(ts_ns) - min(ts_ns) FROM cache_lookups"), 0);
    EXPECT_EQ(stamped->cli("info").find("no timestamps"), std::string::npos);
}
