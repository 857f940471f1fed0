//! Training positions from self-play (`mollett datagen`).
//!
//! Game `g` of a job is played from its own seed, so any game can be replayed
//! alone: that is what makes a job shardable (`--shard i/n` plays the games with
//! `g % n == i`; the shards' files simply concatenate) and resumable (a file that
//! already holds games of the shard is continued after its last whole game).
//!
//! A game starts from an opening (one of a list, in turn, or the start) followed
//! by a seeded number of uniformly random moves, so that games differ and the
//! positions cover lopsided play too. After that both sides play the midgame
//! search at a fixed depth, except that with a small seeded probability a move is
//! replaced by a random one (the noise that keeps games from converging). From
//! [`DatagenRequest::exact_empties`] empties on, every move is an exact solve:
//! those positions get their true value as label ([`LabelKind::Exact`]); earlier
//! ones get the game's final result ([`LabelKind::Game`]), or with
//! [`Labels::Search`] the score of the search that chose the move (every such
//! position is searched, a random move's too: [`LabelKind::Search`], the label
//! `relabel` would give it, without a second search of every position).
//!
//! Under Anti-Reversi ([`Variant::Anti`]) the games are the same kind of
//! self-play with that variant's search and scoring (the fewer discs win), and
//! the labels are Anti-Reversi margins: the data for the Anti-Reversi weights.

use super::cli::{bar, parse_rules, pool};
use super::job;
use super::job::Shard;
use super::sample::{LabelKind, Sample};
use crate::board::Move;
use crate::eval::EvalKind;
use crate::rng::Rng;
use crate::rules::Position;
use crate::rules::game::Game;
use crate::rules::{Variant, with_rules};
use crate::search::{Limits, RuleSearch, SearchRequest, SearchResult, Selectivity, search};
use crate::tools::arena::openings::parse_openings;
use crate::tt::{TranspositionTable, TtError};
use anyhow::Context as _;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

/// What labels the midgame positions of a job get (exact ones are always exact).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Labels {
    /// The game's final result for the side to move.
    Game,
    /// The score of the position's own search, in whole discs.
    Search,
}

/// How to play and label the games of a job.
#[derive(Clone, Debug)]
pub struct DatagenRequest {
    /// The rules the games are played and scored under: Othello or Anti-Reversi; historical Reversi, which shares Othello's
    /// weights ([`Variant::weights_variant`]), counts as Othello.
    pub rules: Variant,
    /// The job's seed: game `g` plays from a seed mixed from it and `g`.
    pub seed: u64,
    /// Openings to start from, game `g` from `openings[g % len]`; empty: the start.
    pub openings: Vec<Game>,
    /// The fewest and most random moves played after the opening.
    pub random_moves: (u32, u32),
    /// Midgame search depth of both sides.
    pub depth: u32,
    /// How sure the midgame search's Multi-ProbCut cuts must be.
    pub selectivity: Selectivity,
    /// What labels the midgame positions get.
    pub labels: Labels,
    /// From this many empties on every move is an exact solve.
    pub exact_empties: u32,
    /// Chance, in parts per thousand, that a midgame move is a random one.
    pub noise_per_mille: u32,
    /// The evaluation both sides play with.
    pub eval: EvalKind,
    /// Table size of each game, in MB.
    pub hash_mb: usize,
}

/// Mixes the job's seed with a game number (one SplitMix64 step over both).
fn game_seed(seed: u64, game: u64) -> u64 {
    Rng::new(seed ^ game.wrapping_mul(0xd1b5_4a32_d192_ed03)).next_u64()
}

/// The search of `board` under the rules `R` with `req`'s settings.
fn search_as<R: RuleSearch>(
    req: &DatagenRequest,
    board: R::Pos,
    seed: u64,
    tt: &TranspositionTable,
    stop: &AtomicBool,
) -> SearchResult {
    let sreq = SearchRequest::<R> {
        board,
        limits: Limits {
            depth: req.depth,
            exact_empties: req.exact_empties,
            wld_empties: req.exact_empties,
            selectivity: req.selectivity,
        },
        eval: req.eval,
        seed,
        find_ties: false,
        threads: 1,
        time: None,
        contempt: 0,
        lines: 1,
    };
    search(&sreq, tt, stop, &mut |_| {})
}

/// Plays game `game` of the job and returns its labelled positions (of the
/// job's rules), in order
/// (passes and the finished position are left out: there is nothing to choose).
pub fn play_game(req: &DatagenRequest, game: u64) -> Result<Vec<Sample>, TtError> {
    with_rules!(req.rules, R => play_game_under::<R>(req, game))
}

/// [`play_game`] under the rules `R`, those of the job.
fn play_game_under<R: RuleSearch>(req: &DatagenRequest, game: u64) -> Result<Vec<Sample>, TtError> {
    let variant = req.rules;
    let tt = TranspositionTable::new(req.hash_mb)?;
    let stop = AtomicBool::new(false);
    let seed = game_seed(req.seed, game);
    let mut rng = Rng::new(seed);
    let mut pos = match req.openings.len() {
        0 => Position::START,
        n => req.openings[(game % n as u64) as usize].position(),
    };
    let (lo, hi) = req.random_moves;
    let mut random_left = lo + rng.below(u64::from(hi.saturating_sub(lo)) + 1) as u32;
    // Each position with its label when a search found it (exact, or the
    // search's score), or none: the game's result.
    let mut seen: Vec<(Position, Option<(LabelKind, i32)>)> = Vec::new();
    while !pos.board.is_game_over() {
        let board = pos.board;
        if board.must_pass() {
            pos = pos.play(Move::Pass).expect("a forced pass is legal");
            continue;
        }
        let exact = board.empties() <= req.exact_empties;
        let random =
            random_left > 0 || (!exact && rng.below(1000) < u64::from(req.noise_per_mille));
        let searched = !random || (!exact && req.labels == Labels::Search);
        let result = searched.then(|| {
            let board = pos.othello_like(variant).view::<R>();
            search_as::<R>(req, board, seed, &tt, &stop)
        });
        let mv = match &result {
            Some(r) if !random => r.best.expect("a position with moves has a best move"),
            _ => {
                random_left = random_left.saturating_sub(1);
                let sq = rng.pick_bit(board.moves());
                Move::Play(crate::Square::new(sq).expect("a square"))
            }
        };
        let label = match result {
            Some(r) if exact => Some((LabelKind::Exact, crate::eval::whole_discs(r.score))),
            Some(r) if req.labels == Labels::Search => {
                Some((LabelKind::Search, job::disc_label(r.score)))
            }
            _ => None,
        };
        seen.push((pos, label));
        pos = pos
            .play(mv)
            .expect("the search and the draw play legal moves");
    }
    let black_final = pos.othello_like(variant).final_score_black();
    Ok(seen
        .into_iter()
        .map(|(position, label)| {
            let game_label = match position.side {
                crate::Color::Black => black_final,
                crate::Color::White => -black_final,
            };
            let (kind, label) = label.unwrap_or((LabelKind::Game, game_label));
            Sample {
                position,
                label,
                kind,
                game,
            }
        })
        .collect())
}

// The command: flags to a request, progress to stderr.

/// `mollett datagen`.
#[derive(clap::Args, Debug)]
pub struct DatagenArgs {
    /// Games in the whole job (over every shard).
    #[arg(long)]
    pub games: u64,
    /// The output file; one already holding games of this shard is continued.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Play only the games `g` with `g % n == i` (`i/n`), for a job spread over
    /// processes or machines; the shards' files concatenate.
    #[arg(long, default_value = "0/1")]
    pub shard: Shard,
    /// The job's seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The rules the games are played and scored under: othello, or anti
    /// (Anti-Reversi, the fewer discs win; its lines end in `anti`). Historical
    /// Reversi shares Othello's weights and has no data of its own.
    #[arg(long, default_value = "othello", value_parser = parse_rules)]
    pub variant: Variant,
    /// Openings to start from, one transcript per line (as the XOT lists), used in
    /// turn; default: the start position.
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// Random moves after the opening: `A..B` (a seeded count in that range).
    #[arg(long, default_value = "2..14", value_parser = parse_range)]
    pub random_moves: (u32, u32),
    /// Midgame search depth of both sides.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=20))]
    pub depth: u32,
    /// The midgame search's selectivity, 73..100 (100: full width).
    #[arg(long, default_value = "100", value_name = "PERCENT")]
    pub selectivity: crate::search::Selectivity,
    /// The midgame positions' labels: `game` (the game's final result) or
    /// `search` (the score of the search of the position, as `relabel` gives;
    /// random moves' positions are searched too).
    #[arg(long, default_value = "game", value_parser = parse_labels)]
    pub labels: LabelsArg,
    /// From this many empties on every move is an exact solve (exact labels).
    #[arg(long, default_value_t = 18, value_parser = clap::value_parser!(u32).range(0..=30))]
    pub exact_empties: u32,
    /// Chance, per thousand midgame moves, of a random move instead of the search's.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(0..=1000))]
    pub noise: u32,
    /// The evaluation both sides play with (as `relabel` and the engine: the
    /// learned one).
    #[arg(long, default_value = "learned")]
    pub eval: EvalKind,
    /// Table size per game, in MB.
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
    /// Games played at once (default: all logical CPUs); the output does not
    /// depend on it. `--threads` is the older name.
    #[arg(long, visible_alias = "threads", value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub jobs: Option<u16>,
}

/// The `--labels` of `datagen`.
#[derive(Clone, Copy, Debug)]
pub struct LabelsArg(Labels);

/// Parses `game` or `search`.
fn parse_labels(s: &str) -> Result<LabelsArg, String> {
    match s {
        "game" => Ok(LabelsArg(Labels::Game)),
        "search" => Ok(LabelsArg(Labels::Search)),
        _ => Err(format!("'{s}' is not a kind of label (game or search)")),
    }
}

/// Parses `A..B` with `A` ≤ `B` ≤ 60.
fn parse_range(s: &str) -> Result<(u32, u32), String> {
    let bad = || format!("'{s}' is not a range A..B with A <= B <= 60");
    let (a, b) = s.split_once("..").ok_or_else(bad)?;
    let (a, b): (u32, u32) = (a.parse().map_err(|_| bad())?, b.parse().map_err(|_| bad())?);
    if a > b || b > 60 {
        return Err(bad());
    }
    Ok((a, b))
}

/// The largest `--openings` file read: 64 MiB, as `match --openings` (an XOT
/// list of 10,000 openings is 250 KB).
pub const OPENINGS_FILE_LIMIT: u64 = 64 << 20;

/// Runs `mollett datagen`.
pub fn run(args: DatagenArgs) -> anyhow::Result<()> {
    let openings = match &args.openings {
        Some(file) => {
            let text = crate::input::read_regular_file(file, OPENINGS_FILE_LIMIT)
                .with_context(|| format!("cannot read {}", file.display()))?;
            // Anti-Reversi moves as Othello: the same transcripts serve both.
            parse_openings(&text, Variant::Othello)?
        }
        None => Vec::new(),
    };
    let req = DatagenRequest {
        rules: args.variant,
        seed: args.seed,
        openings,
        random_moves: args.random_moves,
        depth: args.depth,
        selectivity: args.selectivity,
        labels: args.labels.0,
        exact_empties: args.exact_empties,
        noise_per_mille: args.noise,
        eval: args.eval,
        hash_mb: args.hash,
    };
    let pool = pool(args.jobs)?;
    let progress = bar(args.shard.len(args.games), "games");
    let played = pool.install(|| {
        crate::tools::learn::run_datagen(&req, args.games, args.shard, &args.out, &mut |done, _| {
            if let Some(b) = &progress {
                b.set_position(done);
            }
        })
    })?;
    if let Some(b) = progress {
        b.finish_and_clear();
    }
    let (shard, out) = (args.shard, args.out.display());
    if played == 0 {
        eprintln!(
            "datagen: {out} holds shard {}/{}'s games of {} already: nothing to do",
            shard.index, shard.count, args.games
        );
    } else {
        let word = if played == 1 { "game" } else { "games" };
        eprintln!(
            "datagen: {played} {word} played, shard {}/{} of {} games in {out}",
            shard.index, shard.count, args.games
        );
    }
    Ok(())
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::board::Board;

    /// A small, fast job (depth 2, the hand-written evaluation) for tests.
    pub(crate) fn request() -> DatagenRequest {
        DatagenRequest {
            rules: Variant::Othello,
            seed: 7,
            openings: Vec::new(),
            random_moves: (2, 6),
            depth: 2,
            selectivity: crate::search::Selectivity::FULL,
            labels: crate::tools::learn::datagen::Labels::Game,
            exact_empties: 10,
            noise_per_mille: 50,
            eval: EvalKind::Mobility,
            hash_mb: 1,
        }
    }

    /// The exact Anti-Reversi value of `b` by plain minimax (few empties only).
    fn anti_minimax(b: &Board) -> i32 {
        let moves = b.moves();
        if moves == 0 {
            let p = b.pass();
            return if p.moves() == 0 {
                -b.disc_difference()
            } else {
                -anti_minimax(&p)
            };
        }
        (0..64u8)
            .filter(|&sq| moves >> sq & 1 == 1)
            .map(|sq| -anti_minimax(&b.make(sq, b.flips(sq))))
            .max()
            .expect("a move")
    }

    #[test]
    fn search_labels_are_the_scores_relabel_gives() {
        use crate::tools::learn::relabel::{RelabelRequest, relabel_game};
        use crate::tools::learn::sample::Line;
        for rules in [Variant::Othello, Variant::Anti] {
            let req = DatagenRequest {
                rules,
                depth: 3,
                labels: Labels::Search,
                ..request()
            };
            let played = play_game(&req, 5).unwrap();
            assert_eq!(played, play_game(&req, 5).unwrap());
            assert!(played.iter().all(|s| {
                let exact = s.position.board.empties() <= req.exact_empties;
                s.kind
                    == if exact {
                        LabelKind::Exact
                    } else {
                        LabelKind::Search
                    }
            }));
            // Full width, a search's score is the position's depth-3 value
            // whatever the table holds: relabel's fresh searches must agree.
            let as_game: Vec<Line> = played
                .iter()
                .map(|s| Line {
                    sample: Sample {
                        kind: if s.kind == LabelKind::Search {
                            LabelKind::Game
                        } else {
                            s.kind
                        },
                        label: 0,
                        ..*s
                    },
                    rules,
                })
                .collect();
            let relabel = RelabelRequest {
                rules,
                depth: 3,
                selectivity: Selectivity::FULL,
                eval: req.eval,
                hash_mb: 1,
                redo_search: false,
            };
            let again = relabel_game(&relabel, &as_game).unwrap();
            for (a, b) in played.iter().zip(&again) {
                if a.kind == LabelKind::Search {
                    assert_eq!(a.label, b.sample.label, "{a:?}");
                }
            }
        }
    }

    #[test]
    fn a_game_replays_and_its_exact_labels_are_true() {
        for rules in [Variant::Othello, Variant::Anti] {
            let req = DatagenRequest { rules, ..request() };
            let a = play_game(&req, 3).unwrap();
            assert_eq!(a, play_game(&req, 3).unwrap());
            assert_ne!(a, play_game(&req, 4).unwrap());
            let exact: Vec<_> = a.iter().filter(|s| s.kind == LabelKind::Exact).collect();
            assert!(!exact.is_empty());
            for s in exact {
                assert!(s.position.board.empties() <= req.exact_empties);
                // A perfect line keeps the value: every exact label is the game's
                // result for that side.
                let last = a.last().unwrap();
                let same_side = s.position.side == last.position.side;
                assert_eq!(s.label, if same_side { last.label } else { -last.label });
                if rules == Variant::Anti && s.position.board.empties() <= 7 {
                    assert_eq!(s.label, anti_minimax(&s.position.board), "{s:?}");
                }
            }
            for s in a.iter().filter(|s| s.kind == LabelKind::Game) {
                assert!(s.position.board.empties() > req.exact_empties);
            }
        }
        // The two rule sets play different games from the same seed.
        let othello = play_game(&request(), 3).unwrap();
        let anti = play_game(
            &DatagenRequest {
                rules: Variant::Anti,
                ..request()
            },
            3,
        )
        .unwrap();
        assert_ne!(
            othello.iter().map(|s| s.position).collect::<Vec<_>>(),
            anti.iter().map(|s| s.position).collect::<Vec<_>>()
        );
    }
}
