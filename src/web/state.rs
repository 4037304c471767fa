//! The server's state: the content library, embedded or read from a folder that may change
//! (watched by a thread of its own, off the request path). Content is served as soon as it is
//! read; its mate and tsume proofs run in the background, and errors they find join the
//! snapshot when they are done.

use super::class::Classroom;
use crate::class::Store;
use crate::content::proofs::lower_priority;
use crate::content::source::{self, Folder};
use crate::content::{Diagnostic, Game, Library, ProofRun, ProofStore, Proving};
use crate::lang::Lang;
use crate::play::engine::Engines;
use crate::play::lobby::{Limits, Lobby};
use axum::body::Bytes;
use std::collections::HashMap;
use std::sync::{Arc, RwLock, Weak};
use std::time::Duration;

/// What a cached page was rendered from: not the address as typed (`/%67o/lessons/x` and
/// `/go/lessons/x?lang=en&lang=en` are one page) but what it resolved to.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PageKey {
    /// The game.
    pub game: Game,
    /// The page within the game, e.g. `lessons/captures`.
    pub page: String,
    /// The language it is in.
    pub lang: Lang,
    /// Its state in a canonical spelling (`0:2,3:1`); empty for the first state.
    pub state: String,
}

/// Pages rendered once and kept while their content is served. Belongs to one [`Snapshot`],
/// so a reload starts it afresh. Bounded by bytes: pages in their first state may fill
/// [`PageCache::BUDGET`], pages in other states only half of it, so that requests for many
/// states never keep the first ones out.
#[derive(Debug, Default)]
pub struct PageCache {
    pages: RwLock<(HashMap<PageKey, Bytes>, usize)>,
}

impl PageCache {
    /// At most this many bytes of pages are kept (16 MiB).
    pub const BUDGET: usize = 16 << 20;

    /// The page stored under `key`.
    pub fn get(&self, key: &PageKey) -> Option<Bytes> {
        self.pages
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .0
            .get(key)
            .cloned()
    }

    /// Stores `page` under `key`, unless that would take the cache over its budget.
    pub fn put(&self, key: PageKey, page: Bytes) {
        let budget = if key.state.is_empty() {
            Self::BUDGET
        } else {
            Self::BUDGET / 2
        };
        let mut guard = self.pages.write().unwrap_or_else(|e| e.into_inner());
        let (pages, bytes) = &mut *guard;
        if pages.contains_key(&key) || *bytes + page.len() > budget {
            return;
        }
        *bytes += page.len();
        pages.insert(key, page);
    }

    /// The bytes of pages kept.
    pub fn bytes(&self) -> usize {
        self.pages.read().unwrap_or_else(|e| e.into_inner()).1
    }
}

/// What a request sees: the library and, in folder mode, the errors of the last reload.
#[derive(Clone, Debug)]
pub struct Snapshot {
    /// The content being served.
    pub library: Arc<Library>,
    /// Errors found when the folder was last read; the last good content is served meanwhile.
    pub errors: Arc<Vec<Diagnostic>>,
    /// Pages rendered from this content.
    pub cache: Arc<PageCache>,
    /// The background proofs of this content: how far they are.
    pub proofs: Arc<ProofRun>,
}

/// Shared state of the server.
#[derive(Clone)]
pub struct AppState {
    inner: Arc<Source>,
    /// The games being played on this server.
    lobby: Arc<Lobby>,
    /// The classes' live boards.
    live: Arc<super::live::LiveBoards>,
    /// The real engines the computer opponent can be.
    engines: Arc<Engines>,
    /// Game records opened by learners, and the `--records` library.
    records: Arc<super::records::Records>,
    /// The classroom (accounts, homework, progress), when the server has a data folder.
    classroom: Option<Arc<Classroom>>,
}

enum Source {
    Embedded(Snapshot, Arc<ProofStore>),
    /// A folder: a watcher thread reads it again when a file changes and swaps the new
    /// snapshot in; the lock is held only to clone or replace the snapshot. The store keeps
    /// the proofs of every read, so an unchanged problem is not proven again.
    Folder(RwLock<Snapshot>, Arc<ProofStore>),
}

impl Drop for Source {
    /// The proofs of content no one serves any more are not run.
    fn drop(&mut self) {
        match self {
            Source::Embedded(s, _) => s.proofs.cancel(),
            Source::Folder(s, _) => s.read().unwrap_or_else(|e| e.into_inner()).proofs.cancel(),
        }
    }
}

/// How often the watcher looks at the content folder's files (their times and sizes).
pub const WATCH_INTERVAL: Duration = Duration::from_millis(250);

impl AppState {
    /// Serves the content built into the binary; its proofs run in the background (errors
    /// they find are printed: the test suite makes sure there are none).
    ///
    /// # Panics
    /// If the built-in content has errors (the test suite makes sure it has none).
    pub fn embedded() -> AppState {
        let store = Arc::new(ProofStore::default());
        let loaded = Library::load_with(&source::embedded(), &store, Proving::Later);
        assert!(
            loaded.errors.is_empty(),
            "built-in content has errors:\n{}",
            loaded
                .errors
                .iter()
                .map(|e| e.to_string())
                .collect::<Vec<_>>()
                .join("\n")
        );
        let proofs = ProofRun::new(loaded.proofs, |errors| {
            for e in errors {
                eprintln!("qiyuan: built-in content: {e}");
            }
        });
        let state = AppState::with_source(Source::Embedded(
            Snapshot {
                library: Arc::new(loaded.library),
                errors: Arc::new(Vec::new()),
                cache: Arc::default(),
                proofs: proofs.clone(),
            },
            store,
        ));
        proofs.start();
        state
    }

    /// Serves a library made elsewhere (tests, benchmarks).
    pub fn from_library(library: Library) -> AppState {
        AppState::with_source(Source::Embedded(
            Snapshot {
                library: Arc::new(library),
                errors: Arc::new(Vec::new()),
                cache: Arc::default(),
                proofs: ProofRun::none(),
            },
            Arc::default(),
        ))
    }

    fn with_source(source: Source) -> AppState {
        AppState {
            inner: Arc::new(source),
            lobby: Arc::default(),
            live: Arc::default(),
            engines: Arc::new(Engines::none()),
            records: Arc::default(),
            classroom: None,
        }
    }

    /// Serves the content of `folder`, read again whenever a file in it changes: a thread
    /// looks at the files every [`WATCH_INTERVAL`], builds the new library when one changed
    /// and swaps it in. Requests never wait for a reload: until the swap they get the last
    /// snapshot. Neither waits for proofs: they run in the background after each read, and
    /// the errors they find replace the snapshot when they are done. The thread ends when
    /// the last clone of this state is dropped.
    pub fn folder(folder: Folder) -> AppState {
        let mut stamp = folder.stamp();
        let store = Arc::new(ProofStore::default());
        let mut first = None;
        let inner = Arc::new_cyclic(|source| {
            let snapshot = read_folder(&folder, None, &store, source);
            first = Some(snapshot.proofs.clone());
            Source::Folder(RwLock::new(snapshot), store)
        });
        if let Some(proofs) = first {
            proofs.start();
        }
        let watched = Arc::downgrade(&inner);
        let spawned = std::thread::Builder::new()
            .name("qiyuan-watch".into())
            .spawn(move || loop {
                lower_priority();
                std::thread::sleep(WATCH_INTERVAL);
                if watched.strong_count() == 0 {
                    return;
                }
                let now = folder.stamp();
                if now == stamp {
                    continue;
                }
                stamp = now;
                let Some(source) = watched.upgrade() else {
                    return;
                };
                let Source::Folder(current, store) = &*source else {
                    return;
                };
                let last = current.read().unwrap_or_else(|e| e.into_inner()).clone();
                let next = read_folder(&folder, Some(&last), store, &watched);
                let proofs = next.proofs.clone();
                *current.write().unwrap_or_else(|e| e.into_inner()) = next;
                last.proofs.cancel();
                proofs.start();
            });
        if let Err(e) = spawned {
            eprintln!("qiyuan: cannot watch the content folder, changes will not show: {e}");
        }
        AppState {
            inner,
            lobby: Arc::default(),
            live: Arc::default(),
            engines: Arc::new(Engines::none()),
            records: Arc::default(),
            classroom: None,
        }
    }

    /// Where the proofs of this state's content are kept (and how many searches ran).
    pub fn proof_store(&self) -> &ProofStore {
        match &*self.inner {
            Source::Embedded(_, store) | Source::Folder(_, store) => store,
        }
    }

    /// The same content with a lobby of other limits (tests).
    pub fn with_lobby(self, limits: Limits) -> AppState {
        AppState {
            lobby: Arc::new(Lobby::new(limits)),
            ..self
        }
    }

    /// The same content with at most `n` engine processes for its games (`--max-engines`).
    pub fn with_max_engines(self, n: usize) -> AppState {
        let limits = Limits {
            engines: n,
            ..self.lobby.limits()
        };
        self.with_lobby(limits)
    }

    /// The games being played.
    pub fn lobby(&self) -> &Lobby {
        &self.lobby
    }

    /// The classes' live boards.
    pub fn live(&self) -> &super::live::LiveBoards {
        &self.live
    }

    /// The same content with these real engines for the computer opponent (none by default).
    pub fn with_engines(self, engines: Engines) -> AppState {
        AppState {
            engines: Arc::new(engines),
            ..self
        }
    }

    /// The same content with the records of the folder `library` (`--records DIR`) and
    /// these limits on the records learners open.
    pub fn with_records(
        self,
        library: Option<std::path::PathBuf>,
        limits: super::records::RecordLimits,
    ) -> AppState {
        AppState {
            records: Arc::new(super::records::Records::new(library, limits)),
            ..self
        }
    }

    /// Game records: those opened by learners, and the library.
    pub fn records(&self) -> &super::records::Records {
        &self.records
    }

    /// The real engines the computer opponent can be.
    pub fn engines(&self) -> &Engines {
        &self.engines
    }

    /// The same, shared (for a blocking thread that starts one).
    pub fn engines_arc(&self) -> Arc<Engines> {
        self.engines.clone()
    }

    /// The same content with a classroom kept in `store` (its data folder, if any, is
    /// `folder`).
    pub fn with_store(self, store: Arc<dyn Store>, folder: Option<std::path::PathBuf>) -> AppState {
        AppState {
            classroom: Some(Arc::new(Classroom::new(store, folder))),
            ..self
        }
    }

    /// The same classroom (a fresh one: its login limits start afresh) with its passwords
    /// checked through `gate` (by default one at a time per core).
    pub fn with_password_gate(self, gate: crate::class::password::Gate) -> AppState {
        let classroom = self.classroom.as_ref().map(|room| {
            Arc::new(Classroom::with_gate(
                room.store.clone(),
                room.folder.clone(),
                gate,
            ))
        });
        AppState { classroom, ..self }
    }

    /// The classroom, if the server has one.
    pub fn classroom(&self) -> Option<&Classroom> {
        self.classroom.as_deref()
    }

    /// The same, shared.
    pub fn classroom_arc(&self) -> Option<Arc<Classroom>> {
        self.classroom.clone()
    }

    /// The content to serve now: the built-in library, or the folder's last snapshot (if the
    /// folder's new content has errors, the last good library, with the errors).
    pub fn snapshot(&self) -> Snapshot {
        match &*self.inner {
            Source::Embedded(s, _) => s.clone(),
            Source::Folder(current, _) => current.read().unwrap_or_else(|e| e.into_inner()).clone(),
        }
    }
}

/// Reads the folder without proving; on errors keeps `last` (if any) as the library to serve.
/// The snapshot's proofs (not started) replace it in `source` when they find errors: by the
/// same rule, with the errors of a full check.
fn read_folder(
    folder: &Folder,
    last: Option<&Snapshot>,
    store: &ProofStore,
    source: &Weak<Source>,
) -> Snapshot {
    let files = match folder.read() {
        Ok(files) => files,
        Err(e) => {
            let error = Diagnostic {
                path: folder.root().display().to_string(),
                line: 1,
                col: 1,
                message: format!("cannot read the content folder: {e}"),
            };
            return Snapshot {
                library: last.map(|l| l.library.clone()).unwrap_or_default(),
                errors: Arc::new(vec![error]),
                cache: Arc::default(),
                proofs: ProofRun::none(),
            };
        }
    };
    let loaded = Library::load_with(&files, store, Proving::Later);
    let previous = last.map(|l| l.library.clone());
    let library = served(loaded.library, &loaded.errors, previous.clone());
    let shown = library.clone();
    let source = source.clone();
    let proofs = ProofRun::new(loaded.proofs, move |found| {
        if found.is_empty() {
            return;
        }
        let Some(source) = source.upgrade() else {
            return;
        };
        let Source::Folder(current, store) = &*source else {
            return;
        };
        // Read again with the proofs known (none is searched for twice): the library and
        // errors of a full check.
        let checked = Library::load_with(&files, store, Proving::Now);
        let library = served(checked.library, &checked.errors, previous);
        let mut current = current.write().unwrap_or_else(|e| e.into_inner());
        if Arc::ptr_eq(&current.library, &shown) {
            *current = Snapshot {
                library,
                errors: Arc::new(checked.errors),
                cache: Arc::default(),
                proofs: current.proofs.clone(),
            };
        }
    });
    Snapshot {
        library,
        errors: Arc::new(loaded.errors),
        cache: Arc::default(),
        proofs,
    }
}

/// The library to serve after a read: the new one, unless it has errors and there is a last
/// one.
fn served(library: Library, errors: &[Diagnostic], previous: Option<Arc<Library>>) -> Arc<Library> {
    match (errors.is_empty(), previous) {
        (false, Some(last)) => last,
        _ => Arc::new(library),
    }
}
