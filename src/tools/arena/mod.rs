//! Engine-vs-engine matches and round-robin tournaments (`mollett match`).
//!
//! - [`spec`]: the command-line vocabulary (entrants, protocol, limits).
//! - [`openings`]: opening lists, from a file or seeded at random.
//! - [`process`] and [`client`]: an entrant's process and its GTP or NBoard side.
//! - [`game`]: one game, with the clocks kept and forfeits adjudicated;
//!   [`adjudicate`]: games ended early by the runner (`--adjudicate-*`).
//! - [`stats`]: Elo with its interval, pentanomial counts, Brightwell Quotient.
//! - [`sprt`]: the sequential probability ratio test that stops a match.
//! - [`report`]: the summaries and the standings table; [`json`] the same
//!   as JSON.
//! - [`games_file`]: the games file, appended game by game under a lock, and
//!   read back for `--resume`.
//! - [`signals`]: SIGINT and SIGTERM as messages, for the report so far.
//! - [`progress`]: the progress bar and the per-game lines on stderr.
//! - [`log`]: the protocol log of each game (`--log-dir`).
//!
//! Every pairing of two entrants plays the same games: game `g` uses opening
//! `g / 2` (cycling through the list), the first-named entrant playing Black in
//! even games and White in odd ones, so each opening is played twice with colours
//! swapped. Every game starts fresh processes, so nothing carries over from one
//! game to another: with depth-limited, single-threaded entrants a match replays
//! identically, whatever the concurrency.

pub mod adjudicate;
pub mod client;
pub mod command;
pub mod game;
pub mod games_file;
pub mod json;
pub mod log;
pub mod openings;
pub mod process;
pub mod progress;
pub mod report;
pub mod signals;
pub mod spec;
pub mod sprt;
pub mod stats;

use crate::rules::Variant;
use crate::rules::game::Game;
use crossbeam_channel::Receiver;
use game::{GameOutcome, GameSetup, play_game};
use spec::{EntrantLimits, EntrantSpec, Proto, SpecError};
use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The most entrants a tournament takes (2016 pairings).
pub const MAX_ENTRANTS: usize = 64;

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// Two or more entrants, with distinct names.
    pub entrants: Vec<EntrantSpec>,
    /// Each entrant's limits, in the same order.
    pub limits: Vec<EntrantLimits>,
    /// The protocol all entrants speak.
    pub proto: Proto,
    /// The rules every game is played and scored under.
    pub variant: Variant,
    /// The openings (under `variant`, from its start), each played twice with
    /// colours swapped.
    pub openings: Vec<Game>,
    /// Games per pairing of two entrants.
    pub games_per_pairing: usize,
    /// Games played at once.
    pub concurrency: usize,
    /// How long to wait for an answer when no clock bounds it.
    pub hang_timeout: crate::format::Seconds,
    /// Where each game's protocol log goes (`--log-dir`), if anywhere.
    pub log_dir: Option<std::path::PathBuf>,
    /// When the runner ends a game itself (`--adjudicate-*`).
    pub adjudication: adjudicate::Adjudication,
}

/// A game of the schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scheduled {
    /// Its number in the match, from 0.
    pub index: usize,
    /// The pairing's first entrant (the lower index).
    pub first: usize,
    /// The pairing's second entrant.
    pub second: usize,
    /// The game's number within its pairing: games `2k` and `2k + 1` are a
    /// colour-swapped pair.
    pub round: usize,
    /// The opening's index.
    pub opening: usize,
    /// Whether `first` plays Black.
    pub first_is_black: bool,
}

impl Scheduled {
    /// Black's and White's entrant.
    pub fn colours(&self) -> [usize; 2] {
        if self.first_is_black {
            [self.first, self.second]
        } else {
            [self.second, self.first]
        }
    }
}

/// The games of every pairing `(a, b)`, `a < b`, pairing after pairing.
pub fn schedule(entrants: usize, games_per_pairing: usize, openings: usize) -> Vec<Scheduled> {
    let mut out = Vec::new();
    for first in 0..entrants {
        for second in first + 1..entrants {
            for round in 0..games_per_pairing {
                out.push(Scheduled {
                    index: out.len(),
                    first,
                    second,
                    round,
                    opening: (round / 2) % openings.max(1),
                    first_is_black: round % 2 == 0,
                });
            }
        }
    }
    out
}

/// A finished game of the schedule.
#[derive(Clone, Debug, PartialEq)]
pub struct GameResult {
    /// Which game.
    pub game: Scheduled,
    /// How it went.
    pub outcome: GameOutcome,
}

impl GameResult {
    /// The disc margin for `entrant`, if it played this game.
    pub fn margin_for(&self, entrant: usize) -> Option<i32> {
        let [black, white] = self.game.colours();
        if entrant == black {
            Some(self.outcome.margin)
        } else if entrant == white {
            Some(-self.outcome.margin)
        } else {
            None
        }
    }
}

impl GameResult {
    /// Whether `entrant` lost this game by default.
    pub fn forfeited_by(&self, entrant: usize) -> bool {
        self.outcome.forfeit.as_ref().is_some_and(|f| {
            self.game.colours()[usize::from(f.loser == crate::Color::White)] == entrant
        })
    }
}

impl MatchConfig {
    /// Checks the configuration: two or more entrants with distinct names, a
    /// limit per entrant, some openings and games, a positive concurrency.
    pub fn validate(&self) -> Result<(), SpecError> {
        if !(2..=MAX_ENTRANTS).contains(&self.entrants.len()) {
            return Err(SpecError(format!(
                "a match needs 2 to {MAX_ENTRANTS} entrants"
            )));
        }
        for (i, e) in self.entrants.iter().enumerate() {
            if e.command.is_empty() {
                return Err(SpecError(format!("entrant '{}' has no command", e.name)));
            }
            if self.entrants[..i].iter().any(|o| o.name == e.name) {
                return Err(SpecError(format!("two entrants are named '{}'", e.name)));
            }
        }
        if self.limits.len() != self.entrants.len() {
            return Err(SpecError("one set of limits per entrant".into()));
        }
        if self.openings.is_empty() || self.games_per_pairing == 0 {
            return Err(SpecError("a match needs openings and games".into()));
        }
        if let Some(g) = self.openings.iter().find(|g| g.variant() != self.variant) {
            return Err(SpecError(format!(
                "an opening of {} in a match of {}",
                g.variant(),
                self.variant
            )));
        }
        if self.concurrency == 0 {
            return Err(SpecError("the concurrency must be at least 1".into()));
        }
        if self.proto == Proto::Nboard
            && let Some(i) = self.limits.iter().position(|l| l.move_time.is_some())
        {
            return Err(SpecError(format!(
                "NBoard has no time per move (its engines plan from the game clock of \
                 `set game`): give '{}' a clock (--clock) or a depth (--depth), or its \
                 time per move on its own command line",
                self.entrants[i].name
            )));
        }
        if self.proto == Proto::Gtp {
            if let Some(i) = self.limits.iter().position(|l| l.depth.is_some()) {
                return Err(SpecError(format!(
                    "GTP has no depth command: give '{}' its depth or level on its own command line",
                    self.entrants[i].name
                )));
            }
        }
        Ok(())
    }

    /// Starts every entrant once and has it answer its set-up commands (within
    /// the hang timeout), so that a misspelt command fails the match before its
    /// first game instead of forfeiting every game.
    pub fn check_entrants(&self) -> Result<(), SpecError> {
        for (spec, limits) in self.entrants.iter().zip(&self.limits) {
            let deadline = std::time::Instant::now() + self.hang_timeout.duration();
            // Started as for the first game: a `{game}` is a number there.
            let first = spec.for_game(1);
            let entrant = client::Entrant {
                spec: &first,
                proto: self.proto,
                limits,
                variant: self.variant,
                log: None,
            };
            if let Err(f) = client::connect(&entrant, deadline) {
                return Err(SpecError(format!(
                    "entrant '{}' {f} (checked before the first game)",
                    spec.name
                )));
            }
        }
        Ok(())
    }

    /// Plays the games of the schedule not in `done`, `concurrency` at once,
    /// calling `on_game` (on this thread) as each game ends, in the order they
    /// end; `on_game` returns whether to go on. Returns when every game is
    /// played, when `on_game` says to stop (no game is started after that), or
    /// at once with the signal's number when one arrives on `interrupts`
    /// (games still being played are then left to their threads, whose
    /// results are never reported).
    pub fn run(
        &self,
        done: &HashSet<usize>,
        interrupts: &Receiver<i32>,
        on_game: &mut dyn FnMut(&GameResult) -> bool,
    ) -> Result<RunEnd, SpecError> {
        self.validate()?;
        let games: Vec<Scheduled> = schedule(
            self.entrants.len(),
            self.games_per_pairing,
            self.openings.len(),
        )
        .into_iter()
        .filter(|g| !done.contains(&g.index))
        .collect();
        let games = Arc::new(games);
        let config = Arc::new(self.clone());
        let next = Arc::new(AtomicUsize::new(0));
        let (tx, rx) = crossbeam_channel::unbounded();
        for i in 0..self.concurrency.min(games.len()) {
            let (tx, games, config, next) = (
                tx.clone(),
                Arc::clone(&games),
                Arc::clone(&config),
                Arc::clone(&next),
            );
            std::thread::Builder::new()
                .name(format!("match-game-{i}"))
                .spawn(move || {
                    while let Some(&g) = games.get(next.fetch_add(1, Ordering::Relaxed)) {
                        let outcome = config.play(g);
                        if tx.send(GameResult { game: g, outcome }).is_err() {
                            break;
                        }
                    }
                })
                .map_err(|e| SpecError(format!("cannot start a game thread: {e}")))?;
        }
        drop(tx);
        loop {
            crossbeam_channel::select! {
                recv(rx) -> r => match r {
                    Ok(r) => {
                        if !on_game(&r) {
                            // No thread takes another game.
                            next.store(games.len(), Ordering::Relaxed);
                            return Ok(RunEnd::Decided);
                        }
                    }
                    Err(_) => return Ok(RunEnd::Finished),
                },
                recv(interrupts) -> sig => {
                    if let Ok(sig) = sig {
                        return Ok(RunEnd::Interrupted(sig));
                    }
                }
            }
        }
    }

    /// Plays one game of the schedule.
    fn play(&self, g: Scheduled) -> GameOutcome {
        let [b, w] = g.colours();
        let mut outcome = play_game(&GameSetup {
            opening: &self.openings[g.opening],
            players: [&self.entrants[b], &self.entrants[w]],
            limits: [&self.limits[b], &self.limits[w]],
            proto: self.proto,
            hang_timeout: self.hang_timeout,
            number: g.index + 1,
            log_dir: self.log_dir.as_deref(),
            adjudication: self.adjudication,
        });
        outcome.record.extra.insert(
            0,
            (
                games_file::GAME_NUMBER_TAG.to_string(),
                (g.index + 1).to_string(),
            ),
        );
        outcome
    }
}

/// How [`MatchConfig::run`] ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunEnd {
    /// Every game was played.
    Finished,
    /// A signal (its number) interrupted the match.
    Interrupted(i32),
    /// The games so far decided the match (`--sprt`); games under way were
    /// left unfinished.
    Decided,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schedule_swaps_colours_per_opening() {
        let s = schedule(3, 4, 3);
        assert_eq!(s.len(), 3 * 4);
        let ab: Vec<_> = s.iter().filter(|g| (g.first, g.second) == (0, 1)).collect();
        assert_eq!(
            ab.iter()
                .map(|g| (g.opening, g.first_is_black))
                .collect::<Vec<_>>(),
            [(0, true), (0, false), (1, true), (1, false)]
        );
        assert_eq!(ab[1].colours(), [1, 0]);
        assert!(s.iter().enumerate().all(|(i, g)| g.index == i));
        // Fewer openings than pairs: they are reused in turn.
        assert_eq!(schedule(2, 6, 2).last().unwrap().opening, 0);
    }
}
