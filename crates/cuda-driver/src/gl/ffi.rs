//! The process's OpenGL, reached at run time: the GL context current on the calling
//! thread (EGL or GLX) and the few GL calls interop needs.
//!
//! Nothing is linked and nothing is loaded: a program that has a GL context has already
//! loaded `libEGL.so.1` or `libGL.so.1` / `libGLX.so.0`, so they are opened with
//! `RTLD_NOLOAD`, and a process without them has no GL context ("OpenGL
//! Interoperability": the calls need "a valid OpenGL context bound to the current
//! thread"). GL functions come from the window system's `GetProcAddress` of the API whose
//! context is current (EGL 1.5 and Mesa return core functions too), so they dispatch to
//! that context whichever vendor library serves it.
//!
//! Every operation binds the object to a binding point interop owns for the call
//! (`GL_COPY_READ_BUFFER`, the active unit's `GL_TEXTURE_2D`) and puts back the
//! application's binding and pixel-store state afterwards, so the program's GL state is
//! as it left it.

use std::ffi::{c_char, c_void, CStr};
use std::sync::OnceLock;

use libloading::os::unix::Library;

const GL_NO_ERROR: u32 = 0;
const GL_VERSION: u32 = 0x1F02;
const GL_COPY_READ_BUFFER: u32 = 0x8F36;
const GL_COPY_READ_BUFFER_BINDING: u32 = 0x8F36;
const GL_BUFFER_SIZE: u32 = 0x8764;
const GL_MAP_READ_BIT: u32 = 0x0001;
pub(crate) const GL_TEXTURE_2D: u32 = 0x0DE1;
const GL_TEXTURE_BINDING_2D: u32 = 0x8069;
const GL_TEXTURE_WIDTH: u32 = 0x1000;
const GL_TEXTURE_HEIGHT: u32 = 0x1001;
const GL_TEXTURE_INTERNAL_FORMAT: u32 = 0x1003;
const GL_PACK_ALIGNMENT: u32 = 0x0D05;
const GL_PACK_ROW_LENGTH: u32 = 0x0D02;
const GL_UNPACK_ALIGNMENT: u32 = 0x0CF5;
const GL_UNPACK_ROW_LENGTH: u32 = 0x0CF2;
const GL_UNPACK_SKIP_ROWS: u32 = 0x0CF3;
const GL_UNPACK_SKIP_PIXELS: u32 = 0x0CF4;
const GL_PACK_SKIP_ROWS: u32 = 0x0D03;
const GL_PACK_SKIP_PIXELS: u32 = 0x0D04;
const GL_PIXEL_PACK_BUFFER: u32 = 0x88EB;
const GL_PIXEL_UNPACK_BUFFER: u32 = 0x88EC;
const GL_PIXEL_PACK_BUFFER_BINDING: u32 = 0x88ED;
const GL_PIXEL_UNPACK_BUFFER_BINDING: u32 = 0x88EF;

/// Why a GL operation did not happen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum GlFail {
    /// The process has loaded no EGL or GLX library.
    NoLibrary,
    /// No EGL or GLX context is current on this thread.
    NoContext,
    /// The name is not a buffer / texture of the current context.
    NotAnObject,
    /// The context lacks a function (`GL_OES`-only or too old a GL).
    Missing(&'static str),
    /// The call raised a GL error (`glGetError`).
    Error(u32),
}

type GetProcAddress = unsafe extern "C" fn(*const c_char) -> *mut c_void;
type GetCurrent = unsafe extern "C" fn() -> *mut c_void;

/// A library the process has already loaded, kept open once found.
fn loaded(slot: &'static OnceLock<Library>, names: &[&str]) -> Option<&'static Library> {
    if let Some(lib) = slot.get() {
        return Some(lib);
    }
    for name in names {
        // SAFETY: RTLD_NOLOAD opens only a library already loaded, so no initializer runs.
        if let Ok(lib) = unsafe { Library::open(Some(name), libc::RTLD_NOW | libc::RTLD_NOLOAD) } {
            let _ = slot.set(lib);
            return slot.get();
        }
    }
    None
}

/// A window-system API: the libraries that provide it and its two entry points used here.
struct WindowSystem {
    slot: &'static OnceLock<Library>,
    libraries: &'static [&'static str],
    get_current_context: &'static [u8],
    get_proc_address: &'static [u8],
}

/// The EGL library, once the process has loaded it.
static EGL: OnceLock<Library> = OnceLock::new();
const EGL_LIBRARIES: &[&str] = &["libEGL.so.1", "libEGL.so"];

/// The `GetProcAddress` of the window-system API whose context is current.
fn current_get_proc_address() -> Result<GetProcAddress, GlFail> {
    static GLX: OnceLock<Library> = OnceLock::new();
    let apis = [
        WindowSystem {
            slot: &EGL,
            libraries: EGL_LIBRARIES,
            get_current_context: b"eglGetCurrentContext\0",
            get_proc_address: b"eglGetProcAddress\0",
        },
        WindowSystem {
            slot: &GLX,
            libraries: &["libGLX.so.0", "libGL.so.1", "libGL.so"],
            get_current_context: b"glXGetCurrentContext\0",
            get_proc_address: b"glXGetProcAddressARB\0",
        },
    ];
    let mut any_library = false;
    for api in apis {
        let Some(lib) = loaded(api.slot, api.libraries) else { continue };
        any_library = true;
        // SAFETY: both symbols have these C signatures in EGL 1.4+ / GLX 1.4.
        let (current, proc_address) = unsafe {
            let Ok(current) = lib.get::<GetCurrent>(api.get_current_context) else { continue };
            let Ok(proc_address) = lib.get::<GetProcAddress>(api.get_proc_address) else { continue };
            (*current, *proc_address)
        };
        // SAFETY: no arguments; answers the calling thread's context or NULL.
        if !unsafe { current() }.is_null() {
            return Ok(proc_address);
        }
    }
    Err(if any_library { GlFail::NoContext } else { GlFail::NoLibrary })
}

/// Whether an EGL context is current on the calling thread, and if not, why: EGL images
/// are EGL objects, which a GLX context cannot use.
pub(crate) fn egl_context_current() -> Result<(), GlFail> {
    let lib = loaded(&EGL, EGL_LIBRARIES).ok_or(GlFail::NoLibrary)?;
    // SAFETY: eglGetCurrentContext has this C signature (EGL 1.4+).
    let current = unsafe { lib.get::<GetCurrent>(b"eglGetCurrentContext\0") }.map_err(|_| GlFail::Missing("eglGetCurrentContext"))?;
    // SAFETY: no arguments; answers the calling thread's context or NULL.
    if unsafe { current() }.is_null() {
        return Err(GlFail::NoContext);
    }
    Ok(())
}

/// The function `name` of the current context's window system (GL extension functions
/// included), NULL where it has none.
pub(crate) fn proc_address(name: &CStr) -> Result<*mut c_void, GlFail> {
    let get = current_get_proc_address()?;
    // SAFETY: a NUL-terminated name.
    Ok(unsafe { get(name.as_ptr()) })
}

/// Whether a GL context is current on the calling thread, and if not, why.
pub(crate) fn context_current() -> Result<(), GlFail> {
    current_get_proc_address().map(|_| ())
}

/// Whether the process has loaded an EGL or GLX library.
pub(crate) fn library_loaded() -> bool {
    !matches!(current_get_proc_address(), Err(GlFail::NoLibrary))
}

macro_rules! gl_functions {
    ($($field:ident: $name:literal fn($($arg:ty),*) $(-> $ret:ty)?;)*) => {
        /// The GL functions of the current context.
        pub(crate) struct Gl {
            $($field: unsafe extern "C" fn($($arg),*) $(-> $ret)?,)*
            /// An OpenGL ES context (no `glGetTexImage`).
            pub(crate) es: bool,
        }

        impl Gl {
            /// The functions of the context current on this thread.
            pub(crate) fn current() -> Result<Gl, GlFail> {
                let get = current_get_proc_address()?;
                $(
                    // SAFETY: a NUL-terminated name; a non-NULL answer is that GL
                    // function, whose C signature this is (OpenGL 4.6 / ES 3.2).
                    let $field = unsafe {
                        let p = get(concat!($name, "\0").as_ptr().cast());
                        if p.is_null() {
                            return Err(GlFail::Missing($name));
                        }
                        std::mem::transmute::<*mut c_void, unsafe extern "C" fn($($arg),*) $(-> $ret)?>(p)
                    };
                )*
                let mut gl = Gl { $($field,)* es: false };
                // SAFETY: GL_VERSION is a valid name; the answer is NULL or a static string.
                let version = unsafe { (gl.get_string)(GL_VERSION) };
                // SAFETY: as above.
                gl.es = !version.is_null() && unsafe { CStr::from_ptr(version.cast()) }.to_bytes().starts_with(b"OpenGL ES");
                Ok(gl)
            }
        }
    };
}

gl_functions! {
    get_error: "glGetError" fn() -> u32;
    get_integerv: "glGetIntegerv" fn(u32, *mut i32);
    get_string: "glGetString" fn(u32) -> *const u8;
    is_buffer: "glIsBuffer" fn(u32) -> u8;
    is_texture: "glIsTexture" fn(u32) -> u8;
    bind_buffer: "glBindBuffer" fn(u32, u32);
    get_buffer_parameteriv: "glGetBufferParameteriv" fn(u32, u32, *mut i32);
    map_buffer_range: "glMapBufferRange" fn(u32, isize, isize, u32) -> *mut c_void;
    unmap_buffer: "glUnmapBuffer" fn(u32) -> u8;
    buffer_sub_data: "glBufferSubData" fn(u32, isize, isize, *const c_void);
    bind_texture: "glBindTexture" fn(u32, u32);
    get_tex_level_parameteriv: "glGetTexLevelParameteriv" fn(u32, i32, u32, *mut i32);
    get_tex_image: "glGetTexImage" fn(u32, i32, u32, u32, *mut c_void);
    tex_sub_image_2d: "glTexSubImage2D" fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void);
    pixel_storei: "glPixelStorei" fn(u32, i32);
    gen_textures: "glGenTextures" fn(i32, *mut u32);
    delete_textures: "glDeleteTextures" fn(i32, *const u32);
    finish: "glFinish" fn();
}

/// Width, height and internal format of a 2D texture's level 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TextureInfo {
    pub width: usize,
    pub height: usize,
    pub internal_format: u32,
}

impl Gl {
    fn integer(&self, pname: u32) -> i32 {
        let mut v = 0;
        // SAFETY: one integer is written for these single-valued names.
        unsafe { (self.get_integerv)(pname, &mut v) };
        v
    }

    /// Clears errors earlier calls of the application left, so that the check after an
    /// operation sees only its own.
    fn clear_errors(&self) {
        // SAFETY: no arguments. GL keeps at most one flag per error kind, hence the bound.
        for _ in 0..16 {
            if unsafe { (self.get_error)() } == GL_NO_ERROR {
                break;
            }
        }
    }

    fn check(&self) -> Result<(), GlFail> {
        // SAFETY: no arguments.
        match unsafe { (self.get_error)() } {
            GL_NO_ERROR => Ok(()),
            e => Err(GlFail::Error(e)),
        }
    }

    /// Runs `f` with buffer `name` bound to `GL_COPY_READ_BUFFER`, restoring the binding.
    fn with_buffer<T>(&self, name: u32, f: impl FnOnce() -> T) -> Result<T, GlFail> {
        // SAFETY: any name is accepted.
        if name == 0 || unsafe { (self.is_buffer)(name) } == 0 {
            return Err(GlFail::NotAnObject);
        }
        self.clear_errors();
        let previous = self.integer(GL_COPY_READ_BUFFER_BINDING) as u32;
        // SAFETY: a buffer name of this context.
        unsafe { (self.bind_buffer)(GL_COPY_READ_BUFFER, name) };
        let out = f();
        // SAFETY: the binding the application had.
        unsafe { (self.bind_buffer)(GL_COPY_READ_BUFFER, previous) };
        Ok(out)
    }

    /// The size in bytes of buffer `name`'s data store.
    pub(crate) fn buffer_size(&self, name: u32) -> Result<usize, GlFail> {
        let mut size = 0;
        // SAFETY: GL_BUFFER_SIZE writes one integer.
        self.with_buffer(name, || unsafe { (self.get_buffer_parameteriv)(GL_COPY_READ_BUFFER, GL_BUFFER_SIZE, &mut size) })?;
        self.check()?;
        Ok(size.max(0) as usize)
    }

    /// Copies the first `dst.len()` bytes of buffer `name` into `dst`.
    pub(crate) fn read_buffer(&self, name: u32, dst: &mut [u8]) -> Result<(), GlFail> {
        if dst.is_empty() {
            return Ok(());
        }
        let mapped = self.with_buffer(name, || {
            // SAFETY: a read mapping of `dst.len()` bytes of the bound buffer, copied out
            // and unmapped before the binding changes.
            unsafe {
                let p = (self.map_buffer_range)(GL_COPY_READ_BUFFER, 0, dst.len() as isize, GL_MAP_READ_BIT);
                if p.is_null() {
                    return false;
                }
                std::ptr::copy_nonoverlapping(p.cast::<u8>(), dst.as_mut_ptr(), dst.len());
                (self.unmap_buffer)(GL_COPY_READ_BUFFER);
                true
            }
        })?;
        self.check()?;
        if mapped {
            Ok(())
        } else {
            Err(GlFail::Error(0))
        }
    }

    /// Writes `src` over the first `src.len()` bytes of buffer `name`.
    pub(crate) fn write_buffer(&self, name: u32, src: &[u8]) -> Result<(), GlFail> {
        if src.is_empty() {
            return Ok(());
        }
        // SAFETY: `src` is readable for its length; GL copies it before returning.
        self.with_buffer(name, || unsafe { (self.buffer_sub_data)(GL_COPY_READ_BUFFER, 0, src.len() as isize, src.as_ptr().cast()) })?;
        self.check()
    }

    /// Runs `f` with texture `name` bound to the active unit's `GL_TEXTURE_2D`, and the
    /// pixel-store state `store` asks for (names and values), restoring both.
    fn with_texture<T>(&self, name: u32, store: &[(u32, i32)], buffer_binding: (u32, u32), f: impl FnOnce() -> T) -> Result<T, GlFail> {
        // SAFETY: any name is accepted.
        if name == 0 || unsafe { (self.is_texture)(name) } == 0 {
            return Err(GlFail::NotAnObject);
        }
        self.clear_errors();
        let previous = self.integer(GL_TEXTURE_BINDING_2D) as u32;
        let saved: Vec<(u32, i32)> = store.iter().map(|&(pname, _)| (pname, self.integer(pname))).collect();
        let (target, binding) = buffer_binding;
        let previous_buffer = self.integer(binding) as u32;
        // SAFETY: a texture name of this context, valid pixel-store names and values, and
        // unbinding a pixel buffer so that pointers are client memory.
        unsafe {
            (self.bind_texture)(GL_TEXTURE_2D, name);
            (self.bind_buffer)(target, 0);
            for &(pname, value) in store {
                (self.pixel_storei)(pname, value);
            }
        }
        let out = f();
        // SAFETY: the state the application had.
        unsafe {
            for &(pname, value) in &saved {
                (self.pixel_storei)(pname, value);
            }
            (self.bind_buffer)(target, previous_buffer);
            (self.bind_texture)(GL_TEXTURE_2D, previous);
        }
        Ok(out)
    }

    /// Level 0 of 2D texture `name`.
    pub(crate) fn texture_info(&self, name: u32) -> Result<TextureInfo, GlFail> {
        let (mut w, mut h, mut f) = (0, 0, 0);
        self.with_texture(name, &[], (GL_PIXEL_PACK_BUFFER, GL_PIXEL_PACK_BUFFER_BINDING), || {
            // SAFETY: each name writes one integer.
            unsafe {
                (self.get_tex_level_parameteriv)(GL_TEXTURE_2D, 0, GL_TEXTURE_WIDTH, &mut w);
                (self.get_tex_level_parameteriv)(GL_TEXTURE_2D, 0, GL_TEXTURE_HEIGHT, &mut h);
                (self.get_tex_level_parameteriv)(GL_TEXTURE_2D, 0, GL_TEXTURE_INTERNAL_FORMAT, &mut f);
            }
        })?;
        self.check()?;
        Ok(TextureInfo { width: w.max(0) as usize, height: h.max(0) as usize, internal_format: f as u32 })
    }

    /// Reads level 0 of 2D texture `name` as tightly packed rows of `format`/`ty` texels.
    pub(crate) fn read_texture(&self, name: u32, format: u32, ty: u32, dst: &mut [u8]) -> Result<(), GlFail> {
        let store = [(GL_PACK_ALIGNMENT, 1), (GL_PACK_ROW_LENGTH, 0), (GL_PACK_SKIP_ROWS, 0), (GL_PACK_SKIP_PIXELS, 0)];
        // SAFETY: `dst` holds the whole level in this packing (the caller sized it).
        self.with_texture(name, &store, (GL_PIXEL_PACK_BUFFER, GL_PIXEL_PACK_BUFFER_BINDING), || unsafe {
            (self.get_tex_image)(GL_TEXTURE_2D, 0, format, ty, dst.as_mut_ptr().cast())
        })?;
        self.check()
    }

    /// Writes level 0 of 2D texture `name` (`width` x `height`) from tightly packed rows.
    pub(crate) fn write_texture(&self, name: u32, info: TextureInfo, format: u32, ty: u32, src: &[u8]) -> Result<(), GlFail> {
        let store = [(GL_UNPACK_ALIGNMENT, 1), (GL_UNPACK_ROW_LENGTH, 0), (GL_UNPACK_SKIP_ROWS, 0), (GL_UNPACK_SKIP_PIXELS, 0)];
        // SAFETY: `src` holds the whole level in this packing (the caller sized it).
        self.with_texture(name, &store, (GL_PIXEL_UNPACK_BUFFER, GL_PIXEL_UNPACK_BUFFER_BINDING), || unsafe {
            (self.tex_sub_image_2d)(GL_TEXTURE_2D, 0, 0, 0, info.width as i32, info.height as i32, format, ty, src.as_ptr().cast())
        })?;
        self.check()
    }
}

/// `glEGLImageTargetTexture2DOES(target, image)` (`GL_OES_EGL_image`).
type EglImageTargetTexture2d = unsafe extern "C" fn(u32, *mut c_void);

impl Gl {
    /// Runs `f` on a texture of this context made for the call whose level 0 is EGL image
    /// `image` (`GL_OES_EGL_image`: the texture and the image share their texels, so what
    /// `f` writes through it reaches the image), then deletes the texture. The active
    /// unit's `GL_TEXTURE_2D` binding is the application's again afterwards.
    /// `GlFail::NotAnObject` when GL refuses the image.
    pub(crate) fn with_egl_image<T>(&self, image: *mut c_void, f: impl FnOnce(u32) -> Result<T, GlFail>) -> Result<T, GlFail> {
        const NAME: &str = "glEGLImageTargetTexture2DOES";
        let p = proc_address(c"glEGLImageTargetTexture2DOES")?;
        if p.is_null() {
            return Err(GlFail::Missing(NAME));
        }
        // SAFETY: a non-NULL answer for this name is that function, of this signature.
        let target = unsafe { std::mem::transmute::<*mut c_void, EglImageTargetTexture2d>(p) };
        self.clear_errors();
        let previous = self.integer(GL_TEXTURE_BINDING_2D) as u32;
        let mut name = 0;
        // SAFETY: one name is written; binding a new name makes it a 2D texture; the image
        // is the caller's EGLImage (GL reports a bad one as an error).
        let bound = unsafe {
            (self.gen_textures)(1, &mut name);
            (self.bind_texture)(GL_TEXTURE_2D, name);
            target(GL_TEXTURE_2D, image);
            let bound = self.check();
            (self.bind_texture)(GL_TEXTURE_2D, previous);
            bound
        };
        let out = match bound {
            Ok(()) => f(name),
            Err(_) => Err(GlFail::NotAnObject),
        };
        // SAFETY: the texture made above.
        unsafe { (self.delete_textures)(1, &name) };
        out
    }

    /// Waits for the context's GL commands to complete, so that other contexts and APIs
    /// sharing an image see what they wrote.
    pub(crate) fn finish(&self) {
        // SAFETY: no arguments.
        unsafe { (self.finish)() }
    }
}
