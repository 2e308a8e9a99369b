/* vecjson — `vecjson --export-json OUTDIR PATH...`: the conformance vectors as JSON
 * (conformance/json-schema.md). The work is vecjson_main() in vec_json.c, which ttconf can
 * also expose as `ttconf --export-json OUTDIR PATH...`. */
#include "vec_json.h"

int main(int argc, char **argv) { return vecjson_main(argc, argv); }
