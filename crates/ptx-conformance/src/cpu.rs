//! Runner 1: compile the cases with compiler-core on the CPU device and compare.
//!
//! Cases are compiled many to a module. When a module fails to compile, the diagnostics'
//! line numbers name the guilty kernels, which are set aside as compile failures and the
//! rest recompiled; a failure that names no line is isolated by bisection.

use crate::case::{matches, Case, Ty};
use crate::kernel;
use backend_api::{Device, LaunchConfig, LoadOptions, LoadedModule};
use std::sync::{Arc, Mutex};

/// What happened to one case.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    Pass,
    /// The module did not compile (the compiler's message).
    Compile(String),
    /// The launch failed (trap, illegal address, ...).
    Launch(String),
    /// Some outputs differ: how many, and a few examples.
    Mismatch {
        count: usize,
        examples: Vec<String>,
    },
    /// The process running the case died (a signal: the compiler or the kernel crashed).
    Crash(String),
    /// A failure reported by a child process: its kind and its one-line description.
    Child {
        kind: String,
        text: String,
    },
}

#[derive(Clone, Debug)]
pub struct CaseResult {
    pub id: String,
    pub family: &'static str,
    pub instruction: String,
    pub inputs: usize,
    pub outcome: Outcome,
}

impl CaseResult {
    /// One line for a report.
    pub fn describe(&self) -> String {
        match &self.outcome {
            Outcome::Pass => format!("{}: pass", self.id),
            Outcome::Compile(m) => format!("{} [{}]: does not compile: {}", self.id, self.instruction, first_line(m)),
            Outcome::Launch(m) => format!("{} [{}]: launch failed: {m}", self.id, self.instruction),
            Outcome::Crash(m) => format!("{} [{}]: crashed the process: {m}", self.id, self.instruction),
            Outcome::Child { text, .. } => text.replace("\\n", "\n"),
            Outcome::Mismatch { count, examples } => {
                format!("{} [{}]: {count} of {} outputs differ, e.g.\n      {}", self.id, self.instruction, self.inputs, examples.join("\n      "))
            }
        }
    }
}

fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or("")
}

/// Kernels per module.
pub const GROUP: usize = 48;

/// Run `cases` on the CPU device, compiling on `threads` threads.
pub fn run(cases: &[Case], threads: usize) -> Vec<CaseResult> {
    run_with(cases, threads, &|_, _| {})
}

/// The same, calling `report(index, result)` as each case finishes.
pub fn run_with(cases: &[Case], threads: usize, report: &(dyn Fn(usize, &CaseResult) + Sync)) -> Vec<CaseResult> {
    let dev = cpu_backend::devices().remove(0);
    let results: Mutex<Vec<Option<CaseResult>>> = Mutex::new(vec![None; cases.len()]);
    let launch_lock = Mutex::new(());
    let groups: Vec<Vec<usize>> = (0..cases.len()).collect::<Vec<_>>().chunks(GROUP).map(|c| c.to_vec()).collect();
    let next = Mutex::new(0usize);
    std::thread::scope(|sc| {
        for _ in 0..threads.max(1) {
            sc.spawn(|| loop {
                let g = {
                    let mut n = next.lock().unwrap();
                    if *n >= groups.len() {
                        break;
                    }
                    *n += 1;
                    *n - 1
                };
                let mut compiled = Vec::new();
                let mut failed = Vec::new();
                compile(&*dev, cases, &groups[g], &mut compiled, &mut failed);
                let mut out = Vec::new();
                for (idx, msg) in failed {
                    out.push((idx, Outcome::Compile(msg)));
                }
                {
                    let _l = launch_lock.lock().unwrap();
                    for (m, members) in &compiled {
                        for (j, &idx) in members.iter().enumerate() {
                            out.push((idx, launch(&*dev, &**m, &kernel::kernel_name(j), &cases[idx])));
                        }
                    }
                }
                let mut r = results.lock().unwrap();
                for (idx, o) in out {
                    let res = result(&cases[idx], o);
                    report(idx, &res);
                    r[idx] = Some(res);
                }
            });
        }
    });
    results.into_inner().unwrap().into_iter().map(|r| r.expect("every case has a result")).collect()
}

fn result(c: &Case, outcome: Outcome) -> CaseResult {
    CaseResult { id: c.id.clone(), family: c.family, instruction: c.instruction().to_string(), inputs: c.n, outcome }
}

/// Run the cases of `family` (which `families::all()` builds as `cases`) in child
/// processes of `exe` (the `ptx-conformance` binary), `threads` compiling in each. When a
/// child dies, the cases it did not report are split in halves and rerun, until the case
/// that kills its process is alone and reported as [`Outcome::Crash`].
///
/// `expect_crash` lists cases known to crash: they run together in one child at the end
/// without bisection (a batch that dies leaves its unreported cases marked as crashed), so
/// that known crashes cost one process, not a bisection each.
pub fn run_isolated(exe: &std::path::Path, family: &str, cases: &[Case], threads: usize, expect_crash: &[usize]) -> Vec<CaseResult> {
    let mut results: Vec<Option<CaseResult>> = vec![None; cases.len()];
    let normal: Vec<usize> = (0..cases.len()).filter(|i| !expect_crash.contains(i)).collect();
    let mut work: Vec<Vec<usize>> = vec![normal];
    if !expect_crash.is_empty() {
        let list: Vec<String> = expect_crash.iter().map(|i| i.to_string()).collect();
        let out = run_child(exe, &["run", family, "--threads", "1", "--only", &list.join(",")], KNOWN_CRASH_TIMEOUT_S);
        parse_child(&out, cases, &mut results);
        for &i in expect_crash {
            if results[i].is_none() {
                let why = if out.status.to_string().contains("SIGKILL") {
                    "hang (killed after the time limit)".to_string()
                } else {
                    out.status.to_string()
                };
                results[i] = Some(result(&cases[i], Outcome::Crash(format!("{why} (in a batch of known crashes)"))));
            }
        }
    }
    while let Some(batch) = work.pop() {
        if batch.is_empty() {
            continue;
        }
        let list: Vec<String> = batch.iter().map(|i| i.to_string()).collect();
        let out = run_child(exe, &["run", family, "--threads", &threads.to_string(), "--only", &list.join(",")], CHILD_TIMEOUT_S);
        parse_child(&out, cases, &mut results);
        if out.status.success() {
            continue;
        }
        let left: Vec<usize> = batch.iter().copied().filter(|&i| results[i].is_none()).collect();
        if left.len() == 1 {
            let err = String::from_utf8_lossy(&out.stderr);
            let tail: Vec<&str> = err.lines().rev().take(2).collect();
            let why = if out.status.code().is_none() && out.status.to_string().contains("SIGKILL") {
                "killed after the time limit (hang?)".to_string()
            } else {
                format!("{} {}", out.status, tail.join(" | "))
            };
            results[left[0]] = Some(result(&cases[left[0]], Outcome::Crash(why)));
        } else if !left.is_empty() {
            let (a, b) = left.split_at(left.len() / 2);
            work.push(b.to_vec());
            work.push(a.to_vec());
        }
    }
    results.into_iter().map(|r| r.expect("every case has a result")).collect()
}

/// Record the results a child printed.
fn parse_child(out: &std::process::Output, cases: &[Case], results: &mut [Option<CaseResult>]) {
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let f: Vec<&str> = line.splitn(4, '\t').collect();
        if f.len() == 4 && f[0] == "R" {
            let idx: usize = f[1].parse().expect("index");
            let o = if f[2] == "pass" { Outcome::Pass } else { Outcome::Child { kind: f[2].to_string(), text: f[3].to_string() } };
            results[idx] = Some(result(&cases[idx], o));
        }
    }
}

/// Run a child with a time limit (a hung case must not hang the suite).
fn run_child(exe: &std::path::Path, args: &[&str], timeout_s: u64) -> std::process::Output {
    use std::io::Read;
    use std::process::Stdio;
    let mut child = std::process::Command::new(exe).args(args).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("spawn ptx-conformance");
    let (mut so, mut se) = (child.stdout.take().unwrap(), child.stderr.take().unwrap());
    let t_out = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = so.read_to_end(&mut v);
        v
    });
    let t_err = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = se.read_to_end(&mut v);
        v
    });
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(timeout_s);
    let status = loop {
        if let Some(st) = child.try_wait().expect("wait") {
            break st;
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            break child.wait().expect("wait");
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    };
    std::process::Output { status, stdout: t_out.join().unwrap(), stderr: t_err.join().unwrap() }
}

/// Seconds a child may run before it counts as hung.
pub const CHILD_TIMEOUT_S: u64 = 120;

/// The same for the batch of cases known to crash or hang (a known hang must not cost
/// the suite two minutes each run).
pub const KNOWN_CRASH_TIMEOUT_S: u64 = 10;

type Compiled = (Arc<dyn LoadedModule>, Vec<usize>);

/// Compile `members` (indices into `cases`), isolating kernels that break the module.
fn compile(dev: &dyn Device, cases: &[Case], members: &[usize], ok: &mut Vec<Compiled>, failed: &mut Vec<(usize, String)>) {
    let mut live: Vec<usize> = members.to_vec();
    while !live.is_empty() {
        let refs: Vec<&Case> = live.iter().map(|&i| &cases[i]).collect();
        let (text, starts) = kernel::module(&refs);
        // Eager: the diagnostics at load name the kernels that break the module.
        let err = match dev.load_ptx(&text, &LoadOptions { lazy: Some(false), ..Default::default() }) {
            Ok(m) => {
                ok.push((m, live));
                return;
            }
            Err(e) => e.to_string(),
        };
        // Which kernels do the diagnostics point at?
        let mut guilty: Vec<(usize, String)> = Vec::new();
        for l in err.lines() {
            if let Some(line) = diag_line(l) {
                let j = starts.partition_point(|&s| s <= line).saturating_sub(1);
                if let Some(g) = guilty.iter_mut().find(|g| g.0 == j) {
                    if !g.1.contains(l) && g.1.lines().count() < 3 {
                        g.1.push('\n');
                        g.1.push_str(l);
                    }
                } else {
                    guilty.push((j, l.to_string()));
                }
            }
        }
        if !guilty.is_empty() {
            guilty.sort_by_key(|g| std::cmp::Reverse(g.0));
            for (j, msg) in guilty {
                failed.push((live.remove(j), msg));
            }
            continue;
        }
        if live.len() == 1 {
            failed.push((live[0], err));
            return;
        }
        let (a, b) = live.split_at(live.len() / 2);
        compile(dev, cases, a, ok, failed);
        compile(dev, cases, b, ok, failed);
        return;
    }
}

/// The line of a `ptx:LINE:COL: ...` diagnostic.
fn diag_line(l: &str) -> Option<usize> {
    let rest = l.trim_start().strip_prefix("ptx:")?;
    rest.split(':').next()?.parse().ok()
}

/// Upload, launch, download and compare one case.
fn launch(dev: &dyn Device, m: &dyn LoadedModule, name: &str, c: &Case) -> Outcome {
    let n = c.n;
    let mut ptrs = [0u64; 7];
    let mut allocs = Vec::new();
    let mut upload = |vals: &[u64], ty: Ty| -> u64 {
        let bytes = to_bytes(vals, ty.bytes());
        let p = dev.alloc(bytes.len().max(8)).expect("alloc");
        // SAFETY: `bytes` is valid for its length and `p` was allocated with at least that.
        unsafe { dev.copy_to_device(p, bytes.as_ptr(), bytes.len()).expect("copy") };
        allocs.push(p);
        p
    };
    for (k, i) in c.inputs.iter().enumerate() {
        ptrs[k] = upload(&i.values, i.ty);
    }
    for (k, o) in c.outputs.iter().enumerate() {
        // A sentinel pattern shows outputs never written.
        ptrs[4 + k] = upload(&vec![0xcdcd_cdcd_cdcd_cdcd; n], o.ty);
    }
    if let Some(s) = &c.scratch {
        ptrs[6] = upload(&s.init, s.ty);
    }
    let info = m.kernel(name).expect("kernel present");
    let mut params = vec![0u8; info.param_buffer_size];
    for (k, l) in info.params.iter().enumerate() {
        if k < 7 {
            params[l.offset..l.offset + 8].copy_from_slice(&ptrs[k].to_le_bytes());
        } else {
            params[l.offset..l.offset + 4].copy_from_slice(&(n as u32).to_le_bytes());
        }
    }
    let grid = n.div_ceil(c.block as usize) as u32;
    let cfg = LaunchConfig { grid: [grid, 1, 1], block: [c.block, 1, 1], dynamic_shared_bytes: 0 };
    let r = m.launch(name, &cfg, &params);
    let download = |p: u64, len: usize, ty: Ty| -> Vec<u64> {
        let mut bytes = vec![0u8; len * ty.bytes()];
        // SAFETY: `bytes` is valid for writing its length; `p` holds at least that many.
        unsafe { dev.copy_from_device(bytes.as_mut_ptr(), p, bytes.len()).expect("copy") };
        from_bytes(&bytes, ty.bytes())
    };
    let outcome = match r {
        Err(e) => Outcome::Launch(e.to_string()),
        Ok(()) => {
            let mut count = 0;
            let mut examples = Vec::new();
            for (k, o) in c.outputs.iter().enumerate() {
                let got = download(ptrs[4 + k], n, o.ty);
                for i in 0..n {
                    if !matches(o.check, o.ty, o.expected[i], got[i]) {
                        count += 1;
                        if examples.len() < 4 {
                            examples.push(example(c, i, &format!("%{}", ["x", "y"][k]), got[i], o.expected[i]));
                        }
                    }
                }
            }
            if let Some(s) = &c.scratch {
                let got = download(ptrs[6], s.init.len(), s.ty);
                for i in 0..s.init.len() {
                    if !matches(s.check, s.ty, s.expected[i], got[i]) {
                        count += 1;
                        if examples.len() < 4 {
                            examples.push(format!("scratch[{i}]: got {:#x}, want {:#x}", got[i], s.expected[i]));
                        }
                    }
                }
            }
            if count == 0 {
                Outcome::Pass
            } else {
                Outcome::Mismatch { count, examples }
            }
        }
    };
    for p in allocs {
        let _ = dev.free(p);
    }
    outcome
}

fn example(c: &Case, i: usize, reg: &str, got: u64, want: u64) -> String {
    let ins: Vec<String> = c.inputs.iter().zip(["a", "b", "c", "d"]).map(|(inp, n)| format!("{n}={:#x}", inp.values[i])).collect();
    format!("[{i}] {}: {reg} got {got:#x}, want {want:#x}", ins.join(" "))
}

/// Little-endian bytes of `vals`, `width` bytes each.
pub fn to_bytes(vals: &[u64], width: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(vals.len() * width);
    for v in vals {
        out.extend_from_slice(&v.to_le_bytes()[..width]);
    }
    out
}

pub fn from_bytes(bytes: &[u8], width: usize) -> Vec<u64> {
    bytes
        .chunks(width)
        .map(|c| {
            let mut b = [0u8; 8];
            b[..width].copy_from_slice(c);
            u64::from_le_bytes(b)
        })
        .collect()
}
