//! Search labels for training positions (`mollett relabel`).
//!
//! A game label (the final result of a noisy self-play game) says little about
//! a position thirty moves from the end: the moves in between, random ones
//! included, move it by many discs. `relabel` gives each such position the score
//! of a midgame search of its own instead ([`LabelKind::Search`]); exact labels
//! are copied as they are. Fitting the relabelled file alone trains on search
//! labels; fitting it together with the original averages the two labels of
//! each midgame position (least squares over two lines of one position is the
//! fit to their mean), with the exact lines counted twice. With `--redo-search`
//! the lines that already carry a search label (`datagen --labels search`) are
//! searched again too: deeper labels for a round's positions.
//!
//! The positions of one game are searched in order with one table, so a job's
//! output depends only on its input and settings. Games are the unit of work:
//! `--shard i/n` relabels the `k`-th game of the input when `k % n == i` (the
//! shards' files concatenate), and an output file that already holds games of
//! the shard is continued after its last whole game.

use super::cli::{bar, parse_rules, pool};
use super::job::{self, Shard};
use super::sample::{self, LabelKind, Line};
use crate::eval::EvalKind;
use crate::rules::{Variant, with_rules};
use crate::search::{Limits, RuleSearch, SearchRequest, Selectivity, search};
use crate::tt::{TranspositionTable, TtError};
use indicatif::ProgressBar;
use rayon::prelude::*;
use std::path::Path;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

/// Games relabelled at once between two writes of the output.
const GAMES_PER_BATCH: usize = 32;

/// How to search the positions of a relabel job.
#[derive(Clone, Copy, Debug)]
pub struct RelabelRequest {
    /// The rules the positions are searched under (every line must be of them):
    /// Othello or Anti-Reversi; historical Reversi, which shares Othello's
    /// weights ([`Variant::weights_variant`]), counts as Othello.
    pub rules: Variant,
    /// Midgame search depth.
    pub depth: u32,
    /// How sure the search's Multi-ProbCut cuts must be.
    pub selectivity: Selectivity,
    /// The evaluation the search uses.
    pub eval: EvalKind,
    /// Table size of each game, in MB.
    pub hash_mb: usize,
    /// Search again the lines that already carry a search label too (deeper
    /// labels for data that `datagen --labels search` labelled); without it only
    /// game labels are replaced. Exact labels are always kept.
    pub redo_search: bool,
}

/// The midgame search score of `board`, in whole discs (−64..=64).
fn score_as<R: RuleSearch>(req: &RelabelRequest, board: R::Pos, tt: &TranspositionTable) -> i32 {
    let sreq = SearchRequest::<R> {
        board,
        limits: Limits {
            depth: req.depth,
            exact_empties: 0,
            wld_empties: 0,
            selectivity: req.selectivity,
        },
        eval: req.eval,
        seed: 0,
        find_ties: false,
        threads: 1,
        time: None,
        contempt: 0,
        lines: 1,
    };
    let r = search(&sreq, tt, &AtomicBool::new(false), &mut |_| {});
    job::disc_label(r.score)
}

/// Relabels one game's lines, in order: search labels for game labels, exact
/// ones kept.
pub fn relabel_game(req: &RelabelRequest, lines: &[Line]) -> Result<Vec<Line>, TtError> {
    with_rules!(req.rules, R => relabel_game_under::<R>(req, lines))
}

/// [`relabel_game`] under the rules `R`, those of the job.
fn relabel_game_under<R: RuleSearch>(
    req: &RelabelRequest,
    lines: &[Line],
) -> Result<Vec<Line>, TtError> {
    let variant = req.rules;
    let tt = TranspositionTable::new(req.hash_mb)?;
    Ok(lines
        .iter()
        .map(|line| {
            let mut line = *line;
            let s = &mut line.sample;
            if s.kind == LabelKind::Game || (req.redo_search && s.kind == LabelKind::Search) {
                let board = s.position.othello_like(variant).view::<R>();
                s.label = score_as::<R>(req, board, &tt);
                s.kind = LabelKind::Search;
            }
            line
        })
        .collect())
}

/// Parses a training file into its games (runs of lines with one game number),
/// refusing lines of other rules than `rules`.
pub fn read_games(text: &str, what: &Path, rules: Variant) -> anyhow::Result<Vec<Vec<Line>>> {
    let mut games: Vec<Vec<Line>> = Vec::new();
    for (n, text) in text.lines().enumerate() {
        let line = sample::parse_line(text)
            .map_err(|e| anyhow::anyhow!("{}: line {}: {e}", what.display(), n + 1))?;
        if line.rules != rules {
            anyhow::bail!(
                "{}: line {}: a position of {} data, and this job is for {}",
                what.display(),
                n + 1,
                line.rules.name(),
                rules.name()
            );
        }
        match games.last_mut() {
            Some(g) if g[0].sample.game == line.sample.game => g.push(line),
            _ => games.push(vec![line]),
        }
    }
    Ok(games)
}

/// Whether `a` and `b` name one existing file (through any path or link).
fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    }
}

/// Relabels the shard's games of `input` into `out`, continuing an output that
/// already holds some of them (its last game is done again, as it may be torn).
/// `progress` is told the games done and the shard's total after every batch.
/// Returns the games relabelled by this call.
pub fn run_relabel(
    req: &RelabelRequest,
    input: &Path,
    shard: Shard,
    out: &Path,
    progress: &mut dyn FnMut(u64, u64),
) -> anyhow::Result<u64> {
    let read = |p: &Path| {
        crate::input::read_regular_file(p, RELABEL_FILE_LIMIT)
            .map_err(|e| anyhow::anyhow!("{}: {e}", p.display()))
    };
    if same_file(input, out) {
        anyhow::bail!(
            "{}: the output is the input: relabel writes a new file beside its data",
            out.display()
        );
    }
    let all = read_games(&read(input)?, input, req.rules)?;
    let mine: Vec<&Vec<Line>> = all
        .iter()
        .enumerate()
        .filter(|(k, _)| *k as u64 % shard.count == shard.index)
        .map(|(_, g)| g)
        .collect();
    let mut file = super::open_locked(out)?;
    let (mut done, keep_bytes) = resume(req, out, &mine)?;
    super::cut_to(&mut file, keep_bytes)?;
    let (start, total) = (done, mine.len());
    progress(done as u64, total as u64);
    while done < total {
        let batch = &mine[done..total.min(done + GAMES_PER_BATCH)];
        let labelled: Vec<Vec<Line>> = batch
            .par_iter()
            .map(|g| relabel_game(req, g))
            .collect::<Result<_, _>>()?;
        for game in labelled {
            let text: String = game.iter().map(|l| format!("{l}\n")).collect();
            // One flushed write per game: an interrupt loses at most that game.
            super::append_flushed(&mut file, &text)?;
            done += 1;
        }
        progress(done as u64, total as u64);
    }
    Ok((done - start) as u64)
}

/// The largest input or output file `relabel` reads (it holds its games whole):
/// 2 GiB, some 25 M position lines, five times a 160,000-game round unpacked; a
/// larger file is refused instead of filling the memory (shard it, or pack it).
pub const RELABEL_FILE_LIMIT: u64 = 2 << 30;

/// Where an existing output stands against the shard's games `mine`: how many
/// of them it holds whole (its last game dropped, as a kill may have torn it)
/// and the bytes those take. An output whose games are not the shard's, in
/// order, is refused.
fn resume(req: &RelabelRequest, out: &Path, mine: &[&Vec<Line>]) -> anyhow::Result<(usize, u64)> {
    let rules = req.rules;
    let text = match crate::input::read_regular_file(out, RELABEL_FILE_LIMIT) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((0, 0)),
        Err(e) => return Err(anyhow::anyhow!("{}: {e}", out.display())),
    };
    // Only whole lines count; a torn last line goes with its game.
    let whole = &text[..crate::tools::resume::complete_len(&text)];
    let games = read_games(whole, out, rules)?;
    let Some((last, held)) = games.split_last() else {
        return Ok((0, 0));
    };
    for (k, g) in held.iter().enumerate() {
        let expected = mine.get(k).map(|m| (m[0].sample.game, m.len()));
        if expected != Some((g[0].sample.game, g.len())) {
            anyhow::bail!(
                "{}: its game {} of {} positions is not game {k} of this shard's input",
                out.display(),
                g[0].sample.game,
                g.len()
            );
        }
    }
    // The bytes of the held games' lines as they stand in the file.
    let lines: usize = held.iter().map(Vec::len).sum();
    let bytes: usize = whole.split_inclusive('\n').take(lines).map(str::len).sum();
    // The last game, relabelled again (the labels are deterministic): the same
    // lines mean it is whole and made with these settings; lines that begin
    // them were cut short by an interrupt; others come from other settings.
    let Some(input) = mine.get(held.len()) else {
        anyhow::bail!(
            "{}: it holds more games than this shard's input",
            out.display()
        );
    };
    let text = |g: &[Line]| -> String { g.iter().map(|l| format!("{l}\n")).collect() };
    let again = text(&relabel_game(req, input)?);
    let written = &whole[bytes..];
    if written == again {
        Ok((held.len() + 1, whole.len() as u64))
    } else if again.starts_with(written) && last[0].sample.game == input[0].sample.game {
        Ok((held.len(), bytes as u64))
    } else {
        anyhow::bail!(
            "{}: its last game ({}) is not what this command makes of it: the file was \
             made with other settings (depth, selectivity, evaluation, --redo-search) or \
             from other data; not continued",
            out.display(),
            last[0].sample.game
        )
    }
}

// The command: flags to a request, progress to stderr.

/// `mollett relabel`.
#[derive(clap::Args, Debug)]
pub struct RelabelArgs {
    /// A training file written by `datagen`.
    pub data: PathBuf,
    /// The output file; one already holding games of this shard is continued.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Relabel only the input's `k`-th games with `k % n == i` (`i/n`); the
    /// shards' files concatenate.
    #[arg(long, default_value = "0/1")]
    pub shard: Shard,
    /// The rules of the data: othello or anti.
    #[arg(long, default_value = "othello", value_parser = parse_rules)]
    pub variant: Variant,
    /// Midgame search depth of the labels.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=20))]
    pub depth: u32,
    /// The search's selectivity, 73..100 (100: full width).
    #[arg(long, default_value = "100", value_name = "PERCENT")]
    pub selectivity: crate::search::Selectivity,
    /// The evaluation the search uses.
    #[arg(long, default_value = "learned")]
    pub eval: EvalKind,
    /// Table size per game, in MB.
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
    /// Search again the positions that already have a search label (deeper
    /// labels for `datagen --labels search` data); exact labels are kept.
    #[arg(long)]
    pub redo_search: bool,
    /// Games relabelled at once (default: all logical CPUs); the output does not
    /// depend on it. `--threads` is the older name.
    #[arg(long, visible_alias = "threads", value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub jobs: Option<u16>,
}

/// Runs `mollett relabel`.
pub fn run(args: RelabelArgs) -> anyhow::Result<()> {
    let req = RelabelRequest {
        rules: args.variant,
        depth: args.depth,
        selectivity: args.selectivity,
        eval: args.eval,
        hash_mb: args.hash,
        redo_search: args.redo_search,
    };
    let pool = pool(args.jobs)?;
    let mut progress: Option<ProgressBar> = None;
    let done = pool.install(|| {
        run_relabel(
            &req,
            &args.data,
            args.shard,
            &args.out,
            &mut |done, total| {
                let b = progress
                    .get_or_insert_with(|| bar(total, "games").unwrap_or_else(ProgressBar::hidden));
                b.set_position(done);
            },
        )
    })?;
    if let Some(b) = progress {
        b.finish_and_clear();
    }
    let (shard, data, out) = (args.shard, args.data.display(), args.out.display());
    if done == 0 {
        eprintln!(
            "relabel: {out} holds shard {}/{}'s games of {data} already: nothing to do",
            shard.index, shard.count
        );
    } else {
        let word = if done == 1 { "game" } else { "games" };
        eprintln!(
            "relabel: {done} {word} relabelled, shard {}/{} of {data} in {out}",
            shard.index, shard.count
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Anti, Othello};
    use crate::tools::learn::datagen::{DatagenRequest, play_game};

    fn data(rules: Variant, games: u64) -> String {
        let req = DatagenRequest {
            rules,
            seed: 5,
            depth: 1,
            exact_empties: 8,
            noise_per_mille: 0,
            ..crate::tools::learn::datagen::tests::request()
        };
        (0..games)
            .flat_map(|g| play_game(&req, g).unwrap())
            .map(|sample| format!("{}\n", Line { sample, rules }))
            .collect()
    }

    fn request(rules: Variant) -> RelabelRequest {
        RelabelRequest {
            rules,
            depth: 2,
            selectivity: Selectivity::FULL,
            eval: EvalKind::Learned,
            hash_mb: 1,
            redo_search: false,
        }
    }

    #[test]
    fn search_labels_are_searched_again_only_when_asked() {
        let rules = Variant::Othello;
        let text = data(rules, 1);
        let games = read_games(&text, Path::new("in"), rules).unwrap();
        let once = relabel_game(&request(rules), &games[0]).unwrap();
        // A search-labelled game is left as it is...
        assert_eq!(relabel_game(&request(rules), &once).unwrap(), once);
        // ...unless asked: then deeper searches give other labels, and the
        // exact ones stay.
        let deeper = RelabelRequest {
            depth: 4,
            redo_search: true,
            ..request(rules)
        };
        let again = relabel_game(&deeper, &once).unwrap();
        let mut changed = 0;
        for (a, b) in once.iter().zip(&again) {
            assert_eq!(a.sample.kind, b.sample.kind);
            match a.sample.kind {
                LabelKind::Exact => assert_eq!(a, b),
                _ => changed += usize::from(a.sample.label != b.sample.label),
            }
        }
        assert!(changed > 0, "depth 4 gave every label depth 2 gave");
        assert_eq!(again, relabel_game(&deeper, &games[0]).unwrap());
    }

    #[test]
    fn game_labels_become_search_scores_and_exact_ones_stay() {
        for rules in [Variant::Othello, Variant::Anti] {
            let text = data(rules, 2);
            let games = read_games(&text, Path::new("in"), rules).unwrap();
            assert_eq!(games.len(), 2);
            let req = request(rules);
            let out = relabel_game(&req, &games[1]).unwrap();
            assert_eq!(out.len(), games[1].len());
            let (mut changed, mut first) = (0, true);
            for (a, b) in games[1].iter().zip(&out) {
                assert_eq!(a.sample.position, b.sample.position);
                assert_eq!(a.sample.game, b.sample.game);
                match a.sample.kind {
                    LabelKind::Exact => assert_eq!(a, b),
                    _ => {
                        assert_eq!(b.sample.kind, LabelKind::Search);
                        // The game's first searched position meets a fresh table:
                        // its label is the search's score of it alone.
                        if first {
                            let tt = TranspositionTable::new(1).unwrap();
                            let board = a.sample.position.board;
                            let alone = match rules {
                                Variant::Othello | Variant::Reversi => {
                                    score_as::<Othello>(&req, board, &tt)
                                }
                                Variant::Anti => score_as::<Anti>(&req, board, &tt),
                            };
                            assert_eq!(alone, b.sample.label);
                            first = false;
                        }
                        assert!(b.sample.label.abs() <= 64);
                        changed += usize::from(a.sample.label != b.sample.label);
                    }
                }
            }
            assert!(changed > 0, "every search label equal to the game's");
            // Relabelled lines parse back, and say how they were labelled.
            let again = sample::parse_line(&out[0].to_string()).unwrap();
            assert_eq!(again, out[0]);
            assert!(out[0].to_string().contains(" search "));
        }
    }

    #[test]
    fn an_interrupted_job_is_continued_to_the_same_file() {
        let dir = std::env::temp_dir().join(format!("mollett-relabel-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (input, whole, cut) = (
            dir.join("in.txt"),
            dir.join("whole.txt"),
            dir.join("cut.txt"),
        );
        std::fs::write(&input, data(Variant::Othello, 5)).unwrap();
        let req = request(Variant::Othello);
        let shard: Shard = "0/2".parse().unwrap();
        assert_eq!(
            run_relabel(&req, &input, shard, &whole, &mut |_, _| {}).unwrap(),
            3
        );
        let text = std::fs::read_to_string(&whole).unwrap();
        // Games 0, 2 and 4 of the input; cut inside the second.
        let second = text.lines().position(|l| l.ends_with(" 2")).unwrap();
        std::fs::write(&cut, crate::tools::learn::torn(&text, second + 2, 5)).unwrap();
        assert_eq!(
            run_relabel(&req, &input, shard, &cut, &mut |_, _| {}).unwrap(),
            2
        );
        assert_eq!(std::fs::read_to_string(&cut).unwrap(), text);
        // The other shard's output is not this one's, and is left alone.
        let other: Shard = "1/2".parse().unwrap();
        assert!(run_relabel(&req, &input, other, &whole, &mut |_, _| {}).is_err());
        assert_eq!(std::fs::read_to_string(&whole).unwrap(), text);
        // Lines of other rules are refused.
        let anti = request(Variant::Anti);
        let e = run_relabel(
            &anti,
            &input,
            Shard::ALL,
            &dir.join("a.txt"),
            &mut |_, _| {},
        );
        assert!(e.unwrap_err().to_string().contains("othello data"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
