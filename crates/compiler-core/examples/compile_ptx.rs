//! Compile PTX files for the host and list their kernels: `compile_ptx FILE...`.
fn main() {
    for path in std::env::args().skip(1) {
        let text = std::fs::read_to_string(&path).expect("read");
        let t = std::time::Instant::now();
        match compiler_core::host::compile_ptx(&text, &Default::default()) {
            Ok(m) => {
                let names: Vec<_> = m.kernels.iter().map(|k| format!("{}{}", k.meta.name, if k.meta.uses_barrier { "(bar)" } else { "" })).collect();
                println!("{path}: ok in {:?}: {}", t.elapsed(), names.join(" "));
            }
            Err(e) => println!("{path}: {e}"),
        }
    }
}
