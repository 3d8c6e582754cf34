//! Runner 2's input: every case written to a directory for `hw/check.py`, which runs them
//! on an NVIDIA GPU through NVIDIA's driver and compares with our expectations.
//!
//! Layout:
//! - `mNNN.ptx`: modules, the same grouping as the CPU runner (kernel `kJ` is the module's
//!   J-th case).
//! - `data.bin`: every input, initial-scratch and expected array, little-endian, each
//!   array stored once however many cases share it.
//! - `manifest.json`: per case its id, family, instruction, module, kernel, first and last
//!   line of its entry in the module (to load it alone when the module fails), thread
//!   count, block size, and for each array `[offset, count, bytes per element]`, with
//!   the output types and checks.

use crate::case::{Case, Check};
use crate::cpu::{to_bytes, GROUP};
use crate::{families, kernel};
use std::collections::HashMap;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;

/// Appends arrays to `data.bin`, storing identical arrays once.
struct Data {
    file: std::io::BufWriter<std::fs::File>,
    len: u64,
    seen: HashMap<u64, Vec<(u64, Vec<u8>)>>,
}

impl Data {
    fn add(&mut self, vals: &[u64], width: usize) -> std::io::Result<String> {
        let bytes = to_bytes(vals, width);
        let h = bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3));
        let entry = self.seen.entry(h).or_default();
        let off = match entry.iter().find(|(_, b)| *b == bytes) {
            Some((o, _)) => *o,
            None => {
                let o = self.len;
                self.file.write_all(&bytes)?;
                self.len += bytes.len() as u64;
                entry.push((o, bytes));
                o
            }
        };
        Ok(format!("[{off}, {}, {width}]", vals.len()))
    }
}

fn json_str(s: &str) -> String {
    let mut o = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            '\n' => o.push_str("\\n"),
            '\t' => o.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(o, "\\u{:04x}", c as u32);
            }
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

fn check_json(c: Check) -> String {
    match c {
        Check::Exact => "\"exact\"".into(),
        Check::Float => "\"float\"".into(),
        Check::Ulp(n) => format!("[\"ulp\", {n}]"),
        Check::Abs(e) => format!("[\"abs\", {e:e}]"),
    }
}

/// Write every case of every family (of the families in `only`, when not empty) under
/// `dir`; returns a one-line summary.
pub fn export_all(dir: &Path, only: &[String]) -> std::io::Result<String> {
    std::fs::create_dir_all(dir)?;
    let mut data = Data { file: std::io::BufWriter::new(std::fs::File::create(dir.join("data.bin"))?), len: 0, seen: HashMap::new() };
    let mut manifest = String::from("{\n\"header\": ");
    manifest += &json_str(kernel::HEADER);
    manifest += ",\n\"cases\": [\n";
    let (mut ncases, mut nmod) = (0usize, 0usize);
    let mut first = true;
    let mut skipped = 0usize;
    for (name, build) in families::all() {
        if !only.is_empty() && !only.iter().any(|o| o == name) {
            continue;
        }
        let cases = build();
        if families::NOT_ON_NVIDIA.contains(&name) {
            skipped += cases.len();
            continue;
        }
        for chunk in cases.chunks(GROUP) {
            let refs: Vec<&Case> = chunk.iter().collect();
            let (text, starts) = kernel::module(&refs);
            let file = format!("m{nmod:03}.ptx");
            std::fs::write(dir.join(&file), &text)?;
            let total_lines = text.lines().count();
            for (j, c) in chunk.iter().enumerate() {
                let end = starts.get(j + 1).map_or(total_lines, |s| s - 2);
                if !first {
                    manifest += ",\n";
                }
                first = false;
                let mut m = format!(
                    "{{\"id\": {}, \"family\": {}, \"instruction\": {}, \"module\": {}, \"kernel\": {}, \"lines\": [{}, {}], \"n\": {}, \"block\": {}",
                    json_str(&c.id),
                    json_str(c.family),
                    json_str(c.instruction()),
                    json_str(&file),
                    json_str(&kernel::kernel_name(j)),
                    starts[j],
                    end,
                    c.n,
                    c.block
                );
                let mut ins = Vec::new();
                for i in &c.inputs {
                    ins.push(format!("{{\"type\": \"{}\", \"data\": {}}}", i.ty.name(), data.add(&i.values, i.ty.bytes())?));
                }
                let mut outs = Vec::new();
                for o in &c.outputs {
                    outs.push(format!(
                        "{{\"type\": \"{}\", \"check\": {}, \"data\": {}}}",
                        o.ty.name(),
                        check_json(o.check),
                        data.add(&o.expected, o.ty.bytes())?
                    ));
                }
                let _ = write!(m, ", \"inputs\": [{}], \"outputs\": [{}]", ins.join(", "), outs.join(", "));
                if let Some(s) = &c.scratch {
                    let _ = write!(
                        m,
                        ", \"scratch\": {{\"type\": \"{}\", \"check\": {}, \"init\": {}, \"expected\": {}}}",
                        s.ty.name(),
                        check_json(s.check),
                        data.add(&s.init, s.ty.bytes())?,
                        data.add(&s.expected, s.ty.bytes())?
                    );
                }
                m.push('}');
                manifest += &m;
                ncases += 1;
            }
            nmod += 1;
        }
    }
    manifest += "\n]\n}\n";
    std::fs::write(dir.join("manifest.json"), manifest)?;
    data.file.flush()?;
    Ok(format!(
        "exported {ncases} cases in {nmod} modules, {} bytes of data; left out {skipped} cases NVIDIA's ptxas rejects ({})",
        data.len,
        families::NOT_ON_NVIDIA.join(", ")
    ))
}
