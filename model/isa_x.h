/* isa_x.h — empty defaults for the isa.def row macros. Use as
 *     #define TT_FORM(...) ...            (only the rows you need)
 *     #include "isa_x.h"
 *     #include "isa.def"
 *     #include "isa_x_end.h"              (undefines all five row macros)
 * Deliberately no include guard. */
#ifndef TT_MNEM
#define TT_MNEM(ID, opcode, unit, block)
#endif
#ifndef TT_FORM
#define TT_FORM(ID, mnem, disc_mask, disc_value)
#endif
#ifndef TT_FIELD
#define TT_FIELD(FORM, name, lsb, width, kind, alias)
#endif
#ifndef TT_END
#define TT_END(FORM)
#endif
#ifndef TT_LLK
#define TT_LLK(MNEM, name, lsb, width)
#endif
