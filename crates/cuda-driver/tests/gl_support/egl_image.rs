//! EGL images for the EGL interop test: textures and renderbuffers of known texels, the
//! `EGLImageKHR`s made from them (`EGL_KHR_gl_texture_2D_image`,
//! `EGL_KHR_gl_renderbuffer_image`), and the GL calls that change and read them
//! independently of the driver.

use std::ffi::c_void;

use super::Egl;

const EGL_GL_TEXTURE_2D: u32 = 0x30B1;
const EGL_GL_RENDERBUFFER: u32 = 0x30B9;
const EGL_IMAGE_PRESERVED: i32 = 0x30D2;
const EGL_NONE: i32 = 0x3038;
const GL_TEXTURE_2D: u32 = 0x0DE1;
const GL_RENDERBUFFER: u32 = 0x8D41;
const GL_UNPACK_ALIGNMENT: u32 = 0x0CF5;
const GL_PACK_ALIGNMENT: u32 = 0x0D05;
const GL_TEXTURE_MIN_FILTER: u32 = 0x2801;
const GL_NEAREST: i32 = 0x2600;
pub const GL_RGBA8: u32 = 0x8058;
pub const GL_RGBA: u32 = 0x1908;
pub const GL_R8: u32 = 0x8229;
pub const GL_RED: u32 = 0x1903;
pub const GL_RG8: u32 = 0x822B;
pub const GL_RG: u32 = 0x8227;
pub const GL_RGB8: u32 = 0x8051;
pub const GL_RGB: u32 = 0x1907;
pub const GL_UNSIGNED_BYTE: u32 = 0x1401;
pub const GL_TEXTURE_BINDING_2D: u32 = 0x8069;

type Ptr = *mut c_void;

/// The EGL and GL functions the test makes images with, of the current context.
pub struct Images {
    display: Ptr,
    context: Ptr,
    create_image: unsafe extern "C" fn(Ptr, Ptr, u32, Ptr, *const i32) -> Ptr,
    destroy_image: unsafe extern "C" fn(Ptr, Ptr) -> u32,
    gen_textures: unsafe extern "C" fn(i32, *mut u32),
    bind_texture: unsafe extern "C" fn(u32, u32),
    tex_parameteri: unsafe extern "C" fn(u32, u32, i32),
    tex_image_2d: unsafe extern "C" fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void),
    tex_sub_image_2d: unsafe extern "C" fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void),
    get_tex_image: unsafe extern "C" fn(u32, i32, u32, u32, *mut c_void),
    pixel_storei: unsafe extern "C" fn(u32, i32),
    gen_renderbuffers: unsafe extern "C" fn(i32, *mut u32),
    bind_renderbuffer: unsafe extern "C" fn(u32, u32),
    renderbuffer_storage: unsafe extern "C" fn(u32, u32, i32, i32),
    get_error: unsafe extern "C" fn() -> u32,
    get_integerv: unsafe extern "C" fn(u32, *mut i32),
}

impl Images {
    /// The functions of `egl`'s context, which must be current.
    pub fn new(egl: &Egl) -> Images {
        let get = |name: &str| -> Ptr {
            let c = format!("{name}\0");
            // SAFETY: a NUL-terminated name.
            let p = unsafe { (egl.get_proc)(c.as_ptr().cast()) };
            assert!(!p.is_null(), "eglGetProcAddress({name})");
            p
        };
        /// # Safety
        /// `p` is a function of type `T` (a pointer-sized `unsafe extern "C" fn`).
        unsafe fn cast<T>(p: Ptr) -> T {
            assert_eq!(std::mem::size_of::<T>(), std::mem::size_of::<Ptr>());
            // SAFETY: same size, and `p` is such a function, per the contract.
            unsafe { std::mem::transmute_copy(&p) }
        }
        // SAFETY: each pointer is the named function, of the EGL 1.5 / OpenGL 4.6 signature given.
        unsafe {
            Images {
                display: egl.display,
                context: egl.context,
                create_image: cast(get("eglCreateImageKHR")),
                destroy_image: cast(get("eglDestroyImageKHR")),
                gen_textures: cast(get("glGenTextures")),
                bind_texture: cast(get("glBindTexture")),
                tex_parameteri: cast(get("glTexParameteri")),
                tex_image_2d: cast(get("glTexImage2D")),
                tex_sub_image_2d: cast(get("glTexSubImage2D")),
                get_tex_image: cast(get("glGetTexImage")),
                pixel_storei: cast(get("glPixelStorei")),
                gen_renderbuffers: cast(get("glGenRenderbuffers")),
                bind_renderbuffer: cast(get("glBindRenderbuffer")),
                renderbuffer_storage: cast(get("glRenderbufferStorage")),
                get_error: cast(get("glGetError")),
                get_integerv: cast(get("glGetIntegerv")),
            }
        }
    }

    /// A `width` x `height` texture of `internal` format holding `data` (rows of
    /// `format` / `GL_UNSIGNED_BYTE` texels, tightly packed).
    pub fn texture(&self, internal: u32, format: u32, width: usize, height: usize, data: &[u8]) -> u32 {
        let mut name = 0;
        // SAFETY: one name written; `data` holds the whole level.
        unsafe {
            (self.gen_textures)(1, &mut name);
            (self.bind_texture)(GL_TEXTURE_2D, name);
            (self.tex_parameteri)(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
            (self.pixel_storei)(GL_UNPACK_ALIGNMENT, 1);
            (self.tex_image_2d)(GL_TEXTURE_2D, 0, internal as i32, width as i32, height as i32, 0, format, GL_UNSIGNED_BYTE, data.as_ptr().cast());
        }
        self.no_error();
        name
    }

    /// A `GL_RGBA8` renderbuffer of `width` x `height`.
    pub fn renderbuffer_rgba8(&self, width: usize, height: usize) -> u32 {
        let mut name = 0;
        // SAFETY: one name written.
        unsafe {
            (self.gen_renderbuffers)(1, &mut name);
            (self.bind_renderbuffer)(GL_RENDERBUFFER, name);
            (self.renderbuffer_storage)(GL_RENDERBUFFER, GL_RGBA8, width as i32, height as i32);
        }
        self.no_error();
        name
    }

    fn image(&self, target: u32, name: u32) -> Ptr {
        let attribs = [EGL_IMAGE_PRESERVED, 1, EGL_NONE];
        // SAFETY: a texture or renderbuffer of this display's current context.
        let image = unsafe { (self.create_image)(self.display, self.context, target, name as usize as Ptr, attribs.as_ptr()) };
        assert!(!image.is_null(), "eglCreateImageKHR({target:#x}, {name})");
        image
    }

    /// An EGL image of level 0 of texture `name`.
    pub fn of_texture(&self, name: u32) -> Ptr {
        self.image(EGL_GL_TEXTURE_2D, name)
    }

    /// An EGL image of renderbuffer `name`.
    pub fn of_renderbuffer(&self, name: u32) -> Ptr {
        self.image(EGL_GL_RENDERBUFFER, name)
    }

    /// Destroys `image` (its source keeps its texels).
    pub fn destroy(&self, image: Ptr) {
        // SAFETY: an image of this display.
        assert_eq!(unsafe { (self.destroy_image)(self.display, image) }, 1, "eglDestroyImageKHR");
    }

    /// Writes all of a `GL_RGBA8` texture's level 0.
    pub fn write_rgba8(&self, name: u32, width: usize, height: usize, data: &[u8]) {
        assert_eq!(data.len(), width * height * 4);
        // SAFETY: `data` holds the whole level.
        unsafe {
            (self.bind_texture)(GL_TEXTURE_2D, name);
            (self.pixel_storei)(GL_UNPACK_ALIGNMENT, 1);
            (self.tex_sub_image_2d)(GL_TEXTURE_2D, 0, 0, 0, width as i32, height as i32, GL_RGBA, GL_UNSIGNED_BYTE, data.as_ptr().cast());
        }
        self.no_error();
    }

    /// Level 0 of a `GL_RGBA8` texture, `bytes` long.
    pub fn read_rgba8(&self, name: u32, bytes: usize) -> Vec<u8> {
        let mut out = vec![0u8; bytes];
        // SAFETY: `out` holds the whole level.
        unsafe {
            (self.bind_texture)(GL_TEXTURE_2D, name);
            (self.pixel_storei)(GL_PACK_ALIGNMENT, 1);
            (self.get_tex_image)(GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, out.as_mut_ptr().cast());
        }
        self.no_error();
        out
    }

    /// Binds `name` to the active unit's `GL_TEXTURE_2D`.
    pub fn bind(&self, name: u32) {
        // SAFETY: a texture name.
        unsafe { (self.bind_texture)(GL_TEXTURE_2D, name) };
    }

    /// `glGetIntegerv` of a single-valued state.
    pub fn integer(&self, pname: u32) -> i32 {
        let mut v = 0;
        // SAFETY: one integer is written.
        unsafe { (self.get_integerv)(pname, &mut v) };
        v
    }

    fn no_error(&self) {
        // SAFETY: no arguments.
        let e = unsafe { (self.get_error)() };
        assert_eq!(e, 0, "GL error {e:#x}");
    }
}
