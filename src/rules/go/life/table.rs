//! The transposition table of the proof search: its entries, and the table the threads of
//! one proof attempt share (locked in shards, with the positions each thread is searching).

use super::super::search_board::KeyHasher;
use std::collections::hash_map::Entry as Slot;
use std::collections::HashMap;
use std::hash::BuildHasherDefault;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

#[derive(Clone, Copy, Debug)]
pub(super) struct Entry {
    pub(super) pn: u32,
    pub(super) dn: u32,
    /// Positions searched below this one (a measure of how hard it is to prove).
    pub(super) work: u32,
}

/// The transposition table: (pn, dn) for the prover by position key.
pub(super) type Table = HashMap<u64, Entry, BuildHasherDefault<KeyHasher>>;

/// How many pieces [`Shared`]'s table is locked in.
const SHARDS: usize = 64;
/// How many slots [`Shared::busy`] has.
const BUSY_SLOTS: usize = 1 << 16;

/// What the threads of one proof attempt share: the table, split in [`SHARDS`] pieces
/// locked one at a time (by bits of the key that neither the map's bucket nor its tag
/// uses); the positions all threads have counted; and the flag that stops them.
pub(super) struct Shared {
    shards: Vec<Mutex<Table>>,
    /// The positions the threads have reported (each reports every 1,024 or so).
    pub(super) nodes: AtomicU64,
    /// Set when one thread has settled the root or run out of budget: the others stop.
    pub(super) stop: AtomicBool,
    /// How many threads are searching below each position, by key (in [`BUSY_SLOTS`]
    /// slots, so positions may share one).
    busy: Vec<AtomicU8>,
}

impl Shared {
    /// A shared table that starts with `known`.
    pub(super) fn new(known: Table) -> Shared {
        let mut shards: Vec<Table> = (0..SHARDS).map(|_| Table::default()).collect();
        for (key, entry) in known {
            shards[Shared::shard_of(key)].insert(key, entry);
        }
        Shared {
            shards: shards.into_iter().map(Mutex::new).collect(),
            nodes: AtomicU64::new(0),
            stop: AtomicBool::new(false),
            busy: (0..BUSY_SLOTS).map(|_| AtomicU8::new(0)).collect(),
        }
    }

    /// How many threads are searching below the position `key` (or one sharing its slot).
    #[inline]
    pub(super) fn busy(&self, key: u64) -> u8 {
        self.busy[key as usize % BUSY_SLOTS].load(Ordering::Relaxed)
    }

    /// Notes that a thread starts (`true`) or ends (`false`) searching below `key`.
    #[inline]
    pub(super) fn mark(&self, key: u64, arrives: bool) {
        let slot = &self.busy[key as usize % BUSY_SLOTS];
        if arrives {
            slot.fetch_add(1, Ordering::Relaxed);
        } else {
            slot.fetch_sub(1, Ordering::Relaxed);
        }
    }

    fn shard_of(key: u64) -> usize {
        (key >> 40) as usize % SHARDS
    }

    fn shard(&self, key: u64) -> MutexGuard<'_, Table> {
        lock(&self.shards[Shared::shard_of(key)])
    }
}

/// Locks one shard of the table; a thread that panicked leaves it as it was (its entries
/// stay whole), so it is used on.
fn lock(shard: &Mutex<Table>) -> MutexGuard<'_, Table> {
    shard
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The table of one search: its own (one thread, no locks), or one shared with other
/// threads.
#[derive(Clone)]
pub(super) enum Memory {
    Own(Table),
    Shared(Arc<Shared>),
}

impl Memory {
    #[inline]
    pub(super) fn get(&self, key: u64) -> Option<Entry> {
        match self {
            Memory::Own(table) => table.get(&key).copied(),
            Memory::Shared(shared) => shared.shard(key).get(&key).copied(),
        }
    }

    /// Stores `entry`, except over a settled entry (a proof or disproof found, by another
    /// thread or by a simulation below, while the search of this position still held
    /// older values).
    #[inline]
    pub(super) fn insert(&mut self, key: u64, entry: Entry) {
        self.insert_with(key, entry, false);
    }

    /// [`Memory::insert`]; with `add`, the work already stored for `key` is added to
    /// `entry`'s (a position searched again: its work is the sum of its searches).
    #[inline]
    pub(super) fn insert_with(&mut self, key: u64, entry: Entry, add: bool) {
        match self {
            Memory::Own(table) => keep_settled(table, key, entry, add),
            Memory::Shared(shared) => keep_settled(&mut shared.shard(key), key, entry, add),
        }
    }

    /// The entries that `keep` selects (proofs or disproofs, to carry over to an attempt
    /// under another ko rule where they still hold).
    pub(super) fn entries_where(&self, keep: impl Fn(&Entry) -> bool) -> Table {
        let mut out = Table::default();
        let mut add = |table: &Table| {
            out.extend(table.iter().filter(|(_, e)| keep(e)).map(|(k, e)| (*k, *e)));
        };
        match self {
            Memory::Own(table) => add(table),
            Memory::Shared(shared) => shared.shards.iter().for_each(|shard| add(&lock(shard))),
        }
        out
    }

    /// What the threads share, if there are others.
    #[inline]
    pub(super) fn shared(&self) -> Option<&Shared> {
        match self {
            Memory::Own(_) => None,
            Memory::Shared(shared) => Some(shared),
        }
    }
}

/// Stores `entry` in `table`, except an unsettled entry over a settled one; with `add`,
/// the stored entry's work is added to `entry`'s first. One probe of the table.
fn keep_settled(table: &mut Table, key: u64, mut entry: Entry, add: bool) {
    match table.entry(key) {
        Slot::Occupied(mut slot) => {
            let old = slot.get_mut();
            if add {
                entry.work = entry.work.saturating_add(old.work);
            }
            if (old.pn == 0 || old.dn == 0) && entry.pn != 0 && entry.dn != 0 {
                old.work = old.work.max(entry.work);
            } else {
                *old = entry;
            }
        }
        Slot::Vacant(slot) => {
            slot.insert(entry);
        }
    }
}
