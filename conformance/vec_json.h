/* vec_json.h — the conformance suite as JSON, for implementations not written in C.
 *
 * One JSON document per parsed vector (schema: conformance/json-schema.md), and the
 * `--export-json OUTDIR PATH...` command that walks .vec files the way ttconf does and writes
 * one document per vector plus OUTDIR/index.json. The reverse direction (JSON to .vec text)
 * is conformance/json2vec.py.
 *
 * Unlike the model library this file uses stdio (it is a tool, outside model/'s audit). */
#ifndef TT_VEC_JSON_H
#define TT_VEC_JSON_H

#include <stdio.h>
#include "vec.h"

#define TT_VEC_JSON_FORMAT "tensix-harness-vec"
#define TT_VEC_JSON_INDEX_FORMAT "tensix-harness-vec-index"
#define TT_VEC_JSON_VERSION 1

/* Can v be written as JSON? 0 yes; -1 no, with *line (its source line, 0 when none) and *msg
 * (a static message) set: an expectation kind, location or value this exporter does not know
 * (the parser grew a feature the schema has not). line and msg may be NULL. */
int tt_vec_json_check(const tt_vec *v, unsigned *line, const char **msg);

/* Write v (as parsed by tt_vec_parse) as one JSON document, followed by a newline, to out.
 * source_path is recorded as "source" (NULL: written as null). Output is deterministic: fixed
 * key order, one array element per line, integers only. Returns 0; -1 when
 * tt_vec_json_check() refuses v (nothing is written) or when writing to out failed. */
int tt_vec_to_json(const tt_vec *v, const char *source_path, FILE *out);

/* The command line `--export-json OUTDIR PATH...` (argv[0] is the program name; argv[1] may
 * be "--export-json" or the options may start at argv[1] with OUTDIR). Prints one line per
 * malformed vector (`FILE:LINE: message`) or unreadable path, then a summary line
 * `N exported, N failed`. Exit status: 0 every vector exported and at least one found;
 * 1 a vector was malformed or a path/output could not be read or written; 2 bad command
 * line; 3 a PATH held no .vec file (1 wins over 3). */
int vecjson_main(int argc, char **argv);

/* A suite directory walked the way ttconf walks it (and --export-json): every .vec file below
 * dir in byte-wise sorted order, directories named selftest and symbolic links to directories
 * skipped, at most 32 levels deep (common/files.h does the walking). file gets each .vec file
 * (err: the errno of a stat that failed, else 0); fail gets what the walk met (name: an entry
 * of path, or NULL). */
void tt_vec_suite_walk(const char *dir, void (*file)(void *ctx, const char *path, int err),
                       void (*fail)(void *ctx, const char *path, const char *name, const char *msg),
                       void *ctx);

#endif
