//! The `analyze` subcommand: flags to a request, the review to text (or JSON
//! lines, or an SVG graph).

use super::{AnalyzeOptions, TABLE_HEADER, analyze, format_line, parse_game, svg};
use crate::input::{MAX_TEXT, read_regular_file, read_text};
use crate::rules::Variant;
use crate::search::Level;
use anyhow::{Context, Result, bail};

/// `mollett analyze`.
#[derive(clap::Args, Debug)]
pub struct AnalyzeArgs {
    /// The game: a transcript (f5d6c3...), a GGF file, a file holding a
    /// transcript, or `-` for stdin.
    pub game: String,
    /// Search level for every position: 1..60, easy, medium or hard.
    #[arg(long, default_value = "10")]
    pub level: Level,
    /// A loss of this many discs or more is a mistake (three times: a blunder).
    #[arg(long, default_value_t = 4.0)]
    pub threshold: f64,
    /// Transposition table size in MB.
    #[arg(long, default_value_t = 64)]
    pub hash: usize,
    /// Search threads (lazy SMP), 1..=1024; with one (the default, as `solve`
    /// and `accuracy`) the analysis is the same on every run.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: u16,
    /// Print one JSON object per move instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Also draw the evaluation curve into this SVG file.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<std::path::PathBuf>,
    /// The rules of a game whose record does not name them: othello (default),
    /// reversi (a transcript starts with the four centre placements) or anti.
    #[arg(long, default_value = "othello")]
    pub variant: Variant,
    /// The opening book whose moves are marked `book`: a `.mlb` file or `off`
    /// (default: the embedded book).
    #[arg(long, value_name = "FILE|off")]
    pub book: Option<String>,
}

/// Analyses a game and prints a table or JSON lines; draws the SVG if asked.
pub fn run_analyze(args: AnalyzeArgs) -> Result<()> {
    let text = if args.game == "-" {
        read_text(std::io::stdin().lock(), MAX_TEXT).context("cannot read the game from stdin")?
    } else if std::path::Path::new(&args.game).is_file() || names_a_file(&args.game) {
        // A name with a dot or a slash is no transcript: a missing file is said so.
        read_regular_file(std::path::Path::new(&args.game), MAX_TEXT)
            .with_context(|| format!("cannot read {}", args.game))?
    } else {
        args.game.clone()
    };
    let game = parse_game(&text, args.variant).context("cannot read the game")?;
    if !(args.threshold > 0.0 && args.threshold.is_finite()) {
        bail!("--threshold must be a positive number of discs");
    }
    let opts = AnalyzeOptions {
        level: args.level,
        threshold: args.threshold,
        hash_mb: args.hash,
        threads: usize::from(args.threads),
    };
    if !args.json {
        say!("{}", TABLE_HEADER);
    }
    let book = crate::tools::cli::engine_book(args.book.as_deref())?;
    let positions = game.positions();
    let moves = analyze(&game, &opts, &mut |a| {
        let a = &crate::tools::analyze::MoveAnalysis {
            book: book.as_ref().is_some_and(|b| {
                let hints = b.hints(&positions[a.ply - 1]).unwrap_or_default();
                hints
                    .iter()
                    .any(|m| a.played == crate::board::Move::Play(m.square))
            }),
            ..a.clone()
        };
        if args.json {
            say!("{}", a.to_json());
        } else {
            say!("{}", format_line(a));
        }
    })?;
    if !args.json {
        let loss = |side| {
            moves
                .iter()
                .filter(|a| a.side == side)
                .map(|a| a.loss)
                .sum::<f64>()
                + 0.0 // an empty sum is -0.0, which would print as -0.00
        };
        let count = moves.iter().filter(|a| a.is_mistake()).count();
        say!(
            "mistakes: {count}; discs lost: black {:.2}, white {:.2}",
            loss(crate::Color::Black),
            loss(crate::Color::White)
        );
    }
    if let Some(path) = &args.svg {
        let end = game.position();
        let final_black = end.is_game_over().then(|| end.final_score_black());
        let title = format!("Mollett analysis, level {}", args.level);
        let svg = svg::render(&moves, &title, final_black);
        let is_svg = |head: &[u8]| head.starts_with(b"<svg") || head.starts_with(b"<?xml");
        crate::input::write_whole_over_own(path, svg.as_bytes(), is_svg)
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(())
}

/// Whether `game` can only be a file name: no GGF record (`(;`) and a `.`,
/// `/` or `\\`, which no transcript has.
fn names_a_file(game: &str) -> bool {
    let g = game.trim();
    !g.starts_with('(') && g.contains(['.', '/', '\\'])
}
