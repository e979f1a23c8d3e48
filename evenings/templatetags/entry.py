"""The entry form's chip groups, written out here rather than through a template per field:
a booking's answer sends the players' chips whenever others play the next game, and the
template per field was the slowest part of that answer."""

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

register = template.Library()


def group(field, oob: bool = False) -> SafeString:
    """One field of the game form: its chips named by its label (a toggle chip for a
    yes/no field), and its errors."""
    name, html_name = field.name, field.html_name
    toggle = field.field.widget.input_type == "checkbox" and not getattr(
        field.field, "choices", None
    )
    if toggle:
        body = format_html(
            '<label class="chip toggle">{}<span>{}</span></label>', field, field.label
        )
    else:
        label = (
            '<span class="visually-hidden" id="l-{}">{}</span>'
            if name == "spiel"
            else '<div class="label" id="l-{}">{}</div>'
        )
        body = format_html(label + "{}", html_name, field.label, field)
    errors = format_html_join(
        "", '<div class="error" id="{}_error">{}</div>', ((field.auto_id, e) for e in field.errors)
    )
    return format_html(
        '<div class="field f-{}{}" id="f-{}"{}{}>{}{}</div>',
        name,
        " invalid" if field.errors else "",
        html_name,
        mark_safe(' hx-swap-oob="true"') if oob else "",
        format_html(' role="group" aria-labelledby="l-{}"', html_name) if not toggle else "",
        body,
        errors,
    )


@register.simple_tag
def entry_fields(form, names=None, oob=False) -> SafeString:
    """The groups of `form`'s fields (of `names` only, if given), without the hidden key
    and deal."""
    wanted = [n for n in form.fields if n not in ("key", "deal")] if names is None else names
    return mark_safe("".join(group(form[n], oob) for n in wanted))
