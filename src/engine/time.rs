//! The time policy: the one place where what a protocol knows of the time (the
//! game clock of the side to move, as received: [`TimeLeft`]) and the engine's
//! time-per-move setting ([`MoveTime`]) become one move's soft and hard limits
//! ([`move_limits`]). The protocols only pass the clock on, in [`Job::Go`](super::Job::Go).
//! The search then scales the soft limit by how settled its best move is
//! (`search::time_plan`); the hard limit given here is never passed.
//!
//! In sudden death (main time `R` left, increment `I`, `E` empty squares), a move
//! gets
//!
//! - soft = R / max(E / 2, 4) + 0.8 · I: no new iteration starts after it;
//! - hard = min(3 · soft, R / 2 − [`MARGIN`]): the search stops there.
//!
//! `E / 2` is roughly the number of moves the mover still has to make; never
//! planning for fewer than 4 keeps a reserve, and half the clock is the most any
//! one move may take. In byo-yomi (a period of `P` seconds for `S` moves) a move
//! gets soft = P / S / 2 and hard = P / S − [`MARGIN`]. Hard limits never fall
//! below [`MIN_HARD`], and soft never exceeds hard. Depth and level limits apply
//! on top of these.

use crate::board::Color;
use crate::format::{GgfGame, Seconds};
use crate::search::TimeLimit;
use std::time::Duration;

/// Kept back from every hard deadline for the reply to reach the opponent.
pub const MARGIN: Duration = Duration::from_millis(50);

/// The shortest hard limit ever given: enough for a shallow search to return
/// a legal move.
pub const MIN_HARD: Duration = Duration::from_millis(10);

/// Never plan for fewer moves than this.
const MIN_MOVES_TO_GO: u32 = 4;

/// The increment counts for this much of itself.
const INCREMENT_SHARE: f64 = 0.8;

/// Hard is at most this many times soft.
const HARD_OVER_SOFT: f64 = 3.0;

/// The game clock of the side to move, as its protocol received it (NBoard's
/// GGF record, GTP's `time_settings` and `time_left`, the console's `clock`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeLeft {
    /// Main time left, and the increment earned by each move.
    SuddenDeath {
        /// Main time left.
        left: Duration,
        /// Added after each move.
        increment: Duration,
    },
    /// Byo-yomi: `left` for the next `stones` moves.
    Byoyomi {
        /// Time left in the period.
        left: Duration,
        /// Moves still to make in it.
        stones: u32,
    },
}

impl TimeLeft {
    /// The budget of one move with `empties` empty squares (see the module
    /// documentation).
    pub fn budget(self, empties: u32) -> TimeLimit {
        match self {
            TimeLeft::SuddenDeath { left, increment } => budget(left, increment, empties),
            TimeLeft::Byoyomi { left, stones } => byoyomi_budget(left, stones),
        }
    }
}

/// The limits of one move with `empties` empty squares: the clock's budget, if
/// a clock is known, under the time-per-move setting (`None`: the level alone
/// limits the move).
pub fn move_limits(
    clock: Option<TimeLeft>,
    move_time: MoveTime,
    empties: u32,
) -> Option<TimeLimit> {
    move_time.apply(clock.map(|c| c.budget(empties)))
}

/// The time limit of every move choice, beside the level and any game clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveTime {
    /// None: the level (and a game clock, when known) alone limit a move.
    Off,
    /// Given by the user (`--move-time`, the console's `time`): every move
    /// stops within it, and a game clock can only shorten it.
    Given(Duration),
    /// The loop's default when no level is given ([`DEFAULT_MOVE_TIME`]): it
    /// applies while no game clock is known, and an explicit level or depth
    /// ([`Engine::set_level`](super::Engine::set_level)) turns it off.
    Default(Duration),
}

/// The engine loop's time per move when neither a level nor a move time is
/// given: the default level searches up to minutes per midgame move with two
/// threads (210-519 s measured from the second move), so a host with no clock
/// (a script, a GUI with no clock set) gets a move within a few seconds.
pub const DEFAULT_MOVE_TIME: Duration = Duration::from_secs(5);

impl MoveTime {
    /// The limits of one move under this setting, given the clock's, if any.
    fn apply(self, clock: Option<TimeLimit>) -> Option<TimeLimit> {
        match (self, clock) {
            (MoveTime::Off, c) | (MoveTime::Default(_), c @ Some(_)) => c,
            (MoveTime::Default(d), None) | (MoveTime::Given(d), None) => Some(per_move_budget(d)),
            (MoveTime::Given(d), Some(c)) => {
                let m = per_move_budget(d);
                Some(TimeLimit {
                    soft: c.soft.min(m.soft),
                    hard: c.hard.min(m.hard),
                })
            }
        }
    }
}

/// The budget for one move with `remaining` main time, `increment` added per
/// move and `empties` empty squares (see the module documentation).
fn budget(remaining: Duration, increment: Duration, empties: u32) -> TimeLimit {
    let moves_to_go = (empties / 2).max(MIN_MOVES_TO_GO);
    let soft = remaining / moves_to_go + increment.mul_f64(INCREMENT_SHARE);
    let cap = (remaining / 2).saturating_sub(MARGIN);
    let hard = soft.mul_f64(HARD_OVER_SOFT).min(cap).max(MIN_HARD);
    TimeLimit {
        soft: soft.min(hard),
        hard,
    }
}

/// The budget for a fixed time per move (`--move-time`, the console's `time`):
/// soft is half of it, hard all of it less [`MARGIN`].
fn per_move_budget(limit: Duration) -> TimeLimit {
    let hard = limit.saturating_sub(MARGIN).max(MIN_HARD);
    TimeLimit {
        soft: (limit / 2).min(hard),
        hard,
    }
}

/// The budget for one move in byo-yomi: `period` left for `stones` moves.
fn byoyomi_budget(period: Duration, stones: u32) -> TimeLimit {
    let per_move = period / stones.max(1);
    let hard = per_move.saturating_sub(MARGIN).max(MIN_HARD);
    TimeLimit {
        soft: (per_move / 2).min(hard),
        hard,
    }
}

/// The clock of `side` in an NBoard GGF record: the main time it has left and
/// its increment, or `None` when the record has no clock for it. Following NBoard's clock: every
/// move of `side` costs its recorded time (none counts as 0) and earns the
/// increment; once the main time is spent, the grace period is added once.
pub fn ggf_clock(record: &GgfGame, side: Color) -> Option<TimeLeft> {
    let clock = match side {
        Color::Black => record.tb.or(record.ti),
        Color::White => record.tw.or(record.ti),
    }?;
    let mut color = record.start.side;
    let mut left = clock.main.get();
    for m in &record.moves {
        if color == side {
            left += clock.increment.get() - m.time.unwrap_or(0.0);
        }
        color = color.opposite();
    }
    if left < 0.0 {
        left += clock.grace.get();
    }
    // Many increments can add up past the largest time value: saturate.
    Some(TimeLeft::SuddenDeath {
        left: Seconds::saturating(left).duration(),
        increment: clock.increment.duration(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::parse_ggf;

    /// The main time and increment of `side`'s sudden-death clock in `g`.
    fn main_time(g: &GgfGame, side: Color) -> (Duration, Duration) {
        match ggf_clock(g, side) {
            Some(TimeLeft::SuddenDeath { left, increment }) => (left, increment),
            other => panic!("not a sudden-death clock: {other:?}"),
        }
    }

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn sudden_death_budget() {
        // 5 minutes, 60 empties: 30 moves to go.
        let t = budget(ms(300_000), Duration::ZERO, 60);
        assert_eq!(t.soft, ms(10_000));
        assert_eq!(t.hard, ms(30_000));
        // Few empties still plan for 4 moves; half the clock caps hard.
        let t = budget(ms(8_000), Duration::ZERO, 2);
        assert_eq!(t.soft, ms(2_000));
        assert_eq!(t.hard, ms(3_950));
        // The increment counts for 80 %.
        let t = budget(ms(0), ms(1_000), 40);
        assert_eq!(t.soft, MIN_HARD);
        assert_eq!(t.hard, MIN_HARD);
        let t = budget(ms(60_000), ms(1_000), 40);
        assert_eq!(t.soft, ms(3_000 + 800));
        // An empty clock still allows a shallow search.
        let t = budget(Duration::ZERO, Duration::ZERO, 30);
        assert_eq!((t.soft, t.hard), (Duration::ZERO, MIN_HARD));
    }

    #[test]
    fn byoyomi() {
        let t = byoyomi_budget(ms(10_000), 5);
        assert_eq!((t.soft, t.hard), (ms(1_000), ms(1_950)));
        let t = byoyomi_budget(ms(10), 0);
        assert_eq!((t.soft, t.hard), (ms(5), MIN_HARD));
    }

    #[test]
    fn nboard_clock_counts_each_sides_moves() {
        let bo = "---------------------------O*------*O--------------------------- *";
        let g = parse_ggf(&format!(
            "(;GM[Othello]TI[5:00/2]TY[8]BO[8 {bo}]B[F5//10.5]W[D6//3]B[C3/0.00/20];)"
        ))
        .unwrap();
        let (b, inc) = main_time(&g, Color::Black);
        assert_eq!(inc, Duration::from_secs(2));
        assert!((b.as_secs_f64() - (300.0 - 30.5 + 4.0)).abs() < 1e-9);
        let (w, _) = main_time(&g, Color::White);
        assert!((w.as_secs_f64() - 299.0).abs() < 1e-9);
        // Separate clocks, and the grace period once the main time is gone.
        let g = parse_ggf(&format!(
            "(;GM[Othello]TB[0:10]TW[1:00]TY[8]BO[8 {bo}]B[F5//15];)"
        ))
        .unwrap();
        let (b, _) = main_time(&g, Color::Black);
        assert!((b.as_secs_f64() - 115.0).abs() < 1e-9);
        let (w, _) = main_time(&g, Color::White);
        assert_eq!(w, Duration::from_secs(60));
        // No clock, no budget.
        let g = parse_ggf(&format!("(;GM[Othello]BO[8 {bo}];)")).unwrap();
        assert_eq!(ggf_clock(&g, Color::Black), None);
    }
}
