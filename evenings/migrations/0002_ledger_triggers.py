"""The database's own guard over the ledger, in addition to the engine's checks.

1. Append-only: UPDATE and DELETE on ledger rows are refused.
2. Zero-sum: at commit, the entries one change made for one game (or one payment) must
   sum to zero; otherwise the whole transaction is refused. A deferred constraint trigger
   sees all rows of the transaction, so entries can be inserted one by one.
"""

from django.db import migrations

FORWARD = """
CREATE FUNCTION evenings_ledger_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'the ledger is append-only: % of entry % refused', TG_OP, OLD.id
        USING ERRCODE = 'restrict_violation';
END
$$ LANGUAGE plpgsql;

CREATE TRIGGER evenings_ledger_append_only
    BEFORE UPDATE OR DELETE ON evenings_ledgerentry
    FOR EACH ROW EXECUTE FUNCTION evenings_ledger_append_only();

CREATE FUNCTION evenings_ledger_zero_sum() RETURNS trigger AS $$
DECLARE
    total bigint;
BEGIN
    SELECT sum(amount) INTO total FROM evenings_ledgerentry
     WHERE change_id = NEW.change_id AND game_id IS NOT DISTINCT FROM NEW.game_id;
    IF total <> 0 THEN
        RAISE EXCEPTION 'ledger entries of change % for game % sum to % cents, not zero',
            NEW.change_id, NEW.game_id, total
            USING ERRCODE = 'check_violation';
    END IF;
    RETURN NULL;
END
$$ LANGUAGE plpgsql;

CREATE CONSTRAINT TRIGGER evenings_ledger_zero_sum
    AFTER INSERT ON evenings_ledgerentry
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION evenings_ledger_zero_sum();
"""

BACKWARD = """
DROP TRIGGER evenings_ledger_zero_sum ON evenings_ledgerentry;
DROP FUNCTION evenings_ledger_zero_sum();
DROP TRIGGER evenings_ledger_append_only ON evenings_ledgerentry;
DROP FUNCTION evenings_ledger_append_only();
"""


class Migration(migrations.Migration):
    dependencies = [("evenings", "0001_initial")]

    operations = [migrations.RunSQL(FORWARD, BACKWARD)]
