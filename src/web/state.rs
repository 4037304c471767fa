//! The content the server serves: the content library, embedded or read from a folder that
//! may change (watched by a thread of its own, off the request path). Content is served as
//! soon as it is read; its mate and tsume proofs run in the background, and errors they find
//! join the snapshot when they are done. The server's whole state,
//! [`AppState`](super::AppState), holds this content beside the features' own state.

use crate::content::proofs::lower_priority;
use crate::content::source::{self, Folder};
use crate::content::{Diagnostic, Game, Library, ProofRun, ProofStore, Proving};
use crate::lang::Lang;
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

/// The content a server serves: built into the binary, or read from a folder that may
/// change. Clones share it; the folder's watcher ends when the last clone is dropped.
#[derive(Clone)]
pub(crate) struct Content(Arc<Source>);

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

impl Content {
    /// The content built into the binary; its proofs run in the background (errors they
    /// find are printed).
    ///
    /// # Panics
    /// If the built-in content has errors (the test suite makes sure it has none).
    pub(crate) fn embedded() -> Content {
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
        let content = Content(Arc::new(Source::Embedded(
            Snapshot {
                library: Arc::new(loaded.library),
                errors: Arc::new(Vec::new()),
                cache: Arc::default(),
                proofs: proofs.clone(),
            },
            store,
        )));
        proofs.start();
        content
    }

    /// A library made elsewhere (tests, benchmarks).
    pub(crate) fn from_library(library: Library) -> Content {
        Content(Arc::new(Source::Embedded(
            Snapshot {
                library: Arc::new(library),
                errors: Arc::new(Vec::new()),
                cache: Arc::default(),
                proofs: ProofRun::none(),
            },
            Arc::default(),
        )))
    }

    /// The content of `folder`, read again whenever a file in it changes: a thread
    /// looks at the files every [`WATCH_INTERVAL`], builds the new library when one changed
    /// and swaps it in. Requests never wait for a reload: until the swap they get the last
    /// snapshot. Neither waits for proofs: they run in the background after each read, and
    /// the errors they find replace the snapshot when they are done. The thread ends when
    /// the last clone of this content is dropped.
    pub(crate) fn folder(folder: Folder) -> Content {
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
        Content(inner)
    }

    /// Where the proofs of this content are kept (and how many searches ran).
    pub(crate) fn proof_store(&self) -> &ProofStore {
        match &*self.0 {
            Source::Embedded(_, store) | Source::Folder(_, store) => store,
        }
    }

    /// The content to serve now: the built-in library, or the folder's last snapshot (if the
    /// folder's new content has errors, the last good library, with the errors).
    pub(crate) fn snapshot(&self) -> Snapshot {
        match &*self.0 {
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
