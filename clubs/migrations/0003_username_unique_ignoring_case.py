"""Usernames are unique regardless of case: the sign-up form checks it, and this index
makes two sign-ups racing as "Vroni" and "vroni" end with one account, not two."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("auth", "0012_alter_user_first_name_max_length"),
        ("clubs", "0002_invitation_player_reset_request"),
    ]

    operations = [
        migrations.RunSQL(
            "CREATE UNIQUE INDEX auth_user_username_lower_unique ON auth_user (lower(username));",
            "DROP INDEX auth_user_username_lower_unique;",
        )
    ]
