//! Site-wide settings instructors choose, by name (`HOLD_FIRST_COMMENTS`, …).

use crate::{Store, StoreError};

impl Store {
    /// A site-wide setting instructors choose, by name.
    pub async fn setting(&self, name: &str) -> Result<Option<String>, StoreError> {
        #[derive(sqlx::FromRow)]
        struct Value {
            value: String,
        }
        let row = sqlx::query_as::<_, Value>("SELECT value FROM settings WHERE name = $1")
            .bind(name)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.map(|r| r.value))
    }

    pub async fn set_setting(&self, name: &str, value: &str) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO settings (name, value) VALUES ($1, $2) \
             ON CONFLICT (name) DO UPDATE SET value = excluded.value",
        )
        .bind(name)
        .bind(value)
        .execute(&self.pool)
        .await?;
        Ok(())
    }
}
