//! The match's command-line vocabulary, parsed by pure functions: entrants
//! (`NAME=CMD`), the protocol, and per-entrant limits (`[NAME=]VALUE`).

use crate::format::{Clock, Seconds, parse_clock};
use std::fmt;
use std::str::FromStr;

/// A command-line item that did not parse, with the reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecError(pub String);

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SpecError {}

/// The protocol every entrant of a match is spoken to in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Proto {
    /// Go Text Protocol (`boardsize`, `clear_board`, `play`, `genmove`).
    #[default]
    Gtp,
    /// NBoard protocol version 2 (`set game`, `ping`, `go`).
    Nboard,
}

impl FromStr for Proto {
    type Err = SpecError;

    fn from_str(s: &str) -> Result<Proto, SpecError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "gtp" => Ok(Proto::Gtp),
            "nboard" => Ok(Proto::Nboard),
            _ => Err(SpecError(format!(
                "unknown protocol '{s}' (expected gtp or nboard)"
            ))),
        }
    }
}

/// An entrant: its name (used in reports and game records) and the command line
/// that starts it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntrantSpec {
    /// The name before `=`.
    pub name: String,
    /// The program and its arguments.
    pub command: Vec<String>,
}

/// The placeholder an entrant's command may hold for the game's number in the
/// match (from 1, as the games file's tag): a per-game seed, for instance.
pub const GAME_PLACEHOLDER: &str = "{game}";

impl EntrantSpec {
    /// The command for game `number` (from 1): every [`GAME_PLACEHOLDER`] in
    /// its words replaced by the number.
    pub fn for_game(&self, number: usize) -> EntrantSpec {
        EntrantSpec {
            name: self.name.clone(),
            command: self
                .command
                .iter()
                .map(|w| w.replace(GAME_PLACEHOLDER, &number.to_string()))
                .collect(),
        }
    }
}

impl FromStr for EntrantSpec {
    type Err = SpecError;

    /// Parses `NAME=CMD`; CMD is split into words as a shell would (see
    /// [`split_command`]).
    fn from_str(s: &str) -> Result<EntrantSpec, SpecError> {
        let (name, cmd) = s
            .split_once('=')
            .ok_or_else(|| SpecError(format!("entrant '{s}' is not NAME=COMMAND")))?;
        let name = name.trim();
        if name.is_empty() || name.contains(char::is_whitespace) {
            return Err(SpecError(format!(
                "entrant '{s}': the name must be one word"
            )));
        }
        let command = split_command(cmd)?;
        if command.is_empty() {
            return Err(SpecError(format!("entrant '{name}' has no command")));
        }
        Ok(EntrantSpec {
            name: name.to_string(),
            command,
        })
    }
}

/// Splits a command line into words: whitespace separates words, `'…'` keeps
/// everything literally, `"…"` keeps everything but `\"` and `\\`, and a
/// backslash outside quotes escapes the next character.
pub fn split_command(text: &str) -> Result<Vec<String>, SpecError> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => words.extend(word.take()),
            '\'' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => w.push(c),
                        None => return Err(SpecError(format!("unclosed ' in '{text}'"))),
                    }
                }
            }
            '"' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(e @ ('"' | '\\')) => w.push(e),
                            Some(e) => {
                                w.push('\\');
                                w.push(e);
                            }
                            None => return Err(SpecError(format!("unclosed \" in '{text}'"))),
                        },
                        Some(c) => w.push(c),
                        None => return Err(SpecError(format!("unclosed \" in '{text}'"))),
                    }
                }
            }
            '\\' => match chars.next() {
                Some(e) => word.get_or_insert_with(String::new).push(e),
                None => return Err(SpecError(format!("trailing \\ in '{text}'"))),
            },
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    Ok(words)
}

/// One entrant's limits, enforced or passed on by the runner.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct EntrantLimits {
    /// A fixed depth sent to the engine (NBoard `set depth`); under GTP the
    /// depth or level goes on the entrant's own command line.
    pub depth: Option<u32>,
    /// Time per move.
    pub move_time: Option<Seconds>,
    /// A game clock kept by the runner.
    pub clock: Option<Clock>,
}

/// The raw `[NAME=]VALUE` items of the three limit flags.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LimitFlags {
    /// `--depth` items.
    pub depth: Vec<String>,
    /// `--move-time` items (seconds).
    pub move_time: Vec<String>,
    /// `--clock` items (`[[h:]m:]s[/increment[/grace]]`; the grace is 0 unless
    /// given).
    pub clock: Vec<String>,
}

/// Splits `NAME=VALUE` (when NAME is an entrant) from a bare `VALUE`.
fn target<'a>(item: &'a str, names: &[String]) -> Result<(Option<usize>, &'a str), SpecError> {
    if let Some((n, v)) = item.split_once('=') {
        let i = names
            .iter()
            .position(|x| x == n.trim())
            .ok_or_else(|| SpecError(format!("'{item}': no entrant is named '{}'", n.trim())))?;
        Ok((Some(i), v))
    } else {
        Ok((None, item))
    }
}

/// Applies each item to its entrant (or to all, without a name); later items win.
fn apply<T>(
    items: &[String],
    names: &[String],
    parse: impl Fn(&str) -> Result<T, SpecError>,
    mut set: impl FnMut(&mut EntrantLimits, T),
    out: &mut [EntrantLimits],
) -> Result<(), SpecError>
where
    T: Copy,
{
    for item in items {
        let (who, value) = target(item, names)?;
        let v = parse(value.trim())?;
        match who {
            Some(i) => set(&mut out[i], v),
            None => out.iter_mut().for_each(|l| set(l, v)),
        }
    }
    Ok(())
}

impl LimitFlags {
    /// Every entrant's limits, in the order of `names`.
    pub fn resolve(&self, names: &[String]) -> Result<Vec<EntrantLimits>, SpecError> {
        let mut out = vec![EntrantLimits::default(); names.len()];
        let depth = |v: &str| match v.parse::<u32>() {
            Ok(d @ 1..=60) => Ok(d),
            _ => Err(SpecError(format!("'{v}' is not a depth (1..60)"))),
        };
        apply(
            &self.depth,
            names,
            depth,
            |l, d| l.depth = Some(d),
            &mut out,
        )?;
        let secs = |v: &str| match Seconds::parse(v) {
            Ok(s) if !s.is_zero() => Ok(s),
            Ok(_) => Err(SpecError(format!("move time '{v}' gives no time"))),
            Err(e) => Err(SpecError(format!("move time: {e}"))),
        };
        apply(
            &self.move_time,
            names,
            secs,
            |l, s| l.move_time = Some(s),
            &mut out,
        )?;
        let clock = |v: &str| {
            let mut c = parse_clock(v).map_err(|e| SpecError(e.to_string()))?;
            if v.split('/').count() < 3 {
                c.grace = Seconds::ZERO;
            }
            if c.main.is_zero() && c.increment.is_zero() {
                return Err(SpecError(format!("clock '{v}' gives no time")));
            }
            Ok(c)
        };
        apply(
            &self.clock,
            names,
            clock,
            |l, c| l.clock = Some(c),
            &mut out,
        )?;
        if let Some(i) = out
            .iter()
            .position(|l| l.move_time.is_some() && l.clock.is_some())
        {
            return Err(SpecError(format!(
                "entrant '{}' has both a time per move and a game clock",
                names[i]
            )));
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_placeholder_becomes_the_games_number() {
        let spec: EntrantSpec = "m=mollett --seed {game} --note=g{game}x --level 2"
            .parse()
            .unwrap();
        let g7 = spec.for_game(7);
        assert_eq!(g7.name, "m");
        assert_eq!(
            g7.command,
            ["mollett", "--seed", "7", "--note=g7x", "--level", "2"]
        );
        assert_eq!(spec.for_game(12).command[2], "12");
        let plain: EntrantSpec = "n=ntest x a1".parse().unwrap();
        assert_eq!(plain.for_game(3), plain);
    }

    #[test]
    fn entrants_and_command_words() {
        let e: EntrantSpec = "a=mollett --level 2".parse().unwrap();
        assert_eq!(e.name, "a");
        assert_eq!(e.command, ["mollett", "--level", "2"]);
        let q: EntrantSpec = r#"x= sh -c 'echo "hi there"' "a\"b" c\ d"#.parse().unwrap();
        assert_eq!(q.command, ["sh", "-c", "echo \"hi there\"", "a\"b", "c d"]);
        assert!("nocommand".parse::<EntrantSpec>().is_err());
        assert!("a=".parse::<EntrantSpec>().is_err());
        assert!("two words=x".parse::<EntrantSpec>().is_err());
        assert!("a=sh 'open".parse::<EntrantSpec>().is_err());
        assert_eq!("NBoard".parse::<Proto>(), Ok(Proto::Nboard));
        assert!("uci".parse::<Proto>().is_err());
    }

    #[test]
    fn limits_for_all_then_per_entrant() {
        let names = vec!["a".to_string(), "b".to_string()];
        let flags = LimitFlags {
            depth: vec!["4".into(), "b=6".into()],
            move_time: vec![],
            clock: vec!["a=1:00/2".into()],
        };
        let l = flags.resolve(&names).unwrap();
        assert_eq!(l[0].depth, Some(4));
        assert_eq!(l[1].depth, Some(6));
        let c = l[0].clock.unwrap();
        assert_eq!(
            (c.main.get(), c.increment.get(), c.grace.get()),
            (60.0, 2.0, 0.0)
        );
        assert_eq!(l[1].clock, None);
        let bad = |f: LimitFlags| f.resolve(&names).unwrap_err().0;
        assert!(
            bad(LimitFlags {
                depth: vec!["c=3".into()],
                ..Default::default()
            })
            .contains("no entrant")
        );
        assert!(
            bad(LimitFlags {
                depth: vec!["0".into()],
                ..Default::default()
            })
            .contains("depth")
        );
        assert!(
            bad(LimitFlags {
                move_time: vec!["-1".into()],
                ..Default::default()
            })
            .contains("is not a time in seconds")
        );
        for huge in ["1e300", "99999999999999999999999"] {
            assert!(
                bad(LimitFlags {
                    move_time: vec![huge.into()],
                    ..Default::default()
                })
                .contains("is not a time in seconds (0 to 31536000)")
            );
            assert!(
                bad(LimitFlags {
                    clock: vec![huge.into()],
                    ..Default::default()
                })
                .contains("is not a clock")
            );
        }
        assert!(
            bad(LimitFlags {
                move_time: vec!["1".into()],
                clock: vec!["10".into()],
                ..Default::default()
            })
            .contains("both")
        );
    }
}
