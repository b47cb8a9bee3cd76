"""The web app (Starlette, served by uvicorn): pages, a JSON API and one websocket per open page.

Pages are static files with no game data in them; a page learns everything through its websocket or
the API, and every game message is built by `Table.payload` for the one audience the page's token may
see (see tables.py). Bots move in one task per table, at the table's speed.

    sock = bind("127.0.0.1", 8000); uvicorn_server(files, sock).run(sockets=[sock])
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from meeple.errors import MeepleError, Problem, UsageError
from meeple.web.designer import has_matplotlib, run_compare
from meeple.web.lobby import Lobby
from meeple.web.render import OMNISCIENT, PUBLIC, ruleset_payload
from meeple.web.tables import Registry, Table
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

STATIC = Path(__file__).resolve().parent / "static"


def dumps(x: Any) -> str:
    """One serialisation for every message, so that equal payloads are equal bytes."""
    return json.dumps(x, separators=(",", ":"), ensure_ascii=False)


def problem_response(e: MeepleError, status: int = 400) -> JSONResponse:
    p = e.problems[0]
    where = f"{p.span.file}:{p.span.line}:{p.span.col}: " if p.span else ""
    return JSONResponse({"error": where + p.message, "hint": p.hint,
                         "problems": [q.message for q in e.problems]}, status_code=status)


@dataclass(eq=False)
class Conn:
    ws: WebSocket
    token: str
    pov: int | None  # the audience this page is shown; None while a hot-seat hand-over hides the table


class Server:
    def __init__(self, files: list[str] | None = None) -> None:
        self.lobby = Lobby(files)
        self.registry = Registry()
        self.conns: dict[str, list[Conn]] = {}
        self.wake: dict[str, asyncio.Event] = {}
        self.tasks: dict[str, asyncio.Task] = {}

    # ------------------------------------------------------------ messages
    def message(self, table: Table, conn: Conn) -> dict[str, Any]:
        nxt = table.hotseat_next()
        if conn.token == table.host and table.hotseat and nxt is not None and conn.pov != nxt:
            conn.pov = None  # a new person decides: hide the table until they say they sit at the screen
        if conn.pov is None:
            return {"type": "handover", "to": nxt, "name": f"P{nxt + 1}"} if nxt is not None \
                else self._state(table, conn, PUBLIC)
        if conn.pov not in table.allowed(conn.token):
            conn.pov = table.allowed(conn.token)[0]
        return self._state(table, conn, conn.pov)

    def _state(self, table: Table, conn: Conn, pov: int) -> dict[str, Any]:
        conn.pov = pov
        return table.payload(pov, povs=table.allowed(conn.token))

    async def broadcast(self, table: Table) -> None:
        for conn in list(self.conns.get(table.id, [])):
            with contextlib.suppress(Exception):  # a closed page is dropped by its own handler
                await conn.ws.send_text(dumps(self.message(table, conn)))

    async def run_bots(self, table: Table) -> None:
        """Bots move while it is their turn; then the task sleeps until a person moves or the host
        changes the speed. Bots-only tables move at the chosen speed; others after a short pause."""
        wake = self.wake[table.id]
        while not table.game.is_over:
            if table.bot_turn() and not table.paused:
                if table.speed:
                    await asyncio.sleep(table.speed)
                if table.paused or not table.bot_turn():
                    continue
                try:
                    table.play_bot(table.bot_turn()[0])
                except MeepleError as e:
                    await self.error_all(table, e.problems[0].message)
                    return
                await self.broadcast(table)
                continue
            await wake.wait()
            wake.clear()

    async def error_all(self, table: Table, message: str) -> None:
        for conn in list(self.conns.get(table.id, [])):
            with contextlib.suppress(Exception):
                await conn.ws.send_text(dumps({"type": "error", "message": message}))

    def start(self, table: Table) -> None:
        """Serve a table: from a request handler (in the server's event loop) when bots play it."""
        self.conns.setdefault(table.id, [])
        self.wake.setdefault(table.id, asyncio.Event())
        if table.bots and not table.replay_only:
            self.tasks[table.id] = asyncio.get_running_loop().create_task(self.run_bots(table))

    # ------------------------------------------------------------ websocket
    async def socket(self, ws: WebSocket) -> None:
        token = ws.path_params["token"]
        table = self.registry.by_token(token)
        await ws.accept()
        if table is None:
            await ws.send_text(dumps({"type": "error", "message": "no such table: the link is wrong or the "
                                                                  "server was restarted"}))
            await ws.close()
            return
        allowed = table.allowed(token)
        conn = Conn(ws, token, None if token == table.host and table.hotseat else allowed[0])
        self.conns[table.id].append(conn)
        try:
            await ws.send_text(dumps(ruleset_payload(table.rs)))
            await ws.send_text(dumps(self.message(table, conn)))
            while True:
                msg = json.loads(await ws.receive_text())
                if not isinstance(msg, dict):
                    msg = {}
                reply = self.handle(table, conn, msg)
                if reply is not None:  # refused: only this page hears why, and nothing changed
                    await ws.send_text(dumps(reply))
                elif msg.get("type") in ("act", "speed", "pause"):
                    self.wake[table.id].set()
                    await self.broadcast(table)
                else:
                    await ws.send_text(dumps(self.message(table, conn)))
        except json.JSONDecodeError:
            with contextlib.suppress(Exception):
                await ws.close(code=1003)  # not JSON: this is no page of ours
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            if conn in self.conns[table.id]:
                self.conns[table.id].remove(conn)

    def handle(self, table: Table, conn: Conn, msg: dict[str, Any]) -> dict[str, Any] | None:
        """One message from a page. Returns an error for that page alone, or None."""
        kind = msg.get("type")
        if kind == "act":
            seat = conn.pov
            if seat is None or seat < 0 or seat not in table.people or seat not in table.allowed(conn.token):
                return {"type": "error", "message": "you do not hold a seat that decides now"}
            try:
                table.act(seat, msg.get("step"), msg.get("index"))  # type: ignore[arg-type]
            except MeepleError as e:
                return {"type": "error", "message": e.problems[0].message}
            return None
        if kind == "ready" and conn.token == table.host and table.hotseat:
            if msg.get("seat") == table.hotseat_next():
                conn.pov = msg["seat"]
            return None
        if kind == "pov":
            pov = msg.get("pov")
            # A hot seat changes to a person's seat only through the hand-over, never at will.
            handover_only = conn.token == table.host and table.hotseat and not table.open_book()
            if pov not in table.allowed(conn.token) or (handover_only and pov != PUBLIC):
                return {"type": "error", "message": "this page may not show that point of view"}
            conn.pov = pov
            return None
        if kind in ("speed", "pause") and conn.token == table.host and not table.people:
            if kind == "pause":
                table.paused = bool(msg.get("paused"))
            elif isinstance(msg.get("speed"), (int, float)) and 0 <= msg["speed"] <= 60:
                table.speed = float(msg["speed"])
            return None
        return {"type": "error", "message": f"unknown request {kind!r}"}


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
            return JSONResponse({"id": srv.lobby.upload(str(body.get("filename", "")), str(body.get("text", "")))})
        except MeepleError as e:
            return problem_response(e)

    async def new_table(request: Request) -> Response:
        try:
            table = srv.lobby.new_table(srv.registry, await _body(request))
        except MeepleError as e:
            return problem_response(e)
        srv.start(table)
        return JSONResponse({"host": f"/table/{table.host}",
                             "seats": [{"seat": i, "name": f"P{i + 1}", "link": f"/table/{t}"}
                                       for i, t in enumerate(table.tokens) if t]})

    async def open_save(request: Request) -> Response:
        body = await _body(request)
        try:
            table = srv.lobby.open_save(srv.registry, str(body.get("text", "")), body.get("ruleset") or None)
        except MeepleError as e:
            return problem_response(e)
        srv.start(table)
        return JSONResponse({"replay": f"/replay/{table.host}"})

    async def replay(request: Request) -> Response:
        token = request.path_params["token"]
        table = srv.registry.by_token(token)
        if table is None:
            return JSONResponse({"error": "no such table"}, status_code=404)
        allowed = table.allowed(token)
        try:
            pov = int(request.query_params.get("pov", allowed[0]))
            step = int(request.query_params.get("step", table.replay_length()))
        except ValueError:
            return JSONResponse({"error": "pov and step are numbers"}, status_code=400)
        if pov not in allowed:
            return JSONResponse({"error": "this link may not show that point of view"}, status_code=403)
        try:
            game = table.at_step(step)
        except MeepleError as e:
            return problem_response(e)
        return JSONResponse({"length": table.replay_length(), "payload": table.payload(pov, game, povs=allowed)})

    async def ruleset(request: Request) -> Response:
        table = srv.registry.by_token(request.path_params["token"])
        if table is None:
            return JSONResponse({"error": "no such table"}, status_code=404)
        return JSONResponse(ruleset_payload(table.rs))

    async def save(request: Request) -> Response:
        token = request.path_params["token"]
        table = srv.registry.by_token(token)
        if table is None or OMNISCIENT not in table.allowed(token):
            return JSONResponse({"error": "a save holds every secret: it is offered once the game is over"},
                                status_code=403)
        return Response(table.game.dumps(), media_type="application/json",
                        headers={"Content-Disposition": 'attachment; filename="meeple-save.json"'})

    async def designer(request: Request) -> Response:
        body = await _body(request)
        try:
            return JSONResponse(await run_in_threadpool(run_compare, srv.lobby, body))
        except MeepleError as e:
            return problem_response(e)

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
    app = Starlette(routes=routes)
    app.state.server = srv
    return app


async def _body(request: Request) -> dict[str, Any]:
    try:
        body = await request.json()
    except (json.JSONDecodeError, UnicodeDecodeError):
        return {}
    return body if isinstance(body, dict) else {}


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

    host, port = sock.getsockname()[:2]
    config = uvicorn.Config(create_app(files, server), host=host, port=port, log_level="warning",
                            ws="websockets-sansio", lifespan="off")
    return uvicorn.Server(config)
