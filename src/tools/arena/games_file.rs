//! The games file of a match: each game appended as it ends, one whole GGF
//! record per line and per write, under an advisory lock; and the games of an
//! earlier run read back, for `--resume`.
//!
//! - The file is opened for appending and locked (`flock`, exclusive, without
//!   waiting): a second match on the same file is refused at once, so records
//!   are never torn by two writers.
//! - An existing file that holds anything is never truncated unless asked
//!   ([`Existing::Overwrite`]); without it and without [`Existing::Resume`] it is
//!   an error.
//! - A record is written with one `write_all` of the whole line; should that
//!   fail (a full disk), the file is cut back to its previous length, so it
//!   holds only whole records.
//! - Each record carries its game's number in the schedule as `RO[N]`
//!   (1-based, as the report numbers games), which [`resumed_games`] uses.

use super::game::{FORFEIT_MARGIN, Forfeit, GameOutcome, complete, discs};
use super::process::Fault;
use super::{GameResult, MatchConfig, schedule};
use crate::board::{Color, Move};
use crate::format::{GgfGame, parse_ggf};
use crate::input::{MAX_TEXT, read_text};
use crate::rules::Variant;
use crate::tools::resume::{AppendOnly, complete_len};
use std::collections::HashSet;
use std::path::Path;

/// What to do with a games file that already holds games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Existing {
    /// Refuse it (the default: finished games are never thrown away).
    Refuse,
    /// Empty it first (`--overwrite`).
    Overwrite,
    /// Keep its games and play the rest of the match (`--resume`).
    Resume,
}

/// An open, locked games file.
pub struct GamesFile {
    file: AppendOnly,
    /// When resuming, the length of the file's whole lines, where a torn last
    /// line is to be cut once the games before it are known to be this match's.
    torn: Option<u64>,
}

/// The GGF tag holding a record's game number.
pub const GAME_NUMBER_TAG: &str = "RO";

impl GamesFile {
    /// Opens (creating) and locks `path`, checking up front that it can be
    /// written; returns it with the text it already holds when resuming, and a
    /// note if a torn last line was dropped. Every error names the file.
    pub fn open(path: &Path, existing: Existing) -> Result<(GamesFile, String), String> {
        let name = path.display();
        if let Ok(meta) = std::fs::metadata(path)
            && !meta.is_file()
        {
            return Err(format!("games file {name} is not a regular file"));
        }
        let file =
            AppendOnly::open(path).map_err(|e| format!("cannot open games file {name}: {e}"))?;
        file.lock().map_err(|e| format!("games file {name}: {e}"))?;
        let mut games = GamesFile { file, torn: None };
        let text = match existing {
            Existing::Refuse if !games.file.is_empty() => {
                return Err(format!(
                    "games file {name} already holds games: --resume continues that match, \
                     --overwrite replaces it"
                ));
            }
            Existing::Refuse => String::new(),
            Existing::Overwrite => {
                games.cut(0)?;
                String::new()
            }
            Existing::Resume => games.read_whole()?,
        };
        Ok((games, text))
    }

    /// The file's whole records; a torn last line (no newline) is left out, to
    /// be cut by [`GamesFile::drop_torn_line`] once the records are checked.
    fn read_whole(&mut self) -> Result<String, String> {
        let name = self.file.path().display().to_string();
        let mut text = self
            .file
            .read_with(|r| read_text(r, MAX_TEXT))
            .map_err(|e| format!("cannot read games file {name}: {e}"))?;
        let keep = complete_len(&text);
        if keep < text.len() {
            self.torn = Some(keep as u64);
            text.truncate(keep);
        }
        Ok(text)
    }

    /// Cuts a torn last line found when resuming (a game being written when the
    /// match was stopped), saying so; call it once the file's records are known
    /// to be this match's, so that a file of another kind is never cut.
    pub fn drop_torn_line(&mut self) -> Result<(), String> {
        if let Some(keep) = self.torn.take() {
            eprintln!(
                "mollett: games file {}: its last line was cut short ({} bytes), dropped",
                self.file.path().display(),
                self.file.len() - keep
            );
            self.cut(keep)?;
        }
        Ok(())
    }

    /// Cuts the file to `len` bytes.
    fn cut(&mut self, len: u64) -> Result<(), String> {
        self.file.cut(len).map_err(|e| {
            format!(
                "cannot truncate games file {}: {e}",
                self.file.path().display()
            )
        })
    }

    /// Appends `record` as one line in one write; on failure the file is cut
    /// back to its last whole record and the error names the file.
    pub fn append(&mut self, record: &GgfGame) -> Result<(), String> {
        self.file.append(&format!("{record}\n")).map_err(|e| {
            format!(
                "cannot write to games file {}: {e}",
                self.file.path().display()
            )
        })
    }
}

/// The games of `text` (a games file of this match), checked against the
/// match: each record's game number, players and opening must be those of the
/// schedule, and no game may appear twice.
pub fn resumed_games(text: &str, config: &MatchConfig) -> Result<Vec<GameResult>, String> {
    let games = schedule(
        config.entrants.len(),
        config.games_per_pairing,
        config.openings.len(),
    );
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let bad = |why: String| format!("line {}: {why}", n + 1);
        let record = parse_ggf(line).map_err(|e| bad(e.to_string()))?;
        let number = record
            .extra
            .iter()
            .find(|(t, _)| t == GAME_NUMBER_TAG)
            .and_then(|(_, v)| v.trim().parse::<usize>().ok())
            .filter(|&k| k >= 1 && k <= games.len())
            .ok_or_else(|| {
                bad(format!(
                    "no game number {GAME_NUMBER_TAG}[1..{}] of this match",
                    games.len()
                ))
            })?;
        let g = games[number - 1];
        let [b, w] = g.colours();
        let names = [&config.entrants[b].name, &config.entrants[w].name];
        if record.pb.as_ref() != Some(names[0]) || record.pw.as_ref() != Some(names[1]) {
            return Err(bad(format!(
                "game {number} is between {} and {} in this match",
                names[0], names[1]
            )));
        }
        let variant = record.variant.unwrap_or_default();
        if variant != config.variant {
            return Err(bad(format!(
                "game {number} is a game of {variant}, this match plays {}",
                config.variant
            )));
        }
        let opening = &config.openings[g.opening].moves;
        let moves: Vec<Move> = record.moves.iter().map(|m| m.mv).collect();
        if !moves.starts_with(opening) {
            return Err(bad(format!("game {number} has another opening")));
        }
        if !seen.insert(number) {
            return Err(bad(format!("game {number} appears twice")));
        }
        let outcome = outcome_of(record).map_err(bad)?;
        out.push(GameResult { game: g, outcome });
    }
    Ok(out)
}

/// A finished game's outcome from its record: the margin from `RE`, a forfeit
/// from `RE`'s suffix and the `CO` comment the runner wrote.
fn outcome_of(record: GgfGame) -> Result<GameOutcome, String> {
    let re = record.re.as_deref().ok_or("no result RE[..]")?;
    let (score, suffix) = re.split_once(':').unwrap_or((re, ""));
    let margin: i32 = score
        .trim()
        .parse()
        .map_err(|_| format!("'{re}' is not a result"))?;
    let game = record
        .to_game(Variant::Othello)
        .map_err(|(i, e)| format!("move {} is illegal: {e}", i + 1))?;
    let passes = game.moves.iter().filter(|m| **m == Move::Pass).count();
    let end = game.position();
    let adjudicated = suffix == "s";
    let (forfeit, end) = if suffix.is_empty() {
        if !end.is_game_over() || end.final_score_black() != margin {
            return Err(format!("RE[{re}] is not the end of its moves"));
        }
        (None, end)
    } else if adjudicated {
        // Adjudicated by the runner (`CO[adjudicated: ..]`): a game not over,
        // scored within the board.
        if end.is_game_over() || margin.abs() > 64 {
            return Err(format!(
                "RE[{re}] is not an adjudication (a game not over, a margin up to 64)"
            ));
        }
        (None, end)
    } else {
        // A forfeit as the runner writes it: on time (`t`) or another fault
        // (`r`), a win of at least 33-31 for the other side, never a draw.
        if !matches!(suffix, "t" | "r") || !(FORFEIT_MARGIN..=64).contains(&margin.abs()) {
            return Err(format!(
                "RE[{re}] is not a forfeit (a margin of {FORFEIT_MARGIN} to 64 either way, then :t or :r)"
            ));
        }
        // The side that defaulted is the one the adjudicated margin is against.
        let loser = if margin < 0 {
            Color::Black
        } else {
            Color::White
        };
        let comment = record
            .extra
            .iter()
            .find(|(t, _)| t == "CO")
            .map_or("", |(_, v)| v.as_str());
        let fault = Fault::from_comment(comment, suffix == "t");
        (Some(Forfeit { loser, fault }), complete(end))
    };
    Ok(GameOutcome {
        record,
        margin,
        passes,
        empties: end.board.empties(),
        discs: discs(&end),
        forfeit,
        adjudicated,
    })
}
