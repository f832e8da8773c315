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

/// A chain link and a leaf of one event's canonical form `data` at once, with the SHA extensions (as
/// `veritrail_sha256_prefixed`): `link` = SHA-256(`hex` (64 bytes) ‖ 0x0A ‖ data), `leaf` = SHA-256(0x00 ‖ data).
/// The two run side by side and share the schedule of their common blocks (about a fifth less time than one
/// after the other).
void veritrail_sha256_link_and_leaf(const uint8_t *hex, const uint8_t *data, size_t len, uint8_t *link,
                                    uint8_t *leaf);

/// The Merkle leaf hashes (SHA-256(0x00 ‖ data), proofs.md §1) of two events' canonical forms `a` and `b` at
/// once, with the SHA extensions (as `veritrail_sha256_prefixed`), into `leaf_a` and `leaf_b` (32 bytes each):
/// their blocks run side by side, each hash filling the other's waits (about half the time a pair takes
/// one after the other).
void veritrail_sha256_two_leaves(const uint8_t *a, size_t a_len, const uint8_t *b, size_t b_len, uint8_t *leaf_a,
                                 uint8_t *leaf_b);

#endif
