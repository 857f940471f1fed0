//! Append-only files of lines that a job continues after an interrupt: the
//! datagen and relabel outputs, the probcut scores file and the games file of a
//! match share this logic.
//!
//! - The file is opened for reading and appending, created if missing
//!   ([`AppendOnly::open`]).
//! - Only complete lines count: a last line without its newline was torn by an
//!   interrupt in the middle of a write ([`complete_len`], [`for_each_line`]).
//! - The job decides what it holds whole (the complete lines, or fewer: the
//!   lines of its last unit of work may be incomplete), reports it, and cuts the
//!   file there ([`AppendOnly::cut`]), never beyond what it read.
//! - Each unit of work (a line, or a game's lines) is appended in one write and
//!   flushed; a failed write is cut back, so the file holds only whole units
//!   ([`AppendOnly::append`]).

use std::fs::File;
use std::io::{self, BufRead, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// The byte length of the complete lines of `text`: up to and including its
/// last newline (what follows it is a torn line).
pub fn complete_len(text: &str) -> usize {
    text.rfind('\n').map_or(0, |i| i + 1)
}

/// Calls `each` with the byte offset and the text (with its newline) of every
/// complete line of `reader`, in order, and stops at a torn last line;
/// returns the byte length of the complete lines. `io_error` turns a read
/// error into the job's error.
pub fn for_each_line<E>(
    mut reader: impl BufRead,
    each: &mut dyn FnMut(u64, &str) -> Result<(), E>,
    io_error: impl Fn(io::Error) -> E,
) -> Result<u64, E> {
    let mut line = String::new();
    let mut offset = 0u64;
    loop {
        line.clear();
        let n = (&mut reader)
            .take(RESUME_LINE_MAX + 1)
            .read_line(&mut line)
            .map_err(&io_error)?;
        if n as u64 > RESUME_LINE_MAX {
            return Err(io_error(io::Error::new(
                io::ErrorKind::InvalidData,
                format!("the line at byte {offset} is longer than 1 MiB: not a file of lines"),
            )));
        }
        if n == 0 || !line.ends_with('\n') {
            return Ok(offset); // the end, or a torn last line
        }
        each(offset, &line)?;
        offset += n as u64;
    }
}

/// The longest line a continued file may hold (a GGF game is a few KB, a data
/// line under 100 bytes): a longer one (a file of NULs) is refused, never read
/// whole.
pub const RESUME_LINE_MAX: u64 = 1 << 20;

/// An append-only file of lines, open to be read back and continued.
#[derive(Debug)]
pub struct AppendOnly {
    file: File,
    path: PathBuf,
    /// Its length after the last whole write.
    len: u64,
}

impl AppendOnly {
    /// Opens `path` for reading and appending, creating it if missing.
    pub fn open(path: &Path) -> io::Result<AppendOnly> {
        let file = std::fs::OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .open(path)?;
        let meta = file.metadata()?;
        if !meta.is_file() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "not a regular file",
            ));
        }
        let len = meta.len();
        Ok(AppendOnly {
            file,
            path: path.to_path_buf(),
            len,
        })
    }

    /// Takes an exclusive lock on the file for as long as it is open (Linux's
    /// `flock`), or says that another job holds it: two jobs never append to one
    /// file. Elsewhere it does nothing.
    pub fn lock(&self) -> io::Result<()> {
        #[cfg(target_os = "linux")]
        {
            use std::os::unix::io::AsRawFd;
            // SAFETY: `flock` on a descriptor this `File` owns and keeps open.
            let r = unsafe { libc::flock(self.file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
            if r != 0 {
                let e = io::Error::last_os_error();
                return Err(if e.kind() == io::ErrorKind::WouldBlock {
                    io::Error::new(
                        io::ErrorKind::WouldBlock,
                        "another job is writing it (it is locked)",
                    )
                } else {
                    e
                });
            }
        }
        Ok(())
    }

    /// The open file.
    pub fn file(&self) -> &File {
        &self.file
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The file's length after the last whole write.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether the file holds nothing.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The file's whole text from its start, through `read` (a reader of the
    /// job's choice: bounded, say), torn last line included.
    pub fn read_with<T>(
        &mut self,
        read: impl FnOnce(&mut dyn Read) -> io::Result<T>,
    ) -> io::Result<T> {
        self.file.seek(SeekFrom::Start(0))?;
        read(&mut self.file)
    }

    /// The file's whole text from its start, torn last line included.
    pub fn read_to_string(&mut self) -> io::Result<String> {
        self.read_with(|r| {
            let mut text = String::new();
            r.read_to_string(&mut text)?;
            Ok(text)
        })
    }

    /// Cuts the file to its first `len` bytes: what the job knows whole.
    pub fn cut(&mut self, len: u64) -> io::Result<()> {
        self.file.set_len(len)?;
        self.len = len;
        Ok(())
    }

    /// Appends `text` (whole lines) in one write and flushes it; should that
    /// fail, the file is cut back to its last whole write.
    pub fn append(&mut self, text: &str) -> io::Result<()> {
        match self
            .file
            .write_all(text.as_bytes())
            .and_then(|()| self.file.flush())
        {
            Ok(()) => {
                self.len += text.len() as u64;
                Ok(())
            }
            Err(e) => {
                let _ = self.file.set_len(self.len);
                Err(e)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_complete_lines_count() {
        assert_eq!(complete_len(""), 0);
        assert_eq!(complete_len("a\nb"), 2);
        assert_eq!(complete_len("a\nb\n"), 4);
        let mut seen = Vec::new();
        let len = for_each_line(
            "ab\ncd\nef".as_bytes(),
            &mut |at, l| -> Result<(), io::Error> {
                seen.push((at, l.to_string()));
                Ok(())
            },
            |e| e,
        )
        .unwrap();
        assert_eq!(len, 6);
        assert_eq!(seen, [(0, "ab\n".to_string()), (3, "cd\n".to_string())]);
    }

    #[test]
    fn a_file_is_cut_and_continued() {
        let path = std::env::temp_dir().join(format!("mollett-resume-{}", std::process::id()));
        std::fs::write(&path, "one\ntw").unwrap();
        let mut f = AppendOnly::open(&path).unwrap();
        let text = f.read_to_string().unwrap();
        assert_eq!(f.len(), 6);
        f.cut(complete_len(&text) as u64).unwrap();
        f.append("two\n").unwrap();
        assert_eq!(f.len(), 8);
        assert_eq!(f.read_to_string().unwrap(), "one\ntwo\n");
        std::fs::remove_file(&path).unwrap();
    }
}
