/* The C API of libtestmap_select.so, which the testmap_select pytest plugin
 * loads with ctypes: the plugin reads the index through testmap's own
 * library (indexer/index_reader.h, mapper/config), never through a second
 * reader of the key layout. One session per pytest session: the index is
 * opened once, every collected item answered in one call.
 *
 * Strings in and out are UTF-8; returned strings are malloc'd and freed
 * with tm_select_free. On failure a function returns NULL and sets *error
 * (also freed with tm_select_free).
 */
#ifndef TESTMAP_MAPPER_SELECT_SELECT_C_API_H_
#define TESTMAP_MAPPER_SELECT_SELECT_C_API_H_

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TM_SELECT_API __attribute__((visibility("default")))

typedef struct tm_select tm_select;

/* Opens `index_dir` read-only and, when `config_path` is not NULL or
 * empty, reads that test_suite_config, its paths under `root_token`
 * (NULL: "${TORCH_ROOT}"). Config warnings are returned in *warnings as
 * one JSON list of strings (NULL when none). */
TM_SELECT_API tm_select* tm_select_open(const char* index_dir, const char* config_path,
                                        const char* root_token, char** warnings, char** error);

/* The roles whose observations give marks, as `testmap query --role`
 * takes them: "test" (the default: the test's own code), "assert,inputs",
 * "all". Returns 0, or -1 and sets *error for an unknown role (with the
 * closest names). */
TM_SELECT_API int tm_select_set_roles(tm_select* session, const char* roles, char** error);

/* For `n` node ids, one JSON object {nodeid: answer}, answer being
 *   {"marks": ["op__add", "dtype__float32", ...],
 *    "mode": "skip"|"xfail"|"xfail_strict"|"mandatory_success"|null,
 *    "reason": "...", "in_index": true|false}
 * `mode` is null when no config is loaded or it does not govern the test. */
TM_SELECT_API char* tm_select_answer(tm_select* session, const char* const* nodeids, size_t n,
                                     char** error);

TM_SELECT_API void tm_select_close(tm_select* session);
TM_SELECT_API void tm_select_free(char* s);

#ifdef __cplusplus
}
#endif

#endif /* TESTMAP_MAPPER_SELECT_SELECT_C_API_H_ */
