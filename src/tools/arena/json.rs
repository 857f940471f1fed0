//! `mollett match --json`: the report as one JSON object, for scripts and
//! dashboards. Elo ends that are infinite (no win or no loss yet) are `null`.

use super::report::{pair_summary, standings};
use super::sprt::Sprt;
use super::stats::{EloEstimate, Wdl};
use super::{GameResult, RunEnd};
use serde_json::{Value, json};

/// A finite number, or `null`.
fn finite(x: f64) -> Value {
    if x.is_finite() {
        json!((x * 1e6).round() / 1e6)
    } else {
        Value::Null
    }
}

fn elo(e: Option<EloEstimate>) -> Value {
    e.map_or(
        Value::Null,
        |e| json!({"elo": finite(e.elo), "low": finite(e.low), "high": finite(e.high)}),
    )
}

/// The report of `results` between `names` (`games` per pairing), the test
/// and the first pairing's W/D/L when `--sprt` ran, and how the run ended.
pub fn json_report(
    results: &[GameResult],
    names: &[String],
    games: usize,
    sprt: Option<&(Sprt, Wdl)>,
    end: RunEnd,
) -> Value {
    let mut pairs = Vec::new();
    for a in 0..names.len() {
        for b in a + 1..names.len() {
            let s = pair_summary(results, a, b);
            pairs.push(json!({
                "first": names[a],
                "second": names[b],
                "games": s.wdl.games(),
                "wins": s.wdl.wins,
                "draws": s.wdl.draws,
                "losses": s.wdl.losses,
                "score": s.wdl.score().map_or(Value::Null, finite),
                "elo": elo(s.elo),
                "pentanomial": s.pentanomial,
                "elo_by_pairs": elo(s.pair_elo),
                "mean_margin": s.mean_margin.map_or(Value::Null, finite),
                "played_out": s.played,
                "passes": s.passes,
                "ended_with_empties": s.ended_with_empties,
                "adjudicated": s.adjudicated,
                "forfeits": {names[a].as_str(): s.forfeits[0], names[b].as_str(): s.forfeits[1]},
            }));
        }
    }
    let table: Vec<Value> = if names.len() >= 3 {
        standings(results, names.len(), games)
            .iter()
            .map(|r| {
                json!({
                    "entrant": names[r.entrant],
                    "points": r.wdl.points(),
                    "wins": r.wdl.wins,
                    "draws": r.wdl.draws,
                    "losses": r.wdl.losses,
                    "discs": r.discs,
                    "brightwell": finite(r.bq),
                    "withdrew": r.withdrew,
                })
            })
            .collect()
    } else {
        Vec::new()
    };
    let test = sprt.map_or(Value::Null, |(t, wdl)| {
        let llr = t.llr(wdl);
        let (lower, upper) = t.bounds();
        json!({
            "elo0": t.elo0, "elo1": t.elo1, "alpha": t.alpha, "beta": t.beta,
            "llr": finite(llr), "lower": finite(lower), "upper": finite(upper),
            "verdict": t.verdict(llr).map(|v| v.to_string()),
        })
    });
    let forfeits: Vec<Value> = results
        .iter()
        .filter_map(|r| {
            let f = r.outcome.forfeit.as_ref()?;
            let [b, w] = r.game.colours();
            let loser = if f.loser == crate::Color::Black { b } else { w };
            Some(json!({"game": r.game.index + 1, "loser": names[loser], "fault": f.fault.to_string()}))
        })
        .collect();
    json!({
        "entrants": names,
        "games": results.len(),
        "end": match end {
            RunEnd::Finished => "finished".to_string(),
            RunEnd::Decided => "decided".to_string(),
            RunEnd::Interrupted(sig) => format!("interrupted by signal {sig}"),
        },
        "pairs": pairs,
        "standings": table,
        "sprt": test,
        "forfeits": forfeits,
    })
}
