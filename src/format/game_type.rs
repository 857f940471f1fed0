//! GGF game types, the value of a record's `TY` tag, as GGS defines them:
//! an optional `s` (a synchro game: one of two games played at once from the
//! same start), the board size, then modifiers in any order: `r` or `rN` (a
//! random start, with N discs), `a` (anti: the fewer discs win), `k` (komi),
//! `b` or `w` (the asking player's colour). NBoard writes `8`; its headless
//! match driver (novello's `MutableGame.toGgf`) always writes `8rN`, N being
//! the discs of the record's start (`8r4` for the standard start).
//!
//! Only the board size and the rules matter for a record: the start itself is
//! always in `BO`, so `s`, `rN`, `b` and `w` change nothing. The board must be
//! 8×8, and komi games are refused (Mollett scores no komi).

/// What a `TY` value means for Mollett.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameType {
    /// `a`: Anti-Reversi, the fewer discs win.
    pub anti: bool,
    /// `rN`: the disc count of the random start, when given (`r` alone: `None`).
    pub random_discs: Option<u8>,
}

/// Reads a `TY` value (surrounding whitespace allowed): `8`, `8a`, `8r`,
/// `8r4`, `s8r20`, ...; the error says what is not supported.
pub fn parse_game_type(value: &str) -> Result<GameType, String> {
    let v = value.trim().to_ascii_lowercase();
    let unsupported = |why: &str| format!("game type TY[{}] is not supported: {why}", value.trim());
    let rest = v.strip_prefix('s').unwrap_or(&v);
    let size_end = rest
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(rest.len());
    match &rest[..size_end] {
        "8" => {}
        "" => return Err(unsupported("no board size")),
        n => return Err(unsupported(&format!("a {n}x{n} board (only 8x8)"))),
    }
    let mut ty = GameType {
        anti: false,
        random_discs: None,
    };
    let mut mods = rest[size_end..].char_indices().peekable();
    while let Some((i, c)) = mods.next() {
        match c {
            'a' => ty.anti = true,
            'b' | 'w' => {}
            'k' => return Err(unsupported("komi games")),
            'r' => {
                let digits = &rest[size_end + i + 1..];
                let len = digits
                    .find(|c: char| !c.is_ascii_digit())
                    .unwrap_or(digits.len());
                if len > 0 {
                    match digits[..len].parse::<u8>() {
                        Ok(n) if n <= 64 => ty.random_discs = Some(n),
                        _ => return Err(unsupported("a random start needs at most 64 discs")),
                    }
                    for _ in 0..len {
                        mods.next();
                    }
                }
            }
            other => return Err(unsupported(&format!("unknown modifier '{other}'"))),
        }
    }
    Ok(ty)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_forms_ggs_and_nboard_write() {
        let ty = |anti, random_discs| GameType { anti, random_discs };
        for (value, want) in [
            ("8", ty(false, None)),
            (" 8 ", ty(false, None)),
            ("8a", ty(true, None)),
            ("8r", ty(false, None)),
            ("8r4", ty(false, Some(4))),
            ("8r12", ty(false, Some(12))),
            ("8R20A", ty(true, Some(20))),
            ("8ar20", ty(true, Some(20))),
            ("s8r20", ty(false, Some(20))),
            ("s8", ty(false, None)),
            ("8b", ty(false, None)),
            ("8r64", ty(false, Some(64))),
        ] {
            assert_eq!(parse_game_type(value), Ok(want), "{value:?}");
        }
    }

    #[test]
    fn refuses_other_boards_komi_and_unknown_modifiers() {
        for (value, why) in [
            ("10", "a 10x10 board (only 8x8)"),
            ("s10r20", "a 10x10 board"),
            ("", "no board size"),
            ("r4", "no board size"),
            ("8k", "komi games"),
            ("8r65", "at most 64 discs"),
            ("8r999", "at most 64 discs"),
            ("8x", "unknown modifier 'x'"),
            ("8 r4", "unknown modifier ' '"),
        ] {
            let e = parse_game_type(value).unwrap_err();
            let head = format!("game type TY[{}] is not supported: ", value.trim());
            assert!(e.starts_with(&head) && e.contains(why), "{value:?}: {e}");
        }
    }
}
