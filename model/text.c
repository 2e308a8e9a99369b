/* text.c — tiny allocation-free text output used by the model's describers and formatters. */
#include "internal.h"

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
