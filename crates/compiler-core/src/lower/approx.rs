//! Edge cases the PTX ISA defines for `.approx` floating-point instructions, on top of
//! the correctly rounded operation the lowering computes (which meets every stated
//! error bound).

use super::func::FnLowerer;

impl FnLowerer<'_> {
    /// `div.approx.f32` is `a * (1/b)` (PTX ISA 9.7.3.8 "div"): for 2^126 < |b| the
    /// reciprocal lies below the normal range and the ISA defines the quotient as 0, or
    /// NaN when `a` is infinite. `a * ±0` is exactly that (with the product's sign); NaN
    /// operands stay NaN.
    pub(crate) fn div_approx_huge_divisor(&mut self, q: &str, a: &str, b: &str) -> String {
        let (fb, huge, z, p, r) = (self.t(), self.t(), self.t(), self.t(), self.t());
        self.emit(format!("{fb} = call float @llvm.fabs.f32(float {b})"));
        // 2^126
        self.emit(format!("{huge} = fcmp ogt float {fb}, 0x47D0000000000000"));
        self.emit(format!("{z} = call float @llvm.copysign.f32(float 0.0, float {b})"));
        self.emit(format!("{p} = fmul float {a}, {z}"));
        self.emit(format!("{r} = select i1 {huge}, float {p}, float {q}"));
        r
    }
}
