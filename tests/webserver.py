"""A real `meeple serve` server for tests: uvicorn on 127.0.0.1, any free port, in a thread of the test
process (so tests can also seat prepared games at it), and raw HTTP and websocket clients."""

import json
import logging
import threading
import time
import urllib.error
import urllib.request

from meeple.web.app import bind, uvicorn_server
from meeple.web.live import Server
from meeple.web.tables import Seat, Table
from websockets.sync.client import connect

# Never through a proxy: the server is on loopback.
OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


class Collect(logging.Handler):
    def __init__(self, into):
        super().__init__(logging.ERROR)
        self.into = into

    def emit(self, record):
        self.into.append(record)


class Running:
    def __init__(self, files=None):
        self.server = Server(files)
        self.sock = bind("127.0.0.1", 0)
        self.port = self.sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.uvicorn = uvicorn_server(files, self.sock, self.server)
        # What the server logs as an error (a traceback among them): Rule 5 wants none, whatever is sent.
        self.errors: list[logging.LogRecord] = []
        self._log = Collect(self.errors)
        logging.getLogger("uvicorn.error").addHandler(self._log)
        self.thread = threading.Thread(target=self.uvicorn.run, kwargs={"sockets": [self.sock]}, daemon=True)
        self.thread.start()
        for _ in range(200):  # wait until it answers (not a timing assertion: it just has to come up)
            if self.uvicorn.started:
                break
            time.sleep(0.05)

    def stop(self):
        self.uvicorn.should_exit = True
        self.thread.join(10)
        self.sock.close()
        logging.getLogger("uvicorn.error").removeHandler(self._log)

    def tracebacks(self):
        """The errors the server logged since the last call, as text; and forgets them."""
        out = [r.getMessage() + (f" {r.exc_info[0].__name__}: {r.exc_info[1]}" if r.exc_info else "")
               for r in self.errors]
        self.errors.clear()
        return out

    # ------------------------------------------------------------ raw clients
    def get(self, path):
        """(status, body bytes) of a GET."""
        try:
            with OPENER.open(self.url + path) as r:
                return r.status, r.read()
        except urllib.error.HTTPError as e:
            return e.code, e.read()

    def post(self, path, data):
        return self.post_raw(path, json.dumps(data).encode())

    def post_raw(self, path, raw: bytes):
        """(status, parsed JSON reply) of a POST of these bytes as JSON."""
        req = urllib.request.Request(self.url + path, raw, {"Content-Type": "application/json"})
        try:
            with OPENER.open(req) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read())

    def socket(self, token):
        return connect(f"ws://127.0.0.1:{self.port}/ws/{token}", open_timeout=10, close_timeout=2)

    def first_messages(self, token, n=2):
        """The raw text of the first n messages a page with this token receives."""
        with self.socket(token) as ws:
            return [ws.recv(timeout=10) for _ in range(n)]

    def seat_game(self, rs, game, people=True):
        """Seat a prepared game at the server, every seat a person (so nothing moves by itself)."""
        seats = [Seat("person") for _ in range(game.state.nplayers)]
        table = Table(self.server.registry.new_id(), rs, rs.name, game, seats)
        self.server.registry.add(table)
        self.server.conns.setdefault(table.id, [])
        return table
