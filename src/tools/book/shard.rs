//! `mollett book build --shard I/N`: one of N independent parts of a build,
//! for many machines under an existing scheduler (GNU parallel, Slurm), whose
//! files `mollett book merge` then joins.
//!
//! Every shard first grows the same trunk (the positions up to
//! `--trunk-depth` plies, as an unsharded build to that depth would, so every
//! shard's trunk is identical). The positions one ply below the trunk that
//! the walk reaches (and the openings' own positions below it) are the roots
//! of independent subtrees; each belongs to one shard by a hash of its key,
//! and a shard grows only its own subtrees to `--depth`. The roots are taken
//! from the trunk alone, so an interrupted shard run again picks the same ones.

use crate::board::Board;
use crate::book::{Book, key};
use std::fmt;
use std::str::FromStr;

/// A shard, `I/N`: the I-th (from 1) of N.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which, from 1.
    pub index: u32,
    /// Of how many.
    pub count: u32,
}

impl FromStr for Shard {
    type Err = String;

    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || format!("'{s}' is not a shard I/N with 1 <= I <= N <= 10000");
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let (index, count): (u32, u32) = (
            i.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        if index == 0 || index > count || count > 10_000 {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl Shard {
    /// Whether the subtree from `board` is this shard's: by a mix of its
    /// canonical key's bits, the same on every machine and for every symmetry.
    pub fn owns(&self, board: &Board) -> bool {
        let k = key::canonical(board).key;
        let mut x = k.player ^ k.opponent.rotate_left(29);
        // SplitMix64's finaliser: every bit of the key moves the result.
        x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        x ^= x >> 31;
        x % u64::from(self.count) == u64::from(self.index - 1)
    }
}

/// The book's positions at most `depth` plies deep: the trunk that every
/// shard shares, whatever its own subtrees have added below it.
pub fn trunk(book: &Book, depth: u32) -> Book {
    let mut out = Book::new(book.rules()).expect("a book's rules have books");
    for (k, moves) in book.iter() {
        let b = k.board();
        if crate::book::ply(&b) <= depth {
            out.insert(&b, moves);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::bitboard::symmetry;
    use crate::rules::Variant;

    #[test]
    fn shards_parse_and_split_positions_among_them() {
        assert_eq!("2/5".parse(), Ok(Shard { index: 2, count: 5 }));
        for bad in ["0/3", "4/3", "3", "a/b", "1/0", "1/10001", ""] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
        // Every position belongs to exactly one of the shards, the same one
        // in each symmetry; and the four shards each get some.
        let start = Variant::Othello.start();
        let mut per = [0usize; 4];
        let mut seen = 0;
        let mut frontier = vec![start];
        for _ in 0..4 {
            let mut next = Vec::new();
            for p in &frontier {
                for mv in p.legal_moves() {
                    next.push(p.play(mv).unwrap());
                }
            }
            frontier = next;
        }
        for p in &frontier {
            let owners: Vec<u32> = (1..=4)
                .filter(|&i| Shard { index: i, count: 4 }.owns(&p.board))
                .collect();
            assert_eq!(owners.len(), 1);
            per[owners[0] as usize - 1] += 1;
            seen += 1;
            let b = p.board;
            let flipped = Board::new(symmetry(b.player, 3), symmetry(b.opponent, 3));
            assert!(
                Shard {
                    index: owners[0],
                    count: 4
                }
                .owns(&flipped)
            );
        }
        assert_eq!(seen, 244, "perft 4");
        assert!(per.iter().all(|&n| n > 30), "{per:?}");
    }
}
