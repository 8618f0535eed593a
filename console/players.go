package console

import (
	"net/http"

	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/pgn"
	"github.com/boardd/boardd/trace"
)

// players names the players of the board's game, in its White and Black
// tags (the PGN, the names by the clocks): {"white": "Anna", "black":
// "Ben"}, either key alone, "" for unknown. A name is what the
// configuration's white and black keys take (pgn.CheckPlayerName); a bad
// one is answered 400 naming its key, and nothing is changed. Who may: the
// arbiter at any time, and, on a simulated board, the player at it (a host
// this console answers to), as for warn-only. A side played from off the
// board (an engine) keeps its player's name: renaming it is answered 409.
// Each name changed goes to the game as an arbiter line
// (game.ActionNameWhite, ActionNameBlack), so the journal keeps it.
func (s *Server) players(w http.ResponseWriter, r *http.Request, h *hub) {
	who, ok := s.arbiterOrPlayerAtSimulated(w, r, h, "only its arbiter names the players")
	if !ok {
		return
	}
	obj, ok := readObject(w, r, "players", "white", "black")
	if !ok {
		return
	}
	if len(obj) == 0 {
		writeError(w, http.StatusBadRequest, "players: no name given: want white, black or both")
		return
	}
	sides := []struct{ key, action string }{{"white", game.ActionNameWhite}, {"black", game.ActionNameBlack}}
	for _, sd := range sides {
		if name, ok := obj[sd.key]; ok {
			if err := pgn.CheckPlayerName(name); err != nil {
				writeError(w, http.StatusBadRequest, "players: %s: %q: %v", sd.key, name, err)
				return
			}
		}
	}
	st, err := s.boardState(r, h)
	if err != nil {
		writeSubmitError(w, err)
		return
	}
	now := map[string]string{"white": st.Players.White, "black": st.Players.Black}
	remote := map[string]bool{}
	if st.Remote != nil {
		remote["white"], remote["black"] = st.Remote.White, st.Remote.Black
	}
	for _, sd := range sides {
		// All or nothing: a side played from off the board refuses its
		// new name before the other side's is changed.
		if name, ok := obj[sd.key]; ok && name != now[sd.key] && remote[sd.key] {
			writeError(w, http.StatusConflict, "players: %s: %s is played from off the board, by %q, who keeps that name", sd.key, sd.key, now[sd.key])
			return
		}
	}
	for _, sd := range sides {
		name, ok := obj[sd.key]
		if !ok || name == now[sd.key] {
			continue // unchanged: nothing to journal
		}
		s.log.Info("player named", "board", h.b.ID(), "side", sd.key, "name", name, "as", map[role]string{arbiterRole: "arbiter", spectator: "player"}[who], "from", r.RemoteAddr)
		if err := h.b.Submit(r.Context(), trace.Line{Kind: trace.Arbiter, Action: sd.action, Value: name, Side: trace.SideArbiter}); err != nil {
			writeSubmitError(w, err)
			return
		}
	}
	h.poke()
	writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
}
