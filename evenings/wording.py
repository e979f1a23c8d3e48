"""How a game reads in German: on the sheet, in messages and in the history.

One home for the wording, so that the sheet's caption, the "Gebucht: …" message and the
history's line never disagree. Players are named through `names` ({player id: name}).
"""

from collections.abc import Sequence
from datetime import datetime

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from evenings.models import Change, Game
from evenings.services import GameInput
from scoring import format_cents
from scoring.settlement import Transfer

GAME_NAMES = dict(Game.Type.choices)
# A game corrected since it was booked, said so beside it on every page and file that
# lists it (the sheet, the print, a player's history, the CSVs).
CORRECTED = gettext_lazy("korrigiert")
SUIT_NAMES = dict(Game.SuitChoice.choices)


def kind(game_type: str, suit: str = "") -> str:
    """ "Sauspiel", "Herz-Solo", "Wenz", "Ramsch"."""
    if game_type in (Game.Type.FARBSOLO, Game.Type.SOLO) and suit:
        return _("%(suit)s-Solo") % {"suit": SUIT_NAMES.get(suit, suit)}
    return str(GAME_NAMES.get(game_type, game_type))


def caption(data: GameInput, names: dict[int, str]) -> str:
    """ "Sauspiel Sepp mit Hias", "Herz-Solo Vroni", "Ramsch: Resi verliert" (the one
    name of a Ramsch is its loser, not someone who played it)."""
    if data.type == Game.Type.RAMSCH:
        return _("Ramsch: %(loser)s verliert") % {"loser": names.get(data.loser or 0, "")}
    who = names.get(data.declarer or data.loser or 0, "")
    text = f"{kind(data.type, data.suit)} {who}".strip()
    if data.partner:
        text += " " + _("mit %(partner)s") % {"partner": names.get(data.partner, "")}
    return text


def details(
    data: GameInput,
    names: dict[int, str],
    against: bool = False,
    quiet_win: bool = False,
    bock: bool = False,
) -> list[str]:
    """Everything else the table decided: result, Laufende, Schneider, Schwarz, Tout,
    Schneider angesagt (ProHof), Kontra, Doppler, Jungfrauen. The result is the
    declarer's; `against`: told to one of their opponents, it is theirs ("als
    Gegenspieler gewonnen" when the declarer lost). `quiet_win`: "gewonnen", the common
    case, goes unsaid (the sheet's rows: only what to check at a glance). `bock`: a
    Bock game (its amount doubled) says so last."""
    parts = []
    if against:
        parts.append(_("als Gegenspieler verloren") if data.won else _("als Gegenspieler gewonnen"))
    elif data.type != Game.Type.RAMSCH and not (data.won and quiet_win):
        parts.append(_("gewonnen") if data.won else _("verloren"))
    if data.laufende:
        parts.append(
            ngettext("%(n)s Laufender", "%(n)s Laufende", data.laufende) % {"n": data.laufende}
        )
    made = data.won and data.schneider  # the declarer's side reached Schneider
    if data.tout:
        parts.append(_("Tout"))
    elif data.schwarz:
        parts.append(_("Schwarz"))
    elif made and data.angesagt:
        parts.append(_("Schneider angesagt und erreicht"))
    elif data.schneider:
        parts.append(_("Schneider"))
    if data.angesagt and not made:
        parts.append(_("Schneider angesagt, nicht erreicht"))
    elif data.angesagt and (data.schwarz or data.tout):
        parts.append(_("Schneider angesagt"))  # and beaten by Schwarz or Tout
    if data.kontra:
        parts.append([_("Kontra"), _("Re")][data.kontra - 1])
    if data.doubled:
        parts.append(_("%(n)s× gedoppelt") % {"n": data.doubled})
    if data.jungfrauen:
        who = ", ".join(names.get(p, "") for p in data.jungfrauen)
        parts.append(_("Jungfrau: %(who)s") % {"who": who})
    if bock:
        parts.append(_("Bock"))
    return parts


def enumeration(names: list[str]) -> str:
    """ "Sepp", "Sepp und Vroni", "Sepp, Vroni und Hias"."""
    if len(names) < 2:
        return "".join(names)
    return _("%(first)s und %(last)s") % {"first": ", ".join(names[:-1]), "last": names[-1]}


def summary(game: Game, names: dict[int, str]) -> str:
    """ "Gras-Solo Vroni · verloren · 3 Laufende · Bock": the sheet's caption and details."""
    data = GameInput.of(game)
    return " · ".join([caption(data, names), *details(data, names, quiet_win=True, bock=game.bock)])


def told(game: Game, names: dict[int, str]) -> str:
    """ "Spiel 7, Gras-Solo Vroni · verloren · 3 Laufende": a game as the phone that booked
    it is told, and the phones that follow."""
    return _("Spiel %(n)s, %(game)s") % {"n": game.number, "game": summary(game, names)}


def line(data: GameInput, names: dict[int, str], bock: bool = False) -> str:
    """The caption and every detail: "Sauspiel Sepp mit Hias · gewonnen · Kontra"."""
    return " · ".join([caption(data, names), *details(data, names, bock=bock)])


def is_cancellation(change: Change) -> bool:
    """Whether `change` takes back a payment ("Storno"): a payment the other way."""
    return change.kind == Change.Kind.PAYMENT and "cancels" in (change.after or {})


# At a tournament's table, what the history says of the evening says it of the table.
TABLE_HEADINGS = {
    Change.Kind.START: gettext_lazy("Tisch begonnen"),
    Change.Kind.CLOSE: gettext_lazy("Tisch beendet"),
    Change.Kind.REOPEN: gettext_lazy("Tisch wieder geöffnet"),
}


def heading(change: Change, table: bool = False) -> str:
    """What kind of change it was, as the history's headline says it (of a tournament's
    table if `table`)."""
    if is_cancellation(change):
        return _("Storno")
    if change.kind == Change.Kind.START and (change.after or {}).get("settles_runde"):
        return _("Ausgleich der Runde begonnen")
    if change.kind == Change.Kind.RENAME and "runde" in (change.after or {}):
        return _("Runde umbenannt")
    if table and change.kind in TABLE_HEADINGS:
        return str(TABLE_HEADINGS[change.kind])
    # The kind's label itself: get_kind_display() builds a dict of every choice, each
    # translated to be hashed, on every call (sixty changes, sixty times).
    return str(Change.Kind(change.kind).label)


def transfer_line(payer: str | None, payee: str | None, cents: int) -> str:
    """ "Sepp zahlt Resi 0,40 €": a payment, or a transfer proposed."""
    return _("%(payer)s zahlt %(payee)s %(amount)s") % {
        "payer": payer,
        "payee": payee,
        "amount": format_cents(cents),
    }


def plan_changes(
    before: Sequence[Transfer],
    after: Sequence[Transfer],
    paid: tuple[int, int],
    names: dict[int, str],
) -> str:
    """What a payment changed in the Abrechnung's other proposed transfers (`before` and
    `after` it; `paid`: its payer and payee, whose own transfer shrinks as expected), said
    in one sentence, or "" if nothing else changed. A payment larger than proposed, or in
    odd cents, can leave a payee owed less than another's transfer to them, which then
    goes: the table is told, not left to wonder."""

    def pairs(transfers: Sequence[Transfer]) -> dict[tuple[int, int], int]:
        by_pair = {(int(t.payer), int(t.payee)): t.amount for t in transfers}
        by_pair.pop(paid, None)
        return by_pair

    def said(pair: tuple[int, int], amount: int) -> str:
        return transfer_line(names.get(pair[0]), names.get(pair[1]), amount)

    was, now = pairs(before), pairs(after)
    changes = []
    for pair, amount in was.items():
        if pair not in now:
            changes.append(_("„%(transfer)s“ entfällt") % {"transfer": said(pair, amount)})
        elif now[pair] != amount:
            changes.append(
                _("„%(transfer)s“ ist jetzt %(amount)s")
                % {"transfer": said(pair, amount), "amount": format_cents(now[pair])}
            )
    changes += [
        _("neu: „%(transfer)s“") % {"transfer": said(pair, amount)}
        for pair, amount in now.items()
        if pair not in was
    ]
    if not changes:
        return ""
    return _("Damit ändert sich der Vorschlag: %(changes)s.") % {"changes": "; ".join(changes)}


def summarize(change: Change, names: dict[int, str]) -> str:
    """A short German line of what a change recorded."""
    if change.kind == Change.Kind.PAYMENT:
        after = change.after
        payer, payee = after["payer"], after["payee"]
        if is_cancellation(change):
            # Said as the payment it takes back: its payer is the one paid back.
            payer, payee = payee, payer
        if is_cancellation(change):
            # A payment made, taken back: not "Sepp zahlt Resi", which reads as still due.
            return _("Zahlung storniert: %(payer)s an %(payee)s, %(amount)s") % {
                "payer": names.get(payer),
                "payee": names.get(payee),
                "amount": format_cents(after["amount"]),
            }
        return transfer_line(names.get(payer), names.get(payee), after["amount"])
    if change.kind == Change.Kind.REOPEN and (change.after or {}).get("corrections_only"):
        # Said as the page said it then (walk 54: the history did not tell).
        if change.after.get("table"):
            return _("nur zum Korrigieren: an diesem Tisch wird nicht mehr gespielt")
        return _("nur zum Korrigieren: die Runde spielte schon an einem neueren Abend")
    if change.kind == Change.Kind.SHARE and "moved_to" in (change.after or {}):
        return _("Der Link zeigt jetzt den neuen Tisch.")
    if change.kind == Change.Kind.TARIFF:
        changed = "; ".join(
            f"{label}: {was} → {now}" for label, was, now in change.after["changed"]
        )
        said = _("%(changed)s; alle Spiele neu gewertet") % {"changed": changed}
        if dropped := change.after.get("carried_dropped"):
            said += "; " + ngettext(
                "das Bockspiel vom Tisch davor zählt hier nicht mehr",
                "die %(n)s Bockspiele vom Tisch davor zählen hier nicht mehr",
                dropped,
            ) % {"n": dropped}
        return said
    if change.kind == Change.Kind.START and "continues" in (change.after or {}):
        if carried := change.after.get("bock"):
            return ngettext(
                "Weiter an einem neuen Tisch, mit %(n)s Bockspiel vom Tisch davor",
                "Weiter an einem neuen Tisch, mit %(n)s Bockspielen vom Tisch davor",
                carried,
            ) % {"n": carried}
        return _("Weiter an einem neuen Tisch")
    if change.kind == Change.Kind.BOCK:
        return f"{bock_source(change)}: {bock_moved(change.after)}"
    if change.kind == Change.Kind.RENAME and "runde" in change.after:
        return _("Die Runde „%(before)s“ heißt jetzt „%(after)s“") % {
            "before": change.before["name"],
            "after": change.after["name"],
        }
    if change.kind == Change.Kind.RENAME:
        return _("%(before)s heißt jetzt %(after)s") % {
            "before": change.before["name"],
            "after": change.after["name"],
        }
    if change.kind == Change.Kind.SEATS:
        said = _("vorher: %(before)s – jetzt: %(after)s") % {
            "before": _table(change.before, names),
            "after": _table(change.after, names),
        }
        if change.after.get("redealt"):  # services.redeal
            said += " · " + _("alle Spiele mit dem richtigen Geber neu verteilt und gewertet")
        return said
    before = GameInput.from_json(change.before) if change.before else None
    after = GameInput.from_json(change.after) if change.after and "type" in change.after else None
    if before and after:
        return f"{line(before, names)} → {line(after, names)}"
    if before or after:
        return line(before or after, names)
    return ""


# A change at the table a Bock went on from, as a later table's history names it.
SOURCE = {
    Change.Kind.CORRECT: gettext_lazy("Spiel %(n)s korrigiert"),
    Change.Kind.VOID: gettext_lazy("Spiel %(n)s gestrichen"),
    Change.Kind.UNDO: gettext_lazy("Spiel %(n)s zurückgenommen"),
    Change.Kind.RESTORE: gettext_lazy("Spiel %(n)s wiederhergestellt"),
}


def bock_source(change: Change) -> str:
    """ "Spiel 4 korrigiert am Tisch ab 19:42": the change at an earlier table of the night
    that moved this table's Bock (Change.Kind.BOCK; walk 89: "am Tisch davor" was two
    tables back, and named neither the table nor the change)."""
    source = change.before
    if source["kind"] == "back":  # services._carry_on: a correction taken back
        what = _("Korrektur von Spiel %(n)s zurückgenommen") % {"n": source["game"]}
    else:
        kind = Change.Kind(source["kind"])
        what = SOURCE[kind] % {"n": source["game"]} if kind in SOURCE else kind.label
    started = timezone.localtime(datetime.fromisoformat(source["started"]))
    return _("%(what)s am Tisch ab %(time)s") % {"what": what, "time": f"{started:%H:%M}"}


def bock_flips(now: list[int], gone: list[int]) -> str:
    """Which games (by number) became Bock games, and which are none any more; empty if
    neither."""
    said = [
        ngettext("Spiel %(games)s jetzt Bockspiel", "Spiele %(games)s jetzt Bockspiele", len(now))
        % {"games": ", ".join(map(str, now))}
    ] if now else []  # fmt: skip
    if gone:
        said.append(
            ngettext(
                "Spiel %(games)s kein Bockspiel mehr",
                "Spiele %(games)s keine Bockspiele mehr",
                len(gone),
            )
            % {"games": ", ".join(map(str, gone))}
        )
    return "; ".join(said)


def bock_moved(after: dict, here: bool = True) -> str:
    """What a change at an earlier table did to this table's Bock: which games became Bock
    games or none, or else how many Bock games the table now begins with (`here`: said
    in this table's history, else in the earlier table's)."""
    now = after["now_bock"]
    if said := bock_flips(now, [n for n in after["games"] if n not in now]):
        return said
    if after["bock"]:
        return (
            ngettext(
                "dieser Tisch beginnt jetzt mit %(n)s Bockspiel",
                "dieser Tisch beginnt jetzt mit %(n)s Bockspielen",
                after["bock"],
            )
            if here
            else ngettext(
                "er beginnt jetzt mit %(n)s Bockspiel",
                "er beginnt jetzt mit %(n)s Bockspielen",
                after["bock"],
            )
        ) % {"n": after["bock"]}
    return (
        _("dieser Tisch beginnt jetzt ohne Bockspiel")
        if here
        else _("er beginnt jetzt ohne Bockspiel")
    )


def _table(seating: dict, names: dict[int, str]) -> str:
    """Who sat where and who dealt first, as a change_seats record says it."""
    players = seating["players"]
    return _("%(players)s, %(dealer)s gibt zuerst") % {
        "players": ", ".join(names.get(pk, "?") for pk in players),
        "dealer": names.get(players[seating["first_dealer"]], "?"),
    }
