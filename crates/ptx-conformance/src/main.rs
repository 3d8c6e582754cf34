//! `ptx-conformance`: the suite's command line.
//!
//! - `ptx-conformance run [FAMILY] [--only I,J,..] [--threads N]`: run cases on the CPU
//!   device, one `R\t<index>\t<outcome>\t<description>` line per case as it finishes
//!   (the test harness runs this in child processes so that a crashing case is isolated
//!   and reported instead of taking the whole suite down).
//! - `ptx-conformance report [FAMILY...]`: run in-process and print failures and counts.
//! - `ptx-conformance export DIR [FAMILY...]`: write every case (of the named families)
//!   for the hardware check (`hw/check.py`).
//! - `ptx-conformance list [FAMILY]`: case ids and instructions.

use ptx_conformance::{cpu, export, families};
use std::io::Write;

fn family_cases(name: &str) -> Vec<ptx_conformance::case::Case> {
    let (_, build) = families::all().into_iter().find(|f| f.0 == name).unwrap_or_else(|| {
        eprintln!("unknown family {name}");
        std::process::exit(2)
    });
    build()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let flag = |name: &str| args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).cloned();
    match args.first().map(String::as_str) {
        Some("run") => {
            let cases = family_cases(&args[1]);
            let only: Vec<usize> = match flag("--only") {
                Some(s) => s.split(',').filter(|x| !x.is_empty()).map(|x| x.parse().expect("index")).collect(),
                None => (0..cases.len()).collect(),
            };
            let threads = flag("--threads").map_or(1, |t| t.parse().expect("threads"));
            let picked: Vec<_> = only.iter().map(|&i| cases[i].clone()).collect();
            let out = std::sync::Mutex::new(std::io::stdout());
            cpu::run_with(&picked, threads, &|j, r| {
                let kind = match r.outcome {
                    cpu::Outcome::Pass => "pass",
                    cpu::Outcome::Compile(_) => "compile",
                    cpu::Outcome::Launch(_) => "launch",
                    cpu::Outcome::Mismatch { .. } => "mismatch",
                    cpu::Outcome::Crash(_) | cpu::Outcome::Child { .. } => "crash",
                };
                let mut o = out.lock().unwrap();
                let _ = writeln!(o, "R\t{}\t{kind}\t{}", only[j], r.describe().replace('\n', "\\n").replace('\t', " "));
                let _ = o.flush();
            });
        }
        Some("report") => {
            let names: Vec<&str> =
                if args.len() > 1 { args[1..].iter().map(String::as_str).collect() } else { families::all().iter().map(|f| f.0).collect() };
            for name in names {
                let cases = family_cases(name);
                let results = cpu::run(&cases, 2);
                let fails: Vec<_> = results.iter().filter(|r| r.outcome != cpu::Outcome::Pass).collect();
                println!("== {name}: {} cases, {} failing", results.len(), fails.len());
                for r in fails {
                    println!("  {}", r.describe());
                }
            }
        }
        Some("export") => {
            let dir = std::path::PathBuf::from(args.get(1).expect("export DIR"));
            let summary = export::export_all(&dir, &args[2..]).expect("export");
            println!("{summary}");
        }
        Some("list") => {
            for (name, build) in families::all() {
                if args.len() > 1 && args[1] != name {
                    continue;
                }
                for c in build() {
                    println!("{name}\t{}\t{}\t{}", c.id, c.n, c.instruction());
                }
            }
        }
        _ => {
            eprintln!("usage: ptx-conformance run FAMILY [--only I,J] [--threads N] | report [FAMILY..] | export DIR [FAMILY..] | list [FAMILY]");
            std::process::exit(2);
        }
    }
}
