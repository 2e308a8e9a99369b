/* amb_diff.h — the ambiguity_diff target's pieces shared with ambtool (fuzz/ambtool.c). */
#ifndef AMB_DIFF_H
#define AMB_DIFF_H
#include "fz.h"

#define AMB_MAX_VALUES 8u   /* values per knob the witness bitmaps hold */

void amb_init(void);
/* Witness name "AMB-<n>.<knob>=<value>" of knob k at value v (v >= 1), its ambiguity id, and
 * whether it is compared in functional mode too (registry modes "func+cycle"; every knob value
 * is compared in cycle mode). */
const char *amb_witness_name(unsigned k, unsigned v);
unsigned amb_witness_amb(unsigned k, unsigned v);
int amb_in_func(unsigned k, unsigned v);
int amb_parse_name(const char *name, unsigned *k, unsigned *v);   /* 0, or -1 */
uint64_t amb_budget(const fz_prog *p, unsigned mode);
/* Run p with every knob at its default except knob k = v (k = TT_KNOB_COUNT: none). */
tt_outcome amb_run(tt_state *st, const fz_prog *p, unsigned mode, unsigned k, unsigned v);
/* The compared end state: digests of the architectural part (locations, thread progress,
 * outcome) and of the first-fault classes, and the cycle count of a finished cycle-mode run. */
typedef struct amb_end { uint64_t arch, faults, cycles; tt_outcome out; } amb_end;
void amb_end_of(tt_state *st, tt_outcome out, amb_end *e);
/* How two end states differ, strongest first: architectural state (3), only the cycle count (2:
 * behaviour, in time), only the model's fault records (1: an annotation), not at all or a run
 * hit its budget (0). */
#define AMB_LEVEL_FAULTS 1
#define AMB_LEVEL_CYCLES 2
#define AMB_LEVEL_ARCH 3
int amb_level(const amb_end *a, const amb_end *b);
const char *amb_level_name(int level);   /* "state", "fault record only", "cycle count only" */
/* The level at which p separates the default from knob k = v in `mode`. */
int amb_separates(const fz_prog *p, unsigned k, unsigned v, unsigned mode);
/* All witnesses of p: lv[k][v] = the best level over the modes compared (0: none), md[k][v] =
 * the mode it is reached in (functional mode on a tie). Returns how many knob values. */
unsigned amb_witnesses(const fz_prog *p, uint8_t lv[TT_KNOB_COUNT][AMB_MAX_VALUES],
                       uint8_t md[TT_KNOB_COUNT][AMB_MAX_VALUES]);

#endif
