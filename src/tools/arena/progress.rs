//! A match's progress on stderr: a live bar when stderr is a terminal, and one
//! line per finished game when it is not (a script's log shows the match is
//! alive) or when asked (`--verbose`). Stdout keeps only the report.

use super::GameResult;
use crate::rules::Variant;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::time::{Duration, Instant};

/// The bar and the running points per entrant.
pub struct Progress {
    bar: Option<ProgressBar>,
    lines: bool,
    names: Vec<String>,
    points: Vec<f64>,
    total: usize,
    done: usize,
    /// Games finished in this run (not resumed), and when it began: the ETA.
    played: usize,
    began: Instant,
}

impl Progress {
    /// A bar for `total` games between `names` if stderr is a terminal, and
    /// a line per game if it is not or if `verbose`; `done` games (resumed)
    /// are counted already.
    pub fn new(total: usize, names: &[String], verbose: bool) -> Progress {
        let terminal = std::io::stderr().is_terminal();
        let bar = terminal.then(|| {
            let bar =
                ProgressBar::with_draw_target(Some(total as u64), ProgressDrawTarget::stderr());
            bar.set_style(
                ProgressStyle::with_template(
                    "{bar:30} {pos}/{len} games {elapsed_precise} eta {eta} {msg}",
                )
                .expect("a valid template"),
            );
            bar
        });
        Progress {
            bar,
            lines: verbose || !terminal,
            names: names.to_vec(),
            points: vec![0.0; names.len()],
            total,
            done: 0,
            played: 0,
            began: Instant::now(),
        }
    }

    /// Counts a game without a line (one of an earlier run, resumed).
    pub fn resumed(&mut self, r: &GameResult) {
        self.count(r);
        if let Some(bar) = &self.bar {
            bar.inc(1);
        }
    }

    /// Adds the game's points.
    fn count(&mut self, r: &GameResult) {
        self.done += 1;
        for (e, p) in self.points.iter_mut().enumerate() {
            if let Some(m) = r.margin_for(e) {
                *p += f64::from(m.signum() + 1) / 2.0;
            }
        }
    }

    /// The running score: `a 3, b 1.5`.
    fn score(&self) -> String {
        let score: Vec<String> = self
            .names
            .iter()
            .zip(&self.points)
            .map(|(n, p)| format!("{n} {p}"))
            .collect();
        score.join(", ")
    }

    /// The time left at this run's pace so far, `ETA 1h02m` (nothing before a
    /// game of this run has ended).
    fn eta(&self) -> Option<String> {
        if self.played == 0 {
            return None;
        }
        let left = self.total.saturating_sub(self.done) as f64;
        let per_game = self.began.elapsed().as_secs_f64() / self.played as f64;
        Some(format!(
            "ETA {}",
            clock(Duration::from_secs_f64(left * per_game))
        ))
    }

    /// One finished game: `game 7 (3/20 done, ETA 2m10s): a (black) 36-28 b
    /// (white); a 2, b 1`, then the test's state when there is one.
    fn line(&self, r: &GameResult, test: Option<&str>) -> String {
        let [b, w] = r.game.colours();
        let m = r.outcome.margin;
        // Othello's and Reversi's score is the discs with the empties to the
        // winner; Anti-Reversi's winner has fewer discs, so show the board's.
        let (bd, wd) = if r.outcome.record.variant == Some(Variant::Anti) {
            (r.outcome.discs[0] as i32, r.outcome.discs[1] as i32)
        } else {
            ((64 + m).clamp(0, 128) / 2, (64 - m).clamp(0, 128) / 2)
        };
        let forfeit = r.outcome.forfeit.as_ref().map_or(String::new(), |f| {
            let loser = if f.loser == crate::Color::Black { b } else { w };
            let what = f.fault.to_string();
            let kind = what.split(':').next().unwrap_or("");
            format!(", {} forfeited ({kind})", self.names[loser])
        });
        let forfeit = if r.outcome.adjudicated {
            forfeit + ", adjudicated"
        } else {
            forfeit
        };
        let eta = self.eta().map_or(String::new(), |e| format!(", {e}"));
        let test = test.map_or(String::new(), |t| format!("; {t}"));
        format!(
            "game {} ({}/{} done{eta}): {} (black) {bd}-{wd} {} (white){forfeit}; {}{test}",
            r.game.index + 1,
            self.done,
            self.total,
            self.names[b],
            self.names[w],
            self.score()
        )
    }

    /// Counts a finished game, redraws, and writes its line if asked, with
    /// the test's state (`--sprt`) when given.
    pub fn game(&mut self, r: &GameResult, test: Option<&str>) {
        self.count(r);
        self.played += 1;
        if self.lines {
            let line = self.line(r, test);
            match &self.bar {
                Some(bar) => bar.println(line),
                None => eprintln!("{line}"),
            }
        }
        if let Some(bar) = &self.bar {
            bar.set_message(self.score());
            bar.inc(1);
        }
    }

    /// Removes the bar.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// A duration as `45s`, `3m05s` or `2h07m`.
fn clock(d: Duration) -> String {
    let s = d.as_secs();
    match s {
        0..60 => format!("{s}s"),
        60..3600 => format!("{}m{:02}s", s / 60, s % 60),
        _ => format!("{}h{:02}m", s / 3600, s / 60 % 60),
    }
}

#[cfg(test)]
mod tests {
    use super::clock;
    use std::time::Duration;

    #[test]
    fn durations_read_as_a_clock() {
        let c = |s| clock(Duration::from_secs(s));
        assert_eq!(c(0), "0s");
        assert_eq!(c(59), "59s");
        assert_eq!(c(185), "3m05s");
        assert_eq!(c(7620), "2h07m");
    }
}
