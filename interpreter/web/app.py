"""The web app (Starlette, served by uvicorn): pages, a JSON API and one websocket per open page.

Pages are static files with no game data in them; a page learns everything through its websocket
(live.py) or the API below, and every game message is built by `Table.payload` for the one audience
the page's token may see (see tables.py).

    sock = bind("127.0.0.1", 8000); uvicorn_server(files, sock).run(sockets=[sock])
"""

from __future__ import annotations

import asyncio
import json
import socket
import threading
from pathlib import Path
from typing import Any

from meeple.errors import MeepleError, Problem, UsageError
from meeple.web.designer import has_matplotlib, run_compare
from meeple.web.live import Server, off_loop
from meeple.web.lobby import Lobby
from meeple.web.render import OMNISCIENT, ruleset_payload
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles

STATIC = Path(__file__).resolve().parent / "static"
POLL = 0.25  # seconds between two looks, while a comparison plays, at whether its page is still there


def problem_response(e: MeepleError, lobby: Lobby, status: int = 400) -> JSONResponse:
    """The first problem, located, as Lobby.problem words it: each file by its name in the lobby (an
    upload as the person who sent it knows it), never by its place on the server."""
    return JSONResponse(lobby.problem(e), status_code=status)


def create_app(files: list[str] | None = None, server: Server | None = None) -> Starlette:
    srv = server or Server(files)

    def page(name: str) -> Any:
        async def endpoint(request: Request) -> Response:
            return FileResponse(STATIC / name, headers={"Cache-Control": "no-store"})
        return endpoint

    async def lobby(request: Request) -> Response:
        return JSONResponse({**srv.lobby.listing(), "plots": has_matplotlib()})

    async def upload(request: Request) -> Response:
        body = await _body(request)
        try:
            return JSONResponse({"id": srv.lobby.upload(body.get("filename"), str(body.get("text", "")))})
        except MeepleError as e:
            return problem_response(e, srv.lobby)

    async def new_table(request: Request) -> Response:
        try:
            table = srv.lobby.new_table(srv.registry, await _body(request))
        except MeepleError as e:
            return problem_response(e, srv.lobby)
        srv.start(table)
        return JSONResponse({"host": f"/table/{table.host}",
                             "seats": [{"seat": i, "name": f"P{i + 1}", "link": f"/table/{t}"}
                                       for i, t in enumerate(table.tokens) if t]})

    async def open_save(request: Request) -> Response:
        body = await _body(request)
        try:
            table = srv.lobby.open_save(srv.registry, str(body.get("text", "")), body.get("ruleset"))
        except MeepleError as e:
            return problem_response(e, srv.lobby)
        srv.start(table)
        return JSONResponse({"replay": f"/replay/{table.host}"})

    async def replay(request: Request) -> Response:
        token = request.path_params["token"]
        table = srv.registry.by_token(token)
        if table is None:
            return JSONResponse({"error": "no such table"}, status_code=404)
        allowed = table.pickable(token)
        try:
            pov = int(request.query_params.get("pov", allowed[0]))
            step = int(request.query_params.get("step", table.replay_length()))
        except ValueError:
            return JSONResponse({"error": "pov and step are numbers"}, status_code=400)
        if pov not in allowed:
            return JSONResponse({"error": "this link may not show that point of view"}, status_code=403)
        try:  # every step of the game: a refused one (or a rules error replaying it) is a 400, never a 500
            game = table.at_step(step)
            out = {"length": table.replay_length(), "payload": table.payload(pov, game, povs=allowed)}
            if pov == OMNISCIENT:  # another seat's label may name what it chose in secret, or a dealt card
                out["move"] = table.move_text(step)
        except MeepleError as e:
            return problem_response(e, srv.lobby)
        return JSONResponse(out)

    async def ruleset(request: Request) -> Response:
        table = srv.registry.by_token(request.path_params["token"])
        if table is None:
            return JSONResponse({"error": "no such table"}, status_code=404)
        return JSONResponse(ruleset_payload(table.rs))

    async def save(request: Request) -> Response:
        token = request.path_params["token"]
        table = srv.registry.by_token(token)
        if table is None:  # found by QA: a 403, where the replay and the ruleset say 404 for the same token
            return JSONResponse({"error": "no such table"}, status_code=404)
        if OMNISCIENT not in table.allowed(token):
            return JSONResponse({"error": "a save holds every secret: it is offered once the game is over"},
                                status_code=403)
        return Response(table.game.dumps(), media_type="application/json",
                        headers={"Content-Disposition": 'attachment; filename="meeple-save.json"'})

    async def designer(request: Request) -> Response:
        """A comparison, played in a daemon thread (live.off_loop) that ends after the game in play once
        the page has gone or the server stops (found by QA: one in the event loop's pool kept `meeple
        serve` from stopping on Ctrl-C, and went on playing after the page had gone)."""
        body = await _body(request)
        stop = threading.Event()

        def work() -> dict[str, Any] | None:
            try:
                return run_compare(srv.lobby, body, stop.is_set)
            except KeyboardInterrupt:  # stopped (backends.Interrupted): nobody waits for the report
                return None

        job = asyncio.ensure_future(off_loop(work, "compare"))
        try:
            while not (await asyncio.wait({job}, timeout=POLL))[0]:
                if srv.closing.is_set() or await request.is_disconnected():
                    stop.set()
                    job.cancel()
                    return JSONResponse({"error": "the comparison was stopped: the server is stopping",  # (or nobody waits)
                                         "hint": None}, status_code=503)
            return JSONResponse(job.result())
        except MeepleError as e:
            return problem_response(e, srv.lobby)
        finally:
            stop.set()  # however the request ends (its task cancelled too), its games end

    routes = [
        Route("/", page("lobby.html")),
        Route("/table/{token}", page("table.html")),
        Route("/replay/{token}", page("replay.html")),
        Route("/designer", page("designer.html")),
        Route("/api/lobby", lobby),
        Route("/api/upload", upload, methods=["POST"]),
        Route("/api/tables", new_table, methods=["POST"]),
        Route("/api/saves", open_save, methods=["POST"]),
        Route("/api/replay/{token}", replay),
        Route("/api/ruleset/{token}", ruleset),
        Route("/api/save/{token}", save),
        Route("/api/compare", designer, methods=["POST"]),
        WebSocketRoute("/ws/{token}", srv.socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, exception_handlers={BadBody: _bad_body})
    app.state.server = srv
    return app


class BadBody(Exception):
    """A request whose body is not the JSON object the API takes."""


async def _body(request: Request) -> dict[str, Any]:
    try:
        body = await request.json()
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise BadBody("the request body is not JSON") from None
    except RecursionError:  # JSON nested deeper than Python parses: refused, not a 500 with a traceback
        raise BadBody("the request is nested too deeply") from None
    if not isinstance(body, dict):
        raise BadBody("the request body must be a JSON object of named fields")
    return body


async def _bad_body(request: Request, exc: Exception) -> Response:
    return JSONResponse({"error": str(exc), "code": "B001", "hint": None, "problems": [str(exc)]}, status_code=400)


def bind(host: str = "127.0.0.1", port: int = 8000) -> socket.socket:
    """The listening socket, bound before the server starts so that port 0 (any free port) can be
    printed and tests can start servers without racing for a port. Refusals are usage errors."""
    try:
        sock = socket.create_server((host, port), reuse_port=False)
    except OSError as e:
        raise UsageError(Problem("B030", f"cannot listen on {host}:{port}: {e.strerror or e}",
                                 hint="pick another --port")) from None
    return sock


def uvicorn_server(files: list[str] | None, sock: socket.socket, server: Server | None = None) -> Any:
    import uvicorn

    class Stopping(uvicorn.Server):
        async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
            srv.closing.set()  # a comparison in play ends, instead of holding up the stop (Ctrl-C)
            await super().shutdown(sockets)

    host, port = sock.getsockname()[:2]
    app = create_app(files, server)
    srv: Server = app.state.server
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", ws="websockets-sansio", lifespan="off")
    return Stopping(config)
