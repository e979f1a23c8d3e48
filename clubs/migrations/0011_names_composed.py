"""Names stored composed (NFC), as clubs.models.one_line now writes them: an "ë" saved as
"e" and a combining diaeresis was another name than the "ë" a phone types. A name whose
composed form another of its club already has stays as it is (two such could not both
be renamed, and the table knew them apart until now)."""

import unicodedata

from django.db import migrations


def compose(apps, schema_editor):
    for model, scope in (("Club", None), ("Runde", "club_id"), ("Player", "club_id")):
        Model = apps.get_model("clubs", model)
        for row in Model.objects.all().only("pk", "name", *([scope] if scope else [])):
            composed = unicodedata.normalize("NFC", row.name)
            if composed == row.name:
                continue
            others = Model.objects.exclude(pk=row.pk).filter(name__iexact=composed)
            if scope is not None and others.filter(**{scope: getattr(row, scope)}).exists():
                continue
            Model.objects.filter(pk=row.pk).update(name=composed)


class Migration(migrations.Migration):
    dependencies = [("clubs", "0010_role_change")]

    operations = [migrations.RunPython(compose, migrations.RunPython.noop, elidable=True)]
