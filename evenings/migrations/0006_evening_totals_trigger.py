"""The database keeps EveningTotal: every ledger entry inserted is added to its player's
row for that evening and kind, in the same transaction. Existing entries are summed in.

The ledger is append-only (migration 0002), so inserts are the only way a total changes.
"""

from django.db import migrations

FORWARD = """
CREATE FUNCTION evenings_total_add() RETURNS trigger AS $$
BEGIN
    INSERT INTO evenings_eveningtotal (evening_id, player_id, kind, amount)
    VALUES (NEW.evening_id, NEW.player_id, NEW.kind, NEW.amount)
    ON CONFLICT (evening_id, player_id, kind)
    DO UPDATE SET amount = evenings_eveningtotal.amount + EXCLUDED.amount;
    RETURN NULL;
END
$$ LANGUAGE plpgsql;

CREATE TRIGGER evenings_total_add
    AFTER INSERT ON evenings_ledgerentry
    FOR EACH ROW EXECUTE FUNCTION evenings_total_add();

INSERT INTO evenings_eveningtotal (evening_id, player_id, kind, amount)
SELECT evening_id, player_id, kind, sum(amount)
  FROM evenings_ledgerentry GROUP BY evening_id, player_id, kind;
"""

BACKWARD = """
DROP TRIGGER evenings_total_add ON evenings_ledgerentry;
DROP FUNCTION evenings_total_add();
DELETE FROM evenings_eveningtotal;
"""


class Migration(migrations.Migration):
    dependencies = [("evenings", "0005_change_version_evening_totals")]

    operations = [migrations.RunSQL(FORWARD, BACKWARD)]
