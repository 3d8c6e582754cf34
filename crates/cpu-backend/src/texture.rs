//! Texture and surface objects on the CPU device: the object a kernel's handle points to,
//! and the texture unit's work done in software (addressing, filtering, format
//! conversion) for `__ptx_texture` (see `compiler_core::texture_abi`).
//!
//! The sampling rules are the CUDA Programming Guide's ("Texture Fetching") with the
//! details NVIDIA's hardware adds, measured on an H100/H200 (`ctests/textures.cu`):
//! - coordinates are scaled to texel units (`x * N`) when normalized; wrap takes the
//!   fraction first (`x - floor(x)`), mirror reflects the texel index (period `2N`);
//!   unnormalized coordinates support only clamp and border (wrap and mirror clamp);
//! - linear filtering weighs texels `floor(x - 0.5)` and the next one by
//!   `frac(x - 0.5)` rounded to 8 fractional bits (half up); dimensions blend innermost
//!   (x) first, each product and sum rounded to `f32`;
//! - 8- and 16-bit integer texels read as normalized floats are filtered as 16-bit
//!   fixed-point values (8-bit unsigned texels times 257), the blend rounded to an integer
//!   (ties up; signed: ties toward zero) and divided by 65535 (32767 signed, then clamped to -1);
//!   half texels are filtered in `f32` and the result rounded to half precision;
//! - 1-D CUDA arrays sample like 2-D arrays of height 1 at `y = 0`: with linear
//!   filtering and border addressing each texel is blended half and half with the border;
//! - channels a format lacks read 0, as does the border color's; integer textures read
//!   the border color's float bits; linear memory (`tex1Dfetch`) reads 0 out of range;
//! - layer indices clamp to the last layer (as unsigned: a negative index is the last).

use backend_api::texture::{AddressMode, ChannelType, Layout, Resource, Sampler, TextureObject};
use compiler_core::texture_abi::{self as abi, Op};

/// First word of every object, so that a handle that is not one of ours is recognized
/// (most of the time) instead of being read as a descriptor.
const MAGIC: u64 = 0x3154_4a42_4f54_5854;

#[repr(C)]
struct Object {
    magic: u64,
    object: TextureObject,
}

/// Creates the object kernels see as `handle`.
pub fn create(object: &TextureObject) -> u64 {
    Box::into_raw(Box::new(Object { magic: MAGIC, object: *object })) as u64
}

/// Destroys an object from [`create`].
///
/// # Safety
/// `handle` came from [`create`] and is destroyed once.
pub unsafe fn destroy(handle: u64) {
    // SAFETY: guaranteed by the caller.
    unsafe {
        let p = handle as *mut Object;
        (*p).magic = 0;
        drop(Box::from_raw(p));
    }
}

/// Why an instruction failed: the launch ends with an illegal address.
#[derive(Debug, PartialEq, Eq)]
pub enum Failure {
    /// The handle is not a live object of ours.
    BadHandle,
    /// A surface access out of range in `.trap` mode.
    OutOfRange,
    /// A texture instruction on a surface or the reverse.
    WrongKind,
}

/// Runs one texture or surface instruction.
///
/// # Safety
/// `args` holds [`abi::ARG_SLOTS`] words and `data` [`abi::DATA_SLOTS`]; `handle` is
/// either an object from [`create`] or any value a kernel made up (checked as far as
/// reading its first word).
pub unsafe fn execute(handle: u64, op: u32, args: *const u32, data: *mut u64) -> Result<u32, Failure> {
    if handle == abi::UNBOUND_REFERENCE {
        // A texture or surface reference nothing is bound to: reads give zeros, stores
        // and queries nothing (see `UNBOUND_REFERENCE`).
        // SAFETY: the buffer size is guaranteed by the caller.
        unsafe { *(data as *mut [u64; abi::DATA_SLOTS]) = [0; abi::DATA_SLOTS] };
        return Ok(0);
    }
    if handle == 0 || !handle.is_multiple_of(8) {
        return Err(Failure::BadHandle);
    }
    // SAFETY: a handle from `create` points to a live `Object`; another value faults
    // here or fails the magic check (the fault handler ends the launch).
    let object = unsafe {
        let p = handle as *const Object;
        if (*p).magic != MAGIC {
            return Err(Failure::BadHandle);
        }
        &(*p).object
    };
    // SAFETY: the buffer sizes are guaranteed by the caller.
    let (args, data) = unsafe { (&*(args as *const [u32; abi::ARG_SLOTS]), &mut *(data as *mut [u64; abi::DATA_SLOTS])) };
    let op = Op::decode(op);
    match (op.instr, &object.sampler) {
        (abi::INSTR_TEX | abi::INSTR_TLD4, Some(s)) => {
            let v = fetch(&object.resource, s, &op, args);
            for (slot, word) in data.iter_mut().zip(v) {
                *slot = word as u64;
            }
            Ok(0)
        }
        (abi::INSTR_TXQ, _) | (abi::INSTR_SUQ, _) => Ok(query(object, op.query)),
        (abi::INSTR_SULD | abi::INSTR_SUST, None) => surface(&object.resource, &op, args, data).map(|()| 0),
        _ => Err(Failure::WrongKind),
    }
}

/// `txq`/`suq`.
fn query(object: &TextureObject, query: u32) -> u32 {
    let (w, h, d) = extent(&object.resource.layout);
    let layered = matches!(object.resource.layout, Layout::Array { layered: true, .. });
    let sampler = object.sampler.as_ref();
    match abi::QUERIES.get(query as usize).copied().unwrap_or("") {
        ".width" => w,
        ".height" => h,
        ".depth" if !layered => d,
        ".array_size" if layered => d,
        ".normalized_coords" => sampler.is_some_and(|s| s.normalized_coords) as u32,
        ".filter_mode" => sampler.is_some_and(|s| s.linear) as u32,
        ".addr_mode_0" => sampler.map_or(0, |s| s.address[0] as u32),
        ".num_mipmap_levels" => 1,
        _ => 0,
    }
}

/// Width, height, depth (or layers) of a resource.
fn extent(layout: &Layout) -> (u32, u32, u32) {
    match *layout {
        Layout::Array { width, height, depth, .. } => (width, height, depth),
        Layout::Linear { width } => (width, 1, 1),
        Layout::Pitch2D { width, height } => (width, height, 1),
    }
}

/// One channel of a texel, as stored.
///
/// # Safety
/// `p` points to a readable channel of type `t`.
unsafe fn channel(p: *const u8, t: ChannelType) -> u32 {
    // SAFETY: guaranteed by the caller; texels are not necessarily aligned in pitched memory.
    unsafe {
        match t {
            ChannelType::U8 => *p as u32,
            ChannelType::S8 => *(p as *const i8) as i32 as u32,
            ChannelType::U16 | ChannelType::F16 => (p as *const u16).read_unaligned() as u32,
            ChannelType::S16 => (p as *const i16).read_unaligned() as i32 as u32,
            ChannelType::U32 | ChannelType::S32 | ChannelType::F32 => (p as *const u32).read_unaligned(),
        }
    }
}

/// How fetched channels are represented until they are returned.
#[derive(Clone, Copy, PartialEq)]
enum Domain {
    /// `f32` values (float formats, and every format gathered as floats).
    Float,
    /// Normalized integers in 16-bit fixed point, divided by `scale` at the end.
    Fixed { scale: f32, signed: bool },
    /// Raw integers (element-type reads of integer formats).
    Int,
}

fn domain(r: &Resource, s: &Sampler) -> Domain {
    let t = r.format.channel;
    if t.is_float() {
        Domain::Float
    } else if s.read_normalized && t.normalizable() {
        let signed = matches!(t, ChannelType::S8 | ChannelType::S16);
        Domain::Fixed { scale: if signed { 32767.0 } else { 65535.0 }, signed }
    } else {
        Domain::Int
    }
}

/// A texel's channels in `domain`, as f64 (exact for every domain), or the border.
fn texel(r: &Resource, s: &Sampler, d: Domain, at: Option<[u32; 3]>) -> [f64; 4] {
    let n = r.format.channels as usize;
    let mut out = [0.0; 4];
    let Some([x, y, z]) = at else {
        for (c, o) in out.iter_mut().enumerate().take(n) {
            let b = s.border_color[c];
            *o = match d {
                Domain::Float => b as f64,
                Domain::Fixed { scale, .. } => b as f64 * scale as f64,
                Domain::Int => f32::to_bits(b) as f64,
            };
        }
        return out;
    };
    let bytes = r.format.channel.bytes() as u64;
    let addr = r.base + z as u64 * r.slice + y as u64 * r.pitch + x as u64 * r.format.bytes() as u64;
    for (c, o) in out.iter_mut().enumerate().take(n) {
        // SAFETY: the driver checked that the resource lies in device memory, and the
        // coordinates were addressed into the resource's extent.
        let raw = unsafe { channel((addr + c as u64 * bytes) as *const u8, r.format.channel) };
        *o = match (d, r.format.channel) {
            (Domain::Float, ChannelType::F16) => half::f16::from_bits(raw as u16).to_f32() as f64,
            (Domain::Float, ChannelType::F32) => f32::from_bits(raw) as f64,
            (Domain::Float, _) => normalized_float(raw, r.format.channel) as f64,
            (Domain::Fixed { .. }, t) => fixed(raw, t),
            // Signed channels as their values, so that a blend of negative texels is one.
            (Domain::Int, ChannelType::S8 | ChannelType::S16 | ChannelType::S32) => raw as i32 as f64,
            (Domain::Int, _) => raw as f64,
        };
    }
    out
}

/// An 8/16-bit integer channel in 16-bit fixed point (unsigned: 0..65535, signed:
/// -32767..32767).
fn fixed(raw: u32, t: ChannelType) -> f64 {
    match t {
        ChannelType::U8 => (raw * 257) as f64,
        ChannelType::U16 => raw as f64,
        ChannelType::S8 => ((raw as i32).max(-127) as f64 * 32767.0 / 127.0).round(),
        _ => (raw as i32).max(-32767) as f64,
    }
}

/// A normalized integer channel as a float (point reads and gathers).
fn normalized_float(raw: u32, t: ChannelType) -> f32 {
    finish_fixed(fixed(raw, t), matches!(t, ChannelType::S8 | ChannelType::S16))
}

/// A filtered fixed-point value as a float: rounded to an integer, ties up for unsigned
/// and toward zero for signed values (as measured), then scaled.
fn finish_fixed(v: f64, signed: bool) -> f32 {
    if signed {
        // Ties toward zero; `+ 0.0` makes a rounded -0 the +0 the hardware returns.
        let r = v.signum() * (v.abs() - 0.5).ceil() + 0.0;
        (r as f32 / 32767.0).max(-1.0)
    } else {
        (v + 0.5).floor() as f32 / 65535.0
    }
}

/// The index `i` of a dimension of `n` texels after addressing (`None`: the border).
fn address(i: i64, n: u32, mode: AddressMode) -> Option<u32> {
    let n = n as i64;
    match mode {
        AddressMode::Border => (0..n).contains(&i).then_some(i as u32),
        AddressMode::Clamp => Some(i.clamp(0, n - 1) as u32),
        AddressMode::Wrap => Some(i.rem_euclid(n) as u32),
        AddressMode::Mirror => {
            let p = i.rem_euclid(2 * n);
            Some(if p < n { p } else { 2 * n - 1 - p } as u32)
        }
    }
}

/// The texels and weights one dimension contributes: one texel (point) or two (linear).
#[derive(Clone, Copy)]
struct Taps {
    index: [Option<u32>; 2],
    weight: f32,
    linear: bool,
}

fn taps(c: f32, n: u32, s: &Sampler, mode: AddressMode, linear: bool) -> Taps {
    // Wrap and mirror need normalized coordinates (Programming Guide, "Texture Object
    // API"); unnormalized ones clamp instead.
    let mode = match mode {
        AddressMode::Wrap | AddressMode::Mirror if !s.normalized_coords => AddressMode::Clamp,
        m => m,
    };
    let mut c = c;
    if s.normalized_coords {
        if mode == AddressMode::Wrap {
            c -= floor_f32(c);
        }
        c *= n as f32;
    }
    if !linear {
        let i = floor_index(c);
        return Taps { index: [address(i, n, mode), None], weight: 0.0, linear };
    }
    let b = c - 0.5;
    let i = floor_index(b);
    let weight = floor_f32((b - floor_f32(b)) * 256.0 + 0.5) / 256.0;
    Taps { index: [address(i, n, mode), address(i.saturating_add(1), n, mode)], weight, linear }
}

/// `floor(c)` as an index; NaN reads texel 0 and infinities saturate.
fn floor_index(c: f32) -> i64 {
    if c.is_nan() {
        0
    } else {
        floor_f32(c).clamp(-1.0e12, 1.0e12) as i64
    }
}

fn lerp(p: f64, q: f64, w: f32, d: Domain) -> f64 {
    match d {
        // Products and sum in f32, as the hardware's result is.
        Domain::Float => ((1.0 - w) * p as f32 + w * q as f32) as f64,
        // Exact: weights have 8 fractional bits, values 16 integer bits.
        _ => (1.0 - w as f64) * p + w as f64 * q,
    }
}

/// Blends the texels of `dims` (x, y, z order) recursively, x innermost.
fn filter(r: &Resource, s: &Sampler, d: Domain, dims: &[Taps], slice: u32) -> [f64; 4] {
    // Corner `c` takes texel `index[bit k of c]` in dimension k; then pairs are blended
    // along x, then y, then z (corner 0 ends with the result).
    let n = dims.len();
    let mut vals = [[0.0f64; 4]; 8];
    for (c, val) in vals.iter_mut().enumerate().take(1 << n) {
        let mut at = [Some(0u32); 3];
        if (0..n).any(|k| (c >> k) & 1 == 1 && !dims[k].linear) {
            continue;
        }
        for (k, t) in dims.iter().enumerate() {
            at[k] = t.index[(c >> k) & 1];
        }
        let pos = match at {
            [Some(x), Some(y), Some(z)] => Some([x, y, z + slice]),
            _ => None,
        };
        *val = texel(r, s, d, pos);
    }
    for (k, t) in dims.iter().enumerate().filter(|(_, t)| t.linear) {
        let step = 1 << k;
        for c in (0..1usize << n).step_by(step * 2) {
            let (p, q) = (vals[c], vals[c + step]);
            vals[c] = std::array::from_fn(|ch| lerp(p[ch], q[ch], t.weight, d));
        }
    }
    vals[0]
}

/// `floor(x)` without a libm call (the baseline x86-64 target has no rounding
/// instruction); NaN gives 0.
fn floor_f32(x: f32) -> f32 {
    if x.abs() >= 8_388_608.0 {
        return x; // 2^23 and above: already an integer (or infinite)
    }
    let t = x as i32 as f32;
    if t > x {
        t - 1.0
    } else {
        t
    }
}

/// Cubemap face and in-face normalized coordinates of direction `(x, y, z)`
/// (Programming Guide, "Cubemap Textures": the major axis picks the face).
fn cube_face(x: f32, y: f32, z: f32) -> (u32, f32, f32) {
    let (ax, ay, az) = (x.abs(), y.abs(), z.abs());
    let (face, s, t, m) = if az >= ax && az >= ay {
        if z >= 0.0 {
            (4, x, -y, az)
        } else {
            (5, -x, -y, az)
        }
    } else if ay >= ax {
        if y >= 0.0 {
            (2, x, z, ay)
        } else {
            (3, x, -z, ay)
        }
    } else if x >= 0.0 {
        (0, -z, -y, ax)
    } else {
        (1, z, -y, ax)
    };
    if m == 0.0 {
        return (face, 0.5, 0.5);
    }
    (face, (s / m + 1.0) * 0.5, (t / m + 1.0) * 0.5)
}

/// `tex`/`tld4`: the four result words.
fn fetch(r: &Resource, s: &Sampler, op: &Op, args: &[u32; abi::ARG_SLOTS]) -> [u32; 4] {
    let d = domain(r, s);
    let f = |k: usize| f32::from_bits(args[k]);
    let int = |k: usize| args[k] as i32;
    let (width, height, depth) = extent(&r.layout);
    let layer = |k: usize, layers: u32| (args[k]).min(layers.saturating_sub(1));
    if let Layout::Linear { width } = r.layout {
        // `tex1Dfetch`: integer index, no filtering or addressing; 0 out of range.
        let i = if op.int_coords { int(0) as i64 } else { floor_index(f(0)) };
        let at = (0..width as i64).contains(&i).then_some([i as u32, 0, 0]);
        let v = if at.is_some() { texel(r, s, d, at) } else { [0.0; 4] };
        return finish(v, d, op.dtype);
    }
    let coord = |k: usize| if op.int_coords { int(k) as f32 } else { f(k) };
    let linear = s.linear && !op.int_coords && op.instr != abi::INSTR_TLD4;
    let mut slice = 0;
    // Coordinates per dimension (x, y, z), sizes and the number of dimensions (no heap
    // allocation: this runs for every fetch).
    let (coords, sizes, n) = match op.geometry {
        abi::GEOM_1D => ([coord(0), 0.0, 0.0], [width, 1, 1], 2),
        abi::GEOM_A1D => {
            slice = layer(0, depth);
            ([coord(1), 0.0, 0.0], [width, 1, 1], 2)
        }
        abi::GEOM_2D => ([coord(0), coord(1), 0.0], [width, height, 1], 2),
        abi::GEOM_A2D => {
            slice = layer(0, depth);
            ([coord(1), coord(2), 0.0], [width, height, 1], 2)
        }
        abi::GEOM_3D => ([coord(0), coord(1), coord(2)], [width, height, depth], 3),
        _ => {
            let (base, first) = if op.geometry == abi::GEOM_ACUBE { (layer(0, depth / 6) * 6, 1) } else { (0, 0) };
            let (face, u, v) = cube_face(coord(first), coord(first + 1), coord(first + 2));
            slice = base + face;
            // Faces are addressed with normalized coordinates whatever the sampler says.
            let cube = Sampler { normalized_coords: true, ..*s };
            let dims = [taps(u, width, &cube, s.address[0], linear), taps(v, height, &cube, s.address[1], linear)];
            return finish(half_rounded(filter(r, s, d, &dims, slice), r, linear), d, op.dtype);
        }
    };
    if op.instr == abi::INSTR_TLD4 {
        let d = if d == Domain::Int { Domain::Int } else { Domain::Float };
        let tx = taps(coords[0], sizes[0], s, s.address[0], true);
        let ty = taps(coords[1], sizes[1], s, s.address[1], true);
        let c = op.component as usize;
        let at = |x: Option<u32>, y: Option<u32>| texel(r, s, d, x.zip(y).map(|(x, y)| [x, y, slice]))[c];
        let v = [at(tx.index[0], ty.index[1]), at(tx.index[1], ty.index[1]), at(tx.index[1], ty.index[0]), at(tx.index[0], ty.index[0])];
        return finish(v, d, op.dtype);
    }
    if n == 2 && d == Domain::Float && r.format.channel == ChannelType::F32 {
        return fetch_f32_2d(r, s, [coords[0], coords[1]], [sizes[0], sizes[1]], slice, linear);
    }
    let dims: [Taps; 3] = std::array::from_fn(|k| taps(coords[k], sizes[k], s, s.address[k], linear));
    finish(half_rounded(filter(r, s, d, &dims[..n], slice), r, linear), d, op.dtype)
}

/// The common case without the general path's machinery: `f32` texels, 1-D or 2-D (or a
/// layer of a layered array), float results. The same rules, so the same results.
fn fetch_f32_2d(r: &Resource, s: &Sampler, c: [f32; 2], size: [u32; 2], slice: u32, linear: bool) -> [u32; 4] {
    let tx = taps(c[0], size[0], s, s.address[0], linear);
    let ty = taps(c[1], size[1], s, s.address[1], linear);
    let n = r.format.channels as usize;
    let base = r.base + slice as u64 * r.slice;
    let read = |x: Option<u32>, y: Option<u32>| -> [f32; 4] {
        let mut v = [0.0f32; 4];
        match (x, y) {
            (Some(x), Some(y)) => {
                let p = (base + y as u64 * r.pitch + x as u64 * 4 * n as u64) as *const f32;
                for (k, o) in v.iter_mut().enumerate().take(n) {
                    // SAFETY: addressed into the resource's extent, which the driver checked
                    // lies in device memory.
                    *o = unsafe { p.add(k).read_unaligned() };
                }
            }
            _ => v[..n].copy_from_slice(&s.border_color[..n]),
        }
        v
    };
    if !linear {
        return read(tx.index[0], ty.index[0]).map(f32::to_bits);
    }
    let lerp = |p: [f32; 4], q: [f32; 4], w: f32| -> [f32; 4] { std::array::from_fn(|k| (1.0 - w) * p[k] + w * q[k]) };
    let row0 = lerp(read(tx.index[0], ty.index[0]), read(tx.index[1], ty.index[0]), tx.weight);
    let row1 = lerp(read(tx.index[0], ty.index[1]), read(tx.index[1], ty.index[1]), tx.weight);
    lerp(row0, row1, ty.weight).map(f32::to_bits)
}

/// Filtered half texels are rounded to half precision.
fn half_rounded(v: [f64; 4], r: &Resource, linear: bool) -> [f64; 4] {
    if linear && r.format.channel == ChannelType::F16 {
        v.map(|x| half::f16::from_f64(x).to_f64())
    } else {
        v
    }
}

/// The result words of fetched values.
fn finish(v: [f64; 4], d: Domain, dtype: u32) -> [u32; 4] {
    v.map(|x| match d {
        // Integer texels are filtered only through texture references (texture objects
        // refuse linear filtering of integer reads); the blend rounds half up, as an
        // H200 returns 47768 between 30000 and 65535.
        Domain::Int => (x + 0.5).floor() as i64 as u32,
        Domain::Float => f32::to_bits(x as f32),
        Domain::Fixed { signed, .. } => {
            let f = finish_fixed(x, signed);
            if dtype == abi::DTYPE_F32 {
                f.to_bits()
            } else {
                f as i32 as u32
            }
        }
    })
}

/// `suld.b`/`sust.b`: raw bytes at byte offset `x` of row `y`, slice `z`.
fn surface(r: &Resource, op: &Op, args: &[u32; abi::ARG_SLOTS], data: &mut [u64; abi::DATA_SLOTS]) -> Result<(), Failure> {
    let (width, height, depth) = extent(&r.layout);
    let at = |k: usize| args[k] as i32 as i64;
    let (x, y, z) = match op.geometry {
        abi::GEOM_1D => (at(0), 0, 0),
        abi::GEOM_2D => (at(0), at(1), 0),
        abi::GEOM_3D => (at(0), at(1), at(2)),
        abi::GEOM_A1D => (at(1), 0, at(0)),
        abi::GEOM_A2D => (at(1), at(2), at(0)),
        _ => return Err(Failure::WrongKind),
    };
    let elem = 1u64 << op.dtype;
    let access = elem * op.elements.max(1) as u64;
    let row_bytes = width as u64 * r.format.bytes() as u64;
    let fits = |v: i64, n: u64| v >= 0 && (v as u64) < n;
    let inside = x >= 0 && (x as u64 + access) <= row_bytes && fits(y, height as u64) && fits(z, depth as u64);
    let (x, y, z) = if inside {
        (x as u64, y as u64, z as u64)
    } else {
        match op.clamp {
            abi::CLAMP_ZERO => {
                if op.instr == abi::INSTR_SULD {
                    data.iter_mut().for_each(|d| *d = 0);
                }
                return Ok(());
            }
            abi::CLAMP_CLAMP => (
                x.clamp(0, row_bytes.saturating_sub(access) as i64) as u64,
                y.clamp(0, height as i64 - 1) as u64,
                z.clamp(0, depth as i64 - 1) as u64,
            ),
            _ => return Err(Failure::OutOfRange),
        }
    };
    let base = r.base + z * r.slice + y * r.pitch + x;
    for (k, d) in data.iter_mut().enumerate().take(op.elements.max(1) as usize) {
        let p = (base + k as u64 * elem) as *mut u8;
        // SAFETY: the access lies in the resource's extent, which the driver checked lies
        // in device memory.
        unsafe {
            if op.instr == abi::INSTR_SULD {
                *d = 0;
                std::ptr::copy_nonoverlapping(p, d as *mut u64 as *mut u8, elem as usize);
            } else {
                std::ptr::copy_nonoverlapping(d as *const u64 as *const u8, p, elem as usize);
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floor_matches_libm() {
        let edges = [0.0f32, -0.0, 0.5, -0.5, 1.0, -1.0, 1.5, -1.5, 2.999_999_8, -2.999_999_8, 8_388_607.5, -8_388_607.5, 8_388_608.0, 1e20, -1e20];
        for x in edges.into_iter().chain((-2000..2000).map(|i| i as f32 / 7.0)) {
            assert_eq!(floor_f32(x), x.floor(), "floor({x})");
        }
        assert_eq!(floor_f32(f32::INFINITY), f32::INFINITY);
        assert_eq!(floor_index(f32::NAN), 0);
    }

    #[test]
    fn address_modes() {
        // (index, size, mode, expected) per the Programming Guide's "Texture Fetching".
        let cases = [
            (-1, 4, AddressMode::Clamp, Some(0)),
            (5, 4, AddressMode::Clamp, Some(3)),
            (-1, 4, AddressMode::Border, None),
            (4, 4, AddressMode::Border, None),
            (3, 4, AddressMode::Border, Some(3)),
            (-1, 4, AddressMode::Wrap, Some(3)),
            (9, 4, AddressMode::Wrap, Some(1)),
            (-1, 4, AddressMode::Mirror, Some(0)),
            (4, 4, AddressMode::Mirror, Some(3)),
            (-5, 4, AddressMode::Mirror, Some(3)),
            (8, 4, AddressMode::Mirror, Some(0)),
        ];
        for (i, n, mode, want) in cases {
            assert_eq!(address(i, n, mode), want, "{mode:?} {i} of {n}");
        }
    }
}
