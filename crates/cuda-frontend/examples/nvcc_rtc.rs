//! `cargo run --example nvcc_rtc -- file.cu [nvrtc options...] [--name-expr=EXPR]...`
//! Compiles a file as nvrtcCompileProgram would and prints the log and the PTX.
fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    if args.is_empty() {
        eprintln!("usage: nvcc_rtc file.cu [options]");
        std::process::exit(2);
    }
    let file = args.remove(0);
    let mut exprs = Vec::new();
    let mut repeat = 1;
    args.retain(|a| {
        if let Some(e) = a.strip_prefix("--name-expr=") {
            exprs.push(e.to_string());
            false
        } else if let Some(n) = a.strip_prefix("--repeat=") {
            repeat = n.parse().unwrap();
            false
        } else {
            true
        }
    });
    let src = std::fs::read(&file).expect("read source");
    let argrefs: Vec<&str> = args.iter().map(String::as_str).collect();
    let opts = match cuda_frontend::options::parse(&argrefs) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("{}", e.0);
            std::process::exit(1);
        }
    };
    let name = std::path::Path::new(&file).file_name().unwrap().to_string_lossy().into_owned();
    for i in 0..repeat {
        let t = std::time::Instant::now();
        let r = cuda_frontend::compile(&cuda_frontend::Request {
            source: &src,
            name: &name,
            headers: &[],
            options: &opts,
            name_expressions: &exprs,
            default_target: None,
        });
        let ms = t.elapsed().as_secs_f64() * 1e3;
        if i + 1 == repeat {
            eprint!("{}", r.log);
            for (e, l) in &r.lowered_names {
                eprintln!("name {e} -> {l}");
            }
            if let Some(p) = &r.ptx {
                print!("{p}");
            }
        }
        eprintln!(
            "{:?} total {ms:.2} ms (front-end {:.2}, passes {:.2}, codegen {:.2})",
            r.outcome, r.timings.frontend_ms, r.timings.passes_ms, r.timings.codegen_ms
        );
    }
}
