"""Drops FILE from the page cache and reads it back as 4 KiB folios, as a store's own writes leave it cached.

    python3 scripts/bench_serve/small_folios.py FILE

Why: `cp` caches the copy it writes in large folios (2 MB here), and a large folio is written back whole once
any page of it is dirty. A served store's commit dirties pages across the file, so a server on a fresh copy
wrote 3.5–8 MB a commit of about 30 scans, against 0.3–0.7 MB on the same copy read back (docs/SERVER.md, "Scans
left out of the search index, and the store's folios"). Read back through a map with random access advice, the
kernel caches order-0 folios; `MADV_WILLNEED` over 16 MiB at a time reads ahead all the same.
"""
import mmap
import os
import sys

fd = os.open(sys.argv[1], os.O_RDONLY)
os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
size = os.fstat(fd).st_size
view = mmap.mmap(fd, size, prot=mmap.PROT_READ)
view.madvise(mmap.MADV_RANDOM)
window = 16 << 20
for start in range(0, size, window):
    count = min(window, size - start)
    view.madvise(mmap.MADV_WILLNEED, start, count)
    for page in range(start, start + count, 4096):
        view[page]
