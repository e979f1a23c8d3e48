"""The one place where cents become "1,20 €" for the screen (and a tournament's points
become "40 P.")."""

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from scoring import format_cents

register = template.Library()


@register.filter
def euro(cents: int | None) -> str:
    """10 -> "0,10 €", -120 -> "-1,20 €"; anything that is not an int is shown as is."""
    if isinstance(cents, bool) or not isinstance(cents, int):
        return "" if cents is None else str(cents)
    return format_cents(cents)


@register.filter
def balance(cents: int | None) -> str:
    """A balance, its sign always shown: 590 -> "+5,90 €" (owed to them), -100 ->
    "-1,00 €" (they owe), 0 -> "0,00 €"; as the evenings' results are written."""
    return f"+{euro(cents)}" if type(cents) is int and cents > 0 else euro(cents)


@register.filter
def euro_plain(cents: int | None) -> str:
    """The amount without the currency sign, for the narrow columns of the sheet."""
    return euro(cents).removesuffix(" €")


@register.filter
def amount(value: int | None, points: bool = False) -> str:
    """Cents as euros; with `points` (a ProHof table) whole points: 40 -> "40 P."."""
    if points and isinstance(value, int) and not isinstance(value, bool):
        return f"{value} P."
    return euro(value)


@register.filter
def amount_plain(value: int | None, points: bool = False) -> str:
    """The amount without its unit, for the narrow columns of the sheet."""
    if points and isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return euro_plain(value)


@register.filter
def paid_or_received(cents: int | None) -> str:
    """A player's net payments in words: 600 -> "gezahlt 6,00 €", -600 -> "erhalten 6,00 €"
    (the ledger's sign: paying raises one's balance, receiving lowers it), 0 -> "keine
    Zahlungen". A bare "-6,00 €" read as if the receiver had paid."""
    if isinstance(cents, bool) or not isinstance(cents, int):
        return euro(cents)
    if cents > 0:
        return _("gezahlt %(amount)s") % {"amount": format_cents(cents)}
    if cents < 0:
        return _("erhalten %(amount)s") % {"amount": format_cents(-cents)}
    return _("keine Zahlungen")


@register.filter
def net_payments(cents: int | None, moved: bool = False) -> SafeString:
    """A Runde's payments of a player, which are kept as their net: "netto gezahlt
    0,30 €", so that it is not taken for what they handed over (0,80 €, and 0,50 € came
    back); 0 -> "keine Zahlungen", or "Zahlungen netto 0,00 €" where money was `moved`
    (3,00 € paid, 3,00 € received: walk 50). Only the amount is kept on one line."""
    if cents == 0 and moved:
        return format_html("{} {}", _("Zahlungen netto"), unbroken(format_cents(0)))
    if isinstance(cents, bool) or not isinstance(cents, int) or not cents:
        return unbroken(paid_or_received(cents))
    words = _("netto gezahlt") if cents > 0 else _("netto erhalten")
    return format_html("{} {}", words, unbroken(format_cents(abs(cents))))


@register.filter
def payments_of(result) -> str:
    """What a player paid and received at an evening (clubs.players.EveningResult): both
    where they did both, "gezahlt 2,60 € · erhalten 1,00 €", not the net "gezahlt 1,60 €",
    which is neither what they handed over nor what they got; else as paid_or_received."""
    if result.paid and result.received:
        return f"{paid_or_received(result.paid)} · {paid_or_received(-result.received)}"
    return paid_or_received(result.payments)


@register.filter
def bdi(name: str) -> SafeString:
    """A name beside an amount, isolated: "<bdi>שרה</bdi> zahlt Sepp 1,20 €", so that a
    name written right to left does not carry the amount along with it."""
    return format_html("<bdi>{}</bdi>", name)


@register.filter
def unbroken(text: str) -> SafeString:
    """An amount in running text that never breaks before its "€" ("gezahlt 17,70 €" at
    320 px), as the amounts of the sheet and the cards do not."""
    return format_html('<span class="amount">{}</span>', text)


@register.filter
def due(lines) -> list:
    """Of a player's open balances (clubs.players.open_balances), those a payment
    settles: not a rest below the Runde's unit."""
    return [line for line in lines if not line.rest]
