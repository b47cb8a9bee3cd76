"""`meeple serve [RULESET...]`: the browser front end on this machine (needs the `web` extra).

The app itself is interpreter/web/; this command checks the extra is installed, binds the socket (so that
`--port 0` can print the port it got), prints the address and runs until Ctrl-C.
"""

from __future__ import annotations

import click
from meeple.cli.common import usage

LOOPBACK = ("127.0.0.1", "localhost", "::1")


@click.command()
@click.argument("rulesets", nargs=-1)
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on. The default is reachable only from this machine.")
@click.option("--port", "-p", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="Port to listen on (0: any free port).")
def serve(rulesets: tuple[str, ...], host: str, port: int) -> None:
    """Play, watch and replay games in a browser, and compare variants.

    RULESETS (paths or bundled names) are offered first in the lobby; the bundled games always are."""
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        raise usage("`meeple serve` needs the web extra, which is not installed",
                    "install it with: pip install 'meeple[web]'", code="U040") from None
    from meeple.web.app import bind, uvicorn_server

    for r in rulesets:  # a broken file is reported before anything listens
        from meeple.cli.common import load

        load(r)
    sock = bind(host, port)
    server = uvicorn_server(list(rulesets), sock)  # the lobby offers the files by their names (web/lobby.py)
    where = sock.getsockname()
    shown = f"[{where[0]}]" if ":" in where[0] else where[0]
    click.echo(f"Meeple is serving on http://{shown}:{where[1]}/  (Ctrl-C to stop)")
    if host not in LOOPBACK:
        click.echo("warning: listening beyond this machine; anyone who can reach it can open the lobby", err=True)
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    finally:
        sock.close()
