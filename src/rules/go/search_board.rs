//! A make/undo Go board for search and playouts: incremental chains with liberty sets,
//! captures, suicide refusal, simple ko and positional superko by incremental Zobrist
//! hashing, and undo of every move. It follows the same rules as [`Position::play_move`] (and is
//! tested move for move against it), but changes one board in place instead of copying it.
//!
//! ```
//! use qiyuan::rules::go::{Board, Color, Move, SearchBoard};
//! //   . X O .
//! //   X O . O      Black C4 takes the ko; White may not take back at once.
//! //   . X O .
//! let board = Board::from_text(5, "
//!     . X O . .
//!     X O . O .
//!     . X O . .
//!     . . . . .
//!     . . . . .").unwrap();
//! let mut b = SearchBoard::new(&board, Color::Black);
//! let c4 = board.point("C4").unwrap();
//! let b4 = board.point("B4").unwrap();
//! b.play_move(Move::Play(c4)).unwrap();
//! assert_eq!(b.captured(), vec![b4]);
//! assert!(!b.is_legal(Move::Play(b4)));
//! b.undo();
//! assert_eq!(b.get(b4), Some(Color::White));
//! assert_eq!(b.liberty_count(b4), Some(1));
//! ```

use super::board::{Board, Color};
use super::point::{Point, MAX_SIZE};
use super::position::{zobrist, Illegal, Move, Position};
use std::collections::HashSet;
use std::hash::BuildHasherDefault;

/// Words of a point set: enough bits for the padded 27×27 grid of a 25×25 board.
const WORDS: usize = 12;

/// What a cell of the padded grid holds.
const EMPTY: u8 = 0;
const BLACK: u8 = 1;
const WHITE: u8 = 2;
const EDGE: u8 = 3;

fn cell_of(color: Color) -> u8 {
    match color {
        Color::Black => BLACK,
        Color::White => WHITE,
    }
}

fn color_of(cell: u8) -> Option<Color> {
    match cell {
        BLACK => Some(Color::Black),
        WHITE => Some(Color::White),
        _ => None,
    }
}

/// A set of points of the padded grid, one bit each.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct PointSet([u64; WORDS]);

impl PointSet {
    pub(crate) const EMPTY: PointSet = PointSet([0; WORDS]);

    #[inline]
    pub(crate) fn insert(&mut self, v: usize) -> bool {
        let (w, b) = (v >> 6, 1u64 << (v & 63));
        let fresh = self.0[w] & b == 0;
        self.0[w] |= b;
        fresh
    }

    #[inline]
    pub(crate) fn remove(&mut self, v: usize) -> bool {
        let (w, b) = (v >> 6, 1u64 << (v & 63));
        let had = self.0[w] & b != 0;
        self.0[w] &= !b;
        had
    }

    #[inline]
    pub(crate) fn contains(&self, v: usize) -> bool {
        self.0[v >> 6] & (1u64 << (v & 63)) != 0
    }

    /// Whether every point of `self` is in `other`.
    pub(crate) fn is_subset(&self, other: &PointSet) -> bool {
        self.0.iter().zip(other.0.iter()).all(|(a, b)| a & !b == 0)
    }

    pub(crate) fn union_with(&mut self, other: &PointSet) {
        for (a, b) in self.0.iter_mut().zip(other.0.iter()) {
            *a |= b;
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Whether the set holds no point.
    pub(crate) fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// The points in increasing grid order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().enumerate().flat_map(|(i, &w)| {
            let mut w = w;
            std::iter::from_fn(move || {
                (w != 0).then(|| {
                    let b = w.trailing_zeros() as usize;
                    w &= w - 1;
                    i * 64 + b
                })
            })
        })
    }
}

/// One chain, stored at its representative stone.
#[derive(Clone, Copy, Debug)]
struct Chain {
    libs: PointSet,
    lib_count: u16,
    size: u16,
    /// XOR of the Zobrist keys of its stones.
    hash: u64,
}

impl Chain {
    const NONE: Chain = Chain {
        libs: PointSet::EMPTY,
        lib_count: 0,
        size: 0,
        hash: 0,
    };

    #[inline]
    fn add_lib(&mut self, v: usize) {
        if self.libs.insert(v) {
            self.lib_count += 1;
        }
    }

    #[inline]
    fn remove_lib(&mut self, v: usize) {
        if self.libs.remove(v) {
            self.lib_count -= 1;
        }
    }
}

pub(crate) use crate::rules::key_map::KeyHasher;

type HashHistory = HashSet<u64, BuildHasherDefault<KeyHasher>>;

/// What `undo` needs to take one move back.
#[derive(Clone, Copy, Debug)]
struct Record {
    /// The grid index of the stone, 0 for a pass.
    vertex: u16,
    color: Color,
    ko: u16,
    hash: u64,
    passes: u8,
    captured_from: u32,
    saves_from: u32,
    relabels_from: u32,
    splices_from: u32,
    /// Whether the move's board was new to the history (a pass adds none).
    pushed: bool,
    /// The chain links the stone's point held before (those of a stone captured earlier,
    /// which an undo of that capture puts back).
    old_links: (u16, u16),
}

/// A Go board changed in place by [`play_move`](SearchBoard::play_move) and restored by
/// [`undo`](SearchBoard::undo), with the rules of [`Position::play_move`]: captures first, then
/// suicide is refused; the immediate ko recapture is refused; no move may recreate a
/// whole-board position seen before (positional superko).
///
/// Chains are kept as circular lists of stones with a representative; each chain keeps
/// its liberty set, liberty count, size and Zobrist hash, so captures, ataris and the hash
/// after a move are known without scanning the board.
#[derive(Clone)]
pub struct SearchBoard {
    size: u8,
    stride: usize,
    cells: Vec<u8>,
    /// The representative stone of each stone's chain.
    chain_of: Vec<u16>,
    /// The next stone of the same chain (a circular list).
    next: Vec<u16>,
    chains: Vec<Chain>,
    /// Zobrist keys: `keys[color][vertex]`, the same keys as [`Position`].
    keys: [Vec<u64>; 2],
    empties: Vec<u16>,
    empty_slot: Vec<u16>,
    to_play: Color,
    ko: u16,
    hash: u64,
    passes: u8,
    prisoners: [u32; 2],
    history: HashHistory,
    records: Vec<Record>,
    captured: Vec<u16>,
    saves: Vec<(u16, Chain)>,
    /// The chains (by representative) the move being played has saved: the first save
    /// of a chain in a move is the one its undo needs.
    saved: PointSet,
    relabels: Vec<(u16, u16)>,
    splices: Vec<(u16, u16)>,
}

impl SearchBoard {
    /// A search board holding `board`, `to_play` to move, no ko and no earlier positions.
    pub fn new(board: &Board, to_play: Color) -> SearchBoard {
        let size = board.size();
        let stride = size as usize + 2;
        let len = stride * stride;
        let mut keys = [vec![0u64; len], vec![0u64; len]];
        let mut cells = vec![EDGE; len];
        for p in board.points() {
            let v = (p.row as usize + 1) * stride + p.col as usize + 1;
            cells[v] = EMPTY;
            keys[0][v] = zobrist(size, p, Color::Black);
            keys[1][v] = zobrist(size, p, Color::White);
        }
        let mut b = SearchBoard {
            size,
            stride,
            cells,
            chain_of: vec![0; len],
            next: vec![0; len],
            chains: vec![Chain::NONE; len],
            keys,
            empties: Vec::with_capacity(len),
            empty_slot: vec![u16::MAX; len],
            to_play,
            ko: 0,
            hash: 0,
            passes: 0,
            prisoners: [0, 0],
            history: HashHistory::default(),
            records: Vec::new(),
            captured: Vec::new(),
            saves: Vec::new(),
            saved: PointSet::EMPTY,
            relabels: Vec::new(),
            splices: Vec::new(),
        };
        for v in 0..len {
            if b.cells[v] == EMPTY {
                b.add_empty(v);
            }
        }
        for p in board.points() {
            if let Some(c) = board.get(p) {
                b.put_stone(b.vertex(p), c);
            }
        }
        b.history.insert(b.hash);
        b
    }

    /// A search board in the state of `position`: its stones, side to play, ko point,
    /// passes, prisoners and every whole-board position it has seen (for superko).
    pub fn from_position(position: &Position) -> SearchBoard {
        let mut b = SearchBoard::new(position.board(), position.turn());
        b.ko = position.ko_point().map_or(0, |p| b.vertex(p) as u16);
        b.passes = position.consecutive_passes();
        b.prisoners = [
            position.prisoners(Color::Black),
            position.prisoners(Color::White),
        ];
        b.history.extend(position.seen_boards().iter().copied());
        b
    }

    /// Puts a stone without any rule (set-up only): merges chains, takes liberties, and
    /// captures nothing.
    fn put_stone(&mut self, v: usize, color: Color) {
        let c = cell_of(color);
        self.cells[v] = c;
        self.remove_empty(v);
        self.hash ^= self.keys[color.index()][v];
        self.chain_of[v] = v as u16;
        self.next[v] = v as u16;
        let mut chain = Chain {
            size: 1,
            hash: self.keys[color.index()][v],
            ..Chain::NONE
        };
        for n in self.neighbours(v) {
            if self.cells[n] == EMPTY {
                chain.add_lib(n);
            }
        }
        self.chains[v] = chain;
        for n in self.neighbours(v) {
            let cn = self.cells[n];
            if cn == BLACK || cn == WHITE {
                let r = self.chain_of[n] as usize;
                self.chains[r].remove_lib(v);
                if cn == c && r != self.chain_of[v] as usize {
                    let mine = self.chain_of[v] as usize;
                    self.merge(mine, r);
                }
            }
        }
    }

    // -----------------------------------------------------------------------------------
    // Coordinates
    // -----------------------------------------------------------------------------------

    /// The board size.
    pub fn size(&self) -> u8 {
        self.size
    }

    #[inline]
    pub(crate) fn vertex(&self, p: Point) -> usize {
        (p.row as usize + 1) * self.stride + p.col as usize + 1
    }

    #[inline]
    pub(crate) fn point(&self, v: usize) -> Point {
        Point::new((v % self.stride - 1) as u8, (v / self.stride - 1) as u8)
    }

    /// Whether `p` lies on this board.
    pub fn contains(&self, p: Point) -> bool {
        p.col < self.size && p.row < self.size
    }

    /// The number of grid cells (with the one-cell frame around the board).
    pub(crate) fn grid_len(&self) -> usize {
        self.cells.len()
    }

    #[inline]
    pub(crate) fn neighbours(&self, v: usize) -> [usize; 4] {
        [v - self.stride, v - 1, v + 1, v + self.stride]
    }

    #[inline]
    pub(crate) fn cell(&self, v: usize) -> Option<Color> {
        color_of(self.cells[v])
    }

    #[inline]
    pub(crate) fn is_empty_vertex(&self, v: usize) -> bool {
        self.cells[v] == EMPTY
    }

    #[inline]
    pub(crate) fn on_board(&self, v: usize) -> bool {
        self.cells[v] != EDGE
    }

    // -----------------------------------------------------------------------------------
    // Reading the board
    // -----------------------------------------------------------------------------------

    /// The stone on `p`, if any (`None` too for a point off the board).
    pub fn get(&self, p: Point) -> Option<Color> {
        if !self.contains(p) {
            return None;
        }
        self.cell(self.vertex(p))
    }

    /// The board as a [`Board`].
    pub fn board(&self) -> Board {
        let mut board = Board::new(self.size).expect("a search board has a valid size");
        for p in board.points().collect::<Vec<_>>() {
            board.set(p, self.get(p));
        }
        board
    }

    /// The side to play.
    pub fn turn(&self) -> Color {
        self.to_play
    }

    /// The Zobrist hash of the stones (the same as [`Position`] uses for superko).
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The point where the side to play may not retake a ko at once, if any.
    pub fn ko_point(&self) -> Option<Point> {
        (self.ko != 0).then(|| self.point(self.ko as usize))
    }

    /// The grid index of [`SearchBoard::ko_point`] (0 for none).
    pub(crate) fn ko_vertex(&self) -> usize {
        self.ko as usize
    }

    /// Whether the whole-board position `hash` is in the history (a stone that brings it
    /// back is refused by superko).
    pub(crate) fn seen(&self, hash: u64) -> bool {
        self.history.contains(&hash)
    }

    /// How many passes were played in a row just now.
    pub fn consecutive_passes(&self) -> u8 {
        self.passes
    }

    /// How many stones `color` has captured.
    pub fn prisoners(&self, color: Color) -> u32 {
        self.prisoners[color.index()]
    }

    /// How many moves can be taken back with [`undo`](SearchBoard::undo).
    pub fn moves_played(&self) -> usize {
        self.records.len()
    }

    /// The last move played (and not taken back) and who played it.
    pub fn last_move(&self) -> Option<(Color, Move)> {
        self.records.last().map(|r| {
            let mv = if r.vertex == 0 {
                Move::Pass
            } else {
                Move::Play(self.point(r.vertex as usize))
            };
            (r.color, mv)
        })
    }

    /// The stones the last move captured, sorted.
    pub fn captured(&self) -> Vec<Point> {
        let from = self.records.last().map_or(0, |r| r.captured_from as usize);
        let mut out: Vec<Point> = self.captured[from..]
            .iter()
            .map(|&v| self.point(v as usize))
            .collect();
        out.sort();
        out
    }

    /// The number of liberties of the chain through `p`; `None` if `p` is empty.
    pub fn liberty_count(&self, p: Point) -> Option<usize> {
        let v = self.vertex(p);
        self.get(p)
            .map(|_| self.chains[self.chain_of[v] as usize].lib_count as usize)
    }

    /// The liberties of the chain through `p`, sorted; empty if `p` is empty.
    pub fn liberties(&self, p: Point) -> Vec<Point> {
        if self.get(p).is_none() {
            return Vec::new();
        }
        let mut out: Vec<Point> = self
            .chain_libs(self.vertex(p))
            .iter()
            .map(|v| self.point(v))
            .collect();
        out.sort();
        out
    }

    /// The stones of the chain through `p`, sorted; empty if `p` is empty.
    pub fn chain(&self, p: Point) -> Vec<Point> {
        if self.get(p).is_none() {
            return Vec::new();
        }
        let mut out: Vec<Point> = self
            .chain_stones(self.vertex(p))
            .map(|v| self.point(v))
            .collect();
        out.sort();
        out
    }

    /// The representative stone of the chain through stone `v`.
    #[inline]
    pub(crate) fn chain_id(&self, v: usize) -> usize {
        self.chain_of[v] as usize
    }

    #[inline]
    pub(crate) fn chain_libs(&self, v: usize) -> &PointSet {
        &self.chains[self.chain_of[v] as usize].libs
    }

    #[inline]
    pub(crate) fn chain_lib_count(&self, v: usize) -> usize {
        self.chains[self.chain_of[v] as usize].lib_count as usize
    }

    /// The stone that `color`'s stone on the empty `v` would take in a ko: the one stone
    /// captured, after which the new stone stands alone with that point as its only
    /// liberty, so that the opponent could take straight back (the shape whose retake the
    /// ko rule refuses). `None` for any other move.
    ///
    /// ```text
    ///   . O X .    White C2 takes Black's B2 (and only it); C2 is then alone with B2 as
    ///   O X . X    its one liberty: a ko capture. White A3 takes nothing.
    ///   . O X .
    /// ```
    pub(crate) fn ko_capture(&self, v: usize, color: Color) -> Option<usize> {
        let foe = cell_of(color.opponent());
        let mut taken = None;
        for n in self.neighbours(v) {
            match self.cells[n] {
                EDGE => continue,
                c if c != foe => return None,
                _ => {}
            }
            let r = self.chain_of[n] as usize;
            if self.chains[r].lib_count == 1 {
                if taken.is_some_and(|t| t != r) {
                    return None;
                }
                taken = Some(r);
            }
        }
        taken.filter(|&r| self.chains[r].size == 1)
    }

    /// The stones of the chain through stone `v`, starting with `v`.
    pub(crate) fn chain_stones(&self, v: usize) -> impl Iterator<Item = usize> + '_ {
        let mut at = v;
        let mut done = false;
        std::iter::from_fn(move || {
            if done {
                return None;
            }
            let here = at;
            at = self.next[at] as usize;
            done = at == v;
            Some(here)
        })
    }

    /// Sets the ko point (set-up only).
    pub(crate) fn set_ko(&mut self, ko: Option<Point>) {
        self.ko = ko.map_or(0, |p| self.vertex(p) as u16);
    }

    /// Adds whole-board hashes to the positions seen before (set-up only).
    pub(crate) fn add_history(&mut self, hashes: impl IntoIterator<Item = u64>) {
        self.history.extend(hashes);
    }

    // -----------------------------------------------------------------------------------
    // The rules of a move
    // -----------------------------------------------------------------------------------

    /// Whether `mv` is legal for the side to play.
    pub fn is_legal(&self, mv: Move) -> bool {
        self.check(mv).is_ok()
    }

    /// Why `mv` would be refused for the side to play, with the reasons and their order of
    /// [`Position::play_move`] (off the board, occupied, ko, suicide, superko).
    pub fn check(&self, mv: Move) -> Result<(), Illegal> {
        match mv {
            Move::Pass => Ok(()),
            Move::Play(p) => {
                if !self.contains(p) {
                    return Err(Illegal::OffBoard {
                        point: p,
                        size: self.size,
                    });
                }
                let v = self.vertex(p);
                if let Some(stone) = self.cell(v) {
                    return Err(Illegal::Occupied {
                        point: p,
                        size: self.size,
                        stone,
                    });
                }
                self.check_vertex(v, self.to_play)
                    .map_err(|why| why.at(p, self.size))
            }
        }
    }

    /// The rules of a stone of `color` on the empty point `v` (with `color`'s ko point only
    /// if it is `color`'s turn).
    #[inline]
    pub(crate) fn check_vertex(&self, v: usize, color: Color) -> Result<(), Refusal> {
        if color == self.to_play && self.ko as usize == v {
            return Err(Refusal::Ko);
        }
        match self.hash_after(v, color) {
            None => Err(Refusal::Suicide),
            Some(h) if self.history.contains(&h) => Err(Refusal::Superko),
            Some(_) => Ok(()),
        }
    }

    /// The board hash after `color` plays on the empty point `v`, or `None` for suicide.
    #[inline]
    pub(crate) fn hash_after(&self, v: usize, color: Color) -> Option<u64> {
        let own = cell_of(color);
        let mut alive = false;
        let mut hash = self.hash ^ self.keys[color.index()][v];
        let mut taken = [usize::MAX; 4];
        for (i, n) in self.neighbours(v).into_iter().enumerate() {
            let c = self.cells[n];
            if c == EMPTY {
                alive = true;
            } else if c == EDGE {
            } else {
                let r = self.chain_of[n] as usize;
                let libs = self.chains[r].lib_count;
                if c == own {
                    alive |= libs > 1;
                } else if libs == 1 && !taken[..i].contains(&r) {
                    taken[i] = r;
                    hash ^= self.chains[r].hash;
                    alive = true;
                }
            }
        }
        alive.then_some(hash)
    }

    /// Plays `mv` for the side to play; a refused move changes nothing.
    pub fn play_move(&mut self, mv: Move) -> Result<(), Illegal> {
        self.check(mv)?;
        match mv {
            Move::Pass => self.pass(),
            Move::Play(p) => {
                let v = self.vertex(p);
                self.play_legal(v);
            }
        }
        Ok(())
    }

    /// Passes.
    pub fn pass(&mut self) {
        self.records.push(Record {
            vertex: 0,
            color: self.to_play,
            ko: self.ko,
            hash: self.hash,
            passes: self.passes,
            captured_from: self.captured.len() as u32,
            saves_from: self.saves.len() as u32,
            relabels_from: self.relabels.len() as u32,
            splices_from: self.splices.len() as u32,
            pushed: false,
            old_links: (0, 0),
        });
        self.ko = 0;
        self.passes += 1;
        self.to_play = self.to_play.opponent();
    }

    /// Whether the last move was a stone that brought back a whole-board position of the
    /// history (only a move [`check_vertex`] refuses can: a search's ko master plays them).
    pub(crate) fn repeated(&self) -> bool {
        self.records
            .last()
            .is_some_and(|r| r.vertex != 0 && !r.pushed)
    }

    /// Plays a stone on `v`, which must be legal for the side to play ([`check_vertex`]).
    pub(crate) fn play_legal(&mut self, v: usize) {
        let color = self.to_play;
        let own = cell_of(color);
        let foe = cell_of(color.opponent());
        let record = Record {
            vertex: v as u16,
            color,
            ko: self.ko,
            hash: self.hash,
            passes: self.passes,
            captured_from: self.captured.len() as u32,
            saves_from: self.saves.len() as u32,
            relabels_from: self.relabels.len() as u32,
            splices_from: self.splices.len() as u32,
            pushed: true,
            old_links: (self.chain_of[v], self.next[v]),
        };
        self.cells[v] = own;
        self.remove_empty(v);
        // The new stone's chain entry needs no save: an empty point's is never read.
        self.saved = PointSet::EMPTY;
        self.saved.insert(v);
        let key = self.keys[color.index()][v];
        self.hash ^= key;
        self.chain_of[v] = v as u16;
        self.next[v] = v as u16;
        let mut chain = Chain {
            size: 1,
            hash: key,
            ..Chain::NONE
        };
        let neighbours = self.neighbours(v);
        for &n in &neighbours {
            if self.cells[n] == EMPTY {
                chain.add_lib(n);
            }
        }
        self.chains[v] = chain;
        // Take the liberty from every neighbouring chain once; capture the opponent's
        // chains left without liberties.
        let mut seen = [usize::MAX; 4];
        let mut captured_any = 0usize;
        for (i, &n) in neighbours.iter().enumerate() {
            let c = self.cells[n];
            if c != own && c != foe {
                continue;
            }
            let r = self.chain_of[n] as usize;
            if seen[..i].contains(&r) {
                continue;
            }
            seen[i] = r;
            self.save(r);
            self.chains[r].remove_lib(v);
            if c == foe && self.chains[r].lib_count == 0 {
                captured_any += self.capture(r, color);
            }
        }
        // Join the mover's neighbouring chains with the new stone.
        for &n in &neighbours {
            if self.cells[n] == own {
                let a = self.chain_of[v] as usize;
                let b = self.chain_of[n] as usize;
                if a != b {
                    self.save(a);
                    self.save(b);
                    self.merge(a, b);
                }
            }
        }
        self.prisoners[color.index()] += captured_any as u32;
        self.ko = 0;
        if captured_any == 1 {
            let r = self.chain_of[v] as usize;
            if self.chains[r].size == 1 && self.chains[r].lib_count == 1 {
                self.ko = self.captured[self.captured.len() - 1];
            }
        }
        self.passes = 0;
        self.to_play = color.opponent();
        // A forced repetition (a search letting one side ignore superko) is not added twice,
        // so that its undo leaves the earlier occurrence in the history.
        let pushed = self.history.insert(self.hash);
        self.records.push(Record { pushed, ..record });
    }

    /// Removes the chain at representative `r`, captured by `by`; returns its size.
    fn capture(&mut self, r: usize, by: Color) -> usize {
        let own = cell_of(by);
        self.hash ^= self.chains[r].hash;
        let mut at = r;
        let mut count = 0;
        loop {
            self.cells[at] = EMPTY;
            self.add_empty(at);
            self.captured.push(at as u16);
            count += 1;
            for n in self.neighbours(at) {
                if self.cells[n] == own {
                    let nr = self.chain_of[n] as usize;
                    self.save(nr);
                    self.chains[nr].add_lib(at);
                }
            }
            at = self.next[at] as usize;
            if at == r {
                break;
            }
        }
        count
    }

    /// Joins chains `a` and `b` (both of one colour, each at its representative): the
    /// smaller is relabelled, the lists are spliced.
    fn merge(&mut self, a: usize, b: usize) {
        let (big, small) = if self.chains[a].size >= self.chains[b].size {
            (a, b)
        } else {
            (b, a)
        };
        let mut at = small;
        loop {
            self.relabels.push((at as u16, small as u16));
            self.chain_of[at] = big as u16;
            at = self.next[at] as usize;
            if at == small {
                break;
            }
        }
        self.next.swap(big, small);
        self.splices.push((big as u16, small as u16));
        let s = self.chains[small];
        let g = &mut self.chains[big];
        g.size += s.size;
        g.hash ^= s.hash;
        g.libs.union_with(&s.libs);
        g.lib_count = g.libs.len() as u16;
    }

    /// Saves the chain at representative `r` for the undo of the move being played,
    /// once a move (the undo restores the saves last to first, so the first one counts).
    #[inline]
    fn save(&mut self, r: usize) {
        if self.saved.insert(r) {
            self.saves.push((r as u16, self.chains[r]));
        }
    }

    #[inline]
    fn add_empty(&mut self, v: usize) {
        self.empty_slot[v] = self.empties.len() as u16;
        self.empties.push(v as u16);
    }

    #[inline]
    fn remove_empty(&mut self, v: usize) {
        let slot = self.empty_slot[v] as usize;
        let last = self.empties.pop().expect("the point was empty");
        if last as usize != v {
            self.empties[slot] = last;
            self.empty_slot[last as usize] = slot as u16;
        }
        self.empty_slot[v] = u16::MAX;
    }

    /// Brings this board in step with `other`, a board that started as this one did: the
    /// moves after the two boards' common line are taken back, and `other`'s played.
    /// Cheaper than a copy where the two lines share most of their moves.
    pub(crate) fn follow(&mut self, other: &SearchBoard) {
        let common = self
            .records
            .iter()
            .zip(&other.records)
            .take_while(|(a, b)| a.vertex == b.vertex && a.color == b.color)
            .count();
        while self.records.len() > common {
            self.undo();
        }
        for r in &other.records[common..] {
            if r.vertex == 0 {
                self.pass();
            } else {
                self.play_legal(r.vertex as usize);
            }
        }
        debug_assert_eq!(self.hash, other.hash, "the same line, the same board");
    }

    /// Takes back the last move; `false` if there is none.
    pub fn undo(&mut self) -> bool {
        let Some(r) = self.records.pop() else {
            return false;
        };
        if r.pushed {
            self.history.remove(&self.hash);
        }
        while self.splices.len() > r.splices_from as usize {
            let (a, b) = self.splices.pop().expect("a splice");
            self.next.swap(a as usize, b as usize);
        }
        while self.relabels.len() > r.relabels_from as usize {
            let (s, old) = self.relabels.pop().expect("a relabel");
            self.chain_of[s as usize] = old;
        }
        let victim = cell_of(r.color.opponent());
        let taken = self.captured.len() - r.captured_from as usize;
        while self.captured.len() > r.captured_from as usize {
            let s = self.captured.pop().expect("a captured stone") as usize;
            self.remove_empty(s);
            self.cells[s] = victim;
        }
        while self.saves.len() > r.saves_from as usize {
            let (c, chain) = self.saves.pop().expect("a saved chain");
            self.chains[c as usize] = chain;
        }
        if r.vertex != 0 {
            let v = r.vertex as usize;
            (self.chain_of[v], self.next[v]) = r.old_links;
            self.cells[v] = EMPTY;
            self.add_empty(v);
            self.prisoners[r.color.index()] -= taken as u32;
        }
        self.ko = r.ko;
        self.hash = r.hash;
        self.passes = r.passes;
        self.to_play = r.color;
        true
    }

    // -----------------------------------------------------------------------------------
    // Playouts
    // -----------------------------------------------------------------------------------

    /// Whether `v` is a point whose every neighbour is a stone of `color` or the edge: a
    /// single-point eye that random play leaves alone.
    #[inline]
    pub(crate) fn is_own_eye(&self, v: usize, color: Color) -> bool {
        let own = cell_of(color);
        self.neighbours(v)
            .into_iter()
            .all(|n| self.cells[n] == own || self.cells[n] == EDGE)
    }

    /// A random legal move for the side to play that does not fill one of its own
    /// single-point eyes (uniform among them), or a pass if there is none.
    pub fn random_move(&self, rng: &mut SplitMix64) -> Move {
        let n = self.empties.len();
        if n == 0 {
            return Move::Pass;
        }
        let start = rng.below(n);
        let color = self.to_play;
        for i in 0..n {
            let v = self.empties[(start + i) % n] as usize;
            if !self.is_own_eye(v, color) && self.check_vertex(v, color).is_ok() {
                return Move::Play(self.point(v));
            }
        }
        Move::Pass
    }

    /// Plays random moves ([`random_move`](SearchBoard::random_move)) until two passes in a
    /// row or `max_moves` moves; returns how many moves (passes included) were played. They
    /// stay on the board: take them back with [`undo`](SearchBoard::undo).
    pub fn random_playout(&mut self, rng: &mut SplitMix64, max_moves: usize) -> usize {
        let mut played = 0;
        while played < max_moves && self.passes < 2 {
            let n = self.empties.len();
            let color = self.to_play;
            let mut chosen = None;
            if n > 0 {
                let start = rng.below(n);
                for i in 0..n {
                    let v = self.empties[(start + i) % n] as usize;
                    if !self.is_own_eye(v, color) && self.check_vertex(v, color).is_ok() {
                        chosen = Some(v);
                        break;
                    }
                }
            }
            match chosen {
                Some(v) => self.play_legal(v),
                None => self.pass(),
            }
            played += 1;
        }
        played
    }

    // -----------------------------------------------------------------------------------
    // Benson's unconditional life
    // -----------------------------------------------------------------------------------

    /// The stones of `color` that are unconditionally alive by Benson's algorithm: alive
    /// even if `color` always passes, whatever the opponent plays.
    ///
    /// ```
    /// use qiyuan::rules::go::{Board, Color, SearchBoard};
    /// // Two separate eyes in the corner: alive. The lone stone is not.
    /// let board = Board::from_text(5, "
    ///     . X . X .
    ///     X X X X X
    ///     . . . . .
    ///     . . . X .
    ///     . . . . .").unwrap();
    /// let b = SearchBoard::new(&board, Color::White);
    /// let alive = b.unconditionally_alive(Color::Black);
    /// assert_eq!(alive.len(), 7);
    /// assert!(!alive.contains(&board.point("D2").unwrap()));
    /// ```
    pub fn unconditionally_alive(&self, color: Color) -> Vec<Point> {
        let alive = self.benson(color, None);
        let mut out: Vec<Point> = alive.iter().map(|v| self.point(v)).collect();
        out.sort();
        out
    }

    /// Benson's algorithm: the set of `color`'s stones that are unconditionally alive.
    /// With an `area`, only points inside it are looked at, and a region reaching outside
    /// it counts as vital to no chain (right when the outside is the opponent's wall).
    pub(crate) fn benson(&self, color: Color, area: Option<&PointSet>) -> PointSet {
        let own = cell_of(color);
        let mut chains = PointSet::EMPTY;
        for v in 0..self.cells.len() {
            if self.cells[v] == own && area.is_none_or(|a| a.contains(v)) {
                chains.insert(self.chain_of[v] as usize);
            }
        }
        self.benson_from(color, area, chains)
    }

    /// Benson's algorithm for the chains of `color` whose stones are `of` (any of their
    /// stones) and every chain their life depends on: the alive stones among those
    /// chains. The answer for `of` is [`SearchBoard::benson`]'s, found without walking
    /// the regions of chains it does not depend on.
    pub(crate) fn benson_of(
        &self,
        color: Color,
        area: Option<&PointSet>,
        of: impl IntoIterator<Item = usize>,
    ) -> PointSet {
        let mut chains = PointSet::EMPTY;
        for v in of {
            // A chain with fewer than two liberties has no two vital regions.
            if self.cells[v] == cell_of(color) && self.chain_lib_count(v) >= 2 {
                chains.insert(self.chain_of[v] as usize);
            }
        }
        self.benson_from(color, area, chains)
    }

    /// Benson's algorithm over the chains `from` (by representative) and the chains next
    /// to their vital regions, until no new chain is met.
    fn benson_from(&self, color: Color, area: Option<&PointSet>, from: PointSet) -> PointSet {
        let own = cell_of(color);
        let inside = |v: usize| area.is_none_or(|a| a.contains(v));
        if from.is_empty() {
            return PointSet::EMPTY;
        }
        // Regions: connected sets of points that are not `color`'s stones. Every region
        // vital to a chain holds one of its liberties, so walking from the liberties of
        // the chains finds them all; only the ones vital to some chain are kept.
        struct Region {
            /// The chains next to the region.
            chains: PointSet,
            /// The chains to which the region is vital.
            vital: PointSet,
        }
        let mut regions: Vec<Region> = Vec::new();
        let mut seen = PointSet::EMPTY;
        let mut stack = [0u16; WORDS * 64];
        // An empty point next to none of `color`'s stones is no chain's liberty: its region
        // is vital to no chain.
        let lonely = |q: usize| {
            self.cells[q] == EMPTY && self.neighbours(q).iter().all(|&n| self.cells[n] != own)
        };
        let mut chains = from;
        let mut queue: Vec<usize> = from.iter().collect();
        while let Some(c) = queue.pop() {
            for v in self.chains[c].libs.iter() {
                if seen.contains(v) || !inside(v) {
                    continue;
                }
                // The region is walked until it proves vital to no chain (it reaches
                // outside the area, holds a lonely point, or meets a region given up on:
                // a region walked to the end is never met again). The points walked stay
                // seen, so a given-up region costs about one walk in all.
                let mut hopeless = lonely(v);
                let mut members = PointSet::EMPTY;
                let mut empties = PointSet::EMPTY;
                let mut next_to = PointSet::EMPTY;
                seen.insert(v);
                members.insert(v);
                stack[0] = v as u16;
                let mut top = if hopeless { 0 } else { 1 };
                'walk: while top > 0 {
                    top -= 1;
                    let q = stack[top] as usize;
                    if self.cells[q] == EMPTY {
                        empties.insert(q);
                    }
                    for n in self.neighbours(q) {
                        let cn = self.cells[n];
                        if cn == EDGE {
                            continue;
                        }
                        if !inside(n) {
                            hopeless = true;
                            break 'walk;
                        }
                        if cn == own {
                            next_to.insert(self.chain_of[n] as usize);
                            continue;
                        }
                        if (seen.contains(n) && !members.contains(n)) || lonely(n) {
                            seen.insert(n);
                            hopeless = true;
                            break 'walk;
                        }
                        if seen.insert(n) {
                            members.insert(n);
                            stack[top] = n as u16;
                            top += 1;
                        }
                    }
                }
                if hopeless {
                    continue;
                }
                let mut vital = PointSet::EMPTY;
                for r in next_to.iter() {
                    if empties.is_subset(&self.chains[r].libs) {
                        vital.insert(r);
                    }
                }
                if vital.is_empty() {
                    continue;
                }
                // The region's health depends on every chain next to it.
                for r in next_to.iter() {
                    if chains.insert(r) {
                        queue.push(r);
                    }
                }
                regions.push(Region {
                    chains: next_to,
                    vital,
                });
            }
        }
        let mut alive = chains;
        let mut healthy = vec![true; regions.len()];
        loop {
            let mut changed = false;
            // A chain needs two healthy regions vital to it.
            for r in chains.iter() {
                if !alive.contains(r) {
                    continue;
                }
                let vital = regions
                    .iter()
                    .zip(&healthy)
                    .filter(|(reg, ok)| **ok && reg.vital.contains(r))
                    .take(2)
                    .count();
                if vital < 2 {
                    alive.remove(r);
                    changed = true;
                }
            }
            // A region next to a chain that is not alive is not healthy.
            for (reg, ok) in regions.iter().zip(healthy.iter_mut()) {
                if *ok && !reg.chains.is_subset(&alive) {
                    *ok = false;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        let mut stones = PointSet::EMPTY;
        for r in alive.iter() {
            for s in self.chain_stones(r) {
                stones.insert(s);
            }
        }
        stones
    }
}

/// Why a stone may not go on an empty point, before the point is named.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Refusal {
    Ko,
    Suicide,
    Superko,
}

impl Refusal {
    fn at(self, point: Point, size: u8) -> Illegal {
        match self {
            Refusal::Ko => Illegal::Ko { point, size },
            Refusal::Suicide => Illegal::Suicide { point, size },
            Refusal::Superko => Illegal::Superko { point, size },
        }
    }
}

/// splitmix64: a small, fast, deterministic random number generator for playouts.
#[derive(Clone, Debug)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() >> 32) * n as u64 >> 32) as usize
    }
}

const _: () = assert!((MAX_SIZE as usize + 2) * (MAX_SIZE as usize + 2) <= WORDS * 64);

/// Runs `check` on boards of random games on 7, 9 and 13 lines (`games` games, each
/// stopped six times, `min_moves` plus up to `spread` moves apart), each with a random box
/// covering most of the board: the boards the tests of the search's static rules use.
#[cfg(test)]
pub(crate) fn for_random_boards(
    seed: u64,
    games: usize,
    (min_moves, spread): (usize, usize),
    mut check: impl FnMut(usize, &mut SearchBoard, &PointSet),
) {
    let mut rng = SplitMix64(seed);
    for game in 0..games {
        let size = [7, 9, 13][game % 3];
        let mut s = SearchBoard::new(&Board::new(size).unwrap(), Color::Black);
        for _ in 0..6 {
            let moves = min_moves + rng.below(spread);
            s.random_playout(&mut rng, moves);
            let (c0, r0) = (rng.below(3) as u8, rng.below(3) as u8);
            let (c1, r1) = (size - 1 - rng.below(3) as u8, size - 1 - rng.below(3) as u8);
            let mut area = PointSet::EMPTY;
            for c in c0..=c1 {
                for r in r0..=r1 {
                    area.insert(s.vertex(Point::new(c, r)));
                }
            }
            check(game, &mut s, &area);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(size: u8, text: &str) -> Board {
        Board::from_text(size, text).unwrap()
    }

    #[test]
    fn captures_two_stone_chain_and_undoes_it() {
        let b = board(5, ". X X . .\nX O O . .\n. X X . .\n. . . . .\n. . . . .");
        let mut s = SearchBoard::new(&b, Color::Black);
        let before = s.hash();
        s.play_move(Move::Play(b.point("D4").unwrap())).unwrap();
        assert_eq!(s.captured().len(), 2);
        assert_eq!(s.prisoners(Color::Black), 2);
        assert_eq!(s.liberty_count(b.point("C5").unwrap()), Some(4));
        assert!(s.undo());
        assert_eq!(s.board(), b);
        assert_eq!(s.hash(), before);
        assert_eq!(s.liberty_count(b.point("B4").unwrap()), Some(1));
        assert_eq!(s.prisoners(Color::Black), 0);
    }

    #[test]
    fn finds_the_stone_a_ko_capture_takes() {
        let b = board(4, ". . . .\n. O X .\nO X . X\n. O X .");
        let s = SearchBoard::new(&b, Color::White);
        let vertex = |name: &str| s.vertex(b.point(name).unwrap());
        // White C2 takes B2 alone and is left with B2 as its one liberty.
        assert_eq!(s.ko_capture(vertex("C2"), Color::White), Some(vertex("B2")));
        // Not for Black there, nor where nothing is captured or the stone keeps a liberty.
        assert_eq!(s.ko_capture(vertex("C2"), Color::Black), None);
        assert_eq!(s.ko_capture(vertex("A1"), Color::White), None);
        assert_eq!(s.ko_capture(vertex("D4"), Color::White), None);
    }

    #[test]
    fn refuses_suicide_but_allows_capture() {
        let b = board(5, ". . . . .\n. O O O .\n. O . O .\n. . O O .\n. . . . .");
        let s = SearchBoard::new(&b, Color::Black);
        let c3 = b.point("C3").unwrap();
        assert_eq!(
            s.check(Move::Play(c3)),
            Err(Illegal::Suicide { point: c3, size: 5 })
        );
    }

    /// A board brought in step with another by `follow` is that board: stones, chains,
    /// liberties, hash and what its undo takes back, after lines that part at random.
    #[test]
    fn a_board_that_follows_another_is_that_board() {
        let mut rng = SplitMix64(0xF011_0003);
        for game in 0..40 {
            let size = [7, 9, 13, 19][game % 4];
            let start = Board::new(size).unwrap();
            let mut leader = SearchBoard::new(&start, Color::Black);
            let mut follower = leader.clone();
            for _ in 0..8 {
                // The leader takes back some moves and plays on; so, apart, does the follower.
                for _ in 0..rng.below(6) {
                    leader.undo();
                }
                let moves = 1 + rng.below(12);
                leader.random_playout(&mut rng, moves);
                for _ in 0..rng.below(6) {
                    follower.undo();
                }
                let moves = rng.below(6);
                follower.random_playout(&mut rng, moves);
                follower.follow(&leader);
                assert_eq!(follower.board(), leader.board(), "game {game}");
                assert_eq!(follower.hash(), leader.hash(), "game {game}");
                assert_eq!(follower.turn(), leader.turn(), "game {game}");
                for p in start.points().filter(|&p| leader.board().get(p).is_some()) {
                    assert_eq!(follower.chain(p), leader.chain(p), "game {game}");
                    assert_eq!(follower.liberties(p), leader.liberties(p), "game {game}");
                }
            }
            while follower.undo() {}
            assert_eq!(follower.board(), start, "game {game}");
        }
    }

    #[test]
    fn merges_chains_and_counts_shared_liberties_once() {
        let b = board(5, ". . . . .\n. X . X .\n. . . . .\n. . . . .\n. . . . .");
        let mut s = SearchBoard::new(&b, Color::Black);
        let c4 = b.point("C4").unwrap();
        s.play_move(Move::Play(c4)).unwrap();
        assert_eq!(s.chain(c4).len(), 3);
        assert_eq!(s.liberty_count(c4), Some(8));
        s.undo();
        assert_eq!(s.chain(b.point("B4").unwrap()).len(), 1);
        assert_eq!(s.liberty_count(b.point("D4").unwrap()), Some(4));
    }

    /// `benson_of` gives each chain the answer of `benson`, with and without an area, on
    /// boards of random games stopped at many points (the later ones full of living
    /// chains).
    #[test]
    fn benson_of_a_chain_agrees_with_benson_over_the_board() {
        let (mut compared, mut alive_seen) = (0, 0);
        super::for_random_boards(7, 60, (40, 40), |game, s, area| {
            for color in [Color::Black, Color::White] {
                for area in [None, Some(area)] {
                    let all = s.benson(color, area);
                    for v in 0..s.grid_len() {
                        if s.cell(v) != Some(color) || area.is_some_and(|a| !a.contains(v)) {
                            continue;
                        }
                        let one = s.benson_of(color, area, [v]);
                        assert_eq!(one.contains(v), all.contains(v), "game {game} at {v}");
                        compared += 1;
                        alive_seen += all.contains(v) as usize;
                    }
                }
            }
        });
        assert!(
            compared > 10_000 && alive_seen > 1_000,
            "{compared} {alive_seen}"
        );
    }

    #[test]
    fn benson_needs_two_vital_regions() {
        let one_eye = board(5, ". X . . .\nX X . . .\n. . . . .\n. . . . .\n. . . . .");
        let s = SearchBoard::new(&one_eye, Color::Black);
        assert!(s.unconditionally_alive(Color::Black).is_empty());
    }
}
