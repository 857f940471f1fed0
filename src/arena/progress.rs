//! The live progress bar of a match, on stderr and only when stderr is a
//! terminal (piped output stays clean).

use super::GameResult;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;

/// The bar and the running points per entrant.
pub struct Progress {
    bar: Option<ProgressBar>,
    names: Vec<String>,
    points: Vec<f64>,
}

impl Progress {
    /// A bar for `total` games between `names`, if stderr is a terminal.
    pub fn new(total: usize, names: &[String]) -> Progress {
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar =
                ProgressBar::with_draw_target(Some(total as u64), ProgressDrawTarget::stderr());
            bar.set_style(
                ProgressStyle::with_template("{bar:30} {pos}/{len} games {elapsed_precise} {msg}")
                    .expect("a valid template"),
            );
            bar
        });
        Progress {
            bar,
            names: names.to_vec(),
            points: vec![0.0; names.len()],
        }
    }

    /// Counts a finished game and redraws.
    pub fn game(&mut self, r: &GameResult) {
        for (e, p) in self.points.iter_mut().enumerate() {
            if let Some(m) = r.margin_for(e) {
                *p += f64::from(m.signum() + 1) / 2.0;
            }
        }
        if let Some(bar) = &self.bar {
            let score: Vec<String> = self
                .names
                .iter()
                .zip(&self.points)
                .map(|(n, p)| format!("{n} {p}"))
                .collect();
            bar.set_message(score.join(", "));
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
