# Writes one seed folder per fuzz target under OUT, from files the tests
# already use (SOURCE_DIR's fixtures and example suite) and small documents
# derived from them: run with cmake -P (fuzz/CMakeLists.txt).
set(fixtures ${SOURCE_DIR}/tests/timings/data)
file(REMOVE_RECURSE ${OUT})

function(seed target)
  file(MAKE_DIRECTORY ${OUT}/${target})
  foreach(f ${ARGN})
    get_filename_component(name ${f} NAME)
    file(COPY_FILE ${f} ${OUT}/${target}/${name})
  endforeach()
endfunction()
function(seed_text target name text)
  file(MAKE_DIRECTORY ${OUT}/${target})
  file(WRITE ${OUT}/${target}/${name} "${text}")
endfunction()

seed(trace_jsonl ${fixtures}/trace_shard.jsonl)
file(GLOB junit ${fixtures}/*.xml)
seed(junit ${junit})
file(GLOB logs ${SOURCE_DIR}/tests/tracer/fixtures/torch_logs/*.log)
seed(torch_logs ${logs})
file(GLOB sources ${SOURCE_DIR}/examples/suite/test_*.py)
seed(python_scan ${sources})
# Fuzz findings, kept as seeds so that every run starts from them: a
# method's line at column zero hung the parse that skipped method bodies
# (tests/analyzers/python/data, read by its tests too).
seed(python_scan ${SOURCE_DIR}/tests/analyzers/python/data/dedent_to_column_zero.py)
file(GLOB configs ${SOURCE_DIR}/examples/backend-config/*.yaml)
seed(config_yaml ${configs})

# The formats without a fixture file, written from the fixtures' node ids.
file(STRINGS ${fixtures}/pytest_nodeids.txt ids)
set(durations "{")
set(list_form "[")
set(scan "")
set(sep "")
foreach(id ${ids})
  string(APPEND durations "${sep}\n  \"${id}\": 0.25")
  string(APPEND list_form "${sep}[\"${id}\", 1.5]")
  string(REGEX REPLACE "::.*" "" file ${id})
  string(APPEND scan "{\"nodeid\":\"${id}\",\"generic_id\":\"${id}\",\"file\":\"${file}\","
         "\"kind\":\"pytest\",\"line_start\":3,\"line_end\":5,"
         "\"params\":{\"device\":\"cpu\",\"dtypes\":[\"float32\"],\"op\":\"add\"},"
         "\"decorators\":[\"ops(op_db)\"],\"skips\":[],\"source_hash\":\"00ff\"}\n")
  set(sep ",")
endforeach()
seed_text(test_durations durations.json "${durations}\n}\n")
seed_text(test_durations list_form.json "${list_form}]\n")
seed_text(scan_jsonl scan.jsonl "${scan}")
seed_text(test_times file_level.json
  "{\"linux-jammy-py3.10-gcc11\": {\"default\": {\"test_ops\": 1200.5, \"test_nn\": 30.0}, \"crossref\": {\"test_ops\": 99}}}\n")
seed_text(test_times class_level.json
  "{\"linux-jammy-py3.10-gcc11\": {\"default\": {\"test_ops\": {\"TestCommonCPU\": 600.0, \"TestMathBitsCPU\": 2.5}}}}\n")
seed_text(mcp_request initialize.json
  "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"fuzz\",\"version\":\"1\"}}}")
seed_text(mcp_request call.json
  "{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":\"tools/call\",\"params\":{\"name\":\"query\",\"arguments\":{\"op\":\"add\",\"dtype\":[\"float32\"],\"limit\":10}}}")
seed_text(mcp_request notification.json
  "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}")
