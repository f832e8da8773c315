#!/usr/bin/env python3
"""RFC 6962 §2.1, written from the RFC's definitions alone, for the tests of Veritrail's tree (Tests/ProofTests).

    python3 scripts/merkle_oracle.py MAX

For the leaves d(i) = b"leaf " + str(i) and every size n from 0 to MAX, prints
    root N HEX                        MTH(D[0:n])
    path N M HEX,HEX,…                PATH(m, D[0:n]) for every leaf m < n
    cons N OLD HEX,HEX,…              PROOF(old, D[0:n]) for every 0 < old < n
with the hashes of a list in the RFC's order (an empty list prints nothing after the last space).
Standard library only; the recursion is the RFC's, memoised on the range.
"""
import functools
import hashlib
import sys


def leaf_data(i):
    return b"leaf " + str(i).encode()


@functools.lru_cache(maxsize=None)
def mth(lo, hi):
    """MTH(D[lo:hi])."""
    n = hi - lo
    if n == 0:
        return hashlib.sha256(b"").digest()
    if n == 1:
        return hashlib.sha256(b"\x00" + leaf_data(lo)).digest()
    k = largest_power_of_two_below(n)
    return hashlib.sha256(b"\x01" + mth(lo, lo + k) + mth(lo + k, hi)).digest()


def largest_power_of_two_below(n):
    k = 1
    while k * 2 < n:
        k *= 2
    return k


def path(m, lo, hi):
    """PATH(m, D[lo:hi]), m relative to lo."""
    n = hi - lo
    if n == 1:
        return []
    k = largest_power_of_two_below(n)
    if m < k:
        return path(m, lo, lo + k) + [mth(lo + k, hi)]
    return path(m - k, lo + k, hi) + [mth(lo, lo + k)]


def subproof(m, lo, hi, b):
    """SUBPROOF(m, D[lo:hi], b)."""
    n = hi - lo
    if m == n:
        return [] if b else [mth(lo, hi)]
    k = largest_power_of_two_below(n)
    if m <= k:
        return subproof(m, lo, lo + k, b) + [mth(lo + k, hi)]
    return subproof(m - k, lo + k, hi, False) + [mth(lo, lo + k)]


def main():
    top = int(sys.argv[1])
    out = sys.stdout
    for n in range(top + 1):
        out.write(f"root {n} {mth(0, n).hex()}\n")
        for m in range(n):
            out.write(f"path {n} {m} {','.join(h.hex() for h in path(m, 0, n))}\n")
        for old in range(1, n):
            out.write(f"cons {n} {old} {','.join(h.hex() for h in subproof(old, 0, n, True))}\n")


if __name__ == "__main__":
    main()
