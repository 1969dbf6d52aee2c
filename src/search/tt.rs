//! Transposition table: 16-byte entries in 64-byte buckets of four, depth-preferred with
//! aging. Mate scores are stored relative to the node and re-rooted on probe. Shared by the
//! search threads without locks: each entry is two atomic words, the first stored as
//! `key ^ data`, so an entry torn by two threads writing at once fails its key check instead
//! of giving one position another's data.

use super::{Depth, ONE_PLY};
use crate::board::Pos;
use crate::eval::{Score, WIN_MIN};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    Exact = 1,
    Lower = 2,
    Upper = 3,
}

/// One entry as two words: `[key ^ data, data]`, data =
/// `mv:16 | score:16 | eval:16 | depth:8 | meta:8`, meta = generation << 3 | pv << 2 |
/// bound (pv: the node is or was on a principal variation, Stockfish's `ttPv`). The
/// depth is kept in half plies, so that a node searched at a fractional depth is found
/// again at that depth (whole plies would round it down, and a probe at the same depth
/// would miss); it saturates at 63.5 plies, under-claiming deeper results.
type Entry = [AtomicU64; 2];

/// The key and data of an entry, as one consistent pair when the key checks out.
#[inline]
fn load(e: &Entry) -> (u64, u64) {
    let data = e[1].load(Relaxed);
    (e[0].load(Relaxed) ^ data, data)
}

#[derive(Clone, Copy)]
struct Unpacked {
    mv: u16,
    score: i16,
    eval: i16,
    depth: i8,
    meta: u8,
}

fn unpack(w: u64) -> Unpacked {
    Unpacked {
        mv: w as u16,
        score: (w >> 16) as u16 as i16,
        eval: (w >> 32) as u16 as i16,
        depth: (w >> 48) as u8 as i8,
        meta: (w >> 56) as u8,
    }
}

fn pack(u: Unpacked) -> u64 {
    u.mv as u64
        | (u.score as u16 as u64) << 16
        | (u.eval as u16 as u64) << 32
        | (u.depth as u8 as u64) << 48
        | (u.meta as u64) << 56
}

const BUCKET: usize = 4;

/// The unit of a stored depth.
const HALF_PLY: Depth = ONE_PLY / 2;

#[derive(Clone, Copy, Debug)]
pub struct Hit {
    pub mv: Option<Pos>,
    pub score: Score,
    pub eval: Score,
    /// The depth the entry was searched to, in [`Depth`] units (a multiple of half a ply).
    pub depth: Depth,
    pub bound: Bound,
    /// The node is or was on a principal variation.
    pub pv: bool,
}

/// Generations wrap at this (five bits of the entry's meta byte).
const GENERATIONS: u8 = 32;

pub struct TranspositionTable {
    entries: Vec<Entry>,
    mask: usize,
    generation: u8,
}

impl TranspositionTable {
    /// A table of at most `bytes` (rounded down to a power of two, at least 64 KiB).
    pub fn new(bytes: usize) -> TranspositionTable {
        let mut buckets = 1usize << 10;
        while buckets * 2 * BUCKET * 16 <= bytes {
            buckets *= 2;
        }
        // writing every zero maps every page now, not one page fault per new entry in the
        // first searches (at 100 ms a move those faults took a fifth of the time)
        let entries = (0..buckets * BUCKET)
            .map(|_| [AtomicU64::new(0), AtomicU64::new(0)])
            .collect();
        TranspositionTable {
            entries,
            mask: buckets - 1,
            generation: 0,
        }
    }

    pub fn size_bytes(&self) -> usize {
        self.entries.len() * std::mem::size_of::<Entry>()
    }

    pub fn clear(&mut self) {
        for e in &self.entries {
            e[0].store(0, Relaxed);
            e[1].store(0, Relaxed);
        }
        self.generation = 0;
    }

    /// Marks the start of a new search so older entries are replaced first.
    pub fn new_search(&mut self) {
        self.generation = (self.generation + 1) % GENERATIONS;
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        (key as usize & self.mask) * BUCKET
    }

    /// Starts bringing `key`'s bucket into the cache, for a probe that comes later (after
    /// the move is made: its line updates hide the memory's latency).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let p = self.entries[self.bucket(key)..].as_ptr() as *const i8;
            // SAFETY: a prefetch is only a hint: it cannot fault and changes nothing the
            // program can observe; the address is that of a bucket inside `entries`.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(p) }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    pub fn probe(&self, key: u64, ply: usize) -> Option<Hit> {
        let b = self.bucket(key);
        self.entries[b..b + BUCKET]
            .iter()
            .map(load)
            .find(|&(k, d)| k == key && unpack(d).meta & 3 != 0)
            .map(|(_, d)| unpack(d))
            .map(|e| Hit {
                mv: (e.mv != 0).then(|| Pos::from_index(e.mv as usize)),
                score: from_tt(e.score as Score, ply),
                eval: e.eval as Score,
                depth: e.depth as Depth * HALF_PLY,
                bound: match e.meta & 3 {
                    1 => Bound::Exact,
                    2 => Bound::Lower,
                    _ => Bound::Upper,
                },
                pv: e.meta & 4 != 0,
            })
    }

    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &self,
        key: u64,
        ply: usize,
        mv: Option<Pos>,
        score: Score,
        eval: Score,
        depth: Depth,
        bound: Bound,
        pv: bool,
    ) {
        let b = self.bucket(key);
        let gen = self.generation;
        let slot = {
            let bucket = &self.entries[b..b + BUCKET];
            if let Some(i) = bucket.iter().position(|e| load(e).0 == key) {
                i
            } else {
                // replace the shallowest entry, older generations first
                (0..BUCKET)
                    .min_by_key(|&i| {
                        let e = unpack(bucket[i][1].load(Relaxed));
                        let age = gen.wrapping_sub(e.meta >> 3) % GENERATIONS;
                        e.depth as i32 - 16 * age as i32
                    })
                    .unwrap_or(0)
            }
        };
        let e = &self.entries[b + slot];
        let (old_key, old) = load(e);
        // keep the old entry's move when the new one has none
        let mv = match mv {
            Some(p) => p.index() as u16,
            None if old_key == key => unpack(old).mv,
            None => 0,
        };
        let data = pack(Unpacked {
            mv,
            score: to_tt(score, ply) as i16,
            eval: eval.clamp(i16::MIN as Score, i16::MAX as Score) as i16,
            depth: depth.div_euclid(HALF_PLY).clamp(-128, 127) as i8,
            meta: (gen << 3) | (u8::from(pv) << 2) | bound as u8,
        });
        e[0].store(key ^ data, Relaxed);
        e[1].store(data, Relaxed);
    }

    /// Permille of sampled entries written in this search.
    pub fn usage_permille(&self) -> usize {
        let n = self.entries.len().min(4000);
        self.entries[..n]
            .iter()
            .map(|e| unpack(e[1].load(Relaxed)).meta)
            .filter(|&m| m & 3 != 0 && m >> 3 == self.generation)
            .count()
            * 1000
            / n.max(1)
    }
}

fn to_tt(s: Score, ply: usize) -> Score {
    if s >= WIN_MIN {
        s + ply as Score
    } else if s <= -WIN_MIN {
        s - ply as Score
    } else {
        s
    }
}

fn from_tt(s: Score, ply: usize) -> Score {
    if s >= WIN_MIN {
        s - ply as Score
    } else if s <= -WIN_MIN {
        s + ply as Score
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::mate_in;

    #[test]
    fn store_and_probe_rerooted_mates() {
        let tt = TranspositionTable::new(1 << 20);
        let p = Pos::new(3, 4);
        tt.store(
            42,
            5,
            Some(p),
            mate_in(9),
            10,
            6 * ONE_PLY + HALF_PLY,
            Bound::Exact,
            true,
        );
        let hit = tt.probe(42, 3).expect("stored");
        assert_eq!(hit.mv, Some(p));
        assert_eq!(hit.score, mate_in(7));
        assert_eq!(hit.depth, 6 * ONE_PLY + HALF_PLY);
        assert!(hit.pv);
        // a fraction below half a ply is rounded down, never up
        tt.store(
            42,
            5,
            Some(p),
            0,
            10,
            6 * ONE_PLY + HALF_PLY - 1,
            Bound::Exact,
            false,
        );
        let hit2 = tt.probe(42, 3).expect("stored");
        assert_eq!(hit2.depth, 6 * ONE_PLY);
        assert!(!hit2.pv);
        // beyond 63.5 plies the depth saturates; a store without a move keeps the old one
        tt.store(42, 5, None, 0, 10, 90 * ONE_PLY, Bound::Exact, false);
        let hit3 = tt.probe(42, 3).expect("stored");
        assert_eq!((hit3.depth, hit3.mv), (127 * HALF_PLY, Some(p)));
        tt.store(44, 5, None, 0, 10, ONE_PLY, Bound::Upper, false);
        assert_eq!(tt.probe(44, 3).expect("stored").mv, None);
        assert_eq!(hit.bound, Bound::Exact);
        assert!(tt.probe(43, 3).is_none());
        assert!(tt.size_bytes() <= 1 << 20);
    }

    #[test]
    fn threads_writing_at_once_never_read_another_positions_data() {
        // a tiny table, so the threads fight over the same buckets
        let tt = TranspositionTable::new(0);
        let data = |k: u64| ((k % 200) as Score, (k % 97) as Depth * HALF_PLY);
        std::thread::scope(|s| {
            for t in 0..4u64 {
                let tt = &tt;
                s.spawn(move || {
                    let mut k = t.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
                    for _ in 0..200_000 {
                        k ^= k << 13;
                        k ^= k >> 7;
                        k ^= k << 17;
                        let (score, depth) = data(k);
                        tt.store(
                            k,
                            0,
                            Some(Pos::new(1, 2)),
                            score,
                            score,
                            depth,
                            Bound::Lower,
                            k & 1 == 0,
                        );
                        let probe = k.rotate_left(7);
                        if let Some(hit) = tt.probe(probe, 0) {
                            assert_eq!((hit.score, hit.depth), data(probe));
                        }
                        if let Some(hit) = tt.probe(k, 0) {
                            assert_eq!((hit.score, hit.depth), data(k));
                        }
                    }
                });
            }
        });
    }
}
