#ifndef VERITRAIL_CSHA256_H
#define VERITRAIL_CSHA256_H

#include <stddef.h>
#include <stdint.h>

/// Whether this CPU has the SHA extensions (x86-64 SHA-NI) that `veritrail_sha256_prefixed` needs.
int veritrail_sha256_ni_available(void);

/// SHA-256 of `prefix` (`prefix_len` bytes) followed by `data` (`len` bytes), into `out` (32 bytes), with the
/// SHA extensions: only when `veritrail_sha256_ni_available()`.
void veritrail_sha256_prefixed(const uint8_t *prefix, size_t prefix_len, const uint8_t *data, size_t len,
                               uint8_t *out);

#endif
