#!/usr/bin/env python3
"""Reference for tests/math_ulp.rs: reads lines `fn prec x [y] got` (raw bits in hex), computes
each function exactly with mpmath and prints, per function, the largest error in units in
the last place of the result type, with the input where it occurs:

    fn max_ulp x [y] got exact

Special results (NaN, infinities) must match exactly; a mismatch counts as 1e9 ulp.
"""
import sys
import mpmath as mp

mp.mp.prec = 200

def erfinv(y):
    if abs(y) < mp.mpf("0.99"):
        return mp.erfinv(y)
    q = 1 - abs(y)
    return mp.sign(y) * erfcinv(q)

def erfcinv(q):
    if q > mp.mpf("0.01") and q < mp.mpf("1.99"):
        return mp.erfinv(1 - q)
    if q >= 1:
        return -erfcinv(2 - q)
    u = mp.sqrt(-mp.log(q))
    return mp.findroot(lambda x: mp.log(mp.erfc(x)) - mp.log(q), u)

def exact_rem(x, y, nearest):
    # enough bits for the whole quotient
    bits = int(abs(mp.log(abs(x) + 1, 2)) + abs(mp.log(abs(y), 2))) + 200
    with mp.workprec(max(bits, 200)):
        q = x / y
        n = mp.nint(q) if nearest else (mp.floor(q) if q >= 0 else mp.ceil(q))
        r = x - y * n
    if r == 0:
        return mp.mpf(0)
    return r

F = {
    "exp": mp.exp, "exp2": lambda x: mp.mpf(2) ** x, "exp10": lambda x: mp.mpf(10) ** x, "expm1": mp.expm1,
    "log": mp.log, "log2": lambda x: mp.log(x, 2), "log10": mp.log10, "log1p": mp.log1p,
    "sin": mp.sin, "cos": mp.cos, "tan": mp.tan, "sinpi": lambda x: mp.sinpi(x), "cospi": lambda x: mp.cospi(x),
    "asin": mp.asin, "acos": mp.acos, "atan": mp.atan, "atan2": lambda y, x: mp.atan2(y, x),
    "sinh": mp.sinh, "cosh": mp.cosh, "tanh": mp.tanh, "asinh": mp.asinh, "acosh": mp.acosh, "atanh": mp.atanh,
    "pow": lambda x, y: mp.power(x, y), "sqrt": mp.sqrt, "rsqrt": lambda x: 1 / mp.sqrt(x), "cbrt": lambda x: mp.sign(x) * mp.cbrt(abs(x)),
    "rcbrt": lambda x: mp.sign(x) / mp.cbrt(abs(x)), "hypot": lambda x, y: mp.hypot(x, y),
    "erf": mp.erf, "erfc": mp.erfc, "erfinv": erfinv, "erfcinv": erfcinv,
    "erfcx": lambda x: mp.erfc(x) * mp.exp(x * x), "normcdf": lambda x: mp.ncdf(x),
    "normcdfinv": lambda p: -mp.sqrt(2) * erfcinv(2 * p),
    "lgamma": lambda x: mp.log(abs(mp.gamma(x))), "tgamma": mp.gamma,
    "fmod": lambda x, y: exact_rem(x, y, False), "remainder": lambda x, y: exact_rem(x, y, True),
}

def ulp(v, prec):
    # ulp of the binade of v for the result format
    if prec == "f":
        mant, emin = 24, -126
    else:
        mant, emin = 53, -1022
    if v == 0:
        return mp.mpf(2) ** (emin - mant + 1)
    e = int(mp.floor(mp.log(abs(v), 2)))
    e = max(e, emin)
    return mp.mpf(2) ** (e - mant + 1)

import struct

def parse(s, prec):
    v = int(s, 16)
    if prec == "f":
        return struct.unpack("<f", v.to_bytes(4, "little"))[0]
    return struct.unpack("<d", v.to_bytes(8, "little"))[0]

worst = {}
for line in sys.stdin:
    parts = line.split()
    if not parts:
        continue
    fn, prec = parts[0], parts[1]
    args = [parse(p, prec) for p in parts[2:-1]]
    got = parse(parts[-1], prec)
    f = F[fn]
    maxv = mp.mpf(3.4028234663852886e38) if prec == "f" else mp.mpf(1.7976931348623157e308)
    try:
        exact = f(*[mp.mpf(a) for a in args])
        if isinstance(exact, mp.mpc):
            exact = None
    except (ValueError, ZeroDivisionError):
        exact = None
    if exact is None or (isinstance(exact, mp.mpf) and mp.isnan(exact)):
        err = 0 if got != got else 1e9
    elif mp.isinf(exact) or abs(exact) > maxv * (1 + 2 ** -25):
        err = 0 if (got == float("inf") * (1 if exact > 0 else -1)) else 1e9
    elif got != got or abs(got) == float("inf"):
        err = 1e9
    else:
        err = float(abs(mp.mpf(got) - exact) / ulp(exact, prec))
    key = fn + "/" + prec
    if key not in worst or err > worst[key][0]:
        worst[key] = (err, [repr(a) for a in args], repr(got), mp.nstr(exact, 20) if exact is not None else "nan")
for key, (err, args, got, exact) in sorted(worst.items()):
    print(key, "%.3f" % err, " ".join(args), got, exact)
