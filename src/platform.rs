//! What the operating system is asked directly: how many CPUs this process may run on, and
//! handing freed memory back. Each call has a plain fallback, so every target builds and
//! behaves sensibly; the calls themselves are the few where the standard library falls short.

/// Names the CPU count to assume in place of the system's (a machine that reports wrongly,
/// and tests of many threads on a small machine).
pub const CPUS_VAR: &str = "RENSA_CPUS";

/// The logical CPUs this process may run on (at least 1), or [`CPUS_VAR`] where set.
///
/// On Linux the standard library already reads the affinity mask (`taskset`, cgroups). On
/// Windows it counts every CPU of the machine, while Gomocup starts each engine with
/// `start /affinity 1`: there the process affinity mask is read.
pub fn cpus() -> usize {
    if let Some(n) = std::env::var(CPUS_VAR)
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
    {
        return n.max(1);
    }
    let machine = std::thread::available_parallelism().map_or(1, |n| n.get());
    #[cfg(windows)]
    {
        if let Some(n) = windows::affinity_cpus() {
            return n.clamp(1, machine.max(1));
        }
    }
    machine
}

/// Asks the C allocator to hand memory that was freed back to the system now. glibc keeps
/// freed blocks of its heaps (one heap per thread that allocated) for reuse, resident, so a
/// search thread's tables would still count after the thread is gone; elsewhere large blocks
/// are returned when freed and this does nothing.
pub fn release_free_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    glibc::trim();
}

/// Makes the C allocator map large blocks (transposition tables, a thread's tables) on their
/// own, so that freeing one returns it to the system at once. glibc otherwise raises its
/// threshold for that to the size of the last large block freed, and serves the next ones
/// from a heap it keeps. Called once, before the engine allocates its tables.
pub fn tune_allocator() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        static ONCE: std::sync::Once = std::sync::Once::new();
        ONCE.call_once(glibc::map_large_blocks);
    }
}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
mod glibc {
    use std::os::raw::c_int;

    /// `M_MMAP_THRESHOLD` of glibc's `malloc.h`.
    const M_MMAP_THRESHOLD: c_int = -3;
    /// Blocks of this size and more are mapped on their own.
    const LARGE_BLOCK: c_int = 256 << 10;

    extern "C" {
        fn malloc_trim(pad: usize) -> c_int;
        fn mallopt(param: c_int, value: c_int) -> c_int;
    }

    pub(super) fn trim() {
        // SAFETY: glibc's malloc_trim only releases free memory; any thread may call it.
        unsafe {
            malloc_trim(0);
        }
    }

    pub(super) fn map_large_blocks() {
        // SAFETY: mallopt sets an allocator parameter under the allocator's own lock.
        unsafe {
            mallopt(M_MMAP_THRESHOLD, LARGE_BLOCK);
        }
    }
}

#[cfg(windows)]
mod windows {
    use std::ffi::c_void;

    #[link(name = "kernel32")]
    extern "system" {
        fn GetCurrentProcess() -> *mut c_void;
        fn GetProcessAffinityMask(
            process: *mut c_void,
            process_mask: *mut usize,
            system_mask: *mut usize,
        ) -> i32;
    }

    /// The CPUs in the process affinity mask (of its processor group).
    pub(super) fn affinity_cpus() -> Option<usize> {
        let (mut process, mut system) = (0usize, 0usize);
        // SAFETY: the pseudo handle of the current process needs no closing; both masks are
        // valid out-pointers.
        let ok = unsafe { GetProcessAffinityMask(GetCurrentProcess(), &mut process, &mut system) };
        (ok != 0 && process != 0).then(|| process.count_ones() as usize)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn there_is_always_a_cpu() {
        let n = super::cpus();
        assert!(n >= 1);
        if std::env::var_os(super::CPUS_VAR).is_none() {
            assert!(n <= std::thread::available_parallelism().map_or(1, |n| n.get()));
        }
        // both calls are harmless to repeat
        super::tune_allocator();
        super::tune_allocator();
        super::release_free_memory();
    }
}
