//! Xiangqi's record format for the record layer: its PGN read into [`Record`]s and written
//! from them, and listed in [`FORMATS`].

use super::{read_named, write_game, NotedMove, XiangqiGame};
use crate::base::{Finish, Game, Reason, Side, Start};
use crate::record::library::Summary;
use crate::record::{Format, FormatKind, Record, RecordError, Step, Tags};
use crate::rules::xiangqi::{Outcome, Position, START_FEN};

/// The formats xiangqi's records are written in.
pub(crate) static FORMATS: &[Format] = &[PGN];

/// Xiangqi's PGN, as Chinese tools write it (`[Game "Chinese Chess"]`, Chinese notation).
pub const PGN: Format = Format::new(&KIND);

static KIND: FormatKind = FormatKind {
    game: Game::Xiangqi,
    name: "PGN",
    extensions: &["pgn"],
    mime: "application/x-chinese-chess-pgn; charset=utf-8",
    many_games: Some("\n"),
    claims: is_xiangqi,
    read: |name, bytes, _| read_records(name, bytes),
    write: |record, _| write_record(record),
    summarize,
};

/// Whether a PGN file is of xiangqi: a `Game` tag of Chinese chess or a `Variant` tag of
/// xiangqi in its first few kilobytes (the tags are ASCII in every encoding it comes in).
fn is_xiangqi(bytes: &[u8]) -> bool {
    let head = String::from_utf8_lossy(&bytes[..bytes.len().min(4096)]).to_ascii_lowercase();
    head.contains("[game \"chinese chess\"]") || head.contains("[variant \"xiangqi\"]")
}

/// The players' tags, red's first.
const PLAYER_TAGS: [&str; 2] = ["Red", "Black"];

fn read_records(name: &str, bytes: &[u8]) -> Result<Vec<Record>, RecordError> {
    let games = read_named(name, bytes).map_err(|e| RecordError::Syntax {
        place: name.to_string(),
        detail: e.to_string(),
    })?;
    games.iter().map(|g| to_record(name, g)).collect()
}

/// A game of the file as a [`Record`].
fn to_record(name: &str, game: &XiangqiGame) -> Result<Record, RecordError> {
    let start = game.start().map_err(|e| RecordError::BadStart {
        place: name.to_string(),
        detail: e.to_string(),
    })?;
    let mut record = Record::new(Start::Xiangqi(crate::base::xiangqi::Start { fen: start.fen() }));
    let mut extra = Vec::new();
    for (key, value) in &game.tags {
        let tags = &mut record.tags;
        match key.as_str() {
            "Red" | "White" => tags.first_player = Some(value.clone()),
            "Black" => tags.second_player = Some(value.clone()),
            "Event" => tags.event = Some(value.clone()),
            "Date" => tags.date = Some(value.clone()),
            "Result" | "Game" | "Variant" => {}
            _ => extra.push((key.clone(), value.clone())),
        }
    }
    record.tags.extra = extra;
    record.comment = game.comment.clone().unwrap_or_default();
    let mut end = start;
    for noted in &game.moves {
        let iccs = &noted.iccs;
        // Every move was checked while reading; a refusal here would be a reader's bug.
        end = end
            .play_on(iccs)
            .map_err(|e| RecordError::Illegal {
                place: name.to_string(),
                mv: iccs.clone(),
                reason: e.explain(crate::lang::Lang::En),
            })?
            .0;
        record.moves.push(step(noted));
    }
    record.tags.result = finish(game.result.as_deref(), &end);
    Ok(record)
}

/// A move of the file as a record's step, with its variations (their moves were checked
/// by the reader; they nest at most as deep as it allows).
fn step(noted: &NotedMove) -> Step {
    Step {
        comment: noted.comment.clone().unwrap_or_default(),
        variations: noted
            .variations
            .iter()
            .map(|line| line.iter().map(step).collect())
            .collect(),
        ..Step::new(noted.iccs.clone())
    }
}

/// A record's step as a move of the file, with its variations.
fn noted(step: &Step) -> NotedMove {
    NotedMove {
        iccs: step.mv.clone(),
        comment: (!step.comment.is_empty()).then(|| step.comment.clone()),
        variations: step
            .variations
            .iter()
            .map(|line| line.iter().map(noted).collect())
            .collect(),
    }
}

/// How a game ended from its result and the final position.
fn finish(result: Option<&str>, end: &Position) -> Option<Finish> {
    let winner = match result?.trim() {
        "1-0" => Some(Side::First),
        "0-1" => Some(Side::Second),
        "1/2-1/2" => None,
        _ => return None,
    };
    let reason = match (end.outcome(), winner) {
        (Some(Outcome::Checkmate { .. }), Some(_)) => Reason::Checkmate,
        (Some(Outcome::Stalemate { .. }), Some(_)) => Reason::Stalemate,
        (Some(Outcome::PerpetualCheck { .. }), Some(_)) => Reason::PerpetualCheck,
        (_, Some(_)) => Reason::Resignation,
        (Some(Outcome::Repetition), None) => Reason::Repetition,
        (_, None) => Reason::Agreement,
    };
    Some(Finish { winner, reason })
}

/// A record as xiangqi PGN.
fn write_record(record: &Record) -> Result<String, RecordError> {
    let Start::Xiangqi(crate::base::xiangqi::Start { fen }) = &record.start else {
        return Err(RecordError::WrongGame {
            format: PGN,
            game: record.start.game(),
        });
    };
    let Tags {
        first_player,
        second_player,
        event,
        date,
        result,
        extra,
    } = &record.tags;
    let mut tags = Vec::new();
    let mut tag = |key: &str, value: &Option<String>| {
        if let Some(v) = value {
            tags.push((key.to_string(), v.clone()));
        }
    };
    tag("Event", event);
    tag("Date", date);
    tag(PLAYER_TAGS[0], first_player);
    tag(PLAYER_TAGS[1], second_player);
    tags.extend(extra.iter().cloned());
    let result = result.map(|f| {
        match f.winner {
            Some(Side::First) => "1-0",
            Some(Side::Second) => "0-1",
            None => "1/2-1/2",
        }
        .to_string()
    });
    let game = XiangqiGame {
        tags,
        fen: (fen != START_FEN).then(|| fen.clone()),
        comment: (!record.comment.is_empty()).then(|| record.comment.clone()),
        moves: record.moves.iter().map(noted).collect(),
        result,
    };
    write_game(&game).map_err(|e| RecordError::Syntax {
        place: "record".into(),
        detail: e.to_string(),
    })
}

/// The tags of every game of a file, without checking its moves beyond reading them.
fn summarize(bytes: &[u8]) -> Vec<Summary> {
    let Ok(games) = read_named("", bytes) else {
        return Vec::new();
    };
    games
        .iter()
        .enumerate()
        .map(|(i, g)| Summary {
            game: i + 1,
            players: PLAYER_TAGS.map(|t| g.tag(t).map(str::to_string)),
            event: g.tag("Event").map(str::to_string),
            date: g.tag("Date").map(str::to_string),
            result: g.result.clone(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chinese_pgn_is_xiangqis_and_a_chess_one_is_not() {
        let xq = b"[Game \"Chinese Chess\"]\n1. \xe7\x82\xae\xe4\xba\x8c\xe5\xb9\xb3\xe4\xba\x94 *";
        assert_eq!(Format::for_file("g.pgn", xq), Some(PGN));
        let chess = b"[Event \"x\"]\n1. e4 e5 *";
        assert_eq!(Format::for_file("g.pgn", chess).map(|f| f.game()), Some(Game::Chess));
    }

    #[test]
    fn records_round_trip_through_pgn() {
        let text = "[Game \"Chinese Chess\"]\n[Red \"许银川\"]\n1. 炮二平五 {中炮} (1. 兵七进一) 马8进7 1-0";
        let records = read_records("g.pgn", text.as_bytes()).unwrap();
        let r = &records[0];
        assert_eq!(r.main_line(), ["h2e2", "h9g7"]);
        assert_eq!(r.tags.first_player.as_deref(), Some("许银川"));
        assert_eq!(r.tags.result.map(|f| f.winner), Some(Some(Side::First)));
        let back = read_records("g.pgn", write_record(r).unwrap().as_bytes()).unwrap();
        assert_eq!(back[0].main_line(), r.main_line());
        assert_eq!(back[0].moves[0].comment, "中炮");
        assert_eq!(back[0].moves[0].variations[0][0].mv, "c3c4");
    }
}
