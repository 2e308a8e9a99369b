/* chars.h — character classes of the model's text code (asm.c, vec.c, listing.c, loc.c,
 * isa.c), from one table (text.c). A class test is one load and a mask: no chain of
 * comparisons per character, which is also what a fuzzer's comparison tracing would record.
 * Also the bounded text output of the describers (text.c). Not part of the public API. */
#ifndef TT_CHARS_H
#define TT_CHARS_H
#include <stddef.h>
#include <stdint.h>

enum {
  TT_CH_SPACE = 1,    /* ' ', \t, \r, \v, \f (not \n: the line parsers are given lines) */
  TT_CH_NEWLINE = 2,  /* \n */
  TT_CH_DIGIT = 4,    /* 0-9 */
  TT_CH_LOWER = 8,    /* a-z */
  TT_CH_UPPER = 16,   /* A-Z */
  TT_CH_UNDER = 32    /* _ */
};
extern const uint8_t tt_ch_class[256];
extern const int8_t tt_ch_hex[256];  /* a hex digit's value 0..15, else -1 */

static inline int tt_ch_is(char c, unsigned cls) { return (tt_ch_class[(unsigned char)c] & cls) != 0; }
static inline int tt_ch_space(char c) { return tt_ch_is(c, TT_CH_SPACE); }
static inline int tt_ch_ws(char c) { return tt_ch_is(c, TT_CH_SPACE | TT_CH_NEWLINE); }
static inline int tt_ch_digit(char c) { return tt_ch_is(c, TT_CH_DIGIT); }
/* letters and '_' (an identifier's first character) */
static inline int tt_ch_alpha(char c) { return tt_ch_is(c, TT_CH_LOWER | TT_CH_UPPER | TT_CH_UNDER); }
/* letters, digits and '_' */
static inline int tt_ch_word(char c) { return tt_ch_is(c, TT_CH_LOWER | TT_CH_UPPER | TT_CH_UNDER | TT_CH_DIGIT); }
static inline char tt_ch_upper(char c) { return tt_ch_is(c, TT_CH_LOWER) ? (char)(c - 32) : c; }
static inline char tt_ch_lower(char c) { return tt_ch_is(c, TT_CH_UPPER) ? (char)(c + 32) : c; }
static inline int tt_ch_hexval(char c) { return tt_ch_hex[(unsigned char)c]; }

/* Bounded text output (text.c): writes at most n-1 chars, counts the full length. */
typedef struct tt_text { char *buf; size_t n, len; } tt_text;
void tt_put(tt_text *o, const char *s);
void tt_put_dec(tt_text *o, uint32_t v);
void tt_put_hex(tt_text *o, uint32_t v);
size_t tt_text_end(tt_text *o);  /* NUL-terminates; returns the full length */
#endif
