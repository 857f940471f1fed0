//! The weights of the mobility-first evaluation, in centi-discs per unit of
//! feature (see [`Features`](super::features::Features)).
//!
//! There are two anchors: [`MIDGAME`], used unchanged from the start down to
//! [`DISC_FREE_EMPTIES`] empties, and [`ENDGAME`] (discs only, one disc worth
//! [`DISC`]) at [`LAST_EMPTIES`]. In between every weight moves from the first to
//! the second along [`RAMP`], which rises as the cube of the progress through those
//! last 19 empties: the disc term stays small until the very end of the game and the
//! mobility terms give way to it only then.
//!
//! The values were tuned by hand in depth-4 alpha-beta matches of 1000–4000 games
//! (random 8-ply openings, each played with both colours) between variants, and
//! against the disc count. "Lost N" in a reason is the average final margin, in
//! discs, that changing the weight to the value named cost against the chosen
//! weights (noise is about one disc).

use super::DISC;

/// Empties at or above which the disc difference counts for nothing (the
/// project's rule; from here the endgame ramp starts). The learned weights'
/// layout shares it, so it is defined with that layout.
pub use crate::knowledge::layout::DISC_FREE_EMPTIES;
/// Empties at the last placement, where the disc difference reaches full weight.
pub const LAST_EMPTIES: u32 = 1;
/// The ramp's resolution: [`RAMP`] runs from 0 to this.
pub const RAMP_ONE: i32 = 1 << 12;

/// Per move of mobility difference (before damping): the heart of it; 100 and 300 both lost 3–5.
pub const MOBILITY: i32 = 200;
/// Mobility is scaled by `D / (total moves + D)`, so a move counts more when moves are scarce;
/// D = 10 or 40 lost 3–5 discs, a plain undamped count 0–2.
pub const MOBILITY_DAMPING: i32 = 20;
/// Per legal move onto a corner, on top of its mobility (a move never taken back); 0 lost 3–4.
pub const CORNER_MOVE: i32 = 250;
/// Per empty square next to the other side's discs (future moves); 0 lost 0.5–4 discs.
pub const POTENTIAL_MOBILITY: i32 = 30;
/// Per corner held: never turned, and it anchors stable edges; 200 lost 2.5, 1200 lost 1.
pub const CORNER: i32 = 500;
/// Per X-square held beside an empty corner: it opens the diagonal to it; -150 lost 2–4.
pub const X_SQUARE: i32 = -300;
/// Per C-square held beside an empty corner: a slower corner risk than an X; -200 lost 3.
pub const C_SQUARE: i32 = -100;
/// Per stable edge disc (a run from an owned corner, or on a full edge); 0 lost 6, 300 lost 1.
pub const STABLE_EDGE: i32 = 150;
/// Per disc short of [`WIPEOUT_DISCS`]: a wipe-out loses everything; cuts losses to the disc
/// count from 1.1 % to 0.03 % of games for under one disc in self-play.
pub const WIPEOUT: i32 = -300;
/// Disc count below which [`WIPEOUT`] applies: 4 left a third of those losses, 8 cost 3+ discs.
pub const WIPEOUT_DISCS: u32 = 6;

/// The weight of each feature at one phase, in centi-discs per unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Per move of mobility difference, before damping.
    pub mobility: i32,
    /// Per move onto a corner, on top of its mobility.
    pub corner_moves: i32,
    /// Per square of potential mobility.
    pub potential_mobility: i32,
    /// Per corner held.
    pub corners: i32,
    /// Per X-square held beside an empty corner.
    pub x_squares: i32,
    /// Per C-square held beside an empty corner.
    pub c_squares: i32,
    /// Per stable edge disc.
    pub stable_edges: i32,
    /// Per disc short of [`WIPEOUT_DISCS`].
    pub wipeout: i32,
    /// Per disc of disc difference.
    pub discs: i32,
}

/// The weights from the start down to [`DISC_FREE_EMPTIES`]: mobility first, discs
/// count for nothing.
pub const MIDGAME: Weights = Weights {
    mobility: MOBILITY,
    corner_moves: CORNER_MOVE,
    potential_mobility: POTENTIAL_MOBILITY,
    corners: CORNER,
    x_squares: X_SQUARE,
    c_squares: C_SQUARE,
    stable_edges: STABLE_EDGE,
    wipeout: WIPEOUT,
    discs: 0,
};

/// The weights at [`LAST_EMPTIES`] and below: the disc difference alone, one disc
/// worth [`DISC`].
pub const ENDGAME: Weights = Weights {
    mobility: 0,
    corner_moves: 0,
    potential_mobility: 0,
    corners: 0,
    x_squares: 0,
    c_squares: 0,
    stable_edges: 0,
    wipeout: 0,
    discs: DISC,
};

/// The endgame ramp in units of [`RAMP_ONE`]: 0 at [`DISC_FREE_EMPTIES`] empties
/// and above, [`RAMP_ONE`] at [`LAST_EMPTIES`] and below, the cube of the progress
/// in between (a linear rise lost 6 discs, a square root 13, a square 1; a fourth
/// power was level).
pub static RAMP: [i32; 65] = {
    let mut t = [0; 65];
    let span = (DISC_FREE_EMPTIES - LAST_EMPTIES) as i64;
    let mut e = 0;
    while e < 65 {
        // Placements made since the ramp started, 0..=span.
        let done = DISC_FREE_EMPTIES.saturating_sub(e as u32) as i64;
        let done = if done > span { span } else { done };
        t[e] = ((done * done * done * RAMP_ONE as i64 + span * span * span / 2)
            / (span * span * span)) as i32;
        e += 1;
    }
    t
};

/// `a` at `t = 0` moving to `b` at `t = RAMP_ONE`, rounded half away from zero
/// (so that negated anchors give negated weights).
const fn lerp(a: i32, b: i32, t: i32) -> i32 {
    let num = a * (RAMP_ONE - t) + b * t;
    if num >= 0 {
        (num + RAMP_ONE / 2) / RAMP_ONE
    } else {
        (num - RAMP_ONE / 2) / RAMP_ONE
    }
}

/// The weights for `empties` empty squares: [`MIDGAME`] moving to [`ENDGAME`]
/// along [`RAMP`].
pub const fn at(empties: u32) -> Weights {
    let t = RAMP[if empties > 64 { 64 } else { empties as usize }];
    let (a, b) = (&MIDGAME, &ENDGAME);
    Weights {
        mobility: lerp(a.mobility, b.mobility, t),
        corner_moves: lerp(a.corner_moves, b.corner_moves, t),
        potential_mobility: lerp(a.potential_mobility, b.potential_mobility, t),
        corners: lerp(a.corners, b.corners, t),
        x_squares: lerp(a.x_squares, b.x_squares, t),
        c_squares: lerp(a.c_squares, b.c_squares, t),
        stable_edges: lerp(a.stable_edges, b.stable_edges, t),
        wipeout: lerp(a.wipeout, b.wipeout, t),
        discs: lerp(a.discs, b.discs, t),
    }
}

/// [`at`] for every count of empties 0..=64, looked up by the evaluation.
pub static BY_EMPTIES: [Weights; 65] = {
    let mut t = [ENDGAME; 65];
    let mut e = 0;
    while e < 65 {
        t[e] = at(e as u32);
        e += 1;
    }
    t
};

/// The mobility damping `D / (total + D)` in units of 2^16, indexed by both sides'
/// total moves (capped at 127).
pub static MOBILITY_SCALE: [i32; 128] = {
    let mut t = [0; 128];
    let d = MOBILITY_DAMPING as i64;
    let mut total = 0;
    while total < 128 {
        t[total] = (((d << 16) + (total as i64 + d) / 2) / (total as i64 + d)) as i32;
        total += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn disc_weight_is_zero_early_and_full_at_the_last_placement() {
        for e in DISC_FREE_EMPTIES..=64 {
            assert_eq!(at(e).discs, 0, "{e} empties");
            assert_eq!(at(e), MIDGAME);
        }
        assert_eq!(at(1), ENDGAME);
        assert_eq!(at(0), ENDGAME);
        for e in 1..DISC_FREE_EMPTIES {
            assert!(at(e).discs >= at(e + 1).discs, "rises towards the end");
            assert!(at(e).mobility <= at(e + 1).mobility, "mobility fades");
        }
        assert!(at(2).discs < DISC, "full weight only at the last placement");
    }

    #[test]
    fn mobility_scale_is_one_with_no_moves_and_falls() {
        assert_eq!(MOBILITY_SCALE[0], 1 << 16);
        assert_eq!(MOBILITY_SCALE[MOBILITY_DAMPING as usize], 1 << 15);
        assert!(MOBILITY_SCALE.windows(2).all(|w| w[0] >= w[1]));
    }
}
