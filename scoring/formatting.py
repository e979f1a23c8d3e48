"""Display of amounts. The only place in the package that divides, and only for show."""

from __future__ import annotations


def format_cents(cents: int) -> str:
    """Cents as German euros: 10 -> "0,10 €", -120 -> "-1,20 €", 1234500 -> "12.345,00 €".

    Integer arithmetic only. The divmod below splits a finished amount into euros and
    cents for the screen; no amount that is booked or added ever passes through here.
    """
    sign = "-" if cents < 0 else ""
    euros, rest = divmod(abs(cents), 100)
    grouped = f"{euros:,}".replace(",", ".")
    return f"{sign}{grouped},{rest:02d} €"
