//! The rule sets as types: what the one search (`crate::search`) needs to know
//! about a game, with one implementation per rule set. The search is generic
//! over [`Rules`] and monomorphised, so Othello's code is what it was before the
//! variants shared it: every method here inlines to the board operation it
//! names.
//!
//! - [`Othello`]: the board alone.
//! - [`Reversi`]: the board and the discs each side has left ([`State`]).
//! - [`Anti`]: the board alone, scored the other way round.
//!
//! What the search plays each rule set with (the evaluation, the solver's
//! ordering, the last-empties fast path) is the search's own business:
//! `crate::search::RuleSearch`.

use super::{CENTRE, State, UNLIMITED, Variant};
use crate::board::movegen::Kernel;
use crate::board::stability::stable_discs;
use crate::board::{Board, IllegalMove, Square};
use std::fmt::Debug;

/// Runs `$body` with `$R` naming the rule set of the variant `$v`: the one
/// place a variant known at run time becomes a type.
macro_rules! with_rules {
    ($v:expr, $R:ident => $body:expr) => {
        match $v {
            $crate::rules::Variant::Othello => {
                type $R = $crate::rules::Othello;
                $body
            }
            $crate::rules::Variant::Reversi => {
                type $R = $crate::rules::Reversi;
                $body
            }
            $crate::rules::Variant::Anti => {
                type $R = $crate::rules::Anti;
                $body
            }
        }
    };
}
pub(crate) use with_rules;

/// A rule set: the position type, its moves, a move, a pass, the final score,
/// the table key, and a bound from stable discs.
pub trait Rules: Copy + Debug + Default + Send + Sync + 'static {
    /// A position from the side to move.
    type Pos: Copy + Debug + PartialEq + Send + Sync;

    /// The variant this rule set plays.
    const VARIANT: Variant;

    /// Whether the moves are Othello's on [`Rules::board`] alone (no discs
    /// left to count, no special opening), so that Othello's specialised move
    /// counting (`crate::rules::perft`) counts them too.
    const OTHELLO_MOVES: bool = false;

    /// The position of a side-relative state (the inverse of
    /// [`Rules::state`]); `Position::view` gives a coloured position's.
    fn from_state(s: State) -> Self::Pos;

    /// The discs, side-relative.
    fn board(p: &Self::Pos) -> &Board;

    /// The discs and the discs left to place, side-relative.
    fn state(p: &Self::Pos) -> State;

    /// Why the move to the empty square `sq`, which is not among the moves of
    /// `p`, is illegal.
    fn refusal(_p: &Self::Pos, sq: Square) -> IllegalMove {
        IllegalMove::NoFlips(sq)
    }

    /// The legal moves of the side to move, with the move generator `k`.
    fn moves<K: Kernel>(k: K, p: &Self::Pos) -> u64;

    /// The discs the move to `sq` turns.
    fn flips<K: Kernel>(k: K, p: &Self::Pos, sq: u8) -> u64;

    /// The position after the move to `sq` turning `flips`; no legality check.
    fn make(p: &Self::Pos, sq: u8, flips: u64) -> Self::Pos;

    /// The same position with the other side to move.
    fn pass(p: &Self::Pos) -> Self::Pos;

    /// The final margin of a finished game for the side to move, in discs.
    fn final_score(p: &Self::Pos) -> i32;

    /// The table key: the board's hash, salted so that no two rule sets share
    /// an entry (and, in Reversi, with the discs left).
    fn key(p: &Self::Pos) -> u64;

    /// An upper bound on the final margin the side to move can reach, from the
    /// stable discs (sound: no sequence of moves does better).
    fn score_cap(p: &Self::Pos) -> i32;
}

/// Modern Othello.
#[derive(Clone, Copy, Debug, Default)]
pub struct Othello;

/// Historical Reversi: empty start, four flipless centre placements, 32 discs each.
#[derive(Clone, Copy, Debug, Default)]
pub struct Reversi;

/// Anti-Reversi: Othello's moves, the fewer discs win.
#[derive(Clone, Copy, Debug, Default)]
pub struct Anti;

/// Key salts: the rule sets never share table entries.
const REVERSI_SALT: u64 = 0x9e37_79b9_7f4a_7c15;
const ANTI_SALT: u64 = 0xd6e8_feb8_6659_fd93;

impl Rules for Othello {
    type Pos = Board;
    const VARIANT: Variant = Variant::Othello;
    const OTHELLO_MOVES: bool = true;

    fn from_state(s: State) -> Board {
        s.board
    }
    #[inline(always)]
    fn board(p: &Board) -> &Board {
        p
    }
    fn state(p: &Board) -> State {
        State {
            board: *p,
            left: [UNLIMITED; 2],
        }
    }
    #[inline(always)]
    fn moves<K: Kernel>(k: K, p: &Board) -> u64 {
        k.moves(p.player, p.opponent)
    }
    #[inline(always)]
    fn flips<K: Kernel>(k: K, p: &Board, sq: u8) -> u64 {
        k.flips(sq, p.player, p.opponent)
    }
    #[inline(always)]
    fn make(p: &Board, sq: u8, flips: u64) -> Board {
        p.make(sq, flips)
    }
    #[inline(always)]
    fn pass(p: &Board) -> Board {
        p.pass()
    }
    #[inline(always)]
    fn final_score(p: &Board) -> i32 {
        p.final_score()
    }
    #[inline(always)]
    fn key(p: &Board) -> u64 {
        p.hash()
    }
    #[inline(always)]
    fn score_cap(p: &Board) -> i32 {
        // The opponent's stable discs stay its own.
        64 - 2 * stable_discs(p.opponent, p.player).count_ones() as i32
    }
}

/// Anti-Reversi moves as Othello does.
impl Rules for Anti {
    type Pos = Board;
    const VARIANT: Variant = Variant::Anti;
    const OTHELLO_MOVES: bool = true;

    fn from_state(s: State) -> Board {
        s.board
    }
    #[inline(always)]
    fn board(p: &Board) -> &Board {
        p
    }
    fn state(p: &Board) -> State {
        Othello::state(p)
    }
    #[inline(always)]
    fn moves<K: Kernel>(k: K, p: &Board) -> u64 {
        Othello::moves(k, p)
    }
    #[inline(always)]
    fn flips<K: Kernel>(k: K, p: &Board, sq: u8) -> u64 {
        Othello::flips(k, p, sq)
    }
    #[inline(always)]
    fn make(p: &Board, sq: u8, flips: u64) -> Board {
        Othello::make(p, sq, flips)
    }
    #[inline(always)]
    fn pass(p: &Board) -> Board {
        Othello::pass(p)
    }
    #[inline(always)]
    fn final_score(p: &Board) -> i32 {
        // Empty squares count for nobody.
        -p.disc_difference()
    }
    #[inline(always)]
    fn key(p: &Board) -> u64 {
        p.hash() ^ ANTI_SALT
    }
    #[inline(always)]
    fn score_cap(p: &Board) -> i32 {
        // The mover's stable discs stay its own, and count against it.
        64 - 2 * stable_discs(p.player, p.opponent).count_ones() as i32
    }
}

impl Rules for Reversi {
    type Pos = State;
    const VARIANT: Variant = Variant::Reversi;

    fn from_state(s: State) -> State {
        s
    }
    #[inline(always)]
    fn board(p: &State) -> &Board {
        &p.board
    }
    fn state(p: &State) -> State {
        *p
    }
    fn refusal(p: &State, sq: Square) -> IllegalMove {
        if p.in_opening() {
            IllegalMove::OffCentre(sq)
        } else if p.left[0] == 0 {
            IllegalMove::NoDiscsLeft
        } else {
            IllegalMove::NoFlips(sq)
        }
    }
    #[inline(always)]
    fn moves<K: Kernel>(k: K, p: &State) -> u64 {
        if p.left[0] == 0 {
            0
        } else if p.in_opening() {
            CENTRE & p.board.empty()
        } else {
            k.moves(p.board.player, p.board.opponent)
        }
    }
    #[inline(always)]
    fn flips<K: Kernel>(k: K, p: &State, sq: u8) -> u64 {
        if p.in_opening() {
            0
        } else {
            k.flips(sq, p.board.player, p.board.opponent)
        }
    }
    #[inline(always)]
    fn make(p: &State, sq: u8, flips: u64) -> State {
        p.make(sq, flips)
    }
    #[inline(always)]
    fn pass(p: &State) -> State {
        p.pass()
    }
    #[inline(always)]
    fn final_score(p: &State) -> i32 {
        // Scored as Othello, empties to the winner.
        p.board.final_score()
    }
    #[inline(always)]
    fn key(p: &State) -> u64 {
        debug_assert!(p.left[0] != UNLIMITED);
        let left = u64::from(p.left[0]) << 8 | u64::from(p.left[1]);
        // Plus one: never 0, so never Othello's key of the same board.
        p.board.hash() ^ (left + 1).wrapping_mul(REVERSI_SALT)
    }
    #[inline(always)]
    fn score_cap(p: &State) -> i32 {
        // As in Othello: discs that cannot be turned stay the opponent's, and
        // empties left at the end go to the winner.
        64 - 2 * stable_discs(p.board.opponent, p.board.player).count_ones() as i32
    }
}
