#!/usr/bin/env python3
"""Expected values for ctests/fp8_conversions.cu, written to ctests/fp8_conversions_expected.inc.

The reference is independent of any C header: fp8 values are exact Fractions decoded from
the format definitions (CUDA Math API, "FP8 Intrinsics"; OCP 8-bit floating point), and
narrowing picks the nearest representable value by exact comparison, ties to the even code.
Rules (CUDA Math API, __nv_saturation_t):
  - round to nearest even, with the format extended by one more step above its largest
    finite value (E4M3: 448 -> 480, E5M2: 57344 -> 65536); a result on that step or beyond,
    and an infinite input, overflows
  - overflow: __NV_SATFINITE gives +-max finite; __NV_NOSAT gives NaN (E4M3, S.1111.111)
    or +-infinity (E5M2)
  - NaN from float/half/bf16 inputs: 0x7F; from double: sign | 0x7F (E4M3), sign | 0x7E |
    top two payload bits (E5M2)
Widening (fp8 -> half, float) is exact; NaN -> half 0x7FFF.

Optionally cross-checks the finite, non-overflowing float results against PyTorch's
float8_e4m3fn / float8_e5m2 casts (PYTORCH_CHECK=1; torch rounds to nearest even like CUDA
there, but maps out-of-range values differently, so only in-range inputs are compared).

usage: python3 ctests/tools/gen_fp8_tables.py [--check]   (--check: compare with the file)
"""
import math
import os
import random
import struct
import sys
from fractions import Fraction

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(os.path.dirname(HERE), "fp8_conversions_expected.inc")

# kind: (exponent bits, mantissa bits, bias, has_inf)
KINDS = {"e4m3": (4, 3, 7, False), "e5m2": (5, 2, 15, True)}


def decode(code, kind):
    """fp8 code -> ('nan',) | ('inf', sign) | ('num', sign, Fraction)."""
    eb, mb, bias, has_inf = KINDS[kind]
    sign = code >> 7
    e = (code >> mb) & ((1 << eb) - 1)
    m = code & ((1 << mb) - 1)
    if kind == "e4m3" and e == 15 and m == 7:
        return ("nan",)
    if has_inf and e == (1 << eb) - 1:
        return ("inf", sign) if m == 0 else ("nan",)
    if e == 0:
        v = Fraction(m, 1 << mb) * Fraction(2) ** (1 - bias)
    else:
        v = (1 + Fraction(m, 1 << mb)) * Fraction(2) ** (e - bias)
    return ("num", sign, v)


def finite_codes(kind):
    """Non-negative finite codes in increasing value, with their values."""
    out = []
    for c in range(128):
        d = decode(c, kind)
        if d[0] == "num":
            out.append((c, d[2]))
    return out


FINITE = {k: finite_codes(k) for k in KINDS}


def encode(x, kind, sat):
    """x: ('nan', sign, top2) | ('inf', sign) | ('num', sign, Fraction) -> fp8 code."""
    if x[0] == "nan":
        raise ValueError("NaN handled by caller")
    sign = x[1]
    maxcode, maxval = FINITE[kind][-1]
    step = maxval - FINITE[kind][-2][1]
    phantom = (maxcode + 1, maxval + step)
    if x[0] == "inf":
        over = True
    else:
        v = x[2]
        table = FINITE[kind] + [phantom]
        if v >= phantom[1]:
            over = True
        else:
            # the two neighbours lo <= v < hi
            lo = max((t for t in table if t[1] <= v), key=lambda t: t[1])
            hi = min((t for t in table if t[1] > v), key=lambda t: t[1])
            dlo, dhi = v - lo[1], hi[1] - v
            if dlo < dhi:
                pick = lo
            elif dhi < dlo:
                pick = hi
            else:
                pick = lo if lo[0] % 2 == 0 else hi
            over = pick is phantom
            code = pick[0]
    if over:
        if sat:
            code = maxcode
        else:
            code = 0x7F if kind == "e4m3" else 0x7C
    return (sign << 7) | code


def f32_from_bits(b):
    return struct.unpack("<f", struct.pack("<I", b))[0]


def f32_bits(f):
    return struct.unpack("<I", struct.pack("<f", f))[0]


def f64_bits(f):
    return struct.unpack("<Q", struct.pack("<d", f))[0]


def classify_f32(b):
    sign = b >> 31
    e = (b >> 23) & 0xFF
    m = b & 0x7FFFFF
    if e == 0xFF:
        return ("nan", sign, m >> 21) if m else ("inf", sign)
    v = Fraction(m, 1 << 23) * Fraction(2) ** -126 if e == 0 else (1 + Fraction(m, 1 << 23)) * Fraction(2) ** (e - 127)
    return ("num", sign, v)


def classify_f64(b):
    sign = b >> 63
    e = (b >> 52) & 0x7FF
    m = b & ((1 << 52) - 1)
    if e == 0x7FF:
        return ("nan", sign, m >> 50) if m else ("inf", sign)
    v = Fraction(m, 1 << 52) * Fraction(2) ** -1022 if e == 0 else (1 + Fraction(m, 1 << 52)) * Fraction(2) ** (e - 1023)
    return ("num", sign, v)


def classify_f16(b):
    sign = b >> 15
    e = (b >> 10) & 0x1F
    m = b & 0x3FF
    if e == 0x1F:
        return ("nan", sign, m >> 8) if m else ("inf", sign)
    v = Fraction(m, 1 << 10) * Fraction(2) ** -14 if e == 0 else (1 + Fraction(m, 1 << 10)) * Fraction(2) ** (e - 15)
    return ("num", sign, v)


def classify_bf16(b):
    return classify_f32(b << 16)


def expect_row(x, from_double):
    """[e4m3 nosat, e4m3 satfinite, e5m2 nosat, e5m2 satfinite]."""
    row = []
    for kind in ("e4m3", "e5m2"):
        for sat in (False, True):
            if x[0] == "nan":
                if not from_double:
                    row.append(0x7F)
                elif kind == "e4m3":
                    row.append((x[1] << 7) | 0x7F)
                else:
                    row.append((x[1] << 7) | 0x7E | x[2])
            else:
                row.append(encode(x, kind, sat))
    return row


def frac_to_f32_bits(v, sign=0):
    """Exact Fraction (representable in float) -> float bits."""
    f = float(v)
    assert Fraction(f) == v
    b = f32_bits(f)
    assert Fraction(f32_from_bits(b)) == v, v
    return b | (sign << 31)


def float_inputs():
    vals = set()
    specials = [0.0, 1e-45, 1.17549435e-38, 3.4028234663852886e38, 1.0, 2.0, 0.5, 1e-3, 1e-5, 1e-7,
                100.0, 1000.0, 1e5, 1e10]
    for s in specials:
        b = f32_bits(s)
        vals.update({b, b | 0x80000000})
    vals.update({0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000, 0x7F800001, 0xFFBFFFFF, 0x00000001, 0x007FFFFF})
    for kind in KINDS:
        table = FINITE[kind]
        step = table[-1][1] - table[-2][1]
        pts = [v for _, v in table] + [table[-1][1] + step, table[-1][1] + 2 * step]
        mids = [(a + b) / 2 for a, b in zip(pts, pts[1:])]
        for v in pts + mids:
            b = frac_to_f32_bits(v)
            for d in (-2, -1, 0, 1, 2):
                bb = b + d
                if 0 <= bb < 0x7F800000:
                    vals.update({bb, bb | 0x80000000})
    rng = random.Random(8)
    for _ in range(1500):
        # log-uniform magnitudes around the fp8 ranges, random sign
        e = rng.uniform(-22.0, 18.0)
        b = f32_bits(rng.choice((1.0, -1.0)) * 2.0 ** e)
        vals.add(b)
    return sorted(vals)


def double_inputs(fin):
    vals = set()
    for b in fin[::3]:
        if classify_f32(b)[0] != "nan":
            vals.add(f64_bits(f32_from_bits(b)))
    # ties and near-ties finer than float resolution
    for kind in KINDS:
        table = FINITE[kind]
        step = table[-1][1] - table[-2][1]
        pts = [v for _, v in table] + [table[-1][1] + step]
        for a, c in zip(pts, pts[1:]):
            mid = float((a + c) / 2)
            b = f64_bits(mid)
            for d in (-1, 1, 1 << 20):
                for s in (0, 1 << 63):
                    vals.add((b + d) | s)
    vals.update({
        f64_bits(1e300), f64_bits(-1e300), f64_bits(5e-324), f64_bits(-5e-324), f64_bits(1e-310),
        0x7FF0000000000000, 0xFFF0000000000000,
        0x7FF8000000000000, 0xFFF8000000000000, 0x7FF4000000000000, 0x7FFC000000000001,
        0x7FF0000000000001, 0xFFF7000000000000, 0x0000000000000000, 0x8000000000000000,
    })
    return sorted(vals)


def f16_inputs():
    # every 13th half code, and every half within a few codes of an fp8 value or midpoint
    vals = set(range(0, 0x10000, 31))
    for kind in KINDS:
        table = FINITE[kind]
        step = table[-1][1] - table[-2][1]
        pts = [v for _, v in table] + [table[-1][1] + step]
        for v in pts + [(a + c) / 2 for a, c in zip(pts, pts[1:])]:
            f = float(v)
            if f > 65504 or f < 2 ** -24:
                continue
            h = struct.unpack("<H", struct.pack("<e", f))[0]
            if Fraction(struct.unpack("<e", struct.pack("<H", h))[0]) != v:
                continue
            for d in (-1, 0, 1):
                vals.update({(h + d) & 0x7FFF, ((h + d) & 0x7FFF) | 0x8000})
    vals.update({0x7C00, 0xFC00, 0x7E00, 0xFE00, 0x7C01})
    return sorted(vals)


def bf16_inputs(fin):
    vals = set(range(0, 0x10000, 37))
    for b in fin:
        if b & 0xFFFF == 0:
            vals.add(b >> 16)
    vals.update({0x7F80, 0xFF80, 0x7FC0, 0xFFC0, 0x7F81})
    return sorted(vals)


def to_half_bits(code, kind):
    d = decode(code, kind)
    if d[0] == "nan":
        return 0x7FFF
    if d[0] == "inf":
        return (d[1] << 15) | 0x7C00
    v = d[2]
    h = struct.unpack("<H", struct.pack("<e", float(v)))[0]
    assert Fraction(struct.unpack("<e", struct.pack("<H", h))[0]) == v
    return (d[1] << 15) | h


def to_float_bits(code, kind):
    d = decode(code, kind)
    if d[0] == "nan":
        return 0x7FC00000  # only NaN-ness is compared
    if d[0] == "inf":
        return (d[1] << 31) | 0x7F800000
    return frac_to_f32_bits(d[2], d[1])


def trunc_sat(code, kind, lo, hi):
    d = decode(code, kind)
    if d[0] == "nan":
        return 0
    if d[0] == "inf":
        return hi if d[1] == 0 else lo
    v = -d[2] if d[1] else d[2]
    i = math.trunc(v)
    return max(lo, min(hi, i))


def torch_check(fin, rows):
    try:
        import torch
    except ImportError:
        print("PyTorch not importable: cross-check skipped", file=sys.stderr)
        return
    vals = torch.tensor([f32_from_bits(b) for b in fin], dtype=torch.float32)
    n = 0
    for col, (kind, dtype) in ((1, ("e4m3", torch.float8_e4m3fn)), (3, ("e5m2", torch.float8_e5m2))):
        got = vals.to(dtype).view(torch.uint8).tolist()
        for b, g, row in zip(fin, got, rows):
            x = classify_f32(b)
            if x[0] != "num":
                continue
            maxval = FINITE[kind][-1][1]
            if x[2] > maxval:
                continue  # out of range: torch's rules differ from both CUDA modes
            want = row[col]
            if g != want:
                raise SystemExit(f"torch disagrees: {kind} {f32_from_bits(b)!r}: torch {g:#x}, ours {want:#x}")
            n += 1
    print(f"PyTorch cross-check: {n} in-range float->fp8 results agree", file=sys.stderr)


def main():
    fin = float_inputs()
    din = double_inputs(fin)
    hin = f16_inputs()
    bin_ = bf16_inputs(fin)
    frows = [expect_row(classify_f32(b), False) for b in fin]
    drows = [expect_row(classify_f64(b), True) for b in din]
    hrows = [expect_row(classify_f16(b), False) for b in hin]
    brows = [expect_row(classify_bf16(b), False) for b in bin_]
    if os.environ.get("PYTORCH_CHECK"):
        torch_check(fin, frows)

    L = ["// Generated by ctests/tools/gen_fp8_tables.py; do not edit.",
         "// k*Out: bytes from the lowest: E4M3 NOSAT, E4M3 SATFINITE, E5M2 NOSAT, E5M2 SATFINITE."]

    def arr(decl, items, per=8):
        L.append(decl + " = {")
        for i in range(0, len(items), per):
            L.append("  " + " ".join(x + "," for x in items[i:i + per]))
        L.append("};")

    def rowtxt(r):  # packed: E4M3 NOSAT in the low byte
        return f"0x{r[0] | r[1] << 8 | r[2] << 16 | r[3] << 24:08x}u"

    arr("static const unsigned int kF32In[]", [f"0x{b:08x}u" for b in fin])
    arr("static const unsigned int kF32Out[]", [rowtxt(r) for r in frows], 8)
    arr("static const unsigned long long kF64In[]", [f"0x{b:016x}ull" for b in din], 4)
    arr("static const unsigned int kF64Out[]", [rowtxt(r) for r in drows], 8)
    arr("static const unsigned short kF16In[]", [f"0x{b:04x}" for b in hin], 12)
    arr("static const unsigned int kF16Out[]", [rowtxt(r) for r in hrows], 8)
    arr("static const unsigned short kBF16In[]", [f"0x{b:04x}" for b in bin_], 12)
    arr("static const unsigned int kBF16Out[]", [rowtxt(r) for r in brows], 8)
    for k, kind in enumerate(("e4m3", "e5m2")):
        arr(f"static const unsigned short kToHalf_{kind}[256]", [f"0x{to_half_bits(c, kind):04x}" for c in range(256)], 12)
        arr(f"static const unsigned int kToFloat_{kind}[256]", [f"0x{to_float_bits(c, kind):08x}u" for c in range(256)])
        arr(f"static const int kToInt_{kind}[256]",
            [str(trunc_sat(c, kind, -2**31 + 1, 2**31 - 1)) if decode(c, kind)[0] != "inf" or c < 128
             else "(-2147483647 - 1)" for c in range(256)], 12)
        arr(f"static const signed char kToSChar_{kind}[256]", [str(trunc_sat(c, kind, -128, 127)) for c in range(256)], 16)
        arr(f"static const unsigned char kToUChar_{kind}[256]", [str(trunc_sat(c, kind, 0, 255)) for c in range(256)], 16)
        arr(f"static const short kToShort_{kind}[256]", [str(trunc_sat(c, kind, -32768, 32767)) for c in range(256)], 16)
    # integer constructors: -1000..1000 and a few large values
    ints = list(range(-1000, 1001, 7)) + [65535, 65536, 100000, -100000, 2**31 - 1, -2**31]
    arr("static const int kIntIn[]", [str(i) if i != -2**31 else "(-2147483647 - 1)" for i in ints], 12)
    arr("static const unsigned char kIntOut[][2]",
        ["{" + ",".join(f"0x{encode(('num', 1 if i < 0 else 0, Fraction(float(abs(i)))), k, True):02x}" for k in ("e4m3", "e5m2")) + "}"
         for i in ints], 8)
    text = "\n".join(L) + "\n"
    if "--check" in sys.argv:
        with open(OUT) as f:
            if f.read() != text:
                raise SystemExit(f"{OUT} is out of date")
        print("up to date")
        return
    with open(OUT, "w") as f:
        f.write(text)
    print(f"wrote {OUT}: {len(fin)} float, {len(din)} double, {len(hin)} half, {len(bin_)} bf16 inputs")


if __name__ == "__main__":
    main()
