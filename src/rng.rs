//! The one seeded generator (splitmix64): the board's hash keys, `play`'s variety, the
//! openings of `selfplay`, and the sessions and positions of the tests written since (the
//! network's and the solver's tests keep their own xorshift, so that their positions stay the
//! same). The same seed gives the same
//! numbers on every machine.

/// splitmix64 (Steele, Lea and Flood): tiny, fast, and good enough for hash keys and
/// game choices.
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (0 when `n` is 0), by the remainder: the small bias is no matter
    /// for the uses here, and keeps old seeds' sequences.
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            0
        } else {
            self.next_u64() % n
        }
    }
}

#[cfg(test)]
mod tests {
    use super::SplitMix64;

    #[test]
    fn a_seed_gives_its_sequence() {
        // the reference values of splitmix64 from seed 0
        let mut r = SplitMix64::new(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        let a: Vec<u64> = {
            let mut r = SplitMix64::new(7);
            (0..3).map(|_| r.next_u64()).collect()
        };
        let mut r = SplitMix64::new(7);
        assert_eq!(a, (0..3).map(|_| r.next_u64()).collect::<Vec<_>>());
        assert_ne!(a[0], SplitMix64::new(8).next_u64());
        assert!((0..100).all(|_| r.below(7) < 7));
        assert_eq!(r.below(0), 0);
    }
}
