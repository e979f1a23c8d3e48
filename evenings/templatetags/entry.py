"""The entry form's chip groups, written out here rather than through a template per field:
a booking's answer sends the players' chips whenever others play the next game, and the
template per field was the slowest part of that answer."""

from html import escape

from django import template
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

register = template.Library()

# Said after the name of a box that a ticked Schwarz or Tout counts in without its own
# tap (shown in outline, static/css/app.css): a screen reader hears it counts.
IMPLIED = ("schneider", "schwarz")


def group(field, oob: bool = False) -> SafeString:
    """One field of the game form: its chips named by its label (a toggle chip for a
    yes/no field), and its errors. Python's html.escape, as in the chips (evenings.forms)."""
    name, html_name, label = field.name, field.html_name, escape(str(field.label))
    toggle = field.field.widget.input_type == "checkbox" and not getattr(
        field.field, "choices", None
    )
    if toggle:
        if name in IMPLIED:
            label += f'<span class="visually-hidden implied"> ({_("zählt mit")})</span>'
        body = f'<label class="chip toggle">{field}<span>{label}</span></label>'
        role = ""
    else:
        caption = (
            f'<span class="visually-hidden" id="l-{html_name}">{label}</span>'
            if name == "spiel"
            else f'<div class="label" id="l-{html_name}">{label}</div>'
        )
        body = f"{caption}{field}"
        kind = "radiogroup" if field.field.widget.input_type == "radio" else "group"
        role = f' role="{kind}" aria-labelledby="l-{html_name}"'
        if field.errors:  # read when the group is entered; its chips are aria-invalid
            role += f' aria-describedby="{field.auto_id}_error"'
    errors = "".join(
        f'<div class="error" id="{field.auto_id}_error">{escape(str(error))}</div>'
        for error in field.errors
    )
    return mark_safe(
        f'<div class="field f-{name}{" invalid" if field.errors else ""}" id="f-{html_name}"'
        f"{' hx-swap-oob="true"' if oob else ''}{role}>{body}{errors}</div>"
    )


@register.simple_tag
def entry_fields(form, names=None, oob=False) -> SafeString:
    """The groups of `form`'s fields (of `names` only, if given), without the hidden key
    and deal."""
    wanted = [n for n in form.fields if n not in ("key", "deal")] if names is None else names
    return mark_safe("".join(group(form[n], oob) for n in wanted))
