//! Learning the evaluation: training data from self-play ([`datagen`]), the line
//! format it is kept in ([`sample`]), its packed form for keeping ([`pack`]) and
//! the fit of the pattern weights ([`train`]). A tool on top of the engine core: it uses the search and the
//! evaluation as any user of the library would. What the jobs share (the shard
//! of a job, its rules as a variant, labels from scores) is in [`job`]; each job
//! picks its rule set once, where it starts (`with_rules!`).

pub mod cli;
pub mod datagen;
pub mod job;
pub mod pack;
pub mod pairing;
pub mod probcut;
pub mod probcut_cli;
pub mod relabel;
pub mod sample;
pub mod train;

use crate::rules::Variant;
use crate::tools::resume::{self, AppendOnly};
use datagen::{DatagenRequest, play_game};
use job::Shard;
use rayon::prelude::*;
use std::io::BufReader;
use std::path::Path;

/// Games played at once between two writes of the output (several per thread, so
/// that a slow game does not leave a core idle for long).
const GAMES_PER_BATCH: usize = 16;

/// Where a shard's file stands: the games it holds whole, and where they end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResumePoint {
    /// How many of the shard's games (in order) the file holds, its last game
    /// left out (see `last`).
    pub games_done: u64,
    /// The byte length of those games' lines (anything after it is cut).
    pub keep_bytes: u64,
    /// The file's last game, which an interrupt may have cut short: its number
    /// and the bytes its complete lines take (from `keep_bytes` on).
    pub last: Option<(u64, u64)>,
}

/// Reads a shard's existing output: the games it holds in order. The last game
/// in the file may have been cut short by an interrupt (a kill between the lines
/// of one write), so it is dropped and played again; a line that does not parse
/// is an error (the file is not this command's, or is damaged), never skipped,
/// and so is a line of other rules than `rules` (an Othello file is never
/// continued with Anti-Reversi games, nor the other way round).
pub fn resume_point(path: &Path, shard: Shard, rules: Variant) -> anyhow::Result<ResumePoint> {
    let file = match crate::input::open_regular_file(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Ok(ResumePoint {
                games_done: 0,
                keep_bytes: 0,
                last: None,
            });
        }
        Err(e) => return Err(anyhow::anyhow!("{}: {e}", path.display())),
    };
    let (mut last_game, mut last_start, mut games) = (None, 0u64, 0u64);
    let whole = resume::for_each_line(
        BufReader::new(file),
        &mut |offset, line| {
            let parsed = sample::parse_line(line.trim_end()).map_err(|e| {
                anyhow::anyhow!(
                    "{}: byte {offset}: {e} (not a datagen file?)",
                    path.display()
                )
            })?;
            if parsed.rules != rules {
                anyhow::bail!(
                    "{}: byte {offset}: a position of {} data, and this job plays {}",
                    path.display(),
                    parsed.rules.name(),
                    rules.name()
                );
            }
            let s = parsed.sample;
            if last_game != Some(s.game) {
                if s.game != shard.game(games) {
                    anyhow::bail!(
                        "{}: game {} where game {} of shard {}/{} was expected",
                        path.display(),
                        s.game,
                        shard.game(games),
                        shard.index,
                        shard.count
                    );
                }
                last_game = Some(s.game);
                last_start = offset;
                games += 1;
            }
            Ok(())
        },
        |e| anyhow::anyhow!("{}: {e}", path.display()),
    )?;
    Ok(match last_game {
        None => ResumePoint {
            games_done: 0,
            keep_bytes: 0,
            last: None,
        },
        Some(game) => ResumePoint {
            games_done: games - 1,
            keep_bytes: last_start,
            last: Some((game, whole - last_start)),
        },
    })
}

/// The lines game `game` of the job gives, as they are written.
fn game_text(req: &DatagenRequest, game: u64) -> anyhow::Result<String> {
    let mut text = String::new();
    for sample in play_game(req, game)? {
        let line = sample::Line {
            sample,
            rules: req.rules,
        };
        text.push_str(&line.to_string());
        text.push('\n');
    }
    Ok(text)
}

/// `len` bytes of `path` from `start`: a game's lines (at most 1 MiB).
fn read_range(path: &Path, start: u64, len: u64) -> std::io::Result<String> {
    use std::io::{Read, Seek, SeekFrom};
    let mut file = crate::input::open_regular_file(path)?;
    file.seek(SeekFrom::Start(start))?;
    crate::input::read_text(file.take(len), resume::RESUME_LINE_MAX)
}

/// Where a datagen output stands for this job, checked by playing its last game
/// again (the games are deterministic): the same lines mean it is whole and was
/// made with these settings; lines that begin the replay were cut short by an
/// interrupt, and the game is played again; anything else means another seed,
/// depth, evaluation or rule set made the file, which is then refused.
fn checked_resume_point(
    req: &DatagenRequest,
    shard: Shard,
    out: &Path,
) -> anyhow::Result<(u64, u64)> {
    let point = resume_point(out, shard, req.rules)?;
    let Some((game, len)) = point.last else {
        return Ok((0, 0));
    };
    let held = read_range(out, point.keep_bytes, len)
        .map_err(|e| anyhow::anyhow!("{}: {e}", out.display()))?;
    let replay = game_text(req, game)?;
    if held == replay {
        Ok((point.games_done + 1, point.keep_bytes + len))
    } else if replay.starts_with(&held) {
        Ok((point.games_done, point.keep_bytes))
    } else {
        anyhow::bail!(
            "{}: its last game (game {game}) is not the one this command plays: the file \
             was made with other settings (seed, depth, selectivity, labels, evaluation, \
             openings or noise); not continued",
            out.display()
        )
    }
}

/// Opens an output to continue, created if missing, and locks it before
/// anything reads where it stands: two jobs never write one file.
pub(crate) fn open_locked(out: &Path) -> anyhow::Result<AppendOnly> {
    let file = AppendOnly::open(out).map_err(|e| anyhow::anyhow!("{}: {e}", out.display()))?;
    file.lock()
        .map_err(|e| anyhow::anyhow!("{}: {e}", out.display()))?;
    Ok(file)
}

/// Cuts a locked output to its first `keep_bytes` bytes (what is known whole).
pub(crate) fn cut_to(file: &mut AppendOnly, keep_bytes: u64) -> anyhow::Result<()> {
    file.cut(keep_bytes)
        .map_err(|e| anyhow::anyhow!("{}: {e}", file.path().display()))
}

/// Writes `text` (one game's lines) to `file` in one write and flushes it.
pub(crate) fn append_flushed(file: &mut AppendOnly, text: &str) -> anyhow::Result<()> {
    file.append(text)
        .map_err(|e| anyhow::anyhow!("{}: {e}", file.path().display()))
}

/// Plays the shard's games of a job of `games` into `out`, continuing a file
/// that already holds some of them. `progress` is told the games done so far and
/// the shard's total after every batch. Games are played `threads` at a time; the
/// file's contents do not depend on `threads`.
pub fn run_datagen(
    req: &DatagenRequest,
    games: u64,
    shard: Shard,
    out: &Path,
    progress: &mut dyn FnMut(u64, u64),
) -> anyhow::Result<u64> {
    let total = shard.len(games);
    let mut file = open_locked(out)?;
    let (games_done, keep_bytes) = checked_resume_point(req, shard, out)?;
    cut_to(&mut file, keep_bytes)?;
    let mut done = games_done;
    progress(done, total);
    while done < total {
        let batch: Vec<u64> = (done..total.min(done + GAMES_PER_BATCH as u64))
            .map(|k| shard.game(k))
            .collect();
        let played: Vec<_> = batch
            .par_iter()
            .map(|&g| game_text(req, g))
            .collect::<anyhow::Result<Vec<String>>>()?;
        for text in played {
            // One write per game, flushed: an interrupt loses at most the game
            // being written, which the next run plays again.
            append_flushed(&mut file, &text)?;
            done += 1;
        }
        progress(done, total);
    }
    Ok(done.saturating_sub(games_done))
}

/// `text` cut `back` bytes before the end of its first `lines` lines: a file
/// that an interrupt tore inside a line.
#[cfg(test)]
pub(crate) fn torn(text: &str, lines: usize, back: usize) -> &str {
    let end: usize = text.lines().take(lines).map(|l| l.len() + 1).sum();
    &text[..end - back]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request() -> DatagenRequest {
        DatagenRequest {
            seed: 11,
            random_moves: (4, 8),
            depth: 1,
            exact_empties: 8,
            noise_per_mille: 0,
            ..crate::tools::learn::datagen::tests::request()
        }
    }

    #[test]
    fn an_interrupted_file_is_continued_to_the_same_contents() {
        for rules in [Variant::Othello, Variant::Anti] {
            let req = DatagenRequest { rules, ..request() };
            let dir = std::env::temp_dir().join(format!(
                "mollett-datagen-{}-{}",
                std::process::id(),
                rules.name()
            ));
            std::fs::create_dir_all(&dir).unwrap();
            let (whole, cut) = (dir.join("whole.txt"), dir.join("cut.txt"));
            let shard: Shard = "1/2".parse().unwrap();
            run_datagen(&req, 7, shard, &whole, &mut |_, _| {}).unwrap();
            let text = std::fs::read_to_string(&whole).unwrap();
            // Cut the file in the middle of a line of the third game.
            let game_5 = |l: &str| l.ends_with(" 5") || l.ends_with(" 5 anti");
            let third = text.lines().position(game_5).unwrap();
            std::fs::write(&cut, torn(&text, third + 1, 9)).unwrap();
            // Games 1 and 3 are whole, 5 is torn in its first line (so not
            // there at all): the last game, 3, is left out of the count until
            // its replay shows that it is whole.
            let p = resume_point(&cut, shard, rules).unwrap();
            assert_eq!((p.games_done, p.last.map(|l| l.0)), (1, Some(3)));
            let played = run_datagen(&req, 7, shard, &cut, &mut |_, _| {}).unwrap();
            assert_eq!(played, 1, "game 3 replays whole; only game 5 is played");
            assert_eq!(std::fs::read_to_string(&cut).unwrap(), text);
            // A finished file has nothing left to play, and stays as it is.
            assert_eq!(resume_point(&whole, shard, rules).unwrap().games_done, 2);
            assert_eq!(
                run_datagen(&req, 7, shard, &whole, &mut |_, _| {}).unwrap(),
                0
            );
            assert_eq!(std::fs::read_to_string(&whole).unwrap(), text);
            // Another shard's file is refused.
            assert!(resume_point(&whole, Shard::ALL, rules).is_err());
            // So is a file of the other rules, and it is left as it was.
            let other = match rules {
                Variant::Othello | Variant::Reversi => Variant::Anti,
                Variant::Anti => Variant::Othello,
            };
            let e = resume_point(&whole, shard, other).unwrap_err().to_string();
            assert!(e.contains("data, and this job plays"), "{e}");
            let other_req = DatagenRequest {
                rules: other,
                ..request()
            };
            assert!(run_datagen(&other_req, 7, shard, &whole, &mut |_, _| {}).is_err());
            assert_eq!(std::fs::read_to_string(&whole).unwrap(), text);
            std::fs::remove_dir_all(&dir).unwrap();
        }
    }
}
