//! Mate and tsume proofs off the start-up path: each problem's proof is a cell filled once (by
//! a background worker, or first by a request that needs it), kept in a [`ProofStore`] by
//! position, goal, depth and search version so that a reload proves only what changed, and
//! run in the background by a few low-priority threads ([`ProofRun`]).
//!
//! Loading has two modes ([`Proving`]): `Now` proves while it reads, as `qiyuan check` needs
//! (the errors are those of a full check, in the same order); `Later` only collects what the
//! proofs must show ([`PendingProofs`]), so that content is served at once.

use super::diagnostic::{Diagnostic, Locator};
use super::Game;
use std::collections::{HashMap, VecDeque};
use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, OnceLock};

/// What a proof answers, and so what its result is kept by.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ProofKey {
    /// The game.
    pub game: Game,
    /// The start position as text (FEN, SFEN).
    pub position: String,
    /// The goal proven: `mate`, `tsume`.
    pub goal: &'static str,
    /// The goal's depth (`mate_in`).
    pub depth: u32,
    /// The search's version: a search that answers differently gets a new one.
    pub version: u32,
}

type Search = Box<dyn Fn() -> Vec<String> + Send + Sync>;

/// One problem's proof: the first moves that force its goal, searched for once.
pub struct Proof {
    key: ProofKey,
    search: Search,
    first_moves: OnceLock<Vec<String>>,
    searches: Arc<AtomicUsize>,
}

impl Proof {
    /// What the proof answers.
    pub fn key(&self) -> &ProofKey {
        &self.key
    }

    /// The first moves that force the goal (canonical names, in legal-move order); searched
    /// for now if no one has yet. While another thread searches, this waits for its answer.
    pub fn first_moves(&self) -> &[String] {
        self.first_moves.get_or_init(|| {
            self.searches.fetch_add(1, Ordering::Relaxed);
            (self.search)()
        })
    }

    /// Whether the search is done.
    pub fn is_done(&self) -> bool {
        self.first_moves.get().is_some()
    }
}

impl fmt::Debug for Proof {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Proof")
            .field("key", &self.key)
            .field("first_moves", &self.first_moves.get())
            .finish()
    }
}

/// Proofs by [`ProofKey`], shared by the loads of one content source, so that an unchanged
/// problem is not proven again after a reload.
#[derive(Debug, Default)]
pub struct ProofStore {
    proofs: Mutex<HashMap<ProofKey, Arc<Proof>>>,
    searches: Arc<AtomicUsize>,
}

impl ProofStore {
    /// The proof of `key`: the one kept, or a new one that `search` will answer.
    pub fn proof(
        &self,
        key: ProofKey,
        search: impl Fn() -> Vec<String> + Send + Sync + 'static,
    ) -> Arc<Proof> {
        let mut proofs = self.proofs.lock().unwrap_or_else(|e| e.into_inner());
        proofs
            .entry(key.clone())
            .or_insert_with(|| {
                Arc::new(Proof {
                    key,
                    search: Box::new(search),
                    first_moves: OnceLock::new(),
                    searches: self.searches.clone(),
                })
            })
            .clone()
    }

    /// How many searches have been run (each proof is searched for at most once).
    pub fn searches(&self) -> usize {
        self.searches.load(Ordering::Relaxed)
    }

    /// How many proofs are kept.
    pub fn len(&self) -> usize {
        self.proofs.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    /// Whether no proof is kept.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Forgets the proofs no library holds any more (called before each load, so the store
    /// holds what the content being served and the content being loaded use).
    pub(crate) fn forget_unused(&self) {
        self.proofs
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .retain(|_, p| Arc::strong_count(p) > 1);
    }
}

/// When a load proves its problems.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proving {
    /// While reading: the errors found are complete (`qiyuan check`).
    Now,
    /// Afterwards: what the proofs must show is returned as [`PendingProofs`].
    Later,
}

/// What a load does with its proofs: the store they are kept in, when they run, and those
/// left for later.
pub(crate) struct LoadProofs<'a> {
    /// Where proofs are kept.
    pub store: &'a ProofStore,
    /// When they run.
    pub mode: Proving,
    /// Those left for later ([`Proving::Later`]).
    pub pending: PendingProofs,
    /// The file being read, once a proof needed it.
    pub file: Option<SourceFile>,
}

impl LoadProofs<'_> {
    /// The file `loc` reads, shared by the proofs of its problems.
    pub fn file(&mut self, loc: &Locator) -> SourceFile {
        match &self.file {
            Some(f) if f.0 == loc.path() => f.clone(),
            _ => {
                let f = Arc::new((loc.path().to_string(), loc.contents().to_string()));
                self.file = Some(f.clone());
                f
            }
        }
    }

    /// Proves `check` now, its errors joining `errors`, or keeps it for later.
    pub fn check(&mut self, check: ProofCheck, errors: &mut Vec<Diagnostic>) {
        match self.mode {
            Proving::Now => errors.extend(check.errors()),
            Proving::Later => self.pending.checks.push(check),
        }
    }
}

/// A content file as a proof's errors need it: path and text, shared by its problems.
pub(crate) type SourceFile = Arc<(String, String)>;

/// An error a proof may find, with its place: the line and column are worked out only when
/// it is reported (counting lines for every possible error of a large file is what loading
/// would spend its time on).
#[derive(Debug)]
pub(crate) struct Possible {
    /// The file.
    pub file: SourceFile,
    /// The byte offset in it.
    pub offset: usize,
    /// What is wrong.
    pub message: String,
}

impl Possible {
    /// The diagnostic, with line and column.
    fn diagnostic(&self) -> Diagnostic {
        Locator::new(&self.file.0, &self.file.1).at(self.offset, self.message.clone())
    }
}

/// One line an author wrote for a mate problem, and the errors it gets once the proof is
/// known.
#[derive(Debug)]
pub(crate) struct LineCheck {
    /// The line's first move in canonical form, if it could be read.
    pub first: Option<String>,
    /// The error when that move is not among the proven first moves.
    pub refused: Possible,
    /// The error when the line, played out, does not end in mate (and its first move is
    /// proven).
    pub unmated: Option<Possible>,
}

/// What a mate problem's written lines must satisfy once its proof is known.
#[derive(Debug)]
pub(crate) struct ProofCheck {
    /// The proof.
    pub proof: Arc<Proof>,
    /// The error when no first move forces the goal.
    pub no_mate: Possible,
    /// The written lines.
    pub lines: Vec<LineCheck>,
}

impl ProofCheck {
    /// The errors, proving first if needed: no mate at all, then each line that starts with a
    /// move that does not force the goal, then each other line that does not end in mate.
    pub fn errors(&self) -> Vec<Diagnostic> {
        let mating = self.proof.first_moves();
        let mut errors = Vec::new();
        if mating.is_empty() {
            errors.push(self.no_mate.diagnostic());
        }
        let refused: Vec<bool> = self
            .lines
            .iter()
            .map(|l| l.first.as_ref().is_some_and(|mv| !mating.contains(mv)))
            .collect();
        for (line, _) in self.lines.iter().zip(&refused).filter(|(_, r)| **r) {
            errors.push(line.refused.diagnostic());
        }
        for (line, _) in self.lines.iter().zip(&refused).filter(|(_, r)| !**r) {
            errors.extend(line.unmated.as_ref().map(Possible::diagnostic));
        }
        errors
    }
}

/// The proofs a load left to do, with what each must show.
#[derive(Debug, Default)]
pub struct PendingProofs {
    pub(crate) checks: Vec<ProofCheck>,
}

impl PendingProofs {
    /// How many problems wait for their proof.
    pub fn len(&self) -> usize {
        self.checks.len()
    }

    /// Whether nothing waits.
    pub fn is_empty(&self) -> bool {
        self.checks.is_empty()
    }

    /// Proves everything now on `threads` threads of this process, calling `progress` with
    /// (done, total) after each problem; returns the errors found, sorted by place.
    pub fn prove_all(
        &self,
        threads: usize,
        progress: &(dyn Fn(usize, usize) + Sync),
    ) -> Vec<Diagnostic> {
        let next = AtomicUsize::new(0);
        let done = AtomicUsize::new(0);
        let errors = Mutex::new(Vec::new());
        let total = self.checks.len();
        std::thread::scope(|scope| {
            for _ in 0..threads.clamp(1, total.max(1)) {
                scope.spawn(|| loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(check) = self.checks.get(i) else {
                        return;
                    };
                    let found = check.errors();
                    errors
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .extend(found);
                    progress(done.fetch_add(1, Ordering::Relaxed) + 1, total);
                });
            }
        });
        let mut errors = errors.into_inner().unwrap_or_else(|e| e.into_inner());
        sort_by_place(&mut errors);
        errors
    }
}

/// Sorts errors by file, line and column (stable: errors at one place keep their order).
pub(crate) fn sort_by_place(errors: &mut [Diagnostic]) {
    errors.sort_by(|a, b| (&a.path, a.line, a.col).cmp(&(&b.path, b.line, b.col)));
}

/// How many cores this machine has (one when it cannot tell).
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// How many background proving threads a machine gets: one per core but one, at least one.
pub fn background_workers() -> usize {
    cores().saturating_sub(1).max(1)
}

type Finish = Box<dyn FnOnce(Vec<Diagnostic>) + Send>;

/// One load's proofs, run in the background: how far they are, and what to do with the errors
/// when all are done.
pub struct ProofRun {
    checks: Vec<ProofCheck>,
    done: AtomicUsize,
    errors: Mutex<Vec<Diagnostic>>,
    cancelled: AtomicBool,
    finish: Mutex<Option<Finish>>,
}

impl fmt::Debug for ProofRun {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ProofRun")
            .field("total", &self.total())
            .field("done", &self.done())
            .field("cancelled", &self.cancelled.load(Ordering::Relaxed))
            .finish()
    }
}

impl ProofRun {
    /// A run with nothing to prove (content made without proofs, or all done).
    pub fn none() -> Arc<ProofRun> {
        ProofRun::new(PendingProofs::default(), |_| {})
    }

    /// A run of `pending`, not started: `finish` gets the errors found (sorted by place) once
    /// every proof is done, unless the run was cancelled first.
    pub fn new(
        pending: PendingProofs,
        finish: impl FnOnce(Vec<Diagnostic>) + Send + 'static,
    ) -> Arc<ProofRun> {
        Arc::new(ProofRun {
            checks: pending.checks,
            done: AtomicUsize::new(0),
            errors: Mutex::new(Vec::new()),
            cancelled: AtomicBool::new(false),
            finish: Mutex::new(Some(Box::new(finish))),
        })
    }

    /// Hands the run to the background workers (or finishes it here if it is empty).
    pub fn start(self: &Arc<ProofRun>) {
        if self.checks.is_empty() {
            self.finished();
            return;
        }
        pool().push(self, self.checks.len());
    }

    /// How many problems the run proves.
    pub fn total(&self) -> usize {
        self.checks.len()
    }

    /// How many are done.
    pub fn done(&self) -> usize {
        self.done.load(Ordering::Acquire)
    }

    /// Whether every proof is done (or skipped, once cancelled).
    pub fn is_finished(&self) -> bool {
        self.done() == self.total()
    }

    /// Stops the run: the proofs not begun are skipped and the errors are not passed on
    /// (newer content superseded it).
    pub fn cancel(&self) {
        self.cancelled.store(true, Ordering::Relaxed);
    }

    /// Proves the `i`th problem (a worker's job).
    fn prove(&self, i: usize) {
        if !self.cancelled.load(Ordering::Relaxed) {
            if let Some(check) = self.checks.get(i) {
                let found = check.errors();
                self.errors
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .extend(found);
            }
        }
        if self.done.fetch_add(1, Ordering::AcqRel) + 1 == self.total() {
            self.finished();
        }
    }

    fn finished(&self) {
        let finish = self.finish.lock().unwrap_or_else(|e| e.into_inner()).take();
        if self.cancelled.load(Ordering::Relaxed) {
            return;
        }
        let mut errors =
            std::mem::take(&mut *self.errors.lock().unwrap_or_else(|e| e.into_inner()));
        sort_by_place(&mut errors);
        if let Some(finish) = finish {
            finish(errors);
        }
    }
}

/// The background workers of the process: [`background_workers`] threads at the lowest
/// priority, started on first use, taking the problems of every run in the order given.
struct Pool {
    queue: Mutex<VecDeque<(Arc<ProofRun>, usize)>>,
    ready: Condvar,
}

fn pool() -> &'static Pool {
    static POOL: OnceLock<&'static Pool> = OnceLock::new();
    POOL.get_or_init(|| {
        let pool: &'static Pool = Box::leak(Box::new(Pool {
            queue: Mutex::new(VecDeque::new()),
            ready: Condvar::new(),
        }));
        for n in 0..background_workers() {
            let spawned = std::thread::Builder::new()
                .name(format!("qiyuan-prove-{n}"))
                .spawn(move || {
                    lower_priority();
                    pool.work()
                });
            if let Err(e) = spawned {
                eprintln!("qiyuan: cannot start a proving thread: {e}");
            }
        }
        pool
    })
}

impl Pool {
    fn push(&self, run: &Arc<ProofRun>, count: usize) {
        let mut queue = self.queue.lock().unwrap_or_else(|e| e.into_inner());
        queue.extend((0..count).map(|i| (run.clone(), i)));
        self.ready.notify_all();
    }

    fn work(&self) -> ! {
        loop {
            let (run, i) = {
                let mut queue = self.queue.lock().unwrap_or_else(|e| e.into_inner());
                loop {
                    if let Some(job) = queue.pop_front() {
                        break job;
                    }
                    queue = self.ready.wait(queue).unwrap_or_else(|e| e.into_inner());
                }
            };
            run.prove(i);
        }
    }
}

/// Gives the calling thread the lowest CPU priority (Linux: nice 19 for this thread alone), so
/// that background work yields the cores to the requests.
pub fn lower_priority() {
    #[cfg(target_os = "linux")]
    // SAFETY: gettid and setpriority take plain integers and change only this thread's nice.
    unsafe {
        let tid = libc::syscall(libc::SYS_gettid);
        libc::setpriority(libc::PRIO_PROCESS, tid as libc::id_t, 19);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(position: &str) -> ProofKey {
        ProofKey {
            game: Game::Chess,
            position: position.into(),
            goal: "mate",
            depth: 2,
            version: 1,
        }
    }

    #[test]
    fn one_search_per_key() {
        let store = ProofStore::default();
        let a = store.proof(key("a"), || vec!["e2e4".into()]);
        let again = store.proof(key("a"), || vec!["never".into()]);
        assert_eq!(again.first_moves(), ["e2e4"]);
        assert_eq!(a.first_moves(), ["e2e4"]);
        assert_eq!(store.searches(), 1);
        let b = store.proof(key("b"), Vec::new);
        assert!(!b.is_done());
        assert!(b.first_moves().is_empty());
        assert_eq!(store.searches(), 2);
    }

    #[test]
    fn forgets_proofs_no_one_holds() {
        let store = ProofStore::default();
        let kept = store.proof(key("kept"), Vec::new);
        drop(store.proof(key("dropped"), Vec::new));
        store.forget_unused();
        assert_eq!(store.len(), 1);
        assert_eq!(store.proof(key("kept"), Vec::new).key(), kept.key());
    }

    /// An error on line `line` of a file of empty lines.
    fn error(line: usize, message: &str) -> Possible {
        Possible {
            file: Arc::new(("problems/chess/x.toml".into(), "\n".repeat(10))),
            offset: line - 1,
            message: message.into(),
        }
    }

    #[test]
    fn a_refused_line_is_not_also_called_unmated() {
        let store = ProofStore::default();
        let check = ProofCheck {
            proof: store.proof(key("c"), || vec!["a1a8".into()]),
            no_mate: error(1, "no mate"),
            lines: vec![
                LineCheck {
                    first: Some("b1b8".into()),
                    refused: error(2, "refused"),
                    unmated: Some(error(2, "unmated")),
                },
                LineCheck {
                    first: Some("a1a8".into()),
                    refused: error(3, "refused"),
                    unmated: Some(error(3, "unmated")),
                },
            ],
        };
        let messages: Vec<_> = check
            .errors()
            .into_iter()
            .map(|e| (e.line, e.message))
            .collect();
        assert_eq!(
            messages,
            [(2, "refused".to_string()), (3, "unmated".to_string())]
        );
    }

    #[test]
    fn a_run_reports_its_errors_once_all_are_done() {
        let store = ProofStore::default();
        let checks = (0..5)
            .map(|i| ProofCheck {
                proof: store.proof(key(&i.to_string()), Vec::new),
                no_mate: error(5 - i, "no mate"),
                lines: Vec::new(),
            })
            .collect();
        let (tx, rx) = std::sync::mpsc::channel();
        let run = ProofRun::new(PendingProofs { checks }, move |errors| {
            tx.send(errors).unwrap();
        });
        run.start();
        let errors = rx.recv().unwrap();
        assert!(run.is_finished());
        assert_eq!(
            errors.iter().map(|e| e.line).collect::<Vec<_>>(),
            [1, 2, 3, 4, 5]
        );
        assert_eq!(store.searches(), 5);
    }
}
