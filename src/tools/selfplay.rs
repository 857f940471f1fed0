//! Whole games between two in-process players: for tests, the evaluation
//! experiment and quick strength checks. (Matches against other engines, over a
//! protocol, are another module's job.)

use crate::board::{Board, Move};
use crate::eval::EvalKind;
use crate::rules::Othello;
use crate::search::{Limits, SearchRequest, search};
use crate::tt::{TranspositionTable, TtError};
use std::sync::atomic::AtomicBool;

/// One side's settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Player {
    /// Depth and solve thresholds.
    pub limits: Limits,
    /// The leaf evaluation.
    pub eval: EvalKind,
}

/// How a game went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Final disc difference for Black, empties to the winner.
    pub black_score: i32,
    /// Every move, passes included.
    pub moves: Vec<Move>,
    /// How many passes were played.
    pub passes: usize,
    /// Empty squares left when the game ended.
    pub empties: u32,
}

/// Plays a game from the start between `black` and `white`, both breaking ties
/// with `seed`; each player has its own table of `hash_mb` MB.
pub fn play_game(
    black: Player,
    white: Player,
    seed: u64,
    hash_mb: usize,
) -> Result<Outcome, TtError> {
    let tables = [
        TranspositionTable::new(hash_mb)?,
        TranspositionTable::new(hash_mb)?,
    ];
    let stop = AtomicBool::new(false);
    let mut board = Board::START;
    let mut black_to_move = true;
    let mut moves = Vec::new();
    while !board.is_game_over() {
        let mv = if board.moves() == 0 {
            Move::Pass
        } else {
            let (p, tt) = if black_to_move {
                (black, &tables[0])
            } else {
                (white, &tables[1])
            };
            let req = SearchRequest::<Othello> {
                board,
                limits: p.limits,
                eval: p.eval,
                seed,
                find_ties: true,
                threads: 1,
                time: None,
                contempt: 0,
                lines: 1,
            };
            search(&req, tt, &stop, &mut |_| {})
                .best
                .expect("a legal move")
        };
        board = match mv {
            Move::Pass => board.pass(),
            Move::Play(sq) => board.play(sq).expect("the search plays legal moves"),
        };
        moves.push(mv);
        black_to_move = !black_to_move;
    }
    let score = board.final_score();
    Ok(Outcome {
        black_score: if black_to_move { score } else { -score },
        passes: moves.iter().filter(|m| **m == Move::Pass).count(),
        empties: board.empties(),
        moves,
    })
}
