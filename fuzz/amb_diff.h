/* amb_diff.h — the ambiguity_diff target's pieces shared with ambtool (fuzz/ambtool.c). */
#ifndef AMB_DIFF_H
#define AMB_DIFF_H
#include "fz.h"

#define AMB_MAX_VALUES 8u   /* values per knob the witness bitmaps hold */

void amb_init(void);
/* Witness name "AMB-<n>.<knob>=<value>" of knob k at value v (v >= 1), its ambiguity id, and
 * the mode it is compared in (TT_MODE_FUNC or TT_MODE_CYCLE). */
const char *amb_witness_name(unsigned k, unsigned v);
unsigned amb_witness_amb(unsigned k, unsigned v);
unsigned amb_mode_of(unsigned k, unsigned v);
int amb_parse_name(const char *name, unsigned *k, unsigned *v);   /* 0, or -1 */
uint64_t amb_budget(const fz_prog *p, unsigned mode);
/* Run p with every knob at its default except knob k = v (k = TT_KNOB_COUNT: none). */
tt_outcome amb_run(tt_state *st, const fz_prog *p, unsigned mode, unsigned k, unsigned v);
/* The compared end state: a digest of the architectural part (locations, thread progress,
 * first-fault classes, outcome) and the cycle count (cycle mode). Clears what is not compared. */
typedef struct amb_end { uint64_t arch, cycles; tt_outcome out; } amb_end;
void amb_end_of(tt_state *st, tt_outcome out, amb_end *e);
/* How two end states differ: 0 not at all (or a run hit its budget), 1 only in the cycle
 * count, 2 in the architectural state. */
#define AMB_LEVEL_CYCLES 1
#define AMB_LEVEL_ARCH 2
int amb_level(const amb_end *a, const amb_end *b);
/* The level at which p separates the default from knob k = v. */
int amb_separates(const fz_prog *p, unsigned k, unsigned v);
/* All witnesses of p: w[k] bit v (any level), arch[k] bit v (architectural). Returns the count. */
unsigned amb_witnesses(const fz_prog *p, uint16_t w[TT_KNOB_COUNT], uint16_t arch[TT_KNOB_COUNT]);

#endif
