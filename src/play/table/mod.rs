//! A game table: one game in play, its seats, moves, take-backs, offers and end, the same for Go,
//! chess, shogi and xiangqi. [`Playable`] is what each game adds; [`Match`] is the table as the web sees
//! it, whatever the game.

use super::computer::{self, Computer};
use super::{Finish, Level, Reason, Side, Start};
use crate::base::{GamePosition, Text};
use crate::content::board_game::PieceGame;
use crate::content::{Action as Click, Game};
use crate::lang::Lang;
use crate::rules::{Explain, Rules};
use std::fmt;

for_each_game!(game_modules);

/// What a learner does at the table, read from the text of `POST /api/games/{id}/moves`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// A move in any notation the game reads (`D4`, `pass`, `e4`, `e2e4`, `P*5e`).
    Move(String),
    /// Give up the game.
    Resign,
    /// Take back the last move and the computer's reply (悔棋; against the computer only).
    Undo,
    /// Offer a draw, or accept the opponent's offer (chess, shogi).
    Draw,
    /// Go, after two passes: mark the chain at this point dead, or alive again.
    Dead(String),
    /// Go, after two passes: agree to the dead stones as marked.
    Agree,
    /// Go, after two passes: disagree and play on (第二十一条).
    Resume,
    /// Shogi: declare a win by 入玉 (the 27-point rule).
    Declare,
}

impl Action {
    /// Reads an action: `resign`, `undo`, `draw`, `agree`, `resume`, `declare`, `dead D4`, or a
    /// move.
    ///
    /// ```
    /// use qiyuan::play::table::Action;
    /// assert_eq!(Action::parse("dead c3"), Action::Dead("c3".into()));
    /// assert_eq!(Action::parse(" Resign "), Action::Resign);
    /// assert_eq!(Action::parse("e2e4"), Action::Move("e2e4".into()));
    /// ```
    pub fn parse(text: &str) -> Action {
        let text = text.trim();
        match text.to_ascii_lowercase().as_str() {
            "resign" => Action::Resign,
            "undo" | "takeback" => Action::Undo,
            "draw" => Action::Draw,
            "agree" => Action::Agree,
            "resume" => Action::Resume,
            "declare" => Action::Declare,
            lower => match lower.strip_prefix("dead ") {
                Some(point) => Action::Dead(point.trim().to_string()),
                None => Action::Move(text.to_string()),
            },
        }
    }
}

/// Why an action is refused. Nothing at the table changes.
#[derive(Clone, Debug, PartialEq)]
pub enum Refused {
    /// The rules forbid the move; the reason in Chinese and English.
    Illegal(Text),
    /// It is the other side's turn.
    NotYourTurn,
    /// The game is over.
    Over,
    /// Go: the dead stones are being marked; moves wait until play resumes.
    Counting,
    /// Go: `dead`, `agree` and `resume` are for after two passes.
    NotCounting,
    /// Go: the point holds no stone.
    NoStone(String),
    /// Nothing to take back, or the opponent is not the computer.
    NoUndo,
    /// Go has no draw offers: an even count is a draw.
    NoDraws,
    /// Shogi: the 入玉 declaration's conditions are not met; which one.
    CannotDeclare(Text),
    /// `declare` is a shogi action.
    NotShogi,
}

impl Explain for Refused {
    fn explain(&self, lang: Lang) -> String {
        let zh = lang == Lang::Zh;
        let pick = |z: &str, e: &str| if zh { z.to_string() } else { e.to_string() };
        match self {
            Refused::Illegal(why) | Refused::CannotDeclare(why) => why.get(lang).to_string(),
            Refused::NotYourTurn => pick("还没轮到你走。", "It is not your turn."),
            Refused::Over => pick("这盘棋已经结束了。", "This game is over."),
            Refused::Counting => pick(
                "双方已经停着：先确认死子，或者选择“继续对局”。",
                "Both sides have passed: agree on the dead stones first, or resume play.",
            ),
            Refused::NotCounting => pick(
                "只有双方连续停一手之后，才能标记死子、同意或继续对局。",
                "Dead stones are marked, agreed or disputed only after two passes in a row.",
            ),
            Refused::NoStone(p) => {
                if zh {
                    format!("{p} 上没有棋子，不能标记为死子。")
                } else {
                    format!("There is no stone on {p} to mark dead.")
                }
            }
            Refused::NoUndo => pick(
                "现在不能悔棋：只有和电脑下棋、而且已经走过棋时才可以悔棋。",
                "Nothing to take back: take-backs are for games against the computer, after a move of yours.",
            ),
            Refused::NoDraws => pick(
                "围棋没有提和：数棋结果相同才是和棋。",
                "Go has no draw offers: a game is drawn only by an even count.",
            ),
            Refused::NotShogi => pick("只有将棋才能宣告入玉。", "Only shogi has the 入玉 declaration."),
        }
    }
}

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.explain(Lang::En))
    }
}

impl std::error::Error for Refused {}

/// Why a game cannot start as asked.
#[derive(Clone, Debug, PartialEq)]
pub enum BadStart {
    /// Go boards are 9, 13 or 19.
    Size(u8),
    /// Go handicaps are 0 or 2 to 9 stones.
    Handicap(u8),
    /// Komi must be a whole or half number between -100 and 100.
    Komi(f64),
    /// The FEN or SFEN cannot be read; why.
    Position(String),
    /// The position is already over.
    AlreadyOver,
}

impl Explain for BadStart {
    fn explain(&self, lang: Lang) -> String {
        let zh = lang == Lang::Zh;
        match self {
            BadStart::Size(n) if zh => format!("没有 {n} 路的棋盘：请选择 9、13 或 19 路。"),
            BadStart::Size(n) => format!("There is no {n}×{n} board: choose 9, 13 or 19."),
            BadStart::Handicap(n) if zh => format!("不能让 {n} 子：让子数是 0 或 2 到 9。"),
            BadStart::Handicap(n) => {
                format!("A handicap of {n} stones is not possible: give 0 or 2 to 9.")
            }
            BadStart::Komi(k) if zh => {
                format!("贴目 {k} 不行：请用 -100 到 100 之间的整数或半目。")
            }
            BadStart::Komi(k) => {
                format!("Komi {k} is not possible: give a whole or half number from -100 to 100.")
            }
            BadStart::Position(why) if zh => format!("读不懂这个局面：{why}"),
            BadStart::Position(why) => format!("The position cannot be read: {why}"),
            BadStart::AlreadyOver if zh => "这个局面里棋局已经结束，无法开始。".to_string(),
            BadStart::AlreadyOver => "The game is already over in this position.".to_string(),
        }
    }
}

impl fmt::Display for BadStart {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.explain(Lang::En))
    }
}

impl std::error::Error for BadStart {}

/// The count at the end of a Go game: the result and the count step by step.
#[derive(Clone, Debug, PartialEq)]
pub struct Count {
    /// Who won and by how much.
    pub finish: Finish,
    /// The count explained, in Chinese and English.
    pub text: Text,
    /// The result in a sentence (`黑胜 ¾ 子。`), in Chinese and English.
    pub result: Text,
}

/// What each game adds to a table.
pub trait Playable: GamePosition + Computer {
    /// The position a start describes, as a table plays it (the boards and starts it
    /// offers).
    fn table_start(start: &Start) -> Result<Self, BadStart>;

    /// How an ending of the position is recorded; `None` when play stops for a count (Go).
    fn finish(&self, ending: &Self::Ending) -> Option<Finish>;

    /// Go: the chain at `point` is toggled between dead and alive in `dead` (point names).
    fn toggle_dead(&self, _dead: &mut Vec<String>, _point: &str) -> Result<(), Refused> {
        Err(Refused::NotCounting)
    }

    /// Go: the computer's proposal of dead stones (point names).
    fn dead_guess(&self, _seed: u64) -> Vec<String> {
        Vec::new()
    }

    /// Go: the count with `dead` taken off.
    fn count(&self, _start: &Start, _dead: &[String]) -> Option<Count> {
        None
    }

    /// Shogi: the 入玉 declaration of the side to move, if its conditions are met.
    fn declare(&self) -> Result<Finish, Refused> {
        Err(Refused::NotShogi)
    }

    /// The built-in computer's move here, knowing the game's start (Go: the komi and
    /// handicap it counts with).
    fn think_at(&self, _start: &Start, level: Level, seed: u64) -> Option<Self::Move> {
        self.think(level, seed)
    }

    /// Go: the stones of chains in atari, to mark while teaching.
    fn in_atari(&self) -> Vec<String> {
        Vec::new()
    }
}

/// Who sits on one side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seat {
    /// A person, once they have joined: `token` proves who they are.
    Human {
        /// The secret of this seat; `None` while nobody has joined.
        token: Option<String>,
    },
    /// The computer at a level.
    Computer {
        /// How strong it plays.
        level: Level,
    },
}

/// Where a game is.
#[derive(Clone, Debug, PartialEq)]
pub enum Phase {
    /// Moves are being played.
    Play,
    /// Go, after two passes: the dead stones are being agreed.
    Counting {
        /// The points of stones marked dead.
        dead: Vec<String>,
        /// Whether each side (first, second) agrees to `dead`.
        agreed: [bool; 2],
    },
    /// The game has ended.
    Over {
        /// How.
        finish: Finish,
        /// Said to both players: the count or the ending explained (zh, en).
        text: Text,
    },
}

/// A game in play.
#[derive(Clone, Debug)]
pub struct Table<P: Playable> {
    start: Start,
    /// Every position of the game, the start first.
    positions: Vec<P>,
    /// The moves played, canonical names.
    moves: Vec<String>,
    /// The moves as learners read them.
    notations: Vec<String>,
    seats: [Seat; 2],
    phase: Phase,
    draw_offer: Option<Side>,
    /// Go: the dead stones of the count, kept to draw the final board.
    dead: Vec<String>,
    /// Go: the computer's proposal of dead stones, the only marking it agrees to.
    proposal: Vec<String>,
    /// Go: how many moves had been played when play last resumed after a count was
    /// disputed; two passes after that end play again.
    resumed_at: usize,
}

impl<P: Playable> Table<P> {
    /// A new table from `start` with `seats` (first, second).
    pub fn new(start: Start, seats: [Seat; 2]) -> Result<Table<P>, BadStart> {
        let pos = P::table_start(&start)?;
        if pos.ending().is_some() {
            return Err(BadStart::AlreadyOver);
        }
        Ok(Table {
            start,
            positions: vec![pos],
            moves: Vec::new(),
            notations: Vec::new(),
            seats,
            phase: Phase::Play,
            draw_offer: None,
            dead: Vec::new(),
            proposal: Vec::new(),
            resumed_at: 0,
        })
    }

    /// The position now.
    pub fn position(&self) -> &P {
        self.positions
            .last()
            .expect("a table always has its start position")
    }

    fn to_move(&self) -> Side {
        P::side(self.position().turn())
    }

    /// The side to move while moves are played; `None` while counting or over.
    pub fn turn_now(&self) -> Option<Side> {
        matches!(self.phase, Phase::Play).then(|| self.to_move())
    }

    fn end(&mut self, finish: Finish, text: Text) {
        self.phase = Phase::Over { finish, text };
        self.draw_offer = None;
    }

    fn play_move(&mut self, side: Side, text: &str) -> Result<(), Refused> {
        match self.phase {
            Phase::Play => {}
            Phase::Counting { .. } => return Err(Refused::Counting),
            Phase::Over { .. } => return Err(Refused::Over),
        }
        if side != self.to_move() {
            return Err(Refused::NotYourTurn);
        }
        let before = self.position();
        let (next, played) = before
            .play(text)
            .map_err(|e| Refused::Illegal(Text::from_fn(|l| e.explain(l))))?;
        let (name, notation) = (before.move_name(&played), before.notation(&played));
        self.moves.push(name);
        self.notations.push(notation);
        self.positions.push(next);
        self.draw_offer = None;
        let now = self.position();
        if let Some(ending) = now.ending() {
            let text = Text::from_fn(|l| ending.explain(l));
            match now.finish(&ending) {
                Some(finish) => self.end(finish, text),
                // Play resumed after a dispute: the passes before it do not count again.
                None if self.moves.len() < self.resumed_at + 2 => {}
                None => {
                    self.proposal = self.proposal();
                    self.phase = Phase::Counting {
                        dead: self.proposal.clone(),
                        agreed: [false; 2],
                    };
                    self.computer_agrees();
                }
            }
        }
        Ok(())
    }

    /// The dead stones proposed after two passes: the computer's guess when it plays.
    fn proposal(&self) -> Vec<String> {
        let computer = self
            .seats
            .iter()
            .any(|s| matches!(s, Seat::Computer { .. }));
        if computer {
            self.position().dead_guess(self.moves.len() as u64)
        } else {
            Vec::new()
        }
    }

    /// The computer agrees to its own proposal, as soon as the counting starts.
    fn computer_agrees(&mut self) {
        let computers = self
            .seats
            .clone()
            .map(|s| matches!(s, Seat::Computer { .. }));
        if let Phase::Counting { agreed, .. } = &mut self.phase {
            for (i, c) in computers.iter().enumerate() {
                if *c {
                    agreed[i] = true;
                }
            }
        }
        self.count_if_agreed();
    }

    fn count_if_agreed(&mut self) {
        let Phase::Counting { dead, agreed } = &self.phase else {
            return;
        };
        if agreed != &[true, true] {
            return;
        }
        if let Some(count) = self.position().count(&self.start, dead) {
            self.dead = dead.clone();
            let Text { zh, en } = count.text;
            let Text { zh: rzh, en: ren } = count.result;
            self.end(
                count.finish,
                Text::new(format!("{rzh}\n{zh}"), format!("{ren}\n{en}")),
            );
        }
    }

    /// Go, while counting: the computer proposes `dead` (a real engine's reading) instead of
    /// its own guess, and agrees to it.
    pub fn propose_dead(&mut self, dead: Vec<String>) {
        if let Phase::Counting {
            dead: marked,
            agreed,
        } = &mut self.phase
        {
            *marked = dead.clone();
            *agreed = [false; 2];
            self.proposal = dead;
            self.computer_agrees();
        }
    }

    /// Go: back from counting to play (第二十一条): two new passes end play again.
    fn resume(&mut self) {
        self.phase = Phase::Play;
        self.resumed_at = self.moves.len();
    }

    /// Does `action` for `side`.
    pub fn act(&mut self, side: Side, action: &Action) -> Result<(), Refused> {
        match action {
            Action::Move(text) => self.play_move(side, text),
            Action::Resign => {
                if matches!(self.phase, Phase::Over { .. }) {
                    return Err(Refused::Over);
                }
                let winner = side.other();
                let text = resigned_text(P::GAME, side);
                self.end(
                    Finish {
                        winner: Some(winner),
                        reason: Reason::Resignation,
                    },
                    text,
                );
                Ok(())
            }
            Action::Undo => self.undo(side),
            Action::Draw => self.draw(side),
            Action::Dead(point) => {
                let pos = self.position().clone();
                let Phase::Counting { dead, agreed } = &mut self.phase else {
                    return Err(if matches!(self.phase, Phase::Over { .. }) {
                        Refused::Over
                    } else {
                        Refused::NotCounting
                    });
                };
                pos.toggle_dead(dead, point)?;
                *agreed = [false; 2];
                Ok(())
            }
            Action::Agree => {
                let computer = self
                    .seats
                    .iter()
                    .any(|s| matches!(s, Seat::Computer { .. }));
                let proposal = self.proposal();
                let Phase::Counting { dead, agreed } = &mut self.phase else {
                    return Err(Refused::NotCounting);
                };
                agreed[side.index()] = true;
                if computer {
                    let mut mine = proposal;
                    mine.sort();
                    let mut theirs = dead.clone();
                    theirs.sort();
                    if mine == theirs {
                        *agreed = [true; 2];
                    } else {
                        // The computer disagrees: play on and settle it on the board.
                        self.resume();
                        return Ok(());
                    }
                }
                self.count_if_agreed();
                Ok(())
            }
            Action::Resume => match self.phase {
                Phase::Counting { .. } => {
                    self.resume();
                    Ok(())
                }
                Phase::Over { .. } => Err(Refused::Over),
                Phase::Play => Err(Refused::NotCounting),
            },
            Action::Declare => {
                if !matches!(self.phase, Phase::Play) {
                    return Err(Refused::Over);
                }
                if side != self.to_move() {
                    return Err(Refused::NotYourTurn);
                }
                let finish = self.position().declare()?;
                let text = declared_text(side);
                self.end(finish, text);
                Ok(())
            }
        }
    }

    fn undo(&mut self, side: Side) -> Result<(), Refused> {
        if !matches!(self.phase, Phase::Play | Phase::Counting { .. }) {
            return Err(Refused::Over);
        }
        if !matches!(self.seats[side.other().index()], Seat::Computer { .. }) {
            return Err(Refused::NoUndo);
        }
        // Back to the learner's last turn: their move and the computer's reply.
        let back = if self.to_move() == side { 2 } else { 1 };
        if self.moves.len() < back {
            return Err(Refused::NoUndo);
        }
        for _ in 0..back {
            self.moves.pop();
            self.notations.pop();
            self.positions.pop();
        }
        self.resumed_at = self.resumed_at.min(self.moves.len());
        self.phase = Phase::Play;
        self.draw_offer = None;
        Ok(())
    }

    fn draw(&mut self, side: Side) -> Result<(), Refused> {
        if !P::GAME.kind().draw_offers {
            return Err(Refused::NoDraws);
        }
        if !matches!(self.phase, Phase::Play) {
            return Err(Refused::Over);
        }
        if self.draw_offer == Some(side.other()) {
            self.end(
                Finish {
                    winner: None,
                    reason: Reason::Agreement,
                },
                Text::new(
                    "双方同意和棋。".to_string(),
                    "Both players agreed to a draw.".to_string(),
                ),
            );
        } else if !matches!(self.seats[side.other().index()], Seat::Computer { .. }) {
            self.draw_offer = Some(side);
        } else {
            return Err(Refused::Illegal(Text::new(
                "电脑不接受和棋，请继续下。",
                "The computer declines the draw: play on.",
            )));
        }
        Ok(())
    }

    /// The computer's move here, worked out by the built-in opponent (blocking: call it off
    /// the async workers).
    pub fn think(pos: &P, start: &Start, level: Level, seed: u64) -> Option<String> {
        pos.think_at(start, level, seed).map(|m| pos.move_name(&m))
    }
}

/// Opens a table as a `P` game.
fn open_as<P: Playable + Drawable>(
    start: Start,
    seats: [Seat; 2],
) -> Result<Box<dyn Match>, BadStart> {
    Ok(Box::new(Table::<P>::new(start, seats)?))
}

type Opener = fn(Start, [Seat; 2]) -> Result<Box<dyn Match>, BadStart>;

/// Makes [`TABLES`] from the registry of games: each game's rules `Position`, made
/// [`Playable`] in its own file here.
macro_rules! tables {
    ($($game:ident $module:ident,)*) => {
        /// The games a table seats.
        const TABLES: &[(Game, Opener)] = &[$(
            (
                crate::rules::$module::Position::GAME,
                open_as::<crate::rules::$module::Position>,
            ),
        )*];
    };
}

for_each_game!(tables);

/// Opens a table of the start's game.
pub fn open(start: Start, seats: [Seat; 2]) -> Result<Box<dyn Match>, BadStart> {
    let game = start.game();
    let (_, opener) = TABLES
        .iter()
        .find(|(g, _)| *g == game)
        .expect("every game has a table");
    opener(start, seats)
}

/// The sides' names in a game, Chinese and English: 黑方/白方, White/Black, 先手/后手.
pub fn side_names(game: Game) -> ([&'static str; 2], [&'static str; 2]) {
    let [first, second] = game.kind().sides;
    ([first[0], second[0]], [first[1], second[1]])
}

fn resigned_text(game: Game, loser: Side) -> Text {
    let (zh_names, en_names) = side_names(game);
    let (l, w) = (loser.index(), loser.other().index());
    Text::new(
        format!("{}认输，{}胜。", zh_names[l], zh_names[w]),
        format!("{} resigned; {} wins.", en_names[l], en_names[w]),
    )
}

/// The end of a game lost on time, in both languages.
pub fn timeout_text(game: Game, loser: Side) -> Text {
    let (zh_names, en_names) = side_names(game);
    let (l, w) = (loser.index(), loser.other().index());
    Text::new(
        format!("{}超时，{}胜。", zh_names[l], zh_names[w]),
        format!("{} ran out of time; {} wins.", en_names[l], en_names[w]),
    )
}

fn declared_text(side: Side) -> Text {
    let (zh, en) = match side {
        Side::First => ("先手", "Sente"),
        Side::Second => ("后手", "Gote"),
    };
    Text::new(
        format!("{zh}宣告入玉：条件都满足（27 点法的入玉宣言规则），{zh}胜。"),
        format!("{en} declared 入玉 (entering king) and meets every condition of the 27-point rule: {en} wins."),
    )
}

/// What the web asks of a table to draw its board.
pub struct BoardAsk<'a> {
    /// The piece picked up (chess, shogi: a square or `P*`), or the stone whose liberties to
    /// show (Go).
    pub selected: Option<&'a str>,
    /// The address of each click; `None` when the board takes no clicks.
    pub href: Option<&'a dyn Fn(Click) -> String>,
    /// The second player at the bottom.
    pub flipped: bool,
    /// Mark chains in atari (Go, while the rules are taught).
    pub teach: bool,
    /// The language of accessible names.
    pub lang: Lang,
    /// What the picture shows.
    pub title: &'a str,
}

/// A table as the web sees it, whatever the game.
pub trait Match: Send + Sync + fmt::Debug {
    /// The game.
    fn game(&self) -> Game;
    /// Where it started.
    fn start(&self) -> &Start;
    /// The moves played, canonical names.
    fn moves(&self) -> &[String];
    /// The moves as learners read them.
    fn notations(&self) -> &[String];
    /// Who sits where (first, second).
    fn seats(&self) -> &[Seat; 2];
    /// Seats a person who joins.
    fn seat_mut(&mut self, side: Side) -> &mut Seat;
    /// Where the game is.
    fn phase(&self) -> &Phase;
    /// The side to move while moves are played; `None` while counting or over.
    fn turn(&self) -> Option<Side>;
    /// A pending draw offer, by this side.
    fn draw_offer(&self) -> Option<Side>;
    /// Does `action` for `side`.
    fn act(&mut self, side: Side, action: &Action) -> Result<(), Refused>;
    /// Ends the game from outside (time, abandonment).
    fn end_by(&mut self, finish: Finish, text: Text);
    /// Go, while counting: the computer's dead stones from a real engine.
    fn propose_dead(&mut self, dead: Vec<String>);
    /// A job that works out the built-in computer's move, to run on a blocking thread.
    fn think_job(&self, level: Level) -> Box<dyn FnOnce() -> Option<String> + Send>;
    /// Whether the side to move is in check (chess, shogi).
    fn in_check(&self) -> bool;
    /// The board after `at` moves (the board now when `at` is past the last move).
    fn board(&self, at: usize, ask: &BoardAsk) -> String;
    /// The moves from `from` to `to` now, when there are several (a promotion to choose).
    fn choices(&self, from: &str, to: &str, lang: Lang) -> (&'static str, Vec<Choice>);
}

impl<P: Playable + Drawable> Match for Table<P> {
    fn game(&self) -> Game {
        P::GAME
    }
    fn start(&self) -> &Start {
        &self.start
    }
    fn moves(&self) -> &[String] {
        &self.moves
    }
    fn notations(&self) -> &[String] {
        &self.notations
    }
    fn seats(&self) -> &[Seat; 2] {
        &self.seats
    }
    fn seat_mut(&mut self, side: Side) -> &mut Seat {
        &mut self.seats[side.index()]
    }
    fn phase(&self) -> &Phase {
        &self.phase
    }
    fn turn(&self) -> Option<Side> {
        self.turn_now()
    }
    fn draw_offer(&self) -> Option<Side> {
        self.draw_offer
    }
    fn act(&mut self, side: Side, action: &Action) -> Result<(), Refused> {
        Table::act(self, side, action)
    }
    fn end_by(&mut self, finish: Finish, text: Text) {
        if !matches!(self.phase, Phase::Over { .. }) {
            self.end(finish, text);
        }
    }
    fn propose_dead(&mut self, dead: Vec<String>) {
        Table::propose_dead(self, dead)
    }
    fn think_job(&self, level: Level) -> Box<dyn FnOnce() -> Option<String> + Send> {
        let pos = self.position().clone();
        let start = self.start.clone();
        let seed = self.moves.len() as u64 ^ 0x9e37_79b9_7f4a_7c15;
        Box::new(move || Table::think(&pos, &start, level, seed))
    }
    fn in_check(&self) -> bool {
        self.position().checked()
    }
    fn choices(&self, from: &str, to: &str, lang: Lang) -> (&'static str, Vec<Choice>) {
        self.position().choices(from, to, lang)
    }
    fn board(&self, at: usize, ask: &BoardAsk) -> String {
        let at = at.min(self.moves.len());
        let now = at == self.moves.len();
        let dead = match &self.phase {
            Phase::Counting { dead, .. } if now => dead.as_slice(),
            Phase::Over { .. } if now => self.dead.as_slice(),
            _ => &[],
        };
        let last = at
            .checked_sub(1)
            .and_then(|i| self.positions[i].play(&self.moves[i]).ok())
            .map(|(_, m)| m);
        self.positions[at].draw(&DrawAsk {
            ask,
            last,
            dead,
            counting: now && matches!(self.phase, Phase::Counting { .. }),
            counted: now
                && match &self.phase {
                    Phase::Counting { .. } => true,
                    Phase::Over { finish, .. } => matches!(finish.reason, Reason::Count { .. }),
                    Phase::Play => false,
                },
        })
    }
}

/// What a position is drawn with.
pub struct DrawAsk<'a, M> {
    /// The web's request.
    pub ask: &'a BoardAsk<'a>,
    /// The last move.
    pub last: Option<M>,
    /// Go: the stones marked dead.
    pub dead: &'a [String],
    /// Go: whether the dead stones are being marked (a click marks a stone).
    pub counting: bool,
    /// Go: whether the board is counted (being marked, or the game ended by the count): its
    /// territory is shown.
    pub counted: bool,
}

/// A move to choose among those joining the same squares (a promotion): its label, its
/// canonical name, and its picture (SVG) when the game draws one.
pub type Choice = (String, String, Option<String>);

/// A position drawn at a table.
pub trait Drawable: Rules {
    /// The board as SVG.
    fn draw(&self, ask: &DrawAsk<Self::Move>) -> String;
    /// The moves from `from` to `to` when there are several (a promotion to choose), and
    /// the locale key of the question asked.
    fn choices(&self, _from: &str, _to: &str, _lang: Lang) -> (&'static str, Vec<Choice>) {
        ("", Vec::new())
    }
    /// Whether the side to move is in check.
    fn checked(&self) -> bool {
        false
    }
}

/// The choices between moves joining `from` and `to` in a piece game's position, with their
/// pictures.
fn choices_at_table<G: PieceGame>(
    pos: &G::Pos,
    from: &str,
    to: &str,
    lang: Lang,
) -> (&'static str, Vec<Choice>) {
    let choices = crate::content::board_game::choices_between::<G>(pos, from, to)
        .into_iter()
        .map(|(label, name, m)| {
            let picture = G::choice_picture(pos, &m, lang);
            (label.get(lang).to_string(), name, picture)
        })
        .collect();
    (G::CHOOSE, choices)
}

/// Draws a chess, shogi or xiangqi position at a table, through `content::drawing`.
fn draw_at_table<G: PieceGame>(pos: &G::Pos, d: &DrawAsk<<G::Pos as Rules>::Move>) -> String {
    let ask = crate::content::drawing::DrawAsk {
        markup: &[],
        comment: "",
        link: d.ask.href,
        selected: d.ask.selected,
        lang: d.ask.lang,
        title: d.ask.title,
        branches: &[],
    };
    let marks = Default::default();
    crate::content::drawing::draw_pieces::<G>(pos, d.last.as_ref(), &ask, d.ask.flipped, marks)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{go, shogi};

    #[test]
    fn every_game_opens_a_table_at_its_usual_start() {
        for game in Game::ALL {
            let start = (game.kind().standard_start)();
            let seats = [Seat::Human { token: None }, Seat::Human { token: None }];
            let table = open(start, seats).unwrap();
            assert_eq!(table.game(), game);
        }
    }

    fn shogi_table(sfen: &str) -> Table<shogi::Position> {
        let start = Start::Shogi(crate::base::shogi::Start {
            sfen: sfen.to_string(),
            handicap: None,
        });
        let human = || Seat::Human {
            token: Some("t".into()),
        };
        Table::new(start, [human(), human()]).unwrap()
    }

    #[test]
    fn impasse_is_declared_with_28_points_and_refused_with_27() {
        // ☗ king on 5b, rook, bishop and eight pawns in Gote's camp (18 points, 10 pieces),
        // ten pawns in hand: 28.
        let mut t = shogi_table("9/1R2K2B1/PPPPPPPP1/9/9/9/9/9/8k b 10P 1");
        t.act(Side::First, &Action::Declare).unwrap();
        assert!(matches!(
            t.phase,
            Phase::Over {
                finish: Finish {
                    winner: Some(Side::First),
                    reason: Reason::Impasse
                },
                ..
            }
        ));
        let mut t = shogi_table("9/1R2K2B1/PPPPPPPP1/9/9/9/9/9/8k b 9P 1");
        let Err(Refused::CannotDeclare(Text { en, zh })) = t.act(Side::First, &Action::Declare)
        else {
            panic!("declared with 27 points");
        };
        assert!(en.contains("27 points, 28 needed"), "{en}");
        assert!(zh.contains("27 点"), "{zh}");
        // Gote's turn is not Sente's to declare.
        assert_eq!(
            t.act(Side::Second, &Action::Declare),
            Err(Refused::NotYourTurn)
        );
    }

    #[test]
    fn a_go_chain_marked_dead_is_marked_whole_and_unmarked_whole() {
        let start = Start::Go(crate::base::go::Start {
            size: 9,
            handicap: 0,
            rules: go::Scoring::Chinese,
            komi: 7.5,
        });
        let human = |t: &str| Seat::Human {
            token: Some(t.into()),
        };
        let mut t: Table<go::Position> = Table::new(start, [human("a"), human("b")]).unwrap();
        for (side, mv) in [
            (Side::First, "E5"),
            (Side::Second, "C3"),
            (Side::First, "E6"),
            (Side::Second, "C4"),
            (Side::First, "pass"),
            (Side::Second, "pass"),
        ] {
            t.act(side, &Action::parse(mv)).unwrap();
        }
        t.act(Side::First, &Action::parse("dead c4")).unwrap();
        assert!(matches!(&t.phase, Phase::Counting { dead, .. } if dead == &["C3", "C4"]));
        t.act(Side::Second, &Action::parse("dead C3")).unwrap();
        assert!(matches!(&t.phase, Phase::Counting { dead, .. } if dead.is_empty()));
        assert_eq!(
            t.act(Side::First, &Action::parse("dead D4")),
            Err(Refused::NoStone("D4".into()))
        );
        // A move while counting waits for play to resume.
        assert_eq!(
            t.act(Side::First, &Action::parse("D4")),
            Err(Refused::Counting)
        );
        t.act(Side::Second, &Action::Resume).unwrap();
        assert_eq!(t.turn_now(), Some(Side::First));
        // An engine's proposal naming an empty point still counts once both agree.
        t.act(Side::First, &Action::parse("pass")).unwrap();
        t.act(Side::Second, &Action::parse("pass")).unwrap();
        t.propose_dead(vec!["C3".into(), "C4".into(), "J9".into()]);
        t.act(Side::First, &Action::Agree).unwrap();
        t.act(Side::Second, &Action::Agree).unwrap();
        assert!(matches!(t.phase, Phase::Over { .. }), "{:?}", t.phase);
    }
}
