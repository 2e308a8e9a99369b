/* text.c — tiny allocation-free text output used by the model's describers and formatters, and
 * the character-class tables (chars.h). A leaf: it uses no other model file. */
#include "chars.h"

void tt_put(tt_text *o, const char *s) {
  for (; *s; s++, o->len++)
    if (o->len + 1 < o->n) o->buf[o->len] = *s;
}

void tt_put_dec(tt_text *o, uint32_t v) {
  char tmp[12];
  int i = 11;
  tmp[i] = 0;
  do { tmp[--i] = (char)('0' + v % 10); v /= 10; } while (v && i > 0);
  tt_put(o, &tmp[i]);
}

void tt_put_hex(tt_text *o, uint32_t v) {
  char tmp[11] = "0x";
  int n = 1;
  while (n < 8 && (v >> (4 * n))) n++;
  for (int i = 0; i < n; i++) {
    unsigned d = (v >> (4 * (n - 1 - i))) & 15;
    tmp[2 + i] = (char)(d < 10 ? '0' + d : 'A' + d - 10);
  }
  tmp[2 + n] = 0;
  tt_put(o, tmp);
}

size_t tt_text_end(tt_text *o) {
  if (o->n) o->buf[o->len < o->n ? o->len : o->n - 1] = 0;
  return o->len;
}

/* ---- character classes (chars.h): each entry a constant expression of its index ------------ */
#define TT_CH_OF(c)                                                                            \
  ((c) == ' ' || (c) == '\t' || (c) == '\r' || (c) == '\v' || (c) == '\f' ? TT_CH_SPACE      \
   : (c) == '\n'                ? TT_CH_NEWLINE                                                \
   : (c) >= '0' && (c) <= '9'   ? TT_CH_DIGIT                                                  \
   : (c) >= 'a' && (c) <= 'z'   ? TT_CH_LOWER                                                  \
   : (c) >= 'A' && (c) <= 'Z'   ? TT_CH_UPPER                                                  \
   : (c) == '_'                 ? TT_CH_UNDER : 0)
#define TT_HEX_OF(c)                                                                           \
  ((c) >= '0' && (c) <= '9' ? (c) - '0' : (c) >= 'a' && (c) <= 'f' ? (c) - 'a' + 10           \
   : (c) >= 'A' && (c) <= 'F' ? (c) - 'A' + 10 : -1)
#define TT_R4(M, b) M(b), M((b) + 1), M((b) + 2), M((b) + 3)
#define TT_R16(M, b) TT_R4(M, b), TT_R4(M, (b) + 4), TT_R4(M, (b) + 8), TT_R4(M, (b) + 12)
#define TT_R64(M, b) TT_R16(M, b), TT_R16(M, (b) + 16), TT_R16(M, (b) + 32), TT_R16(M, (b) + 48)
#define TT_R256(M) TT_R64(M, 0), TT_R64(M, 64), TT_R64(M, 128), TT_R64(M, 192)
const uint8_t tt_ch_class[256] = {TT_R256(TT_CH_OF)};
const int8_t tt_ch_hex[256] = {TT_R256(TT_HEX_OF)};
