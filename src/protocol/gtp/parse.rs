//! GTP text: the command table, the parser and the response framing (pure).

use super::super::text::parse_color;
use crate::board::{Color, Move};
use crate::format::Seconds;
use crate::rules::Variant;
use crate::search::Level;

/// One GTP command, arguments parsed.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// `protocol_version`: `2`.
    ProtocolVersion,
    /// `name`: `Mollett`.
    Name,
    /// `version`: the crate version.
    Version,
    /// `known_command NAME`: `true` or `false`.
    KnownCommand(String),
    /// `list_commands`: one name per line.
    ListCommands,
    /// `quit`.
    Quit,
    /// `boardsize N`: only 8.
    BoardSize(u32),
    /// `clear_board`: the start position, table cleared.
    ClearBoard,
    /// `komi X`: accepted and ignored.
    Komi,
    /// `play COLOUR VERTEX`.
    Play(Color, Move),
    /// `genmove COLOUR`: choose and play.
    Genmove(Color),
    /// `reg_genmove COLOUR`: choose, do not play.
    RegGenmove(Color),
    /// `undo`.
    Undo,
    /// `showboard`.
    Showboard,
    /// `time_settings MAIN BYO_TIME BYO_STONES` (seconds).
    TimeSettings(Seconds, Seconds, u32),
    /// `time_left COLOUR SECONDS STONES`.
    TimeLeft(Color, Seconds, u32),
    /// `final_score`.
    FinalScore,
    /// `loadsgf FILE [MOVE_NUMBER]`: a GGF file (the first record).
    LoadSgf(String, Option<usize>),
    /// `set_game NAME`: `Othello`, `Reversi` or `Anti-Reversi`.
    SetGame(String),
    /// `list_games`: the three games, one per line.
    ListGames,
    /// `gogui-rules_game_id`: the current game's name.
    RulesGameId,
    /// `gogui-rules_board`: rows 8 to 1 (GoGui draws row 1 at the bottom).
    RulesBoard,
    /// `gogui-rules_board_size`: `8`.
    RulesBoardSize,
    /// `gogui-rules_legal_moves`: vertices, `pass`, or nothing at the end.
    RulesLegalMoves,
    /// `gogui-rules_side_to_move`: `black` or `white`.
    RulesSideToMove,
    /// `gogui-rules_final_result`: `B+n`, `W+n`, `0`, or `unknown`.
    RulesFinalResult,
    /// `mollett-threads [N]`: show or set the search threads.
    Threads(Option<usize>),
    /// `mollett-hash [MB]`: show or set the table size.
    Hash(Option<usize>),
    /// `mollett-level [L]`: show or set the level.
    Level(Option<Level>),
    /// `mollett-seed [S]`: show or set the tie-break seed.
    Seed(Option<u64>),
    /// `mollett-variant [V]`: show or set the rules (`othello`, `reversi`,
    /// `anti`); setting starts a new game.
    Variant(Option<Variant>),
    /// `mollett-book [on|off|randomness D]`: show or set the use of the
    /// opening book.
    Book(Option<crate::protocol::book_setting::BookSetting>),
}

/// A command's name and argument parser.
pub struct Spec {
    /// The command name.
    pub name: &'static str,
    /// Parses the arguments (after the name); an error is a syntax message.
    pub parse: fn(&[&str]) -> Result<Command, String>,
}

/// Exactly `n` arguments.
fn args<'a>(a: &[&'a str], n: usize) -> Result<Vec<&'a str>, String> {
    if a.len() == n {
        Ok(a.to_vec())
    } else {
        Err(format!("expected {n} argument(s), got {}", a.len()))
    }
}

fn color(s: &str) -> Result<Color, String> {
    parse_color(s).ok_or_else(|| format!("invalid color '{s}'"))
}

fn number<T: std::str::FromStr>(s: &str, what: &str) -> Result<T, String> {
    s.parse().map_err(|_| format!("'{s}' is not {what}"))
}

fn seconds(s: &str) -> Result<Seconds, String> {
    Seconds::parse(s).map_err(|e| e.to_string())
}

/// An optional single argument.
fn optional<T>(a: &[&str], f: impl Fn(&str) -> Result<T, String>) -> Result<Option<T>, String> {
    match a {
        [] => Ok(None),
        [x] => f(x).map(Some),
        _ => Err(format!("expected at most 1 argument, got {}", a.len())),
    }
}

macro_rules! no_args {
    ($c:expr) => {
        |a: &[&str]| args(a, 0).map(|_| $c)
    };
}

/// Every command, in `list_commands` order.
pub const COMMANDS: &[Spec] = &[
    Spec {
        name: "protocol_version",
        parse: no_args!(Command::ProtocolVersion),
    },
    Spec {
        name: "name",
        parse: no_args!(Command::Name),
    },
    Spec {
        name: "version",
        parse: no_args!(Command::Version),
    },
    Spec {
        name: "known_command",
        parse: |a| args(a, 1).map(|v| Command::KnownCommand(v[0].to_string())),
    },
    Spec {
        name: "list_commands",
        parse: no_args!(Command::ListCommands),
    },
    Spec {
        name: "quit",
        parse: no_args!(Command::Quit),
    },
    Spec {
        name: "boardsize",
        parse: |a| Ok(Command::BoardSize(number(args(a, 1)?[0], "a board size")?)),
    },
    Spec {
        name: "clear_board",
        parse: no_args!(Command::ClearBoard),
    },
    Spec {
        name: "komi",
        parse: |a| number::<f64>(args(a, 1)?[0], "a komi").map(|_| Command::Komi),
    },
    Spec {
        name: "play",
        parse: |a| {
            let v = args(a, 2)?;
            let mv = v[1]
                .parse()
                .map_err(|_| format!("invalid vertex '{}'", v[1]))?;
            Ok(Command::Play(color(v[0])?, mv))
        },
    },
    Spec {
        name: "genmove",
        parse: |a| Ok(Command::Genmove(color(args(a, 1)?[0])?)),
    },
    Spec {
        name: "reg_genmove",
        parse: |a| Ok(Command::RegGenmove(color(args(a, 1)?[0])?)),
    },
    Spec {
        name: "undo",
        parse: no_args!(Command::Undo),
    },
    Spec {
        name: "showboard",
        parse: no_args!(Command::Showboard),
    },
    Spec {
        name: "time_settings",
        parse: |a| {
            let v = args(a, 3)?;
            let stones = number(v[2], "a number of stones")?;
            Ok(Command::TimeSettings(
                seconds(v[0])?,
                seconds(v[1])?,
                stones,
            ))
        },
    },
    Spec {
        name: "time_left",
        parse: |a| {
            let v = args(a, 3)?;
            let stones = number(v[2], "a number of stones")?;
            Ok(Command::TimeLeft(color(v[0])?, seconds(v[1])?, stones))
        },
    },
    Spec {
        name: "final_score",
        parse: no_args!(Command::FinalScore),
    },
    Spec {
        name: "loadsgf",
        parse: |a| match a {
            [f] => Ok(Command::LoadSgf(f.to_string(), None)),
            [f, n] => Ok(Command::LoadSgf(
                f.to_string(),
                Some(number(n, "a move number")?),
            )),
            _ => Err(format!("expected 1 or 2 arguments, got {}", a.len())),
        },
    },
    Spec {
        name: "set_game",
        parse: |a| Ok(Command::SetGame(a.join(" "))),
    },
    Spec {
        name: "list_games",
        parse: no_args!(Command::ListGames),
    },
    Spec {
        name: "gogui-rules_game_id",
        parse: no_args!(Command::RulesGameId),
    },
    Spec {
        name: "gogui-rules_board",
        parse: no_args!(Command::RulesBoard),
    },
    Spec {
        name: "gogui-rules_board_size",
        parse: no_args!(Command::RulesBoardSize),
    },
    Spec {
        name: "gogui-rules_legal_moves",
        parse: no_args!(Command::RulesLegalMoves),
    },
    Spec {
        name: "gogui-rules_side_to_move",
        parse: no_args!(Command::RulesSideToMove),
    },
    Spec {
        name: "gogui-rules_final_result",
        parse: no_args!(Command::RulesFinalResult),
    },
    Spec {
        name: "mollett-threads",
        parse: |a| optional(a, |s| number(s, "a thread count")).map(Command::Threads),
    },
    Spec {
        name: "mollett-hash",
        parse: |a| optional(a, |s| number(s, "a size in MB")).map(Command::Hash),
    },
    Spec {
        name: "mollett-level",
        parse: |a| optional(a, |s| s.parse().map_err(|e| format!("{e}"))).map(Command::Level),
    },
    Spec {
        name: "mollett-seed",
        parse: |a| optional(a, |s| number(s, "a seed")).map(Command::Seed),
    },
    Spec {
        name: "mollett-variant",
        parse: |a| optional(a, |s| s.parse().map_err(|e| format!("{e}"))).map(Command::Variant),
    },
    Spec {
        name: "mollett-book",
        parse: |a| {
            if a.is_empty() {
                Ok(Command::Book(None))
            } else {
                crate::protocol::book_setting::parse_book_setting(&a.join(" "))
                    .map(|s| Command::Book(Some(s)))
            }
        },
    },
];

/// Why a command was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// No such command: `unknown command`.
    Unknown,
    /// Bad arguments: `syntax error: ...`.
    Syntax(String),
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Unknown => f.write_str("unknown command"),
            Error::Syntax(m) => write!(f, "syntax error: {m}"),
        }
    }
}

/// A parsed line: the id as written (digits), and the command or the error.
#[derive(Clone, Debug, PartialEq)]
pub struct Request {
    /// The id, echoed in the answer.
    pub id: Option<String>,
    /// The command.
    pub command: Result<Command, Error>,
}

/// The spec's preprocessing: control characters other than tab dropped, the
/// comment from `#` cut, tabs turned into spaces, surrounding spaces trimmed.
pub fn preprocess(line: &str) -> String {
    let kept: String = line
        .chars()
        .take_while(|&c| c != '#')
        .filter(|&c| c == '\t' || !c.is_control())
        .map(|c| if c == '\t' { ' ' } else { c })
        .collect();
    kept.trim().to_string()
}

/// Reads one line; `None` for a line that is blank after preprocessing.
pub fn parse(line: &str) -> Option<Request> {
    let clean = preprocess(line);
    let mut words: Vec<&str> = clean.split_whitespace().collect();
    let first = *words.first()?;
    let id = if first.bytes().all(|b| b.is_ascii_digit()) {
        words.remove(0);
        Some(first.to_string())
    } else {
        None
    };
    let command = match words.split_first() {
        None => Err(Error::Unknown),
        Some((name, rest)) => match COMMANDS.iter().find(|s| s.name == *name) {
            Some(spec) => (spec.parse)(rest).map_err(Error::Syntax),
            None => Err(Error::Unknown),
        },
    };
    Some(Request { id, command })
}

/// The id a line starts with, if any (for answering a line that failed or was
/// refused unread).
pub(crate) fn leading_id(line: &str) -> Option<String> {
    let clean = preprocess(line);
    let first = clean.split_whitespace().next()?;
    first
        .bytes()
        .all(|b| b.is_ascii_digit())
        .then(|| first.to_string())
}

/// Whether a command can select GTP from an undecided console: any GTP
/// command after a numeric id, a command only GTP has (not the plain words
/// `name` and `version`, which a person may type), or `play` with a colour.
/// The caller also checks that the line is a valid GTP command.
pub(crate) fn selects_gtp(first: &str, rest: &[&str], has_id: bool) -> bool {
    let known = COMMANDS.iter().any(|s| s.name == first);
    match first {
        "play" => rest.first().is_some_and(|c| parse_color(c).is_some()),
        "quit" | "undo" | "showboard" | "name" | "version" => has_id,
        _ => known,
    }
}

/// The answer block: `=id result` or `?id message`, then a blank line.
pub fn format_response(id: Option<&str>, result: &Result<String, String>) -> String {
    let id = id.unwrap_or("");
    match result {
        Ok(t) if t.is_empty() => format!("={id}\n\n"),
        Ok(t) => format!("={id} {t}\n\n"),
        Err(m) => format!("?{id} {m}\n\n"),
    }
}
