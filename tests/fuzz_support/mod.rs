//! What the fuzz tests share: how many cases to run and a seeded runner.

use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

/// `RENSA_FUZZ_CASES`, or `default` (the small size of a plain `cargo test`).
pub fn cases(default: u32) -> u32 {
    std::env::var("RENSA_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// A runner seeded from `RENSA_FUZZ_SEED` (default 0), so a plain `cargo test` always runs
/// the same cases and a campaign can pick others.
pub fn runner(n: u32) -> TestRunner {
    let seed: u64 = std::env::var("RENSA_FUZZ_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    let config = Config {
        cases: n,
        failure_persistence: None,
        max_shrink_iters: 2000,
        ..Config::default()
    };
    TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &bytes))
}
