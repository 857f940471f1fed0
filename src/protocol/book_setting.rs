//! The book setting every dialect shares: the console's `book ...`, NBoard's
//! `set book ...` and GTP's `mollett-book ...` read the same words and answer
//! with the same description.

use crate::engine::Engine;

/// A change to the engine's use of its opening book.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BookSetting {
    /// Play and hint from the book.
    On,
    /// Search every move.
    Off,
    /// Play any book move within this many centi-discs of the best, drawn by
    /// the game's seed.
    Randomness(u32),
}

/// Reads `on`, `off` or `randomness D` (D discs, 0 to 64).
pub fn parse_book_setting(text: &str) -> Result<BookSetting, String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    match words.as_slice() {
        [w] if w.eq_ignore_ascii_case("on") => Ok(BookSetting::On),
        [w] if w.eq_ignore_ascii_case("off") => Ok(BookSetting::Off),
        [w, d] if w.eq_ignore_ascii_case("randomness") => match d.parse::<f64>() {
            Ok(x) if (0.0..=64.0).contains(&x) => {
                Ok(BookSetting::Randomness((x * 100.0).round() as u32))
            }
            _ => Err(format!("'{d}' is not a number of discs (0..64)")),
        },
        _ => Err(format!(
            "'{text}' is not a book setting (on, off, randomness DISCS)"
        )),
    }
}

/// Applies `setting`; turning the book on needs one (`--book off` loads none).
pub fn apply_book_setting(engine: &mut Engine, setting: BookSetting) -> Result<(), String> {
    match setting {
        BookSetting::On if engine.book().is_none() => {
            Err("no book is loaded (the engine was started with --book off)".into())
        }
        BookSetting::On => {
            engine.set_use_book(true);
            Ok(())
        }
        BookSetting::Off => {
            engine.set_use_book(false);
            Ok(())
        }
        BookSetting::Randomness(c) => {
            engine.set_book_randomness(c);
            Ok(())
        }
    }
}

/// `book on (38512 positions), randomness 0.00 discs`, `book off (...)` or
/// `book none (started with --book off)`.
pub fn describe_book(engine: &Engine) -> String {
    let s = engine.settings();
    match engine.book() {
        None => "book none (started with --book off)".to_string(),
        Some(b) => format!(
            "book {} ({} positions of {}), randomness {:.2} discs",
            if s.use_book { "on" } else { "off" },
            b.len(),
            b.rules().name(),
            f64::from(s.book_randomness) / 100.0
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_settings_parse_and_bad_ones_say_why() {
        assert_eq!(parse_book_setting("on"), Ok(BookSetting::On));
        assert_eq!(parse_book_setting(" OFF "), Ok(BookSetting::Off));
        assert_eq!(
            parse_book_setting("randomness 1.5"),
            Ok(BookSetting::Randomness(150))
        );
        assert!(
            parse_book_setting("randomness -1")
                .unwrap_err()
                .contains("discs")
        );
        assert!(parse_book_setting("randomness nan").is_err());
        assert!(
            parse_book_setting("maybe")
                .unwrap_err()
                .contains("book setting")
        );
        assert!(parse_book_setting("").is_err());
    }
}
