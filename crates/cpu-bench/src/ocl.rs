//! OpenCL through the ICD loader (`libOpenCL.so.1`, opened at run time), just enough to
//! build a program, set arguments, move buffers and enqueue kernels on one CPU device
//! (PoCL's, on Debian `pocl-opencl-icd`). Every failure is an `Err` with the call's name
//! and the OpenCL status, so the benchmark can report PoCL as unavailable and go on.

use std::ffi::{c_char, c_void, CString};

use libloading::Library;

type ClInt = i32;
type Handle = *mut c_void;

const CL_SUCCESS: ClInt = 0;
const CL_DEVICE_TYPE_ALL: u64 = 0xFFFF_FFFF;
const CL_DEVICE_TYPE_CPU: u64 = 1 << 1;
const CL_DEVICE_NAME: u32 = 0x102B;
const CL_DEVICE_MAX_COMPUTE_UNITS: u32 = 0x1002;
const CL_PLATFORM_NAME: u32 = 0x0902;
const CL_PLATFORM_VERSION: u32 = 0x0901;
const CL_PROGRAM_BUILD_LOG: u32 = 0x1183;
const CL_MEM_READ_WRITE: u64 = 1;

type Notify = Option<unsafe extern "C" fn(*const c_char, *const c_void, usize, *mut c_void)>;
type BuildNotify = Option<unsafe extern "C" fn(Handle, *mut c_void)>;

/// The OpenCL entry points used here (signatures from the OpenCL 1.2 headers).
struct Api {
    get_platform_ids: unsafe extern "C" fn(u32, *mut Handle, *mut u32) -> ClInt,
    get_platform_info: unsafe extern "C" fn(Handle, u32, usize, *mut c_void, *mut usize) -> ClInt,
    get_device_ids: unsafe extern "C" fn(Handle, u64, u32, *mut Handle, *mut u32) -> ClInt,
    get_device_info: unsafe extern "C" fn(Handle, u32, usize, *mut c_void, *mut usize) -> ClInt,
    create_context: unsafe extern "C" fn(*const isize, u32, *const Handle, Notify, *mut c_void, *mut ClInt) -> Handle,
    create_command_queue: unsafe extern "C" fn(Handle, Handle, u64, *mut ClInt) -> Handle,
    create_program_with_source: unsafe extern "C" fn(Handle, u32, *const *const c_char, *const usize, *mut ClInt) -> Handle,
    build_program: unsafe extern "C" fn(Handle, u32, *const Handle, *const c_char, BuildNotify, *mut c_void) -> ClInt,
    get_program_build_info: unsafe extern "C" fn(Handle, Handle, u32, usize, *mut c_void, *mut usize) -> ClInt,
    create_kernel: unsafe extern "C" fn(Handle, *const c_char, *mut ClInt) -> Handle,
    set_kernel_arg: unsafe extern "C" fn(Handle, u32, usize, *const c_void) -> ClInt,
    create_buffer: unsafe extern "C" fn(Handle, u64, usize, *mut c_void, *mut ClInt) -> Handle,
    enqueue_write_buffer: unsafe extern "C" fn(Handle, Handle, u32, usize, usize, *const c_void, u32, *const Handle, *mut Handle) -> ClInt,
    enqueue_read_buffer: unsafe extern "C" fn(Handle, Handle, u32, usize, usize, *mut c_void, u32, *const Handle, *mut Handle) -> ClInt,
    enqueue_nd_range_kernel:
        unsafe extern "C" fn(Handle, Handle, u32, *const usize, *const usize, *const usize, u32, *const Handle, *mut Handle) -> ClInt,
    finish: unsafe extern "C" fn(Handle) -> ClInt,
    release_mem_object: unsafe extern "C" fn(Handle) -> ClInt,
    release_kernel: unsafe extern "C" fn(Handle) -> ClInt,
    release_program: unsafe extern "C" fn(Handle) -> ClInt,
    release_command_queue: unsafe extern "C" fn(Handle) -> ClInt,
    release_context: unsafe extern "C" fn(Handle) -> ClInt,
}

fn status(r: ClInt, what: &str) -> Result<(), String> {
    if r == CL_SUCCESS {
        Ok(())
    } else {
        Err(format!("{what} returned OpenCL status {r}"))
    }
}

/// One OpenCL CPU device with a context and an in-order queue.
pub struct OpenCl {
    api: Api,
    device: Handle,
    context: Handle,
    queue: Handle,
    /// "platform name version / device name, N compute units".
    pub description: String,
    _lib: Library,
}

impl OpenCl {
    /// Opens the ICD loader and takes the first CPU device (else the first device).
    pub fn open() -> Result<OpenCl, String> {
        // SAFETY: loading the system's OpenCL ICD loader runs its initializers only.
        let lib = unsafe { Library::new("libOpenCL.so.1") }.map_err(|e| format!("cannot open libOpenCL.so.1: {e}"))?;
        macro_rules! sym {
            ($name:literal) => {
                // SAFETY: the symbol has the signature of the field it is stored in (the
                // OpenCL 1.2 C API).
                *unsafe { lib.get(concat!($name, "\0").as_bytes()) }.map_err(|e| format!("libOpenCL.so.1 lacks {}: {e}", $name))?
            };
        }
        let api = Api {
            get_platform_ids: sym!("clGetPlatformIDs"),
            get_platform_info: sym!("clGetPlatformInfo"),
            get_device_ids: sym!("clGetDeviceIDs"),
            get_device_info: sym!("clGetDeviceInfo"),
            create_context: sym!("clCreateContext"),
            create_command_queue: sym!("clCreateCommandQueue"),
            create_program_with_source: sym!("clCreateProgramWithSource"),
            build_program: sym!("clBuildProgram"),
            get_program_build_info: sym!("clGetProgramBuildInfo"),
            create_kernel: sym!("clCreateKernel"),
            set_kernel_arg: sym!("clSetKernelArg"),
            create_buffer: sym!("clCreateBuffer"),
            enqueue_write_buffer: sym!("clEnqueueWriteBuffer"),
            enqueue_read_buffer: sym!("clEnqueueReadBuffer"),
            enqueue_nd_range_kernel: sym!("clEnqueueNDRangeKernel"),
            finish: sym!("clFinish"),
            release_mem_object: sym!("clReleaseMemObject"),
            release_kernel: sym!("clReleaseKernel"),
            release_program: sym!("clReleaseProgram"),
            release_command_queue: sym!("clReleaseCommandQueue"),
            release_context: sym!("clReleaseContext"),
        };
        // SAFETY: every call below passes buffers of the sizes it declares.
        unsafe {
            let mut n = 0u32;
            status((api.get_platform_ids)(0, std::ptr::null_mut(), &mut n), "clGetPlatformIDs")?;
            if n == 0 {
                return Err("no OpenCL platform (is pocl-opencl-icd installed?)".into());
            }
            let mut platforms = vec![std::ptr::null_mut(); n as usize];
            status((api.get_platform_ids)(n, platforms.as_mut_ptr(), std::ptr::null_mut()), "clGetPlatformIDs")?;
            let mut chosen = None;
            for want in [CL_DEVICE_TYPE_CPU, CL_DEVICE_TYPE_ALL] {
                for &p in &platforms {
                    let mut d: Handle = std::ptr::null_mut();
                    let mut count = 0u32;
                    if (api.get_device_ids)(p, want, 1, &mut d, &mut count) == CL_SUCCESS && count > 0 {
                        chosen = Some((p, d));
                        break;
                    }
                }
                if chosen.is_some() {
                    break;
                }
            }
            let (platform, device) = chosen.ok_or("no OpenCL device")?;
            let text = |f: unsafe extern "C" fn(Handle, u32, usize, *mut c_void, *mut usize) -> ClInt, h: Handle, what: u32| {
                let mut buf = vec![0u8; 512];
                let mut len = 0usize;
                if f(h, what, buf.len(), buf.as_mut_ptr().cast(), &mut len) != CL_SUCCESS {
                    return String::from("?");
                }
                buf.truncate(len.min(buf.len()));
                String::from_utf8_lossy(&buf).trim_end_matches('\0').trim().to_string()
            };
            let mut units = 0u32;
            (api.get_device_info)(device, CL_DEVICE_MAX_COMPUTE_UNITS, 4, (&mut units as *mut u32).cast(), std::ptr::null_mut());
            let description = format!(
                "{} ({}) / {}, {} compute units",
                text(api.get_platform_info, platform, CL_PLATFORM_NAME),
                text(api.get_platform_info, platform, CL_PLATFORM_VERSION),
                text(api.get_device_info, device, CL_DEVICE_NAME),
                units
            );
            let mut err = 0;
            let context = (api.create_context)(std::ptr::null(), 1, &device, None, std::ptr::null_mut(), &mut err);
            status(err, "clCreateContext")?;
            let queue = (api.create_command_queue)(context, device, 0, &mut err);
            status(err, "clCreateCommandQueue")?;
            Ok(OpenCl { api, device, context, queue, description, _lib: lib })
        }
    }

    /// Builds `source` and returns its kernel `name`.
    pub fn kernel(&self, source: &str, name: &str) -> Result<Kernel<'_>, String> {
        let src = CString::new(source).map_err(|_| "NUL in OpenCL source")?;
        let kname = CString::new(name).map_err(|_| "NUL in kernel name")?;
        // SAFETY: valid handles and NUL-terminated strings; sizes as declared.
        unsafe {
            let mut err = 0;
            let ptr = src.as_ptr();
            let program = (self.api.create_program_with_source)(self.context, 1, &ptr, std::ptr::null(), &mut err);
            status(err, "clCreateProgramWithSource")?;
            let built = (self.api.build_program)(program, 1, &self.device, c"".as_ptr(), None, std::ptr::null_mut());
            if built != CL_SUCCESS {
                let mut log = vec![0u8; 1 << 16];
                let mut len = 0usize;
                (self.api.get_program_build_info)(program, self.device, CL_PROGRAM_BUILD_LOG, log.len(), log.as_mut_ptr().cast(), &mut len);
                log.truncate(len.min(log.len()));
                (self.api.release_program)(program);
                return Err(format!("clBuildProgram({name}) returned {built}: {}", String::from_utf8_lossy(&log)));
            }
            let kernel = (self.api.create_kernel)(program, kname.as_ptr(), &mut err);
            if err != CL_SUCCESS {
                (self.api.release_program)(program);
                return Err(format!("clCreateKernel({name}) returned {err}"));
            }
            Ok(Kernel { cl: self, program, kernel })
        }
    }

    pub fn buffer(&self, bytes: usize) -> Result<Buffer<'_>, String> {
        let mut err = 0;
        // SAFETY: valid context; no host pointer.
        let mem = unsafe { (self.api.create_buffer)(self.context, CL_MEM_READ_WRITE, bytes, std::ptr::null_mut(), &mut err) };
        status(err, "clCreateBuffer")?;
        Ok(Buffer { cl: self, mem, bytes })
    }

    /// `clFinish`.
    pub fn finish(&self) -> Result<(), String> {
        // SAFETY: valid queue.
        status(unsafe { (self.api.finish)(self.queue) }, "clFinish")
    }
}

impl Drop for OpenCl {
    fn drop(&mut self) {
        // SAFETY: handles created in `open`, released once.
        unsafe {
            (self.api.release_command_queue)(self.queue);
            (self.api.release_context)(self.context);
        }
    }
}

/// A built kernel (and its program).
pub struct Kernel<'a> {
    cl: &'a OpenCl,
    program: Handle,
    kernel: Handle,
}

/// A kernel argument.
pub enum Arg<'a> {
    I32(i32),
    Mem(&'a Buffer<'a>),
}

impl Kernel<'_> {
    pub fn set_args(&self, args: &[Arg<'_>]) -> Result<(), String> {
        for (i, a) in args.iter().enumerate() {
            // SAFETY: the value pointers are valid for the sizes given.
            let r = unsafe {
                match a {
                    Arg::I32(v) => (self.cl.api.set_kernel_arg)(self.kernel, i as u32, 4, (v as *const i32).cast()),
                    Arg::Mem(b) => {
                        (self.cl.api.set_kernel_arg)(self.kernel, i as u32, std::mem::size_of::<Handle>(), (&b.mem as *const Handle).cast())
                    }
                }
            };
            status(r, "clSetKernelArg")?;
        }
        Ok(())
    }

    /// Enqueues an NDRange of `global` work-items in work-groups of `local` (same rank).
    pub fn enqueue(&self, global: &[usize], local: &[usize]) -> Result<(), String> {
        assert_eq!(global.len(), local.len());
        // SAFETY: valid handles; `global`/`local` hold `len` sizes.
        let r = unsafe {
            (self.cl.api.enqueue_nd_range_kernel)(
                self.cl.queue,
                self.kernel,
                global.len() as u32,
                std::ptr::null(),
                global.as_ptr(),
                local.as_ptr(),
                0,
                std::ptr::null(),
                std::ptr::null_mut(),
            )
        };
        status(r, "clEnqueueNDRangeKernel")
    }
}

impl Drop for Kernel<'_> {
    fn drop(&mut self) {
        // SAFETY: handles created in `OpenCl::kernel`, released once.
        unsafe {
            (self.cl.api.release_kernel)(self.kernel);
            (self.cl.api.release_program)(self.program);
        }
    }
}

/// A device buffer.
pub struct Buffer<'a> {
    cl: &'a OpenCl,
    mem: Handle,
    bytes: usize,
}

impl Buffer<'_> {
    pub fn upload(&self, data: &[f32]) -> Result<(), String> {
        let bytes = std::mem::size_of_val(data);
        assert!(bytes <= self.bytes);
        // SAFETY: blocking write from a live slice of `bytes` bytes.
        let r = unsafe {
            (self.cl.api.enqueue_write_buffer)(self.cl.queue, self.mem, 1, 0, bytes, data.as_ptr().cast(), 0, std::ptr::null(), std::ptr::null_mut())
        };
        status(r, "clEnqueueWriteBuffer")
    }

    pub fn download(&self, out: &mut [f32]) -> Result<(), String> {
        let bytes = std::mem::size_of_val(out);
        assert!(bytes <= self.bytes);
        // SAFETY: blocking read into a live slice of `bytes` bytes.
        let r = unsafe {
            (self.cl.api.enqueue_read_buffer)(
                self.cl.queue,
                self.mem,
                1,
                0,
                bytes,
                out.as_mut_ptr().cast(),
                0,
                std::ptr::null(),
                std::ptr::null_mut(),
            )
        };
        status(r, "clEnqueueReadBuffer")
    }
}

impl Drop for Buffer<'_> {
    fn drop(&mut self) {
        // SAFETY: created in `OpenCl::buffer`, released once.
        unsafe { (self.cl.api.release_mem_object)(self.mem) };
    }
}
