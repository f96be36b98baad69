# Fails when a file includes a layer above its own (docs/architecture.md, "Layers"). Run with
# cmake -DROOT=<source dir> -P; every build runs it (target compilescope_layer_check).
#
#   core/<layer>/  the libraries: each may include itself and the layers it links.
#   core/engine/<sub>/  the engine's sub-layers, within its one library: common/ includes only
#                  common/; the analyses (cache/, warp/, julia/, timeline/, cuda/, jit/, build/,
#                  export/, fix/) and accounting/ include each other and common/, never analysis/,
#                  the top that assembles TraceAnalysis. No source sits in the engine's root.
#   app/<part>/    the applications: cli and recorder never include Qt; models never include
#                  plots, widgets or gui; plots never widgets or gui; widgets never gui.
#   tests/<dir>/   a test directory named for a layer includes that layer and what it links, nothing
#                  above; a directory named for a topic (hardening/, julia/, ...) tests the product
#                  end to end and may reach the CLI, and only tests/gui reaches the GUI's parts.
# Also: sqlite3.h only in core/trace (and in the tests that forge raw SQLite files, listed below),
# no SQL in core/report, qcustomplot.h only in app/plots, every include by its path from the source
# root (or a file of the same directory), never by "../".
#
# Why a script and not only link order: a header-only include of a higher layer links fine and still
# ties the layers together; reading the includes is the only check that catches it.

# Layers, lowest first; each may include itself and the ones listed after it.
set(_allowed_util      "util")
set(_allowed_formats   "formats;util")
set(_allowed_trace     "trace;util")
set(_allowed_ingest    "ingest;formats;trace;util")
set(_allowed_engine    "engine;formats;trace;util")
set(_allowed_measure   "measure;engine;formats;trace;util")
set(_allowed_report    "report;measure;engine;formats;util")
set(_all_core "report;measure;engine;ingest;formats;trace;util")
# The engine's sub-layers (core/engine/<sub>/), lowest first; each may include the engine
# sub-directories listed (and the layers below the engine).
set(_engine_middle "cache;warp;julia;timeline;cuda;jit;build;export;fix;accounting")
set(_engine_common   "common")
set(_engine_analysis "analysis;${_engine_middle};common")
foreach(_sub ${_engine_middle})
  set(_engine_${_sub} "${_engine_middle};common")
endforeach()
# The applications (app/<part>). cli includes the recorder's exit codes only (it starts the recorder).
set(_allowed_cli      "cli;recorder;${_all_core}")
set(_allowed_recorder "recorder;trace;util")
set(_allowed_models   "models;${_all_core}")
set(_allowed_plots    "plots;models;${_all_core}")
set(_allowed_widgets  "widgets;plots;models;${_all_core}")
set(_allowed_gui      "gui;widgets;plots;models;${_all_core}")
set(_no_qt "util;formats;trace;ingest;engine;measure;report;cli;recorder")

# Test directories: a layer's tests include the layer and what it links (they build traces with the
# trace layer even where the layer itself never sees SQLite).
set(_tests_util      "util")
set(_tests_trace     "trace;util")
set(_tests_ingest    "ingest;formats;trace;util")
set(_tests_engine    "engine;formats;trace;util")
set(_tests_report    "report;measure;engine;formats;trace;util")
set(_tests_cli       "${_allowed_cli}")
set(_tests_collector "recorder;trace;util")
set(_tests_gui       "${_allowed_gui};cli;recorder")
set(_tests_topic     "${_allowed_cli}")  # end to end: build/, cuda/, julia/, hardening/, ...
set(_test_layer_dirs util trace ingest engine report cli collector gui)
# Tests in a layer's directory that still drive the product end to end (the CLI in process through
# cli_runner.h, an importer to build their input, a layer above theirs): they may include what a topic
# directory may. Each is named, so that no new one joins them unnoticed; moving
# them onto their layer (a trace built with the writer, the binary run as a process: cli_process.h)
# is what remains of issue 38's "each test executable links only its layer".
set(_tests_end_to_end
  tests/engine/test_accounting.cpp tests/engine/test_device_link.cpp
  tests/engine/test_warp_cache_lookups.cpp tests/engine/test_warp_diagnosis.cpp tests/engine/test_warp_real_logs.cpp
  tests/ingest/test_jsonl_export.cpp tests/ingest/test_tef_export.cpp  # the engine's exports, tested on imports
  tests/trace/test_pyramid.cpp)  # reads its pyramid back through the engine's view
# Tests that write raw SQLite themselves, so they may include sqlite3.h: the trace layer's own tests
# and the hardening tests (damaged and hostile files), and these, each for a reason:
set(_tests_raw_sqlite
  tests/collector/test_collector.cpp          # reads the recorder's trace as plain SQLite while it is written
  tests/collector/test_collector_losses.cpp   # the same, after a killed recording (unsealed)
  tests/collector/test_wire_session.cpp       # the same, for the wire session's rows
  tests/engine/test_replay.cpp                # writes rows no writer of ours writes (a forged replay)
  tests/ingest/test_jsonl_export.cpp          # stores a BLOB, which no writer of ours stores
  tests/ingest/test_tef_fast_path.cpp)        # compares two imports table by table, schema included
set(_raw_sqlite_dirs tests/trace tests/hardening tests/fuzz)

set(_errors "")

# The trace layer's headers that include sqlite3.h themselves (sqlite_util.h, ...): including one of
# them is including sqlite3.h.
set(_sqlite_headers "")
file(GLOB _trace_headers RELATIVE ${ROOT} ${ROOT}/core/trace/*.h)
foreach(_h ${_trace_headers})
  file(STRINGS ${ROOT}/${_h} _s REGEX "^[ \t]*#[ \t]*include[ \t]*<sqlite3\\.h>")
  if(_s)
    list(APPEND _sqlite_headers "${_h}")
  endif()
endforeach()

# The layer an include names ("" when it names none): core/<l>/..., app/<part>/..., or a test helper.
function(_layer_of path out)
  set(_l "")
  if(path MATCHES "^core/([a-z]+)/")
    set(_l "${CMAKE_MATCH_1}")
  elseif(path MATCHES "^app/([a-z]+)/")
    set(_l "${CMAKE_MATCH_1}")
  elseif(path STREQUAL "cli_runner.h" OR path MATCHES "/cli_runner.h$")
    set(_l "cli")  # runs the CLI in process
  endif()
  set(${out} "${_l}" PARENT_SCOPE)
endfunction()

# Checks the engine file `f`'s includes of the engine against its sub-layer (core/engine/<sub>/).
function(_check_engine_sublayer f)
  if(NOT f MATCHES "^core/engine/([a-z_]+)/")
    set(_errors "${_errors}  ${f}: no source in the engine's root; put it in common/, accounting/, analysis/ or an analysis's directory\n" PARENT_SCOPE)
    return()
  endif()
  set(_sub "${CMAKE_MATCH_1}")
  if(NOT DEFINED _engine_${_sub})
    set(_errors "${_errors}  ${f}: core/engine/${_sub} is not a known sub-layer of the engine (docs/architecture.md)\n" PARENT_SCOPE)
    return()
  endif()
  file(STRINGS ${ROOT}/${f} _incs REGEX "^[ \t]*#[ \t]*include[ \t]*\"core/engine/")
  set(_err "")
  foreach(_inc ${_incs})
    if(_inc MATCHES "\"core/engine/([a-z_]+)/[^\"]*\"")
      set(_to "${CMAKE_MATCH_1}")
      list(FIND _engine_${_sub} "${_to}" _ok)
      if(_ok EQUAL -1)
        string(REGEX MATCH "core/engine/[^\"]+" _path "${_inc}")
        string(APPEND _err "  ${f}: core/engine/${_sub} may not include ${_path} (engine/${_to} is not below it)\n")
      endif()
    elseif(_inc MATCHES "\"(core/engine/[^\"/]+)\"")
      string(APPEND _err "  ${f}: includes ${CMAKE_MATCH_1}, a file in the engine's root\n")
    endif()
  endforeach()
  set(_errors "${_errors}${_err}" PARENT_SCOPE)
endfunction()

# Checks the includes of `f` against `allowed` (a list of layers); `what` names the file's layer.
function(_check_file f allowed what raw_sqlite qt_ok)
  file(STRINGS ${ROOT}/${f} _incs REGEX "^[ \t]*#[ \t]*include[ \t]*[\"<]")
  set(_err "")
  foreach(_inc ${_incs})
    if(_inc MATCHES "#[ \t]*include[ \t]*\"([^\"]+)\"")
      set(_path "${CMAKE_MATCH_1}")
      if(_path MATCHES "(^|/)\\.\\./")
        string(APPEND _err "  ${f}: include \"${_path}\" by its path from the source root, not by ../\n")
        continue()
      endif()
      list(FIND _sqlite_headers "${_path}" _sq)
      if(NOT _sq EQUAL -1 AND NOT raw_sqlite)
        string(APPEND _err "  ${f}: ${what} may not include ${_path}, which includes sqlite3.h\n")
      endif()
      _layer_of("${_path}" _target)
      if(_target STREQUAL "")
        if(f MATCHES "^core/" AND NOT _path MATCHES "^compilescope/")
          string(APPEND _err "  ${f}: include \"${_path}\" by its path from the source root (core/<layer>/...)\n")
        endif()
        continue()
      endif()
      list(FIND allowed "${_target}" _ok)
      if(_ok EQUAL -1)
        string(APPEND _err "  ${f}: ${what} may not include ${_path} (${_target} is not below it)\n")
      endif()
    elseif(_inc MATCHES "<sqlite3\\.h>")
      if(NOT raw_sqlite)
        string(APPEND _err "  ${f}: ${what} may not include sqlite3.h; read the trace through core/trace (row.h, table_readers.h)\n")
      endif()
    elseif(_inc MATCHES "<qcustomplot\\.h>")
      if(NOT f MATCHES "^app/plots/")
        string(APPEND _err "  ${f}: only app/plots includes qcustomplot.h\n")
      endif()
    elseif(_inc MATCHES "<Q[A-Za-z]*>|<Qt[A-Za-z]*/")
      if(NOT qt_ok)
        string(APPEND _err "  ${f}: ${what} never includes Qt\n")
      endif()
    endif()
  endforeach()
  set(_errors "${_errors}${_err}" PARENT_SCOPE)
endfunction()

# core/
file(GLOB_RECURSE _files RELATIVE ${ROOT} ${ROOT}/core/*.h ${ROOT}/core/*.cpp)
foreach(_f ${_files})
  string(REGEX MATCH "^core/([a-z]+)/" _m "${_f}")
  set(_layer "${CMAKE_MATCH_1}")
  if(NOT DEFINED _allowed_${_layer})
    string(APPEND _errors "  ${_f}: core/${_layer} is not a known layer\n")
    continue()
  endif()
  if(_layer STREQUAL "report")
    file(STRINGS ${ROOT}/${_f} _sql REGEX "\"[ \t]*(SELECT|INSERT|UPDATE|DELETE)[ \t]")
    if(_sql)
      string(APPEND _errors "  ${_f}: the report holds no SQL; the engine computes what it shows\n")
    endif()
  endif()
  set(_raw OFF)
  if(_layer STREQUAL "trace")
    set(_raw ON)
  endif()
  _check_file("${_f}" "${_allowed_${_layer}}" "core/${_layer}" ${_raw} OFF)
  if(_layer STREQUAL "engine")
    _check_engine_sublayer("${_f}")
  endif()
endforeach()

# app/
file(GLOB_RECURSE _files RELATIVE ${ROOT} ${ROOT}/app/*.h ${ROOT}/app/*.cpp)
foreach(_f ${_files})
  string(REGEX MATCH "^app/([a-z]+)/" _m "${_f}")
  set(_part "${CMAKE_MATCH_1}")
  if(NOT DEFINED _allowed_${_part})
    string(APPEND _errors "  ${_f}: app/${_part} is not a known part (docs/architecture.md)\n")
    continue()
  endif()
  list(FIND _no_qt "${_part}" _noqt)
  set(_qt ON)
  if(NOT _noqt EQUAL -1)
    set(_qt OFF)
  endif()
  _check_file("${_f}" "${_allowed_${_part}}" "app/${_part}" OFF ${_qt})
endforeach()

# tests/
file(GLOB_RECURSE _files RELATIVE ${ROOT} ${ROOT}/tests/*.h ${ROOT}/tests/*.cpp ${ROOT}/tests/*.c)
foreach(_f ${_files})
  if(_f MATCHES "^tests/([a-z_]+)/")
    set(_dir "${CMAKE_MATCH_1}")
  else()
    set(_dir "")  # the shared helpers at tests/: as a topic
  endif()
  list(FIND _test_layer_dirs "${_dir}" _isLayer)
  if(NOT _isLayer EQUAL -1)
    set(_allowed "${_tests_${_dir}}")
    list(FIND _tests_end_to_end "${_f}" _e2e)
    if(NOT _e2e EQUAL -1)
      set(_allowed "${_tests_topic}")
    endif()
  else()
    set(_allowed "${_tests_topic}")
  endif()
  set(_raw OFF)
  list(FIND _tests_raw_sqlite "${_f}" _listed)
  if(NOT _listed EQUAL -1)
    set(_raw ON)
  endif()
  foreach(_d ${_raw_sqlite_dirs})
    if(_f MATCHES "^${_d}/")
      set(_raw ON)
    endif()
  endforeach()
  set(_qt OFF)
  if(_dir STREQUAL "gui")
    set(_qt ON)
  endif()
  _check_file("${_f}" "${_allowed}" "tests/${_dir}" ${_raw} ${_qt})
endforeach()

if(_errors)
  message(FATAL_ERROR "Wrong-way includes (layers: docs/architecture.md):\n${_errors}")
endif()
