"""Reads the record files written by gpu_dump.cu: {name: (status, esize, count, bytes)}.
A record marked same=<name> gets the bytes of that earlier record."""
import re
import sys


def read(path):
    recs = {}
    with open(path, "rb") as f:
        data = f.read()
    pos = 0
    while pos < len(data):
        end = data.index(b"\n", pos)
        line = data[pos:end].decode()
        pos = end + 1
        m = re.match(r"REC (\S+) status=(-?\d+) esize=(\d+) count=(\d+)(?: same=(\S+))?$", line)
        if not m:
            raise ValueError(f"bad record line {line!r}")
        name, st, es, n, same = m.group(1), int(m.group(2)), int(m.group(3)), int(m.group(4)), m.group(5)
        if same:
            recs[name] = (st, es, n, recs[same][3])
            continue
        recs[name] = (st, es, n, data[pos:pos + es * n])
        pos += es * n
    return recs


if __name__ == "__main__":
    for name, (st, es, n, b) in read(sys.argv[1]).items():
        print(name, st, es, n, len(b))
