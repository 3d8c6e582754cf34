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
            "%lanemask_eq" | "%lanemask_lt" | "%lanemask_le" | "%lanemask_gt" | "%lanemask_ge" => {
                // A 32-lane module's masks fit the u32 (`lanemask_src` reads 64-lane ones).
                let m = self.lanemask(name);
                let r = self.t();
                self.emit(format!("{r} = trunc i64 {m} to i32"));
                return Ok(Some(r));
            }
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
            n if n.starts_with("%reserved_smem_offset_") => return Ok(self.reserved_smem(n)),
            // Thread block clusters (PTX ISA 10.x, "%cluster_ctaid", "%clusterid", ...): the
            // driver launches clusters of one block only, so each block is its own cluster.
            "%clusterid" => format!("__ptx_sreg_ctaid_{xyz}"),
            "%nclusterid" => format!("__ptx_sreg_nctaid_{xyz}"),
            "%cluster_ctaid" | "%cluster_ctarank" => return Ok(Some("0".to_string())),
            "%cluster_nctaid" | "%cluster_nctarank" => return Ok(Some("1".to_string())),
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

    /// `%reserved_smem_offset_{begin,end,cap,0,1}` (PTX ISA 10.x, "Special Registers:
    /// %reserved_smem_offset_begin, %reserved_smem_offset_end, %reserved_smem_offset_cap,
    /// %reserved_smem_offset_<2>"): the start, end and size of the CTA's reserved shared
    /// memory, and two offsets inside it. The region is laid out by `shared_layout` (1 KiB);
    /// offsets 0 and 1 each get half of it (cooperative groups keep their multi-warp
    /// scratch of at most 288 bytes at offset 1). `None` for any other name.
    fn reserved_smem(&mut self, name: &str) -> Option<String> {
        use super::shared_layout::{RESERVED_SMEM, RESERVED_SMEM_BYTES};
        let begin = match self.cx.symbols.get(RESERVED_SMEM) {
            Some(super::module::Symbol::Shared { offset }) => *offset,
            _ => return None,
        };
        let v = match &name["%reserved_smem_offset_".len()..] {
            "begin" | "0" => begin,
            "1" => begin + RESERVED_SMEM_BYTES / 2,
            "end" => begin + RESERVED_SMEM_BYTES,
            "cap" => RESERVED_SMEM_BYTES,
            _ => return None,
        };
        Some(v.to_string())
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

    /// `%lanemask_{eq,lt,le,gt,ge}` (PTX ISA chapter 10) as an i64 of the module's warp width:
    /// lanes relative to this one (`gt`/`ge` stop at the last lane of the warp).
    pub(crate) fn lanemask(&mut self, name: &str) -> String {
        let full = super::lanemask::full_mask(self.cx.warp_size);
        let lane = self.intrinsic("__ptx_sreg_laneid", "");
        let lane64 = self.t();
        self.emit(format!("{lane64} = zext i32 {lane} to i64"));
        let eq = self.t();
        self.emit(format!("{eq} = shl i64 1, {lane64}"));
        let lt = self.t();
        self.emit(format!("{lt} = sub i64 {eq}, 1"));
        let t = self.t();
        match name {
            "%lanemask_eq" => return eq,
            "%lanemask_lt" => return lt,
            "%lanemask_le" => self.emit(format!("{t} = or i64 {lt}, {eq}")),
            "%lanemask_gt" => {
                let le = self.t();
                self.emit(format!("{le} = or i64 {lt}, {eq}"));
                self.emit(format!("{t} = xor i64 {le}, {full}"));
            }
            _ => self.emit(format!("{t} = xor i64 {lt}, {full}")),
        }
        t
    }
}
