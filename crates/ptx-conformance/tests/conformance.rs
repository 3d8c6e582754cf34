//! Runs every conformance case on the CPU device and checks the outcome against
//! `known_failures.txt`: exactly the cases listed there may fail, so a compiler fix makes
//! this test ask for its line to be removed, and a regression names the case.
//!
//! `PTX_CONFORMANCE_FAMILY=int-arith,half` limits the run to some families (the
//! known-failures check then covers only those).

use ptx_conformance::cpu::{self, Outcome};
use ptx_conformance::families;
use std::collections::BTreeMap;

fn known_failures() -> BTreeMap<String, String> {
    let text = include_str!("../known_failures.txt");
    let mut m = BTreeMap::new();
    for l in text.lines() {
        let l = l.trim();
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        let (id, why) = l.split_once(" | ").unwrap_or((l, ""));
        assert!(m.insert(id.trim().to_string(), why.trim().to_string()).is_none(), "duplicate line for {id}");
    }
    m
}

#[test]
fn conformance_on_cpu_device() {
    let only: Option<Vec<String>> = std::env::var("PTX_CONFORMANCE_FAMILY").ok().map(|s| s.split(',').map(str::to_string).collect());
    let known = known_failures();
    let t0 = std::time::Instant::now();
    let fams: Vec<_> = families::all().into_iter().filter(|(name, _)| only.as_ref().is_none_or(|o| o.iter().any(|x| x == name))).collect();
    let mut ids = std::collections::HashSet::new();
    for (_, build) in &fams {
        for c in build() {
            assert!(ids.insert(c.id.clone()), "duplicate case id {}", c.id);
        }
    }
    let built = t0.elapsed();
    // Each family runs in child processes (a crashing case is isolated, not fatal), two
    // families at a time.
    let exe = std::path::PathBuf::from(env!("CARGO_BIN_EXE_ptx-conformance"));
    let next = std::sync::Mutex::new(0usize);
    let all = std::sync::Mutex::new(Vec::new());
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get()).min(4);
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| loop {
                let k = {
                    let mut n = next.lock().unwrap();
                    *n += 1;
                    *n - 1
                };
                let Some((name, build)) = fams.get(k) else { break };
                let cases = build();
                let crashers: Vec<usize> = (0..cases.len()).filter(|&i| known.get(&cases[i].id).is_some_and(|w| w.starts_with("crash"))).collect();
                let r = cpu::run_isolated(&exe, name, &cases, 1, &crashers);
                all.lock().unwrap().push((k, r));
            });
        }
    });
    let mut all = all.into_inner().unwrap();
    all.sort_by_key(|x| x.0);
    let results: Vec<cpu::CaseResult> = all.into_iter().flat_map(|x| x.1).collect();
    let mut unexpected = Vec::new();
    let mut fixed = Vec::new();
    let mut per_family: BTreeMap<&str, (usize, usize, usize)> = BTreeMap::new();
    for r in &results {
        let e = per_family.entry(r.family).or_default();
        e.0 += 1;
        e.1 += r.inputs;
        let failed = r.outcome != Outcome::Pass;
        if failed {
            e.2 += 1;
        }
        match (failed, known.contains_key(&r.id)) {
            (true, false) => unexpected.push(r.describe()),
            (false, true) => fixed.push(r.id.clone()),
            _ => {}
        }
    }
    for (f, (n, inputs, fails)) in &per_family {
        eprintln!("{f:16} {n:5} cases {inputs:9} inputs {fails:4} failing");
    }
    eprintln!("built in {:.1?}, ran in {:.1?}", built, t0.elapsed() - built);
    if std::env::var_os("PTX_CONFORMANCE_LIST").is_some() {
        for r in &results {
            if r.outcome != Outcome::Pass {
                println!("{} | {}", r.id, r.describe().replace('\n', " "));
            }
        }
    }
    let stale: Vec<&String> = if only.is_none() { known.keys().filter(|k| !ids.contains(*k)).collect() } else { Vec::new() };
    let mut msg = String::new();
    if !unexpected.is_empty() {
        msg += &format!("{} cases fail that known_failures.txt does not list:\n  {}\n", unexpected.len(), unexpected.join("\n  "));
    }
    if !fixed.is_empty() {
        msg += &format!("{} cases listed in known_failures.txt now pass; remove their lines:\n  {}\n", fixed.len(), fixed.join("\n  "));
    }
    if !stale.is_empty() {
        msg += &format!("known_failures.txt names cases that do not exist:\n  {stale:?}\n");
    }
    assert!(msg.is_empty(), "{msg}");
}
