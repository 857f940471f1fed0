//! What the learn tools' jobs share: the [`Shard`] of a job a process runs,
//! the rules a job's data is of as a [`Variant`], and search scores as labels.

use crate::eval::to_discs;

/// Which games of a job one process plays: those with `index % count == index`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// This shard, `0..count`.
    pub index: u64,
    /// How many shards the job has.
    pub count: u64,
}

impl Shard {
    /// The whole job in one shard.
    pub const ALL: Shard = Shard { index: 0, count: 1 };

    /// The `k`-th game number (from 0) of this shard.
    pub fn game(&self, k: u64) -> u64 {
        self.index + k * self.count
    }

    /// How many of the job's `games` belong to this shard.
    pub fn len(&self, games: u64) -> u64 {
        games.saturating_sub(self.index).div_ceil(self.count)
    }

    /// Whether the shard has no game of a job of `games`.
    pub fn is_empty(&self, games: u64) -> bool {
        self.len(games) == 0
    }
}

impl std::str::FromStr for Shard {
    type Err = String;

    /// Parses `i/n` with `n` ≥ 1 and `i` < `n`.
    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || format!("'{s}' is not a shard i/n with 0 <= i < n");
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let index: u64 = i.trim().parse().map_err(|_| bad())?;
        let count: u64 = n.trim().parse().map_err(|_| bad())?;
        if count == 0 || index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

/// A search score as a label: whole discs, rounded, within −64..=64.
pub(crate) fn disc_label(score: i32) -> i32 {
    to_discs(score).round().clamp(-64.0, 64.0) as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_split_the_games() {
        let s: Shard = "1/3".parse().unwrap();
        assert_eq!((0..3).map(|k| s.game(k)).collect::<Vec<_>>(), [1, 4, 7]);
        assert_eq!(s.len(10), 3);
        assert_eq!("2/3".parse::<Shard>().unwrap().len(10), 3);
        assert_eq!("0/3".parse::<Shard>().unwrap().len(10), 4);
        assert!("3/3".parse::<Shard>().is_err());
        assert!("0/0".parse::<Shard>().is_err());
        assert!("x".parse::<Shard>().is_err());
    }
}
