/* vec_sb.h — the bounded string builder shared by the .vec parser (vec.c) and checker
 * (vec_run.c). Internal to the model; no stdio, no allocation. */
#ifndef TT_VEC_SB_H
#define TT_VEC_SB_H
#include <stddef.h>
#include <stdint.h>
#include <string.h>
/* ---- bounded string builder ---------------------------------------------------------------- */
typedef struct sb { char *buf; size_t n, len; } sb;

static inline void sb_init(sb *s, char *buf, size_t n) {
  s->buf = buf;
  s->n = n;
  s->len = 0;
  if (n) buf[0] = 0;
}
static inline void sb_mem(sb *s, const char *p, size_t k) {
  for (size_t i = 0; i < k; i++, s->len++)
    if (s->len + 1 < s->n) s->buf[s->len] = p[i];
  if (s->n) s->buf[s->len < s->n ? s->len : s->n - 1] = 0;
}
static inline void sb_str(sb *s, const char *p) { sb_mem(s, p, strlen(p)); }
static inline void sb_chr(sb *s, char c) { sb_mem(s, &c, 1); }
static inline void sb_dec(sb *s, uint64_t v) {
  char tmp[24];
  int i = 23;
  tmp[i] = 0;
  do { tmp[--i] = (char)('0' + v % 10); v /= 10; } while (v && i > 0);
  sb_str(s, &tmp[i]);
}
static inline void sb_hex(sb *s, uint64_t v, unsigned min_digits) {
  char tmp[20];
  unsigned n = 1;
  while (n < 16 && (v >> (4 * n))) n++;
  if (min_digits > 16) min_digits = 16;
  if (n < min_digits) n = min_digits;
  tmp[0] = '0';
  tmp[1] = 'x';
  for (unsigned i = 0; i < n; i++) {
    unsigned d = (unsigned)(v >> (4 * (n - 1 - i))) & 15u;
    tmp[2 + i] = (char)(d < 10 ? '0' + d : 'A' + d - 10);
  }
  tmp[2 + n] = 0;
  sb_str(s, tmp);
}
/* Quote at most 40 bytes of user text, replacing non-printable bytes by '?'. */
static inline void sb_quote(sb *s, const char *p, size_t k) {
  sb_chr(s, '\'');
  for (size_t i = 0; i < k && i < 40; i++) {
    unsigned char c = (unsigned char)p[i];
    sb_chr(s, (c >= 0x20 && c < 0x7F) ? (char)c : '?');
  }
  if (k > 40) sb_str(s, "...");
  sb_chr(s, '\'');
}

#endif
