//! Special registers (PTX ISA 10): reads of the `__ptx_sreg_*` intrinsics, and the lane
//! masks computed from `%laneid`.

use super::func::{FnLowerer, R};

impl FnLowerer<'_> {
    /// The value of special register `name` (component `c`) as a u32, or `None` if `name`
    /// is not a 32-bit special register.
    pub fn special(&mut self, name: &str, c: Option<char>) -> R<Option<String>> {
        let xyz = match c {
            Some('y') => "y",
            Some('z') => "z",
            _ => "x",
        };
        let reg = match name {
            "%tid" | "%ntid" | "%ctaid" | "%nctaid" => format!("__ptx_sreg_{}_{xyz}", &name[1..]),
            "%laneid" | "%warpid" | "%nwarpid" | "%smid" | "%nsmid" | "%gridid" | "%dynamic_smem_size" | "%total_smem_size" => {
                format!("__ptx_sreg_{}", &name[1..])
            }
            "%lanemask_eq" | "%lanemask_lt" | "%lanemask_le" | "%lanemask_gt" | "%lanemask_ge" => return Ok(Some(self.lanemask(name))),
            "%clock" | "%clock64" | "%globaltimer" | "%globaltimer_lo" => {
                let t = self.wide_special(name).expect("a 64-bit special register");
                let r = self.t();
                self.emit(format!("{r} = trunc i64 {t} to i32"));
                return Ok(Some(r));
            }
            "%globaltimer_hi" => {
                let t = self.wide_special(name).expect("a 64-bit special register");
                let (s, r) = (self.t(), self.t());
                self.emit(format!("{s} = lshr i64 {t}, 32"));
                self.emit(format!("{r} = trunc i64 {s} to i32"));
                return Ok(Some(r));
            }
            _ => {
                // `%envreg0` .. `%envreg31` (PTX ISA 10.13).
                if let Some(n) = name.strip_prefix("%envreg").and_then(|n| n.parse::<u32>().ok()).filter(|&n| n < 32) {
                    return Ok(Some(self.intrinsic("__ptx_envreg", &format!("i32 {n}"))));
                }
                return Ok(None);
            }
        };
        Ok(Some(self.intrinsic(&reg, "")))
    }

    /// The 64-bit special registers (`%clock64`, `%globaltimer` and their 32-bit parts)
    /// as an i64, or `None` for any other name.
    pub fn wide_special(&mut self, name: &str) -> Option<String> {
        match name {
            "%clock" | "%clock64" => Some(self.intrinsic("__ptx_clock64", "")),
            "%globaltimer" | "%globaltimer_lo" | "%globaltimer_hi" => Some(self.intrinsic("__ptx_globaltimer", "")),
            _ => None,
        }
    }

    /// `%lanemask_{eq,lt,le,gt,ge}`: lanes relative to this one.
    fn lanemask(&mut self, name: &str) -> String {
        let lane = self.intrinsic("__ptx_sreg_laneid", "");
        let eq = self.t();
        self.emit(format!("{eq} = shl i32 1, {lane}"));
        let lt = self.t();
        self.emit(format!("{lt} = sub i32 {eq}, 1"));
        let t = self.t();
        match name {
            "%lanemask_eq" => return eq,
            "%lanemask_lt" => return lt,
            "%lanemask_le" => self.emit(format!("{t} = or i32 {lt}, {eq}")),
            "%lanemask_gt" => {
                let le = self.t();
                self.emit(format!("{le} = or i32 {lt}, {eq}"));
                self.emit(format!("{t} = xor i32 {le}, -1"));
            }
            _ => self.emit(format!("{t} = xor i32 {lt}, -1")),
        }
        t
    }
}
