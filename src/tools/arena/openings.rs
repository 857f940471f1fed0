//! Match openings: read from a file of transcripts, or drawn at random from a
//! seed.
//!
//! An opening file holds one transcript per line (`f5d6c4d3c2b3b4b5`, the format
//! of the XOT lists); `#` starts a comment, blank lines are skipped. Random
//! openings are `count` distinct move sequences of `plies` plies from the start,
//! each move drawn uniformly among the legal ones by [`Rng`] from `seed`, so the
//! same seed always gives the same list.
//!
//! Both are read or drawn under the match's variant, from its start: under
//! historical Reversi a transcript begins with the four centre placements, and
//! a random opening's first four plies are such placements.

use crate::board::Move;
use crate::format::{parse_transcript, write_transcript};
use crate::rng::Rng;
use crate::rules::Variant;
use crate::rules::game::Game;
use std::collections::HashSet;

/// How many draws per wanted opening before giving up on finding more distinct
/// ones (few plies have few openings: 4 of one ply, 12 of two).
const DRAWS_PER_OPENING: usize = 200;

/// Why the openings could not be had.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpeningError(pub String);

impl std::fmt::Display for OpeningError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for OpeningError {}

/// Reads an opening list: one transcript per line, `#` comments, each from the
/// start of `variant` and legal under its rules.
pub fn parse_openings(text: &str, variant: Variant) -> Result<Vec<Game>, OpeningError> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let game = parse_transcript(variant.start(), line)
            .map_err(|e| OpeningError(format!("openings line {}: {e}", i + 1)))?;
        if game.is_over() {
            return Err(OpeningError(format!(
                "openings line {}: '{line}' ends the game",
                i + 1
            )));
        }
        out.push(game);
    }
    if out.is_empty() {
        return Err(OpeningError("the openings list is empty".into()));
    }
    Ok(out)
}

/// `count` distinct random openings of `plies` plies from `seed`, under
/// `variant`'s rules from its start.
pub fn random_openings(
    count: usize,
    plies: usize,
    seed: u64,
    variant: Variant,
) -> Result<Vec<Game>, OpeningError> {
    let mut rng = Rng::new(seed);
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let mut draws = 0;
    while out.len() < count {
        if draws >= count.max(1) * DRAWS_PER_OPENING {
            return Err(OpeningError(format!(
                "found only {} distinct openings of {plies} plies (asked for {count})",
                out.len()
            )));
        }
        draws += 1;
        let mut game = Game::new(variant.start());
        let mut pos = variant.start();
        while game.len() < plies && !pos.is_game_over() {
            let moves = pos.moves();
            let mv = if moves == 0 {
                Move::Pass
            } else {
                let sq = rng.pick_bit(moves);
                Move::Play(crate::Square::new(sq).expect("a board square"))
            };
            pos = pos.play(mv).expect("a legal move");
            game.moves.push(mv);
        }
        if pos.is_game_over() {
            continue;
        }
        if seen.insert(write_transcript(&game)) {
            out.push(game);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_with_comments() {
        let text = "# XOT-like\nf5d6c4\n\n  f5f6 # a comment\n";
        let games = parse_openings(text, Variant::Othello).unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].len(), 3);
        assert_eq!(write_transcript(&games[1]), "f5f6");
        let err = parse_openings("f5d6\nf5z9\n", Variant::Othello).unwrap_err();
        assert!(err.0.starts_with("openings line 2"), "{err}");
        assert!(parse_openings("# nothing\n", Variant::Othello).is_err());
    }

    #[test]
    fn random_openings_are_seeded_and_distinct() {
        let a = random_openings(20, 6, 7, Variant::Othello).unwrap();
        assert_eq!(a, random_openings(20, 6, 7, Variant::Othello).unwrap());
        assert_ne!(a, random_openings(20, 6, 8, Variant::Othello).unwrap());
        let set: HashSet<String> = a.iter().map(write_transcript).collect();
        assert_eq!(set.len(), 20);
        assert!(a.iter().all(|g| g.len() == 6));
        // Only 4 openings of one ply exist.
        assert_eq!(random_openings(4, 1, 1, Variant::Othello).unwrap().len(), 4);
        assert!(random_openings(5, 1, 1, Variant::Othello).is_err());
    }

    #[test]
    fn openings_follow_the_variant() {
        // Historical Reversi starts empty: its transcripts and random openings
        // begin with the four centre placements.
        let r = random_openings(10, 6, 5, Variant::Reversi).unwrap();
        for g in &r {
            assert_eq!((g.variant(), g.len()), (Variant::Reversi, 6));
            let centre = ["d4", "e4", "d5", "e5"];
            assert!(
                g.moves[..4]
                    .iter()
                    .all(|m| centre.contains(&&*m.to_string()))
            );
            assert!(g.positions().len() == 7, "every move replays");
        }
        let text: String = r.iter().map(|g| write_transcript(g) + "\n").collect();
        assert_eq!(parse_openings(&text, Variant::Reversi).unwrap(), r);
        assert!(parse_openings("f5d6\n", Variant::Reversi).is_err());
        // Anti-Reversi moves as Othello: the same seed draws the same openings.
        let anti = random_openings(10, 8, 5, Variant::Anti).unwrap();
        let othello = random_openings(10, 8, 5, Variant::Othello).unwrap();
        for (a, o) in anti.iter().zip(&othello) {
            assert_eq!((a.variant(), &a.moves), (Variant::Anti, &o.moves));
        }
    }
}
