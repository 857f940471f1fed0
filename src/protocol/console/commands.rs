//! The console's commands: one table, [`COMMANDS`], names every command with
//! its aliases, arguments and help, and drives both [`parse`] and [`help`].

use crate::board::Color;
use crate::format::{Clock, parse_clock};
use crate::rules::Position;
use crate::rules::Variant;
use crate::search::Level;
use std::time::Duration;

/// One console command.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// `help [COMMAND]`.
    Help(Option<String>),
    /// `new`: the start position (table cleared).
    New,
    /// `setboard POSITION`: a board string (table cleared).
    SetBoard(Position, Option<[u8; 2]>),
    /// `play MOVES`, or moves alone: play them (forced passes inserted).
    Play(String),
    /// `undo`: take back one move.
    Undo,
    /// `redo`: replay a move taken back.
    Redo,
    /// `go`: search and play the best move.
    Go,
    /// `hint [N]`: the best N moves (default 1), not played.
    Hint(usize),
    /// `eval`: the static evaluation.
    Eval,
    /// `solve`: the exact score and best line, not played.
    Solve,
    /// `showboard`: the board diagram.
    Showboard,
    /// `level [L]`: show or set the level.
    Level(Option<Level>),
    /// `threads [N]`: show or set the search threads.
    Threads(Option<usize>),
    /// `hash [MB]`: show or set the table size.
    Hash(Option<usize>),
    /// `seed [S]`: show or set the tie-break seed.
    Seed(Option<u64>),
    /// `variant [V]`: show or set the rules; setting starts a new game.
    Variant(Option<Variant>),
    /// `mode [M]`: show or set which sides the engine plays by itself.
    Mode(Option<Mode>),
    /// `time [SECONDS|off]`: show or set the time per move.
    Time(Option<Option<Duration>>),
    /// `clock [CLOCK|off]`: show or set the game clock of each side.
    Clock(Option<Option<Clock>>),
    /// `book [on|off|randomness D]`: show or set the use of the opening book.
    Book(Option<crate::protocol::book_setting::BookSetting>),
    /// `load FILE`: replace the game by a GGF file's first record.
    Load(String),
    /// `save FILE`: write the game as a GGF record.
    Save(String),
    /// `stop`: stop the running search.
    Stop,
    /// `quit`: exit.
    Quit,
    /// A blank line.
    Blank,
}

/// Which sides the engine plays by itself, with Edax's `mode` numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Mode {
    /// 0: the engine plays White (you play Black).
    White,
    /// 1: the engine plays Black.
    Black,
    /// 2: the engine plays both sides (it plays itself).
    Both,
    /// 3: the engine plays only when asked (`go`); the default, for scripts.
    #[default]
    Neither,
}

impl Mode {
    /// Reads `0`..`3` or `white`, `black`, `both`, `neither` (or `none`).
    fn parse(s: &str) -> Result<Mode, String> {
        match s.to_ascii_lowercase().as_str() {
            "0" | "white" | "w" => Ok(Mode::White),
            "1" | "black" | "b" => Ok(Mode::Black),
            "2" | "both" => Ok(Mode::Both),
            "3" | "neither" | "none" => Ok(Mode::Neither),
            _ => Err(format!(
                "'{s}' is not a mode (0 white, 1 black, 2 both, 3 neither)"
            )),
        }
    }

    /// Whether the engine plays `side` by itself.
    pub fn plays(self, side: Color) -> bool {
        match self {
            Mode::White => side == Color::White,
            Mode::Black => side == Color::Black,
            Mode::Both => true,
            Mode::Neither => false,
        }
    }

    /// `mode 3 (the engine plays neither side)`.
    pub fn describe(self) -> String {
        let (n, what) = match self {
            Mode::White => (0, "white"),
            Mode::Black => (1, "black"),
            Mode::Both => (2, "both sides"),
            Mode::Neither => (3, "neither side: go asks it to move"),
        };
        format!("mode {n} (the engine plays {what})")
    }
}

/// `off`, or a value read by `f`.
fn off_or<T>(s: &str, f: impl Fn(&str) -> Result<T, String>) -> Result<Option<T>, String> {
    if s.eq_ignore_ascii_case("off") {
        Ok(None)
    } else {
        f(s).map(Some)
    }
}

/// A required argument (a file name, spaces allowed).
fn required(a: &str, what: &str) -> Result<String, String> {
    if a.is_empty() {
        Err(format!("{what} expected"))
    } else {
        Ok(a.to_string())
    }
}

/// A command's names, arguments, help and argument parser.
pub struct Spec {
    /// The name.
    pub name: &'static str,
    /// Other names.
    pub aliases: &'static [&'static str],
    /// The arguments, for help.
    pub args: &'static str,
    /// What it does, one line.
    pub help: &'static str,
    /// Parses the text after the name.
    pub parse: fn(&str) -> Result<Command, String>,
}

/// No argument allowed.
fn none(a: &str, c: Command) -> Result<Command, String> {
    if a.is_empty() {
        Ok(c)
    } else {
        Err(format!("unexpected argument '{a}'"))
    }
}

/// An optional single argument.
fn optional<T>(a: &str, f: impl Fn(&str) -> Result<T, String>) -> Result<Option<T>, String> {
    match a.split_whitespace().count() {
        0 => Ok(None),
        1 => f(a).map(Some),
        _ => Err(format!("expected at most one argument, got '{a}'")),
    }
}

fn number<T: std::str::FromStr>(s: &str, what: &str) -> Result<T, String> {
    s.parse().map_err(|_| format!("'{s}' is not {what}"))
}

/// Every command, in `help` order.
pub const COMMANDS: &[Spec] = &[
    Spec {
        name: "help",
        aliases: &["?"],
        args: "[COMMAND]",
        help: "list the commands, or explain one",
        parse: |a| optional(a, |s| Ok(s.to_ascii_lowercase())).map(Command::Help),
    },
    Spec {
        name: "new",
        aliases: &["n", "init"],
        args: "",
        help: "start a new game from the start position (clears the table)",
        parse: |a| none(a, Command::New),
    },
    Spec {
        name: "setboard",
        aliases: &["sb"],
        args: "POSITION [B W]",
        help: "start a new game from a board string: 64 squares a1..h8 (X O -) then the side \
               to move (in reversi, then the discs Black and White have left)",
        parse: |a| {
            let (board, left) = crate::rules::split_discs_left(a);
            board
                .parse()
                .map(|p| Command::SetBoard(p, left))
                .map_err(|e| format!("{e}"))
        },
    },
    Spec {
        name: "play",
        aliases: &["p"],
        args: "MOVES",
        help: "play moves such as f5 or f5d6c3 (forced passes are inserted); moves alone work too",
        parse: |a| {
            if looks_like_moves(a) && !a.is_empty() {
                Ok(Command::Play(a.to_string()))
            } else {
                Err(format!("'{a}' is not a list of moves"))
            }
        },
    },
    Spec {
        name: "undo",
        aliases: &["u"],
        args: "",
        help: "take back the last move",
        parse: |a| none(a, Command::Undo),
    },
    Spec {
        name: "redo",
        aliases: &["r"],
        args: "",
        help: "replay the last move taken back",
        parse: |a| none(a, Command::Redo),
    },
    Spec {
        name: "go",
        aliases: &["g"],
        args: "",
        help: "search at the current level (and time) and play the best move; its score is the \
               search's value at its last completed depth",
        parse: |a| none(a, Command::Go),
    },
    Spec {
        name: "hint",
        aliases: &["h"],
        args: "[N]",
        help: "show the best N moves (default 1) with scores and lines, without playing",
        parse: |a| match optional(a, |s| number::<usize>(s, "a number of moves"))? {
            Some(0) => Err("N must be 1 or more".into()),
            n => Ok(Command::Hint(n.unwrap_or(1))),
        },
    },
    Spec {
        name: "eval",
        aliases: &["e"],
        args: "",
        help: "show the static evaluation of the position (no search), in discs for the side to move",
        parse: |a| none(a, Command::Eval),
    },
    Spec {
        name: "solve",
        aliases: &[],
        args: "",
        help: "solve the position exactly (score and best line), without playing",
        parse: |a| none(a, Command::Solve),
    },
    Spec {
        name: "showboard",
        aliases: &["board", "d"],
        args: "",
        help: "show the board, whose turn, the disc counts and the legal moves (*)",
        parse: |a| none(a, Command::Showboard),
    },
    Spec {
        name: "level",
        aliases: &["l"],
        args: "[1..60|easy|medium|hard]",
        help: "show or set the level",
        parse: |a| optional(a, |s| s.parse().map_err(|e| format!("{e}"))).map(Command::Level),
    },
    Spec {
        name: "threads",
        aliases: &["t"],
        args: "[N]",
        help: "show or set the number of search threads",
        parse: |a| optional(a, |s| number(s, "a thread count")).map(Command::Threads),
    },
    Spec {
        name: "hash",
        aliases: &[],
        args: "[MB]",
        help: "show or set the transposition table size in MB (clears it)",
        parse: |a| optional(a, |s| number(s, "a size in MB")).map(Command::Hash),
    },
    Spec {
        name: "seed",
        aliases: &[],
        args: "[S]",
        help: "show or set the seed that breaks ties between equal moves",
        parse: |a| optional(a, |s| number(s, "a seed")).map(Command::Seed),
    },
    Spec {
        name: "variant",
        aliases: &[],
        args: "[V]",
        help: "show or set the rules: othello, reversi (1880s: empty start, 32 discs each) \
               or anti (fewest discs win); setting starts a new game",
        parse: |a| optional(a, |s| s.parse().map_err(|e| format!("{e}"))).map(Command::Variant),
    },
    Spec {
        name: "mode",
        aliases: &["m"],
        args: "[0|1|2|3]",
        help: "show or set which sides the engine plays by itself: 0 white, 1 black, 2 both \
               (it plays itself), 3 neither (the default: go asks for a move)",
        parse: |a| optional(a, Mode::parse).map(Command::Mode),
    },
    Spec {
        name: "book",
        aliases: &[],
        args: "[on|off|randomness D]",
        help: "show or set the opening book's use: on, off, or randomness D (play any book \
               move within D discs of the best, drawn by the seed)",
        parse: |a| {
            if a.trim().is_empty() {
                Ok(Command::Book(None))
            } else {
                crate::protocol::book_setting::parse_book_setting(a).map(|s| Command::Book(Some(s)))
            }
        },
    },
    Spec {
        name: "time",
        aliases: &[],
        args: "[SECONDS|off]",
        help: "show or set the time per move for go (in every dialect); off: the level alone",
        parse: |a| {
            optional(a, |s| {
                off_or(s, |t| match t.parse::<f64>() {
                    Ok(x) if x > 0.0 && x <= 1e6 => Ok(Duration::from_secs_f64(x)),
                    _ => Err(format!("'{t}' is not a number of seconds (above 0)")),
                })
            })
            .map(Command::Time)
        },
    },
    Spec {
        name: "clock",
        aliases: &[],
        args: "[CLOCK|off]",
        help: "show or set the game clock of each side, [[h:]m:]s[/increment] as in GGF: \
               the engine's moves are timed from it and charged to it",
        parse: |a| {
            optional(a, |s| {
                off_or(s, |c| parse_clock(c).map_err(|e| e.to_string()))
            })
            .map(Command::Clock)
        },
    },
    Spec {
        name: "load",
        aliases: &[],
        args: "FILE",
        help: "replace the game by the first GGF record of FILE (as NBoard saves games)",
        parse: |a| required(a, "a file name").map(Command::Load),
    },
    Spec {
        name: "save",
        aliases: &[],
        args: "FILE",
        help: "write the game to FILE as a GGF record (NBoard reads it)",
        parse: |a| required(a, "a file name").map(Command::Save),
    },
    Spec {
        name: "stop",
        aliases: &[],
        args: "",
        help: "stop the running search (its answer is still given); Ctrl-C does the same, \
               and a second Ctrl-C quits",
        parse: |a| none(a, Command::Stop),
    },
    Spec {
        name: "quit",
        aliases: &["q", "exit"],
        args: "",
        help: "leave (after the running command ends)",
        parse: |a| none(a, Command::Quit),
    },
];

/// The spec named `word` (a name or an alias, any case).
fn find(word: &str) -> Option<&'static Spec> {
    let w = word.to_ascii_lowercase();
    COMMANDS
        .iter()
        .find(|s| s.name == w || s.aliases.contains(&w.as_str()))
}

/// Whether `word` names a console command.
pub(crate) fn is_command(word: &str) -> bool {
    find(word).is_some() || looks_like_moves(word) && !word.is_empty()
}

/// Whether `s` spells moves only: squares, `pa`, `ps`, `pass`, `--`, spaces.
fn looks_like_moves(s: &str) -> bool {
    let b: Vec<u8> = s
        .bytes()
        .filter(|c| !c.is_ascii_whitespace())
        .map(|c| c.to_ascii_lowercase())
        .collect();
    let mut i = 0;
    while i < b.len() {
        let rest = &b[i..];
        let square =
            rest.len() >= 2 && (b'a'..=b'h').contains(&rest[0]) && (b'1'..=b'8').contains(&rest[1]);
        i += if rest.starts_with(b"pass") {
            4
        } else if square || [b"pa", b"ps", b"--"].iter().any(|w| rest.starts_with(*w)) {
            2
        } else {
            return false;
        };
    }
    true
}

/// Reads one console line.
pub fn parse(line: &str) -> Result<Command, String> {
    let line = line.trim();
    if line.is_empty() {
        return Ok(Command::Blank);
    }
    let end = line.find(char::is_whitespace).unwrap_or(line.len());
    let (word, rest) = (&line[..end], line[end..].trim());
    match find(word) {
        Some(spec) => (spec.parse)(rest).map_err(|e| format!("{}: {e}", spec.name)),
        None if looks_like_moves(line) => Ok(Command::Play(line.to_string())),
        None => Err(format!("unknown command '{word}' (type help for the list)")),
    }
}

/// The help text: every command, or one.
pub fn help(command: Option<&str>) -> Result<Vec<String>, String> {
    let line = |s: &Spec| {
        let usage = format!("{} {}", s.name, s.args);
        let aliases = if s.aliases.is_empty() {
            String::new()
        } else {
            format!(" (also: {})", s.aliases.join(", "))
        };
        format!("{:<34} {}{aliases}", usage.trim_end(), s.help)
    };
    match command {
        None => {
            let mut out: Vec<String> = COMMANDS.iter().map(line).collect();
            out.push(format!("{:<34} play those moves", "MOVES"));
            Ok(out)
        }
        Some(c) => find(c)
            .map(|s| vec![line(s)])
            .ok_or_else(|| format!("unknown command '{c}'")),
    }
}
