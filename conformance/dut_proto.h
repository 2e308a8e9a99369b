/* dut_proto.h — the names the ttdut line protocol uses for capabilities (conformance/README.md,
 * "The line protocol"), shared by the client (dut_proc.c) and the server (dut_serve.c). */
#ifndef TT_DUT_PROTO_H
#define TT_DUT_PROTO_H
#include <stddef.h>
#include <stdint.h>
#include "ttdut.h"

#define DUT_PROTO_VERSION 1
#define DUT_LINE_MAX 4096

/* "gpr", "cfg", ... for TTDUT_LOC_* (NULL past the end). */
const char *dut_kind_name(unsigned kind);
/* "fault_class", "blocked", ... for bit i of TTDUT_CAP_* (NULL past the end). */
const char *dut_flag_name(unsigned bit);
/* Comma-separated names of the set bits of mask, with names(i); "-" when none. */
void dut_names_fmt(uint32_t mask, const char *(*names)(unsigned), unsigned count, char *buf,
                   size_t n);
/* Parse such a list back into a mask; -1 on an unknown name. */
int dut_names_parse(const char *text, const char *(*names)(unsigned), unsigned count,
                    uint32_t *mask);
const char *dut_fault_name(unsigned fault);    /* "none", ..., "some" */
int dut_fault_parse(const char *name);         /* or -1 */
const char *dut_outcome_name(unsigned outcome);/* "done", "deadlock", "budget" */
int dut_outcome_parse(const char *name);       /* or -1 */

#endif
