"""cupy.random through our libcurand.so.10: CuPy's RandomState calls curandGenerate*,
so its numbers must be NVIDIA's: checked against the values recorded from NVIDIA's cuRAND
on an H100 (crates/curand/tests/data), plus distribution sanity."""
import os
import sys

import cupy
import numpy

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.join(ROOT, "crates", "curand", "tests", "data", "xorwow.txt")


def recorded(name):
    for line in open(DATA):
        parts = line.split()
        if parts[0] == name and parts[4] == "at=0":
            return [int(v, 16) for v in parts[5:]]
    raise KeyError(name)


def main():
    base = "xorwow/order=101/seed=1234/offset=0/dims=0/"
    rs = cupy.random.RandomState(1234)
    got = rs.random_sample(12, dtype=numpy.float32).get()
    want = numpy.array(recorded(base + "uniform/n=8192/lambda=0")[:12], dtype=numpy.uint32).view(numpy.float32)
    assert numpy.array_equal(got, want), (got, want)

    rs = cupy.random.RandomState(1234)
    got = rs.random_sample(12, dtype=numpy.float64).get()
    want = numpy.array(recorded(base + "uniform_double/n=8192/lambda=0")[:12], dtype=numpy.uint64).view(numpy.float64)
    assert numpy.array_equal(got, want), (got, want)

    rs = cupy.random.RandomState(1234)
    got = rs.standard_normal(12, dtype=numpy.float32).get()
    want = numpy.array(recorded(base + "normal/n=8192/lambda=0")[:12], dtype=numpy.uint32).view(numpy.float32)
    assert numpy.allclose(got, want, rtol=0, atol=4e-6), (got, want)

    # Distribution sanity through the other generator calls CuPy makes.
    x = cupy.random.normal(3.0, 2.0, size=200000, dtype=numpy.float64)
    assert abs(float(x.mean()) - 3.0) < 0.03 and abs(float(x.std()) - 2.0) < 0.03
    u = cupy.random.uniform(size=200000)
    assert 0.0 < float(u.min()) and float(u.max()) < 1.0 and abs(float(u.mean()) - 0.5) < 0.01
    p = cupy.random.poisson(4.0, size=200000)
    assert abs(float(p.mean()) - 4.0) < 0.05 and abs(float(p.var()) - 4.0) < 0.1
    ln = cupy.random.lognormal(0.0, 0.5, size=200000)
    assert abs(float(cupy.log(ln).mean())) < 0.01
    r = cupy.random.randint(0, 10, size=100000)
    assert int(r.min()) == 0 and int(r.max()) == 9
    # Reseeding while earlier generations may still be queued: each call runs with the
    # seed and position it was called with, so the same seed gives the same numbers.
    runs = []
    for _ in range(2):
        rs = cupy.random.RandomState(1234)
        first = rs.standard_normal(5000)
        rs.seed(1234)
        second = rs.standard_normal(5000)
        runs.append((cupy.asnumpy(first), cupy.asnumpy(second)))
    for first, second in runs:
        assert numpy.array_equal(first, second), "reseeded generator diverged"
    assert numpy.array_equal(runs[0][0], runs[1][0])
    print("PASS cupy_random")


if __name__ == "__main__":
    sys.exit(main())
