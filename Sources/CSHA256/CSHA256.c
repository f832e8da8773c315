// SHA-256 (FIPS 180-4) with the x86-64 SHA extensions, for `log verify`, which hashes every event three times
// (its chain link, its leaf, a node of the tree on average): called straight from Swift, with no hasher object
// made and freed for each hash (what swift-crypto's `SHA256` costs, about a third of the hashing's time).
// Callers check `veritrail_sha256_ni_available()` first and use swift-crypto otherwise.
#include "CSHA256.h"
#include <string.h>

#if defined(__x86_64__)
#include <immintrin.h>

int veritrail_sha256_ni_available(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("sha") && __builtin_cpu_supports("sse4.1");
}

static const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

#define SHA_TARGET __attribute__((target("sha,sse4.1,ssse3")))

/// The state in the two registers the SHA instructions use: ABEF and CDGH.
typedef struct { __m128i abef, cdgh; } State;

/// Compresses `blocks` 64-byte blocks at `p` into the state.
SHA_TARGET static void compress(State *state, const uint8_t *p, size_t blocks) {
    const __m128i order = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
    __m128i s0 = state->abef, s1 = state->cdgh;
    while (blocks--) {
        const __m128i a0 = s0, a1 = s1;
        __m128i m[4];
#pragma clang loop unroll(full)
        for (int i = 0; i < 4; i++) m[i] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 16 * i)), order);
#pragma clang loop unroll(full)
        for (int r = 0; r < 16; r++) {
            __m128i w = _mm_add_epi32(m[r & 3], _mm_loadu_si128((const __m128i *)&K[4 * r]));
            s1 = _mm_sha256rnds2_epu32(s1, s0, w);
            s0 = _mm_sha256rnds2_epu32(s0, s1, _mm_shuffle_epi32(w, 0x0E));
            if (r < 12) {
                // The message schedule: words 16 + 4r … 19 + 4r replace the group used four groups ago.
                __m128i next = _mm_sha256msg1_epu32(m[r & 3], m[(r + 1) & 3]);
                next = _mm_add_epi32(next, _mm_alignr_epi8(m[(r + 3) & 3], m[(r + 2) & 3], 4));
                m[r & 3] = _mm_sha256msg2_epu32(next, m[(r + 3) & 3]);
            }
        }
        s0 = _mm_add_epi32(s0, a0);
        s1 = _mm_add_epi32(s1, a1);
        p += 64;
    }
    state->abef = s0;
    state->cdgh = s1;
}

/// Compresses `blocks` blocks into two states side by side (the SHA instructions of one hash wait on each
/// other; two hashes fill those waits): those at `pa` into `a`, those at `pb` into `b`. With `same` (and
/// `pa == pb`) the blocks are one message's, whose schedule is made once.
SHA_TARGET static inline __attribute__((always_inline)) void compress2(State *a, State *b, const uint8_t *pa, const uint8_t *pb,
                                                                     size_t blocks, int same) {
    const __m128i order = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
    __m128i a0 = a->abef, a1 = a->cdgh, b0 = b->abef, b1 = b->cdgh;
    while (blocks--) {
        const __m128i sa0 = a0, sa1 = a1, sb0 = b0, sb1 = b1;
        __m128i m[4], n[4];
#pragma clang loop unroll(full)
        for (int i = 0; i < 4; i++) {
            m[i] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(pa + 16 * i)), order);
            n[i] = same ? m[i] : _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(pb + 16 * i)), order);
        }
#pragma clang loop unroll(full)
        for (int r = 0; r < 16; r++) {
            const __m128i k = _mm_loadu_si128((const __m128i *)&K[4 * r]);
            __m128i wa = _mm_add_epi32(m[r & 3], k), wb = same ? wa : _mm_add_epi32(n[r & 3], k);
            a1 = _mm_sha256rnds2_epu32(a1, a0, wa);
            b1 = _mm_sha256rnds2_epu32(b1, b0, wb);
            a0 = _mm_sha256rnds2_epu32(a0, a1, _mm_shuffle_epi32(wa, 0x0E));
            b0 = _mm_sha256rnds2_epu32(b0, b1, _mm_shuffle_epi32(wb, 0x0E));
            if (r < 12) {
                __m128i x = _mm_sha256msg1_epu32(m[r & 3], m[(r + 1) & 3]);
                x = _mm_add_epi32(x, _mm_alignr_epi8(m[(r + 3) & 3], m[(r + 2) & 3], 4));
                m[r & 3] = _mm_sha256msg2_epu32(x, m[(r + 3) & 3]);
                if (!same) {
                    __m128i y = _mm_sha256msg1_epu32(n[r & 3], n[(r + 1) & 3]);
                    y = _mm_add_epi32(y, _mm_alignr_epi8(n[(r + 3) & 3], n[(r + 2) & 3], 4));
                    n[r & 3] = _mm_sha256msg2_epu32(y, n[(r + 3) & 3]);
                }
            }
        }
        a0 = _mm_add_epi32(a0, sa0), a1 = _mm_add_epi32(a1, sa1);
        b0 = _mm_add_epi32(b0, sb0), b1 = _mm_add_epi32(b1, sb1);
        pa += 64, pb += 64;
    }
    a->abef = a0, a->cdgh = a1, b->abef = b0, b->cdgh = b1;
}

SHA_TARGET static void compress_two(State *a, State *b, const uint8_t *pa, const uint8_t *pb, size_t blocks) {
    compress2(a, b, pa, pb, blocks, 0);
}

SHA_TARGET static void compress_same(State *a, State *b, const uint8_t *p, size_t blocks) { compress2(a, b, p, p, blocks, 1); }

SHA_TARGET static State initial(void) {
    static const uint32_t h[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                  0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    __m128i t = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&h[0]), 0xB1);
    __m128i s1 = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&h[4]), 0x1B);
    State state = {_mm_alignr_epi8(t, s1, 8), _mm_blend_epi16(s1, t, 0xF0)};
    return state;
}

SHA_TARGET static void store(const State *state, uint8_t *out) {
    __m128i t = _mm_shuffle_epi32(state->abef, 0x1B), s1 = _mm_shuffle_epi32(state->cdgh, 0xB1);
    const __m128i swap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
    _mm_storeu_si128((__m128i *)out, _mm_shuffle_epi8(_mm_blend_epi16(t, s1, 0xF0), swap));
    _mm_storeu_si128((__m128i *)(out + 16), _mm_shuffle_epi8(_mm_alignr_epi8(s1, t, 8), swap));
}

SHA_TARGET void veritrail_sha256_prefixed(const uint8_t *prefix, size_t prefix_len, const uint8_t *data, size_t len,
                                          uint8_t *out) {
    State state = initial();
    uint8_t buffer[128];
    size_t used = 0;
    const uint64_t bits = (uint64_t)(prefix_len + len) * 8;
    // The prefix, then as much of the data as fills its last block; then the data's whole blocks in place.
    while (prefix_len > 0) {
        size_t n = prefix_len < 64 - used ? prefix_len : 64 - used;
        memcpy(buffer + used, prefix, n);
        used += n, prefix += n, prefix_len -= n;
        if (used == 64) { compress(&state, buffer, 1); used = 0; }
    }
    if (used > 0) {
        size_t n = len < 64 - used ? len : 64 - used;
        if (n > 0) memcpy(buffer + used, data, n);
        used += n, data += n, len -= n;
        if (used == 64) { compress(&state, buffer, 1); used = 0; }
    }
    if (len >= 64) {
        compress(&state, data, len / 64);
        data += len - len % 64;
        len %= 64;
    }
    if (len > 0) { memcpy(buffer + used, data, len); used += len; }
    // The padding: 0x80, zeros, the length in bits (big-endian) at the end of the last block.
    buffer[used++] = 0x80;
    size_t total = used + 8 <= 64 ? 64 : 128;
    memset(buffer + used, 0, total - used);
    for (int i = 0; i < 8; i++) buffer[total - 1 - i] = (uint8_t)(bits >> (8 * i));
    compress(&state, buffer, total / 64);
    store(&state, out);
}

SHA_TARGET void veritrail_sha256_link_and_leaf(const uint8_t *hex, const uint8_t *data, size_t len, uint8_t *link,
                                               uint8_t *leaf) {
    State a = initial(), b = initial();
    // The link's first block is the hex alone. After it both messages are a byte (0x0A, 0x00), the data and
    // padding of one length: their blocks differ only in that byte and in the length at the end.
    compress(&a, hex, 1);
    size_t whole = (1 + len) / 64;
    uint8_t ba[128], bb[128];
    if (whole > 0) {
        ba[0] = 0x0A, bb[0] = 0x00;
        memcpy(ba + 1, data, 63);
        memcpy(bb + 1, data, 63);
        compress_two(&a, &b, ba, bb, 1);
        if (whole > 1) compress_same(&a, &b, data + 63, whole - 1);
    }
    size_t used = 0;
    if (whole == 0) ba[0] = 0x0A, bb[0] = 0x00, used = 1;
    size_t from = whole == 0 ? 0 : 64 * whole - 1, rest = len - from;
    if (rest > 0) {
        memcpy(ba + used, data + from, rest);
        memcpy(bb + used, data + from, rest);
    }
    used += rest;
    ba[used] = 0x80, bb[used] = 0x80, used++;
    size_t total = used + 8 <= 64 ? 64 : 128;
    memset(ba + used, 0, total - used);
    memset(bb + used, 0, total - used);
    const uint64_t bitsA = (uint64_t)(65 + len) * 8, bitsB = (uint64_t)(1 + len) * 8;
    for (int i = 0; i < 8; i++) {
        ba[total - 1 - i] = (uint8_t)(bitsA >> (8 * i));
        bb[total - 1 - i] = (uint8_t)(bitsB >> (8 * i));
    }
    compress_two(&a, &b, ba, bb, total / 64);
    store(&a, link);
    store(&b, leaf);
}

/// The message 0x00 ‖ data of a Merkle leaf (proofs.md §1), block by block: its first block (the byte and 63
/// bytes of data) and its tail (the data after the whole blocks, and the padding) made in buffers, the whole
/// blocks between read in place.
typedef struct {
    const uint8_t *data;
    size_t whole, blocks;
    uint8_t first[64], tail[128];
} LeafMessage;

static void leaf_message(LeafMessage *m, const uint8_t *data, size_t len) {
    const size_t total = len + 1;
    m->data = data;
    m->whole = total / 64;
    size_t used = 0, from = 0;
    if (m->whole > 0) {
        m->first[0] = 0x00;
        memcpy(m->first + 1, data, 63);
        from = 64 * m->whole - 1;
    } else {
        m->tail[0] = 0x00;
        used = 1;
    }
    if (len > from) memcpy(m->tail + used, data + from, len - from);
    used += len - from;
    m->tail[used++] = 0x80;
    const size_t tail = used + 8 <= 64 ? 64 : 128;
    memset(m->tail + used, 0, tail - used);
    const uint64_t bits = (uint64_t)total * 8;
    for (int i = 0; i < 8; i++) m->tail[tail - 1 - i] = (uint8_t)(bits >> (8 * i));
    m->blocks = m->whole + tail / 64;
}

static const uint8_t *leaf_block(const LeafMessage *m, size_t k) {
    if (k >= m->whole) return m->tail + 64 * (k - m->whole);
    return k == 0 ? m->first : m->data + 64 * k - 1;
}

SHA_TARGET void veritrail_sha256_two_leaves(const uint8_t *a, size_t a_len, const uint8_t *b, size_t b_len,
                                            uint8_t *leaf_a, uint8_t *leaf_b) {
    LeafMessage ma, mb;
    leaf_message(&ma, a, a_len);
    leaf_message(&mb, b, b_len);
    State sa = initial(), sb = initial();
    const size_t both = ma.blocks < mb.blocks ? ma.blocks : mb.blocks;
    for (size_t k = 0; k < both; k++) compress_two(&sa, &sb, leaf_block(&ma, k), leaf_block(&mb, k), 1);
    for (size_t k = both; k < ma.blocks; k++) compress(&sa, leaf_block(&ma, k), 1);
    for (size_t k = both; k < mb.blocks; k++) compress(&sb, leaf_block(&mb, k), 1);
    store(&sa, leaf_a);
    store(&sb, leaf_b);
}

#else

int veritrail_sha256_ni_available(void) { return 0; }

void veritrail_sha256_prefixed(const uint8_t *prefix, size_t prefix_len, const uint8_t *data, size_t len,
                               uint8_t *out) {
    (void)prefix, (void)prefix_len, (void)data, (void)len;
    memset(out, 0, 32);
}

void veritrail_sha256_link_and_leaf(const uint8_t *hex, const uint8_t *data, size_t len, uint8_t *link,
                                    uint8_t *leaf) {
    (void)hex, (void)data, (void)len;
    memset(link, 0, 32);
    memset(leaf, 0, 32);
}

void veritrail_sha256_two_leaves(const uint8_t *a, size_t a_len, const uint8_t *b, size_t b_len, uint8_t *leaf_a,
                                 uint8_t *leaf_b) {
    (void)a, (void)a_len, (void)b, (void)b_len;
    memset(leaf_a, 0, 32);
    memset(leaf_b, 0, 32);
}

#endif
