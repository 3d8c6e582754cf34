#!/usr/bin/env python3
"""Expected values for ctests/fp6_fp4_conversions.cu (and ctests/host/fp6_fp4_host.cpp),
written to ctests/fp6_fp4_conversions_expected.inc.

The reference is independent of any C header: every fp6 / fp4 code is decoded to an exact
Fraction from the format definitions (OCP Microscaling formats; CUDA Math API, "FP6
Intrinsics" / "FP4 Intrinsics"), and narrowing picks a representable value by exact
comparison:
  E2M3  1 sign, 2 exponent bits (bias 1), 3 mantissa bits; no Inf/NaN; largest 7.5
  E3M2  1 sign, 3 exponent bits (bias 3), 2 mantissa bits; no Inf/NaN; largest 28
  E2M1  1 sign, 2 exponent bits (bias 1), 1 mantissa bit;  no Inf/NaN; largest 6
Rules (CUDA Math API, __nv_cvt_*_to_fp6 / _fp4: "using specified rounding mode and
saturating the out-of-range values"; "NaN input values result in positive MAXNORM"):
  - cudaRoundNearest: the nearest value, ties to the even code; cudaRoundZero: the largest
    magnitude not above the input's; cudaRoundPosInf / cudaRoundMinInf: directed (NVIDIA's
    header accepts only the first two; ours also these, checked by the host test only)
  - results beyond the largest finite value, and infinities, saturate to +-largest
  - NaN gives +largest; the sign of a zero result is the input's
Widening (fp6/fp4 -> half, float, integers) is exact; integer conversions truncate toward
zero, negative values giving 0 for unsigned types.

Each k*Out row holds, per format (E2M3, E3M2, E2M1), one unsigned int whose bytes from the
lowest are the results for cudaRoundNearest, cudaRoundZero, cudaRoundPosInf,
cudaRoundMinInf.

usage: python3 ctests/tools/gen_fp6_fp4_tables.py [--check]   (--check: compare with the file)
"""
import math
import os
import random
import struct
import sys
from fractions import Fraction

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(os.path.dirname(HERE), "fp6_fp4_conversions_expected.inc")

# name: (exponent bits, mantissa bits, bias)
FORMATS = {"e2m3": (2, 3, 1), "e3m2": (3, 2, 3), "e2m1": (2, 1, 1)}
ORDER = ("e2m3", "e3m2", "e2m1")
MODES = ("rn", "rz", "ru", "rd")


def nbits(fmt):
    eb, mb, _ = FORMATS[fmt]
    return 1 + eb + mb


def decode(code, fmt):
    """code (the format's bits only) -> (sign, Fraction magnitude)."""
    eb, mb, bias = FORMATS[fmt]
    sign = code >> (eb + mb)
    e = (code >> mb) & ((1 << eb) - 1)
    m = code & ((1 << mb) - 1)
    if e == 0:
        v = Fraction(m, 1 << mb) * Fraction(2) ** (1 - bias)
    else:
        v = (1 + Fraction(m, 1 << mb)) * Fraction(2) ** (e - bias)
    return sign, v


def magnitudes(fmt):
    """Non-negative codes with their values, in increasing value."""
    half = 1 << (nbits(fmt) - 1)
    out = [(c, decode(c, fmt)[1]) for c in range(half)]
    assert all(a[1] < b[1] for a, b in zip(out, out[1:]))
    return out


MAGS = {f: magnitudes(f) for f in FORMATS}


def encode(x, fmt, mode):
    """x: ('nan',) | ('inf', sign) | ('num', sign, Fraction magnitude) -> code."""
    table = MAGS[fmt]
    signbit = 1 << (nbits(fmt) - 1)
    maxcode = table[-1][0]
    if x[0] == "nan":
        return maxcode
    sign = x[1]
    if x[0] == "inf":
        return (signbit if sign else 0) | maxcode
    v = x[2]
    lo = max((t for t in table if t[1] <= v), key=lambda t: t[1])
    his = [t for t in table if t[1] >= v]
    hi = min(his, key=lambda t: t[1]) if his else None
    # away from zero: toward +inf for positive inputs, toward -inf for negative ones
    away = (mode == "ru" and not sign) or (mode == "rd" and sign)
    if hi is None:  # beyond the largest value: saturate
        pick = table[-1]
    elif lo[1] == v:
        pick = lo
    elif mode == "rn":
        dlo, dhi = v - lo[1], hi[1] - v
        pick = lo if dlo < dhi else hi if dhi < dlo else (lo if lo[0] % 2 == 0 else hi)
    elif away:
        pick = hi
    else:
        pick = lo
    return (signbit if sign else 0) | pick[0]


def f32_from_bits(b):
    return struct.unpack("<f", struct.pack("<I", b))[0]


def f32_bits(f):
    return struct.unpack("<I", struct.pack("<f", f))[0]


def f64_bits(f):
    return struct.unpack("<Q", struct.pack("<d", f))[0]


def classify(b, ebits, mbits):
    """IEEE-like binary format bits -> ('nan',) | ('inf', sign) | ('num', sign, Fraction)."""
    sign = b >> (ebits + mbits)
    e = (b >> mbits) & ((1 << ebits) - 1)
    m = b & ((1 << mbits) - 1)
    bias = (1 << (ebits - 1)) - 1
    if e == (1 << ebits) - 1:
        return ("nan",) if m else ("inf", sign)
    if e == 0:
        v = Fraction(m, 1 << mbits) * Fraction(2) ** (1 - bias)
    else:
        v = (1 + Fraction(m, 1 << mbits)) * Fraction(2) ** (e - bias)
    return ("num", sign, v)


def classify_f32(b):
    return classify(b, 8, 23)


def classify_f64(b):
    return classify(b, 11, 52)


def classify_f16(b):
    return classify(b, 5, 10)


def classify_bf16(b):
    return classify(b, 8, 7)


def row(x):
    """One unsigned int per format: bytes RN, RZ, RU, RD."""
    return [sum(encode(x, f, m) << (8 * i) for i, m in enumerate(MODES)) for f in ORDER]


def interesting_values():
    """Every representable magnitude of every format, the midpoints between neighbours, the
    step beyond the largest and half of it, and a few values further out."""
    vals = set()
    for f in ORDER:
        table = [v for _, v in MAGS[f]]
        step = table[-1] - table[-2]
        pts = table + [table[-1] + step, table[-1] + 2 * step]
        vals.update(pts)
        vals.update((a + b) / 2 for a, b in zip(pts, pts[1:]))
        vals.update((a + 3 * b) / 4 for a, b in zip(pts, pts[1:]))
    vals.update([Fraction(100), Fraction(1000), Fraction(65504), Fraction(1, 1024)])
    return sorted(vals)


def float_inputs():
    vals = set()
    for s in (0.0, 1e-45, 1.17549435e-38, 3.4028234663852886e38, 1e10, 1e-10, 1e-20):
        b = f32_bits(s)
        vals.update({b, b | 0x80000000})
    vals.update({0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000, 0x7F800001, 0xFFBFFFFF, 0x007FFFFF})
    for v in interesting_values():
        b = f32_bits(float(v))
        assert Fraction(f32_from_bits(b)) == v
        for d in (-2, -1, 0, 1, 2):
            bb = b + d
            if 0 <= bb < 0x7F800000:
                vals.update({bb, bb | 0x80000000})
    rng = random.Random(6)
    for _ in range(600):
        # log-uniform magnitudes around the formats' ranges, random sign
        vals.add(f32_bits(rng.choice((1.0, -1.0)) * 2.0 ** rng.uniform(-9.0, 9.0)))
    return sorted(vals)


def double_inputs(fin):
    vals = set()
    for b in fin[::3]:
        if classify_f32(b)[0] != "nan":
            vals.add(f64_bits(f32_from_bits(b)))
    # ties and near-ties finer than float resolution (a conversion through float would
    # round them onto the tie)
    for v in interesting_values():
        b = f64_bits(float(v))
        if v == 0:
            continue
        for d in (-1, 1, 1 << 20):
            for s in (0, 1 << 63):
                vals.add((b + d) | s)
    vals.update({
        f64_bits(1e300), f64_bits(-1e300), f64_bits(5e-324), f64_bits(-5e-324), f64_bits(1e-310),
        f64_bits(2.0 ** -40), f64_bits(-(2.0 ** -40)),
        0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000, 0xFFF8000000000000,
        0x7FF0000000000001, 0x0000000000000000, 0x8000000000000000,
    })
    return sorted(vals)


def f16_inputs():
    vals = set(range(0, 0x10000, 61))
    for v in interesting_values():
        f = float(v)
        if f > 65504:
            continue
        h = struct.unpack("<H", struct.pack("<e", f))[0]
        if Fraction(struct.unpack("<e", struct.pack("<H", h))[0]) != v:
            continue
        for d in (-1, 0, 1):
            vals.update({(h + d) & 0x7FFF, ((h + d) & 0x7FFF) | 0x8000})
    vals.update({0x7C00, 0xFC00, 0x7E00, 0xFE00, 0x7C01, 0x0001, 0x8001})
    return sorted(vals)


def bf16_inputs(fin):
    vals = set(range(0, 0x10000, 67))
    for b in fin:
        if b & 0xFFFF == 0:
            vals.add(b >> 16)
    vals.update({0x7F80, 0xFF80, 0x7FC0, 0xFFC0, 0x7F81, 0x0001, 0x8001})
    return sorted(vals)


def to_half_bits(code, fmt):
    sign, v = decode(code, fmt)
    h = struct.unpack("<H", struct.pack("<e", float(v)))[0]
    assert Fraction(struct.unpack("<e", struct.pack("<H", h))[0]) == v
    return (sign << 15) | h


def to_float_bits(code, fmt):
    sign, v = decode(code, fmt)
    b = f32_bits(float(v))
    assert Fraction(f32_from_bits(b)) == v
    return (sign << 31) | b


def trunc_sat(code, fmt, lo, hi):
    sign, v = decode(code, fmt)
    i = math.trunc(-v if sign else v)
    return max(lo, min(hi, i))


def main():
    fin = float_inputs()
    din = double_inputs(fin)
    hin = f16_inputs()
    bin_ = bf16_inputs(fin)

    L = ["// Generated by ctests/tools/gen_fp6_fp4_tables.py; do not edit.",
         "// k*Out[i][f]: format f = E2M3, E3M2, E2M1; bytes from the lowest: cudaRoundNearest,",
         "// cudaRoundZero, cudaRoundPosInf, cudaRoundMinInf.",
         "// kTo*[f][b]: byte b (upper bits beyond the format ignored) of format f, widened."]

    def arr(decl, items, per=8):
        L.append(decl + " = {")
        for i in range(0, len(items), per):
            L.append("  " + " ".join(x + "," for x in items[i:i + per]))
        L.append("};")

    def rows(name, ins, classify_fn):
        arr(f"static const unsigned int {name}[][3]",
            ["{" + ", ".join(f"0x{w:08x}u" for w in row(classify_fn(b))) + "}" for b in ins], 4)

    arr("static const unsigned int kF32In[]", [f"0x{b:08x}u" for b in fin])
    rows("kF32Out", fin, classify_f32)
    arr("static const unsigned long long kF64In[]", [f"0x{b:016x}ull" for b in din], 4)
    rows("kF64Out", din, classify_f64)
    arr("static const unsigned short kF16In[]", [f"0x{b:04x}" for b in hin], 12)
    rows("kF16Out", hin, classify_f16)
    arr("static const unsigned short kBF16In[]", [f"0x{b:04x}" for b in bin_], 12)
    rows("kBF16Out", bin_, classify_bf16)

    def per_byte(decl, fn, text, per):
        L.append(decl + " = {")
        for f in ORDER:
            items = [text(fn(b & ((1 << nbits(f)) - 1), f)) for b in range(256)]
            L.append("  {")
            for i in range(0, len(items), per):
                L.append("    " + " ".join(x + "," for x in items[i:i + per]))
            L.append("  },")
        L.append("};")

    per_byte("static const unsigned short kToHalf[3][256]", to_half_bits, lambda h: f"0x{h:04x}", 12)
    per_byte("static const unsigned int kToFloat[3][256]", to_float_bits, lambda h: f"0x{h:08x}u", 8)
    per_byte("static const int kToInt[3][256]", lambda c, f: trunc_sat(c, f, -2**31, 2**31 - 1), str, 16)
    per_byte("static const int kToUChar[3][256]", lambda c, f: trunc_sat(c, f, 0, 255), str, 16)
    per_byte("static const int kToSChar[3][256]", lambda c, f: trunc_sat(c, f, -128, 127), str, 16)
    # integer constructors (through float, round to nearest, saturating)
    ints = list(range(-40, 41)) + [100, -100, 65535, 100000, -100000, 2**31 - 1, -2**31]
    arr("static const int kIntIn[]", [str(i) if i != -2**31 else "(-2147483647 - 1)" for i in ints], 12)
    arr("static const unsigned char kIntOut[][3]",
        ["{" + ",".join(f"0x{encode(('num', 1 if i < 0 else 0, Fraction(abs(i))), f, 'rn'):02x}" for f in ORDER) + "}"
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
