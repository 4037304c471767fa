//! The data folder's lock: a server holds an advisory lock (`flock`) on `qiyuan.lock` in its
//! data folder for as long as it runs, so a second server on the same folder is refused at
//! start instead of splitting the games and the login limits between two processes. The
//! command-line tools (`teacher`, `backup`) take no lock: they work beside a running server.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::os::fd::AsRawFd;
use std::path::{Path, PathBuf};

/// The lock file's name in the data folder.
pub const FILE: &str = "qiyuan.lock";

/// Why the data folder could not be locked.
#[derive(Debug)]
pub enum LockError {
    /// Another process (another server) holds the lock on this folder.
    InUse(PathBuf),
    /// The folder or its lock file could not be made or opened.
    Io(PathBuf, std::io::Error),
}

impl std::fmt::Display for LockError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LockError::InUse(p) => write!(
                f,
                "another qiyuan is already serving the data folder {}",
                p.display()
            ),
            LockError::Io(p, e) => write!(f, "cannot lock the data folder {}: {e}", p.display()),
        }
    }
}

impl std::error::Error for LockError {}

/// The lock on a data folder, held until it is dropped (or the process ends).
#[derive(Debug)]
pub struct FolderLock {
    _file: File,
}

impl FolderLock {
    /// Locks `folder` (making it if needed), or says why not.
    ///
    /// ```
    /// use qiyuan::class::lock::{FolderLock, LockError};
    /// let dir = std::env::temp_dir().join(format!("qiyuan-lock-doc-{}", std::process::id()));
    /// let first = FolderLock::acquire(&dir).unwrap();
    /// assert!(matches!(FolderLock::acquire(&dir), Err(LockError::InUse(_))));
    /// drop(first);
    /// assert!(FolderLock::acquire(&dir).is_ok());
    /// # std::fs::remove_dir_all(&dir).unwrap();
    /// ```
    pub fn acquire(folder: &Path) -> Result<FolderLock, LockError> {
        let io = |e| LockError::Io(folder.to_path_buf(), e);
        std::fs::create_dir_all(folder).map_err(io)?;
        let mut file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .read(true)
            .write(true)
            .open(folder.join(FILE))
            .map_err(io)?;
        // SAFETY: flock only reads the descriptor, which `file` keeps open.
        if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } != 0 {
            let e = std::io::Error::last_os_error();
            return Err(if e.raw_os_error() == Some(libc::EWOULDBLOCK) {
                LockError::InUse(folder.to_path_buf())
            } else {
                io(e)
            });
        }
        // The holder's process id, for whoever looks.
        let _ = file.set_len(0);
        let _ = writeln!(file, "{}", std::process::id());
        Ok(FolderLock { _file: file })
    }
}
