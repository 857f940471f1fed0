//! Fitting the learned evaluation's weights (`mollett train`).
//!
//! The fit is ridge-regularised least squares: minimise Σ (eval(x) − label)² +
//! λ Σ w² over the training positions, where eval is linear in the weights (see
//! [`crate::eval::learned`]). It is solved by conjugate gradients on the normal
//! equations (XᵀX + λI) w = Xᵀy, preconditioned by their diagonal: each
//! iteration is two passes over the data, and a few dozen iterations reach the
//! error a plain gradient descent needs thousands of passes for.
//!
//! Determinism: positions are sorted by empties (a stable sort of the files'
//! order), predictions are computed per position, and the products XᵀXp are
//! summed anchor by anchor in position order, so the weights do not depend on
//! the number of threads: the same files and seed give the same file, bit for
//! bit. A share of the positions, chosen by a seeded hash of the position, is
//! held out: it is never fitted and measures the error as the fit goes.

use super::pairing;
use super::sample::Sample;
use crate::eval::learned::{Counts, carry_over, for_each_view, untie};
use crate::eval::pattern::pext_portable;
use crate::eval::{from_float_discs, to_discs};
use crate::knowledge::layout::{
    ANCHOR_STEP, ANCHORS, Form, Layout, MAX_VIEWS, PatternSet, anchor_counts_discs, anchor_of,
};
use crate::knowledge::mlw::{self, WeightsFile};
use crate::rng::Rng;
use crate::rules::Variant;
use anyhow::Result;
use rayon::prelude::*;
use std::path::PathBuf;

/// How to fit.
#[derive(Clone, Debug)]
pub struct TrainRequest {
    /// The rules the weights are for: every training position must be of them,
    /// and the weights file says so.
    pub rules: Variant,
    /// The patterns the weights are fitted over.
    pub patterns: PatternSet,
    /// How the fitted weights are tied (the layout they are in).
    pub form: Form,
    /// Seed of the held-out split.
    pub seed: u64,
    /// Share of the positions held out, in percent.
    pub holdout_percent: u32,
    /// Conjugate-gradient iterations.
    pub iterations: u32,
    /// λ: the weight of a squared parameter (discs²) against a squared disc of error.
    pub ridge: f64,
    /// Written into the weights file: how it was made.
    pub note: String,
    /// Weights to start from and to regularise towards: the fit minimises
    /// Σ (eval(x) − label)² + λ Σ (w − prior)², so that what earlier data taught
    /// a weight stays where the new data says little about it (the data of
    /// earlier rounds need not be kept). `None`: the prior is 0. A colour-tied
    /// prior of a side-to-move fit is [`untie`]d first, and a prior of a
    /// smaller pattern set [`carry_over`]ed.
    pub prior: Option<WeightsFile>,
    /// Pair each search label with its child's ([`pairing`]), cancelling the
    /// odd/even bias of one-depth search labels.
    pub pair_child: bool,
}

/// The phases (by empties) the error is reported for.
pub const REPORT_PHASES: [(u32, u32); 6] =
    [(0, 9), (10, 19), (20, 29), (30, 39), (40, 49), (50, 60)];

/// What a fit achieved.
#[derive(Clone, Debug)]
pub struct TrainReport {
    /// The weights file.
    pub bytes: Vec<u8>,
    /// Mean absolute error in discs on the held-out positions per [`REPORT_PHASES`]
    /// entry, before the fit (predicting 0) and after it.
    pub holdout_mae: Vec<(f64, f64)>,
    /// Training positions and held-out ones.
    pub positions: (usize, usize),
}

/// One position, reduced to what the fit reads.
#[derive(Clone, Copy, Debug)]
struct Row {
    /// Configuration of each view, in the layout's order (the first
    /// `Layout::view_count` entries).
    views: [u16; MAX_VIEWS],
    counts: Counts,
    empties: u8,
    /// In discs: whole ones, or halves where [`pairing`] paired it.
    label: f32,
    held_out: bool,
}

impl Row {
    fn of(s: &Sample, layout: &Layout, label: f32, seed: u64, holdout_percent: u32) -> Row {
        let board = s.board();
        let mut views = [0u16; MAX_VIEWS];
        let mut n = 0;
        for_each_view(layout, pext_portable, &board, |_, c| {
            views[n] = c as u16;
            n += 1;
        });
        Row {
            views,
            counts: Counts::with(crate::board::movegen::Dispatch, &board),
            empties: board.empties() as u8,
            label,
            held_out: is_held_out(&board, seed, holdout_percent),
        }
    }

    /// Calls `f(parameter, coefficient)` for each of the row's features at
    /// anchor `k` (parameters counted within the anchor).
    #[inline(always)]
    fn features(&self, layout: &Layout, k: usize, mut f: impl FnMut(usize, f64)) {
        let mut v = 0;
        for (i, views) in layout.views.iter().enumerate() {
            for _ in views {
                if let Some((j, sign)) = layout.canons[i].param(self.views[v] as usize) {
                    f(layout.offsets[i] + j, f64::from(sign));
                }
                v += 1;
            }
        }
        let c = &self.counts;
        let other = f64::from(layout.opponent_sign());
        f(layout.mobility[0] + c.mobility[0] as usize, 1.0);
        f(layout.mobility[1] + c.mobility[1] as usize, other);
        f(layout.potential[0] + c.potential[0] as usize, 1.0);
        f(layout.potential[1] + c.potential[1] as usize, other);
        if anchor_counts_discs(k) && c.discs != 0 {
            f(layout.disc, f64::from(c.discs));
        }
    }

    /// The anchors the row is interpolated from, with their weights.
    fn anchors(&self) -> [(usize, f64); 2] {
        let (k, r) = anchor_of(u32::from(self.empties));
        let hi = (k + 1).min(ANCHORS - 1);
        let t = f64::from(r) / f64::from(ANCHOR_STEP);
        [(k, 1.0 - t), (hi, t)]
    }
}

/// Whether the fit with `seed` holds `board` out (a seeded hash of the
/// position, so a position met in many games is always on the same side).
pub fn is_held_out(board: &crate::board::Board, seed: u64, holdout_percent: u32) -> bool {
    Rng::new(board.hash() ^ seed).next_u64() % 100 < u64::from(holdout_percent)
}

/// Reads every sample of `files`, in order: Othello data only (see
/// [`read_samples_of`]).
pub fn read_samples(files: &[PathBuf]) -> Result<Vec<Sample>> {
    read_samples_of(files, Variant::Othello)
}

/// Reads every sample of `files` (position lines or packed games, see
/// [`super::pack`]), in order; a position of other rules than `rules` is an error (Othello and Anti-Reversi data never mix).
pub fn read_samples_of(files: &[PathBuf], rules: Variant) -> Result<Vec<Sample>> {
    let mut out = Vec::new();
    for path in files {
        super::pack::for_each_line(path, |l| {
            anyhow::ensure!(
                l.rules == rules,
                "{}: game {}: a position of {} data, where {} data is expected",
                path.display(),
                l.sample.game,
                l.rules.name(),
                rules.name()
            );
            out.push(l.sample);
            Ok(())
        })?;
    }
    Ok(out)
}

/// Fits the weights to the samples of `files`, which must be of `req.rules`
/// (see [`train`]).
pub fn train_files(
    files: &[PathBuf],
    req: &TrainRequest,
    log: &mut dyn FnMut(&str),
    progress: &mut dyn FnMut(u32),
) -> Result<TrainReport> {
    if let Some(prior) = &req.prior {
        anyhow::ensure!(
            prior.form.can_start(req.form),
            "a {} prior cannot start a {} fit",
            prior.form.name(),
            req.form.name()
        );
        anyhow::ensure!(
            req.patterns.holds(prior.patterns),
            "a prior of the {} pattern set cannot start a fit of the {} set",
            prior.patterns.name(),
            req.patterns.name()
        );
    }
    let samples = read_samples_of(files, req.rules)?;
    anyhow::ensure!(!samples.is_empty(), "no positions in the training files");
    Ok(train(&samples, req, log, progress))
}

/// The data's rows, sorted by empties, with where each empties count starts.
struct Data {
    rows: Vec<Row>,
    /// `first[e]..first[e + 1]`: the rows with `e` empties.
    first: Vec<usize>,
}

impl Data {
    /// The rows whose anchors include `k`: their index, the row, its weight for `k`.
    fn rows_of_anchor(&self, k: usize) -> impl Iterator<Item = (usize, &Row, f64)> {
        let step = ANCHOR_STEP as usize;
        let lo = self.first[(k * step).saturating_sub(step - 1)];
        let hi = self.first[((k + 1) * step).min(self.first.len() - 1)];
        self.rows[lo..hi]
            .iter()
            .enumerate()
            .filter_map(move |(i, r)| {
                r.anchors()
                    .into_iter()
                    .find(|&(a, w)| a == k && w > 0.0)
                    .map(|(_, w)| (lo + i, r, w))
            })
    }

    /// `Σ_features coefficient · v[feature]` for each row (its prediction with `v`).
    fn times(&self, layout: &Layout, v: &[Vec<f64>]) -> Vec<f64> {
        self.rows
            .par_iter()
            .map(|r| {
                let mut s = 0.0;
                for (k, w) in r.anchors() {
                    if w > 0.0 {
                        let mut t = 0.0;
                        r.features(layout, k, |j, c| t += c * v[k][j]);
                        s += w * t;
                    }
                }
                s
            })
            .collect()
    }

    /// Per anchor and feature, over the training rows: `Σ value(row) · x` where
    /// `x` is the feature's coefficient in the row, or `Σ x²` for no `value`.
    fn scatter(
        &self,
        layout: &Layout,
        value: Option<&(dyn Fn(usize) -> f64 + Sync)>,
    ) -> Vec<Vec<f64>> {
        (0..ANCHORS)
            .into_par_iter()
            .map(|k| {
                let mut out = vec![0.0; layout.len];
                for (i, r, w) in self.rows_of_anchor(k) {
                    if r.held_out {
                        continue;
                    }
                    match value {
                        Some(value) => {
                            let v = value(i) * w;
                            r.features(layout, k, |j, c| out[j] += v * c);
                        }
                        None => r.features(layout, k, |j, c| out[j] += (w * c) * (w * c)),
                    }
                }
                out
            })
            .collect()
    }
}
/// Mean absolute error (discs) of `pred` on the held-out rows per report phase,
/// and over all held-out and all training rows.
fn errors(data: &Data, pred: &[f64]) -> (Vec<f64>, f64, f64) {
    let mut by_phase = vec![(0.0, 0usize); REPORT_PHASES.len()];
    let (mut test, mut nt, mut train, mut nr) = (0.0, 0usize, 0.0, 0usize);
    for (r, &p) in data.rows.iter().zip(pred) {
        let err = (p - f64::from(r.label)).abs();
        if r.held_out {
            test += err;
            nt += 1;
            let e = u32::from(r.empties);
            if let Some(i) = REPORT_PHASES
                .iter()
                .position(|&(a, b)| (a..=b).contains(&e))
            {
                by_phase[i].0 += err;
                by_phase[i].1 += 1;
            }
        } else {
            train += err;
            nr += 1;
        }
    }
    let mean = |s: f64, n: usize| if n == 0 { 0.0 } else { s / n as f64 };
    (
        by_phase.iter().map(|&(s, n)| mean(s, n)).collect(),
        mean(test, nt),
        mean(train, nr),
    )
}

fn dot(a: &[Vec<f64>], b: &[Vec<f64>]) -> f64 {
    a.iter()
        .flatten()
        .zip(b.iter().flatten())
        .map(|(x, y)| x * y)
        .sum()
}

impl Data {
    /// The rows of `samples`, sorted by empties, and where each count starts.
    fn of(samples: &[Sample], labels: &[f32], req: &TrainRequest) -> Data {
        let layout = Layout::of(req.patterns, req.form);
        let mut rows: Vec<Row> = samples
            .par_iter()
            .zip(labels)
            .map(|(s, &label)| Row::of(s, layout, label, req.seed, req.holdout_percent))
            .collect();
        rows.sort_by_key(|r| r.empties);
        let first: Vec<usize> = (0..62)
            .map(|e| rows.partition_point(|r| usize::from(r.empties) < e))
            .collect();
        Data { rows, first }
    }
}

/// The fit's start from a prior: its weights in discs (in the fit's form) and
/// their predictions, logged with their errors.
fn start_from(
    prior: &WeightsFile,
    data: &Data,
    layout: &Layout,
    req: &TrainRequest,
    base_test: f64,
    log: &mut dyn FnMut(&str),
) -> (Vec<Vec<f64>>, Vec<f64>) {
    assert!(
        prior.form.can_start(req.form),
        "a {} prior for a {} fit (train_files refuses it)",
        prior.form.name(),
        req.form.name()
    );
    let anchors = if prior.form == req.form {
        prior.anchors.clone()
    } else {
        untie(prior.patterns, &prior.anchors)
    };
    let anchors = carry_over(prior.patterns, req.patterns, req.form, &anchors)
        .expect("a prior of a smaller set (train_files refuses others)");
    let w0: Vec<Vec<f64>> = anchors
        .iter()
        .map(|a| a.iter().map(|&x| to_discs(i32::from(x))).collect())
        .collect();
    let pred0 = data.times(layout, &w0);
    let (_, test, train) = errors(data, &pred0);
    log(&format!(
        "prior: train {train:.3} held-out {test:.3} discs (0 predicts {base_test:.3})"
    ));
    (w0, pred0)
}

/// Logs an iteration's errors, overall and by phase.
fn log_iteration(log: &mut dyn FnMut(&str), it: u32, data: &Data, pred: &[f64], base_test: f64) {
    let (phase, test, train) = errors(data, pred);
    let phases: Vec<String> = REPORT_PHASES
        .iter()
        .zip(&phase)
        .map(|(&(a, b), m)| format!("{a}-{b}:{m:.2}"))
        .collect();
    log(&format!(
        "iteration {it:>3}: train {train:.3} held-out {test:.3} discs (was {base_test:.3}); held-out by empties {}",
        phases.join(" ")
    ));
}

/// The weights file of the fitted weights `w` (in discs), quantised.
fn weights_file(req: &TrainRequest, w: &[Vec<f64>]) -> WeightsFile {
    let quantise = |x: f64| from_float_discs(x).round().clamp(-32767.0, 32767.0) as i16;
    WeightsFile {
        rules: req.rules,
        patterns: req.patterns,
        form: req.form,
        note: req.note.clone(),
        anchors: w
            .iter()
            .map(|a| a.iter().map(|&x| quantise(x)).collect())
            .collect(),
    }
}

/// Fits the weights to `samples` (of `req.rules`, which the file is tagged with), logging the error per phase as it goes.
pub fn train(
    samples: &[Sample],
    req: &TrainRequest,
    log: &mut dyn FnMut(&str),
    progress: &mut dyn FnMut(u32),
) -> TrainReport {
    let layout = Layout::of(req.patterns, req.form);
    let labels = if req.pair_child {
        let paired = pairing::pair_with_children(samples);
        log(&format!(
            "train: {} of {} labels paired with their child's",
            paired.paired,
            samples.len()
        ));
        paired.labels
    } else {
        samples.iter().map(|s| s.label as f32).collect()
    };
    let data = Data::of(samples, &labels, req);
    let held = data.rows.iter().filter(|r| r.held_out).count();
    let positions = (data.rows.len() - held, held);
    log(&format!(
        "train: {} training positions, {} held out, {} weights per anchor x {ANCHORS}",
        positions.0, positions.1, layout.len
    ));

    let zero = vec![0.0; data.rows.len()];
    let (base_phase, base_test, _) = errors(&data, &zero);
    // With a prior w₀ the unknown is d = w − w₀: (XᵀX + λI) d = Xᵀ(y − Xw₀).
    let (w0, pred0) = match &req.prior {
        Some(prior) => start_from(prior, &data, layout, req, base_test, log),
        None => (vec![vec![0.0; layout.len]; ANCHORS], zero.clone()),
    };
    // b = Xᵀ(y − Xw₀); the preconditioner is diag(XᵀX) + λ.
    let residuals: Vec<f64> = data
        .rows
        .iter()
        .zip(&pred0)
        .map(|(r, p)| f64::from(r.label) - p)
        .collect();
    let b = data.scatter(layout, Some(&|i| residuals[i]));
    let diag = data.scatter(layout, None);
    let precondition = |r: &[Vec<f64>]| -> Vec<Vec<f64>> {
        r.iter()
            .zip(&diag)
            .map(|(rk, dk)| {
                rk.iter()
                    .zip(dk)
                    .map(|(x, d)| x / (d + req.ridge))
                    .collect()
            })
            .collect()
    };
    let mut w = w0;
    let mut pred = pred0;
    let mut r = b;
    let mut z = precondition(&r);
    let mut p = z.clone();
    let mut rz = dot(&r, &z);
    for it in 1..=req.iterations {
        let xp = data.times(layout, &p);
        let mut q = data.scatter(layout, Some(&|i| xp[i]));
        for (qk, pk) in q.iter_mut().zip(&p) {
            for (x, y) in qk.iter_mut().zip(pk) {
                *x += req.ridge * y;
            }
        }
        let pq = dot(&p, &q);
        if pq <= 0.0 || rz <= 0.0 {
            break; // converged: nothing left to fit
        }
        let alpha = rz / pq;
        for k in 0..ANCHORS {
            for j in 0..layout.len {
                w[k][j] += alpha * p[k][j];
                r[k][j] -= alpha * q[k][j];
            }
        }
        for (pr, x) in pred.iter_mut().zip(&xp) {
            *pr += alpha * x;
        }
        z = precondition(&r);
        let rz_next = dot(&r, &z);
        let beta = rz_next / rz;
        rz = rz_next;
        for k in 0..ANCHORS {
            for j in 0..layout.len {
                p[k][j] = z[k][j] + beta * p[k][j];
            }
        }
        log_iteration(log, it, &data, &pred, base_test);
        progress(it);
    }
    let (phase, _, _) = errors(&data, &pred);
    TrainReport {
        bytes: mlw::write(&weights_file(req, &w)),
        holdout_mae: base_phase.into_iter().zip(phase).collect(),
        positions,
    }
}

mod command;
#[cfg(test)]
use command::parse_ridge;
pub use command::{TrainArgs, run};

#[cfg(test)]
mod tests;
