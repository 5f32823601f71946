"""The glyph inspector's footer: Textual's, recomposed once for the binding changes made
before its queued recompose runs. (The other screens keep Textual's: the overview's start is a
refresh apart between its changes, and a fewer refreshes there let a key pressed at once reach
the help screen before the overview's summary worker starts.)"""
from __future__ import annotations

from textual.screen import Screen
from textual.widgets import Footer as TextualFooter


class Footer(TextualFooter):
    """Textual's footer queues a recompose (a widget per key, 20–30 ms on a screen of many keys)
    at every change of the screen's bindings, and a screen's start changes them three or four
    times (focus, the screen stack, a callback after the refresh): the glyph inspector's worker
    waited for all of them. Here the changes made before the queued recompose runs share it; it
    shows the bindings as they are when it runs, as the last of Textual's would."""

    _queued = False

    def bindings_changed(self, screen: Screen) -> None:
        self._bindings_ready = True
        if not screen.app.app_focus:
            return
        if self.is_attached and screen is self.screen and not self._queued:
            self._queued = True
            self.call_after_refresh(self._recompose_queued)

    async def _recompose_queued(self) -> None:
        self._queued = False
        await self.recompose()
