//! The solver's transposition table: 16-byte entries in 4-way buckets of one cache line.
//!
//! An entry keeps the whole key (at most [`KEY_BITS`] bits), so a hit is never a different
//! position and the solver stays exact; the bucket is chosen by a hash of the key.

/// Key bits an entry holds: 128 less the 18 bits of what is known.
pub const KEY_BITS: u32 = 110;

/// What an entry says of a position's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    /// The value is at least this.
    Lower,
    /// The value is at most this.
    Upper,
}

/// A table hit.
#[derive(Clone, Copy, Debug)]
pub struct Hit {
    pub value: i8,
    pub bound: Bound,
    /// The move that was best or refuted, in the canonical orientation.
    pub best: Option<u8>,
}

/// Key bits 0..64 in `lo`; bits 64..110 in the low 46 bits of `hi`, and above them the
/// meta bits: value + 1 (2 bits), bound (2 bits, 0 for an empty entry), empty cells
/// (7 bits), best move + 1 (7 bits).
#[derive(Clone, Copy, Default)]
struct Entry {
    lo: u64,
    hi: u64,
}

const META: u32 = KEY_BITS - 64;

impl Entry {
    fn key(&self) -> u128 {
        (self.hi & ((1 << META) - 1)) as u128 * (1u128 << 64) + self.lo as u128
    }
    fn meta(&self) -> u64 {
        self.hi >> META
    }
    fn bound(&self) -> u64 {
        self.meta() >> 2 & 3
    }
    fn empties(&self) -> u64 {
        self.meta() >> 4 & 127
    }
}

#[derive(Clone, Copy, Default)]
#[repr(align(64))]
struct Bucket([Entry; 4]);

pub struct Table {
    buckets: Vec<Bucket>,
}

impl Table {
    /// A table of 2^`bits` entries (at least one bucket).
    pub fn new(bits: u32) -> Table {
        Table {
            buckets: vec![Bucket::default(); 1 << bits.saturating_sub(2)],
        }
    }

    fn bucket(&self, key: u128) -> usize {
        let (lo, hi) = (key as u64, (key >> 64) as u64);
        let mut h = lo.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ hi.wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
        h ^= h >> 29;
        h = h.wrapping_mul(0xD6E8_FEB8_6659_FD93);
        (h >> 32) as usize & (self.buckets.len() - 1)
    }

    pub fn probe(&self, key: u128) -> Option<Hit> {
        debug_assert!(key >> KEY_BITS == 0);
        let e = self.buckets[self.bucket(key)]
            .0
            .iter()
            .find(|e| e.bound() != 0 && e.key() == key)?;
        let m = e.meta();
        Some(Hit {
            value: (m & 3) as i8 - 1,
            bound: match m >> 2 & 3 {
                1 => Bound::Exact,
                2 => Bound::Lower,
                _ => Bound::Upper,
            },
            best: (m >> 11 & 127).checked_sub(1).map(|c| c as u8),
        })
    }

    /// Stores over the same key, else over an empty entry, else over the entry nearest the
    /// leaves (fewest empty cells: the cheapest to search again).
    pub fn store(&mut self, key: u128, value: i8, bound: Bound, empties: u32, best: Option<u8>) {
        debug_assert!(key >> KEY_BITS == 0);
        let b = self.bucket(key);
        let bucket = &mut self.buckets[b].0;
        let slot = bucket
            .iter()
            .position(|e| e.bound() != 0 && e.key() == key)
            .unwrap_or_else(|| {
                (0..4)
                    .min_by_key(|&i| (bucket[i].bound() != 0, bucket[i].empties()))
                    .expect("four entries")
            });
        let bound = match bound {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        let meta = (value + 1) as u64
            | bound << 2
            | (empties.min(127) as u64) << 4
            | best.map_or(0, |c| c as u64 + 1) << 11;
        bucket[slot] = Entry {
            lo: key as u64,
            hi: (key >> 64) as u64 | meta << META,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_keep_whole_keys_and_what_is_known() {
        // a one-bucket table: every key collides, yet each is told apart by its whole key
        let mut t = Table::new(2);
        let max = (1u128 << KEY_BITS) - 1;
        let keys = [0u128, 1, 1 << 64, max, max - (1 << 64)];
        for (i, &k) in keys.iter().take(4).enumerate() {
            t.store(
                k,
                i as i8 % 3 - 1,
                Bound::Lower,
                10 + i as u32,
                Some(63 - i as u8),
            );
        }
        for (i, &k) in keys.iter().take(4).enumerate() {
            let h = t.probe(k).expect("stored");
            assert_eq!((h.value, h.bound), (i as i8 % 3 - 1, Bound::Lower));
            assert_eq!(h.best, Some(63 - i as u8));
        }
        assert!(
            t.probe(keys[4]).is_none(),
            "a key that differs only above bit 64"
        );
        // a fifth key replaces the entry nearest the leaves (fewest empty cells: key 0)
        t.store(keys[4], 0, Bound::Exact, 64, None);
        assert!(t.probe(0).is_none());
        let h = t.probe(keys[4]).unwrap();
        assert_eq!((h.value, h.bound, h.best), (0, Bound::Exact, None));
        // the same key is overwritten in place
        t.store(max, 1, Bound::Upper, 11, Some(0));
        let h = t.probe(max).unwrap();
        assert_eq!((h.value, h.bound, h.best), (1, Bound::Upper, Some(0)));
        assert!(t.probe(1).is_some() && t.probe(1 << 64).is_some());
    }
}
