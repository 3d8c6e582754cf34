//! Self-checking handles for every object handed to C (`CUcontext`, `CUmodule`, ...).
//!
//! # Scheme
//! A handle is not a pointer: it is a 64-bit id `tag:8 | generation:24 | index:32` that
//! the C side stores as an opaque pointer value. Objects live as `Arc<T>` in a
//! [`HandleTable<T>`], a slab indexed by `index`; each slot carries the generation of its
//! current occupant. Looking a handle up never dereferences caller-supplied memory:
//! - a null handle, or one whose tag is another type's (a `CUfunction` passed as a
//!   `CUstream`) is rejected;
//! - a handle whose generation differs from its slot's (the object was destroyed and the
//!   slot maybe reused) is *stale* and rejected;
//! - anything else (garbage) fails the index bound or generation check.
//!
//! The tag lives in the top byte with bit 6 set and bit 7 clear. Bit 6 keeps every handle
//! above 2^62: never 0, 1 or 2 (`CU_STREAM_LEGACY`, `CU_STREAM_PER_THREAD`), and never an
//! address a program could own (x86-64 and AArch64 user addresses stay below 2^48). Bit 63
//! clear keeps every handle positive as a signed 64-bit integer, so never `(CUcontext)-1`
//! either: Python bindings (numba-cuda, cuda-python's `cuda.core`) convert `.handle` values
//! through signed 64-bit integers and raise `OverflowError` on values with bit 63 set.
//! `CUfunction` and `CUkernel` can be told apart by value alone (cudart 13 passes either
//! to `cuLaunchKernel`).
//! Generations wrap after 2^24 reuses of one slot; a stale handle that old could alias a
//! live object of the same type, which NVIDIA's pointer handles allow much sooner.
//!
//! What each kind answers for a bad handle is decided by the caller through [`Lookup`]:
//! `CUDA_ERROR_INVALID_CONTEXT` for contexts, `CUDA_ERROR_INVALID_VALUE` for allocation
//! handles and memory pools (the codes the "Virtual Memory Management" and "Stream Ordered
//! Memory Allocator" calls document),
//! `CUDA_ERROR_INVALID_HANDLE` for the rest.

use std::ffi::c_void;
use std::sync::{Arc, RwLock};

/// Which object type a handle names; stored in the handle's top byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Kind {
    Context = 0x41,
    Module = 0x42,
    Function = 0x43,
    Library = 0x44,
    Kernel = 0x45,
    Stream = 0x46,
    Event = 0x47,
    Link = 0x48,
    MemAllocation = 0x49,
    MemPool = 0x4A,
    Graph = 0x4B,
    GraphNode = 0x4C,
    GraphExec = 0x4D,
    Array = 0x4E,
    UserObject = 0x4F,
    ExtSemaphore = 0x50,
    ExternalMemory = 0x51,
    MipmappedArray = 0x52,
    GreenCtx = 0x53,
    ResourceDesc = 0x54,
    GraphicsResource = 0x55,
    TexRef = 0x56,
    SurfRef = 0x57,
}

impl Kind {
    /// Every kind, in tag order.
    pub const ALL: [Kind; 23] = [
        Kind::Context,
        Kind::Module,
        Kind::Function,
        Kind::Library,
        Kind::Kernel,
        Kind::Stream,
        Kind::Event,
        Kind::Link,
        Kind::MemAllocation,
        Kind::MemPool,
        Kind::Graph,
        Kind::GraphNode,
        Kind::GraphExec,
        Kind::Array,
        Kind::UserObject,
        Kind::ExtSemaphore,
        Kind::ExternalMemory,
        Kind::MipmappedArray,
        Kind::GreenCtx,
        Kind::ResourceDesc,
        Kind::GraphicsResource,
        Kind::TexRef,
        Kind::SurfRef,
    ];
}

/// Why a handle did not resolve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lookup {
    /// The handle is 0.
    Null,
    /// The handle names another type of object (or is not one of ours at all).
    WrongKind,
    /// The object was destroyed.
    Stale,
}

const INDEX_BITS: u32 = 32;
const GENERATION_BITS: u32 = 24;
const GENERATION_MASK: u64 = (1 << GENERATION_BITS) - 1;

fn encode(kind: Kind, generation: u32, index: u32) -> u64 {
    ((kind as u64) << 56) | ((generation as u64 & GENERATION_MASK) << INDEX_BITS) | index as u64
}

/// The kind encoded in a raw handle value, if it is one of ours.
pub fn kind_of(raw: u64) -> Option<Kind> {
    let tag = (raw >> 56) as u8;
    Kind::ALL.into_iter().find(|k| *k as u8 == tag)
}

macro_rules! handle_types {
    ($($(#[$doc:meta])* $name:ident => $kind:ident;)*) => {$(
        $(#[$doc])*
        ///
        /// A plain value: copying it does not keep the object alive. Convert from and to the
        /// C handle with [`from_raw`](Self::from_raw) / [`as_raw`](Self::as_raw).
        #[repr(transparent)]
        #[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
        pub struct $name(pub u64);

        impl $name {
            /// The null handle.
            pub const NULL: $name = $name(0);
            /// The handle the C caller passed.
            pub fn from_raw(raw: *mut c_void) -> Self {
                $name(raw as usize as u64)
            }
            /// The value to hand to C.
            pub fn as_raw(self) -> *mut c_void {
                self.0 as usize as *mut c_void
            }
            /// Whether this is the null handle.
            pub fn is_null(self) -> bool {
                self.0 == 0
            }
        }

        impl HandleKind for $name {
            const KIND: Kind = Kind::$kind;
            fn from_bits(bits: u64) -> Self { $name(bits) }
            fn bits(self) -> u64 { self.0 }
        }
    )*};
}

handle_types! {
    /// A `CUcontext`.
    CtxHandle => Context;
    /// A `CUmodule`.
    ModuleHandle => Module;
    /// A `CUfunction`.
    FunctionHandle => Function;
    /// A `CUlibrary`.
    LibraryHandle => Library;
    /// A `CUkernel`.
    KernelHandle => Kernel;
    /// A `CUstream` (0, `CU_STREAM_LEGACY` = 1 and `CU_STREAM_PER_THREAD` = 2 are the
    /// default streams and never table entries).
    StreamHandle => Stream;
    /// A `CUevent`.
    EventHandle => Event;
    /// A `CUlinkState`.
    LinkHandle => Link;
    /// A `CUmemGenericAllocationHandle` (an `unsigned long long`, not a pointer, in C).
    MemHandle => MemAllocation;
    /// A `CUmemoryPool`.
    PoolHandle => MemPool;
    /// A `CUgraph`.
    GraphHandle => Graph;
    /// A `CUgraphNode`.
    GraphNodeHandle => GraphNode;
    /// A `CUgraphExec`.
    GraphExecHandle => GraphExec;
    /// A `CUuserObject`.
    UserObjectHandle => UserObject;
    /// A `CUexternalSemaphore`.
    ExtSemHandle => ExtSemaphore;
    /// A `CUgreenCtx`.
    GreenCtxHandle => GreenCtx;
    /// A `CUdevResourceDesc`.
    ResourceDescHandle => ResourceDesc;
    /// A `CUgraphicsResource`.
    GraphicsHandle => GraphicsResource;
    /// A `CUtexref`.
    TexRefHandle => TexRef;
    /// A `CUsurfref`.
    SurfRefHandle => SurfRef;
}

/// Ties a handle newtype to its [`Kind`].
pub trait HandleKind: Copy {
    const KIND: Kind;
    fn from_bits(bits: u64) -> Self;
    fn bits(self) -> u64;
}

struct Slot<T> {
    generation: u32,
    value: Option<Arc<T>>,
}

struct Slab<T> {
    slots: Vec<Slot<T>>,
    free: Vec<u32>,
}

/// Live objects of one type, addressed by handle. Thread-safe; lookups take a read lock.
pub struct HandleTable<T, H: HandleKind> {
    slab: RwLock<Slab<T>>,
    _handle: std::marker::PhantomData<fn() -> H>,
}

impl<T, H: HandleKind> Default for HandleTable<T, H> {
    fn default() -> Self {
        HandleTable { slab: RwLock::new(Slab { slots: Vec::new(), free: Vec::new() }), _handle: std::marker::PhantomData }
    }
}

impl<T, H: HandleKind> HandleTable<T, H> {
    /// Stores `value` and returns its new handle.
    pub fn insert(&self, value: Arc<T>) -> H {
        self.insert_with(|_| value).0
    }

    /// Stores the object `make` builds from its own handle (objects that know their handle).
    pub fn insert_with(&self, make: impl FnOnce(H) -> Arc<T>) -> (H, Arc<T>) {
        let mut slab = self.slab.write().unwrap_or_else(|e| e.into_inner());
        let index = match slab.free.pop() {
            Some(index) => index,
            None => {
                slab.slots.push(Slot { generation: 0, value: None });
                (slab.slots.len() - 1) as u32
            }
        };
        let slot = &mut slab.slots[index as usize];
        // Generations start at 1 and skip 0 when wrapping.
        slot.generation = ((slot.generation as u64 + 1) & GENERATION_MASK).max(1) as u32;
        let handle = H::from_bits(encode(H::KIND, slot.generation, index));
        let value = make(handle);
        slot.value = Some(value.clone());
        (handle, value)
    }

    /// The object `handle` names.
    pub fn get(&self, handle: H) -> Result<Arc<T>, Lookup> {
        let bits = handle.bits();
        if bits == 0 {
            return Err(Lookup::Null);
        }
        if kind_of(bits) != Some(H::KIND) {
            return Err(Lookup::WrongKind);
        }
        let index = (bits & 0xFFFF_FFFF) as usize;
        let generation = ((bits >> INDEX_BITS) & GENERATION_MASK) as u32;
        let slab = self.slab.read().unwrap_or_else(|e| e.into_inner());
        match slab.slots.get(index) {
            Some(slot) if slot.generation == generation => slot.value.clone().ok_or(Lookup::Stale),
            Some(_) => Err(Lookup::Stale),
            None => Err(Lookup::WrongKind),
        }
    }

    /// Removes the object; later lookups of `handle` answer [`Lookup::Stale`].
    pub fn remove(&self, handle: H) -> Result<Arc<T>, Lookup> {
        self.get(handle)?;
        let index = (handle.bits() & 0xFFFF_FFFF) as u32;
        let mut slab = self.slab.write().unwrap_or_else(|e| e.into_inner());
        let slot = &mut slab.slots[index as usize];
        let generation = ((handle.bits() >> INDEX_BITS) & GENERATION_MASK) as u32;
        if slot.generation != generation {
            return Err(Lookup::Stale);
        }
        let value = slot.value.take().ok_or(Lookup::Stale)?;
        slab.free.push(index);
        Ok(value)
    }

    /// Every live object (for teardown scans).
    pub fn all(&self) -> Vec<(H, Arc<T>)> {
        let slab = self.slab.read().unwrap_or_else(|e| e.into_inner());
        slab.slots
            .iter()
            .enumerate()
            .filter_map(|(i, slot)| {
                let value = slot.value.clone()?;
                Some((H::from_bits(encode(H::KIND, slot.generation, i as u32)), value))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stale_wrong_kind_and_null_handles_are_detected() {
        let streams: HandleTable<u32, StreamHandle> = HandleTable::default();
        let a = streams.insert(Arc::new(7));
        assert_eq!(*streams.get(a).unwrap(), 7);
        assert_eq!(streams.get(StreamHandle::NULL).unwrap_err(), Lookup::Null);
        assert_eq!(streams.get(StreamHandle(1)).unwrap_err(), Lookup::WrongKind);
        assert_eq!(streams.get(StreamHandle(EventHandle(a.0).0 ^ (0x01 << 56))).unwrap_err(), Lookup::WrongKind);
        streams.remove(a).unwrap();
        assert_eq!(streams.get(a).unwrap_err(), Lookup::Stale);
        assert_eq!(streams.remove(a).unwrap_err(), Lookup::Stale);
        // The slot is reused with a new generation; the old handle stays stale.
        let b = streams.insert(Arc::new(8));
        assert_ne!(a, b);
        assert_eq!(streams.get(a).unwrap_err(), Lookup::Stale);
        assert_eq!(*streams.get(b).unwrap(), 8);
        assert_eq!(streams.all().len(), 1);
    }

    #[test]
    fn handles_avoid_reserved_values_and_encode_their_kind() {
        let events: HandleTable<(), EventHandle> = HandleTable::default();
        for _ in 0..10 {
            let h = events.insert(Arc::new(()));
            assert!(h.0 > 2 && h.0 != u64::MAX);
            assert_eq!(kind_of(h.0), Some(Kind::Event));
            assert_eq!(EventHandle::from_raw(h.as_raw()), h);
        }
        assert_eq!(kind_of(0), None);
        assert_eq!(kind_of(0x7fff_0000_1234), None);
        assert_eq!(kind_of(u64::MAX), None);
    }

    #[test]
    fn every_handle_is_positive_as_a_signed_64_bit_value() {
        // The largest handle of each kind (top generation, top index) still has bit 63
        // clear and a tag above every user address.
        for kind in Kind::ALL {
            for (generation, index) in [(1, 0), (GENERATION_MASK as u32, u32::MAX)] {
                let raw = encode(kind, generation, index);
                assert!((raw as i64) > 0, "{kind:?}: {raw:#x}");
                assert!(raw >= 1 << 62, "{kind:?}: {raw:#x}");
                assert_eq!(kind_of(raw), Some(kind));
            }
        }
    }
}
