//! Packed training data: one self-play game per line (`mollett pack`, `unpack`).
//!
//! A `datagen` or `relabel` file spends a 64-square board string on every
//! position; the positions of one game follow from its first by the moves
//! played, so a game packs into its moves and its labels:
//!
//! ```text
//! 17 - f5d6c3d3c4 s2,-1,3,0e-4,4 anti
//! ```
//!
//! Space-separated fields: the game number; the game's first position (`-` for
//! the start, Black to move; otherwise its 64 squares, `/` and the side to move,
//! as `---…XO…/X`); the moves from each position to the next, squares run
//! together (`-` for none: a game of one position), a forced pass after a move
//! being implied; the labels, one per position in order, as runs that each begin
//! with the kind (`g` game, `s` search, `e` exact) followed by the values,
//! comma-separated; and `anti` for Anti-Reversi data, as in the position lines.
//! Unpacking gives back the position lines, character for character
//! ([`unpack_game`] of [`pack_game`] is the identity on any game's lines).
//!
//! A name ending in `.gz` is gzip-compressed; gzip members concatenate, so
//! shards packed one by one still join with `cat`. A file whose name ends in
//! `.mpk` or `.mpk.gz` is packed; every reader of training data
//! ([`for_each_line`]) takes both kinds.

use super::sample::{LabelKind, Line, Sample, parse_line};
use crate::board::Move;
use crate::format::parse_board_prefix;
use crate::input::NewFile;
use crate::rules::Position;
use crate::rules::Variant;
use anyhow::bail;
use anyhow::{Context, Result};
use std::fmt::Write as _;
use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::Path;
use std::path::PathBuf;

/// Whether `path` names a packed file (`.mpk`, or `.mpk.gz` compressed).
pub fn is_packed(path: &Path) -> bool {
    let name = path.to_string_lossy();
    name.ends_with(".mpk") || name.ends_with(".mpk.gz")
}

/// Whether `path` names a gzip-compressed file.
fn is_gzip(path: &Path) -> bool {
    path.to_string_lossy().ends_with(".gz")
}

/// The letter of a label kind in a packed line.
const fn kind_letter(kind: LabelKind) -> char {
    match kind {
        LabelKind::Game => 'g',
        LabelKind::Search => 's',
        LabelKind::Exact => 'e',
    }
}

/// The position after `mv` and the forced passes that follow it.
fn after(pos: &Position, mv: Move) -> Option<Position> {
    let mut next = pos.play(mv).ok()?;
    while next.board.must_pass() {
        next = next.play(Move::Pass).ok()?;
    }
    Some(next)
}

/// Packs the lines of one game (one game number, one rules set, in the order
/// played: each position follows from the one before by a move and the forced
/// passes after it). The message says which line breaks the chain.
pub fn pack_game(lines: &[Line]) -> Result<String, String> {
    let first = lines.first().ok_or("a game with no positions")?;
    let (game, rules) = (first.sample.game, first.rules);
    let mut out = format!("{game} ");
    let start = first.sample.position;
    if start == Position::START {
        out.push('-');
    } else {
        let text = crate::format::write_board_string(&start);
        let (squares, side) = text.split_at(64);
        write!(out, "{squares}/{}", side.trim()).expect("writing to a string");
    }
    out.push(' ');
    let moves_at = out.len();
    for (i, pair) in lines.windows(2).enumerate() {
        let (a, b) = (&pair[0].sample, &pair[1].sample);
        if pair[1].rules != rules || b.game != game {
            return Err(format!("position {} is of another game", i + 2));
        }
        let mv = a
            .position
            .legal_moves()
            .into_iter()
            .find(|&m| after(&a.position, m) == Some(b.position))
            .ok_or_else(|| {
                format!(
                    "position {} of game {game} does not follow from the one before it by a move",
                    i + 2
                )
            })?;
        let sq = mv.square().ok_or("a pass between two positions")?;
        write!(out, "{sq}").expect("writing to a string");
    }
    if out.len() == moves_at {
        out.push('-');
    }
    out.push(' ');
    let mut kind = None;
    for (i, line) in lines.iter().enumerate() {
        let s = &line.sample;
        if kind != Some(s.kind) {
            out.push(kind_letter(s.kind));
            kind = Some(s.kind);
        } else if i > 0 {
            out.push(',');
        }
        write!(out, "{}", s.label).expect("writing to a string");
    }
    if rules == Variant::Anti {
        out.push_str(" anti");
    }
    Ok(out)
}

/// Parses the labels field: the kind and value of each position.
fn parse_labels(text: &str) -> Result<Vec<(LabelKind, i32)>, String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(letter) = rest.chars().next() {
        let kind = match letter {
            'g' => LabelKind::Game,
            's' => LabelKind::Search,
            'e' => LabelKind::Exact,
            _ => return Err(format!("'{letter}' is not a label kind (g, s or e)")),
        };
        let body_end = rest[1..]
            .find(|c: char| c.is_ascii_alphabetic())
            .map_or(rest.len(), |i| i + 1);
        for value in rest[1..body_end].split(',') {
            let v: i32 = value
                .parse()
                .ok()
                .filter(|v: &i32| v.abs() <= 64)
                .ok_or_else(|| format!("'{value}' is not a disc difference (-64..=64)"))?;
            out.push((kind, v));
        }
        rest = &rest[body_end..];
    }
    Ok(out)
}

/// Unpacks one packed line into its game's position lines; the message says
/// what is wrong.
pub fn unpack_game(text: &str) -> Result<Vec<Line>, String> {
    let fields: Vec<&str> = text.split_ascii_whitespace().collect();
    let rules = match fields.get(4) {
        None if fields.len() == 4 => Variant::Othello,
        Some(&"anti") if fields.len() == 5 => Variant::Anti,
        _ => return Err("a packed game has 4 fields, then 'anti' or nothing".into()),
    };
    let game: u64 = fields[0]
        .parse()
        .map_err(|_| format!("'{}' is not a game number", fields[0]))?;
    let mut pos = match fields[1] {
        "-" => Position::START,
        s => {
            let (squares, side) = s
                .split_once('/')
                .ok_or_else(|| format!("'{s}' is not a first position (squares/side)"))?;
            let (p, used) = parse_board_prefix(&format!("{squares} {side}"))
                .map_err(|e| format!("the first position: {e}"))?;
            if used != squares.len() + 1 + side.len() || squares.len() != 64 {
                return Err(format!("'{s}' is not a first position (squares/side)"));
            }
            p
        }
    };
    let labels = parse_labels(fields[3])?;
    let moves = match fields[2] {
        "-" => "",
        m => m,
    };
    if !moves.is_ascii() || moves.len() % 2 != 0 || moves.len() / 2 + 1 != labels.len() {
        return Err(format!(
            "{} labels for the moves '{}' (one per position: one more than the moves)",
            labels.len(),
            fields[2]
        ));
    }
    let mut out = Vec::with_capacity(labels.len());
    for (i, &(kind, label)) in labels.iter().enumerate() {
        out.push(Line {
            sample: Sample {
                position: pos,
                label,
                kind,
                game,
            },
            rules,
        });
        if let Some(sq) = moves.get(2 * i..2 * i + 2) {
            let sq = sq
                .parse()
                .map_err(|_| format!("'{sq}' is not a square (move {})", i + 1))?;
            pos = after(&pos, Move::Play(sq))
                .ok_or_else(|| format!("move {} ({sq}) is illegal", i + 1))?;
        }
    }
    Ok(out)
}

/// Opens a data file, gzip-decoded when its name ends in `.gz`.
pub fn open(path: &Path) -> Result<Box<dyn BufRead>> {
    let file = crate::input::open_regular_file(path)
        .with_context(|| format!("cannot read {}", path.display()))?;
    Ok(if is_gzip(path) {
        Box::new(BufReader::new(flate2::read::MultiGzDecoder::new(file)))
    } else {
        Box::new(BufReader::new(file))
    })
}

/// The longest line of a training file read: a position line is about 80 bytes
/// and a packed game some 300, so a longer one is not data (`/dev/zero`, a
/// decompression bomb) and is refused before it can fill the memory.
pub const DATA_LINE_MAX: usize = 64 << 10;

/// Calls `f` with every position line of a training file in order: a file of
/// position lines (`datagen`, `relabel`) or a packed one ([`is_packed`]), either
/// possibly gzip-compressed. An error names the file and line.
pub fn for_each_line(path: &Path, mut f: impl FnMut(Line) -> Result<()>) -> Result<()> {
    let packed = is_packed(path);
    let lines = crate::input::BoundedLines::new(open(path)?, DATA_LINE_MAX);
    for (i, text) in lines.enumerate() {
        let (_, text) = text.with_context(|| format!("cannot read {}", path.display()))?;
        if text.trim().is_empty() {
            continue;
        }
        let at = |e: String| anyhow::anyhow!("{}: line {}: {e}", path.display(), i + 1);
        if packed {
            for line in unpack_game(&text).map_err(at)? {
                f(line)?;
            }
        } else {
            f(parse_line(&text).map_err(at)?)?;
        }
    }
    Ok(())
}

/// A data file being written, gzip-compressed when its name ends in `.gz`: it
/// appears at its name only when [`DataFile::finish`] succeeds (see
/// [`NewFile`]), so an error or an interrupt leaves nothing there, and it never
/// replaces an existing file.
pub struct DataFile {
    writer: DataWriter,
    place: NewFile,
    path: PathBuf,
}

enum DataWriter {
    Plain(BufWriter<File>),
    Gzip(flate2::write::GzEncoder<BufWriter<File>>),
}

impl DataFile {
    /// Starts the data file `path`; an error if it exists.
    pub fn create(path: &Path) -> Result<DataFile> {
        let (place, file) =
            NewFile::create(path).with_context(|| format!("cannot create {}", path.display()))?;
        let file = BufWriter::new(file);
        let writer = if is_gzip(path) {
            DataWriter::Gzip(flate2::write::GzEncoder::new(
                file,
                flate2::Compression::best(),
            ))
        } else {
            DataWriter::Plain(file)
        };
        Ok(DataFile {
            writer,
            place,
            path: path.to_path_buf(),
        })
    }

    /// Ends the compression, syncs the file and puts it at its name.
    pub fn finish(self) -> Result<()> {
        let context = || format!("cannot write {}", self.path.display());
        let buffered = match self.writer {
            DataWriter::Plain(w) => w,
            DataWriter::Gzip(g) => g.finish().with_context(context)?,
        };
        let file = buffered.into_inner().map_err(|e| e.into_error());
        self.place
            .finish(file.with_context(context)?)
            .with_context(context)
    }
}

impl Write for DataFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match &mut self.writer {
            DataWriter::Plain(w) => w.write(buf),
            DataWriter::Gzip(g) => g.write(buf),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match &mut self.writer {
            DataWriter::Plain(w) => w.flush(),
            DataWriter::Gzip(g) => g.flush(),
        }
    }
}

/// Packs every game of the position-line files `inputs` into `out`, in order;
/// returns the games and positions packed. A game's lines must be consecutive.
pub fn pack_files(inputs: &[std::path::PathBuf], out: &mut dyn Write) -> Result<(u64, u64)> {
    let (mut games, mut positions) = (0u64, 0u64);
    for path in inputs {
        let mut game: Vec<Line> = Vec::new();
        let mut flush = |game: &mut Vec<Line>, out: &mut dyn Write| -> Result<()> {
            if !game.is_empty() {
                let line =
                    pack_game(game).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
                writeln!(out, "{line}")?;
                games += 1;
                positions += game.len() as u64;
                game.clear();
            }
            Ok(())
        };
        for_each_line(path, |line| {
            if game
                .last()
                .is_some_and(|l| l.sample.game != line.sample.game)
            {
                flush(&mut game, out)?;
            }
            game.push(line);
            Ok(())
        })?;
        flush(&mut game, out)?;
    }
    Ok((games, positions))
}

// The command: flags to a request, progress to stderr.

/// `mollett pack`.
#[derive(clap::Args, Debug)]
pub struct PackArgs {
    /// Training files (position lines, or packed) whose games to pack, in order;
    /// each game's lines must be consecutive.
    #[arg(required = true)]
    pub data: Vec<PathBuf>,
    /// The packed file to write (name it `.mpk`, or `.mpk.gz` to compress it);
    /// it must not exist yet.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
}

/// Runs `mollett pack`.
pub fn run_pack(args: PackArgs) -> Result<()> {
    if !is_packed(&args.out) {
        bail!(
            "{}: a packed file's name ends in .mpk or .mpk.gz (so that readers know it)",
            args.out.display()
        );
    }
    let mut out = DataFile::create(&args.out)?;
    let (games, positions) = pack_files(&args.data, &mut out)?;
    out.finish()?;
    eprintln!(
        "pack: {games} games, {positions} positions in {}",
        args.out.display()
    );
    Ok(())
}

/// `mollett unpack`.
#[derive(clap::Args, Debug)]
pub struct UnpackArgs {
    /// A packed training file (`.mpk` or `.mpk.gz`).
    pub data: PathBuf,
    /// The file of position lines to write (default: standard output); it must
    /// not exist yet.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

/// Runs `mollett unpack`.
pub fn run_unpack(args: UnpackArgs) -> Result<()> {
    if !is_packed(&args.data) {
        bail!(
            "{}: not a packed file (its name must end in .mpk or .mpk.gz)",
            args.data.display()
        );
    }
    match &args.out {
        Some(path) => {
            let mut out = DataFile::create(path)?;
            for_each_line(&args.data, |line| Ok(writeln!(out, "{line}")?))?;
            out.finish()
        }
        None => {
            let mut out = std::io::BufWriter::new(std::io::stdout().lock());
            for_each_line(&args.data, |line| Ok(writeln!(out, "{line}")?))?;
            Ok(out.flush()?)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::learn::datagen::{DatagenRequest, play_game};

    fn lines_of(rules: Variant, game: u64) -> Vec<Line> {
        let req = DatagenRequest {
            rules,
            seed: 3,
            ..crate::tools::learn::datagen::tests::request()
        };
        play_game(&req, game)
            .unwrap()
            .into_iter()
            .map(|sample| Line { sample, rules })
            .collect()
    }

    fn text(lines: &[Line]) -> Vec<String> {
        lines.iter().map(|l| l.to_string()).collect()
    }

    #[test]
    fn games_round_trip_line_for_line() {
        for rules in [Variant::Othello, Variant::Anti] {
            for g in 0..6 {
                let lines = lines_of(rules, g);
                let packed = pack_game(&lines).unwrap();
                assert_eq!(text(&unpack_game(&packed).unwrap()), text(&lines));
                // About a fifth of the size of the position lines.
                let plain: usize = text(&lines).iter().map(|l| l.len() + 1).sum();
                assert!(packed.len() * 5 < plain, "{} against {plain}", packed.len());
            }
        }
    }

    #[test]
    fn later_starts_search_labels_and_single_positions_round_trip() {
        let mut lines = lines_of(Variant::Othello, 1);
        lines.drain(..5);
        for l in &mut lines[..20] {
            l.sample.kind = LabelKind::Search;
            l.sample.label = -l.sample.label / 2;
        }
        let packed = pack_game(&lines).unwrap();
        let first = packed.split(' ').nth(1).unwrap();
        assert!(first.ends_with("/X") || first.ends_with("/O"), "{first}");
        assert_eq!(text(&unpack_game(&packed).unwrap()), text(&lines));
        let one = pack_game(&lines[..1]).unwrap();
        assert_eq!(one.split(' ').nth(2), Some("-"));
        assert_eq!(text(&unpack_game(&one).unwrap()), text(&lines[..1]));
    }

    #[test]
    fn broken_chains_and_bad_lines_are_refused() {
        let lines = lines_of(Variant::Othello, 2);
        let mut gap = lines.clone();
        gap.remove(7);
        assert!(pack_game(&gap).unwrap_err().contains("does not follow"));
        let mut other = lines.clone();
        other[3].sample.game += 1;
        assert!(pack_game(&other).unwrap_err().contains("another game"));
        assert!(pack_game(&[]).is_err());
        let good = pack_game(&lines[..3]).unwrap();
        for bad in [
            "x - f5d6 g1,2,3",
            "1 - f5d6 g1,2",
            "1 - f5d6 g1,2,99",
            "1 - f5d6 q1,2,3",
            "1 - f5a1 g1,2,3",
            "1 - f5d6 g1,2,3 othello",
            "1 zz f5d6 g1,2,3",
            "1 - f5d6",
        ] {
            assert!(unpack_game(bad).is_err(), "{bad}");
        }
        assert_eq!(unpack_game(&good).unwrap().len(), 3);
    }

    #[test]
    fn packed_and_gzip_files_read_as_the_lines_they_hold() {
        let dir = std::env::temp_dir().join(format!("mollett-pack-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut all = Vec::new();
        for g in 0..4 {
            all.extend(lines_of(Variant::Othello, g));
        }
        let plain = dir.join("d.txt");
        std::fs::write(&plain, text(&all).join("\n") + "\n").unwrap();
        for name in ["d.mpk", "d.mpk.gz"] {
            let path = dir.join(name);
            let _ = std::fs::remove_file(&path);
            let mut w = DataFile::create(&path).unwrap();
            assert_eq!(
                pack_files(std::slice::from_ref(&plain), &mut w).unwrap(),
                (4, all.len() as u64)
            );
            assert!(!path.exists(), "nothing at the name before it is whole");
            w.finish().unwrap();
            let e = DataFile::create(&path).err().unwrap();
            assert!(format!("{e:#}").contains("never replaced"), "{e:#}");
            // A file left unfinished (an error) leaves nothing behind.
            let other = dir.join(format!("x-{name}"));
            let mut w = DataFile::create(&other).unwrap();
            pack_files(std::slice::from_ref(&plain), &mut w).unwrap();
            drop(w);
            assert!(!other.exists());
            let left: Vec<_> = std::fs::read_dir(&dir).unwrap().flatten().collect();
            assert!(
                left.iter()
                    .all(|e| !e.file_name().to_string_lossy().ends_with(".tmp"))
            );
            let mut back = Vec::new();
            for_each_line(&path, |l| {
                back.push(l);
                Ok(())
            })
            .unwrap();
            assert_eq!(back, all, "{name}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
