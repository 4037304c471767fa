//! 再来一盘: a player of a finished table opens the same game again, colours swapped, against
//! the same opponent; a classmate's page of the old table offers to join it.

use super::*;

/// `POST /play/{id}/rematch`: a new table with the same start, opponent and clocks, the
/// asker on the other side; to the new table. Only a seated player may ask (403), and only
/// once the game is over (else back to the table); a second ask finds the first rematch.
pub async fn rematch_form(
    State(state): State<AppState>,
    client: Client,
    req: Req,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, NoTable> {
    let refused = |e| NoTable::new(&state, &req, e);
    let old = look_up(&state, client, &id, &headers, None).map_err(refused)?;
    let token = cookie_token(&headers, &old.id).unwrap_or_default();
    let Some(you) = old.side_of(&token) else {
        return Err(refused(LobbyError::NotAPlayer));
    };
    let (new, over) = {
        let table = old.table();
        let opponent = match &table.seats()[you.other().index()] {
            Seat::Computer { level } => Opponent::Computer(*level),
            Seat::Human { .. } => Opponent::Human,
        };
        let new = NewGame {
            start: table.start().clone(),
            opponent,
            side: you.other(),
            clock: old.time_control(),
        };
        (new, matches!(table.phase(), Phase::Over { .. }))
    };
    if !over {
        return Ok(Redirect::to(&table_href(&old.id)).into_response());
    }
    // Asked again, by either player: the rematch already opened.
    if let Some(code) = old.rematch() {
        return Ok(Redirect::to(&table_href(&code)).into_response());
    }
    let installed = old.engine_name().is_some();
    let (entry, _, token) = open_new(&state, client, new, installed, req.account.as_ref())
        .await
        .map_err(|e| NoTable::new(&state, &req, e))?;
    old.offer_rematch(&entry.id);
    Ok(with_cookie(
        Redirect::to(&table_href(&entry.id)).into_response(),
        &entry.id,
        &token,
    ))
}
