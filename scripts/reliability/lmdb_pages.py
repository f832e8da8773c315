#!/usr/bin/env python3
"""Lists the pages of an LMDB data file by kind, for aiming flipped bytes (scripts/reliability/damage.sh).

    lmdb_pages.py DATA.MDB                    # one line per page in use: PAGENO KIND DATABASE
    lmdb_pages.py DATA.MDB --branch-keys DB   # the file offset of the last byte of each key of DB's branch pages
    lmdb_pages.py DATA.MDB --nodes DB         # one line per node of DB's pages: KIND PAGE_OFFSET NODE_OFFSET KSIZE DSIZE

KIND is meta, branch, leaf or overflow; DATABASE is the named database the page belongs to (`main` for the
one that names them, `-` for the meta pages). The walk starts at the current meta page (the larger txnid)
and follows every B-tree from its root, as LMDB 0.9 lays them out on a 64-bit machine: a 16-byte page
header (pgno, pad, flags, lower, upper), the node offsets after it, and nodes of (lo, hi, flags, ksize, key,
data); a branch node's child is lo | hi << 16 | flags << 32; a leaf node with F_BIGDATA holds the first
overflow page, with F_SUBDATA an MDB_db record (a named database).
"""
import struct
import sys

P_BRANCH, P_LEAF, P_OVERFLOW, P_LEAF2 = 0x01, 0x02, 0x04, 0x20
F_BIGDATA, F_SUBDATA = 0x01, 0x02


def main(path, branch_keys_of=None, nodes_of=None):
    data = open(path, "rb").read()
    psize = struct.unpack_from("<I", data, 40)[0]
    metas = [(struct.unpack_from("<Q", data, base + 144)[0], base) for base in (0, psize)]
    _, base = max(metas)
    pages = {0: ("meta", "-"), 1: ("meta", "-")}
    keys = []
    nodes = []
    last = struct.unpack_from("<Q", data, base + 136)[0]

    def walk(root, name):
        stack = [root]
        while stack:
            pgno = stack.pop()
            if pgno in pages or pgno > last or (pgno + 1) * psize > len(data):
                continue
            off = pgno * psize
            flags, lower = struct.unpack_from("<HH", data, off + 10)
            if flags & P_BRANCH:
                pages[pgno] = ("branch", name)
            elif flags & P_LEAF:
                pages[pgno] = ("leaf", name)
            else:
                continue
            if flags & P_LEAF2:
                continue
            for i in range((lower - 16) // 2):
                node = off + struct.unpack_from("<H", data, off + 16 + 2 * i)[0]
                lo, hi, nflags, ksize = struct.unpack_from("<HHHH", data, node)
                if name == nodes_of:
                    nodes.append(f"{pages[pgno][0]} {off} {node} {ksize} {lo | hi << 16}")
                if flags & P_BRANCH:
                    stack.append(lo | hi << 16 | nflags << 32)
                    if name == branch_keys_of and ksize > 0:
                        keys.append(node + 8 + ksize - 1)
                    continue
                key = data[node + 8:node + 8 + ksize]
                value = node + 8 + ksize
                if nflags & F_BIGDATA:
                    first = struct.unpack_from("<Q", data, value)[0]
                    count = struct.unpack_from("<I", data, first * psize + 12)[0] if (first + 1) * psize <= len(data) else 1
                    for p in range(first, first + max(count, 1)):
                        pages.setdefault(p, ("overflow", name))
                elif nflags & F_SUBDATA and name == "main":
                    sub_root = struct.unpack_from("<Q", data, value + 40)[0]
                    if sub_root != 0xFFFFFFFFFFFFFFFF:
                        walk(sub_root, key.decode("utf-8", "replace"))

    main_root = struct.unpack_from("<Q", data, base + 16 + 24 + 48 + 40)[0]
    if main_root != 0xFFFFFFFFFFFFFFFF:
        walk(main_root, "main")
    if nodes_of is not None:
        print("\n".join(nodes))
        return
    if branch_keys_of is not None:
        for offset in keys:
            print(offset)
        return
    for pgno in sorted(pages):
        kind, name = pages[pgno]
        print(pgno, kind, name)


if __name__ == "__main__":
    option = sys.argv[2] if len(sys.argv) > 3 else None
    main(sys.argv[1], sys.argv[3] if option == "--branch-keys" else None, sys.argv[3] if option == "--nodes" else None)
