//! Time budget for one move: a pure function of the limits, so it is tested without a clock.

/// How long one search may take, in milliseconds from its start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Do not start another iteration after this.
    pub soft_ms: u64,
    /// Abort the search at this point, whatever its state.
    pub hard_ms: u64,
}

/// `time_left` values at or above this mean "no match limit" (Gomocup sends 2147483647).
pub const UNLIMITED_LEFT: i64 = 2_147_483_647;

/// What the protocol has told us about time.
#[derive(Clone, Copy, Debug)]
pub struct Clock {
    /// `timeout_turn`, ms (0 = move at once).
    pub turn_ms: u64,
    /// `timeout_match`, ms (0 = no limit).
    pub match_ms: u64,
    /// `time_left`, ms, when the match is limited.
    pub left_ms: Option<i64>,
}

/// Safety margin kept below a per-move limit: pipes, process scheduling, a loaded machine.
fn margin(limit_ms: u64) -> u64 {
    (limit_ms / 10).clamp(30, 250)
}

/// The budget for a move when `empties` cells are still empty.
pub fn budget(clock: &Clock, empties: usize) -> Budget {
    if clock.turn_ms == 0 {
        return Budget {
            soft_ms: 0,
            hard_ms: 10,
        };
    }
    let mut hard = clock.turn_ms.saturating_sub(margin(clock.turn_ms));
    // An iteration begun late still pays: it searches the previous best move first, and a
    // better move found before the hard limit is kept (75% beat 55%: +21 +/- 48 Elo).
    let mut soft = hard * 75 / 100;
    let left = match clock.left_ms {
        Some(l) if clock.match_ms > 0 && l < UNLIMITED_LEFT => Some(l.max(0) as u64),
        Some(l) if clock.match_ms == 0 && l < UNLIMITED_LEFT && l > 0 => Some(l as u64),
        _ => None,
    };
    if let Some(left) = left {
        // Expect the game to need about a third of the remaining cells per side, but spread
        // over no more than 25 and no fewer than 8 moves.
        let moves_left = (empties as u64 / 3).clamp(8, 25);
        let usable = left.saturating_sub(margin(left.min(clock.turn_ms)));
        let share = usable / moves_left;
        soft = soft.min(share);
        hard = hard.min(usable / 4).min(share * 3).max(soft);
    }
    let hard = hard.max(5);
    Budget {
        soft_ms: soft.min(hard),
        hard_ms: hard,
    }
}

/// How much of the soft limit to use, in percent, from how settled the search is: more when
/// the best move has just changed or the score fell, less when the move has held for several
/// iterations.
pub fn soft_scale_percent(stable_iterations: u32, score_drop: i32) -> u64 {
    let mut p = match stable_iterations {
        0 => 140,
        1..=3 => 100,
        _ => 70,
    };
    if score_drop > 80 {
        p += 30;
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turn_only() {
        let b = budget(
            &Clock {
                turn_ms: 100,
                match_ms: 0,
                left_ms: Some(UNLIMITED_LEFT),
            },
            200,
        );
        assert_eq!(b.hard_ms, 70);
        assert!(b.soft_ms < b.hard_ms);
        let b = budget(
            &Clock {
                turn_ms: 5000,
                match_ms: 0,
                left_ms: None,
            },
            200,
        );
        assert_eq!(b.hard_ms, 4750);
    }

    #[test]
    fn match_time_is_shared() {
        let b = budget(
            &Clock {
                turn_ms: 30_000,
                match_ms: 180_000,
                left_ms: Some(60_000),
            },
            300,
        );
        assert!(b.soft_ms <= 60_000 / 25);
        assert!(b.hard_ms <= 15_000);
        assert!(b.hard_ms >= b.soft_ms);
    }

    #[test]
    fn negative_time_left_moves_fast() {
        let b = budget(
            &Clock {
                turn_ms: 5000,
                match_ms: 120_000,
                left_ms: Some(-300),
            },
            100,
        );
        assert!(b.hard_ms <= 10);
    }

    #[test]
    fn unsettled_searches_get_more_time() {
        assert!(soft_scale_percent(0, 0) > soft_scale_percent(2, 0));
        assert!(soft_scale_percent(6, 0) < 100);
        assert!(soft_scale_percent(2, 200) > soft_scale_percent(2, 0));
    }

    #[test]
    fn zero_turn_means_at_once() {
        let b = budget(
            &Clock {
                turn_ms: 0,
                match_ms: 0,
                left_ms: None,
            },
            100,
        );
        assert!(b.hard_ms <= 10);
    }
}
