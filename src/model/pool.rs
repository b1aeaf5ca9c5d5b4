//! A small pool of threads for the exact model's weight products: one call runs a closure over
//! disjoint ranges of output rows, the caller taking the first range.
//!
//! Only output rows are split, never a dot product's sum: each output is computed by the same
//! kernel in the same order whatever the number of threads, so the logits are bit-identical for
//! any thread count. The pool runs natively (threads started by [`start`], for the tests) and in
//! the threaded wasm build, where the helpers are Web Workers on the same shared memory that call
//! [`register`] and then [`serve`]; the single-threaded wasm build runs every range inline.
//!
//! A helper spins a short while for the next job and then waits (`memory.atomic.wait32` in the
//! browser, a futex natively): a machine with fewer free cores than threads slows down instead of
//! spinning itself to a standstill. A thread wakes another only when that one is really waiting
//! (a counter says so): a wake-up is a call into the browser's runtime (natively a system call)
//! even when nobody waits, and a token makes ~150 jobs. A helper that dies sets a word the caller
//! checks while it waits ([`crashed`]), so that the caller fails instead of waiting forever.

use std::ops::Range;

/// At most this many threads, the caller included.
pub const MAX_THREADS: usize = 16;

/// The threads a product uses now: 1 without helpers.
pub fn threads() -> usize {
    imp::threads()
}

/// Runs `job` over `0..n` split into at most [`threads`] contiguous ranges, each starting at a
/// multiple of `align` (a panel of rows, say), and returns once every range is done. The ranges
/// never overlap, so `job` may write each range's outputs without a lock.
pub fn for_rows(n: usize, align: usize, job: &(dyn Fn(Range<usize>) + Sync)) {
    imp::for_rows(n, align, job)
}

/// Rows each thread has computed so far (the caller first), for tests and the page: a pool whose
/// helpers never ran cannot pass for a threaded one.
pub fn rows_done() -> Vec<usize> {
    imp::rows_done()
}

/// Range `i` of `chunks` over `0..n` in units of `align`: as even as whole units allow.
#[cfg_attr(all(target_arch = "wasm32", not(target_feature = "atomics")), allow(dead_code))]
fn chunk(n: usize, align: usize, chunks: usize, i: usize) -> Range<usize> {
    let units = n.div_ceil(align);
    let at = |k: usize| (units * k / chunks * align).min(n);
    at(i)..at(i + 1)
}

/// How many ranges `n` rows make with `threads` threads: no range is empty.
#[cfg_attr(all(target_arch = "wasm32", not(target_feature = "atomics")), allow(dead_code))]
fn chunks_for(n: usize, align: usize, threads: usize) -> usize {
    threads.min(n.div_ceil(align)).max(1)
}

/// An output buffer the pool's threads write in disjoint parts.
pub(crate) struct DisjointRows {
    ptr: *mut f32,
    len: usize,
}

// SAFETY: threads only write through `slice`, whose callers take disjoint parts.
unsafe impl Sync for DisjointRows {}

impl DisjointRows {
    pub(crate) fn new(out: &mut [f32]) -> Self {
        DisjointRows {
            ptr: out.as_mut_ptr(),
            len: out.len(),
        }
    }

    /// `out[start..start + len]`.
    ///
    /// # Safety
    /// No two live slices may overlap.
    #[allow(clippy::mut_from_ref)]
    pub(crate) unsafe fn slice(&self, start: usize, len: usize) -> &mut [f32] {
        assert!(start + len <= self.len, "rows {start}..{} of {}", start + len, self.len);
        // SAFETY: in bounds (checked); disjoint from every other live slice (the caller's promise).
        unsafe { std::slice::from_raw_parts_mut(self.ptr.add(start), len) }
    }
}

#[cfg(not(target_arch = "wasm32"))]
pub use imp::start;
#[cfg(any(not(target_arch = "wasm32"), target_feature = "atomics"))]
pub use imp::{crashed, register, report_crash, serve, set_limit};

/// The pool proper: natively and in the threaded wasm build.
#[cfg(any(not(target_arch = "wasm32"), target_feature = "atomics"))]
mod imp {
    use super::{chunk, chunks_for, MAX_THREADS};
    use std::cell::UnsafeCell;
    use std::ops::Range;
    use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering};
    use std::sync::Mutex;

    /// Checks before a thread waits: ~0.1–0.2 ms here, longer than the model's serial work
    /// between two products in decode, so that a helper is still awake for the next product. A
    /// wake-up from a real wait costs ~15 µs in the browser, which over a token's ~120 products
    /// cost a third of the second thread's gain (measured: 2 threads at 44 tok/s with a 4 000
    /// spin, 63 with this one, against 40 on one); four threads on two cores, spinning in turn,
    /// still run at one thread's speed. Natively each check pauses (x86's PAUSE, ~40 ns): fewer.
    const SPIN: u32 = if cfg!(target_arch = "wasm32") { 200_000 } else { 2_000 };

    /// The job being run: the closure (its lifetime erased: the caller waits for every helper
    /// before it returns), the rows and their split.
    #[derive(Clone, Copy)]
    struct Job {
        f: *const (dyn Fn(Range<usize>) + Sync + 'static),
        n: usize,
        align: usize,
        chunks: usize,
        generation: u32,
    }

    struct Slot(UnsafeCell<Option<Job>>);

    /// A counter on a cache line of its own: each thread bumps its own after every job, and two
    /// on one line would make the threads take the line from each other every job.
    #[repr(align(64))]
    struct Own(AtomicUsize);
    // SAFETY: written by the leader only while no helper reads it (before the generation is
    // published, after every helper has reported done), read by helpers after an Acquire load of
    // the generation that published it.
    unsafe impl Sync for Slot {}

    struct Pool {
        /// Helpers serving jobs; they all take part in each job (those without a range report
        /// done at once).
        helpers: AtomicUsize,
        /// An upper bound on the threads a product uses (natively, for the tests).
        limit: AtomicUsize,
        /// Bumped for each job: helpers wait on it.
        generation: AtomicU32,
        /// Helpers that have not yet finished the current job: the leader waits on it.
        pending: AtomicU32,
        crashed: AtomicU32,
        /// Helpers in a real wait on `generation`: the leader wakes them only then.
        sleepers: AtomicU32,
        /// 1 while the leader is in a real wait on `pending`: the last helper wakes it only then.
        leader_asleep: AtomicU32,
        job: Slot,
        rows: [Own; MAX_THREADS],
        /// The generation each helper joined at: the jobs it owes a share of are the later ones,
        /// even those published before its thread first reaches [`serve`].
        joined: [AtomicU32; MAX_THREADS],
        /// One leader at a time; a second caller (another test thread) runs inline.
        leader: Mutex<()>,
    }

    static POOL: Pool = Pool {
        helpers: AtomicUsize::new(0),
        limit: AtomicUsize::new(MAX_THREADS),
        generation: AtomicU32::new(0),
        pending: AtomicU32::new(0),
        crashed: AtomicU32::new(0),
        sleepers: AtomicU32::new(0),
        leader_asleep: AtomicU32::new(0),
        job: Slot(UnsafeCell::new(None)),
        rows: [const { Own(AtomicUsize::new(0)) }; MAX_THREADS],
        joined: [const { AtomicU32::new(0) }; MAX_THREADS],
        leader: Mutex::new(()),
    };

    pub fn threads() -> usize {
        (1 + POOL.helpers.load(Ordering::Acquire)).min(POOL.limit.load(Ordering::Relaxed))
    }

    /// Caps the threads a product uses (at least 1); the helpers beyond it stay idle.
    pub fn set_limit(threads: usize) {
        POOL.limit.store(threads.clamp(1, MAX_THREADS), Ordering::Relaxed);
    }

    pub fn rows_done() -> Vec<usize> {
        let n = 1 + POOL.helpers.load(Ordering::Acquire);
        POOL.rows[..n].iter().map(|r| r.0.load(Ordering::Relaxed)).collect()
    }

    /// Whether a helper has died: the pool is then unusable and its caller fails.
    pub fn crashed() -> bool {
        POOL.crashed.load(Ordering::Acquire) != 0
    }

    /// A helper that died says so (the browser's pool worker, catching its instance's trap): a
    /// caller waiting for it fails instead of waiting forever.
    pub fn report_crash() {
        POOL.crashed.store(1, Ordering::SeqCst);
        // A leader that checked `crashed` just before this would otherwise sleep on a `pending`
        // that nobody will ever count down: changing it ends any wait on it, and the leader then
        // finds the crash.
        POOL.pending.store(0, Ordering::SeqCst);
        wake(&POOL.pending);
    }

    /// Takes a helper into the pool; its index (1, 2, …) is what it passes to [`serve`].
    /// Registration waits for the running product to end, so a job's helper count never changes.
    pub fn register() -> usize {
        let _between_jobs = POOL.leader.lock().unwrap_or_else(|e| e.into_inner());
        let index = POOL.helpers.load(Ordering::Relaxed) + 1;
        assert!(index < MAX_THREADS, "at most {MAX_THREADS} threads");
        let now = POOL.generation.load(Ordering::Acquire);
        POOL.joined[index].store(now, Ordering::Relaxed);
        POOL.helpers.store(index, Ordering::Release);
        index
    }

    /// A helper's life: each job's range `index` (if the job has one), then the next job.
    pub fn serve(index: usize) -> ! {
        // Not the generation now: a job published between `register` and this call already
        // counts this helper in `pending`, and reading it as seen would leave its leader waiting.
        let mut seen = POOL.joined[index].load(Ordering::Relaxed);
        loop {
            let now = next_generation(seen);
            // SAFETY: published by the Acquire load of `generation` in `next_generation`; the leader
            // does not replace it until this helper has decremented `pending`.
            let job = unsafe { (*POOL.job.0.get()).expect("a job is published before its generation") };
            assert_eq!(job.generation, now);
            seen = now;
            if index < job.chunks {
                let range = chunk(job.n, job.align, job.chunks, index);
                POOL.rows[index].0.fetch_add(range.len(), Ordering::Relaxed);
                // SAFETY: the leader keeps the closure alive until `pending` reaches 0.
                run_helper_share(unsafe { &*job.f }, range);
            }
            // SeqCst here and in `wait_for_helpers`: either the leader sees `pending` at 0 or
            // this sees it asleep (and then wakes it).
            if POOL.pending.fetch_sub(1, Ordering::SeqCst) == 1 && POOL.leader_asleep.load(Ordering::SeqCst) != 0 {
                wake(&POOL.pending);
            }
        }
    }

    /// Natively a helper's panic is caught and reported; in wasm a panic aborts the helper's
    /// instance, and its worker reports it ([`report_crash`]).
    fn run_helper_share(f: &(dyn Fn(Range<usize>) + Sync), range: Range<usize>) {
        #[cfg(not(target_arch = "wasm32"))]
        if std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(range))).is_err() {
            POOL.crashed.store(1, Ordering::Release);
        }
        #[cfg(target_arch = "wasm32")]
        f(range);
    }

    pub fn for_rows(n: usize, align: usize, f: &(dyn Fn(Range<usize>) + Sync)) {
        let align = align.max(1);
        let chunks = chunks_for(n, align, threads());
        let lock = match chunks {
            1 => None,
            _ => POOL.leader.try_lock().ok(),
        };
        let Some(_leading) = lock else {
            POOL.rows[0].0.fetch_add(n, Ordering::Relaxed);
            return f(0..n);
        };
        assert!(!crashed(), "a thread of the model's pool has crashed");
        let helpers = POOL.helpers.load(Ordering::Acquire);
        let generation = POOL.generation.load(Ordering::Relaxed).wrapping_add(1);
        // SAFETY: the closure outlives the job: this function waits for every helper (or fails)
        // before it returns, and the slot is cleared below.
        let f_static: &'static (dyn Fn(Range<usize>) + Sync) = unsafe { std::mem::transmute(f) };
        // SAFETY: no helper reads the slot between jobs (see `Slot`).
        unsafe {
            *POOL.job.0.get() = Some(Job {
                f: f_static,
                n,
                align,
                chunks,
                generation,
            });
        }
        POOL.pending.store(helpers as u32, Ordering::Relaxed);
        // SeqCst here and in `wait_while`: either a helper sees the new generation before it
        // sleeps or this sees it counted as asleep (and wakes it).
        POOL.generation.store(generation, Ordering::SeqCst);
        if POOL.sleepers.load(Ordering::SeqCst) != 0 {
            wake(&POOL.generation);
        }
        let first = chunk(n, align, chunks, 0);
        POOL.rows[0].0.fetch_add(first.len(), Ordering::Relaxed);
        f(first);
        wait_for_helpers();
        // SAFETY: every helper is done with the job.
        unsafe {
            *POOL.job.0.get() = None;
        }
        assert!(!crashed(), "a thread of the model's pool has crashed");
    }

    fn wait_for_helpers() {
        for _ in 0..SPIN {
            if POOL.pending.load(Ordering::Acquire) == 0 {
                return;
            }
            std::hint::spin_loop();
        }
        loop {
            POOL.leader_asleep.store(1, Ordering::SeqCst);
            let pending = POOL.pending.load(Ordering::SeqCst);
            if pending == 0 || crashed() {
                POOL.leader_asleep.store(0, Ordering::SeqCst);
                assert!(!crashed(), "a thread of the model's pool has crashed");
                return;
            }
            wait(&POOL.pending, pending);
            POOL.leader_asleep.store(0, Ordering::SeqCst);
        }
    }

    /// Waits until the generation is no longer `value` (a short spin, then a real wait, counted
    /// in `sleepers`); the new one.
    fn next_generation(value: u32) -> u32 {
        let word = &POOL.generation;
        for _ in 0..SPIN {
            let now = word.load(Ordering::Acquire);
            if now != value {
                return now;
            }
            std::hint::spin_loop();
        }
        loop {
            POOL.sleepers.fetch_add(1, Ordering::SeqCst);
            let now = word.load(Ordering::SeqCst);
            if now == value {
                wait(word, value);
            }
            POOL.sleepers.fetch_sub(1, Ordering::SeqCst);
            let now = word.load(Ordering::Acquire);
            if now != value {
                return now;
            }
        }
    }

    #[cfg(not(target_arch = "wasm32"))]
    fn wait(word: &AtomicU32, value: u32) {
        atomic_wait::wait(word, value);
    }

    #[cfg(not(target_arch = "wasm32"))]
    fn wake(word: &AtomicU32) {
        atomic_wait::wake_all(word);
    }

    #[cfg(target_arch = "wasm32")]
    fn wait(word: &AtomicU32, value: u32) {
        // SAFETY: the address is a live, aligned u32 in the shared memory; wait32 only reads it.
        unsafe {
            core::arch::wasm32::memory_atomic_wait32(word.as_ptr() as *mut i32, value as i32, -1);
        }
    }

    #[cfg(target_arch = "wasm32")]
    fn wake(word: &AtomicU32) {
        // SAFETY: as in `wait`; notify wakes the waiters on the address, it writes nothing.
        unsafe {
            core::arch::wasm32::memory_atomic_notify(word.as_ptr() as *mut i32, u32::MAX);
        }
    }

    /// Starts helpers natively until `threads` threads (the caller included) can run a product.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn start(threads: usize) {
        static STARTED: Mutex<usize> = Mutex::new(1);
        let mut started = STARTED.lock().unwrap_or_else(|e| e.into_inner());
        while *started < threads.min(MAX_THREADS) {
            let index = register();
            std::thread::Builder::new()
                .name(format!("pool-{index}"))
                .spawn(move || serve(index))
                .expect("a pool thread starts");
            *started += 1;
        }
    }
}

/// The single-threaded wasm build: every range runs inline.
#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
mod imp {
    use std::ops::Range;

    pub fn threads() -> usize {
        1
    }

    pub fn for_rows(n: usize, _align: usize, f: &(dyn Fn(Range<usize>) + Sync)) {
        f(0..n)
    }

    pub fn rows_done() -> Vec<usize> {
        Vec::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ranges_cover_every_row_once_at_multiples_of_the_alignment() {
        for (n, align) in [(1, 1), (7, 1), (1003, 8), (49152, 8), (960, 4), (5, 8)] {
            for threads in 1..=9 {
                let chunks = chunks_for(n, align, threads);
                let ranges: Vec<_> = (0..chunks).map(|i| chunk(n, align, chunks, i)).collect();
                assert_eq!(ranges.first().unwrap().start, 0);
                assert_eq!(ranges.last().unwrap().end, n);
                for pair in ranges.windows(2) {
                    assert_eq!(pair[0].end, pair[1].start);
                    assert_eq!(pair[1].start % align, 0);
                }
                assert!(
                    ranges.iter().all(|r| !r.is_empty()),
                    "{n} rows, {threads} threads: {ranges:?}"
                );
            }
        }
    }
}
