//! What a match reports: per pairing W/D/L, score, Elo with its interval,
//! pentanomial counts, disc margin, passes and early ends; for three or more
//! entrants a standings table with the Brightwell Quotient; and the forfeits.

use super::GameResult;
use super::stats::{BqRecord, EloEstimate, Wdl, brightwell, pair_elo, pentanomial};

/// One pairing's results, from the first entrant's point of view.
#[derive(Clone, Debug, PartialEq)]
pub struct PairSummary {
    /// The first entrant.
    pub first: usize,
    /// The second entrant.
    pub second: usize,
    /// The first entrant's wins, draws and losses.
    pub wdl: Wdl,
    /// The first entrant's Elo advantage (`None` without games).
    pub elo: Option<EloEstimate>,
    /// Colour-swapped pairs by the first entrant's points (0, ½, 1, 1½, 2).
    pub pentanomial: [u32; 5],
    /// The first entrant's Elo advantage measured over those pairs (`None`
    /// without pairs).
    pub pair_elo: Option<EloEstimate>,
    /// The mean disc margin for the first entrant over the games played out
    /// (forfeits, scored by adjudication, left out); `None` when every game
    /// was a forfeit.
    pub mean_margin: Option<f64>,
    /// Games played out (not forfeited).
    pub played: usize,
    /// Passes played in all.
    pub passes: usize,
    /// Games that ended with empty squares (every adjudicated one among them).
    pub ended_with_empties: usize,
    /// Games the runner adjudicated (`--adjudicate-*`).
    pub adjudicated: usize,
    /// Games lost by default by the first and by the second entrant.
    pub forfeits: [usize; 2],
}

/// The summary of the games between `first` and `second` (`first < second`).
pub fn pair_summary(results: &[GameResult], first: usize, second: usize) -> PairSummary {
    let games: Vec<&GameResult> = results
        .iter()
        .filter(|r| (r.game.first, r.game.second) == (first, second))
        .collect();
    let mut wdl = Wdl::default();
    let margins: Vec<i32> = games.iter().filter_map(|r| r.margin_for(first)).collect();
    margins.iter().for_each(|&m| wdl.add(m));
    let played: Vec<i32> = games
        .iter()
        .filter(|r| r.outcome.forfeit.is_none())
        .filter_map(|r| r.margin_for(first))
        .collect();
    let points = |m: i32| f64::from(m.signum() + 1) / 2.0;
    // Games 2k and 2k + 1 of a pairing share an opening with colours swapped.
    let pairs = games
        .chunks_exact(2)
        .filter(|c| c[0].game.round + 1 == c[1].game.round);
    let pair_points = pairs.map(|c| {
        c.iter()
            .filter_map(|r| r.margin_for(first))
            .map(points)
            .sum::<f64>()
    });
    let counts = pentanomial(pair_points);
    PairSummary {
        first,
        second,
        wdl,
        elo: wdl.elo(),
        pentanomial: counts,
        pair_elo: pair_elo(counts),
        mean_margin: (!played.is_empty())
            .then(|| played.iter().map(|&m| f64::from(m)).sum::<f64>() / played.len() as f64),
        played: played.len(),
        passes: games.iter().map(|r| r.outcome.passes).sum(),
        ended_with_empties: games.iter().filter(|r| r.outcome.empties > 0).count(),
        adjudicated: games.iter().filter(|r| r.outcome.adjudicated).count(),
        forfeits: [first, second].map(|e| games.iter().filter(|r| r.forfeited_by(e)).count()),
    }
}

fn signed(x: f64) -> String {
    if x.is_finite() {
        // Adding 0 turns -0 into +0.
        format!("{:+.1}", x + 0.0)
    } else if x > 0.0 {
        "+inf".into()
    } else {
        "-inf".into()
    }
}

/// The summary as text, one item per line.
pub fn format_pair(s: &PairSummary, names: &[String]) -> String {
    let (a, b) = (&names[s.first], &names[s.second]);
    let p = s.wdl.score().unwrap_or(0.5);
    let interval = |e: EloEstimate| {
        format!(
            "{} (95% interval {} .. {})",
            signed(e.elo),
            signed(e.low),
            signed(e.high)
        )
    };
    let elo = s.elo.map_or("none (no games)".into(), interval);
    let by_pairs = s.pair_elo.map_or("none (no pairs)".into(), interval);
    [
        format!("{a} vs {b}: {} games", s.wdl.games()),
        format!(
            "  W/D/L for {a}: {}/{}/{}, score {:.1}%",
            s.wdl.wins,
            s.wdl.draws,
            s.wdl.losses,
            100.0 * p
        ),
        format!("  Elo difference: {elo}"),
        format!(
            "  pentanomial (pairs scoring 0, 1/2, 1, 3/2, 2 for {a}): {}",
            s.pentanomial.map(|c| c.to_string()).join(" ")
        ),
        format!("  Elo by pairs: {by_pairs}"),
        match s.mean_margin {
            Some(m) => format!(
                "  mean disc margin for {a}: {m:+.2} over {} games played out",
                s.played
            ),
            None => "  mean disc margin: none (every game was forfeited)".to_string(),
        },
        format!(
            "  passes: {}, games ending with empties: {},{} forfeits: {} ({a} {}, {b} {}; \
             counted as losses, left out of the margin)",
            s.passes,
            s.ended_with_empties,
            if s.adjudicated > 0 {
                format!(" adjudicated: {},", s.adjudicated)
            } else {
                String::new()
            },
            s.forfeits[0] + s.forfeits[1],
            s.forfeits[0],
            s.forfeits[1]
        ),
    ]
    .join("\n")
}

/// One entrant's line of the standings.
#[derive(Clone, Debug, PartialEq)]
pub struct Standing {
    /// The entrant.
    pub entrant: usize,
    /// Its wins, draws and losses.
    pub wdl: Wdl,
    /// Its discs over all games (empties to the winner).
    pub discs: u32,
    /// Its Brightwell Quotient.
    pub bq: f64,
    /// Whether it withdrew (it failed to start in every game).
    pub withdrew: bool,
}

/// The standings of a round-robin of `entrants` with `games_per_pairing` games
/// per pairing: by points, then Brightwell Quotient, then discs.
///
/// The Brightwell Quotient counts rounds as a round-robin does: `n − 1` rounds
/// per cycle for an even number `n` of entrants, and `n` rounds with one bye
/// each for an odd number, one cycle per game of a pairing. Byes score no points
/// (every entrant has as many). An entrant that failed to start in every one of
/// its games counts as withdrawn.
pub fn standings(
    results: &[GameResult],
    entrants: usize,
    games_per_pairing: usize,
) -> Vec<Standing> {
    let withdrew: Vec<bool> = (0..entrants)
        .map(|e| {
            let mut own = results
                .iter()
                .filter(|r| r.margin_for(e).is_some())
                .peekable();
            own.peek().is_some()
                && own.all(|r| {
                    r.outcome.forfeit.as_ref().is_some_and(|f| {
                        matches!(f.fault, super::process::Fault::Start(_))
                            && r.game.colours()[usize::from(f.loser == crate::Color::White)] == e
                    })
                })
        })
        .collect();
    let cycles = games_per_pairing as u32;
    let (rounds, byes) = if entrants % 2 == 0 {
        ((entrants as u32 - 1) * cycles, 0)
    } else {
        (entrants as u32 * cycles, cycles)
    };
    let mut rows: Vec<Standing> = Vec::new();
    let mut records = Vec::new();
    for e in 0..entrants {
        let mut wdl = Wdl::default();
        let mut discs = 0;
        let mut bq = BqRecord {
            withdrawn_or_bye: byes,
            ..BqRecord::default()
        };
        for r in results {
            let Some(m) = r.margin_for(e) else { continue };
            wdl.add(m);
            let d = (64 + m).clamp(0, 128) as u32 / 2;
            discs += d;
            let [b, w] = r.game.colours();
            let opponent = if b == e { w } else { b };
            if withdrew[opponent] {
                bq.withdrawn_or_bye += 1;
            } else {
                bq.games.push((d, opponent));
            }
        }
        bq.points = wdl.points();
        records.push(bq);
        rows.push(Standing {
            entrant: e,
            wdl,
            discs,
            bq: 0.0,
            withdrew: withdrew[e],
        });
    }
    let points: Vec<f64> = rows.iter().map(|s| s.wdl.points()).collect();
    for (row, bq) in rows.iter_mut().zip(brightwell(&records, &points, rounds)) {
        row.bq = bq;
    }
    rows.sort_by(|x, y| {
        y.wdl
            .points()
            .total_cmp(&x.wdl.points())
            .then(y.bq.total_cmp(&x.bq))
            .then(y.discs.cmp(&x.discs))
    });
    rows
}

/// The standings as a table.
pub fn format_standings(rows: &[Standing], names: &[String]) -> String {
    let width = names.iter().map(|n| n.len()).max().unwrap_or(4).max(4);
    let mut out = vec![format!(
        "rank {:width$}  points  games   W   D   L  discs      BQ",
        "name"
    )];
    for (i, s) in rows.iter().enumerate() {
        out.push(format!(
            "{:>4} {:width$}  {:>6.1}  {:>5} {:>3} {:>3} {:>3}  {:>5}  {:>6.0}{}",
            i + 1,
            names[s.entrant],
            s.wdl.points(),
            s.wdl.games(),
            s.wdl.wins,
            s.wdl.draws,
            s.wdl.losses,
            s.discs,
            s.bq,
            if s.withdrew { "  (withdrew)" } else { "" }
        ));
    }
    out.join("\n")
}

/// One line per game lost by default: game number, who, and what happened.
pub fn format_forfeits(results: &[GameResult], names: &[String]) -> Vec<String> {
    results
        .iter()
        .filter_map(|r| {
            let f = r.outcome.forfeit.as_ref()?;
            let [b, w] = r.game.colours();
            let loser = if f.loser == crate::Color::Black { b } else { w };
            Some(format!(
                "game {}: {} ({}) {}",
                r.game.index + 1,
                names[loser],
                f.loser,
                f.fault
            ))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Color;
    use crate::format::GgfGame;
    use crate::rules::Position;
    use crate::tools::arena::game::{Forfeit, GameOutcome};
    use crate::tools::arena::process::Fault;
    use crate::tools::arena::schedule;

    /// The schedule of 3 entrants, 2 games per pairing, with Black's margins.
    fn results(black_margins: [i32; 6], forfeit: Option<usize>) -> Vec<GameResult> {
        schedule(3, 2, 1)
            .into_iter()
            .zip(black_margins)
            .map(|(game, margin)| {
                let forfeit = forfeit.and_then(|e| {
                    let [b, w] = game.colours();
                    let loser = if b == e {
                        Color::Black
                    } else if w == e {
                        Color::White
                    } else {
                        return None;
                    };
                    Some(Forfeit {
                        loser,
                        fault: Fault::Start("cannot run".into()),
                    })
                });
                GameResult {
                    game,
                    outcome: GameOutcome {
                        record: GgfGame::new(Position::START),
                        margin,
                        passes: 0,
                        empties: 0,
                        discs: [(64 + margin) as u32 / 2, (64 - margin) as u32 / 2],
                        forfeit,
                        adjudicated: false,
                    },
                }
            })
            .collect()
    }

    #[test]
    fn standings_break_a_tie_by_brightwell_quotient() {
        // Games: 0-1 (0 Black) +10, 1-0 (1 Black) -4, 0-2 (0 Black) -20, 2-0 0,
        // 1-2 (1 Black) +2, 2-1 (2 Black) +64.
        let rows = standings(&results([10, -4, -20, 0, 2, 64], None), 3, 2);
        // Points: 0 → 2.5, 1 → 1, 2 → 2.5. Discs: 0 → 37+34+22+32 = 125,
        // 1 → 27+30+33+0 = 90, 2 → 42+32+31+64 = 169. Three entrants, 2 games per
        // pairing: 6 rounds, c = round(64/6) = 11, two byes each.
        // BQ 0 = 125 + 11·(1+1+2.5+2.5) + 2·(32 + 11·2.5) = 125 + 77 + 119 = 321
        // BQ 1 = 90 + 11·(2.5·4) + 2·(32 + 11) = 90 + 110 + 86 = 286
        // BQ 2 = 169 + 11·(2.5+2.5+1+1) + 2·(32 + 27.5) = 169 + 77 + 119 = 365
        let order: Vec<(usize, f64, u32, f64)> = rows
            .iter()
            .map(|r| (r.entrant, r.wdl.points(), r.discs, r.bq))
            .collect();
        assert_eq!(
            order,
            [
                (2, 2.5, 169, 365.0),
                (0, 2.5, 125, 321.0),
                (1, 1.0, 90, 286.0)
            ]
        );
        assert!(rows.iter().all(|r| !r.withdrew));
        let table = format_standings(&rows, &["a".into(), "b".into(), "c".into()]);
        assert!(table.lines().nth(1).unwrap().contains(" c "), "{table}");
    }

    #[test]
    fn a_pairing_reports_its_elo_by_pairs() {
        // 0-1: entrant 0 wins with Black (+10) and with White (-4 for Black):
        // one pair of 2 points. 0-2: a loss (-20 with Black) and a draw.
        let r = results([10, -4, -20, 0, 2, 64], None);
        let names = ["a".to_string(), "b".into(), "c".into()];
        let s = pair_summary(&r, 0, 1);
        assert_eq!(s.pentanomial, [0, 0, 0, 0, 1]);
        assert_eq!(s.pair_elo.unwrap().elo, f64::INFINITY);
        let s = pair_summary(&r, 0, 2);
        assert_eq!(s.pentanomial, [0, 1, 0, 0, 0]);
        let e = s.pair_elo.unwrap();
        // One pair scoring 1/4: no spread, so the interval is the point itself.
        assert!((e.elo + 190.85).abs() < 0.01 && e.low == e.elo && e.high == e.elo);
        let text = format_pair(&s, &names);
        assert!(
            text.contains("  Elo by pairs: -190.8 (95% interval -190.8 .. -190.8)"),
            "{text}"
        );
    }

    #[test]
    fn an_entrant_that_never_starts_has_withdrawn() {
        // Entrant 1 loses every game by default (33-31 for the other side).
        let rows = standings(&results([2, -2, 20, 10, -2, 2], Some(1)), 3, 2);
        let one = rows.iter().find(|r| r.entrant == 1).unwrap();
        assert!(one.withdrew);
        // Entrant 0: 2 points from the forfeits, 1 from 0-2 (+20: 42 discs) and
        // none from 2-0 (-10 for it: 27 discs); entrant 2 also has 3. The games
        // against 1 count as withdrawn: BQ = 42 + 27 + 11·(3 + 3)
        // + (2 byes + 2 withdrawn)·(32 + 11·3).
        let zero = rows.iter().find(|r| r.entrant == 0).unwrap();
        let two = rows.iter().find(|r| r.entrant == 2).unwrap();
        assert_eq!(zero.wdl.points(), 3.0);
        assert_eq!(two.wdl.points(), 3.0);
        assert_eq!(zero.bq, 69.0 + 11.0 * 6.0 + 4.0 * (32.0 + 33.0));
    }
}
