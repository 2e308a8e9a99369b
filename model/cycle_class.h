/* cycle_class.h — cycle mode's view of a form (cycle.c only): the scheduler rules a form is
 * subject to, as bits of one table entry built at compile time from isa.def and the rules below.
 * Not part of the public API; layer 4 (schedulers) like cycle.c. */
#ifndef TT_CYCLE_CLASS_H
#define TT_CYCLE_CLASS_H
#include "internal.h"

/* ---- what the scheduler asks of a form, in one table load (from isa.def and the rules below) -- */
enum {
  CL_THCON = 1u << 0,      /* a Scalar Unit (ThCon) instruction: its mnemonic's unit in isa.def */
  CL_SYNC = 1u << 1,       /* takes the shared Sync slot (is_sync_slot) */
  CL_MUTEX = 1u << 2,      /* ATGETM, ATRELM */
  CL_WB = 1u << 3,         /* queues an asynchronous GPR write-back (produces_writeback) */
  CL_CFG = 1u << 4,        /* enters the Config pipeline (tt_cfgp_first_stage <= 0) */
  CL_FOREIGN = 1u << 5,    /* a unit outside the model */
  CL_REG2FLOP = 1u << 6,
  CL_CFG_WRITE = 1u << 7,  /* WRCFG, CFGSHIFTMASK, RMWCIB: cfg_write_next */
  CL_SETC16 = 1u << 8,
  CL_STORE = 1u << 9,      /* a store counted for C0 under c0_stores=yes */
  CL_WAIT = 1u << 10,      /* may write its thread's latch (STALLWAIT, SEMWAIT, STREAMWAIT, FLUSHDMA) */
};
/* The forms gate_check has a rule for beyond ThCon occupancy and the latch. */
#define CL_GATE (CL_THCON | CL_SYNC | CL_MUTEX | CL_WB | CL_CFG | CL_FOREIGN | CL_REG2FLOP)
#define CL_ISSUE (CL_CFG_WRITE | CL_SETC16 | CL_CFG | CL_THCON | CL_FOREIGN)
#define TT_MNEM(ID, op, unit, block) enum { CY_UNIT_##ID = (unit) };
#include "isa_x.h"
#include "isa.def"
#include "isa_x_end.h"
#define CL_IF(c, bit) ((c) ? (bit) : 0u)
#define CL_OF(f)                                                                                    \
  (CL_IF((f) == TT_FORM_SEMINIT || (f) == TT_FORM_SEMPOST || (f) == TT_FORM_SEMGET ||              \
             (f) == TT_FORM_STALLWAIT || (f) == TT_FORM_SEMWAIT || (f) == TT_FORM_STREAMWAIT,       \
         CL_SYNC) |                                                                                 \
   CL_IF((f) == TT_FORM_ATGETM || (f) == TT_FORM_ATRELM, CL_MUTEX) |                                \
   CL_IF((f) == TT_FORM_LOADIND || (f) == TT_FORM_LOADREG || (f) == TT_FORM_ATINCGET ||             \
             (f) == TT_FORM_RDCFG, CL_WB) |                                                         \
   CL_IF((f) == TT_FORM_STREAMWRCFG || (f) == TT_FORM_WRCFG || (f) == TT_FORM_CFGSHIFTMASK ||       \
             (f) == TT_FORM_RDCFG || ((f) >= TT_FORM_RMWCIB0 && (f) <= TT_FORM_RMWCIB3), CL_CFG) |  \
   CL_IF((f) == TT_FORM_REG2FLOP, CL_REG2FLOP) |                                                    \
   CL_IF((f) == TT_FORM_WRCFG || (f) == TT_FORM_CFGSHIFTMASK ||                                     \
             ((f) >= TT_FORM_RMWCIB0 && (f) <= TT_FORM_RMWCIB3), CL_CFG_WRITE) |                    \
   CL_IF((f) == TT_FORM_SETC16, CL_SETC16) |                                                        \
   CL_IF((f) == TT_FORM_STOREIND_L1 || (f) == TT_FORM_STOREIND_MMIO ||                              \
             (f) == TT_FORM_STOREIND_SRC || (f) == TT_FORM_STOREREG || (f) == TT_FORM_ATSWAP,       \
         CL_STORE) |                                                                                \
   CL_IF((f) == TT_FORM_STALLWAIT || (f) == TT_FORM_SEMWAIT || (f) == TT_FORM_STREAMWAIT ||         \
             (f) == TT_FORM_FLUSHDMA, CL_WAIT))
static const uint16_t form_class[TT_FORM_COUNT] = {
#define TT_FORM(ID, mn, dm, dv)                                              \
  [TT_FORM_##ID] = (uint16_t)(CL_IF((int)CY_UNIT_##mn == (int)TT_UNIT_THCON, CL_THCON) | \
                              CL_OF(TT_FORM_##ID)),
#include "isa_x.h"
#include "isa.def"
#include "isa_x_end.h"
  [TT_FORM_FOREIGN] = CL_FOREIGN, [TT_FORM_UNDEFINED] = 0};
#undef CL_OF
#undef CL_IF
static inline unsigned cls(const tt_insn *in) { return form_class[in->form]; }

#endif
