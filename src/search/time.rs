//! Time budget for one move: a pure function of the limits, so it is tested without a clock.

/// How long one search may take, in milliseconds from its start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Do not start another iteration after this.
    pub soft_ms: u64,
    /// Abort the search at this point, whatever its state.
    pub hard_ms: u64,
    /// Whether time left unspent now can be spent later: the match clock binds, or may come
    /// to (its share a move is under twice the turn's). Under a turn limit alone it cannot.
    pub spare_time_carries: bool,
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
    /// `time_increment` (Yixin-Board): ms added to the match clock after each move.
    pub increment_ms: u64,
}

impl Clock {
    /// The clock `spent_ms` later: what is left of the turn and of the match once handling
    /// the command has taken that long before the search starts. A turn limit stays a limit
    /// (at least 1 ms; 0 would mean "move at once").
    pub fn after(self, spent_ms: u64) -> Clock {
        let turn_ms = match self.turn_ms {
            0 => 0,
            t => t.saturating_sub(spent_ms).max(1),
        };
        let left_ms = self.left_ms.map(|l| {
            if l >= UNLIMITED_LEFT {
                l
            } else {
                l.saturating_sub(spent_ms.min(i64::MAX as u64) as i64)
                    .max(0)
            }
        });
        Clock {
            turn_ms,
            left_ms,
            ..self
        }
    }
}

/// What one move costs beyond its search, at most, as the match clock sees it.
const PER_MOVE_OVERHEAD_MS: u64 = 10;

/// Safety margin kept below a per-move limit: pipes, process scheduling, a loaded machine.
fn margin(limit_ms: u64) -> u64 {
    (limit_ms / 10).clamp(30, 250)
}

/// A game is expected to last this many more moves a side from the empty board...
const MOVES_TO_GO_START: u64 = 22;
/// ...three fewer for every ten a side already played...
const MOVES_TO_GO_SLOPE_TENTHS: u64 = 3;
/// ...but never fewer than this (nor more than the empty cells allow).
const MOVES_TO_GO_MIN: u64 = 10;

/// How many more moves of ours the match clock is shared over, with `stones` on the board
/// and `empties` cells still empty. Games against strong engines are mostly decided by our
/// 30th to 40th move: a plan that shrinks with the game spends the clock there (four fifths
/// to nine tenths of it by move 35, at the soft limit) instead of keeping a quarter for moves that mostly never come,
/// as a flat 25 did (issue 70). The floor keeps a long game's last moves thought about.
pub fn moves_to_go(stones: usize, empties: usize) -> u64 {
    let played = stones as u64 / 2;
    let planned = MOVES_TO_GO_START
        .saturating_sub(played * MOVES_TO_GO_SLOPE_TENTHS / 10)
        .max(MOVES_TO_GO_MIN);
    // we place at most every other empty cell
    planned.min((empties as u64).div_ceil(2)).max(1)
}

/// The budget for a move with `stones` on the board and `empties` cells still empty.
pub fn budget(clock: &Clock, stones: usize, empties: usize) -> Budget {
    if clock.turn_ms == 0 {
        return Budget {
            soft_ms: 0,
            hard_ms: 10,
            spare_time_carries: true,
        };
    }
    let mut hard = clock.turn_ms.saturating_sub(margin(clock.turn_ms));
    // An iteration begun late still pays: it searches the previous best move first, and a
    // better move found before the hard limit is kept (75% beat 55%: +21 +/- 48 Elo; 85%
    // without shrinking a settled search beat 75% with it in three samples, +16, +7 and +19,
    // each +/- 35, once the tree got narrower; 95% against 85%, session 18: -8 [-27, +11],
    // 500 games at 100 ms).
    // (in u128: the API takes any u64, and 85 × a huge turn overflows)
    let mut soft = (u128::from(hard) * 85 / 100) as u64;
    let mut spare_time_carries = false;
    let left = match clock.left_ms {
        Some(l) if clock.match_ms > 0 && l < UNLIMITED_LEFT => Some(l.max(0) as u64),
        Some(l) if clock.match_ms == 0 && l < UNLIMITED_LEFT && l > 0 => Some(l as u64),
        _ => None,
    };
    if let Some(left) = left {
        let moves_left = moves_to_go(stones, empties);
        // Every move costs a few ms beyond the search (pipes, the manager): keep them for
        // each move we may still have to make, so a game played to the last cell ends on
        // the board, not on the clock.
        let reserve = PER_MOVE_OVERHEAD_MS * (empties as u64 / 2);
        let usable = left.saturating_sub(margin(left.min(clock.turn_ms)) + reserve);
        // the increments of the moves still to come are time to spend too
        let share = (usable + clock.increment_ms * (moves_left - 1)) / moves_left;
        spare_time_carries = share < soft.saturating_mul(2);
        soft = soft.min(share);
        hard = hard
            .min(usable / 4)
            .min(share * 3)
            .max(soft.min(usable / 4));
    }
    let hard = hard.max(5);
    Budget {
        soft_ms: soft.min(hard),
        hard_ms: hard,
        spare_time_carries,
    }
}

/// How much of the soft limit to use, in percent, from how settled the search is: more when
/// the best move has just changed or the score fell. A settled search thinks on, under a
/// turn limit and under a game clock alike: it used to stop at 70 % (with the narrower tree,
/// thinking on paid); under a game clock, stopping a settled search at 70 % moved the clock
/// from the opening moves, which decide most games, to the late moves most games never
/// reach (issue 70: 15-25 in self-play at 24 s / 1 s; see docs/strength-log.md).
pub fn soft_scale_percent(stable_iterations: u32, score_drop: i32) -> u64 {
    let mut p = if stable_iterations == 0 { 140 } else { 100 };
    if score_drop > 80 {
        p += 30;
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn after_takes_the_time_spent_off_the_turn_and_the_match() {
        let c = Clock {
            turn_ms: 200,
            match_ms: 60_000,
            left_ms: Some(10_000),
            increment_ms: 50,
        };
        let d = c.after(70);
        assert_eq!((d.turn_ms, d.left_ms), (130, Some(9_930)));
        assert_eq!((d.match_ms, d.increment_ms), (60_000, 50));
        // a turn used up stays a (1 ms) limit, never "move at once" (0) or a wrap
        assert_eq!(c.after(500).turn_ms, 1);
        assert_eq!(c.after(u64::MAX).left_ms, Some(0));
        assert_eq!(budget(&c.after(500), 10, 100).hard_ms, 5);
        // no limit stays no limit
        let free = Clock {
            turn_ms: 0,
            left_ms: Some(UNLIMITED_LEFT),
            ..c
        };
        assert_eq!(free.after(70).turn_ms, 0);
        assert_eq!(free.after(70).left_ms, Some(UNLIMITED_LEFT));
        // the hard limit of a 200 ms turn with 70 ms gone ends the move where a fresh
        // one would have ended it
        let fresh = budget(&Clock { left_ms: None, ..c }, 10, 100).hard_ms;
        let late = budget(&Clock { left_ms: None, ..c }.after(70), 10, 100).hard_ms;
        assert_eq!(70 + late, fresh);
    }

    #[test]
    fn turn_only() {
        let b = budget(
            &Clock {
                turn_ms: 100,
                match_ms: 0,
                left_ms: Some(UNLIMITED_LEFT),
                increment_ms: 0,
            },
            10,
            200,
        );
        assert_eq!(b.hard_ms, 70);
        assert!(b.soft_ms < b.hard_ms);
        let b = budget(
            &Clock {
                turn_ms: 5000,
                match_ms: 0,
                left_ms: None,
                increment_ms: 0,
            },
            10,
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
                increment_ms: 0,
            },
            10,
            300,
        );
        assert!(b.soft_ms <= 60_000 / moves_to_go(10, 300));
        assert!(b.hard_ms <= 15_000);
        assert!(b.hard_ms >= b.soft_ms);
    }

    /// Plays a whole game against the clock: every move takes the most the search would
    /// use (the soft limit stretched by 170%, the most the stability scaling gives, capped
    /// by the hard limit), two stones a turn until the board is full. Returns the times.
    fn whole_game(turn_ms: u64, match_ms: u64, cells: usize) -> Vec<u64> {
        let mut left = match_ms as i64;
        let mut used = Vec::new();
        let mut empties = cells - 4;
        while empties >= 2 {
            let clock = Clock {
                turn_ms,
                match_ms,
                left_ms: Some(left),
                increment_ms: 0,
            };
            let b = budget(&clock, cells - empties, empties);
            let t = (b.soft_ms * 170 / 100).min(b.hard_ms);
            assert!(t <= turn_ms, "{t} ms over the {turn_ms} ms turn");
            left -= t as i64 + 5; // a few ms of pipes and process switches on top
            assert!(left > 0, "out of time after {} moves: {used:?}", used.len());
            used.push(t);
            empties -= 2;
        }
        used
    }

    #[test]
    fn gomocup_controls_last_a_whole_game() {
        // Gomocup's controls: 5 s a turn with 120 s (and 100 s) a game, 30 s with 180 s,
        // 300 s with 1000 s; on 15x15 and 20x20 boards played to the last cell.
        for (turn, total) in [
            (5_000, 120_000),
            (5_000, 100_000),
            (30_000, 180_000),
            (300_000, 1_000_000),
        ] {
            for cells in [225, 400] {
                let used = whole_game(turn, total, cells);
                let sum: u64 = used.iter().sum();
                assert!(sum < total, "{turn}/{total}: {sum} ms used");
                // the opening moves, where the game is decided, get a real share...
                let first: u64 = used[..10].iter().sum();
                assert!(
                    first >= total / 5,
                    "{turn}/{total}: first ten moves {first} ms"
                );
                // ...and even the fiftieth move still gets thought, if little: the clock
                // goes to the moves that decide most games (the fiftieth of a 120 s game
                // gets about 60 ms here and the sixtieth about 15; about 300 ms where
                // moves take their soft limit)
                assert!(used[49] >= total / 5000, "{turn}/{total}: {used:?}");
            }
        }
    }

    #[test]
    fn negative_time_left_moves_fast() {
        let b = budget(
            &Clock {
                turn_ms: 5000,
                match_ms: 120_000,
                left_ms: Some(-300),
                increment_ms: 0,
            },
            10,
            100,
        );
        assert!(b.hard_ms <= 10);
    }

    #[test]
    fn protocol_md_table_rows() {
        let row = |turn_ms, match_ms, left_ms, increment_ms, stones, empties| {
            let b = budget(
                &Clock {
                    turn_ms,
                    match_ms,
                    left_ms,
                    increment_ms,
                },
                stones,
                empties,
            );
            (b.soft_ms, b.hard_ms)
        };
        assert_eq!(row(0, 0, None, 0, 9, 216), (0, 10));
        assert_eq!(row(1000, 0, Some(UNLIMITED_LEFT), 0, 0, 225), (765, 900));
        assert_eq!(row(5000, 0, None, 0, 0, 225), (4037, 4750));
        assert_eq!(row(200, 60_000, Some(60_000), 0, 0, 225), (144, 170));
        assert_eq!(row(5000, 120_000, Some(20_000), 0, 100, 300), (1825, 4562));
        assert_eq!(
            row(5000, 120_000, Some(20_000), 1000, 100, 300),
            (2725, 4562)
        );
        assert_eq!(
            row(30_000, 180_000, Some(180_000), 0, 0, 400),
            (8079, 24237)
        );
        assert_eq!(row(5000, 120_000, Some(-300), 0, 100, 300), (0, 5));
    }

    #[test]
    fn unsettled_searches_get_more_time() {
        assert!(soft_scale_percent(0, 0) > soft_scale_percent(2, 0));
        assert_eq!(soft_scale_percent(6, 0), 100);
        assert!(soft_scale_percent(2, 200) > soft_scale_percent(2, 0));
    }

    #[test]
    fn the_plan_shrinks_as_the_game_goes_on() {
        assert_eq!(moves_to_go(0, 400), 22);
        assert_eq!(moves_to_go(40, 360), 16);
        assert!(moves_to_go(30, 195) < moves_to_go(4, 221));
        // never under the floor while the board has room...
        assert_eq!(moves_to_go(200, 200), MOVES_TO_GO_MIN);
        assert_eq!(moves_to_go(380, 20), MOVES_TO_GO_MIN);
        // ...nor over the moves the board still allows us
        assert_eq!(moves_to_go(215, 10), 5);
        assert_eq!(moves_to_go(224, 1), 1);
        assert_eq!(moves_to_go(25, 0), 1);
    }

    /// The share of a Gomocup clock a game of `moves` moves a side uses when every move
    /// takes its soft limit, percent.
    fn clock_used_by(turn_ms: u64, match_ms: u64, cells: usize, moves: usize) -> u64 {
        let mut left = match_ms;
        for k in 0..moves {
            let stones = 4 + 2 * k;
            let clock = Clock {
                turn_ms,
                match_ms,
                left_ms: Some(left as i64),
                increment_ms: 0,
            };
            left -= budget(&clock, stones, cells - stones).soft_ms + 5;
        }
        100 - left * 100 / match_ms
    }

    #[test]
    fn a_long_game_spends_most_of_the_clock() {
        // Gomocup's 120 s / 5 s (fastgame), 180 s / 30 s and 1000 s / 300 s on 20x20, and
        // their scaled 24 s / 1 s and 18 s / 3 s: a game of 35 moves a side spends more
        // than four fifths of the clock on its search (a flat 25-move plan left a quarter)
        for (turn, total) in [
            (5_000, 120_000),
            (30_000, 180_000),
            (300_000, 1_000_000),
            (1_000, 24_000),
            (3_000, 18_000),
        ] {
            let used = clock_used_by(turn, total, 400, 35);
            assert!(used >= 80, "{turn}/{total}: {used} % used by move 35");
        }
    }

    #[test]
    fn zero_turn_means_at_once() {
        let b = budget(
            &Clock {
                turn_ms: 0,
                match_ms: 0,
                left_ms: None,
                increment_ms: 0,
            },
            10,
            100,
        );
        assert!(b.hard_ms <= 10);
    }

    #[test]
    fn an_increment_is_time_to_spend_but_never_more_than_is_left() {
        let clock = |left, inc| Clock {
            turn_ms: 30_000,
            match_ms: 60_000,
            left_ms: Some(left),
            increment_ms: inc,
        };
        let plain = budget(&clock(20_000, 0), 10, 200);
        let with = budget(&clock(20_000, 2_000), 10, 200);
        assert!(with.soft_ms > plain.soft_ms, "{with:?} vs {plain:?}");
        // a large increment with little left: still within what is left
        let tight = budget(&clock(400, 10_000), 10, 200);
        assert!(tight.hard_ms <= 400 / 4, "{tight:?}");
        assert!(tight.soft_ms <= tight.hard_ms);
    }

    #[test]
    fn spare_time_carries_only_where_the_match_clock_binds() {
        let clock = |turn_ms, match_ms, left| Clock {
            turn_ms,
            match_ms,
            left_ms: left,
            increment_ms: 0,
        };
        // c-gomoku-cli's tc=60/0.2: a minute for the game, 200 ms a move, the turn binds
        assert!(!budget(&clock(200, 60_000, Some(60_000)), 10, 200).spare_time_carries);
        // a turn limit alone, or a match clock Gomocup marks as unlimited
        assert!(!budget(&clock(5_000, 0, None), 10, 200).spare_time_carries);
        assert!(!budget(&clock(5_000, 0, Some(UNLIMITED_LEFT)), 10, 200).spare_time_carries);
        // Gomocup's freestyle: 30 s a move, 180 s a game; the match clock binds
        assert!(budget(&clock(30_000, 180_000, Some(180_000)), 10, 200).spare_time_carries);
        // and it comes to bind as the clock runs down
        assert!(budget(&clock(200, 60_000, Some(3_000)), 10, 200).spare_time_carries);
    }
}
