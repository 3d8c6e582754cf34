//! One `nvJitLinkHandle`: its options, inputs, logs and output, in safe Rust. The exports
//! in `lib.rs` only translate pointers.
//!
//! Result codes follow NVIDIA's documentation, and where it says nothing, what NVIDIA's
//! libnvJitLink 13.5 answers (measured with `tools/probe.c`):
//! - an input whose bytes are not what its type says is
//!   `NVJITLINK_ERROR_INCORRECT_INPUT_TYPE`; `NVJITLINK_INPUT_ANY` picks the type from the
//!   name's extension, else from the leading bytes, else `NVJITLINK_ERROR_UNRECOGNIZED_INPUT`;
//! - PTX that does not parse is `NVJITLINK_ERROR_PTX_COMPILE` from `nvJitLinkAddData`
//!   (NVIDIA's compiles it there; ours parses it there, and what only code generation finds,
//!   an unknown instruction say, surfaces when the driver loads the linked image);
//! - an undefined reference is `NVJITLINK_ERROR_INTERNAL` from `nvJitLinkComplete` with
//!   `error   : Undefined reference to 'f' in 'input'` in the error log (NVIDIA's line);
//! - a second `nvJitLinkComplete`, or an input added after one, is `NVJITLINK_ERROR_INTERNAL`;
//! - logs accumulate, one line per message, each ending in a newline; their sizes count
//!   the NUL (0 for an empty log, for which the log call still writes the NUL).
//!
//! Inputs this implementation cannot use are `NVJITLINK_ERROR_INVALID_INPUT` (the code
//! `nvJitLinkAddData` documents) with a log line saying so: an NVIDIA cubin (SASS only), a
//! fatbin without PTX for the architecture, LTO-IR, index files. A second strong definition
//! of a name is refused the same way when it is added (NVIDIA's library prints a warning
//! on stderr and keeps one; our PTX linker has no rule for which).
//!
//! Output: our driver compiles PTX, so the "cubin" is the linked PTX text, NUL-terminated
//! (what our `cuLinkComplete` returns too); `cuModuleLoadData` takes it on our driver and
//! on NVIDIA's. `nvJitLinkGetLinkedPtx` answers after every successful link (NVIDIA's only
//! with `-lto`), and with `-lto -ptx` it is the only output (no cubin, as NVIDIA's); PTX
//! inputs link under `-lto` as they would without it (NVIDIA's library would want LTO-IR).

use device_link::{is_cuda_elf, push_line, Fault, InputError, InputKind, PendingLink};
use kernel_image::{classify, ImageKind};

use crate::options::Options;
use crate::result::{input, *};

/// Where a link stands.
#[derive(Debug)]
enum Stage {
    /// `nvJitLinkCreate` refused the options: the handle only holds the error log.
    Refused,
    /// Taking inputs.
    Open,
    /// `nvJitLinkComplete` succeeded: the linked PTX, NUL-terminated.
    Linked(Box<[u8]>),
    /// `nvJitLinkComplete` failed.
    Failed,
}

/// One link.
#[derive(Debug)]
pub struct Link {
    options: Options,
    pending: PendingLink,
    stage: Stage,
    error_log: String,
    info_log: String,
    /// Inputs added so far (names unnamed inputs).
    inputs: usize,
}

/// A failed call: its result code (the log line is already written).
pub type Status = Result<(), NvJitLinkResult>;

impl Link {
    /// `nvJitLinkCreate`: a link, and the code to return. A refused option list still makes
    /// a handle (NVIDIA's does), whose error log says why.
    pub fn create<S: AsRef<str>>(options: &[S]) -> (Link, NvJitLinkResult) {
        let mut link = Link {
            options: Options::default(),
            pending: PendingLink::new(),
            stage: Stage::Open,
            error_log: String::new(),
            info_log: String::new(),
            inputs: 0,
        };
        match Options::parse(options) {
            Ok(options) => {
                link.pending.set_max_registers(options.max_registers.unwrap_or(0));
                link.options = options;
                (link, NVJITLINK_SUCCESS)
            }
            Err(e) => {
                if !e.log.is_empty() {
                    link.error(&e.log);
                }
                link.stage = Stage::Refused;
                (link, e.code)
            }
        }
    }

    /// A handle whose options could not even be read (a NULL option string): refused, with
    /// an empty log, as NVIDIA's library answers.
    pub fn refused() -> Link {
        let (mut link, _) = Link::create(&[] as &[&str]);
        link.error_log.clear();
        link
    }

    /// Appends one line to the error log.
    fn error(&mut self, line: &str) {
        push_line(&mut self.error_log, line.trim_end());
    }

    /// Fails with `code` and `line` in the error log.
    pub fn refuse(&mut self, code: NvJitLinkResult, line: &str) -> Status {
        self.error(line);
        Err(code)
    }

    /// The check every input and `Complete` pass first.
    fn open(&mut self, what: &str) -> Status {
        match self.stage {
            Stage::Open => Ok(()),
            Stage::Refused => self.refuse(NVJITLINK_ERROR_INVALID_INPUT, &format!("error   : {what}: nvJitLinkCreate refused this handle's options")),
            Stage::Linked(_) | Stage::Failed => self.refuse(NVJITLINK_ERROR_INTERNAL, &format!("error   : {what}: the link is already complete")),
        }
    }

    /// `nvJitLinkAddData` / `nvJitLinkAddFile`: adds one input; `name` names it in logs
    /// (`None`: a generated name).
    pub fn add(&mut self, input_type: i32, data: &[u8], name: Option<&str>) -> Status {
        self.inputs += 1;
        let name = name.map(str::to_string).unwrap_or_else(|| format!("<input {}>", self.inputs));
        self.open(&format!("'{name}'"))?;
        if data.is_empty() {
            return Err(NVJITLINK_ERROR_INVALID_INPUT);
        }
        let kind = match input_type {
            input::ANY => match detect(&name, data) {
                Some(t) => t,
                None => return self.refuse(NVJITLINK_ERROR_UNRECOGNIZED_INPUT, &format!("unrecognized input type: {name}")),
            },
            t => t,
        };
        let kind = match kind {
            input::PTX if looks_like_ptx(data) => InputKind::Ptx,
            input::CUBIN if is_cuda_elf(data) || looks_like_ptx(data) => InputKind::Cubin,
            input::FATBIN if classify(data) == ImageKind::FatbinContainer => InputKind::Fatbin,
            input::OBJECT if classify(data) == ImageKind::Elf && !is_cuda_elf(data) => InputKind::Object,
            input::LIBRARY if classify(data) == ImageKind::Archive => InputKind::Library,
            // This stack's NVRTC writes relocatable PTX as its LTO-IR (`-dlto`).
            input::LTOIR if looks_like_ptx(data) => InputKind::Ptx,
            input::LTOIR => InputKind::LtoIr,
            input::INDEX => {
                return self
                    .refuse(NVJITLINK_ERROR_INVALID_INPUT, &format!("error   : '{name}': index files (NVJITLINK_INPUT_INDEX) are not supported"));
            }
            input::PTX | input::CUBIN | input::FATBIN | input::OBJECT | input::LIBRARY => {
                let line = format!("error   : '{name}' does not match type {}", input::name(kind));
                return self.refuse(NVJITLINK_ERROR_INCORRECT_INPUT_TYPE, &line);
            }
            _ => return self.refuse(NVJITLINK_ERROR_INCORRECT_INPUT_TYPE, &format!("unsupported input type: {name}")),
        };
        let mut info = String::new();
        let result = self.pending.add(kind, data, &name, self.options.target_sm(), &mut info);
        if !info.is_empty() {
            push_line(&mut self.info_log, &info);
        }
        match result {
            Ok(()) => {
                if self.options.verbose {
                    push_line(&mut self.info_log, &format!("info    : added '{name}'"));
                }
                Ok(())
            }
            Err(e) => {
                let code = input_error_code(&e);
                self.refuse(code, &e.log)
            }
        }
    }

    /// `nvJitLinkComplete`.
    pub fn complete(&mut self) -> Status {
        self.open("nvJitLinkComplete")?;
        match self.pending.link() {
            Ok(ptx) => {
                let mut bytes = ptx.into_bytes();
                bytes.push(0);
                self.stage = Stage::Linked(bytes.into_boxed_slice());
                Ok(())
            }
            Err(failure) => {
                self.stage = Stage::Failed;
                if self.options.relocatable {
                    push_line(&mut self.info_log, "info    : -r: relocatable links with undefined references are not supported");
                }
                self.refuse(NVJITLINK_ERROR_INTERNAL, &failure.log)
            }
        }
    }

    /// The linked PTX, NUL-terminated (the "cubin" unless `-ptx` was given).
    fn linked(&self) -> Option<&[u8]> {
        match &self.stage {
            Stage::Linked(bytes) => Some(bytes),
            _ => None,
        }
    }

    /// `nvJitLinkGetLinkedCubin(Size)`: the linked PTX (see the module docs).
    pub fn cubin(&mut self) -> Result<&[u8], NvJitLinkResult> {
        if self.linked().is_none() {
            return Err(NVJITLINK_ERROR_INTERNAL);
        }
        if self.options.ptx {
            self.error("error   : no cubin: -ptx asks for PTX only");
            return Err(NVJITLINK_ERROR_INVALID_INPUT);
        }
        Ok(self.linked().unwrap_or_default())
    }

    /// `nvJitLinkGetLinkedPtx(Size)`.
    pub fn ptx(&self) -> Result<&[u8], NvJitLinkResult> {
        self.linked().ok_or(NVJITLINK_ERROR_INVALID_INPUT)
    }

    /// `nvJitLinkGetLinkedLTOIR(Size)`: there is no LTO-IR output.
    pub fn ltoir(&mut self) -> Result<&[u8], NvJitLinkResult> {
        self.error("error   : no LTO-IR output: LTO is not supported");
        Err(NVJITLINK_ERROR_INVALID_INPUT)
    }

    /// The error log as the C API returns it: each line ending in a newline.
    pub fn error_log(&self) -> String {
        as_c_log(&self.error_log)
    }

    /// The info log as the C API returns it.
    pub fn info_log(&self) -> String {
        as_c_log(&self.info_log)
    }
}

fn as_c_log(log: &str) -> String {
    if log.is_empty() {
        String::new()
    } else {
        format!("{log}\n")
    }
}

/// The `nvJitLinkResult` of a refused input.
fn input_error_code(e: &InputError) -> NvJitLinkResult {
    match e.fault {
        Fault::InvalidPtx => NVJITLINK_ERROR_PTX_COMPILE,
        Fault::WrongKind => NVJITLINK_ERROR_INCORRECT_INPUT_TYPE,
        Fault::SassOnly | Fault::LtoIr | Fault::Image(_) | Fault::MultipleDefinition => NVJITLINK_ERROR_INVALID_INPUT,
    }
}

/// Whether `data` is PTX text: no binary magic, and a `.version` directive near the start
/// (after nvcc's comment header).
fn looks_like_ptx(data: &[u8]) -> bool {
    classify(data) == ImageKind::PtxText && {
        let head = &data[..data.len().min(64 * 1024)];
        head.windows(8).any(|w| w == b".version")
    }
}

/// `NVJITLINK_INPUT_ANY`: the type by the name's extension, else by the leading bytes.
fn detect(name: &str, data: &[u8]) -> Option<i32> {
    let extension = name.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase());
    let by_name = match extension.as_deref() {
        Some("ptx") => Some(input::PTX),
        Some("cubin") => Some(input::CUBIN),
        Some("fatbin" | "fatbinary") => Some(input::FATBIN),
        Some("o" | "obj") => Some(input::OBJECT),
        Some("a" | "lib") => Some(input::LIBRARY),
        Some("ltoir") => Some(input::LTOIR),
        _ => None,
    };
    by_name.or_else(|| match classify(data) {
        ImageKind::FatbinContainer => Some(input::FATBIN),
        ImageKind::Elf if is_cuda_elf(data) => Some(input::CUBIN),
        ImageKind::Elf => Some(input::OBJECT),
        ImageKind::Archive => Some(input::LIBRARY),
        ImageKind::PtxText if looks_like_ptx(data) => Some(input::PTX),
        _ if data.starts_with(b"BC\xC0\xDE") => Some(input::LTOIR),
        _ => None,
    })
}
