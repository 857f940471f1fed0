//! One game between two entrants: fresh processes for both, the opening played
//! out, then moves asked for in turn until the game ends or a side forfeits.
//!
//! # Forfeits
//!
//! An illegal move, a crash, a hang, a protocol error, a resignation or a clock
//! that runs out loses the game for that side. The disc score recorded follows
//! over-the-board practice: the runner completes the game from the position
//! where it stopped, both sides played by a fixed-depth Mollett search
//! ([`ADJUDICATION_LEVEL`]), and the side that did not default gets the greater of
//! that result and the smallest win, 33–31 (a margin of [`FORFEIT_MARGIN`]). The
//! GGF record keeps only the moves actually played, with `RE[score:t]` for a loss
//! on time or `RE[score:r]` for the other forfeits, and a `CO[..]` comment saying
//! who defaulted and why.
//!
//! # Adjudication
//!
//! A match may end games early by the rules of [`super::adjudicate`]: an exact
//! solve at few empties, or both sides' evaluations agreeing on a lead.
//!
//! # Variants
//!
//! The game is played under its opening's variant: its moves are checked and
//! its result is scored by those rules (under Anti-Reversi the fewer discs win,
//! so the margin is the variant's score, not the disc difference), and the
//! record names the variant (`TY[8a]`, `VA[reversi]`, see the GGF module).

use super::adjudicate::{self, Adjudication, Ruling};
use super::client::{Client, Entrant, MoveRequest, connect};
use super::log::GameLog;
use super::process::{Fault, quote};
use super::spec::{EntrantLimits, EntrantSpec, Proto};
use crate::board::{Color, Move};
use crate::format::{GgfGame, GgfMove, Seconds};
use crate::rules::Position;
use crate::rules::game::Game;
use crate::rules::with_rules;
use crate::search::{Level, RuleSearch, SearchRequest, search};
use crate::tt::TranspositionTable;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// The level that completes a forfeited game for its score: depth 4, exact at 8
/// empties (fast, and far better than nothing).
pub const ADJUDICATION_LEVEL: u32 = 4;

/// The margin of the smallest win, 33–31: a forfeit scores at least this.
pub const FORFEIT_MARGIN: i32 = 2;

/// Slack beyond a time per move before it counts as a loss on time: the pipe and
/// process overhead of one move (fixed part, in seconds, plus a fraction).
pub const MOVE_TIME_SLACK: (f64, f64) = (0.1, 0.1);

/// Extra wait, in seconds, past a clock or a time per move before a silent
/// entrant is declared lost (it has lost on time by then either way).
const HANG_MARGIN: f64 = 1.0;

/// Everything one game needs.
pub struct GameSetup<'a> {
    /// The opening, from its variant's start position.
    pub opening: &'a Game,
    /// Black's and White's entrant.
    pub players: [&'a EntrantSpec; 2],
    /// Black's and White's limits.
    pub limits: [&'a EntrantLimits; 2],
    /// The protocol.
    pub proto: Proto,
    /// How long to wait for an answer when no clock bounds the move.
    pub hang_timeout: Seconds,
    /// The game's number in the match, from 1 (for the entrants' `{game}`).
    pub number: usize,
    /// Where the game's protocol log goes, if anywhere.
    pub log_dir: Option<&'a std::path::Path>,
    /// When the runner ends the game itself.
    pub adjudication: Adjudication,
}

/// Who defaulted and why.
#[derive(Clone, Debug, PartialEq)]
pub struct Forfeit {
    /// The side that lost by default.
    pub loser: Color,
    /// What it did.
    pub fault: Fault,
}

/// How a game went.
#[derive(Clone, Debug, PartialEq)]
pub struct GameOutcome {
    /// The record: players, clocks, opening and moves with their times.
    pub record: GgfGame,
    /// The final disc margin for Black (the adjudicated one after a forfeit).
    pub margin: i32,
    /// Passes played.
    pub passes: usize,
    /// Empty squares left when the game ended (0 after a forfeit's completion
    /// unless the completed game ended early; an adjudicated game's where it
    /// stopped).
    pub empties: u32,
    /// Black's and White's discs when the game ended (after a forfeit, at the
    /// end of its completion).
    pub discs: [u32; 2],
    /// Set when a side lost by default.
    pub forfeit: Option<Forfeit>,
    /// Whether the runner ended the game by a rule of `--adjudicate-*`.
    pub adjudicated: bool,
}

fn side_index(c: Color) -> usize {
    match c {
        Color::Black => 0,
        Color::White => 1,
    }
}

/// Plays one game.
pub fn play_game(setup: &GameSetup) -> GameOutcome {
    let mut record = GgfGame::from_game(setup.opening);
    record.pc = Some("mollett match".into());
    record.pb = Some(setup.players[0].name.clone());
    record.pw = Some(setup.players[1].name.clone());
    let [lb, lw] = setup.limits;
    if lb.clock == lw.clock {
        record.ti = lb.clock;
    } else {
        record.tb = lb.clock;
        record.tw = lw.clock;
    }
    let mut left = [
        lb.clock.map(|c| c.main.get()),
        lw.clock.map(|c| c.main.get()),
    ];
    let specs = setup.players.map(|p| p.for_game(setup.number));
    let log = setup.log_dir.and_then(|dir| {
        let opening: String = setup
            .opening
            .moves
            .iter()
            .map(ToString::to_string)
            .collect();
        let header = format!(
            "game {}: {} (black) vs {} (white), opening '{opening}'",
            setup.number, specs[0].name, specs[1].name
        );
        GameLog::open(dir, setup.number, &header)
    });
    let mut clients: [Option<Box<dyn Client>>; 2] = [None, None];
    let mut forfeit = None;
    for side in [Color::Black, Color::White] {
        let i = side_index(side);
        let t0 = Instant::now();
        let deadline = t0 + setup.hang_timeout.duration();
        let entrant = Entrant {
            spec: &specs[i],
            proto: setup.proto,
            limits: setup.limits[i],
            variant: setup.opening.variant(),
            log: log.as_ref(),
        };
        match connect(&entrant, deadline) {
            Ok(c) => clients[i] = Some(c),
            Err(fault) => {
                let fault = with_wait(fault, setup.hang_timeout.get(), t0);
                forfeit = Some(Forfeit { loser: side, fault });
                break;
            }
        }
    }
    let mut game = setup.opening.clone();
    let mut ruling = None;
    while forfeit.is_none() && ruling.is_none() && !game.is_over() {
        let pos = game.position();
        if pos.must_pass() {
            game.play(Move::Pass).expect("a forced pass");
            record.moves.push(GgfMove::from(Move::Pass));
            continue;
        }
        ruling = setup.adjudication.before_move(&pos);
        if ruling.is_some() {
            break;
        }
        let side = pos.side;
        let i = side_index(side);
        let limits = setup.limits[i];
        let grace = limits.clock.map_or(0.0, |c| c.grace.get());
        let bound = match (left[i], limits.move_time) {
            (Some(l), _) => l.max(0.0) + grace + HANG_MARGIN,
            (None, Some(t)) => move_time_limit(t) + HANG_MARGIN,
            (None, None) => setup.hang_timeout.get(),
        };
        let req = MoveRequest {
            record: &record,
            side,
            time_left: left[i],
            // Sums of bounded values: the saturated bound fits an Instant.
            deadline: Instant::now() + Seconds::saturating(bound).duration(),
        };
        let t0 = Instant::now();
        let client = clients[i].as_mut().expect("both sides are connected");
        let answer = client.genmove(&req);
        let took = t0.elapsed().as_secs_f64();
        let timed = left[i].is_some() || limits.move_time.is_some();
        let fault = match answer.map_err(|f| with_wait(f, bound, t0)) {
            Err(Fault::Hung(why)) if timed => Some(Fault::Time(why)),
            Err(f) => Some(f),
            Ok(a) => match game.play(a.mv) {
                Err(why) => Some(Fault::Illegal(format!(
                    "{}: {} {why}",
                    quote(&a.line),
                    a.mv
                ))),
                Ok(()) => {
                    record.moves.push(GgfMove {
                        mv: a.mv,
                        eval: a.eval,
                        time: Some((took * 1000.0).round() / 1000.0),
                    });
                    over_time(&mut left[i], limits, took)
                }
            },
        };
        match fault {
            Some(fault) => forfeit = Some(Forfeit { loser: side, fault }),
            None if !game.is_over() => ruling = setup.adjudication.after_move(&record),
            None => {}
        }
    }
    drop(clients);
    match ruling {
        Some(r) => adjudicated(record, &game, r, setup.adjudication.moves),
        None => finish(record, game, forfeit),
    }
}

/// The result of a game the runner adjudicated (see [`super::adjudicate`]).
fn adjudicated(mut record: GgfGame, game: &Game, ruling: Ruling, moves: usize) -> GameOutcome {
    let (margin, end, comment) = adjudicate::score(ruling, game.position(), moves);
    record.re = Some(format!("{margin}:s"));
    record.extra.push(("CO".into(), comment.replace(']', ")")));
    GameOutcome {
        record,
        margin,
        passes: game.moves.iter().filter(|m| **m == Move::Pass).count(),
        // The game stopped with these on the board.
        empties: game.position().board.empties(),
        discs: discs(&end),
        forfeit: None,
        adjudicated: true,
    }
}

/// A hang (also inside a failure to start) with the limit it broke and the
/// time waited, from `since`.
fn with_wait(fault: Fault, limit: f64, since: Instant) -> Fault {
    let wait = |why: String| {
        format!(
            "{why} (limit {limit:.1} s, waited {:.1} s)",
            since.elapsed().as_secs_f64()
        )
    };
    match fault {
        Fault::Hung(why) => Fault::Hung(wait(why)),
        Fault::Start(why) if why.starts_with("hung: ") => Fault::Start(wait(why)),
        f => f,
    }
}

/// Charges `took` seconds to a clock or checks them against a time per move; a
/// loss on time if over.
fn over_time(left: &mut Option<f64>, limits: &EntrantLimits, took: f64) -> Option<Fault> {
    if let (Some(l), Some(c)) = (left.as_mut(), limits.clock) {
        *l -= took;
        if *l < -c.grace.get() {
            return Some(Fault::Time(format!(
                "the clock ran out ({:.2} s over)",
                -*l - c.grace.get()
            )));
        }
        *l += c.increment.get();
    } else if let Some(t) = limits.move_time {
        if took > move_time_limit(t) {
            return Some(Fault::Time(format!("{took:.2} s for a move (limit {t} s)")));
        }
    }
    None
}

/// The longest a move may take under a time per move of `t`, slack included.
fn move_time_limit(t: Seconds) -> f64 {
    t.get() + MOVE_TIME_SLACK.0 + t.get() * MOVE_TIME_SLACK.1
}

/// The result, adjudicating a forfeit.
fn finish(mut record: GgfGame, game: Game, forfeit: Option<Forfeit>) -> GameOutcome {
    let passes = game.moves.iter().filter(|m| **m == Move::Pass).count();
    let Some(f) = forfeit else {
        let end = game.position();
        let margin = end.final_score_black();
        record.re = Some(margin.to_string());
        return GameOutcome {
            record,
            margin,
            passes,
            empties: end.board.empties(),
            discs: discs(&end),
            forfeit: None,
            adjudicated: false,
        };
    };
    let end = complete(game.position());
    let completed = end.final_score_black();
    let winner_margin = match f.loser {
        Color::Black => -completed,
        Color::White => completed,
    }
    .max(FORFEIT_MARGIN);
    let margin = match f.loser {
        Color::Black => -winner_margin,
        Color::White => winner_margin,
    };
    let suffix = if f.fault.is_time() { "t" } else { "r" };
    record.re = Some(format!("{margin}:{suffix}"));
    let comment = format!(
        "{} ({}) {}; the game was completed by a depth-{ADJUDICATION_LEVEL} search \
         ({completed:+} for Black) and scored the greater of that and 33-31 for the other side",
        f.loser,
        if f.loser == Color::Black {
            &record.pb
        } else {
            &record.pw
        }
        .as_deref()
        .unwrap_or("?"),
        f.fault
    );
    // GGF values cannot hold ']'.
    record.extra.push(("CO".into(), comment.replace(']', ")")));
    GameOutcome {
        record,
        margin,
        passes,
        empties: end.board.empties(),
        discs: discs(&end),
        forfeit: Some(f),
        adjudicated: false,
    }
}

/// Black's and White's discs in `pos`.
pub fn discs(pos: &Position) -> [u32; 2] {
    [pos.black(), pos.white()].map(u64::count_ones)
}

/// Plays `pos` out under its variant with a fixed-depth search for both sides:
/// the final position.
pub fn complete(pos: Position) -> Position {
    complete_at(pos, Level::number(ADJUDICATION_LEVEL), 1)
}

/// Plays `pos` out under its variant with a search at `level` for both sides,
/// sharing a table of `table_mb` MB: the final position (perfect play's, at
/// an exact level).
pub fn complete_at(pos: Position, level: Level, table_mb: usize) -> Position {
    with_rules!(pos.variant, R => complete_under::<R>(pos, level, table_mb))
}

/// [`complete_at`] under the rules `R` (those of `pos`).
fn complete_under<R: RuleSearch>(mut pos: Position, level: Level, table_mb: usize) -> Position {
    let tt = TranspositionTable::new(table_mb)
        .or_else(|_| TranspositionTable::new(1))
        .expect("a 1 MB table");
    let stop = AtomicBool::new(false);
    while !pos.is_game_over() {
        let mv = if pos.must_pass() {
            Move::Pass
        } else {
            let req = SearchRequest::<R>::new(pos.view::<R>(), level);
            search(&req, &tt, &stop, &mut |_| {})
                .best
                .expect("a game not over has a move")
        };
        pos = pos.play(mv).expect("the search plays legal moves");
    }
    pos
}
