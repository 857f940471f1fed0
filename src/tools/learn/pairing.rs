//! Search labels that cancel the search's odd/even bias (`train --pair-child`).
//!
//! A search of depth `d` scores a position with the evaluation of positions `d`
//! plies down. If the evaluation misjudges the side to move by `b` discs, an even
//! depth adds `b` to every score and an odd one `-b`. The data's search labels are
//! all of one depth (datagen's `--depth 10`), so they carry that bias, and a fit to
//! them learns it back: the shipped weights' scores of a position and of its child
//! along a game summed to about −3 discs at depth 10 (issue 41), and the data's own
//! labels to −2 to −3.3 discs a pair between 16 and 47 empties.
//!
//! Datagen plays the move its search chose, so the child's search is one ply
//! shallower than the one below the position's own score: the label of `P` is
//! about `-search_{d-1}(C)` and the child's is `search_d(C)`. Their mean
//! `(label(P) - label(C)) / 2` is the mean of an odd and an even depth: the bias
//! cancels. So a paired label is that mean (with the child's label as it is where
//! the opponent had to pass, and the child has the same side to move).
//!
//! A position keeps its own label where the pair would not hold: where it is not a
//! search label, where the next line is not its child in the same game, in the
//! opening, where datagen's random moves are played, and where the pair says the
//! move played lost more than [`PAIR_MAX_LOSS`] discs (one of datagen's random
//! noise moves: a search's own move loses nothing by its own account, so the two
//! labels then measure different things).

use super::sample::{LabelKind, Sample};

/// The most empties of a paired position: datagen plays its random opening moves
/// (`--random-moves`, 2 to 14 by default) from the start, so every position with
/// 60 − 14 = 46 empties or fewer was left by the search's own move.
pub const PAIR_MAX_EMPTIES: u32 = 46;

/// The largest label(P) + label(C), in discs, that still pairs. A search's move
/// loses nothing by its own account, so the sum is the odd/even difference of the
/// child's two searches: in the round-14 data 97 % of pairs sum to between −8 and
/// +4 discs (mode −3). A random noise move (datagen's `--noise`, 2 % of midgame
/// moves) loses discs the labels see; past 6 discs the pair is left alone.
pub const PAIR_MAX_LOSS: i32 = 6;

/// What pairing did: the labels, in discs, in the samples' order, and how many of
/// them are paired.
#[derive(Clone, Debug, PartialEq)]
pub struct Paired {
    /// One label per sample.
    pub labels: Vec<f32>,
    /// How many of them are the mean of a pair.
    pub paired: usize,
}

/// Each sample's label, paired with its child's where the pair holds (see the
/// module). `samples` are in their files' order: a game's positions one after the
/// other, as datagen writes and `pack` keeps them.
pub fn pair_with_children(samples: &[Sample]) -> Paired {
    let mut labels: Vec<f32> = samples.iter().map(|s| s.label as f32).collect();
    let mut paired = 0;
    for (i, pair) in samples.windows(2).enumerate() {
        if let Some(label) = paired_label(&pair[0], &pair[1]) {
            labels[i] = label;
            paired += 1;
        }
    }
    Paired { labels, paired }
}

/// The paired label of `p` with `c`, the next sample, where the pair holds.
fn paired_label(p: &Sample, c: &Sample) -> Option<f32> {
    let empties = p.position.board.empties();
    let is_child = c.game == p.game && c.position.board.empties() + 1 == empties;
    if p.kind != LabelKind::Search || !is_child || empties > PAIR_MAX_EMPTIES {
        return None;
    }
    // The child's label for the side to move at p.
    let child = if c.position.side == p.position.side {
        c.label
    } else {
        -c.label
    };
    let loss = p.label - child;
    (loss <= PAIR_MAX_LOSS).then_some((p.label + child) as f32 / 2.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Position;
    use crate::{Color, Move, Square};

    fn sample(position: Position, label: i32, kind: LabelKind, game: u64) -> Sample {
        Sample {
            position,
            label,
            kind,
            game,
        }
    }

    /// A position 20 plies into a game, its child and its grandchild.
    fn line() -> [Position; 3] {
        let moves = "f5d6c3d3c4f4c5b3c2e6c6b4b5d2e3a6c1b1f3f6";
        let pos = crate::format::transcript::parse_transcript(Position::START, moves)
            .unwrap()
            .position();
        let child = pos.play(first_move(&pos)).unwrap();
        let grandchild = child.play(first_move(&child)).unwrap();
        [pos, child, grandchild]
    }

    fn first_move(pos: &Position) -> Move {
        Move::Play(Square::new(pos.board.moves().trailing_zeros() as u8).unwrap())
    }

    #[test]
    fn a_pair_is_the_mean_of_the_label_and_the_childs_negated_label() {
        let [p, c, g] = line();
        assert_ne!(p.side, c.side);
        let s = [
            sample(p, 4, LabelKind::Search, 7),
            sample(c, -1, LabelKind::Search, 7),
            sample(g, 3, LabelKind::Exact, 7),
        ];
        let out = pair_with_children(&s);
        // (4 + 1) / 2; the child pairs with the exact grandchild: (-1 - 3) / 2;
        // the last line has no child.
        assert_eq!(out.labels, vec![2.5, -2.0, 3.0]);
        assert_eq!(out.paired, 2);
    }

    #[test]
    fn after_a_pass_the_childs_label_counts_as_it_is() {
        let [p, c, _] = line();
        let passed = Position { side: p.side, ..c };
        let s = [
            sample(p, 4, LabelKind::Search, 1),
            sample(passed, 2, LabelKind::Search, 1),
        ];
        assert_eq!(pair_with_children(&s).labels[0], 3.0);
        assert_eq!(p.side, Color::Black);
    }

    #[test]
    fn no_pair_across_games_gaps_exact_labels_openings_or_lost_moves() {
        let [p, c, g] = line();
        let search = |pos, label, game| sample(pos, label, LabelKind::Search, game);
        let unpaired = |s: [Sample; 2]| pair_with_children(&s).paired == 0;
        assert!(
            unpaired([search(p, 4, 1), search(c, -1, 2)]),
            "another game"
        );
        assert!(
            unpaired([search(p, 4, 1), search(g, 1, 1)]),
            "not the child"
        );
        assert!(unpaired([
            sample(p, 4, LabelKind::Exact, 1),
            search(c, -4, 1)
        ]));
        assert!(unpaired([
            sample(p, 4, LabelKind::Game, 1),
            search(c, -4, 1)
        ]));
        // The move lost 4 + 3 = 7 discs by the labels: a random move.
        assert!(unpaired([search(p, 4, 1), search(c, 3, 1)]));
        assert!(!unpaired([search(p, 4, 1), search(c, 2, 1)]), "6 pairs");
        let start = Position::START;
        let opening = start.play(first_move(&start)).unwrap();
        assert!(unpaired([search(start, 0, 1), search(opening, 0, 1)]));
    }
}
