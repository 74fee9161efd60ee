// The Link game's HTTP API (/api/link/...): bundled boards, generate, connect, hint, moves,
// shuffle, solve and play. Stateless: every request carries the board (pathlab/json/link.hpp's
// board object) and every answer that changes it carries the new one, so the page keeps the game.
#pragma once

#include "server.hpp"

namespace httplib {
class Server;
}

namespace pathlab::server {

/// Adds the /api/link routes. Errors are ApiErrors (http.hpp): 400 for a malformed
/// request, 413 for a board over the size limit, 422 for a well-formed one the game refuses
/// (a cell outside the board, the same cell twice, tiles that do not connect for /play).
void link_routes(httplib::Server& svr, const Config& config);

}  // namespace pathlab::server
