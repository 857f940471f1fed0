//! The opening book: positions, each unique up to the 8 symmetries, with their
//! moves' values, which the engine plays without searching.
//!
//! - Each position of the book ([`Key`]) keeps a value for each of its legal
//!   moves ([`BookMove`]): the score for the side to move in centi-discs, the
//!   depth of the search behind it, whether it is a search's score (a leaf),
//!   negamaxed from the child position in the book, or the exact end of the
//!   game, and the wins, draws and losses of learned games through it.
//! - [`Book::negamax`] brings every move that leads to a position of the book
//!   to minus that position's best value (plus, behind a pass).
//! - [`Book::hints`] gives a position's moves turned to its orientation, each
//!   checked against the rules (a stored move that is not legal there is never
//!   offered); [`Book::choose`] picks one within a margin of the best,
//!   seeded.
//! - [`file`] reads and writes the `.mlb` file (versioned, checksummed); the
//!   engine ships one, embedded ([`EMBEDDED`]). [`edax`] reads and writes
//!   Edax's `book.dat`.
//!
//! Books are for Othello and Anti-Reversi, whose positions are the discs and
//! the side to move; historical Reversi (discs counted out, free centre
//! placements) has none.

pub mod edax;
pub mod file;
pub mod key;

pub use key::Key;

use crate::board::{Board, Move, Square};
use crate::rng::Rng;
use crate::rules::{Position, Variant};
use std::collections::HashMap;

/// The book the engine ships: built by `mollett book build` as the README
/// says, checked at start-up like the weights.
pub const EMBEDDED: &[u8] = include_bytes!("../../book/othello.mlb");

/// Where a book move's value comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Origin {
    /// A search of the position at `depth`: the move leads out of the book.
    Searched,
    /// Minus the best value of the position it leads to, which is in the book.
    Negamaxed,
    /// The game ends after it: the final score.
    Exact,
}

/// Learned games through a move, counted for the side that plays it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Games {
    /// Games that side won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games that side lost.
    pub losses: u32,
}

impl Games {
    /// All the games.
    pub fn total(&self) -> u64 {
        u64::from(self.wins) + u64::from(self.draws) + u64::from(self.losses)
    }

    /// Both counts added (saturating).
    pub fn plus(self, other: Games) -> Games {
        Games {
            wins: self.wins.saturating_add(other.wins),
            draws: self.draws.saturating_add(other.draws),
            losses: self.losses.saturating_add(other.losses),
        }
    }
}

/// A move of a book position and its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The square (in the orientation of the board it is given with).
    pub square: Square,
    /// Centi-discs for the side to move.
    pub score: i16,
    /// The depth of the search behind the value (60 for an exact one).
    pub depth: u8,
    /// Where the value comes from.
    pub origin: Origin,
    /// Learned games through the move.
    pub games: Games,
}

/// The depth written for exact values.
pub const EXACT_DEPTH: u8 = 60;

/// Why a book cannot hold or use something.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookError(pub String);

impl std::fmt::Display for BookError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "book: {}", self.0)
    }
}

impl std::error::Error for BookError {}

/// An opening book of one rule set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Book {
    rules: Variant,
    /// How the book was made (commands, levels, sources).
    pub note: String,
    nodes: HashMap<Key, Vec<BookMove>>,
}

/// Where a move leads, seen from the book.
enum Child {
    /// The game ends: the final score for the side that moved.
    Over(i32),
    /// A position to look up; `sign` turns its values into the mover's (−1,
    /// or +1 behind a pass, where the same side moves again).
    Node { key: Key, sign: i32 },
}

impl Book {
    /// An empty book for `rules` (Othello or Anti-Reversi).
    pub fn new(rules: Variant) -> Result<Book, BookError> {
        match rules {
            Variant::Reversi => Err(BookError(
                "historical reversi has no book (only othello and anti)".into(),
            )),
            _ => Ok(Book {
                rules,
                note: String::new(),
                nodes: HashMap::new(),
            }),
        }
    }

    /// The rules of the book's positions.
    pub fn rules(&self) -> Variant {
        self.rules
    }

    /// The number of positions.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the book has no position.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Whether `board` (side-to-move relative) is in the book, in any orientation.
    pub fn contains(&self, board: &Board) -> bool {
        self.nodes.contains_key(&key::canonical(board).key)
    }

    /// The moves stored for `key` (canonical orientation), if it is in the book.
    pub fn moves_of(&self, key: &Key) -> Option<&[BookMove]> {
        self.nodes.get(key).map(Vec::as_slice)
    }

    /// Every position and its moves (canonical orientation), in no order.
    pub fn iter(&self) -> impl Iterator<Item = (&Key, &[BookMove])> {
        self.nodes.iter().map(|(k, v)| (k, v.as_slice()))
    }

    /// Stores `moves` (squares in the orientation of `board`) as the moves of
    /// `board`, replacing any stored before; none of them may repeat a square.
    pub fn insert(&mut self, board: &Board, moves: &[BookMove]) {
        let o = key::canonical(board);
        let mut stored: Vec<BookMove> = moves
            .iter()
            .map(|m| BookMove {
                square: key::turn_square(m.square, o.turn),
                ..*m
            })
            .collect();
        stored.sort_by_key(|m| m.square.index());
        stored.dedup_by_key(|m| m.square.index());
        self.nodes.insert(o.key, stored);
    }

    /// The position's moves, turned to the position's orientation, best first
    /// (ties by square), leaving out any that is not legal there; `None` when
    /// the position is not in the book, is of other rules, or leaves nothing.
    pub fn hints(&self, pos: &Position) -> Option<Vec<BookMove>> {
        if pos.variant != self.rules {
            return None;
        }
        let o = key::canonical(&pos.board);
        let back = key::inverse(o.turn);
        let legal = pos.moves();
        let mut out: Vec<BookMove> = self
            .nodes
            .get(&o.key)?
            .iter()
            .map(|m| BookMove {
                square: key::turn_square(m.square, back),
                ..*m
            })
            .filter(|m| legal & m.square.bit() != 0)
            .collect();
        out.sort_by_key(|m| (-m.score, m.square.index()));
        (!out.is_empty()).then_some(out)
    }

    /// A book move for `pos`: one of those within `margin` centi-discs of the
    /// best, drawn by `seed` (the same seed and position, the same move);
    /// `None` when the book has no legal move there.
    pub fn choose(&self, pos: &Position, margin: i32, seed: u64) -> Option<BookMove> {
        let hints = self.hints(pos)?;
        let best = i32::from(hints[0].score);
        let mut near: Vec<BookMove> = hints
            .into_iter()
            .filter(|m| i32::from(m.score) >= best - margin.max(0))
            .collect();
        near.sort_by_key(|m| m.square.index());
        let mut rng = Rng::new(seed ^ pos.board.hash());
        Some(near[rng.below(near.len() as u64) as usize])
    }

    /// The line `sq` starts in `pos`: `sq`, then the book's best move (a forced
    /// pass written) in each position after it, as far as the book goes.
    pub fn line(&self, pos: &Position, sq: Square) -> Vec<Move> {
        let mut out = vec![Move::Play(sq)];
        let Ok(mut at) = pos.play(Move::Play(sq)) else {
            return out;
        };
        while out.len() < 60 {
            if at.must_pass() {
                let Ok(next) = at.play(Move::Pass) else { break };
                if self.hints(&next).is_none() {
                    break;
                }
                out.push(Move::Pass);
                at = next;
            }
            let Some(best) = self.hints(&at).and_then(|h| h.first().copied()) else {
                break;
            };
            out.push(Move::Play(best.square));
            let Ok(next) = at.play(Move::Play(best.square)) else {
                break;
            };
            at = next;
        }
        out
    }

    /// Where `sq` leads from `board`, under the book's rules.
    fn child(&self, board: &Board, sq: Square) -> Option<Child> {
        let pos = Position {
            board: *board,
            ..Position::START.othello_like(self.rules)
        };
        let next = pos.play(Move::Play(sq)).ok()?;
        if next.is_game_over() {
            return Some(Child::Over(-next.final_score()));
        }
        if next.must_pass() {
            let again = next.play(Move::Pass).ok()?;
            return Some(Child::Node {
                key: key::canonical(&again.board).key,
                sign: 1,
            });
        }
        Some(Child::Node {
            key: key::canonical(&next.board).key,
            sign: -1,
        })
    }

    /// The position a move of a book position leads to, if it is one the game
    /// goes on from (the position after a forced pass, when there is one).
    pub fn child_board(&self, board: &Board, sq: Square) -> Option<Board> {
        match self.child(board, sq)? {
            Child::Node { key, .. } => Some(key.board()),
            Child::Over(_) => None,
        }
    }

    /// Brings every move that leads into the book to its child's best value
    /// (negated; as is behind a pass) and every move that ends the game to the
    /// final score; leaves keep their searched values. Children have more
    /// discs than their parents, so one pass from the fullest boards up does it.
    pub fn negamax(&mut self) {
        let mut keys: Vec<Key> = self.nodes.keys().copied().collect();
        keys.sort_by_key(|k| (std::cmp::Reverse((k.player | k.opponent).count_ones()), *k));
        for k in keys {
            let board = k.board();
            let mut moves = self.nodes[&k].clone();
            for m in &mut moves {
                match self.child(&board, m.square) {
                    Some(Child::Over(score)) => {
                        m.score = clamp_score(score * 100);
                        m.depth = EXACT_DEPTH;
                        m.origin = Origin::Exact;
                    }
                    Some(Child::Node { key, sign }) => {
                        if let Some(best) = self.nodes.get(&key).and_then(|c| best_of(c)) {
                            m.score = clamp_score(sign * i32::from(best.score));
                            m.depth = best.depth;
                            m.origin = if best.origin == Origin::Exact {
                                Origin::Exact
                            } else {
                                Origin::Negamaxed
                            };
                        }
                    }
                    None => {}
                }
            }
            self.nodes.insert(k, moves);
        }
    }

    /// Adds `other`'s positions to this book. A position in both keeps, per
    /// move, the value searched deeper (this book's on a tie) and the games of
    /// both; run [`negamax`](Self::negamax) after. Books of other rules are
    /// refused.
    pub fn merge(&mut self, other: &Book) -> Result<(), BookError> {
        if other.rules != self.rules {
            return Err(BookError(format!(
                "cannot merge a book of {} into one of {}",
                other.rules.name(),
                self.rules.name()
            )));
        }
        for (k, theirs) in &other.nodes {
            let ours = self.nodes.entry(*k).or_default();
            for t in theirs {
                match ours.iter_mut().find(|m| m.square == t.square) {
                    Some(m) => {
                        let games = m.games.plus(t.games);
                        if t.depth > m.depth {
                            *m = *t;
                        }
                        m.games = games;
                    }
                    None => ours.push(*t),
                }
            }
            ours.sort_by_key(|m| m.square.index());
        }
        Ok(())
    }

    /// Adds games through `sq` of `board` to its counts, making the position
    /// (with no other move) or the move (searched at depth 0, score `score`)
    /// where missing.
    pub fn add_games(&mut self, board: &Board, sq: Square, games: Games, score: i16) {
        let o = key::canonical(board);
        let square = key::turn_square(sq, o.turn);
        let moves = self.nodes.entry(o.key).or_default();
        match moves.iter_mut().find(|m| m.square == square) {
            Some(m) => m.games = m.games.plus(games),
            None => {
                moves.push(BookMove {
                    square,
                    score,
                    depth: 0,
                    origin: Origin::Searched,
                    games,
                });
                moves.sort_by_key(|m| m.square.index());
            }
        }
    }
}

/// Reads a book file of either format: Mollett's `.mlb` or Edax's `book.dat`
/// (told apart by their first bytes).
pub fn read(bytes: &[u8]) -> Result<Book, BookError> {
    if edax::looks_like_edax(bytes) {
        edax::parse(bytes)
    } else if file::looks_like_book(bytes) {
        file::parse(bytes)
    } else {
        Err(BookError(
            "neither a Mollett book (MOLLBOOK header) nor an Edax book (EDAX BOOK header)".into(),
        ))
    }
}

/// A position's ply, counted as books count depth: 60 − its empties.
pub fn ply(board: &Board) -> u32 {
    60u32.saturating_sub(board.empties())
}

/// The best move of a list (highest score; lowest square on a tie).
pub fn best_of(moves: &[BookMove]) -> Option<&BookMove> {
    moves
        .iter()
        .min_by_key(|m| (-i32::from(m.score), m.square.index()))
}

/// A score in centi-discs, clamped to the stored range.
pub fn clamp_score(centi: i32) -> i16 {
    centi.clamp(-6400, 6400) as i16
}

#[cfg(test)]
mod tests;
