//! Fitting the Multi-ProbCut regressions (`mollett probcut`): Mollett's own
//! full-width searches of positions from its self-play data, at every depth
//! from 0 to a limit, and per depth a least-squares line from the shallow
//! search's score to the deep one's (see [`crate::search::probcut`]).
//!
//! The searches of a position are kept in a line-oriented scores file, one
//! position a line, written as each finishes, so a long job resumes where it
//! stopped and can be split over machines (the files concatenate):
//!
//! ```text
//! ---------------------------OX------XO--------------------------- X 12 -30 25 ...
//! ```
//!
//! the board string and side, then the score in centi-discs at depth 0 (the
//! evaluation), 1, 2, … Each position is searched with a table of its own, so
//! its scores do not depend on the order or the threads.
//!
//! Anti-Reversi's regressions come the same way from Anti-Reversi data: its
//! positions are searched under its rules with its learned weights
//! ([`depth_scores`] is generic over the rules), and their lines end in `anti`,
//! as the training files' do, so the two kinds never mix in one fit.

use super::sample::Sample;
use crate::eval::{EvalKind, MAX_MARGIN};
use crate::format::{parse_board_prefix, write_board_string};
use crate::knowledge::mpc::{Pair, ProbCutFile, Regression, shallow_depth};
use crate::rules::Position;
use crate::rules::Variant;
use crate::search::RuleSearch;
use crate::search::midgame::{INF, Midgame};
use crate::search::probcut::PROBCUT_MIN_DEPTH;
use crate::tt::TranspositionTable;
use std::collections::BTreeMap;
use std::sync::atomic::AtomicBool;

/// The phases the regressions are fitted for: this many empties each, from
/// [`FIRST_PHASE_EMPTIES`] up to 59.
pub const PHASE_WIDTH: u32 = 8;
/// Positions with fewer empties are not sampled: the levels solve them.
pub const FIRST_PHASE_EMPTIES: u32 = 12;
/// A row needs at least this many positions: fewer give a standard deviation
/// too rough to cut at 1.1 of them.
pub const MIN_ROW_SAMPLES: usize = 40;
/// Table size of one position's searches, in MB: enough for a full-width
/// depth-12 tree's useful part, small enough to allocate per position.
const SEARCH_HASH_MB: usize = 8;

/// The phase (first and last empties) of a position with `empties` empties.
pub fn phase(empties: u32) -> (u32, u32) {
    let last = (59 - FIRST_PHASE_EMPTIES) / PHASE_WIDTH;
    let i = (empties.saturating_sub(FIRST_PHASE_EMPTIES) / PHASE_WIDTH).min(last);
    let lo = FIRST_PHASE_EMPTIES + i * PHASE_WIDTH;
    (lo, (lo + PHASE_WIDTH - 1).min(59))
}

/// One position's searches: `scores[d]` at depth `d`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DepthScores {
    /// The position searched.
    pub position: Position,
    /// The rules (and with them the weights) it was searched under.
    pub rules: Variant,
    /// Centi-discs for the side to move, depth 0 (the evaluation) upwards.
    pub scores: Vec<i32>,
}

impl DepthScores {
    /// The line of the scores file: ` anti` after the scores for Anti-Reversi.
    pub fn line(&self) -> String {
        let mut s = write_board_string(&self.position);
        for v in &self.scores {
            s += &format!(" {v}");
        }
        if self.rules == Variant::Anti {
            s += " anti";
        }
        s
    }

    /// Parses a line of the scores file.
    pub fn parse(line: &str) -> Result<DepthScores, String> {
        let (position, used) = parse_board_prefix(line).map_err(|e| e.to_string())?;
        let rest = line[used..].trim_end();
        let (rest, rules) = match rest.strip_suffix(" anti") {
            Some(scores) => (scores, Variant::Anti),
            None => (rest, Variant::Othello),
        };
        let scores = rest
            .split_ascii_whitespace()
            .map(|t| {
                t.parse::<i32>()
                    .ok()
                    .filter(|v| v.abs() <= MAX_MARGIN)
                    .ok_or_else(|| format!("'{t}' is not a score in centi-discs"))
            })
            .collect::<Result<Vec<_>, _>>()?;
        if scores.is_empty() {
            return Err("no scores after the position".into());
        }
        Ok(DepthScores {
            position,
            rules,
            scores,
        })
    }
}

/// Picks up to `per_phase` positions of each phase from `samples`, spread by a
/// seeded hash (the same data and seed pick the same positions), each position
/// once, with at least [`PROBCUT_MIN_DEPTH`] + 1 empties and a move to play.
pub fn pick_positions(samples: &[Sample], per_phase: usize, seed: u64) -> Vec<Position> {
    let mut by_phase: BTreeMap<(u32, u32), BTreeMap<u64, Position>> = BTreeMap::new();
    for s in samples {
        let b = s.board();
        let e = b.empties();
        if e < FIRST_PHASE_EMPTIES || b.moves() == 0 {
            continue;
        }
        let key = crate::rng::Rng::new(b.hash() ^ seed).next_u64();
        by_phase
            .entry(phase(e))
            .or_default()
            .insert(key, s.position);
    }
    by_phase
        .into_values()
        .flat_map(|m| m.into_values().take(per_phase))
        .collect()
}

/// The depth-0 score of `position` that [`depth_scores`] records: the learned
/// evaluation in use, under the rules `R`.
pub fn static_score<R: RuleSearch>(position: Position) -> i32 {
    let board = position.othello_like(R::WEIGHTS).view::<R>();
    R::evaluate(EvalKind::Learned, &board)
}

/// Whether `d` holds every depth a run to `max_depth` searches: up to
/// `max_depth`, or to one less than the empties, as [`depth_scores`] stops.
pub fn reaches(d: &DepthScores, max_depth: u32) -> bool {
    let deepest = max_depth.min(d.position.board.empties().saturating_sub(1));
    d.scores.len() as u32 > deepest
}

/// Searches `position` under the rules `R` (whose positions are the board
/// alone: Othello, Anti-Reversi) full width with their learned evaluation at
/// every depth from 0 to `max_depth` (and below its empties, where the search
/// would turn into an exact solve); `None` if `stop` cut it short.
pub fn depth_scores<R: RuleSearch>(
    position: Position,
    max_depth: u32,
    stop: &AtomicBool,
) -> Result<Option<DepthScores>, crate::tt::TtError> {
    let variant = R::WEIGHTS;
    let board = position.othello_like(variant).view::<R>();
    let tt = TranspositionTable::new(SEARCH_HASH_MB)?;
    let eval = EvalKind::Learned;
    let mut search = Midgame::<R>::new(&tt, stop, eval);
    let mut scores = vec![R::evaluate(eval, &board)];
    for depth in 1..=max_depth.min(position.board.empties() - 1) {
        let line = search.pvs(board, depth, -INF, INF);
        if search.aborted() {
            return Ok(None);
        }
        scores.push(line.score);
    }
    Ok(Some(DepthScores {
        position,
        rules: R::WEIGHTS,
        scores,
    }))
}

/// Least squares `y ≈ a·x + b` and the residuals' standard deviation.
fn line_fit(points: &[(f64, f64)]) -> Option<(f64, f64, f64)> {
    let n = points.len() as f64;
    let (sx, sy) = points
        .iter()
        .fold((0.0, 0.0), |(sx, sy), &(x, y)| (sx + x, sy + y));
    let (mx, my) = (sx / n, sy / n);
    let (mut sxx, mut sxy) = (0.0, 0.0);
    for &(x, y) in points {
        sxx += (x - mx) * (x - mx);
        sxy += (x - mx) * (y - my);
    }
    if sxx <= 0.0 || points.len() < 3 {
        return None;
    }
    let a = sxy / sxx;
    let b = my - a * mx;
    let rss: f64 = points.iter().map(|&(x, y)| (y - a * x - b).powi(2)).sum();
    Some((a, b, (rss / (n - 2.0)).sqrt()))
}

/// Fits the regressions from the searches in `data` (any order: they are
/// sorted first, so the result depends only on the set), tied to the weights
/// whose checksum is `weights`.
pub fn fit(data: &[DepthScores], weights: u64, note: &str) -> Result<ProbCutFile, String> {
    let mut data: Vec<&DepthScores> = data.iter().collect();
    data.sort_by_key(|d| d.line());
    let max_depth = data.iter().map(|d| d.scores.len() as u32 - 1).max();
    let mut pairs = Vec::new();
    for depth in PROBCUT_MIN_DEPTH..=max_depth.unwrap_or(0) {
        let shallow = shallow_depth(depth);
        let mut rows: BTreeMap<(u32, u32), Vec<(f64, f64)>> = BTreeMap::new();
        for d in &data {
            if let (Some(&x), Some(&y)) =
                (d.scores.get(shallow as usize), d.scores.get(depth as usize))
            {
                let p = phase(d.position.board.empties());
                rows.entry(p)
                    .or_default()
                    .push((f64::from(x), f64::from(y)));
            }
        }
        for ((lo, hi), points) in rows {
            if points.len() < MIN_ROW_SAMPLES {
                continue;
            }
            let Some((a, b, sigma)) = line_fit(&points) else {
                continue;
            };
            if a <= 0.0 || sigma <= 0.0 {
                continue;
            }
            pairs.push(Pair {
                depth,
                empties_lo: lo,
                empties_hi: hi,
                fit: Regression {
                    shallow,
                    a,
                    b,
                    sigma,
                },
                samples: points.len() as u32,
            });
        }
    }
    if pairs.is_empty() {
        return Err(format!(
            "too few searches to fit any regression (a row needs {MIN_ROW_SAMPLES} positions of one phase searched to depth {PROBCUT_MIN_DEPTH})"
        ));
    }
    Ok(ProbCutFile {
        weights,
        note: note.to_string(),
        extend: extend_sigma(&pairs),
        pairs,
    })
}

/// `σ ≈ s0 + s1·empties + s2·depth`, least squares over the rows weighted by
/// their samples (a phase counts at its middle).
fn extend_sigma(pairs: &[Pair]) -> [f64; 3] {
    // Normal equations of the three-parameter fit.
    let mut m = [[0.0f64; 3]; 3];
    let mut v = [0.0f64; 3];
    for p in pairs {
        let e = f64::from(p.empties_lo + p.empties_hi) / 2.0;
        let x = [1.0, e, f64::from(p.depth)];
        let w = f64::from(p.samples);
        for i in 0..3 {
            for j in 0..3 {
                m[i][j] += w * x[i] * x[j];
            }
            v[i] += w * x[i] * p.fit.sigma;
        }
    }
    solve3(m, v).unwrap_or_else(|| {
        // Too few distinct rows for three parameters: the widest row's σ.
        let widest = pairs.iter().map(|p| p.fit.sigma).fold(0.0, f64::max);
        [widest, 0.0, 0.0]
    })
}

/// Solves the 3×3 system `m·x = v` by Gaussian elimination with pivoting.
fn solve3(mut m: [[f64; 3]; 3], mut v: [f64; 3]) -> Option<[f64; 3]> {
    for col in 0..3 {
        let pivot = (col..3).max_by(|&a, &b| m[a][col].abs().total_cmp(&m[b][col].abs()))?;
        if m[pivot][col].abs() < 1e-9 {
            return None;
        }
        m.swap(col, pivot);
        v.swap(col, pivot);
        for row in 0..3 {
            if row != col {
                let f = m[row][col] / m[col][col];
                let pivot_row = m[col];
                for (x, p) in m[row].iter_mut().zip(pivot_row) {
                    *x -= f * p;
                }
                v[row] -= f * v[col];
            }
        }
    }
    Some([v[0] / m[0][0], v[1] / m[1][1], v[2] / m[2][2]])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::tools::learn::sample::LabelKind;

    #[test]
    fn the_small_solver_solves() {
        // x + 2y + 3z = 14, 2x + y = 4, 3y + z = 9 → (1, 2, 3); no pivot at the
        // start of the third column without the row swap.
        let m = [[1.0, 2.0, 3.0], [2.0, 1.0, 0.0], [0.0, 3.0, 1.0]];
        let x = solve3(m, [14.0, 4.0, 9.0]).unwrap();
        assert!(
            x.iter()
                .zip([1.0, 2.0, 3.0])
                .all(|(a, b)| (a - b).abs() < 1e-9)
        );
        assert!(
            solve3(
                [[1.0, 1.0, 0.0], [1.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
                [1.0; 3]
            )
            .is_none()
        );
    }

    #[test]
    fn phases_tile_the_empties() {
        assert_eq!(phase(12), (12, 19));
        assert_eq!(phase(19), (12, 19));
        assert_eq!(phase(20), (20, 27));
        assert_eq!(phase(59), (52, 59));
        assert_eq!(phase(60), (52, 59));
    }

    #[test]
    fn a_scores_line_round_trips_and_bad_lines_are_refused() {
        let d = DepthScores {
            position: Position::START,
            rules: Variant::Othello,
            scores: vec![0, -120, 35],
        };
        assert_eq!(DepthScores::parse(&d.line()), Ok(d.clone()));
        let anti = DepthScores {
            rules: Variant::Anti,
            ..d.clone()
        };
        assert!(anti.line().ends_with(" 0 -120 35 anti"), "{}", anti.line());
        assert_eq!(DepthScores::parse(&anti.line()), Ok(anti));
        let board = write_board_string(&Position::START);
        assert!(DepthScores::parse(&board).is_err());
        assert!(DepthScores::parse(&format!("{board} anti")).is_err());
        assert!(DepthScores::parse(&format!("{board} 1 x")).is_err());
        assert!(DepthScores::parse(&format!("{board} 1 anti 2")).is_err());
        assert!(DepthScores::parse(&format!("{board} 99999")).is_err());
    }

    #[test]
    fn anti_positions_are_searched_under_anti_rules_and_weights() {
        use crate::rules::{Anti, Othello};
        let stop = AtomicBool::new(false);
        let mut checked = 0;
        for board in crate::test_positions::random_positions(2) {
            if board.empties() < 20 || board.moves() == 0 {
                continue;
            }
            let p = Position {
                board,
                ..Position::START
            };
            let d = depth_scores::<Anti>(p, 1, &stop).unwrap().unwrap();
            assert_eq!(d.rules, Variant::Anti);
            assert_eq!(d.scores[0], Anti::evaluate(EvalKind::Learned, &board));
            // Depth 1 is the best child by the Anti-Reversi evaluation, where
            // no child has to pass.
            let children: Vec<Board> = crate::board::bitboard::Squares(board.moves())
                .map(|sq| board.make(sq, board.flips(sq)))
                .collect();
            if children.iter().all(|c| c.moves() != 0) {
                let best = children
                    .iter()
                    .map(|c| -Anti::evaluate(EvalKind::Learned, c))
                    .max();
                assert_eq!(Some(d.scores[1]), best, "{board:?}");
                checked += 1;
            }
            let o = depth_scores::<Othello>(p, 1, &stop).unwrap().unwrap();
            assert_eq!(o.rules, Variant::Othello);
            assert_eq!(o.scores[0], Othello::evaluate(EvalKind::Learned, &board));
        }
        assert!(checked >= 20, "{checked} positions checked");
    }

    #[test]
    fn the_fit_recovers_a_known_line() {
        // At depth 3 (shallow 1): deep = 0.8 · shallow + 50, ± 10 alternately:
        // the fit must find a = 0.8, b = 50, σ ≈ 10, whatever the order of the
        // data.
        let mut data = Vec::new();
        for i in 0..60i32 {
            let mut b = Board::START;
            b.player |= 1u64 << (i % 20);
            b.opponent |= 1u64 << (40 + i / 20);
            let v = (i * 37) % 900 - 450;
            let noise = if i % 2 == 0 { 10 } else { -10 };
            let deep = (4 * v) / 5 + 50 + noise;
            data.push(DepthScores {
                position: Position {
                    board: b,
                    ..Position::START
                },
                rules: Variant::Othello,
                scores: vec![v, v, v, deep],
            });
        }
        let f = fit(&data, 7, "test").unwrap();
        assert_eq!(f.pairs.len(), 1, "depth 3 only: the scores stop there");
        let r = f.pairs[0];
        assert_eq!((r.depth, r.fit.shallow, r.samples), (3, 1, 60));
        assert!((r.fit.a - 0.8).abs() < 0.01, "{r:?}");
        assert!((r.fit.b - 50.0).abs() < 2.0, "{r:?}");
        assert!((r.fit.sigma - 10.0).abs() < 1.0, "{r:?}");
        data.reverse();
        assert_eq!(fit(&data, 7, "test").unwrap(), f);
        assert!(fit(&data[..5], 7, "test").is_err(), "too few positions");
    }

    #[test]
    fn picking_is_seeded_balanced_and_skips_endgames() {
        let samples: Vec<Sample> = crate::test_positions::random_positions(30)
            .into_iter()
            .map(|board| Sample {
                position: Position {
                    board,
                    ..Position::START
                },
                label: 0,
                kind: LabelKind::Game,
                game: 0,
            })
            .collect();
        let a = pick_positions(&samples, 10, 1);
        assert_eq!(a, pick_positions(&samples, 10, 1));
        assert_ne!(a, pick_positions(&samples, 10, 2));
        assert!(a.iter().all(|p| p.board.empties() >= FIRST_PHASE_EMPTIES));
        let mut per_phase = BTreeMap::new();
        for p in &a {
            *per_phase.entry(phase(p.board.empties())).or_insert(0) += 1;
        }
        assert!(per_phase.values().all(|&n| n <= 10));
        assert_eq!(per_phase.len(), 6);
    }
}
