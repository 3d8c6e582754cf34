#!/usr/bin/env python3
"""Checks the expectations of tests/lambda_traits.rs against NVIDIA's nvcc (NVIDIA's NVRTC
refuses annotated lambdas). Each case's CHECK(T, E) becomes an incomplete
Show<got, expected> whose error message prints both values.

usage: source scripts/cuda-env.sh; crates/nvrtc-abi/tools/lambda_traits_nvcc.py
"""
import os, re, subprocess, sys, tempfile

here = os.path.dirname(os.path.abspath(__file__))
src = open(os.path.join(here, "..", "tests", "lambda_traits.rs")).read()
flat = re.sub(r"\\\n\s*", "", src)
table = flat[flat.index("const CASES"):flat.index("const HEADER")]
cases = re.findall(r'\(\s*"([^"]+)",\s*"((?:[^"\\]|\\.)*)",?\s*\)', table)
header = re.search(r'const HEADER: &str = "((?:[^"\\]|\\.)*)"', flat).group(1)
unesc = lambda x: x.encode().decode("unicode_escape")
out = ["template <int Got, int Expected, class Tag> struct Show;",
       "struct Functor { __device__ int operator()(int x) const { return x; } };",
       "struct HDFunctor { __host__ __device__ int operator()(int x) const { return x; } };",
       "template <class F> struct Kind { static constexpr int value = (__nv_is_extended_device_lambda_closure_type(F) ? 1 : 0)"
       " + (__nv_is_extended_host_device_lambda_closure_type(F) ? 2 : 0)"
       " + (__nv_is_extended_device_lambda_with_preserved_return_type(F) ? 4 : 0); };",
       "#define CHECK(T, E) (void)sizeof(Show<Kind<T>::value, E, void>)"]
shown, expected = [], 0
with tempfile.TemporaryDirectory() as d:
    # One compile per case: nvcc skips pending template instantiations after errors.
    for i, (name, code) in enumerate(cases):
        code = unesc(header) if code.startswith("#include") else unesc(code)
        if code.startswith("CHECK("):
            code = "void case_%d() { %s }" % (i, code)
        expected += code.count("CHECK(")
        path = os.path.join(d, "case.cu")
        open(path, "w").write("\n".join(out + ["// " + name, code]) + "\n")
        log = subprocess.run([os.environ["NVCC"], "-arch=sm_80", "--extended-lambda", "-std=c++17", "-c", path, "-o",
                              os.path.join(d, "t.o")], capture_output=True, text=True).stderr
        got = re.findall(r'Show<(\d+), (\d+), void>', log)
        print("%-50s %s" % (name, " ".join("%s(expected %s)" % g for g in got)))
        shown += got
bad = [s for s in shown if s[0] != s[1]]
print("%d checks shown by nvcc, %d expected, %d mismatches %s" % (len(shown), expected, len(bad), bad))
sys.exit(1 if bad or len(shown) != expected else 0)
