//! The console's answer lines: scores, moves and lines.

use super::super::text::move_lower;
use crate::board::Move;
use crate::eval::to_discs;
use crate::search::MultiPvIteration;
use crate::search::{ScoreKind, SearchResult};

/// A score as the console writes it: `+0.50` (midgame, book), `+4` (exact),
/// `win`.
pub fn format_score(score: i32, kind: ScoreKind) -> String {
    match kind {
        ScoreKind::Midgame(_) | ScoreKind::SelectiveEnd { .. } | ScoreKind::Book { .. } => {
            format!("{:+.2}", to_discs(score))
        }
        ScoreKind::Exact => format!("{:+}", crate::eval::whole_discs(score)),
        ScoreKind::WinLossDraw => match score.signum() {
            1 => "win".into(),
            0 => "draw".into(),
            _ => "loss".into(),
        },
    }
}

/// The depth field: `12`, `24@73%` (a selective search to the end of the
/// game from 24 empties, as Edax writes it), `exact`, `wld` or `book`.
fn format_depth(kind: ScoreKind) -> String {
    kind.to_string()
}

fn format_pv(pv: &[Move]) -> String {
    pv.iter()
        .map(|m| move_lower(*m))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `move f5 score +0.50 depth 12 nodes 1234 time 0.52 pv f5 d6 c3`, with the
/// result's own nodes and time (those of its iteration).
pub fn format_result(r: &SearchResult) -> String {
    format_answer(r, r.nodes, r.elapsed)
}

/// [`format_result`] with the given nodes and time (a finished job's totals);
/// a forced pass, which is not searched, is `move pass (forced: no legal move)
/// nodes N time T`.
pub fn format_answer(r: &SearchResult, nodes: u64, elapsed: std::time::Duration) -> String {
    let best = r.best.map_or_else(|| "none".to_string(), move_lower);
    let time = elapsed.as_secs_f64();
    if r.best == Some(Move::Pass) && r.pv.len() <= 1 {
        return format!("move pass (forced: no legal move) nodes {nodes} time {time:.2}");
    }
    if !r.searched() {
        return format!(
            "move {best} (stopped before any depth was searched: the first legal move) \
             nodes {nodes} time {time:.2}"
        );
    }
    format!(
        "move {best} score {} depth {} nodes {nodes} time {time:.2} pv {}",
        format_score(r.score, r.kind),
        format_depth(r.kind),
        format_pv(&r.pv)
    )
}

/// The lines of a hint: `hint f5 score +0.50 depth 12 pv f5 d6 c3`, best first
/// (`hint`, not `move`: nothing is played).
pub fn format_hint(it: &MultiPvIteration) -> Vec<String> {
    it.lines
        .iter()
        .map(|l| {
            let mv =
                l.pv.first()
                    .map_or_else(|| "none".to_string(), |m| move_lower(*m));
            format!(
                "hint {mv} score {} depth {} pv {}",
                format_score(l.score, it.kind),
                format_depth(it.kind),
                format_pv(&l.pv)
            )
        })
        .collect()
}

/// A position's book moves as the lines of a hint (its depth `book`).
pub fn book_iteration(moves: &[crate::book::BookMove]) -> MultiPvIteration {
    MultiPvIteration {
        kind: ScoreKind::Book {
            depth: moves.first().map_or(0, |m| u32::from(m.depth)),
        },
        lines: moves
            .iter()
            .map(|m| crate::search::PvLine {
                score: i32::from(m.score),
                pv: vec![Move::Play(m.square)],
            })
            .collect(),
        nodes: 0,
        elapsed: std::time::Duration::ZERO,
    }
}

/// Nodes per second, rounded; 0 before any time has passed.
fn speed(nodes: u64, elapsed: std::time::Duration) -> u64 {
    let s = elapsed.as_secs_f64();
    if s > 0.0 {
        (nodes as f64 / s) as u64
    } else {
        0
    }
}

/// A progress line after a completed depth of `go` or `solve`:
/// `info depth 12 score +0.50 nodes 1234 nps 2373 time 0.52 pv f5 d6 c3`.
pub fn format_progress(r: &SearchResult) -> String {
    info_line(r.kind, r.score, r.nodes, r.elapsed, &r.pv)
}

/// A progress line after a completed depth of `hint`, for its best move (as
/// [`format_progress`]).
pub fn format_hint_progress(it: &MultiPvIteration) -> Option<String> {
    let best = it.lines.first()?;
    Some(info_line(
        it.kind, best.score, it.nodes, it.elapsed, &best.pv,
    ))
}

fn info_line(
    kind: ScoreKind,
    score: i32,
    nodes: u64,
    elapsed: std::time::Duration,
    pv: &[Move],
) -> String {
    format!(
        "info depth {} score {} nodes {nodes} nps {} time {:.2} pv {}",
        format_depth(kind),
        format_score(score, kind),
        speed(nodes, elapsed),
        elapsed.as_secs_f64(),
        format_pv(pv)
    )
}

/// The game's moves, the last one in brackets: `played (3): f5 d6 [c3]`, or
/// `played: none`.
pub fn format_played(moves: &[Move]) -> String {
    match moves.split_last() {
        None => "played: none".to_string(),
        Some((last, before)) => {
            let mut text = format!("played ({}):", moves.len());
            for m in before {
                text.push(' ');
                text.push_str(&move_lower(*m));
            }
            format!("{text} [{}]", move_lower(*last))
        }
    }
}
