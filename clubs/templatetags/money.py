"""The one place where cents become "1,20 €" for the screen."""

from django import template

from scoring import format_cents

register = template.Library()


@register.filter
def euro(cents: int | None) -> str:
    """10 -> "0,10 €", -120 -> "-1,20 €"; anything that is not an int is shown as is."""
    if isinstance(cents, bool) or not isinstance(cents, int):
        return "" if cents is None else str(cents)
    return format_cents(cents)


@register.filter
def euro_plain(cents: int | None) -> str:
    """The amount without the currency sign, for the narrow columns of the sheet."""
    return euro(cents).removesuffix(" €")
