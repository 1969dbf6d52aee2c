//! Regression tests for what the fuzzer (`tests/fuzz.rs`) and the soak (`scripts/soak.py`)
//! found, one test per bug.

use rensa::search::time::{budget, Clock};

/// The engine API takes any `u64` turn time: the soft limit (85 % of the hard one) overflowed
/// for turns above about 2^64 / 85 ms and panicked in debug builds.
#[test]
fn a_huge_turn_time_gives_a_budget_not_an_overflow() {
    for turn_ms in [u64::MAX, u64::MAX / 85 + 1, 1 << 60] {
        let b = budget(
            &Clock {
                turn_ms,
                match_ms: 0,
                left_ms: None,
            },
            200,
        );
        assert!(b.soft_ms <= b.hard_ms && b.hard_ms <= turn_ms, "{b:?}");
        assert!(b.soft_ms >= b.hard_ms / 100 * 84, "{b:?}");
    }
}
