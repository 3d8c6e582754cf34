//! Stream attributes: `cuStreamGetAttribute`, `cuStreamSetAttribute`,
//! `cuStreamCopyAttributes` (CUDA Driver API, "Stream Management").
//!
//! A stream attribute is a `CUlaunchAttributeID` with its `CUlaunchAttributeValue`; the API
//! reference marks five of them valid for streams: the L2 access policy window, the
//! synchronization policy, the priority and the two memory synchronization domain
//! attributes. Every stream (created, the legacy default stream of a context, each
//! thread's per-thread default stream) keeps its own values in its queue.
//!
//! None of them changes what work computes here: the CPU device has no persisting L2
//! lines (`CU_DEVICE_ATTRIBUTE_MAX_ACCESS_POLICY_WINDOW_SIZE` is 0), one memory
//! synchronization domain (`MEM_SYNC_DOMAIN_COUNT` 1) and shares its cores fairly among
//! streams. The values are checked, kept and reported back; the priority is the one
//! `cuStreamGetPriority` reports.
//!
//! What NVIDIA's driver answers (580.159 on an H200, `ctests/host/stream_ops.c` lists the
//! calls): an id that is no stream attribute is `CUDA_ERROR_INVALID_VALUE`; a new stream's
//! synchronization policy reads as `0xffffffff` (none chosen) while only 1..=4 may be set;
//! a window larger than the device's maximum or a hit ratio outside [0, 1] is refused (the
//! access properties are not checked); a priority is clamped to the range; a domain above
//! `REMOTE` and a domain map entry at or above the device's domain count are refused (so
//! with one domain both entries map to domain 0, the map a new stream has here; the H200,
//! with 4, starts with {0, 1}); `cuStreamCopyAttributes` copies everything but the
//! priority.

use std::sync::Mutex;

use crate::diag::fail;
use crate::stream::{GREATEST_PRIORITY, LEAST_PRIORITY};
use crate::{CuError, CuResult, Driver, StreamHandle};

/// `CUlaunchAttributeID` values valid for streams.
pub mod id {
    pub const ACCESS_POLICY_WINDOW: u32 = 1;
    pub const SYNCHRONIZATION_POLICY: u32 = 3;
    pub const PRIORITY: u32 = 8;
    pub const MEM_SYNC_DOMAIN_MAP: u32 = 9;
    pub const MEM_SYNC_DOMAIN: u32 = 10;
}

/// `CUaccessPolicyWindow` (32 bytes in the value union).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct AccessPolicyWindow {
    pub base_ptr: u64,
    pub num_bytes: u64,
    pub hit_ratio: f32,
    /// `CUaccessProperty`: `NORMAL` 0, `STREAMING` 1, `PERSISTING` 2.
    pub hit_prop: u32,
    pub miss_prop: u32,
}

/// One stream attribute with its value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum StreamAttr {
    AccessPolicyWindow(AccessPolicyWindow),
    /// `CUsynchronizationPolicy`: `AUTO` 1, `SPIN` 2, `YIELD` 3, `BLOCKING_SYNC` 4.
    SynchronizationPolicy(u32),
    Priority(i32),
    /// `CUlaunchMemSyncDomainMap`: the domains `default_` and `remote` map to.
    MemSyncDomainMap([u8; 2]),
    /// `CUlaunchMemSyncDomain`: `DEFAULT` 0, `REMOTE` 1.
    MemSyncDomain(u32),
}

/// The bytes of a `CUlaunchAttributeValue` union.
pub type RawValue = [u8; 64];

impl StreamAttr {
    /// Decodes attribute `id` from its value union; `None` for an id that is not a stream
    /// attribute.
    pub fn from_raw(id: u32, v: &RawValue) -> Option<StreamAttr> {
        let u32_at = |o: usize| u32::from_ne_bytes(v[o..o + 4].try_into().expect("4 bytes"));
        let u64_at = |o: usize| u64::from_ne_bytes(v[o..o + 8].try_into().expect("8 bytes"));
        Some(match id {
            id::ACCESS_POLICY_WINDOW => StreamAttr::AccessPolicyWindow(AccessPolicyWindow {
                base_ptr: u64_at(0),
                num_bytes: u64_at(8),
                hit_ratio: f32::from_bits(u32_at(16)),
                hit_prop: u32_at(20),
                miss_prop: u32_at(24),
            }),
            id::SYNCHRONIZATION_POLICY => StreamAttr::SynchronizationPolicy(u32_at(0)),
            id::PRIORITY => StreamAttr::Priority(u32_at(0) as i32),
            id::MEM_SYNC_DOMAIN_MAP => StreamAttr::MemSyncDomainMap([v[0], v[1]]),
            id::MEM_SYNC_DOMAIN => StreamAttr::MemSyncDomain(u32_at(0)),
            _ => return None,
        })
    }

    /// The value union of this attribute (unused bytes zero).
    pub fn to_raw(&self) -> RawValue {
        let mut v = [0u8; 64];
        let mut put = |o: usize, b: &[u8]| v[o..o + b.len()].copy_from_slice(b);
        match *self {
            StreamAttr::AccessPolicyWindow(w) => {
                put(0, &w.base_ptr.to_ne_bytes());
                put(8, &w.num_bytes.to_ne_bytes());
                put(16, &w.hit_ratio.to_bits().to_ne_bytes());
                put(20, &w.hit_prop.to_ne_bytes());
                put(24, &w.miss_prop.to_ne_bytes());
            }
            StreamAttr::SynchronizationPolicy(p) | StreamAttr::MemSyncDomain(p) => put(0, &p.to_ne_bytes()),
            StreamAttr::Priority(p) => put(0, &p.to_ne_bytes()),
            StreamAttr::MemSyncDomainMap(m) => put(0, &m),
        }
        v
    }
}

/// `CU_SYNC_POLICY_AUTO`, the least policy.
const SYNC_POLICY_AUTO: u32 = 1;
/// What a new stream's policy reads as: none chosen (NVIDIA's driver answers so).
const SYNC_POLICY_UNSET: u32 = u32::MAX;
/// `CU_DEVICE_ATTRIBUTE_MEM_SYNC_DOMAIN_COUNT` of every device here.
const MEM_SYNC_DOMAIN_COUNT: u8 = 1;
const SYNC_POLICY_BLOCKING_SYNC: u32 = 4;
/// `CU_LAUNCH_MEM_SYNC_DOMAIN_REMOTE`, the largest domain.
const MEM_SYNC_DOMAIN_REMOTE: u32 = 1;

/// The attribute values of one stream.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct StreamAttrs {
    window: AccessPolicyWindow,
    sync_policy: u32,
    pub(crate) priority: i32,
    domain_map: [u8; 2],
    domain: u32,
}

impl StreamAttrs {
    pub(crate) fn new(priority: i32) -> StreamAttrs {
        // With one domain, the default and the remote domain both map to it.
        StreamAttrs { window: AccessPolicyWindow::default(), sync_policy: SYNC_POLICY_UNSET, priority, domain_map: [0, 0], domain: 0 }
    }

    fn get(&self, id: u32) -> Option<StreamAttr> {
        Some(match id {
            id::ACCESS_POLICY_WINDOW => StreamAttr::AccessPolicyWindow(self.window),
            id::SYNCHRONIZATION_POLICY => StreamAttr::SynchronizationPolicy(self.sync_policy),
            id::PRIORITY => StreamAttr::Priority(self.priority),
            id::MEM_SYNC_DOMAIN_MAP => StreamAttr::MemSyncDomainMap(self.domain_map),
            id::MEM_SYNC_DOMAIN => StreamAttr::MemSyncDomain(self.domain),
            _ => return None,
        })
    }
}

/// The attribute store of a queue.
pub(crate) type AttrCell = Mutex<StreamAttrs>;

impl Driver {
    fn stream_attrs<R>(&self, stream: StreamHandle, f: impl FnOnce(&mut StreamAttrs) -> R) -> CuResult<R> {
        let (_, q) = self.stream_queue(stream)?;
        let mut attrs = q.attrs.lock().unwrap_or_else(|e| e.into_inner());
        Ok(f(&mut attrs))
    }

    /// `cuStreamGetAttribute`: `CUDA_ERROR_INVALID_VALUE` for an id that is not a stream
    /// attribute.
    pub fn stream_get_attribute(&self, stream: StreamHandle, id: u32) -> CuResult<StreamAttr> {
        self.stream_attrs(stream, |a| a.get(id))?
            .ok_or_else(|| fail(CuError::INVALID_VALUE, format_args!("cuStreamGetAttribute: {id} is not a stream attribute")))
    }

    /// `cuStreamSetAttribute`. An access policy window must fit the device's
    /// `MAX_ACCESS_POLICY_WINDOW_SIZE` (0 here: only an empty window), with a hit ratio in
    /// [0, 1]; priorities are clamped to the range, as at stream creation.
    pub fn stream_set_attribute(&self, stream: StreamHandle, attr: StreamAttr) -> CuResult<()> {
        let bad = |why: std::fmt::Arguments<'_>| Err(fail(CuError::INVALID_VALUE, format_args!("cuStreamSetAttribute: {why}")));
        match attr {
            StreamAttr::AccessPolicyWindow(w) => {
                if w.num_bytes > 0 {
                    return bad(format_args!("an access policy window of {} bytes (the device's maximum is 0)", w.num_bytes));
                }
                if !(0.0..=1.0).contains(&w.hit_ratio) {
                    return bad(format_args!("hit ratio {} outside [0, 1]", w.hit_ratio));
                }
            }
            StreamAttr::SynchronizationPolicy(p) if !(SYNC_POLICY_AUTO..=SYNC_POLICY_BLOCKING_SYNC).contains(&p) => {
                return bad(format_args!("synchronization policy {p}"))
            }
            StreamAttr::MemSyncDomain(d) if d > MEM_SYNC_DOMAIN_REMOTE => return bad(format_args!("memory synchronization domain {d}")),
            StreamAttr::MemSyncDomainMap(m) if m.iter().any(|&d| d >= MEM_SYNC_DOMAIN_COUNT) => {
                return bad(format_args!("domain map {m:?} beyond the device's {MEM_SYNC_DOMAIN_COUNT} domain(s)"))
            }
            _ => {}
        }
        self.stream_attrs(stream, |a| match attr {
            StreamAttr::AccessPolicyWindow(w) => a.window = w,
            StreamAttr::SynchronizationPolicy(p) => a.sync_policy = p,
            StreamAttr::Priority(p) => a.priority = p.clamp(GREATEST_PRIORITY, LEAST_PRIORITY),
            StreamAttr::MemSyncDomainMap(m) => a.domain_map = m,
            StreamAttr::MemSyncDomain(d) => a.domain = d,
        })
    }

    /// `cuStreamCopyAttributes`: the attributes of `src` onto `dst`, but for the priority
    /// (which NVIDIA's driver leaves as it was).
    pub fn stream_copy_attributes(&self, dst: StreamHandle, src: StreamHandle) -> CuResult<()> {
        let values = self.stream_attrs(src, |a| *a)?;
        self.stream_attrs(dst, |a| *a = StreamAttrs { priority: a.priority, ..values })
    }
}
