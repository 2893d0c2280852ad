"""A host plays on a custom sheet from the browser, against a real `rajas serve` in headless Chromium: a sheet
file is picked when the room is created (and in the lobby), the lobby names it, the host can still change the
other settings (also after a reload), and the game draws that sheet for everyone. A file that is not JSON is
stopped in the page; a sheet the server refuses shows the server's message, naming the field. Neither
creates a room nor changes one."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_helpers import ARTIFACTS, ROOT, app, real_errors, wait_app

MOON = ROOT / "games" / "dice_charmers" / "engine" / "sheets" / "moon.json"
NAME, TITLE = "moon-test", "Moon Test Sheet"
KARMA_SPACES = 8  # Sun and Moon have 6: the drawn sheet shows whose file it is


def custom_sheet() -> dict[str, Any]:
    sheet: dict[str, Any] = json.loads(MOON.read_text())
    sheet["name"], sheet["title"] = NAME, TITLE
    sheet["karma"]["spaces"] = KARMA_SPACES
    return sheet


@pytest.fixture()
def files(tmp_path: Path) -> dict[str, Path]:
    good = tmp_path / "moon-test.json"
    good.write_text(json.dumps(custom_sheet(), indent=2))
    broken = tmp_path / "broken.json"
    broken.write_text('{"name": "moon-test", "title": ')
    refused = custom_sheet()
    del refused["karma"]
    bad = tmp_path / "no-karma.json"
    bad.write_text(json.dumps(refused))
    listed = tmp_path / "list.json"
    listed.write_text("[1, 2, 3]")
    return {"good": good, "broken": broken, "refused": bad, "list": listed}


@pytest.fixture()
def pages(browser: Any) -> Iterator[list[Any]]:
    """Pages on demand, each in its own context (its own localStorage: another person)."""
    made: list[Any] = []

    def make() -> Any:
        viewport = {"width": 1200, "height": 900}
        context = browser.new_context(viewport=viewport, device_scale_factor=1, reduced_motion="reduce")
        page = context.new_page()
        page.errors = []
        page.on("pageerror", lambda e: page.errors.append(str(e)))
        page.on("console", lambda m: page.errors.append(m.text) if m.type == "error" else None)
        page.set_default_timeout(15_000)
        made.append(page)
        return page

    holder: list[Any] = [make]
    try:
        yield holder
    finally:
        for p in made:
            p.context.close()


def new_page(pages: list[Any]) -> Any:
    return pages[0]()


def sheets_left_out(server: str) -> float:
    """How many snapshots the server sent without the sheet, the client holding it (/metrics)."""
    with urllib.request.urlopen(f"{server}/metrics", timeout=5) as r:
        for line in r.read().decode().splitlines():
            if line.startswith("rajas_snapshot_sheets_skipped_total "):
                return float(line.split()[1])
    return 0.0


def room_info(server: str, code: str) -> dict[str, Any]:
    with urllib.request.urlopen(f"{server}/api/rooms/{code}", timeout=5) as r:
        data: dict[str, Any] = json.loads(r.read())
    return data


def open_home(page: Any, server: str, lang: str = "en") -> None:
    page.goto(f"{server}/?lang={lang}")
    page.wait_for_selector("[data-screen=home]")
    wait_app(page, "a.conn === 'online'")


def create(page: Any, name: str = "Anna", seats: str = "2") -> str:
    page.fill("[data-field=create-name]", name)
    page.select_option("[data-field=seats]", seats)
    page.click("[data-action=create]")
    page.wait_for_selector("[data-screen=lobby]")
    wait_app(page, "a.role === 'player' && a.seat === 0 && a.sheetFresh")
    code: str = app(page)["code"]
    return code


def join(page: Any, server: str, code: str, name: str = "Ben") -> None:
    page.goto(f"{server}/?room={code}&lang=en")
    page.wait_for_selector("[data-form=seat]")
    page.fill("[data-field=seat-name]", name)
    page.click("[data-action=take-seat]")
    page.wait_for_selector("[data-screen=lobby]")
    wait_app(page, "a.role === 'player' && a.seat === 1")


def status(page: Any) -> str:
    text: str = page.locator("[data-sheet-file] .sheet-status").inner_text()
    return text


def start_and_count_karma(host: Any, guest: Any) -> None:
    host.click("[data-action=start]")
    for p in (host, guest):
        wait_app(p, "a.screen === 'game' && a.status === 'playing'")
        wait_app(p, f"a.sheetName === '{NAME}'")
        p.wait_for_selector(".big-sheet svg.sheet")
        assert p.locator(".big-sheet svg.sheet .karma-space").count() == KARMA_SPACES
        assert p.locator(".others-grid svg.sheet .karma-space").count() == KARMA_SPACES


def test_a_host_creates_a_room_on_a_custom_sheet_file_and_plays_on_it(
    server: str, pages: list[Any], files: dict[str, Path]
) -> None:
    host, guest = new_page(pages), new_page(pages)
    open_home(host, server)
    assert host.locator("[data-sheet-file]").is_hidden()
    host.select_option("[data-field=sheet]", "file")
    assert host.locator("[data-sheet-file]").is_visible()
    # the host picks the file in the browser's file chooser
    with host.expect_file_chooser() as chooser:
        host.click("[data-field=sheet-file]")
    assert not chooser.value.is_multiple()
    chooser.value.set_files(str(files["good"]))
    host.wait_for_selector("[data-sheet-file] .sheet-status[data-status=ok]")
    assert TITLE in status(host) and "moon-test.json" in status(host)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    host.locator("[data-form=create]").screenshot(path=str(ARTIFACTS / "web-custom-sheet-create.png"))
    code = create(host)
    assert room_info(server, code)["settings"]["sheet"] == {"custom": NAME}
    assert app(host)["sheetName"] == NAME

    # the lobby names it; the host's editor keeps it chosen
    sheet_select = host.locator("[data-setting-input=sheet]")
    assert sheet_select.input_value() == "custom"
    assert TITLE in sheet_select.locator("option:checked").inner_text()
    join(guest, server, code)
    guest.wait_for_selector(f"[data-setting=sheet][data-sheet-name='{NAME}']:has-text('{TITLE}')")

    # the host changes other settings: the room stays on the custom sheet
    host.select_option("[data-setting-input=turn_clock]", "60")
    guest.wait_for_selector("[data-setting=turn_clock]:has-text('1 min')")
    assert room_info(server, code)["settings"]["sheet"] == {"custom": NAME}

    # after a reload the page has no file, but the room's snapshot brings the sheet: the editor still works
    left_out = sheets_left_out(server)
    host.reload()
    host.wait_for_selector("[data-screen=lobby] [data-form=settings]")
    wait_app(host, "a.sheetFresh")
    # the page kept the room's sheet by its digest (sessionStorage), so the reload's snapshot came without it
    assert host.evaluate("JSON.parse(sessionStorage.getItem('rajas.sheet')).sheet.name") == NAME
    assert sheets_left_out(server) > left_out
    assert host.locator("[data-setting-input=sheet]").input_value() == "custom"
    host.uncheck("[data-setting-input=spectators]")
    guest.wait_for_selector("[data-setting=spectators]:has-text('✗')")
    info = room_info(server, code)
    assert info["settings"]["sheet"] == {"custom": NAME}
    assert info["settings"]["spectators"] is False and info["settings"]["turn_clock"] == 60
    guest.wait_for_selector(f"[data-setting=sheet][data-sheet-name='{NAME}']")
    host.screenshot(path=str(ARTIFACTS / "web-custom-sheet-lobby.png"))

    start_and_count_karma(host, guest)
    host.screenshot(path=str(ARTIFACTS / "web-custom-sheet-game.png"))
    assert real_errors(host) == [] and real_errors(guest) == []


@pytest.mark.parametrize(
    ("lang", "words"),
    [("en", "is not valid JSON"), ("de", "ist kein gültiges JSON"), ("nl", "is geen geldige JSON")],
)
def test_a_file_that_is_not_json_shows_an_error_and_creates_nothing(
    server: str, pages: list[Any], files: dict[str, Path], lang: str, words: str
) -> None:
    page = new_page(pages)
    open_home(page, server, lang)
    page.fill("[data-field=create-name]", "Anna")
    page.select_option("[data-field=sheet]", "file")
    page.set_input_files("[data-field=sheet-file]", str(files["broken"]))
    page.wait_for_selector("[data-sheet-file] .sheet-status[data-status=error][role=alert]")
    text = status(page)
    assert words in text and "broken.json" in text
    assert page.locator("[data-sheet-file] [data-detail]").count() == 1  # where the parser stopped
    page.click("[data-action=create]")
    page.wait_for_timeout(300)
    assert app(page)["screen"] == "home"
    assert page.evaluate("window.__net.sent.create_room || 0") == 0
    assert words in status(page)
    # valid JSON that is no object is stopped too
    page.set_input_files("[data-field=sheet-file]", str(files["list"]))
    page.wait_for_selector("[data-sheet-file] .sheet-status[data-status=error]")
    assert "list.json" in status(page)
    page.click("[data-action=create]")
    page.wait_for_timeout(300)
    assert page.evaluate("window.__net.sent.create_room || 0") == 0
    assert page.evaluate("Object.keys(localStorage).filter((k) => k.startsWith('rajas.room.')).length") == 0
    assert real_errors(page) == []


def test_no_file_chosen_asks_for_one(server: str, pages: list[Any]) -> None:
    page = new_page(pages)
    open_home(page, server)
    page.fill("[data-field=create-name]", "Anna")
    page.select_option("[data-field=sheet]", "file")
    page.click("[data-action=create]")
    page.wait_for_selector("[data-sheet-file] .sheet-status[data-status=error]")
    assert "Choose a sheet file first" in status(page)
    assert page.evaluate("window.__net.sent.create_room || 0") == 0


def test_a_sheet_the_server_refuses_shows_its_message_and_creates_nothing(
    server: str, pages: list[Any], files: dict[str, Path]
) -> None:
    page = new_page(pages)
    open_home(page, server)
    page.fill("[data-field=create-name]", "Anna")
    page.select_option("[data-field=sheet]", "file")
    page.set_input_files("[data-field=sheet-file]", str(files["refused"]))
    page.wait_for_selector("[data-sheet-file] .sheet-status[data-status=ok]")  # JSON, an object: worth sending
    page.click("[data-action=create]")
    page.wait_for_selector("[data-sheet-file] .sheet-status[data-status=error][role=alert]")
    text = status(page)
    assert "The server refused the sheet in “no-karma.json”" in text
    detail = page.locator("[data-sheet-file] [data-detail]").inner_text()
    assert detail.startswith("karma:") and "required" in detail.lower()  # the server's message names the field
    page.locator("[data-form=create]").screenshot(path=str(ARTIFACTS / "web-custom-sheet-refused.png"))
    assert page.evaluate("window.__net.sent.create_room") == 1
    assert app(page)["screen"] == "home" and app(page)["code"] is None
    assert page.evaluate("Object.keys(localStorage).filter((k) => k.startsWith('rajas.room.')).length") == 0
    assert page.locator("[data-action=create]").is_enabled()  # the host can pick another file and try again
    assert real_errors(page) == []


def test_the_host_switches_a_lobby_to_a_custom_sheet_and_back(
    server: str, pages: list[Any], files: dict[str, Path]
) -> None:
    host, guest = new_page(pages), new_page(pages)
    open_home(host, server)
    code = create(host)  # on the Sun
    join(guest, server, code)  # the guest's page has the Sun sheet's file
    guest.wait_for_selector("[data-setting=sheet][data-sheet-name=sun]")

    # a refused file: its message under the input, the room as it was
    host.select_option("[data-setting-input=sheet]", "file")
    host.wait_for_selector("[data-sheet-file]:visible")
    host.set_input_files("[data-field=sheet-file]", str(files["refused"]))
    host.wait_for_selector("[data-sheet-file] .sheet-status[data-status=error]")
    assert "The server refused the sheet in “no-karma.json”" in status(host)
    assert host.locator("[data-sheet-file] [data-detail]").inner_text().startswith("karma:")
    host.locator("[data-form=settings]").screenshot(path=str(ARTIFACTS / "web-custom-sheet-lobby-refused.png"))
    assert room_info(server, code)["settings"]["sheet"] == "sun"
    assert guest.locator("[data-setting=sheet][data-sheet-name=sun]").count() == 1
    # a file that is not JSON is not sent at all
    sent = host.evaluate("window.__net.sent.settings || 0")
    host.set_input_files("[data-field=sheet-file]", str(files["broken"]))
    host.wait_for_selector("[data-sheet-file] .sheet-status[data-status=error]:has-text('broken.json')")
    assert host.evaluate("window.__net.sent.settings || 0") == sent

    # the good file: everyone sees it, and the guest's page fetches the new sheet
    host.set_input_files("[data-field=sheet-file]", str(files["good"]))
    guest.wait_for_selector(f"[data-setting=sheet][data-sheet-name='{NAME}']:has-text('{TITLE}')")
    wait_app(guest, f"a.sheetName === '{NAME}'")
    host.wait_for_selector("[data-sheet-file]", state="hidden")
    assert host.locator("[data-setting-input=sheet]").input_value() == "custom"
    assert room_info(server, code)["settings"]["sheet"] == {"custom": NAME}

    # to the Moon and back to the custom sheet this page remembers
    host.select_option("[data-setting-input=sheet]", "moon")
    guest.wait_for_selector("[data-setting=sheet][data-sheet-name=moon]")
    wait_app(guest, "a.sheetName === 'moon'")
    option = host.locator("[data-setting-input=sheet] option[value=custom]")
    assert TITLE in option.inner_text()
    host.select_option("[data-setting-input=sheet]", "custom")
    guest.wait_for_selector(f"[data-setting=sheet][data-sheet-name='{NAME}']")
    assert room_info(server, code)["settings"]["sheet"] == {"custom": NAME}

    start_and_count_karma(host, guest)
    assert real_errors(host) == [] and real_errors(guest) == []
