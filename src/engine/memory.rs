//! How the engine spends a memory limit: what the process needs in any case, then the search
//! threads that fit, then the transposition table. A pure function of the limit, the thread
//! count asked for and the CPUs, so every case is tested without a process.

use crate::search::{MAX_THREADS, THREAD_BYTES};

/// Memory the process holds outside the table and the helper threads: the binary and its
/// libraries, the pattern tables of every rule (about 2 MiB each) and the networks, the main
/// search thread's tables, boards and stacks, the input queue
/// ([`crate::protocol::MAX_QUEUED`]) and the allocator's own slack.
pub const RESERVED_BYTES: u64 = 24 << 20;
/// Transposition table limit when no memory limit is given.
pub const DEFAULT_TT_BYTES: usize = 64 << 20;
/// The table never grows past this: larger ones only cost clearing time at our speeds.
pub const MAX_TT_BYTES: usize = 256 << 20;
/// The table keeps at least this share (per cent) of what a limit leaves after
/// [`RESERVED_BYTES`]: helper threads come out of the rest. A Lazy SMP helper adds little
/// once the shared table is too small to pass what it finds.
const TT_SHARE_PERCENT: u64 = 25;
/// ...and at least this much.
const TT_FLOOR_BYTES: u64 = 1 << 20;

/// Why fewer threads run than were asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ThreadLimit {
    /// All that were asked for run.
    None,
    /// The process may run on only this many CPUs: more threads would take turns on them,
    /// and the main thread's share of the turn would shrink.
    Cpus(usize),
    /// The memory limit holds no more.
    Memory(u64),
}

/// What a memory limit buys.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    /// Search threads that run (1 or more).
    pub threads: usize,
    /// The most the transposition table may take.
    pub tt_bytes: usize,
    /// Why `threads` is below the count asked for.
    pub limit: ThreadLimit,
}

/// The plan for `limit` bytes (0 = none), a table of `hash` bytes where one was asked for,
/// `asked` threads and `cpus` CPUs. A table asked for never lifts the limit: it is the most
/// the table takes, within it.
pub fn plan(limit: u64, hash: Option<u64>, asked: usize, cpus: usize) -> Plan {
    let asked = asked.clamp(1, MAX_THREADS);
    let by_cpus = asked.min(cpus.max(1));
    let cpu_limit = if by_cpus < asked {
        ThreadLimit::Cpus(cpus.max(1))
    } else {
        ThreadLimit::None
    };
    let wanted_tt = hash.map_or(MAX_TT_BYTES as u64, |h| {
        h.clamp(TT_FLOOR_BYTES, MAX_TT_BYTES as u64)
    });
    if limit == 0 {
        return Plan {
            threads: by_cpus,
            tt_bytes: hash.map_or(DEFAULT_TT_BYTES, |_| wanted_tt as usize),
            limit: cpu_limit,
        };
    }
    let avail = limit.saturating_sub(RESERVED_BYTES);
    let floor = (avail / 100 * TT_SHARE_PERCENT)
        .max(TT_FLOOR_BYTES)
        .min(wanted_tt);
    let helpers_fit = avail.saturating_sub(floor) / THREAD_BYTES;
    let threads = by_cpus.min(1 + helpers_fit as usize);
    let helpers = (threads as u64 - 1) * THREAD_BYTES;
    let tt_bytes = avail.saturating_sub(helpers).min(wanted_tt) as usize;
    Plan {
        threads,
        tt_bytes,
        limit: if threads < by_cpus {
            ThreadLimit::Memory(limit)
        } else {
            cpu_limit
        },
    }
}

impl Plan {
    /// Every byte the plan lets the engine hold.
    pub fn total_bytes(&self) -> u64 {
        RESERVED_BYTES + (self.threads as u64 - 1) * THREAD_BYTES + self.tt_bytes as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MIB: u64 = 1 << 20;

    #[test]
    fn no_limit_runs_what_the_cpus_allow_with_the_default_table() {
        let p = plan(0, None, 4, 16);
        assert_eq!(
            (p.threads, p.tt_bytes, p.limit),
            (4, DEFAULT_TT_BYTES, ThreadLimit::None)
        );
        let p = plan(0, None, 8, 1);
        assert_eq!((p.threads, p.limit), (1, ThreadLimit::Cpus(1)));
        // absurd requests are clamped, never trusted
        assert_eq!(plan(0, None, usize::MAX, 1000).threads, MAX_THREADS);
        let p = plan(u64::MAX, Some(u64::MAX), usize::MAX, usize::MAX);
        assert_eq!((p.threads, p.tt_bytes), (MAX_THREADS, MAX_TT_BYTES));
        assert_eq!(plan(0, None, 0, 0).threads, 1);
    }

    #[test]
    fn the_whole_plan_fits_in_the_limit() {
        for limit_mib in [1, 8, 24, 25, 30, 40, 64, 100, 350, 1024, 1 << 20] {
            for asked in [1, 2, 3, 4, 8, 16, 64] {
                for cpus in [1, 2, 16, 64] {
                    let limit = limit_mib * MIB;
                    let p = plan(limit, None, asked, cpus);
                    assert!(p.threads >= 1 && p.threads <= asked.min(cpus), "{p:?}");
                    if limit >= RESERVED_BYTES + TT_FLOOR_BYTES {
                        assert!(
                            p.total_bytes() <= limit,
                            "{limit_mib} MiB {asked} {cpus}: {p:?}"
                        );
                        assert!(p.tt_bytes as u64 >= TT_FLOOR_BYTES.min(MAX_TT_BYTES as u64));
                    }
                }
            }
        }
    }

    #[test]
    fn threads_that_do_not_fit_are_named() {
        // issue 68: 64 threads asked for at 40 MiB on a large machine
        let p = plan(40 * MIB, None, 64, 64);
        assert_eq!(p.limit, ThreadLimit::Memory(40 * MIB));
        assert!(p.threads < 64);
        assert!(p.total_bytes() <= 40 * MIB);
        // Gomocup's 350 MiB holds 16 threads and a large table
        let p = plan(350 * MIB, None, 16, 16);
        assert_eq!((p.threads, p.limit), (16, ThreadLimit::None));
        assert!(p.tt_bytes as u64 >= 200 * MIB, "{p:?}");
        // a pinned core: one thread, whatever the memory
        assert_eq!(plan(350 * MIB, None, 8, 1).limit, ThreadLimit::Cpus(1));
    }

    #[test]
    fn the_table_keeps_its_share() {
        let p = plan(64 * MIB, None, 64, 64);
        let avail = 64 * MIB - RESERVED_BYTES;
        assert!(p.tt_bytes as u64 >= avail / 4, "{p:?}");
        // one thread takes the whole rest, up to the cap
        assert_eq!(plan(64 * MIB, None, 1, 1).tt_bytes as u64, avail);
        assert_eq!(plan(4096 * MIB, None, 1, 1).tt_bytes, MAX_TT_BYTES);
    }

    #[test]
    fn a_table_asked_for_is_the_most_it_takes_and_never_lifts_the_limit() {
        // Yixin-Board's hash_size alone: that table, threads as the CPUs allow
        let p = plan(0, Some(16 * MIB), 4, 4);
        assert_eq!((p.threads, p.tt_bytes as u64), (4, 16 * MIB));
        // within a limit: no larger than asked, and the room left goes to threads
        let p = plan(64 * MIB, Some(4 * MIB), 64, 64);
        assert_eq!(p.tt_bytes as u64, 4 * MIB);
        assert!(p.threads > plan(64 * MIB, None, 64, 64).threads, "{p:?}");
        assert!(p.total_bytes() <= 64 * MIB);
        // a table larger than the limit holds is cut to fit
        let p = plan(40 * MIB, Some(1 << 40), 1, 1);
        assert!(p.total_bytes() <= 40 * MIB, "{p:?}");
    }
}
