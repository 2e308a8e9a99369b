/* empty.c — the baseline of `make bench`: a target that does nothing with its input, linked
 * with the same model library and the same feeder as the real targets. */
#include <stddef.h>
#include <stdint.h>
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  (void)data; (void)size;
  return 0;
}
