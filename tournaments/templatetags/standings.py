"""What the standings' layout needs to know of the numbers in them."""

from django import template

register = template.Library()

# On a narrow phone the name column is given what the rest of the row leaves, and the
# rest is reckoned for numbers of up to this many characters in the first three rounds
# and the total (static/css/tournament.css, `table.standings`).
ROOM = 4
ROUNDS_IN_VIEW = 3
HEADING = len("R1")


@register.filter
def spare_digits(standings) -> str:
    """The class that says how many of those characters the standings leave unused
    ("spare-5"): the name column takes them, so that a short name, "Schorsch", is not
    broken inside the word where the rounds are played or not yet two digits long."""
    if not standings:
        return "spare-0"
    drawn = min(len(standings[0].rounds), ROUNDS_IN_VIEW)  # a column each
    columns = [[line.rounds[i] for line in standings] for i in range(drawn)]
    # A round's column is never narrower than its heading ("R2"), however short its
    # points ("–" before it is played); the total's heading ("Gesamt") is wider than its
    # digits, so its column leaves the name nothing (walk 30: "R3" went under the total).
    widest = [
        max(HEADING, *(len("–" if points is None else str(points)) for points in c))
        for c in columns
    ]
    unused = sum(max(0, ROOM - width) for width in widest)
    return f"spare-{unused + ROOM * (ROUNDS_IN_VIEW - drawn)}"
