//! Bounded reading of files and streams: every file or stdin that Mollett reads
//! goes through here, so that no input (`/dev/zero`, a FIFO that never ends, a
//! line without an end) can exhaust memory or block the engine loop.
//!
//! - [`read_text`] reads a whole stream of at most a given size;
//! - [`read_regular_file`] reads a regular file of at most a given size, and
//!   refuses anything else (a FIFO, a device, a directory) without blocking;
//! - [`BoundedLines`] streams a file line by line, each line of at most a given
//!   length;
//! - [`write_whole`], the one write of a whole file: beside it, then renamed
//!   over it, so that a reader or a failure never sees part of it.
//!
//! Errors are [`std::io::Error`]s whose message says what was wrong (too large,
//! not a regular file, not UTF-8); the callers name the file.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::Path;

/// The largest game record, opening list or games file read whole: far above
/// any real one (a games file of 10 000 games is about 10 MiB).
pub const MAX_TEXT: u64 = 64 << 20;

/// The longest line of a streamed file (an OBF line is about 100 bytes).
pub const MAX_LINE: usize = 64 << 10;

/// Reads all of `r` as UTF-8 text of at most `limit` bytes.
pub fn read_text(r: impl Read, limit: u64) -> io::Result<String> {
    let bytes = read_bytes(r, limit)?;
    String::from_utf8(bytes).map_err(|e| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("not UTF-8 text (at byte {})", e.utf8_error().valid_up_to()),
        )
    })
}

/// Reads a whole stream of at most `limit` bytes; more is an error, found after
/// reading `limit + 1` bytes, never more.
pub fn read_bytes(r: impl Read, limit: u64) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    r.take(limit + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("larger than {}", size(limit)),
        ));
    }
    Ok(bytes)
}

/// A size in the largest whole unit: `64 MiB`, `64 KiB`, `100 bytes`.
fn size(bytes: u64) -> String {
    if bytes >= 1 << 20 && bytes % (1 << 20) == 0 {
        format!("{} MiB", bytes >> 20)
    } else if bytes >= 1 << 10 && bytes % (1 << 10) == 0 {
        format!("{} KiB", bytes >> 10)
    } else {
        format!("{bytes} bytes")
    }
}

/// Opens `path` for reading without blocking on a FIFO (on Linux, with
/// `O_NONBLOCK`, which is then of no effect on a regular file).
fn open_nonblocking(path: &Path) -> io::Result<File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    options.open(path)
}

/// Reads the regular file `path` as UTF-8 text of at most `limit` bytes; a
/// FIFO, a device or a directory is refused at once (it is opened without
/// blocking, then checked).
pub fn read_regular_file(path: &Path, limit: u64) -> io::Result<String> {
    read_text(open_regular_file(path)?, limit)
}

/// [`read_regular_file`] for a binary file: its bytes, at most `limit`.
pub fn read_regular_file_bytes(path: &Path, limit: u64) -> io::Result<Vec<u8>> {
    read_bytes(open_regular_file(path)?, limit)
}

/// Opens `path` for reading without blocking and refuses anything but a
/// regular file (a FIFO, a device, a directory), so that no reader waits on one.
pub fn open_regular_file(path: &Path) -> io::Result<std::fs::File> {
    let file = open_nonblocking(path)?;
    if !file.metadata()?.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "not a regular file",
        ));
    }
    Ok(file)
}

/// A new temporary file beside `path` (`.NAME.PID.tmp`, in the same directory so
/// that a rename or link puts it in place), and its name.
fn temporary_beside(path: &Path) -> io::Result<(std::path::PathBuf, File)> {
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "not a file name"))?;
    let tmp = path.with_file_name(format!(
        ".{}.{}.tmp",
        name.to_string_lossy(),
        std::process::id()
    ));
    let file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&tmp)?;
    Ok((tmp, file))
}

/// Writes `bytes` to `path` whole: into a new temporary file beside it,
/// synced, then renamed over it, so that a reader never sees a part and a
/// failure (a full disk) leaves what was there. A `path` that exists and is
/// not a regular file (a FIFO, a device, a directory) is refused without
/// blocking.
pub fn write_whole(path: &Path, bytes: &[u8]) -> io::Result<()> {
    if let Ok(meta) = std::fs::metadata(path)
        && !meta.is_file()
    {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "not a regular file",
        ));
    }
    let (tmp, mut file) = temporary_beside(path)?;
    let written = file
        .write_all(bytes)
        .and_then(|()| file.sync_all())
        .and_then(|()| std::fs::rename(&tmp, path));
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

/// [`write_whole`], where a file already at `path` is replaced only if it is of
/// the kind being written: `is_kind` is given its first bytes (up to 64). Any
/// other file (the training data given as `--out` by mistake, notes) is left
/// alone and the error says so.
pub fn write_whole_over_own(
    path: &Path,
    bytes: &[u8],
    is_kind: impl Fn(&[u8]) -> bool,
) -> io::Result<()> {
    if std::fs::symlink_metadata(path).is_ok() {
        let mut head = Vec::new();
        open_regular_file(path)?.take(64).read_to_end(&mut head)?;
        if !is_kind(&head) {
            return Err(io::Error::new(
                io::ErrorKind::AlreadyExists,
                "it exists and is not a file of this kind: not replaced",
            ));
        }
    }
    write_whole(path, bytes)
}

/// A new file written under a temporary name beside `path` and put in place
/// whole by [`NewFile::finish`]: until then nothing is at `path`, an error or an
/// interrupt leaves no part of it there (and the same command can be run
/// again), and it never replaces a file that exists (the link that puts it in
/// place fails instead). Dropped unfinished, it removes its temporary file.
pub struct NewFile {
    tmp: std::path::PathBuf,
    path: std::path::PathBuf,
    done: bool,
}

impl NewFile {
    /// Creates the temporary file for `path` and returns it to be written; an
    /// error if `path` exists already.
    pub fn create(path: &Path) -> io::Result<(NewFile, File)> {
        if std::fs::symlink_metadata(path).is_ok() {
            return Err(io::Error::new(
                io::ErrorKind::AlreadyExists,
                "it exists already (never replaced)",
            ));
        }
        let (tmp, file) = temporary_beside(path)?;
        let new = NewFile {
            tmp,
            path: path.to_path_buf(),
            done: false,
        };
        Ok((new, file))
    }

    /// Puts the written file (`file`, synced here) at its path, unless a file
    /// appeared there meanwhile.
    pub fn finish(mut self, file: File) -> io::Result<()> {
        file.sync_all()?;
        drop(file);
        std::fs::hard_link(&self.tmp, &self.path)?;
        self.done = true;
        let _ = std::fs::remove_file(&self.tmp);
        Ok(())
    }
}

impl Drop for NewFile {
    fn drop(&mut self) {
        if !self.done {
            let _ = std::fs::remove_file(&self.tmp);
        }
    }
}

/// The lines of a stream, each of at most `max` bytes (without its `\n`; a
/// final `\r` is dropped): a longer line or one that is not UTF-8 is an error
/// naming its line number, after which the iterator ends.
pub struct BoundedLines<R> {
    reader: R,
    max: usize,
    line: usize,
    failed: bool,
}

impl<R: BufRead> BoundedLines<R> {
    /// Lines of `reader` of at most `max` bytes.
    pub fn new(reader: R, max: usize) -> BoundedLines<R> {
        BoundedLines {
            reader,
            max,
            line: 0,
            failed: false,
        }
    }

    /// The next line's bytes, or `None` at the end.
    fn next_bytes(&mut self) -> io::Result<Option<Vec<u8>>> {
        let mut buf = Vec::new();
        let n = (&mut self.reader)
            .take(self.max as u64 + 2)
            .read_until(b'\n', &mut buf)?;
        if n == 0 {
            return Ok(None);
        }
        // Without its end, a line of more than `max` bytes was cut by `take`.
        if buf.last() == Some(&b'\n') {
            buf.pop();
            if buf.last() == Some(&b'\r') {
                buf.pop();
            }
        }
        if buf.len() > self.max {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "line {} is longer than {}",
                    self.line,
                    size(self.max as u64)
                ),
            ));
        }
        Ok(Some(buf))
    }
}

impl BoundedLines<BufReader<File>> {
    /// The lines of the file at `path` (any kind of file: a FIFO is streamed).
    pub fn open(path: &Path, max: usize) -> io::Result<Self> {
        Ok(BoundedLines::new(BufReader::new(File::open(path)?), max))
    }
}

impl<R: BufRead> Iterator for BoundedLines<R> {
    /// The line's number (from 1) and text.
    type Item = io::Result<(usize, String)>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        self.line += 1;
        let item = match self.next_bytes() {
            Ok(None) => return None,
            Ok(Some(bytes)) => String::from_utf8(bytes)
                .map(|s| (self.line, s))
                .map_err(|_| {
                    io::Error::new(
                        io::ErrorKind::InvalidData,
                        format!("line {} is not UTF-8 text", self.line),
                    )
                }),
            Err(e) => Err(e),
        };
        self.failed = item.is_err();
        Some(item)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_texts_are_bounded() {
        assert_eq!(read_text(&b"abc"[..], 3).unwrap(), "abc");
        let e = read_text(&b"abcd"[..], 3).unwrap_err();
        assert_eq!(e.to_string(), "larger than 3 bytes");
        let e = read_text(io::repeat(0), 1 << 20).unwrap_err();
        assert_eq!(e.to_string(), "larger than 1 MiB");
        let e = read_text(&b"a\xffb"[..], 10).unwrap_err();
        assert_eq!(e.to_string(), "not UTF-8 text (at byte 1)");
    }

    #[test]
    fn a_whole_write_replaces_a_file_and_refuses_other_kinds() {
        let dir = std::env::temp_dir().join(format!("mollett-write-whole-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("game.ggf");
        write_whole(&path, b"one").unwrap();
        write_whole(&path, b"two").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "two");
        // Nothing left beside it.
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
        for other in [Path::new("/dev/null"), dir.as_path()] {
            let e = write_whole(other, b"x").unwrap_err();
            assert_eq!(e.to_string(), "not a regular file");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn only_regular_files_are_read_whole() {
        let e = read_regular_file(Path::new("/dev/zero"), 10).unwrap_err();
        assert_eq!(e.to_string(), "not a regular file");
        let e = read_regular_file(Path::new("/"), 10).unwrap_err();
        assert_eq!(e.to_string(), "not a regular file");
        assert!(read_regular_file(Path::new("/no/such/file"), 10).is_err());
    }

    #[test]
    fn lines_are_bounded_and_numbered() {
        let lines: Vec<_> = BoundedLines::new(&b"ab\r\ncd\n\nxyz"[..], 3)
            .map(|l| l.unwrap())
            .collect();
        assert_eq!(
            lines,
            [
                (1, "ab".to_string()),
                (2, "cd".into()),
                (3, "".into()),
                (4, "xyz".into())
            ]
        );
        let mut it = BoundedLines::new(&b"ok\nfour\nlater\n"[..], 3);
        assert_eq!(it.next().unwrap().unwrap(), (1, "ok".to_string()));
        let e = it.next().unwrap().unwrap_err();
        assert_eq!(e.to_string(), "line 2 is longer than 3 bytes");
        assert!(it.next().is_none());
        // An endless line stops at the bound.
        let mut zero = BoundedLines::new(BufReader::new(io::repeat(0)), 1 << 10);
        let e = zero.next().unwrap().unwrap_err();
        assert_eq!(e.to_string(), "line 1 is longer than 1 KiB");
        let e = BoundedLines::new(&b"\xff\n"[..], 3).next().unwrap();
        assert_eq!(e.unwrap_err().to_string(), "line 1 is not UTF-8 text");
    }
}
