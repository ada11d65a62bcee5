//! The SQLite and PostgreSQL schemas are one schema. The migrations come in pairs, one per
//! dialect, written by hand; after all of them, both databases must have the same tables,
//! columns (types mapped between the dialects), nullability, defaults, primary keys, foreign
//! keys and indexes, or this test names each difference.
//!
//! Each schema is read from the database itself (SQLite's `pragma_*` tables, PostgreSQL's
//! catalogue), not from the migration files, so a statement that a dialect reads differently
//! than intended shows too.

mod common;

use std::collections::BTreeSet;

use sqlx::{Connection, Row};

/// Facts about a schema, each a line in words both dialects map to.
type Facts = BTreeSet<String>;

#[tokio::test]
async fn both_databases_have_one_schema() {
    let (dir, _store) = common::sqlite().await;
    let sqlite =
        sqlite_facts(&format!("sqlite://{}", dir.path().join("t.sqlite3").display())).await;
    let url = common::postgres_database("schema").await;
    lockstep_store::Store::connect(&url).await.unwrap();
    let postgres = postgres_facts(&url).await;
    assert!(sqlite.iter().any(|f| f.starts_with("table xp_events")), "{sqlite:#?}");
    let only = |a: &Facts, b: &Facts| a.difference(b).cloned().collect::<Vec<_>>().join("\n  ");
    assert!(
        sqlite == postgres,
        "the schemas differ.\nOnly in SQLite:\n  {}\nOnly in PostgreSQL:\n  {}",
        only(&sqlite, &postgres),
        only(&postgres, &sqlite)
    );
}

/// The mapping of each dialect's column types to one name: SQLite's declared types as the
/// migrations write them, PostgreSQL's `data_type`.
fn canonical_type(declared: &str) -> String {
    match declared.to_ascii_lowercase().as_str() {
        "integer" | "int" | "int4" => "int32".into(),
        "bigint" | "int8" => "int64".into(),
        "smallint" | "int2" => "int16".into(),
        "text" | "character varying" | "varchar" => "text".into(),
        "real" | "double precision" | "float8" => "float64".into(),
        "boolean" | "bool" => "bool".into(),
        "blob" | "bytea" => "bytes".into(),
        other => format!("unmapped:{other}"),
    }
}

/// A default or a partial index's condition, without what only one dialect writes: casts
/// (`'queued'::text`), parentheses (PostgreSQL puts each comparison in its own), case and
/// spacing. The conditions here are conjunctions, which parentheses do not change.
fn canonical_sql(sql: &str) -> String {
    let mut s = sql.replace(['(', ')'], " ");
    for cast in ["::text", "::bigint", "::integer", "::boolean", "::character varying"] {
        s = s.replace(cast, "");
    }
    s.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase()
}

fn on_delete(action: &str) -> String {
    action.to_ascii_lowercase()
}

async fn sqlite_facts(url: &str) -> Facts {
    let mut c = sqlx::SqliteConnection::connect(url).await.unwrap();
    let mut facts = Facts::new();
    let tables: Vec<String> = sqlx::query_scalar(
        "SELECT name FROM sqlite_master WHERE type = 'table' \
         AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_sqlx%'",
    )
    .fetch_all(&mut c)
    .await
    .unwrap();
    for t in &tables {
        facts.insert(format!("table {t}"));
        let columns = sqlx::query(&format!(
            "SELECT name, type, \"notnull\", dflt_value, pk FROM pragma_table_info('{t}')"
        ))
        .fetch_all(&mut c)
        .await
        .unwrap();
        let keys = columns.iter().filter(|r| r.get::<i64, _>("pk") > 0).count();
        let mut primary: Vec<(i64, String)> = Vec::new();
        for r in &columns {
            let name: String = r.get("name");
            let declared: String = r.get("type");
            let pk: i64 = r.get("pk");
            let mut default = r.get::<Option<String>, _>("dflt_value").map(|d| canonical_sql(&d));
            // `INTEGER PRIMARY KEY` is the rowid: 64 bits, numbered by the database as
            // PostgreSQL's BIGSERIAL is.
            let rowid = pk == 1 && keys == 1 && declared.eq_ignore_ascii_case("integer");
            let kind = if rowid { "int64".to_string() } else { canonical_type(&declared) };
            if rowid {
                default = Some("numbered".into());
            }
            // A primary key's column is never null, in SQLite only by its rowid or NOT NULL.
            let null = if r.get::<i64, _>("notnull") == 1 || pk > 0 { "not null" } else { "null" };
            let default = default.unwrap_or_else(|| "none".into());
            facts.insert(format!("column {t}.{name} {kind} {null} default {default}"));
            if pk > 0 {
                primary.push((pk, name));
            }
        }
        if !primary.is_empty() {
            primary.sort();
            let cols: Vec<_> = primary.into_iter().map(|(_, n)| n).collect();
            facts.insert(format!("primary key {t} ({})", cols.join(", ")));
        }
        for r in sqlx::query(&format!(
            "SELECT \"table\", \"from\", \"to\", on_delete FROM pragma_foreign_key_list('{t}')"
        ))
        .fetch_all(&mut c)
        .await
        .unwrap()
        {
            let target: String = r.get("table");
            let to = match r.get::<Option<String>, _>("to") {
                Some(to) => to,
                // `REFERENCES learners` without a column names the target's primary key.
                None => sqlx::query_scalar(&format!(
                    "SELECT name FROM pragma_table_info('{target}') WHERE pk = 1"
                ))
                .fetch_one(&mut c)
                .await
                .unwrap(),
            };
            let from: String = r.get("from");
            let action = on_delete(r.get::<String, _>("on_delete").as_str());
            facts.insert(format!("foreign key {t}.{from} -> {target}.{to} on delete {action}"));
        }
        for r in sqlx::query(&format!(
            "SELECT name, \"unique\", origin, partial FROM pragma_index_list('{t}')"
        ))
        .fetch_all(&mut c)
        .await
        .unwrap()
        {
            let origin: String = r.get("origin");
            if origin == "pk" {
                continue;
            }
            let name: String = r.get("name");
            let cols: Vec<String> = sqlx::query_scalar(&format!(
                "SELECT name FROM pragma_index_info('{name}') ORDER BY seqno"
            ))
            .fetch_all(&mut c)
            .await
            .unwrap();
            let condition = if r.get::<i64, _>("partial") == 1 {
                let sql: String = sqlx::query_scalar(
                    "SELECT sql FROM sqlite_master WHERE type = 'index' AND name = $1",
                )
                .bind(&name)
                .fetch_one(&mut c)
                .await
                .unwrap();
                let (_, condition) = sql.rsplit_once(" WHERE ").expect("a partial index's WHERE");
                canonical_sql(condition)
            } else {
                "all rows".into()
            };
            // A UNIQUE constraint's index has a name each dialect makes up.
            let name = if origin == "u" { "(of a unique constraint)".to_string() } else { name };
            let unique = if r.get::<i64, _>("unique") == 1 { "unique " } else { "" };
            facts.insert(format!(
                "{unique}index {name} on {t} ({}) where {condition}",
                cols.join(", ")
            ));
        }
    }
    facts
}

async fn postgres_facts(url: &str) -> Facts {
    let mut c = sqlx::PgConnection::connect(url).await.unwrap();
    let mut facts = Facts::new();
    let tables: Vec<String> = sqlx::query_scalar(
        "SELECT table_name::text FROM information_schema.tables \
         WHERE table_schema = 'public' AND table_name NOT LIKE '\\_sqlx%'",
    )
    .fetch_all(&mut c)
    .await
    .unwrap();
    for t in &tables {
        facts.insert(format!("table {t}"));
    }
    for r in sqlx::query(
        "SELECT table_name::text AS t, column_name::text AS name, data_type::text AS kind, \
         is_nullable::text AS nullable, column_default::text AS dflt \
         FROM information_schema.columns WHERE table_schema = 'public' AND table_name NOT LIKE '\\_sqlx%'",
    )
    .fetch_all(&mut c)
    .await
    .unwrap()
    {
        let (t, name): (String, String) = (r.get("t"), r.get("name"));
        let default = match r.get::<Option<String>, _>("dflt") {
            Some(d) if d.starts_with("nextval(") => "numbered".to_string(),
            Some(d) => canonical_sql(&d),
            None => "none".to_string(),
        };
        let null = if r.get::<String, _>("nullable") == "NO" { "not null" } else { "null" };
        let kind = canonical_type(&r.get::<String, _>("kind"));
        facts.insert(format!("column {t}.{name} {kind} {null} default {default}"));
    }
    // Primary keys, foreign keys and indexes from the catalogue: each constraint's columns in
    // their order.
    let columns_of = "(SELECT string_agg(a.attname, ', ' ORDER BY k.i) \
         FROM unnest({keys}) WITH ORDINALITY AS k(n, i) \
         JOIN pg_attribute a ON a.attrelid = {rel} AND a.attnum = k.n)";
    for r in sqlx::query(&format!(
        "SELECT cl.relname::text AS t, {} AS cols FROM pg_constraint c \
         JOIN pg_class cl ON cl.oid = c.conrelid JOIN pg_namespace n ON n.oid = cl.relnamespace \
         WHERE c.contype = 'p' AND n.nspname = 'public' AND cl.relname NOT LIKE '\\_sqlx%'",
        columns_of.replace("{keys}", "c.conkey").replace("{rel}", "c.conrelid")
    ))
    .fetch_all(&mut c)
    .await
    .unwrap()
    {
        let (t, cols): (String, String) = (r.get("t"), r.get("cols"));
        facts.insert(format!("primary key {t} ({cols})"));
    }
    for r in sqlx::query(
        "SELECT cl.relname::text AS t, a.attname::text AS from_col, fcl.relname::text AS target, \
         fa.attname::text AS to_col, c.confdeltype::text AS action FROM pg_constraint c \
         JOIN pg_class cl ON cl.oid = c.conrelid JOIN pg_class fcl ON fcl.oid = c.confrelid \
         JOIN pg_namespace n ON n.oid = cl.relnamespace \
         CROSS JOIN LATERAL unnest(c.conkey, c.confkey) AS k(a_num, f_num) \
         JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.a_num \
         JOIN pg_attribute fa ON fa.attrelid = c.confrelid AND fa.attnum = k.f_num \
         WHERE c.contype = 'f' AND n.nspname = 'public'",
    )
    .fetch_all(&mut c)
    .await
    .unwrap()
    {
        let action = match r.get::<String, _>("action").as_str() {
            "a" => "no action",
            "r" => "restrict",
            "c" => "cascade",
            "n" => "set null",
            "d" => "set default",
            other => panic!("an ON DELETE action PostgreSQL calls {other:?}"),
        };
        let (t, from, target, to): (String, String, String, String) =
            (r.get("t"), r.get("from_col"), r.get("target"), r.get("to_col"));
        facts.insert(format!("foreign key {t}.{from} -> {target}.{to} on delete {action}"));
    }
    for r in sqlx::query(&format!(
        "SELECT t.relname::text AS t, i.relname::text AS name, ix.indisunique AS is_unique, \
         pg_get_expr(ix.indpred, ix.indrelid) AS condition, con.contype::text AS constraint_kind, \
         {} AS cols \
         FROM pg_index ix JOIN pg_class t ON t.oid = ix.indrelid \
         JOIN pg_class i ON i.oid = ix.indexrelid JOIN pg_namespace n ON n.oid = t.relnamespace \
         LEFT JOIN pg_constraint con ON con.conindid = ix.indexrelid AND con.contype IN ('p', 'u') \
         WHERE n.nspname = 'public' AND t.relname NOT LIKE '\\_sqlx%'",
        columns_of.replace("{keys}", "ix.indkey::int2[]").replace("{rel}", "t.oid")
    ))
    .fetch_all(&mut c)
    .await
    .unwrap()
    {
        let kind: Option<String> = r.get("constraint_kind");
        if kind.as_deref() == Some("p") {
            continue;
        }
        let (t, cols): (String, String) = (r.get("t"), r.get("cols"));
        let name = if kind.as_deref() == Some("u") {
            "(of a unique constraint)".to_string()
        } else {
            r.get::<String, _>("name")
        };
        let condition = r
            .get::<Option<String>, _>("condition")
            .map_or_else(|| "all rows".to_string(), |c| canonical_sql(&c));
        let unique = if r.get::<bool, _>("is_unique") { "unique " } else { "" };
        facts.insert(format!("{unique}index {name} on {t} ({cols}) where {condition}"));
    }
    facts
}

#[test]
fn the_mapping_reads_both_dialects_alike() {
    assert_eq!(canonical_sql("('queued'::text)"), canonical_sql("'queued'"));
    assert_eq!(canonical_sql("(reset_at IS NULL)"), "reset_at is null");
    assert_eq!(
        canonical_sql("((kind = 'worker'::text) AND (revoked_at IS NULL))"),
        canonical_sql("kind = 'worker' AND revoked_at IS NULL")
    );
    assert_eq!(canonical_type("BIGINT"), canonical_type("bigint"));
    assert_ne!(canonical_type("INTEGER"), canonical_type("bigint"));
    assert!(canonical_type("jsonb").starts_with("unmapped"));
}
