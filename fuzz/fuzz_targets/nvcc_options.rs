//! Fuzz target: arbitrary command lines through our nvcc's option parser (`cli::parse`,
//! which takes nvcc's whole option set). A parse may refuse a command line with a fatal
//! message; it must never panic. Arguments naming paths are dropped: `--options-file`
//! reads the file it names, and a fuzzer must not make it read a device.
#![no_main]

#[allow(dead_code)]
#[path = "../../crates/nvcc/src/cli.rs"]
mod cli;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let args: Vec<String> = text.split(['\0', '\n', ' ']).filter(|a| !a.is_empty() && !a.contains('/')).map(str::to_owned).collect();
    let _ = cli::parse(&args);
});
