"""The pages in headless Chromium, for what a page itself refuses or says: an empty number box, a wrong
link, the host's link in the lobby, the end screen in a laptop's window. Fixtures and the browser
as in test_web_browser.py (skipped without Chromium)."""

import pytest

pytest.importorskip("starlette")
pytest.importorskip("playwright.sync_api", reason="Playwright is not installed: pip install playwright")

from tests.test_web_browser import start_from_lobby


def test_an_empty_number_box_is_refused_not_read_as_the_smallest_number(page, web):
    """Bug: Number("") is 0, so an emptied box sent the smallest bid."""
    start_from_lobby(page, web, "camel_up_off_season", 3, ["person", "bot", "bot"], speed="0")
    box = page.locator("input.range")
    box.wait_for()
    page.wait_for_selector("button.range-go:not([disabled])")
    box.fill("")
    page.click("button.range-go")
    assert "whole number" in box.evaluate("(i) => i.validationMessage")
    assert "sent" not in page.evaluate("() => ({...document.body.dataset})")  # nothing was sent
    box.fill(box.get_attribute("max"))  # a valid number goes, with no stale complaint
    page.click("button.range-go")
    assert box.evaluate("(i) => i.validationMessage") == ""
    page.wait_for_function("document.body.dataset.sent !== undefined")


def test_a_wrong_table_link_says_so_in_place_of_the_table(page, web):
    """Bug: the page went on saying "Loading…" and "disconnected (reload to reconnect)"."""
    page.goto(web.url + "/table/nope")
    page.wait_for_selector("#root >> text=no such table")
    page.wait_for_timeout(300)  # the server closes the socket right after saying so
    assert "Loading" not in page.inner_text("#root")
    assert "disconnected" not in page.inner_text("#conn")


def test_one_person_against_bots_keeps_the_spectators_link(page, web):
    """Bug: with one person seat the lobby went straight to the seat's page and the spectators' (host)
    link was lost."""
    start_from_lobby(page, web, "merchants", 2, ["person", "bot"])
    page.wait_for_selector("section.seat.you[data-seat='0']")
    link = page.locator("#spectator-link")
    assert link.is_visible()
    href = link.get_attribute("href")
    assert href.startswith("/table/") and href not in page.url
    page.goto(web.url + href)
    page.wait_for_selector("section.seat")
    assert page.locator("section.seat.you").count() == 0  # the public view


@pytest.mark.parametrize("viewport", [1280, 800])
def test_the_end_screen_fits_the_window(page, web, viewport):
    """Bug: Demoludy's end screen (its tie-break columns) made the page 1357 px wide in a 1280 px window,
    the results off-screen; and the header still named the last phase after "Game over"."""
    page.set_viewport_size({"width": viewport, "height": 900})
    start_from_lobby(page, web, "demoludy", 3, ["bot", "bot", "bot"])
    page.wait_for_function("document.body && document.body.dataset.over === 'true'", timeout=120_000)
    page.wait_for_selector(".results table.scores")
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport
    assert "phase" not in page.inner_text("header.tablehead h2")


def test_the_lobby_lists_command_line_files_by_their_names(page, tmp_path):
    """Bug: a file given to `meeple serve` was listed (and chosen) by its path on the server."""
    from tests.support import PICK
    from tests.webserver import Running

    (tmp_path / "operator-folder").mkdir()
    (tmp_path / "operator-folder" / "pick.yaml").write_text(PICK)
    web = Running([str(tmp_path / "operator-folder" / "pick.yaml"), "merchants"])
    try:
        page.goto(web.url + "/")
        page.wait_for_selector("#ruleset option", state="attached")
        html = page.content()
        assert [x for x in [*tmp_path.parts[1:], "operator-folder"] if len(x) > 3 and x in html] == []
        # In "Your files", by its file name; a bundled game named on the command line stays among the games.
        groups = page.eval_on_selector_all("#ruleset optgroup", "gs => gs.map((g) => [g.label, [...g.children].map((o) => o.value)])")
        assert groups[0] == ["Your files", ["pick.yaml"]] and "merchants" in groups[1][1], groups
        assert page.input_value("#ruleset") == "pick.yaml" and page.input_value("#players") in ("1", "2", "3")
        page.click("#create")  # one person, bots in the other seats: straight to the person's seat
        page.wait_for_url("**/table/**")
        page.wait_for_selector("text=Take 3")
        assert [x for x in [*tmp_path.parts[1:], "operator-folder"] if len(x) > 3 and x in page.content()] == []
    finally:
        web.stop()
