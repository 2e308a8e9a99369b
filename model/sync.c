/* sync.c — Sync Unit: semaphores and mutexes.
 * References: BlackholeA0/TensixTile/TensixCoprocessor/SyncUnit.md (8 semaphores with 4-bit
 * Value/Max; mutexes 0, 2, 3, 4), SEMINIT.md, SEMPOST.md, SEMGET.md, ATGETM.md, ATRELM.md.
 * Facts modelled: SEMPOST saturates at 15 whatever Max is; SEMGET floors at 0; SEMINIT does
 * not clamp Value to Max; an index outside {0,2,3,4} makes ATGETM/ATRELM wait forever; a
 * release by thread i while both other threads wait hands the mutex to (i+1)%3; ATRELM by a
 * non-owner completes with no effect. */
#include "internal.h"

int tt_mutex_slot_valid(uint32_t index) {
  if (TT_DEFECT(MUTEX1_VALID) && index == 1) return 1;
  return index == 0 || index == 2 || index == 3 || index == 4;
}

/* mutex_indices=wh (AMB-24): WormholeB0's mutexes 0, 2..7 exist. */
int tt_mutex_exists(const tt_state *st, uint32_t index) {
  if (TT_KNOB_IS(st, MUTEX_INDICES, 1) && index >= 5 && index < TT_MUTEX_SLOTS) return 1;
  return tt_mutex_slot_valid(index);
}

/* field_width=llk (AMB-29): tt-llk's 24-bit mutex index. */
uint32_t tt_mutex_index(const tt_state *st, const tt_insn *in) {
  uint32_t i = in->form == TT_FORM_ATGETM ? TT_ARG(in, ATGETM, mutex_index) : TT_ARG(in, ATRELM, mutex_index);
  return TT_KNOB_IS(st, FIELD_WIDTH, 1) ? in->word & 0xFFFFFFu : i;
}

tt_exec_result tt_exec_SEMINIT(tt_state *st, unsigned t, uint32_t w) {
  TT_EXEC_ARGS(SEMINIT);
  (void)t;
  for (unsigned i = 0; i < TT_SEM_COUNT; i++) {
    if (!(a->sem_mask & (1u << i))) continue;
    st->c.sem_value[i] = (uint8_t)a->new_value;
    if (TT_DEFECT(SEMINIT_CLAMPS) && a->new_value > a->new_max) st->c.sem_value[i] = (uint8_t)a->new_max;
    st->c.sem_max[i] = (uint8_t)a->new_max;
  }
  return TT_EXEC_DONE;
}

tt_exec_result tt_exec_SEMPOST(tt_state *st, unsigned t, uint32_t w) {
  TT_EXEC_ARGS(SEMPOST);
  (void)t;
  for (unsigned i = 0; i < TT_SEM_COUNT; i++) {
    if (!(a->sem_mask & (1u << i))) continue;
    uint8_t limit = TT_DEFECT(SEMPOST_HONORS_MAX) ? st->c.sem_max[i] : 15;
    if (st->c.sem_value[i] < limit || TT_DEFECT(SEM_NO_SATURATE)) st->c.sem_value[i]++;
  }
  return TT_EXEC_DONE;
}

tt_exec_result tt_exec_SEMGET(tt_state *st, unsigned t, uint32_t w) {
  TT_EXEC_ARGS(SEMGET);
  (void)t;
  for (unsigned i = 0; i < TT_SEM_COUNT; i++)
    if ((a->sem_mask & (1u << i)) && (st->c.sem_value[i] > 0 || TT_DEFECT(SEMGET_WRAPS)))
      st->c.sem_value[i]--;
  return TT_EXEC_DONE;
}

/* Is thread u parked at its gate on ATGETM of mutex `index`? */
static int waits_for_mutex(const tt_state *st, unsigned u, uint32_t index) {
  const tt_thread *th = &st->c.thr[u];
  if (th->pc >= th->len || th->wait_kind != TT_WAIT_MUTEX) return 0;
  tt_insn in;
  tt_decode(st->prog[u][th->pc], &in);
  return in.form == TT_FORM_ATGETM && tt_mutex_index(st, &in) == index;
}

/* Gate reasons of the Sync Unit: 0 when the instruction may issue, else a tt_wait_kind. */
unsigned tt_sync_gate(const tt_state *st, unsigned t, const tt_insn *in) {
  if (in->form != TT_FORM_ATGETM && in->form != TT_FORM_ATRELM) return TT_WAIT_NONE;
  uint32_t index = tt_mutex_index(st, in);
  if (!tt_mutex_exists(st, index)) return TT_WAIT_MUTEX_INVALID;
  if (in->form == TT_FORM_ATRELM) return TT_WAIT_NONE;
  uint8_t holder = st->c.mutex[index], handoff = st->c.mutex_handoff[index];
  if (holder != 0 && holder != 1 + t) return TT_WAIT_MUTEX;
  if (holder == 0 && handoff != 0 && handoff != 1 + t) return TT_WAIT_MUTEX;
  return TT_WAIT_NONE;
}

tt_exec_result tt_exec_ATGETM(tt_state *st, unsigned t, uint32_t w) {
  TT_EXEC_ARGS(ATGETM);
  uint32_t i = (TT_KNOB_IS(st, FIELD_WIDTH, 1) ? a->word & 0xFFFFFFu : a->mutex_index) % TT_MUTEX_SLOTS;
  st->c.mutex[i] = (uint8_t)(1 + t);
  st->c.mutex_handoff[i] = 0;
  return TT_EXEC_DONE;
}

tt_exec_result tt_exec_ATRELM(tt_state *st, unsigned t, uint32_t w) {
  TT_EXEC_ARGS(ATRELM);
  uint32_t i = (TT_KNOB_IS(st, FIELD_WIDTH, 1) ? a->word & 0xFFFFFFu : a->mutex_index) % TT_MUTEX_SLOTS;
  if (st->c.mutex[i] != 1 + t && !TT_DEFECT(ATRELM_NONOWNER))
    return TT_EXEC_DONE;  /* not the owner: no state change */
  st->c.mutex[i] = 0;
  unsigned next = (t + 1) % TT_THREAD_COUNT, other = (t + 2) % TT_THREAD_COUNT;
  if (waits_for_mutex(st, next, i) && waits_for_mutex(st, other, i))
    st->c.mutex_handoff[i] = (uint8_t)(1 + (TT_DEFECT(MUTEX_NO_FAIRNESS) ? other : next));
  return TT_EXEC_DONE;
}
