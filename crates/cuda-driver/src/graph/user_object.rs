//! User objects (CUDA Programming Guide, "CUDA User Objects"; driver API
//! `cuUserObjectCreate`, `cuUserObjectRetain`/`Release`, `cuGraphRetainUserObject`/
//! `ReleaseUserObject`): a destructor and its argument with a reference count, the
//! references owned by the program (the creating call's and `cuUserObjectRetain`'s), by
//! graphs and by executable graphs.
//!
//! - A graph's references go with it: `cuGraphDestroy` releases them, `cuGraphClone`
//!   (and a child graph node, which clones) gives the copy references of its own, and an
//!   executable graph takes references for those of the graph it was instantiated from
//!   (with its child graphs' and conditional bodies') and releases them when destroyed,
//!   once its launches submitted by then have completed.
//! - When the count reaches zero the destructor runs on one internal thread shared by all
//!   user objects ("executed by a shared internal thread", `cuUserObjectCreate`), never
//!   on the thread that dropped the last reference; the handle is dead from then on.

use std::collections::HashMap;
use std::ffi::c_void;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Sender};
use std::sync::{Arc, Mutex, OnceLock};

use super::NodeParams;
use crate::diag::fail;
use crate::exec::Marker;
use crate::{CuError, CuResult, Driver, GraphHandle, UserObjectHandle};

/// `CU_USER_OBJECT_NO_DESTRUCTOR_SYNC`, which `cuUserObjectCreate` requires.
pub const NO_DESTRUCTOR_SYNC: u32 = 1;
/// `CU_GRAPH_USER_OBJECT_MOVE`: the graph takes over references of the caller.
pub const GRAPH_MOVE: u32 = 1;

/// A `CUuserObject`.
pub struct UserObject {
    destroy: unsafe extern "C" fn(*mut c_void),
    ptr: usize,
    count: Mutex<u64>,
    /// No reference is left: the destructor was posted and the handle is dead.
    dead: AtomicBool,
}

impl UserObject {
    fn add(&self, n: u64) {
        *self.count.lock().unwrap_or_else(|e| e.into_inner()) += n;
    }

    /// Drops `n` references (`Err`: only that many are held); the last one posts the
    /// destructor to the internal thread.
    fn drop_refs(&self, n: u64) -> Result<(), u64> {
        let mut c = self.count.lock().unwrap_or_else(|e| e.into_inner());
        if *c < n {
            return Err(*c);
        }
        *c -= n;
        if *c == 0 {
            self.dead.store(true, Ordering::Release);
            let (destroy, ptr) = (self.destroy, self.ptr);
            // SAFETY: the program's destructor with its argument, as created.
            post(Box::new(move || unsafe { destroy(ptr as *mut c_void) }));
        }
        Ok(())
    }
}

/// References a graph owns: object -> count.
pub(crate) type Refs = HashMap<UserObjectHandle, u64>;

/// References an executable graph owns (the objects themselves: they are released after
/// its launches, without the driver).
pub(crate) type HeldRefs = Vec<(Arc<UserObject>, u64)>;

/// Work for the internal thread: a destructor, or releases that wait for launches.
type Job = Box<dyn FnOnce() + Send>;

/// The shared internal thread that runs destructors (and deferred releases).
fn worker() -> &'static Mutex<Sender<Job>> {
    static WORKER: OnceLock<Mutex<Sender<Job>>> = OnceLock::new();
    WORKER.get_or_init(|| {
        let (tx, rx) = channel::<Job>();
        let spawned = std::thread::Builder::new().name("cuda-user-objects".into()).spawn(move || {
            while let Ok(job) = rx.recv() {
                // A destructor is foreign code wrapped by no firewall of ours: it must not
                // take the thread down.
                let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(job));
            }
        });
        if spawned.is_err() {
            crate::diag!("cuUserObjectCreate: no thread for destructors; they will not run");
        }
        Mutex::new(tx)
    })
}

fn post(job: Job) {
    let _ = worker().lock().unwrap_or_else(|e| e.into_inner()).send(job);
}

impl Driver {
    fn user_object(&self, h: UserObjectHandle) -> CuResult<Arc<UserObject>> {
        let o = self.graphs.user_objects.get(h).map_err(|why| fail(CuError::INVALID_VALUE, format_args!("user object {:#x}: {why:?}", h.0)))?;
        if o.dead.load(Ordering::Acquire) {
            let _ = self.graphs.user_objects.remove(h);
            return Err(fail(CuError::INVALID_VALUE, format_args!("user object {:#x} was destroyed", h.0)));
        }
        Ok(o)
    }

    /// `cuUserObjectCreate`: `initial` references, owned by the caller.
    pub fn user_object_create(&self, destroy: unsafe extern "C" fn(*mut c_void), ptr: usize, initial: u32, flags: u32) -> CuResult<UserObjectHandle> {
        if flags != NO_DESTRUCTOR_SYNC || initial == 0 || initial > i32::MAX as u32 {
            return Err(fail(CuError::INVALID_VALUE, format_args!("cuUserObjectCreate: flags {flags:#x}, count {initial}")));
        }
        let o = UserObject { destroy, ptr, count: Mutex::new(initial as u64), dead: AtomicBool::new(false) };
        Ok(self.graphs.user_objects.insert(Arc::new(o)))
    }

    /// `cuUserObjectRetain`: `count` more references for the caller.
    pub fn user_object_retain(&self, h: UserObjectHandle, count: u32) -> CuResult<()> {
        check_count(count)?;
        self.user_object(h)?.add(count as u64);
        Ok(())
    }

    /// `cuUserObjectRelease`: drops `count` references; the destructor runs (on the
    /// internal thread) when none is left. Releasing more than exist is refused.
    pub fn user_object_release(&self, h: UserObjectHandle, count: u32) -> CuResult<()> {
        check_count(count)?;
        self.release(h, count as u64)
    }

    fn release(&self, h: UserObjectHandle, count: u64) -> CuResult<()> {
        let o = self.user_object(h)?;
        o.drop_refs(count)
            .map_err(|held| fail(CuError::INVALID_VALUE, format_args!("user object {:#x}: releasing {count} of {held} references", h.0)))?;
        if o.dead.load(Ordering::Acquire) {
            let _ = self.graphs.user_objects.remove(h);
        }
        Ok(())
    }

    /// `cuGraphRetainUserObject`: `count` references owned by graph `g`, new ones or (with
    /// `CU_GRAPH_USER_OBJECT_MOVE`) taken over from the caller.
    pub fn graph_retain_user_object(&self, g: GraphHandle, h: UserObjectHandle, count: u32, flags: u32) -> CuResult<()> {
        check_count(count)?;
        if flags & !GRAPH_MOVE != 0 {
            return Err(fail(CuError::INVALID_VALUE, format_args!("cuGraphRetainUserObject: flags {flags:#x}")));
        }
        let graph = self.graph(g)?;
        if flags & GRAPH_MOVE == 0 {
            self.user_object_retain(h, count)?;
        } else {
            self.user_object(h)?;
        }
        *graph.lock().user_objects.entry(h).or_default() += count as u64;
        Ok(())
    }

    /// `cuGraphReleaseUserObject`: drops `count` of the references graph `g` owns.
    pub fn graph_release_user_object(&self, g: GraphHandle, h: UserObjectHandle, count: u32) -> CuResult<()> {
        check_count(count)?;
        let graph = self.graph(g)?;
        self.user_object(h)?;
        {
            let mut state = graph.lock();
            let owned = state.user_objects.get(&h).copied().unwrap_or(0);
            if owned < count as u64 {
                return Err(fail(CuError::INVALID_VALUE, format_args!("cuGraphReleaseUserObject: the graph owns {owned} references")));
            }
            if owned == count as u64 {
                state.user_objects.remove(&h);
            } else {
                state.user_objects.insert(h, owned - count as u64);
            }
        }
        self.release(h, count as u64)
    }

    /// Releases every reference in `refs` (a destroyed graph's).
    pub(crate) fn release_refs(&self, refs: Refs) {
        for (h, n) in refs {
            let _ = self.release(h, n);
        }
    }

    /// More references for a copy of `refs` (a cloned graph).
    pub(crate) fn retain_refs(&self, refs: &Refs) {
        for (&h, &n) in refs {
            if let Ok(o) = self.user_object(h) {
                o.add(n);
            }
        }
    }

    /// References for an executable graph instantiated from `g`: as many as `g` and the
    /// graphs its nodes own hold.
    pub(crate) fn hold_refs(&self, g: GraphHandle) -> HeldRefs {
        let mut refs = Refs::new();
        self.graph_refs(g, &mut refs);
        refs.into_iter()
            .filter_map(|(h, n)| {
                let o = self.user_object(h).ok()?;
                o.add(n);
                Some((o, n))
            })
            .collect()
    }

    /// The references owned by graph `g` and the graphs its nodes own, summed.
    fn graph_refs(&self, g: GraphHandle, out: &mut Refs) {
        let Ok(graph) = self.graph(g) else { return };
        let owned: Vec<GraphHandle> = {
            let state = graph.lock();
            for (&h, &n) in &state.user_objects {
                *out.entry(h).or_default() += n;
            }
            state
                .nodes
                .iter()
                .flat_map(|n| match &n.params {
                    NodeParams::Graph(child) => vec![*child],
                    NodeParams::Conditional(c) => c.bodies.to_vec(),
                    _ => Vec::new(),
                })
                .collect()
        };
        for child in owned {
            self.graph_refs(child, out);
        }
    }
}

/// Releases an executable graph's references once `after` (its last launch) completed.
pub(crate) fn release_after(refs: HeldRefs, after: Option<Marker>) {
    let release = move || {
        for (o, n) in refs {
            let _ = o.drop_refs(n);
        }
    };
    match after.filter(|m| !m.is_complete()) {
        None => release(),
        Some(m) => post(Box::new(move || {
            m.wait();
            release();
        })),
    }
}

fn check_count(count: u32) -> CuResult<()> {
    if count == 0 || count > i32::MAX as u32 {
        return Err(fail(CuError::INVALID_VALUE, format_args!("user object reference count {count}")));
    }
    Ok(())
}
