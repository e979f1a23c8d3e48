"""The audit trail becomes append-only and tamper-evident; nobody truncates the history.

1. Every change carries a digest: SHA-256 over its content and the digest of the evening's
   previous change, set by a trigger on insert (existing changes are chained here, in
   order). Whoever edits a change afterwards, even as the owner, breaks the chain there,
   and verify_ledger says where.
2. UPDATE and DELETE on changes are refused, as on the ledger.
3. TRUNCATE is refused on the evening tables, for anyone (a statement trigger fires for
   the owner too).
4. The evening totals are kept by a trigger that runs with its owner's rights, so the
   app's role may only read them (config/roles.py).
"""

from django.db import migrations, models

TABLES = (
    "evenings_evening",
    "evenings_seat",
    "evenings_game",
    "evenings_change",
    "evenings_ledgerentry",
    "evenings_eveningtotal",
)

FORWARD = """
CREATE FUNCTION evenings_change_digest(previous text, c evenings_change) RETURNS text AS $$
    SELECT encode(sha256(convert_to(concat_ws(E'\\x1f',
        previous, c.id, c.evening_id, coalesce(c.game_id::text, ''), c.kind, c.by_id,
        to_char(c.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US'),
        coalesce(c.before::text, ''), coalesce(c.after::text, ''),
        coalesce(c.version::text, '')), 'UTF8')), 'hex')
$$ LANGUAGE sql IMMUTABLE;

CREATE FUNCTION evenings_change_chain() RETURNS trigger AS $$
DECLARE
    previous text;
BEGIN
    -- Writes to an evening hold its row lock, so its changes are chained one by one.
    SELECT digest INTO previous FROM evenings_change
     WHERE evening_id = NEW.evening_id ORDER BY id DESC LIMIT 1;
    NEW.digest := evenings_change_digest(coalesce(previous, ''), NEW);
    RETURN NEW;
END
$$ LANGUAGE plpgsql;

DO $$
DECLARE
    c evenings_change;
    previous text := '';
    evening bigint;
BEGIN
    FOR c IN SELECT * FROM evenings_change ORDER BY evening_id, id LOOP
        IF evening IS DISTINCT FROM c.evening_id THEN
            previous := '';
            evening := c.evening_id;
        END IF;
        previous := evenings_change_digest(previous, c);
        UPDATE evenings_change SET digest = previous WHERE id = c.id;
    END LOOP;
END
$$;

CREATE TRIGGER evenings_change_chain
    BEFORE INSERT ON evenings_change
    FOR EACH ROW EXECUTE FUNCTION evenings_change_chain();

CREATE FUNCTION evenings_change_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'the audit trail is append-only: % of change % refused', TG_OP, OLD.id
        USING ERRCODE = 'restrict_violation';
END
$$ LANGUAGE plpgsql;

CREATE TRIGGER evenings_change_append_only
    BEFORE UPDATE OR DELETE ON evenings_change
    FOR EACH ROW EXECUTE FUNCTION evenings_change_append_only();

CREATE FUNCTION evenings_no_truncate() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'the history of the evenings is kept: TRUNCATE % refused', TG_TABLE_NAME
        USING ERRCODE = 'restrict_violation';
END
$$ LANGUAGE plpgsql;

ALTER FUNCTION evenings_total_add() SECURITY DEFINER SET search_path FROM CURRENT;
"""

BACKWARD = """
ALTER FUNCTION evenings_total_add() SECURITY INVOKER RESET search_path;
DROP TRIGGER evenings_change_append_only ON evenings_change;
DROP FUNCTION evenings_change_append_only();
DROP TRIGGER evenings_change_chain ON evenings_change;
DROP FUNCTION evenings_change_chain();
DROP FUNCTION evenings_change_digest(text, evenings_change);
"""

NO_TRUNCATE = "".join(
    f"CREATE TRIGGER evenings_no_truncate BEFORE TRUNCATE ON {table} "
    "FOR EACH STATEMENT EXECUTE FUNCTION evenings_no_truncate();\n"
    for table in TABLES
)
ALLOW_TRUNCATE = "".join(f"DROP TRIGGER evenings_no_truncate ON {table};\n" for table in TABLES)


class Migration(migrations.Migration):
    dependencies = [("evenings", "0008_game_bock")]

    operations = [
        migrations.AddField(
            model_name="change",
            name="digest",
            field=models.CharField(default="", editable=False, max_length=64),
        ),
        migrations.RunSQL(
            FORWARD + NO_TRUNCATE,
            ALLOW_TRUNCATE + BACKWARD + ("DROP FUNCTION evenings_no_truncate();"),
        ),
    ]
