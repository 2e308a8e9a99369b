/* defects.h — planted-defect switch (see defects.def). Build with -DTT_PLANTED=TT_DEF_<ID>
 * to compile one deliberate bug in; TT_DEFECT(X) is a constant 0 otherwise. */
#ifndef TT_DEFECTS_H
#define TT_DEFECTS_H
#define TT_DEF(ID, unit, text) TT_DEF_##ID,
enum tt_defect_id { TT_DEF_NONE,
#include "defects.def"
                    TT_DEF_COUNT };
#undef TT_DEF
#ifndef TT_PLANTED
#define TT_PLANTED TT_DEF_NONE
#endif
#define TT_DEFECT(ID) (TT_PLANTED == TT_DEF_##ID)
#endif
