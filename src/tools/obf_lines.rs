//! OBF files read by the tools: streamed line by line through the bounded
//! reader, blank lines and `%` comments skipped, each position with its line
//! number, every error naming the file and the line. The name `-` reads
//! standard input (`echo '<board> X' | mollett solve -`).

use crate::format::{self, ObfEntry};
use crate::input::{BoundedLines, MAX_LINE};
use anyhow::{Context, Result};
use std::io::BufRead;
use std::path::Path;

/// The positions of the OBF file `file`, each with its 1-based line number,
/// read as they are asked for (a file is never held whole). A line that does
/// not parse gives an error naming the file and the line.
pub fn obf_entries(file: &Path) -> Result<impl Iterator<Item = Result<(usize, ObfEntry)>>> {
    let stdin = file == Path::new("-");
    let name = if stdin {
        "standard input".to_string()
    } else {
        file.display().to_string()
    };
    let reader: Box<dyn BufRead + Send> = if stdin {
        Box::new(std::io::BufReader::new(std::io::stdin()))
    } else {
        let f = std::fs::File::open(file).with_context(|| format!("cannot read {name}"))?;
        Box::new(std::io::BufReader::new(f))
    };
    let lines = BoundedLines::new(reader, MAX_LINE);
    Ok(lines.filter_map(move |line| {
        let (n, text) = match line {
            Ok(l) => l,
            Err(e) => return Some(Err(anyhow::anyhow!("cannot read {name}: {e}"))),
        };
        let content = text.trim_start();
        if content.is_empty() || content.starts_with('%') {
            return None;
        }
        Some(
            format::parse_obf_line(&text)
                .map(|entry| (n, entry))
                .map_err(|e| anyhow::Error::new(e.at_line(n)).context(format!("in {name}"))),
        )
    }))
}
