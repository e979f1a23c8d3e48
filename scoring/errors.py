"""Errors of the scoring engine.

This module imports nothing from the rest of the package, so every other module
(including ``settlement.py``) can import it without a cycle.
"""

from __future__ import annotations


class ScoringError(ValueError):
    """Input outside the scoring contract, raised before anything is computed.

    ``game`` is the 1-based position of the offending game in the evening, or None
    when the rules (or the request as a whole) are at fault. ``key`` is the contract
    key that is wrong. ``str(err)`` is the one English line the CLI prints, e.g.
    ``game 3: partner: must be one of the four players``; ``message_de`` is the
    German sentence a web form shows at the field.
    """

    def __init__(
        self,
        key: str,
        message: str,
        message_de: str,
        game: int | None = None,
        *,
        section: str = "rules",
    ) -> None:
        self.key = key
        self.message = message
        self.message_de = message_de
        self.game = game
        # Where the key lives when it is not in a game: "rules", "settle", "request".
        self.section = section
        super().__init__(self._line())

    def _line(self) -> str:
        where = self.section if self.game is None else f"game {self.game}"
        return f"{where}: {self.key}: {self.message}"

    def __str__(self) -> str:
        return self._line()

    def __reduce__(self) -> tuple[object, ...]:
        # Exceptions pickle through self.args by default, which here is the one line;
        # rebuild from the fields instead (e.g. for a task queue or a cache).
        return (_rebuild, (self.key, self.message, self.message_de, self.game, self.section))

    def at_game(self, game: int) -> ScoringError:
        """The same error, attributed to the game at 1-based position ``game``."""
        return ScoringError(self.key, self.message, self.message_de, game, section=self.section)


def _rebuild(
    key: str, message: str, message_de: str, game: int | None, section: str
) -> ScoringError:
    return ScoringError(key, message, message_de, game, section=section)


class ZeroSumError(AssertionError):
    """A game's payouts did not sum to zero: a bug in the engine, never bad input."""


class NegativePointsError(AssertionError):
    """A ProHof game credited negative points: a bug in the engine, never bad input."""
