import pytest
from django.core.exceptions import ValidationError

from clubs.forms import euro_input, parse_euro


@pytest.mark.parametrize(
    ("typed", "cents"),
    [
        ("0,10", 10),
        ("0,5", 50),
        ("1", 100),
        ("1,50", 150),
        (",5", 50),
        ("0", 0),
        ("1.000,00", 100_000),
        ("1.000,50", 100_050),
        ("0.10", 10),
        ("0.20", 20),
        ("1.5", 150),
        ("2.5", 250),
        (" 0,30 € ", 30),
        ("€ 0,20", 20),
        ("EUR 1,50", 150),
        ("€", None),
        ("1,-", 100),
        ("0,–", 0),
        ("1.000,-", 100_000),
        (",-", None),
        ("1,-5", None),
        ("10.000,00", 1_000_000),
        ("1 000", 100_000),  # a space between thousands, of any kind
        ("1\u00a0000,50", 100_050),
        ("1\u202f000 €", 100_000),
        ("- 1", None),
        ("0 ,50", 50),
        ("1, 50", 150),
        # Said in cents (walk 25: "50ct" was refused without a word why).
        ("50ct", 50),
        ("20 Cent", 20),
        ("5 ct.", 5),
        ("1000000 Cent", 1_000_000),
        ("1000001ct", None),
        ("0,50ct", None),
        ("ct", None),
    ],
)
def test_amounts_are_parsed_exactly_into_cents(typed, cents):
    if cents is None:
        with pytest.raises(ValidationError):
            parse_euro(typed)
    else:
        assert parse_euro(typed) == cents


@pytest.mark.parametrize(
    ("typed", "code", "message"),
    [
        ("0,105", "precision", "Höchstens zwei Stellen nach dem Komma"),
        ("-1", "negative", "nicht negativ"),
        ("-0,10", "negative", "nicht negativ"),
        ("", "required", "Bitte einen Betrag eingeben"),
        ("   ", "required", "Bitte einen Betrag eingeben"),
        ("zehn", "invalid", "Bitte einen Betrag in Euro eingeben"),
        ("0,1a", "invalid", "Bitte einen Betrag in Euro eingeben"),
        ("1,2,3", "invalid", "Bitte einen Betrag in Euro eingeben"),
        ("1.000.5", "invalid", "Komma vor den Cent"),
        ("10.000,01", "max_value", "höchstens 10.000,00 €"),
        ("1e3", "invalid", "Bitte einen Betrag in Euro eingeben"),
        ("1.000.000", "max_value", "höchstens 10.000,00 €"),
        ("\u0661", "invalid", "Bitte einen Betrag in Euro eingeben"),  # Arabic-Indic one
        ("\uff10,\uff15\uff10", "invalid", "Bitte einen Betrag in Euro eingeben"),  # 0,50
        # Cents written otherwise than "50 ct" are told how (walk 26).
        ("0,50 ct", "invalid", "Cent bitte als ganze Zahl (50 ct) oder in Euro (0,50)"),
        ("50c", "invalid", "Cent bitte als ganze Zahl"),
        ("10 Pf", "invalid", "Cent bitte als ganze Zahl"),
    ],
)
def test_nonsense_gets_a_clear_german_message(typed, code, message):
    with pytest.raises(ValidationError) as raised:
        parse_euro(typed)

    assert raised.value.code == code
    assert message in raised.value.messages[0]


@pytest.mark.parametrize(
    "typed", ["0 10", "0 5", "1 50", "10 0", "0,1 0", "1 0000", "0 100", "12 34,50"]
)
def test_a_space_between_digits_that_are_no_thousands_is_refused(typed):
    """A comma mistyped as a space: "0 10" is no 10 €, and "1 50" no 150 €."""
    with pytest.raises(ValidationError) as raised:
        parse_euro(typed)

    assert raised.value.code == "spaced"
    assert raised.value.messages == [
        f"„{typed}“: ein Leerzeichen trennt nur Tausender (1 000,00) – bitte die Cent mit "
        "Komma schreiben, z. B. 0,10."
    ]


@pytest.mark.parametrize(("cents", "shown"), [(10, "0,10"), (150, "1,50"), (0, "0,00")])
def test_cents_are_shown_in_the_field_as_people_type_them(cents, shown):
    assert euro_input(cents) == shown
    assert parse_euro(shown) == cents


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        # A dot before exactly three digits, no comma: a decimal point as in "1.5", or a
        # thousands separator as in "1.000,50"? Neither is guessed.
        ("1.000", "„1.000“ ist mehrdeutig – bitte so schreiben: 1,00 oder 1000."),
        ("1.500", "„1.500“ ist mehrdeutig – bitte so schreiben: 1,50 oder 1500."),
        ("0.100", "„0.100“ ist mehrdeutig – bitte so schreiben: 0,10 oder 100."),
        (" 1.000 € ", "„1.000 €“ ist mehrdeutig – bitte so schreiben: 1,00 oder 1000."),
        ("1.505", "„1.505“ ist mehrdeutig – bitte ohne Punkt schreiben: 1505."),
    ],
)
def test_a_dot_before_three_digits_without_a_comma_is_refused_as_ambiguous(typed, message):
    with pytest.raises(ValidationError) as raised:
        parse_euro(typed)

    assert raised.value.code == "ambiguous"
    assert raised.value.messages == [message]
