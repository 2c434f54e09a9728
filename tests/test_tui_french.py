"""``barbu play --lang fr`` driven headless: every screen met while playing a deal by keyboard
(contract choice, calls, refused cards, help, score sheet, review, last trick, the deal's summary)
shows no English, neither a text of the catalogue left untranslated nor English written outside it."""

from __future__ import annotations

import asyncio
import html
import re
from typing import Any

from textual.pilot import Pilot

from barbu.actions import Play
from barbu.cards import card_name
from barbu.language import catalogue, use
from barbu.tui.app import BarbuApp
from test_tui import SIZE, first_declarer_is_person, person_acts, press, settle

ENGLISH_WORDS = re.compile(
    r"\b(the|you|your|seat|seats|must|deal|deals|trick|tricks|is|not|and|of|with|play|plays|pass|"
    r"refused|double|doubles|score|sheet|totals|declarer|declares|contract|hand|waiting|bot|"
    r"help|hint|review|last|save|quit|choose|enter)\b",
    re.IGNORECASE,
)
"""Common English words that no French screen of the game has a reason to show."""


def english_of_the_catalogue() -> list[str]:
    """English texts of the catalogue a French screen must not show: several words, no
    placeholder, and a French text of their own (as the pages' check does)."""
    en, fr = catalogue("en").messages, catalogue("fr").messages
    return [
        text
        for key, text in en.items()
        if not isinstance(text, tuple) and "{" not in text and len(text.split()) >= 2 and fr.get(key) != text
    ]


def screen_text(app: BarbuApp) -> str:
    """What the terminal shows, line by line (read from the screenshot's text runs)."""
    svg = app.export_screenshot()
    lines: dict[float, list[str]] = {}
    for m in re.finditer(r'<text[^>]*?y="([\d.]+)"[^>]*>(.*?)</text>', svg, re.S):
        lines.setdefault(float(m.group(1)), []).append(html.unescape(re.sub("<[^>]+>", "", m.group(2))))
    return "\n".join("".join(v).replace("\xa0", " ") for _, v in sorted(lines.items()))


def test_a_french_deal_shows_no_english() -> None:
    screens: dict[str, str] = {}
    table = first_declarer_is_person("classic", {"skip_undoubled_negative": False}, seed=2)
    app = BarbuApp(table, pace=0)

    async def look(pilot: Pilot[Any], name: str, *keys: str) -> None:
        if keys:
            await pilot.press(*keys)
            await pilot.pause()
        screens[name] = screen_text(app)

    async def scenario(pilot: Pilot[Any]) -> None:
        await look(pilot, "contract")
        await look(pilot, "help", "f1")
        await look(pilot, "help closed", "escape")
        await press(pilot, app, "4")  # no king of hearts: a heart may not be led
        await look(pilot, "calls")
        while app.table.view().phase == "call":
            await press(pilot, app, "p")
        refused = False
        for _ in range(400):
            if app.summary is not None:
                break
            view = app.table.view()
            legal = {a.card for a in view.legal_actions if isinstance(a, Play)}
            illegal = [c for c in view.hand if c not in legal]
            if view.phase == "play" and illegal and not refused:
                await press(pilot, app, *card_name(illegal[0]).lower())
                assert app.notice.startswith("Refusé : ")
                await look(pilot, "refused")
                refused = True
            if view.tricks and "last trick" not in screens:
                await look(pilot, "last trick", "f5")
                await look(pilot, "last trick closed", "f5")
                await look(pilot, "review", "f4")
                await look(pilot, "review closed", "escape")
                await look(pilot, "sheet", "f2")
                await look(pilot, "sheet closed", "escape")
                await settle(pilot, app)
            await look(pilot, f"play {len(screens)}")
            await person_acts(pilot, app)
        assert app.summary is not None and refused
        await look(pilot, "summary")
        await press(pilot, app, "enter")
        await look(pilot, "next deal")

    async def main() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            await scenario(pilot)

    use("fr")
    try:
        asyncio.run(main())
    finally:
        use("en")
    assert {"contract", "help", "calls", "refused", "last trick", "review", "sheet", "summary"} <= set(screens)
    english = english_of_the_catalogue()
    left = {name: [e for e in english if e in text] for name, text in screens.items()}
    assert {k: v for k, v in left.items() if v} == {}
    words = {name: sorted({m.group(0) for m in ENGLISH_WORDS.finditer(text)}) for name, text in screens.items()}
    assert {k: v for k, v in words.items() if v} == {}
