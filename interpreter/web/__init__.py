"""The browser front end (`meeple serve`): lobby, table, hot-seat, watch, replay and designer pages.

Needs the `web` extra (Starlette, uvicorn). `import meeple` never imports this package; the command
line imports it only when `meeple serve` runs. Every message a page receives is built per audience by
`tables.Table.payload` on top of `render.seat_payload`.
"""
