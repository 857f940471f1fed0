//! Test fixture: every position of seeded random games. One file for the
//! library's own unit tests (`src/lib.rs` includes it by path) and for the
//! integration tests (`#[path = "common/positions.rs"] mod positions;`); the
//! including module brings `Board` and `Rng` into scope.

use super::{Board, Rng};

/// Every position of `games` seeded random games, game `g` drawn from seed `g`
/// (passes included, finished positions not).
pub fn random_positions(games: u64) -> Vec<Board> {
    let mut out = Vec::new();
    for seed in 0..games {
        let mut rng = Rng::new(seed);
        let mut b = Board::START;
        while !b.is_game_over() {
            out.push(b);
            let m = b.moves();
            b = if m == 0 {
                b.pass()
            } else {
                let sq = rng.pick_bit(m);
                b.make(sq, b.flips(sq))
            };
        }
    }
    out
}
