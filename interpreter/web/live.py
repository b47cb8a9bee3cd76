"""Live tables: one websocket per open page, the messages each page is sent, and the bots' moves.

A page's token decides the audiences it may be shown (tables.Table.allowed); every game message is
built by `Table.payload` for the page's current audience, and a refused request is answered to that
page alone. Bots move in one task per table, at the table's speed. A rules error that stops a game (in a
move, in a bot's thinking, or drawing a page) is told to every page of the table, located (`announce`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from meeple.errors import MeepleError
from meeple.runtime.game import Game
from meeple.tools.agents import Agent
from meeple.web.lobby import Lobby
from meeple.web.render import PUBLIC, ruleset_payload
from meeple.web.tables import Registry, Table
from starlette.websockets import WebSocket, WebSocketDisconnect

T = TypeVar("T")


def dumps(x: Any) -> str:
    """One serialisation for every message, so that equal payloads are equal bytes."""
    return json.dumps(x, separators=(",", ":"), ensure_ascii=False)


async def think(bot: Agent, game: Game, seat: int) -> int:
    """The bot's choice on `game`, worked out in a thread of its own so that the server goes on meanwhile
    (it only ever reads its copy of the game)."""
    return await off_loop(lambda: bot.choose(game, seat), f"bot P{seat + 1}")


async def off_loop(work: Callable[[], T], name: str) -> T:
    """`work()`, done in a thread of its own while the server goes on. A daemon thread, not the event
    loop's pool: a server stopped with Ctrl-C does not wait for it to finish (a bot with a large budget,
    a comparison's game). A caller that stops waiting cancels the awaiting task: the result is dropped."""
    loop = asyncio.get_running_loop()
    done: asyncio.Future[T] = loop.create_future()

    def settle(value: Any, error: BaseException | None) -> None:
        if done.done():  # the awaiting task was cancelled meanwhile
            return
        if error is not None:
            done.set_exception(error)
        else:
            done.set_result(value)

    def run() -> None:
        value, error = None, None
        try:
            value = work()
        except BaseException as e:  # noqa: BLE001 - handed to the awaiting task, which reports it
            error = e
        with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits any more
            loop.call_soon_threadsafe(settle, value, error)

    threading.Thread(target=run, name=name, daemon=True).start()
    return await done


class NotOurs(Exception):
    """A websocket frame no page of ours sends: binary, or text that is not JSON."""


async def _receive(ws: WebSocket) -> Any:
    """The next message of a page, parsed from its JSON text."""
    message = await ws.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    text = message.get("text")
    if text is None:
        raise NotOurs
    try:
        return json.loads(text)
    except (ValueError, RecursionError):  # RecursionError: JSON nested deeper than Python parses
        raise NotOurs from None


def _whole(x: Any) -> bool:
    """A point of view or a seat is a whole number, not a float or a boolean that equals one."""
    return type(x) is int


@dataclass(eq=False)
class Conn:
    ws: WebSocket
    token: str
    pov: int | None  # the audience this page is shown; None while a hot-seat hand-over hides the table


class Server:
    """The lobby, the tables and their pages."""

    def __init__(self, files: list[str] | None = None) -> None:
        self.lobby = Lobby(files)
        self.registry = Registry()
        self.conns: dict[str, list[Conn]] = {}
        self.wake: dict[str, asyncio.Event] = {}
        self.tasks: dict[str, asyncio.Task] = {}
        # Set when the server begins to stop (app.uvicorn_server): work that a request waits for (a
        # comparison) ends, rather than hold up the stop.
        self.closing = threading.Event()

    # ------------------------------------------------------------ messages
    def message(self, table: Table, conn: Conn) -> dict[str, Any]:
        """What the page is sent now. A rules error drawing it (a label that fails) stops the game and
        is the page's message (found by QA: it was raised out of the handler, which dropped the socket
        with a traceback in the server's log); the caller then tells every page (`broadcast`)."""
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
        try:
            out = table.payload(pov, povs=table.pickable(conn.token))
        except MeepleError as e:
            table.stop(e)
            return self.stopped(table)
        if table.failure is not None:  # the page shows why the game stopped, and offers no move
            out["table"]["stopped"] = self.stopped(table)["message"]
        return out

    def stopped(self, table: Table) -> dict[str, Any]:
        """The rules error that stopped the game, located as every reply locates one (`FILE:LINE:COL:
        message`, an upload by the name it was sent with, never by its place on the server)."""
        assert table.failure is not None
        return {"type": "error", "message": self.lobby.problem(table.failure)["error"]}

    async def broadcast(self, table: Table, conns: list[Conn] | None = None) -> None:
        """Send pages (by default every page of the table) their message; if drawing one stopped the game,
        every page is told instead (`announce`)."""
        running = table.failure is None
        conns = list(self.conns.get(table.id, [])) if conns is None else conns
        texts = [dumps(self.message(table, conn)) for conn in conns]
        if running and table.failure is not None:  # drawing a page stopped the game
            await self.announce(table)
            return
        for conn, text in zip(conns, texts):
            with contextlib.suppress(Exception):  # a closed page is dropped by its own handler
                await conn.ws.send_text(text)

    async def announce(self, table: Table) -> None:
        """A rules error stopped the game: every page is sent the game as it stands (without the move the
        rules failed on), and the error, located; the table's bots stop."""
        error = self.stopped(table)
        for conn in list(self.conns.get(table.id, [])):
            msg = self.message(table, conn)
            with contextlib.suppress(Exception):  # a closed page is dropped by its own handler
                await conn.ws.send_text(dumps(msg))
                if msg["type"] != "error":
                    await conn.ws.send_text(dumps(error))
        if table.id in self.wake:
            self.wake[table.id].set()

    async def run_bots(self, table: Table) -> None:
        """Bots move while it is their turn; then the task sleeps until a person moves or the host
        changes the speed. Bots-only tables move at the chosen speed; others after a short pause."""
        wake = self.wake[table.id]
        while not table.game.is_over and table.failure is None:
            if table.bot_turn() and not table.paused:
                # Even at full speed, let the server answer other pages between two bot moves.
                await asyncio.sleep(table.speed)
                if table.paused or not table.bot_turn():
                    continue
                seat = table.bot_turn()[0]
                step, seen = len(table.game.state.actions), table.game.copy()
                try:
                    # The bot thinks on a copy in a thread of its own (the best bot takes a second a move),
                    # so that the server goes on answering pages and other tables meanwhile.
                    index = await think(table.bots[seat], seen, seat)
                    played = table.play_bot(seat, index, step, seen)
                except MeepleError as e:  # the bot's move (left unplayed) or its search on the copy
                    table.stop(e)
                    await self.announce(table)
                    return
                if played:
                    await self.broadcast(table)
                continue
            await wake.wait()
            wake.clear()

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
            # final: the page says so in place of the table, not as a connection problem
            await ws.send_text(dumps({"type": "error", "final": True,
                                      "message": "no such table: the link is wrong or the server was restarted"}))
            await ws.close()
            return
        allowed = table.allowed(token)
        conn = Conn(ws, token, None if token == table.host and table.hotseat else allowed[0])
        self.conns[table.id].append(conn)
        try:
            await ws.send_text(dumps(ruleset_payload(table.rs)))
            await self.broadcast(table, [conn])
            while True:
                msg = await _receive(ws)
                if not isinstance(msg, dict):
                    msg = {}
                running = table.failure is None
                reply = self.handle(table, conn, msg)
                if running and table.failure is not None:  # a rules error in the move stopped the game
                    await self.announce(table)
                elif reply is not None:  # refused: only this page hears why, and nothing changed
                    await ws.send_text(dumps(reply))
                elif msg.get("type") in ("act", "speed", "pause"):
                    self.wake[table.id].set()
                    await self.broadcast(table)
                else:
                    await self.broadcast(table, [conn])
        except NotOurs:
            with contextlib.suppress(Exception):
                await ws.close(code=1003)  # a binary frame, or text that is not JSON: this is no page of ours
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
            if table.failure is not None:  # the page hears why no move is played any more
                return self.stopped(table)
            try:
                table.act(seat, msg.get("step"), msg.get("index"))  # type: ignore[arg-type]
            except MeepleError as e:  # refused; or a rules error, which stopped the game (Table.stop)
                return {"type": "error", "message": self.lobby.shown(e.problems[0].message)}
            return None
        if kind == "ready" and conn.token == table.host and table.hotseat:
            nxt = table.hotseat_next()
            if _whole(msg.get("seat")) and msg["seat"] == nxt:
                conn.pov = nxt
            return None
        if kind == "pov":
            pov = msg.get("pov")
            # A hot seat changes to a person's seat only through the hand-over, never at will.
            if not _whole(pov) or pov not in table.pickable(conn.token):
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
