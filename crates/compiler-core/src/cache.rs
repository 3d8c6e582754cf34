//! The on-disk cache of compiled host code: a second run of a program loads its kernels'
//! machine code instead of optimizing and generating it again.
//!
//! # What is cached, under which key
//! An entry is what LLVM's code generator produced for one lowered module: the relocatable
//! object file, or several (one per partition compiled on its own thread, see
//! `host::partition`) packed by [`pack_objects`]. Its key is the BLAKE3 hash of everything that determines those bytes:
//! the lowered LLVM IR text (so any change to the PTX *or* to the lowering gives a new
//! key), the optimization level, the target triple, CPU name and CPU features, the LLVM
//! version, this crate's version and [`CODEGEN_VERSION`] (bumped when host code generation
//! changes in a way the IR does not show). Parsing and lowering still run on a hit; they
//! are a few percent of a compile (measured: 106 ms of 2.9 s for a 0.7 MB module).
//!
//! # Where
//! Like NVIDIA's JIT cache (CUDA C++ Programming Guide, "CUDA Environment Variables"):
//! - `CUDA_CACHE_DISABLE=1`: no cache;
//! - `CUDA_CACHE_PATH=dir`: entries go in `dir/cuda-cpu/`; otherwise in
//!   `$XDG_CACHE_HOME/cuda-cpu/` or `~/.cache/cuda-cpu/`;
//! - `CUDA_CACHE_MAXSIZE=bytes`: the size the directory is trimmed to, oldest entries
//!   first (default 1 GiB; at most 4 GiB).
//!
//! Entries are written to a temporary file and renamed into place, so concurrent
//! processes never see a partial entry; an entry that cannot be read or loaded is
//! ignored (and replaced). Any I/O failure just means no caching.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Bump when host code generation changes without the IR changing (pass pipeline, code
/// model, target machine options, object format).
pub const CODEGEN_VERSION: u32 = 3;

const DEFAULT_MAX_BYTES: u64 = 1 << 30;
const MAX_MAX_BYTES: u64 = 4 << 30;
/// Object files start with the ELF magic; anything else in an entry is garbage.
const ELF_MAGIC: &[u8; 4] = b"\x7fELF";
/// An entry of several objects starts with this, then a little-endian `u32` count and,
/// for each object, a `u64` length and its bytes.
const PACK_MAGIC: &[u8; 8] = b"cuda-obj";

/// Packs the object files of one module into one cache entry (a single object is stored
/// as it is).
pub fn pack_objects(objects: &[Vec<u8>]) -> Vec<u8> {
    if let [one] = objects {
        return one.clone();
    }
    let mut out = PACK_MAGIC.to_vec();
    out.extend_from_slice(&(objects.len() as u32).to_le_bytes());
    for o in objects {
        out.extend_from_slice(&(o.len() as u64).to_le_bytes());
        out.extend_from_slice(o);
    }
    out
}

/// The object files in an entry made by [`pack_objects`]; `None` if it is damaged.
pub fn unpack_objects(entry: &[u8]) -> Option<Vec<&[u8]>> {
    if entry.starts_with(ELF_MAGIC) {
        return Some(vec![entry]);
    }
    let rest = entry.strip_prefix(PACK_MAGIC)?;
    let (count, mut rest) = rest.split_first_chunk::<4>()?;
    let mut objects = Vec::new();
    for _ in 0..u32::from_le_bytes(*count) {
        let (len, tail) = rest.split_first_chunk::<8>()?;
        let len = usize::try_from(u64::from_le_bytes(*len)).ok()?;
        if len > tail.len() || !tail.starts_with(ELF_MAGIC) {
            return None;
        }
        objects.push(&tail[..len]);
        rest = &tail[len..];
    }
    (rest.is_empty() && !objects.is_empty()).then_some(objects)
}

/// A cache directory.
#[derive(Clone, Debug)]
pub struct Cache {
    dir: PathBuf,
    max_bytes: u64,
}

/// A cache key: 32 bytes of BLAKE3.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Key([u8; 32]);

impl Key {
    /// The 32 hash bytes.
    pub fn as_bytes(&self) -> &[u8; 32] {
        &self.0
    }

    fn hex(&self) -> String {
        self.0.iter().map(|b| format!("{b:02x}")).collect()
    }
}

/// Hashes the parts of a key, each length-prefixed so that no two lists of parts collide.
pub fn key(parts: &[&[u8]]) -> Key {
    use inkwell::llvm_sys::blake3::*;
    // SAFETY: the hasher is initialized before use and only fed valid slices.
    unsafe {
        let mut h = std::mem::MaybeUninit::<llvm_blake3_hasher>::uninit();
        llvm_blake3_hasher_init(h.as_mut_ptr());
        let h = h.assume_init_mut();
        for p in parts {
            let len = (p.len() as u64).to_le_bytes();
            llvm_blake3_hasher_update(h, len.as_ptr().cast(), len.len());
            llvm_blake3_hasher_update(h, p.as_ptr().cast(), p.len());
        }
        let mut out = [0u8; 32];
        llvm_blake3_hasher_finalize(h, out.as_mut_ptr(), out.len());
        Key(out)
    }
}

impl Cache {
    /// The cache the environment asks for (`None`: disabled or no usable directory).
    pub fn from_env() -> Option<Cache> {
        if std::env::var("CUDA_CACHE_DISABLE").is_ok_and(|v| v.trim() == "1") {
            return None;
        }
        let base = match std::env::var_os("CUDA_CACHE_PATH").filter(|v| !v.is_empty()) {
            Some(p) => PathBuf::from(p),
            None => match std::env::var_os("XDG_CACHE_HOME").filter(|v| !v.is_empty()) {
                Some(p) => PathBuf::from(p),
                None => PathBuf::from(std::env::var_os("HOME").filter(|v| !v.is_empty())?).join(".cache"),
            },
        };
        let max_bytes = std::env::var("CUDA_CACHE_MAXSIZE")
            .ok()
            .and_then(|v| v.trim().parse::<u64>().ok())
            .map(|v| v.min(MAX_MAX_BYTES))
            .unwrap_or(DEFAULT_MAX_BYTES);
        Some(Cache::at(base.join("cuda-cpu"), max_bytes))
    }

    /// A cache in `dir` (created on the first store).
    pub fn at(dir: impl Into<PathBuf>, max_bytes: u64) -> Cache {
        Cache { dir: dir.into(), max_bytes }
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    fn path(&self, key: &Key) -> PathBuf {
        self.dir.join(format!("{}.o", key.hex()))
    }

    /// The entry stored under `key`, if there is a plausible one (see [`unpack_objects`]).
    pub fn load(&self, key: &Key) -> Option<Vec<u8>> {
        let path = self.path(key);
        let bytes = fs::read(&path).ok()?;
        if bytes.len() < 64 || unpack_objects(&bytes).is_none() {
            let _ = fs::remove_file(&path);
            return None;
        }
        // Mark it recently used, for trimming.
        let _ = fs::File::options().append(true).open(&path).and_then(|f| f.set_modified(std::time::SystemTime::now()));
        Some(bytes)
    }

    /// Stores an entry (an object, or several packed by [`pack_objects`]) under `key`
    /// (atomically), then trims the directory if needed.
    pub fn store(&self, key: &Key, object: &[u8]) {
        if object.len() as u64 > self.max_bytes || fs::create_dir_all(&self.dir).is_err() {
            return;
        }
        let tmp = self.dir.join(format!(".{}.{}.tmp", key.hex(), std::process::id()));
        let written = fs::File::create(&tmp).and_then(|mut f| f.write_all(object));
        if written.is_err() || fs::rename(&tmp, self.path(key)).is_err() {
            let _ = fs::remove_file(&tmp);
            return;
        }
        self.trim();
    }

    /// Removes the least recently used entries until the directory fits `max_bytes`.
    fn trim(&self) {
        let Ok(entries) = fs::read_dir(&self.dir) else { return };
        let mut files: Vec<(std::time::SystemTime, u64, PathBuf)> = entries
            .filter_map(|e| {
                let e = e.ok()?;
                let name = e.file_name();
                if !name.to_string_lossy().ends_with(".o") {
                    return None;
                }
                let m = e.metadata().ok()?;
                Some((m.modified().ok()?, m.len(), e.path()))
            })
            .collect();
        let mut total: u64 = files.iter().map(|f| f.1).sum();
        if total <= self.max_bytes {
            return;
        }
        files.sort();
        for (_, len, path) in files {
            if total <= self.max_bytes {
                break;
            }
            if fs::remove_file(&path).is_ok() {
                total -= len;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_separate_their_parts() {
        assert_ne!(key(&[b"ab", b"c"]), key(&[b"a", b"bc"]));
        assert_eq!(key(&[b"x"]), key(&[b"x"]));
        // BLAKE3 of the empty input, as a check that LLVM's implementation is wired up.
        let empty = {
            use inkwell::llvm_sys::blake3::*;
            unsafe {
                let mut h = std::mem::MaybeUninit::<llvm_blake3_hasher>::uninit();
                llvm_blake3_hasher_init(h.as_mut_ptr());
                let mut out = [0u8; 32];
                llvm_blake3_hasher_finalize(h.as_mut_ptr(), out.as_mut_ptr(), 32);
                Key(out)
            }
        };
        assert_eq!(empty.hex(), "af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262");
    }

    #[test]
    fn store_load_and_trim() {
        let dir = std::env::temp_dir().join(format!("cuda-cpu-cache-test-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let cache = Cache::at(&dir, 3 * 100);
        let object = |n: u8| {
            let mut v = ELF_MAGIC.to_vec();
            v.resize(100, n);
            v
        };
        let keys: Vec<Key> = (0..5u8).map(|i| key(&[&[i]])).collect();
        assert_eq!(cache.load(&keys[0]), None);
        for (i, k) in keys.iter().enumerate() {
            cache.store(k, &object(i as u8));
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        // Only the three most recent fit.
        assert_eq!(cache.load(&keys[0]), None);
        assert_eq!(cache.load(&keys[4]), Some(object(4)));
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 3);
        // A damaged entry is ignored and removed.
        fs::write(cache.path(&keys[4]), b"garbage").unwrap();
        assert_eq!(cache.load(&keys[4]), None);
        assert!(!cache.path(&keys[4]).exists());
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn packed_objects_round_trip_and_damage_is_detected() {
        let obj = |n: u8, len: usize| {
            let mut v = ELF_MAGIC.to_vec();
            v.resize(len, n);
            v
        };
        let objects = vec![obj(1, 70), obj(2, 5), obj(3, 100)];
        let packed = pack_objects(&objects);
        let back: Vec<Vec<u8>> = unpack_objects(&packed).unwrap().into_iter().map(<[u8]>::to_vec).collect();
        assert_eq!(back, objects);
        // One object is stored as itself.
        assert_eq!(pack_objects(&objects[..1]), objects[0]);
        assert_eq!(unpack_objects(&objects[0]).unwrap(), vec![&objects[0][..]]);
        // Truncated, extended, a wrong count, a non-object inside, no objects: all refused.
        assert!(unpack_objects(&packed[..packed.len() - 1]).is_none());
        let mut longer = packed.clone();
        longer.push(0);
        assert!(unpack_objects(&longer).is_none());
        let mut count = packed.clone();
        count[8] = 4;
        assert!(unpack_objects(&count).is_none());
        let mut inner = packed.clone();
        inner[8 + 4 + 8] = b'X';
        assert!(unpack_objects(&inner).is_none());
        assert!(unpack_objects(&pack_objects(&[])).is_none());
        assert!(unpack_objects(b"garbage").is_none());
    }
}
