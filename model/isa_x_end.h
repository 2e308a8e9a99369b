/* isa_x_end.h — undefine the isa.def row macros after an expansion (see isa_x.h). */
#undef TT_MNEM
#undef TT_FORM
#undef TT_FIELD
#undef TT_END
#undef TT_LLK
