/*
** helpers.h -- small utilities shared by the cmocka unit tests.
*/
#ifndef WS_TEST_HELPERS_H
#define WS_TEST_HELPERS_H
#include <stddef.h>
/* Read a file below the source tree ("tests/kernels/x.ptx"); NULL if absent.
   The caller frees the result. */
char *th_read_source_file(const char *relpath, size_t *len);
/* Absolute path of a file below the source tree (static buffer). */
const char *th_source_path(const char *relpath);
#endif
